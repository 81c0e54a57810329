#pragma once
// PATHSAMPLE's endpoint sets min.A and min.B as the optional group /endpoints of minima.h5:
// datasets a and b of 0-based rows of /minima. Part of the HDF5 database (Database.h).
#include <string>

#include "landscape/network/Hdf5File.h"
#include "landscape/network/StoredNetwork.h"

namespace landscape::database {

/// Writes /endpoints/a and /endpoints/b (0-based rows of /minima) when either set is non-empty.
void writeEndpointSets(hid_t file, const StoredTransitionNetwork& network, const std::string& path);

/// Reads /endpoints into network.setA and setB when the group exists; every entry must be a row
/// of network.minima.
void readEndpointSets(hid_t file, StoredTransitionNetwork& network, const std::string& path);

}  // namespace landscape::database
