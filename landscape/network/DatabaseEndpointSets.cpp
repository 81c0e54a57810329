// The endpoint sets A and B of a transition network in minima.h5 (DatabaseEndpointSets.h).
#include "landscape/network/DatabaseEndpointSets.h"

#include <vector>

#include "landscape/network/DatabaseSchema.h"

namespace landscape::database {

namespace {

/// Reads one endpoint set; every entry must be a row of /minima.
std::vector<int> readEndpointSet(hid_t group, const char* name, long minima,
                                 const std::string& path) {
  const Column column = integerColumn(name, kEndpointsGroup);
  if (!hasDataset(group, column, path)) return {};
  OpenDataset set = openDataset(group, column, false, path);
  std::vector<long> values(set.rows);
  readWhole(set, column, values.data(), path);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 0 || values[i] >= minima) {
      invalid(path, "dataset " + datasetPath(column) + " row " + std::to_string(i) +
                        " names minimum " + std::to_string(values[i]) + ", but /minima has " +
                        std::to_string(minima) + " rows (0-based)");
    }
  }
  return std::vector<int>(values.begin(), values.end());
}

}  // namespace

void writeEndpointSets(hid_t file, const StoredTransitionNetwork& network,
                       const std::string& path) {
  if (network.setA.empty() && network.setB.empty()) return;
  Handle group = checked(H5Gcreate2(file, kEndpointsGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         H5Gclose, path, std::string("cannot create group /") + kEndpointsGroup);
  const std::vector<long> a(network.setA.begin(), network.setA.end());
  const std::vector<long> b(network.setB.begin(), network.setB.end());
  createFilledDataset(group.get(), integerColumn(kSetADataset, kEndpointsGroup), 0, kIndexUnit,
                      a.size(), a.data(), path);
  createFilledDataset(group.get(), integerColumn(kSetBDataset, kEndpointsGroup), 0, kIndexUnit,
                      b.size(), b.data(), path);
  check(group.close(), path, std::string("cannot close group /") + kEndpointsGroup);
}

void readEndpointSets(hid_t file, StoredTransitionNetwork& network, const std::string& path) {
  const htri_t exists = H5Lexists(file, kEndpointsGroup, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, std::string("cannot look up group /") + kEndpointsGroup);
  if (exists == 0) return;
  Handle group = checked(H5Gopen2(file, kEndpointsGroup, H5P_DEFAULT), H5Gclose, path,
                         std::string("cannot open group /") + kEndpointsGroup);
  const long n = static_cast<long>(network.minima.size());
  network.setA = readEndpointSet(group.get(), kSetADataset, n, path);
  network.setB = readEndpointSet(group.get(), kSetBDataset, n, path);
}

}  // namespace landscape::database
