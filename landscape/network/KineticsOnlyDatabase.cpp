// Kinetics-only transition networks in network.h5's layout (KineticsOnlyDatabase.h).
#include "landscape/network/KineticsOnlyDatabase.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "landscape/core/InputChecks.h"
#include "landscape/network/DatabaseEndpointSets.h"
#include "landscape/network/DatabaseHeader.h"
#include "landscape/network/DatabaseProperties.h"
#include "landscape/network/DatabaseSchema.h"
#include "landscape/network/Hdf5File.h"

namespace landscape {

namespace {

using namespace database;

constexpr const char* kKineticsOnlyAttribute = "kinetics_only";
const std::string kRoot = "the root group";

void checkWritable(const DatabaseMetadata& metadata, const StoredTransitionNetwork& network) {
  const std::string where = "KineticsOnlyDatabase::write: ";
  if (metadata.atoms != 0) throw std::invalid_argument(where + "metadata.atoms must be 0");
  if (metadata.energyUnit.empty() || metadata.lengthUnit.empty())
    throw std::invalid_argument(where + "the energy and length units must be given");
  const int n = static_cast<int>(network.minima.size());
  for (std::size_t i = 0; i < network.minima.size(); ++i) {
    const StoredNetworkMinimum& m = network.minima[i];
    if (!m.coordinates.empty() || !m.properties.hessianEigenvalues.empty())
      throw std::invalid_argument(where + "minimum " + std::to_string(i + 1) +
                                  " has coordinates or Hessian eigenvalues");
    if (!std::isfinite(m.energy))
      throw std::invalid_argument(where + "minimum " + std::to_string(i + 1) +
                                  " has a non-finite energy");
  }
  for (std::size_t i = 0; i < network.transitionStates.size(); ++i) {
    const StoredTransitionState& ts = network.transitionStates[i];
    const std::string what = "transition state " + std::to_string(i + 1);
    if (!ts.coordinates.empty() || !ts.properties.hessianEigenvalues.empty())
      throw std::invalid_argument(where + what + " has coordinates or Hessian eigenvalues");
    if (!std::isfinite(ts.energy))
      throw std::invalid_argument(where + what + " has a non-finite energy");
    if (ts.plusMinimum < 0 || ts.plusMinimum >= n || ts.minusMinimum < 0 || ts.minusMinimum >= n)
      throw std::invalid_argument(where + what + " names a minimum that is not in the network");
  }
}

// A molecule's log products stay those of its files, PATHSAMPLE's sums of ln((rad/s)^2) (without
// coordinates the modes that a conversion to the mass-weighted unit counts are not known): the
// units attribute says so.
constexpr const char* kPathsampleFrequencyUnit = "ln((rad/s)^2), PATHSAMPLE's AMBER convention";

void labelFileFrequencies(hid_t group, const DatabaseMetadata& metadata, const std::string& path) {
  if (!massWeighted(metadata)) return;
  const std::string where = datasetPath(kLogProductDataset, "");
  Handle set = checked(H5Dopen2(group, kLogProductDataset, H5P_DEFAULT), H5Dclose, path,
                       "cannot open dataset " + where);
  check(H5Adelete(set.get(), kUnitsAttribute), path, "cannot relabel dataset " + where);
  writeStringAttribute(set.get(), kUnitsAttribute, kPathsampleFrequencyUnit, path, where);
}

Handle createGroup(hid_t file, const char* name, const std::string& path) {
  return checked(H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, path,
                 std::string("cannot create group /") + name);
}

Handle openGroup(hid_t file, const char* name, const std::string& path) {
  const htri_t exists = H5Lexists(file, name, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, std::string("cannot look up group /") + name);
  if (exists == 0) invalid(path, std::string("has no group /") + name);
  return checked(H5Gopen2(file, name, H5P_DEFAULT), H5Gclose, path,
                 std::string("cannot open group /") + name);
}

std::vector<double> readEnergies(hid_t group, const char* groupName, const std::string& path) {
  const Column column = floatColumn(kEnergyDataset, groupName);
  OpenDataset set = openDataset(group, column, false, path);
  requireMemory(prefix(path) + ": " + std::to_string(set.rows) + " energies of /" + groupName,
                static_cast<double>(set.rows), sizeof(double));
  std::vector<double> energies(set.rows);
  readWhole(set, column, energies.data(), path);
  for (std::size_t i = 0; i < energies.size(); ++i)
    if (!std::isfinite(energies[i]))
      invalid(path, "row " + std::to_string(i + 1) + " of " + datasetPath(column) +
                        " is not finite");
  return energies;
}

}  // namespace

bool KineticsOnlyDatabase::holdsOne(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  SilenceHdf5Errors silence;
  if (H5Fis_hdf5(path.c_str()) <= 0) return false;
  try {
    Handle file = openExisting(path, H5F_ACC_RDONLY);
    return hasAttribute(file.get(), kKineticsOnlyAttribute, path, kRoot) &&
           hasAttribute(file.get(), "atoms", path, kRoot) &&
           readIntegerAttribute(file.get(), kKineticsOnlyAttribute, path, kRoot) == 1 &&
           readIntegerAttribute(file.get(), "atoms", path, kRoot) == 0;
  } catch (const std::exception&) {
    return false;  // not one of ours: the ordinary reader says what is wrong with it
  }
}

void KineticsOnlyDatabase::write(const std::string& path, const DatabaseMetadata& metadata,
                                 const StoredTransitionNetwork& network) {
  checkWritable(metadata, network);
  SilenceHdf5Errors silence;
  const std::string temporary = path + ".tmp";
  try {
    Handle file = checked(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                          H5Fclose, path, "cannot create the temporary file '" + temporary + "'");
    writeRootAttributes(file.get(), metadata, path);
    writeIntegerAttribute(file.get(), kKineticsOnlyAttribute, 1, H5T_STD_I32LE, path, kRoot);

    const std::size_t n = network.minima.size(), m = network.transitionStates.size();
    std::vector<double> energies(n);
    for (std::size_t i = 0; i < n; ++i) energies[i] = network.minima[i].energy;
    Handle minima = createGroup(file.get(), kMinimaGroup, path);
    createFilledDataset(minima.get(), floatColumn(kEnergyDataset, kMinimaGroup), 0,
                        metadata.energyUnit, n, energies.data(), path);
    writeProperties(minima.get(), kMinimaGroup, network.minima, metadata, path);
    labelFileFrequencies(minima.get(), metadata, path);
    check(minima.close(), path, std::string("cannot close group /") + kMinimaGroup);

    std::vector<double> tsEnergies(m);
    std::vector<long> connected(2 * m);
    for (std::size_t i = 0; i < m; ++i) {
      tsEnergies[i] = network.transitionStates[i].energy;
      connected[2 * i] = network.transitionStates[i].plusMinimum;
      connected[2 * i + 1] = network.transitionStates[i].minusMinimum;
    }
    Handle states = createGroup(file.get(), kTransitionStatesGroup, path);
    createFilledDataset(states.get(), floatColumn(kEnergyDataset, kTransitionStatesGroup), 0,
                        metadata.energyUnit, m, tsEnergies.data(), path);
    createFilledDataset(states.get(),
                        integerColumn(kConnectedMinimaDataset, kTransitionStatesGroup), 2,
                        kIndexUnit, m, connected.data(), path);
    writeProperties(states.get(), kTransitionStatesGroup, network.transitionStates, metadata,
                    path);
    labelFileFrequencies(states.get(), metadata, path);
    check(states.close(), path, std::string("cannot close group /") + kTransitionStatesGroup);

    writeEndpointSets(file.get(), network, path);
    check(file.close(), path, "cannot close the temporary file '" + temporary + "'");
    commit(temporary, path);
  } catch (...) {
    removeQuietly(temporary);
    throw;
  }
}

StoredTransitionNetwork KineticsOnlyDatabase::read(const std::string& path,
                                                   DatabaseMetadata* metadata) {
  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDONLY);
  DatabaseMetadata header;
  header.hessianMasses = kUnitMasses;
  const long long version = readIntegerAttribute(file.get(), kSchemaVersionAttribute, path, kRoot);
  if (version < 1 || version > MinimaDatabase::kSchemaVersion)
    invalid(path, "schema_version " + std::to_string(version) + " is not one this build reads (1.." +
                      std::to_string(MinimaDatabase::kSchemaVersion) + ")");
  if (!hasAttribute(file.get(), kKineticsOnlyAttribute, path, kRoot) ||
      readIntegerAttribute(file.get(), kKineticsOnlyAttribute, path, kRoot) != 1 ||
      readIntegerAttribute(file.get(), "atoms", path, kRoot) != 0)
    invalid(path, "is not a kinetics-only network (root attributes kinetics_only = 1, atoms = 0)");
  auto optional = [&](const char* name) {
    return hasAttribute(file.get(), name, path, kRoot)
               ? readStringAttribute(file.get(), name, path, kRoot)
               : std::string();
  };
  header.energyUnit = readStringAttribute(file.get(), "energy_unit", path, kRoot);
  header.lengthUnit = readStringAttribute(file.get(), "length_unit", path, kRoot);
  header.potential = optional("potential");
  header.program = optional("program");
  header.createdBy = optional("created_by");
  if (hasAttribute(file.get(), "hessian_masses", path, kRoot))
    header.hessianMasses = readStringAttribute(file.get(), "hessian_masses", path, kRoot);
  if (header.hessianMasses != kUnitMasses && header.hessianMasses != kAtomicMassesAmu)
    invalid(path, "attribute 'hessian_masses' is '" + header.hessianMasses + "'");
  header.atoms = 0;

  StoredTransitionNetwork network;
  {
    Handle minima = openGroup(file.get(), kMinimaGroup, path);
    const std::vector<double> energies = readEnergies(minima.get(), kMinimaGroup, path);
    network.minima.resize(energies.size());
    for (std::size_t i = 0; i < energies.size(); ++i) network.minima[i].energy = energies[i];
    readProperties(minima.get(), kMinimaGroup, network.minima, 0, path);
  }
  {
    Handle states = openGroup(file.get(), kTransitionStatesGroup, path);
    const std::vector<double> energies = readEnergies(states.get(), kTransitionStatesGroup, path);
    const std::size_t m = energies.size();
    const Column minimaColumn = integerColumn(kConnectedMinimaDataset, kTransitionStatesGroup);
    OpenDataset set = openShapedDataset(states.get(), minimaColumn, 2, m, path);
    std::vector<long> connected(2 * m);
    readWhole(set, minimaColumn, connected.data(), path);
    network.transitionStates.resize(m);
    const long n = static_cast<long>(network.minima.size());
    for (std::size_t i = 0; i < m; ++i) {
      StoredTransitionState& ts = network.transitionStates[i];
      ts.energy = energies[i];
      for (long index : {connected[2 * i], connected[2 * i + 1]})
        if (index < 0 || index >= n)
          invalid(path, "row " + std::to_string(i + 1) + " of " + datasetPath(minimaColumn) +
                            " names minimum row " + std::to_string(index) + ", but /minima has " +
                            std::to_string(n) + " rows");
      ts.plusMinimum = static_cast<int>(connected[2 * i]);
      ts.minusMinimum = static_cast<int>(connected[2 * i + 1]);
    }
    readProperties(states.get(), kTransitionStatesGroup, network.transitionStates, 0, path);
  }
  readEndpointSets(file.get(), network, path);
  if (metadata != nullptr) *metadata = header;
  return network;
}

StoredTransitionNetwork readNetworkOfEitherKind(const std::string& path,
                                               DatabaseMetadata* metadata) {
  return KineticsOnlyDatabase::holdsOne(path) ? KineticsOnlyDatabase::read(path, metadata)
                                              : TransitionNetworkDatabase::read(path, metadata);
}

void writeNetworkOfEitherKind(const std::string& path, const DatabaseMetadata& metadata,
                              const StoredTransitionNetwork& network) {
  if (metadata.atoms == 0)
    KineticsOnlyDatabase::write(path, metadata, network);
  else
    TransitionNetworkDatabase::write(path, metadata, network);
}

}  // namespace landscape
