#pragma once
// The header of minima.h5: the root group's attributes (schema_version, program, created_by,
// potential, the units, hessian_masses, atoms), written from a DatabaseMetadata and read back with
// the checks every reader of the file makes first. Part of the HDF5 database (Database.h).
#include <string>

#include "landscape/network/Database.h"
#include "landscape/network/Hdf5File.h"

namespace landscape::database {

/// Writes the root attributes of a new file, stamping MinimaDatabase::kSchemaVersion.
void writeRootAttributes(hid_t file, const DatabaseMetadata& metadata, const std::string& path);

/// Reads and validates the root attributes. schema_version, atoms and the two units are required;
/// program, created_by and potential are read when present (empty otherwise).
DatabaseMetadata readRootAttributes(hid_t file, const std::string& path);

}  // namespace landscape::database
