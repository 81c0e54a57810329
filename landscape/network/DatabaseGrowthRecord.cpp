// The growth record of a transition network in minima.h5 (DatabaseGrowthRecord.h).
#include "landscape/network/DatabaseGrowthRecord.h"

#include <array>
#include <limits>
#include <utility>
#include <vector>

#include "landscape/network/DatabaseSchema.h"

namespace landscape::database {

namespace {

/// Reads one n x 2 list of minimum pairs; every entry must be a row of /minima.
std::vector<std::array<int, 2>> readPairs(hid_t group, const char* name, long minima,
                                          const std::string& path) {
  const Column column = integerColumn(name, kGrowthGroup);
  OpenDataset set = openDataset(group, column, true, path);
  if (set.width != 2) invalid(path, "dataset " + datasetPath(column) + " must have 2 columns");
  std::vector<long> flat(2 * set.rows);
  readWhole(set, column, flat.data(), path);
  std::vector<std::array<int, 2>> pairs(set.rows);
  for (std::size_t i = 0; i < flat.size(); ++i) {
    if (flat[i] < 0 || flat[i] >= minima) {
      invalid(path, "dataset " + datasetPath(column) + " row " + std::to_string(i / 2) +
                        " names minimum " + std::to_string(flat[i]) + ", but /minima has " +
                        std::to_string(minima) + " rows (0-based)");
    }
    pairs[i / 2][i % 2] = static_cast<int>(flat[i]);
  }
  return pairs;
}

}  // namespace

void writeGrowthRecord(hid_t file, const GrowthRecord& growth, const std::string& path) {
  if (growth.empty()) return;
  const std::string where = std::string("group /") + kGrowthGroup;
  Handle group = checked(H5Gcreate2(file, kGrowthGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         H5Gclose, path, "cannot create " + where);
  writeIntegerAttribute(group.get(), kGrowthCyclesAttribute, growth.cycles, H5T_STD_I64LE, path,
                        where);
  writeStringAttribute(group.get(), kGrowthSettingsAttribute, growth.settings, path, where);
  for (const auto& [name, pairs] : {std::make_pair(kTriedPairsDataset, &growth.triedPairs),
                                    std::make_pair(kPendingPairsDataset, &growth.pendingPairs)}) {
    std::vector<long> flat;
    for (const std::array<int, 2>& pair : *pairs) flat.insert(flat.end(), pair.begin(), pair.end());
    createFilledDataset(group.get(), integerColumn(name, kGrowthGroup), 2, kIndexUnit,
                        pairs->size(), flat.data(), path);
  }
  check(group.close(), path, "cannot close " + where);
}

void readGrowthRecord(hid_t file, StoredTransitionNetwork& network, const std::string& path) {
  const htri_t exists = H5Lexists(file, kGrowthGroup, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, std::string("cannot look up group /") + kGrowthGroup);
  if (exists == 0) return;
  const std::string where = std::string("group /") + kGrowthGroup;
  Handle group =
      checked(H5Gopen2(file, kGrowthGroup, H5P_DEFAULT), H5Gclose, path, "cannot open " + where);
  GrowthRecord& growth = network.growth;
  const long long cycles = readIntegerAttribute(group.get(), kGrowthCyclesAttribute, path, where);
  if (cycles < 0 || cycles > std::numeric_limits<int>::max()) {
    invalid(path,
            "attribute 'cycles' of " + where + " must be a count, not " + std::to_string(cycles));
  }
  growth.cycles = static_cast<int>(cycles);
  growth.settings = readStringAttribute(group.get(), kGrowthSettingsAttribute, path, where);
  const long n = static_cast<long>(network.minima.size());
  growth.triedPairs = readPairs(group.get(), kTriedPairsDataset, n, path);
  growth.pendingPairs = readPairs(group.get(), kPendingPairsDataset, n, path);
}

}  // namespace landscape::database
