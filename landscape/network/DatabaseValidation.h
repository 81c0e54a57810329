#pragma once
// The checks the database makes on what it is asked to write, before any file is touched: complete
// metadata, 3N coordinates per point, finite energies and coordinates (what a read refuses is not
// written either), and indices of minima that exist. Each failure throws std::invalid_argument
// with a sentence naming the call, the file and the entry. No HDF5 here.
#include <string>
#include <vector>

#include "landscape/network/Database.h"

namespace landscape::database {

/// The checks of MinimaDatabase::write and append (`function` names which in messages).
void validateInput(const std::string& function, const std::string& path,
                   const DatabaseMetadata& metadata, const std::vector<StoredMinimum>& minima);

/// The checks of TransitionNetworkDatabase::write: the metadata's, then every minimum, endpoint,
/// growth pair and transition state of the network.
void validateNetwork(const std::string& path, const DatabaseMetadata& metadata,
                     const StoredTransitionNetwork& network);

}  // namespace landscape::database
