#pragma once
// The transition states of a network as the optional group /transition_states of minima.h5: energy,
// coordinates (m x 3N), the two minima each connects (m x 2 rows of /minima) and the eigenvector
// search's eigenvalue, plus the Hessian-derived fields of DatabaseProperties.h (the ts.data of
// PATHSAMPLE). Part of the HDF5 database (Database.h).
#include <cstddef>
#include <string>
#include <vector>

#include "landscape/network/Database.h"
#include "landscape/network/Hdf5File.h"

namespace landscape::database {

/// Creates /transition_states in `file` and writes `states` into it (validated by the caller).
void writeTransitionStates(hid_t file, const DatabaseMetadata& metadata,
                           const std::vector<StoredTransitionState>& states,
                           const std::string& path);

/// Reads /transition_states into network.transitionStates when the group exists (none otherwise),
/// after network.minima: energies and coordinates must be finite and the minima rows of /minima;
/// the eigenvalue and the Hessian-derived datasets are optional.
void readTransitionStates(hid_t file, StoredTransitionNetwork& network, std::size_t atoms,
                          const std::string& path);

}  // namespace landscape::database
