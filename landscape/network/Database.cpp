#include "landscape/network/Database.h"

// The two database classes over the files' parts: the HDF5 layer (Hdf5File.h), the root attributes
// (DatabaseHeader.h), the datasets of /minima (DatabaseMinimaColumns.h), the Hessian-derived fields
// (DatabaseProperties.h), /transition_states, /endpoints and /growth, and the checks on what is
// written (DatabaseValidation.h). Every public call silences HDF5's error printing, and every
// write goes to a temporary file that is published whole.
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "landscape/core/InputChecks.h"
#include "landscape/network/DatabaseEndpointSets.h"
#include "landscape/network/DatabaseGrowthRecord.h"
#include "landscape/network/DatabaseHeader.h"
#include "landscape/network/DatabaseMinimaColumns.h"
#include "landscape/network/DatabaseProperties.h"
#include "landscape/network/DatabaseSchema.h"
#include "landscape/network/DatabaseTransitionStates.h"
#include "landscape/network/DatabaseValidation.h"
#include "landscape/network/Hdf5File.h"

namespace landscape {

using namespace database;

namespace fs = std::filesystem;

void MinimaDatabase::write(const std::string& path, const DatabaseMetadata& metadata,
                           const std::vector<StoredMinimum>& minima) {
  validateInput("write", path, metadata, minima);
  SilenceHdf5Errors silence;
  const std::string temporary = path + ".tmp";
  try {
    Handle file = createFile(temporary, path);
    writeRootAttributes(file.get(), metadata, path);
    Handle group = createMinimaGroup(file.get(), metadata, path, minima.size());
    // One code path for writing rows: a fresh file is an empty one that is appended to.
    MinimaDatasets sets = openMinimaDatasets(group.get(), metadata.atoms, path);
    appendMinima(sets, minima, metadata.atoms, path);
    check(group.close(), path, std::string("cannot close group /") + kMinimaGroup);
    check(file.close(), path, "cannot close the temporary file '" + temporary + "'");
    commit(temporary, path);
  } catch (...) {
    removeQuietly(temporary);
    throw;
  }
}

void MinimaDatabase::append(const std::string& path, const DatabaseMetadata& metadata,
                            const std::vector<StoredMinimum>& minima) {
  validateInput("append", path, metadata, minima);
  std::error_code error;
  if (!fs::exists(path, error)) {
    write(path, metadata, minima);
    return;
  }
  SilenceHdf5Errors silence;
  {
    // Check compatibility on the original before paying for the copy.
    Handle file = openExisting(path, H5F_ACC_RDONLY);
    const DatabaseMetadata existing = readRootAttributes(file.get(), path);
    auto require = [&](bool same, const std::string& field, const std::string& stored,
                       const std::string& given) {
      if (!same) {
        invalid(path, "cannot append: the file has " + field + " " + stored +
                          " but the new minima have " + given);
      }
    };
    require(existing.atoms == metadata.atoms, "atoms =", std::to_string(existing.atoms),
            std::to_string(metadata.atoms));
    require(existing.potential == metadata.potential, "potential", quoteInput(existing.potential),
            quoteInput(metadata.potential));
    require(existing.energyUnit == metadata.energyUnit, "energy_unit",
            quoteInput(existing.energyUnit), quoteInput(metadata.energyUnit));
    require(existing.lengthUnit == metadata.lengthUnit, "length_unit",
            quoteInput(existing.lengthUnit), quoteInput(metadata.lengthUnit));
    Handle group = openMinimaGroup(file.get(), path);
    openMinimaDatasets(group.get(), metadata.atoms, path);
  }
  const std::string temporary = path + ".tmp";
  try {
    fs::copy_file(path, temporary, fs::copy_options::overwrite_existing, error);
    if (error) invalid(path, "cannot copy it to '" + temporary + "': " + error.message());
    Handle file = checked(H5Fopen(temporary.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, path,
                          "cannot open the temporary copy '" + temporary + "'");
    Handle group = openMinimaGroup(file.get(), path);
    MinimaDatasets sets = openMinimaDatasets(group.get(), metadata.atoms, path);
    const hsize_t oldCount = sets.count;
    appendMinima(sets, minima, metadata.atoms, path);
    extendOptionalMinimaColumns(group.get(), minima.size(), metadata.atoms, oldCount, path);
    check(group.close(), path, std::string("cannot close group /") + kMinimaGroup);
    check(file.close(), path, "cannot close the temporary copy '" + temporary + "'");
    commit(temporary, path);
  } catch (...) {
    removeQuietly(temporary);
    throw;
  }
}

std::vector<StoredMinimum> MinimaDatabase::read(const std::string& path,
                                                DatabaseMetadata* metadata) {
  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDONLY);
  const DatabaseMetadata header = readRootAttributes(file.get(), path);
  Handle group = openMinimaGroup(file.get(), path);
  MinimaDatasets sets = openMinimaDatasets(group.get(), header.atoms, path);

  const std::size_t n = sets.count;
  const std::size_t width = 3 * header.atoms;
  // The rows are read whole, then copied into the minima: twice the coordinates, and the counts.
  requireMemory(prefix(path) + ": " + std::to_string(n) + " minima of " +
                    std::to_string(header.atoms) + " atoms",
                static_cast<double>(n), 2.0 * sizeof(double) * static_cast<double>(width) + 64.0);
  std::vector<double> energies(n);
  std::vector<double> coordinates(n * width);
  std::vector<long> steps(n);
  std::vector<long> calls(n);
  if (n > 0) {
    auto readAll = [&](OpenDataset& set, const Column& column, void* buffer) {
      check(H5Dread(set.dataset.get(), column.memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer),
            path, "cannot read dataset " + datasetPath(column));
    };
    readAll(sets.energy, energyColumn(), energies.data());
    readAll(sets.coordinates, coordinatesColumn(), coordinates.data());
    readAll(sets.firstFoundStep, firstFoundStepColumn(), steps.data());
    readAll(sets.functionCalls, functionCallsColumn(), calls.data());
  }

  std::vector<StoredMinimum> minima(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(energies[i])) {
      invalid(path, "dataset " + datasetPath(kEnergyDataset, kMinimaGroup) + " row " +
                        std::to_string(i) + " is not a finite energy");
    }
    for (std::size_t k = i * width; k < (i + 1) * width; ++k) {
      if (!std::isfinite(coordinates[k])) {
        invalid(path, "dataset " + datasetPath(kCoordinatesDataset, kMinimaGroup) + " row " +
                          std::to_string(i) + " column " + std::to_string(k - i * width) +
                          " is not a finite number");
      }
    }
    minima[i].energy = energies[i];
    minima[i].coordinates.assign(coordinates.begin() + i * width,
                                 coordinates.begin() + (i + 1) * width);
    minima[i].firstFoundStep = steps[i];
    minima[i].functionCalls = calls[i];
  }
  if (metadata != nullptr) *metadata = header;
  return minima;
}

DatabaseMetadata MinimaDatabase::readMetadata(const std::string& path) {
  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDONLY);
  DatabaseMetadata header = readRootAttributes(file.get(), path);
  Handle group = openMinimaGroup(file.get(), path);
  openMinimaDatasets(group.get(), header.atoms, path);
  return header;
}

std::size_t MinimaDatabase::count(const std::string& path) {
  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDONLY);
  const DatabaseMetadata header = readRootAttributes(file.get(), path);
  Handle group = openMinimaGroup(file.get(), path);
  return openMinimaDatasets(group.get(), header.atoms, path).count;
}

void TransitionNetworkDatabase::write(const std::string& path, const DatabaseMetadata& metadata,
                                      const StoredTransitionNetwork& network) {
  validateNetwork(path, metadata, network);
  SilenceHdf5Errors silence;
  const std::string temporary = path + ".tmp";
  try {
    Handle file = createFile(temporary, path);
    writeRootAttributes(file.get(), metadata, path);

    // /minima: the four datasets of a minima database, then the Hessian-derived ones.
    Handle minimaGroup = createMinimaGroup(file.get(), metadata, path, network.minima.size());
    std::vector<StoredMinimum> plain(network.minima.size());
    for (std::size_t i = 0; i < plain.size(); ++i) {
      const StoredNetworkMinimum& m = network.minima[i];
      plain[i] = {m.energy, m.coordinates, m.firstFoundStep, m.functionCalls};
    }
    MinimaDatasets sets = openMinimaDatasets(minimaGroup.get(), metadata.atoms, path);
    appendMinima(sets, plain, metadata.atoms, path);
    writeProperties(minimaGroup.get(), kMinimaGroup, network.minima, metadata, path);
    check(minimaGroup.close(), path, std::string("cannot close group /") + kMinimaGroup);

    writeTransitionStates(file.get(), metadata, network.transitionStates, path);
    writeEndpointSets(file.get(), network, path);
    writeGrowthRecord(file.get(), network.growth, path);
    check(file.close(), path, "cannot close the temporary file '" + temporary + "'");
    commit(temporary, path);
  } catch (...) {
    removeQuietly(temporary);
    throw;
  }
}

StoredTransitionNetwork TransitionNetworkDatabase::read(const std::string& path,
                                                        DatabaseMetadata* metadata) {
  DatabaseMetadata header;
  const std::vector<StoredMinimum> plain = MinimaDatabase::read(path, &header);
  StoredTransitionNetwork network;
  network.minima.resize(plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    StoredNetworkMinimum& m = network.minima[i];
    m.energy = plain[i].energy;
    m.coordinates = plain[i].coordinates;
    m.firstFoundStep = plain[i].firstFoundStep;
    m.functionCalls = plain[i].functionCalls;
  }

  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDONLY);
  {
    Handle group = openMinimaGroup(file.get(), path);
    readProperties(group.get(), kMinimaGroup, network.minima, header.atoms, path);
  }
  readTransitionStates(file.get(), network, header.atoms, path);
  readEndpointSets(file.get(), network, path);
  readGrowthRecord(file.get(), network, path);
  if (metadata != nullptr) *metadata = header;
  return network;
}

namespace detail {

void overwriteSchemaVersion(const std::string& path, int schemaVersion) {
  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDWR);
  const std::string where = "the root group";
  if (hasAttribute(file.get(), kSchemaVersionAttribute, path, where)) {
    check(H5Adelete(file.get(), kSchemaVersionAttribute), path,
          "cannot delete attribute 'schema_version'");
  }
  writeIntegerAttribute(file.get(), kSchemaVersionAttribute, schemaVersion, H5T_STD_I32LE, path,
                        where);
  check(file.close(), path, "cannot close it");
}

}  // namespace detail

}  // namespace landscape
