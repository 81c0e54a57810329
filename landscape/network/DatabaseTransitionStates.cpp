// The group /transition_states of a transition network in minima.h5 (DatabaseTransitionStates.h).
#include "landscape/network/DatabaseTransitionStates.h"

#include <algorithm>
#include <cmath>

#include "landscape/core/InputChecks.h"
#include "landscape/network/DatabaseProperties.h"
#include "landscape/network/DatabaseSchema.h"

namespace landscape::database {

void writeTransitionStates(hid_t file, const DatabaseMetadata& metadata,
                           const std::vector<StoredTransitionState>& states,
                           const std::string& path) {
  const hsize_t width = 3 * static_cast<hsize_t>(metadata.atoms);
  const std::size_t m = states.size();
  Handle tsGroup =
      checked(H5Gcreate2(file, kTransitionStatesGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              H5Gclose, path, std::string("cannot create group /") + kTransitionStatesGroup);
  std::vector<double> energies(m), coordinates(m * width), eigenvalues(m);
  std::vector<long> connected(2 * m);
  for (std::size_t i = 0; i < m; ++i) {
    const StoredTransitionState& ts = states[i];
    energies[i] = ts.energy;
    std::copy(ts.coordinates.begin(), ts.coordinates.end(), coordinates.begin() + i * width);
    connected[2 * i] = ts.plusMinimum;
    connected[2 * i + 1] = ts.minusMinimum;
    eigenvalues[i] = ts.eigenvalue;
  }
  createFilledDataset(tsGroup.get(), floatColumn(kEnergyDataset, kTransitionStatesGroup), 0,
                      metadata.energyUnit, m, energies.data(), path);
  createFilledDataset(tsGroup.get(), floatColumn(kCoordinatesDataset, kTransitionStatesGroup),
                      width, metadata.lengthUnit, m, coordinates.data(), path);
  createFilledDataset(tsGroup.get(), integerColumn(kConnectedMinimaDataset, kTransitionStatesGroup),
                      2, kIndexUnit, m, connected.data(), path);
  createFilledDataset(tsGroup.get(), floatColumn(kEigenvalueDataset, kTransitionStatesGroup), 0,
                      searchEigenvalueUnit(metadata), m, eigenvalues.data(), path);
  writeProperties(tsGroup.get(), kTransitionStatesGroup, states, metadata, path);
  check(tsGroup.close(), path, std::string("cannot close group /") + kTransitionStatesGroup);
}

void readTransitionStates(hid_t file, StoredTransitionNetwork& network, std::size_t atoms,
                          const std::string& path) {
  const htri_t exists = H5Lexists(file, kTransitionStatesGroup, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, std::string("cannot look up group /") + kTransitionStatesGroup);
  if (exists == 0) return;
  Handle group = checked(H5Gopen2(file, kTransitionStatesGroup, H5P_DEFAULT), H5Gclose, path,
                         std::string("cannot open group /") + kTransitionStatesGroup);
  const hsize_t width = 3 * static_cast<hsize_t>(atoms);
  const Column energyColumn = floatColumn(kEnergyDataset, kTransitionStatesGroup);
  OpenDataset energySet = openDataset(group.get(), energyColumn, false, path);
  const std::size_t m = energySet.rows;
  requireMemory(prefix(path) + ": " + std::to_string(m) + " transition states of " +
                    std::to_string(atoms) + " atoms",
                static_cast<double>(m), 2.0 * sizeof(double) * static_cast<double>(width) + 64.0);
  std::vector<double> energies(m), coordinates(m * width);
  std::vector<long> connected(2 * m);
  readWhole(energySet, energyColumn, energies.data(), path);
  const Column coordinatesColumn = floatColumn(kCoordinatesDataset, kTransitionStatesGroup);
  OpenDataset coordinateSet = openShapedDataset(group.get(), coordinatesColumn, width, m, path);
  readWhole(coordinateSet, coordinatesColumn, coordinates.data(), path);
  const Column minimaColumn = integerColumn(kConnectedMinimaDataset, kTransitionStatesGroup);
  OpenDataset minimaSet = openShapedDataset(group.get(), minimaColumn, 2, m, path);
  readWhole(minimaSet, minimaColumn, connected.data(), path);
  network.transitionStates.resize(m);
  const long n = static_cast<long>(network.minima.size());
  for (std::size_t i = 0; i < m; ++i) {
    StoredTransitionState& ts = network.transitionStates[i];
    ts.energy = energies[i];
    ts.coordinates.assign(coordinates.begin() + i * width, coordinates.begin() + (i + 1) * width);
    if (!std::isfinite(ts.energy)) {
      invalid(path, "dataset " + datasetPath(energyColumn) + " row " + std::to_string(i) +
                        " is not a finite energy");
    }
    for (double v : ts.coordinates) {
      if (!std::isfinite(v)) {
        invalid(path, "dataset " + datasetPath(coordinatesColumn) + " row " + std::to_string(i) +
                          " holds a coordinate that is not a finite number");
      }
    }
    for (int side = 0; side < 2; ++side) {
      const long index = connected[2 * i + side];
      if (index < 0 || index >= n) {
        invalid(path, "dataset " + datasetPath(minimaColumn) + " row " + std::to_string(i) +
                          " names minimum " + std::to_string(index) + ", but /minima has " +
                          std::to_string(n) + " rows (0-based)");
      }
    }
    ts.plusMinimum = static_cast<int>(connected[2 * i]);
    ts.minusMinimum = static_cast<int>(connected[2 * i + 1]);
  }
  const Column eigenvalueColumn = floatColumn(kEigenvalueDataset, kTransitionStatesGroup);
  if (hasDataset(group.get(), eigenvalueColumn, path)) {
    std::vector<double> values(m);
    OpenDataset set = openShapedDataset(group.get(), eigenvalueColumn, 0, m, path);
    readWhole(set, eigenvalueColumn, values.data(), path);
    for (std::size_t i = 0; i < m; ++i) network.transitionStates[i].eigenvalue = values[i];
  }
  readProperties(group.get(), kTransitionStatesGroup, network.transitionStates, atoms, path);
}

}  // namespace landscape::database
