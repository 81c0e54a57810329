#pragma once
// The state of a growth run (pathsample grow) as the optional group /growth of minima.h5: the
// cycles done and the settings as attributes, the tried and pending minimum pairs as n x 2
// datasets of 0-based rows of /minima. Part of the HDF5 database (Database.h).
#include <string>

#include "landscape/network/Hdf5File.h"
#include "landscape/network/StoredNetwork.h"

namespace landscape::database {

/// Writes /growth (attributes cycles and settings, pair lists n x 2) unless the record is empty.
void writeGrowthRecord(hid_t file, const GrowthRecord& growth, const std::string& path);

/// Reads /growth into network.growth when the group exists; every pair must name rows of
/// network.minima.
void readGrowthRecord(hid_t file, StoredTransitionNetwork& network, const std::string& path);

}  // namespace landscape::database
