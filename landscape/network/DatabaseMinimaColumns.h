#pragma once
// The four datasets every minima database has: /minima/energy, coordinates (n x 3N),
// first_found_step and function_calls. Creates the group with them empty, opens them checked
// against each other and the atom count, and appends rows to them. Part of the HDF5 database
// (Database.h); the optional Hessian-derived datasets of /minima are in DatabaseProperties.h.
#include <cstddef>
#include <string>
#include <vector>

#include "landscape/network/Database.h"
#include "landscape/network/Hdf5File.h"

namespace landscape::database {

Column energyColumn();
Column coordinatesColumn();
Column firstFoundStepColumn();
Column functionCallsColumn();

/// Creates /minima in `file` with its four datasets, empty and extendible.
Handle createMinimaGroup(hid_t file, const DatabaseMetadata& metadata, const std::string& path,
                         hsize_t rowsHint = 0);

/// Opens /minima, which must exist.
Handle openMinimaGroup(hid_t file, const std::string& path);

/// The four datasets of /minima, opened and checked against each other and the atom count.
struct MinimaDatasets {
  OpenDataset energy;
  OpenDataset coordinates;
  OpenDataset firstFoundStep;
  OpenDataset functionCalls;
  hsize_t count = 0;
};

MinimaDatasets openMinimaDatasets(hid_t group, std::size_t atoms, const std::string& path);

/// Appends the minima to the (validated) datasets of /minima and closes them, checking each close
/// because closing flushes the chunk cache.
void appendMinima(MinimaDatasets& sets, const std::vector<StoredMinimum>& minima, std::size_t atoms,
                  const std::string& path);

}  // namespace landscape::database
