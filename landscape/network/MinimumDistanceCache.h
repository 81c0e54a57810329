#pragma once
// The minimum distances between minima already computed (alignments, landscape/Alignment.h), kept
// for the rest of a run: a growth's pair selections ask for up to a million per candidate list,
// most of them asked before. Hashed on the ordered pair: a long growth holds millions, where a
// balanced tree's lookups missed the cache at every level (docs/benchmarks.md, "Choosing a list
// of candidate pairs").
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include "landscape/network/PairKey.h"

namespace landscape {

class MinimumDistanceCache {
 public:
  /// The distance between a and b (either order) when known, else nullptr.
  const double* find(int a, int b) const {
    const auto found = m_distances.find(unorderedPairKey(a, b));
    return found == m_distances.end() ? nullptr : &found->second;
  }
  /// Keeps d as the distance between a and b (either order); a known one stays as it was.
  void add(int a, int b, double d) { m_distances.emplace(unorderedPairKey(a, b), d); }
  std::size_t size() const { return m_distances.size(); }

 private:
  std::unordered_map<std::uint64_t, double> m_distances;
};

}  // namespace landscape
