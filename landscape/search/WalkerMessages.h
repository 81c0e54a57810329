#pragma once
// What the processes of a walker run send one another (WalkerPeers.h), as bytes: a walker's whole
// state (BasinHoppingState, for the checkpoint that process 0 writes) and minima offered to the
// shared lowest-minima list. Every field travels as its own bits, so a state rebuilt on another
// process continues exactly as it would have on its own.
#include <vector>

#include "landscape/core/ByteStream.h"
#include "landscape/network/StoredMinimum.h"
#include "landscape/search/BasinHoppingState.h"

namespace landscape {

void putStoredMinimum(ByteWriter& out, const StoredMinimum& m);
StoredMinimum getStoredMinimum(ByteReader& in);

void putBasinHoppingState(ByteWriter& out, const BasinHoppingState& s);
BasinHoppingState getBasinHoppingState(ByteReader& in);

}  // namespace landscape
