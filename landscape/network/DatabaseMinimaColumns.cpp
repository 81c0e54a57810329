// The four datasets of /minima (DatabaseMinimaColumns.h): created, opened with their shapes
// checked, and appended to.
#include "landscape/network/DatabaseMinimaColumns.h"

#include <algorithm>

#include "landscape/network/DatabaseSchema.h"

namespace landscape::database {

Column energyColumn() { return floatColumn(kEnergyDataset, kMinimaGroup); }
Column coordinatesColumn() { return floatColumn(kCoordinatesDataset, kMinimaGroup); }
Column firstFoundStepColumn() { return integerColumn(kFirstFoundStepDataset, kMinimaGroup); }
Column functionCallsColumn() { return integerColumn(kFunctionCallsDataset, kMinimaGroup); }

Handle createMinimaGroup(hid_t file, const DatabaseMetadata& metadata, const std::string& path,
                         hsize_t rowsHint) {
  Handle group = checked(H5Gcreate2(file, kMinimaGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         H5Gclose, path, std::string("cannot create group /") + kMinimaGroup);
  const hsize_t width = 3 * static_cast<hsize_t>(metadata.atoms);
  createExtendibleDataset(group.get(), energyColumn(), 0, metadata.energyUnit, path, rowsHint);
  createExtendibleDataset(group.get(), coordinatesColumn(), width, metadata.lengthUnit, path,
                          rowsHint);
  createExtendibleDataset(group.get(), firstFoundStepColumn(), 0, kCountUnit, path, rowsHint);
  createExtendibleDataset(group.get(), functionCallsColumn(), 0, kCountUnit, path, rowsHint);
  return group;
}

Handle openMinimaGroup(hid_t file, const std::string& path) {
  const std::string what = std::string("cannot open group /") + kMinimaGroup;
  const htri_t exists = H5Lexists(file, kMinimaGroup, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, what);
  if (exists == 0) invalid(path, std::string("has no group /") + kMinimaGroup);
  return checked(H5Gopen2(file, kMinimaGroup, H5P_DEFAULT), H5Gclose, path, what);
}

MinimaDatasets openMinimaDatasets(hid_t group, std::size_t atoms, const std::string& path) {
  MinimaDatasets sets;
  sets.energy = openDataset(group, energyColumn(), false, path);
  sets.coordinates = openDataset(group, coordinatesColumn(), true, path);
  sets.firstFoundStep = openDataset(group, firstFoundStepColumn(), false, path);
  sets.functionCalls = openDataset(group, functionCallsColumn(), false, path);
  sets.count = sets.energy.rows;
  const std::string n = std::to_string(sets.count);
  const hsize_t width = 3 * static_cast<hsize_t>(atoms);
  if (sets.coordinates.rows != sets.count || sets.coordinates.width != width) {
    invalid(path, "dataset " + datasetPath(kCoordinatesDataset, kMinimaGroup) + " has shape " +
                      std::to_string(sets.coordinates.rows) + " x " +
                      std::to_string(sets.coordinates.width) + ", but " + n +
                      " energies and atoms = " + std::to_string(atoms) + " need " + n + " x " +
                      std::to_string(width));
  }
  for (const OpenDataset* counted : {&sets.firstFoundStep, &sets.functionCalls}) {
    if (counted->rows != sets.count) {
      const char* name =
          counted == &sets.firstFoundStep ? kFirstFoundStepDataset : kFunctionCallsDataset;
      invalid(path, "dataset " + datasetPath(name, kMinimaGroup) + " has " +
                        std::to_string(counted->rows) + " entries, but " +
                        datasetPath(kEnergyDataset, kMinimaGroup) + " has " + n);
    }
  }
  return sets;
}

void appendMinima(MinimaDatasets& sets, const std::vector<StoredMinimum>& minima, std::size_t atoms,
                  const std::string& path) {
  const std::size_t n = minima.size();
  const std::size_t width = 3 * atoms;
  std::vector<double> energies(n);
  std::vector<double> coordinates(n * width);
  std::vector<long> steps(n);
  std::vector<long> calls(n);
  for (std::size_t i = 0; i < n; ++i) {
    energies[i] = minima[i].energy;
    std::copy(minima[i].coordinates.begin(), minima[i].coordinates.end(),
              coordinates.begin() + i * width);
    steps[i] = minima[i].firstFoundStep;
    calls[i] = minima[i].functionCalls;
  }
  appendRows(sets.energy, energyColumn(), n, energies.data(), path);
  appendRows(sets.coordinates, coordinatesColumn(), n, coordinates.data(), path);
  appendRows(sets.firstFoundStep, firstFoundStepColumn(), n, steps.data(), path);
  appendRows(sets.functionCalls, functionCallsColumn(), n, calls.data(), path);
  for (OpenDataset* set :
       {&sets.energy, &sets.coordinates, &sets.firstFoundStep, &sets.functionCalls}) {
    check(set->dataset.close(), path, "cannot close a dataset of /minima");
  }
}

}  // namespace landscape::database
