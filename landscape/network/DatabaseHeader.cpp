// The root attributes of minima.h5 (DatabaseHeader.h): what the file says about the run that
// wrote it, and the schema version a reader checks before anything else.
#include "landscape/network/DatabaseHeader.h"

#include "landscape/core/InputChecks.h"
#include "landscape/network/DatabaseSchema.h"

namespace landscape::database {

void writeRootAttributes(hid_t file, const DatabaseMetadata& metadata, const std::string& path) {
  const std::string where = "the root group";
  writeIntegerAttribute(file, kSchemaVersionAttribute, MinimaDatabase::kSchemaVersion,
                        H5T_STD_I32LE, path, where);
  writeStringAttribute(file, "program", metadata.program, path, where);
  writeStringAttribute(file, "created_by", metadata.createdBy, path, where);
  writeStringAttribute(file, "potential", metadata.potential, path, where);
  writeStringAttribute(file, "energy_unit", metadata.energyUnit, path, where);
  writeStringAttribute(file, "length_unit", metadata.lengthUnit, path, where);
  writeStringAttribute(file, "hessian_masses", metadata.hessianMasses, path, where);
  writeIntegerAttribute(file, "atoms", static_cast<long long>(metadata.atoms), H5T_STD_I64LE, path,
                        where);
}

DatabaseMetadata readRootAttributes(hid_t file, const std::string& path) {
  const std::string where = "the root group";
  if (!hasAttribute(file, kSchemaVersionAttribute, path, where)) {
    invalid(path,
            "has no schema_version attribute on its root group, so it is not a minima "
            "database written by landscape");
  }
  const long long version = readIntegerAttribute(file, kSchemaVersionAttribute, path, where);
  if (version < 1 || version > MinimaDatabase::kSchemaVersion) {
    const std::string known = MinimaDatabase::kSchemaVersion == 1
                                  ? std::string("1")
                                  : "1 to " + std::to_string(MinimaDatabase::kSchemaVersion);
    invalid(path, "has schema_version " + std::to_string(version) +
                      ", but this build of landscape reads schema_version " + known +
                      (version > MinimaDatabase::kSchemaVersion
                           ? " (the file was written by a newer landscape; upgrade to read it)"
                           : ""));
  }

  DatabaseMetadata metadata;
  auto optionalString = [&](const char* name) {
    return hasAttribute(file, name, path, where) ? readStringAttribute(file, name, path, where)
                                                 : std::string();
  };
  auto requiredString = [&](const char* name) {
    if (!hasAttribute(file, name, path, where)) {
      invalid(path, "has no '" + std::string(name) + "' attribute on its root group");
    }
    return readStringAttribute(file, name, path, where);
  };
  metadata.program = optionalString("program");
  metadata.createdBy = optionalString("created_by");
  metadata.potential = optionalString("potential");
  metadata.energyUnit = requiredString("energy_unit");
  metadata.lengthUnit = requiredString("length_unit");
  if (hasAttribute(file, "hessian_masses", path, where)) {
    metadata.hessianMasses = readStringAttribute(file, "hessian_masses", path, where);
    if (metadata.hessianMasses != kUnitMasses && metadata.hessianMasses != kAtomicMassesAmu) {
      invalid(path, "attribute 'hessian_masses' of the root group is " +
                        quoteInput(metadata.hessianMasses) + ", expected '" + kUnitMasses +
                        "' or '" + kAtomicMassesAmu + "'");
    }
  }
  if (!hasAttribute(file, "atoms", path, where)) {
    invalid(path, "has no 'atoms' attribute on its root group");
  }
  const long long atoms = readIntegerAttribute(file, "atoms", path, where);
  if (atoms <= 0) {
    invalid(path, "attribute 'atoms' of the root group must be > 0, got " + std::to_string(atoms));
  }
  // One row of 3N coordinates must fit in memory (and 3N in an integer).
  requireMemory(prefix(path) + ": one minimum of atoms = " + std::to_string(atoms), 3.0 * atoms,
                sizeof(double));
  metadata.atoms = static_cast<std::size_t>(atoms);
  return metadata;
}

}  // namespace landscape::database
