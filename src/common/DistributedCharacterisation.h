#pragma once
// The characterisation of a network's new stationary points (finite-difference Hessians, their
// eigenvalues and log products, point groups, moments of inertia: landscape/paths/Characterisation.h)
// spread over the ranks of an MPI job (docs/cluster.md): rank r characterises its contiguous block
// of the points (landscape/core/IndexBlock.h) on its own GPU or CPU, then every rank receives
// every block. A point's properties depend on its own coordinates only (characteriseTogether's
// contract), so every rank holds what one process would have computed, bit for bit, and none
// repeats another's Hessians. pathsample grow characterises each cycle's new points this way.
#include <vector>

#include "landscape/core/ByteStream.h"
#include "landscape/network/StoredNetwork.h"
#include "landscape/paths/Characterisation.h"
#include "src/common/Communicator.h"

namespace landscape {

/// characteriseTogether over `ranks` (collective: every rank calls it with the same points).
std::vector<StationaryPointProperties> characteriseOverRanks(
    Potential& potential, const std::vector<std::vector<double>>& points,
    const CharacterisationParams& params, Communicator& ranks);

/// One point's properties on the wire, every field.
void putProperties(ByteWriter& out, const StationaryPointProperties& p);
StationaryPointProperties getProperties(ByteReader& in);

}  // namespace landscape
