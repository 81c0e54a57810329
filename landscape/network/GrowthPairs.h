#pragma once
// What the pair selections of network growth (PATHSAMPLE's UNTRAP, SHORTCUT and DIJPAIR;
// UntrapPairs.h, KineticPathPairs.h) have in common: the candidate pairs they return, the
// distance between two minima they may ask for, and the pairs already tried, which they never
// propose again.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "landscape/network/PairKey.h"

namespace landscape {

/// Two minima (0-based indices of the network) to connect, with the number the list is sorted by
/// (UNTRAP's barrier metric, a barrier height or a distance).
struct CandidatePair {
  int first = -1;
  int second = -1;
  double score = 0.0;
};

/// The minimum distance between minima a and b (length unit; landscape/Alignment's, over
/// translation, rotation and permutations as the network compares structures).
using MinimumDistance = std::function<double(int a, int b)>;

/// Told the pairs whose MinimumDistance a selection is about to ask for, all at once, so that
/// they can be computed ahead together (TransitionNetwork::precomputeDistances, on several
/// threads); may be empty. The answers must not change: a selection is the same with or without.
using DistancePrefetch = std::function<void(const std::vector<std::pair<int, int>>& pairs)>;

/// The pairs tried so far, in order (PATHSAMPLE's PAIR1/PAIR2).
using TriedPairs = std::vector<std::array<int, 2>>;

/// The tried pairs as a hash set, so that asking costs the same however many were tried: a
/// selection asks about every partner of every candidate (UNTRAP: up to a million pairs per list),
/// and a long growth has tried tens of thousands (a scan of the list per question made choosing a
/// list the longest step of growth on the GPU; docs/benchmarks.md).
class TriedPairIndex {
 public:
  explicit TriedPairIndex(const TriedPairs& tried);
  /// True when (a, b) was tried; with eitherOrder also when (b, a) was.
  bool contains(int a, int b, bool eitherOrder) const {
    return m_pairs.count(orderedPairKey(a, b)) != 0 ||
           (eitherOrder && m_pairs.count(orderedPairKey(b, a)) != 0);
  }
  void add(int a, int b) { m_pairs.insert(orderedPairKey(a, b)); }

 private:
  std::unordered_set<std::uint64_t> m_pairs;
};

/// A growth cycle's pairs as PATHSAMPLE takes them (GETUPAIR, GETRPAIR): the next `count` pairs of
/// the candidate list `pending` (its DMIN1/DMIN2), each joining `tried` as it is taken; when the
/// list is used up (NAVAIL = 0) `select` computes a new one from the network as it stands and
/// `onNewList` (if set) is told its size. Fewer than `count` when a new list gives nothing. A
/// pending pair that names one minimum twice or was tried already in the same order is dropped: a
/// list that outlived a merge of minima (a database loaded under other tolerances, a record edited
/// by hand) can hold them, and a selection never proposes them.
std::vector<std::array<int, 2>> takeCyclePairs(
    std::vector<std::array<int, 2>>& pending, TriedPairs& tried, int count,
    const std::function<std::vector<CandidatePair>()>& select,
    const std::function<void(std::size_t)>& onNewList = {});

}  // namespace landscape
