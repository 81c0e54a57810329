#include "landscape/network/GrowthPairs.h"

namespace landscape {

TriedPairIndex::TriedPairIndex(const TriedPairs& tried) {
  m_pairs.reserve(tried.size());
  for (const std::array<int, 2>& pair : tried) add(pair[0], pair[1]);
}

std::vector<std::array<int, 2>> takeCyclePairs(
    std::vector<std::array<int, 2>>& pending, TriedPairs& tried, int count,
    const std::function<std::vector<CandidatePair>()>& select,
    const std::function<void(std::size_t)>& onNewList) {
  std::vector<std::array<int, 2>> pairs;
  TriedPairIndex triedIndex(tried);
  // A new list that yields no pair ends the cycle (a selection that kept proposing dropped pairs
  // would otherwise be asked forever).
  bool newListGaveNothing = false;
  while (static_cast<int>(pairs.size()) < count) {
    if (pending.empty()) {
      if (newListGaveNothing) break;
      for (const CandidatePair& p : select()) pending.push_back({p.first, p.second});
      if (onNewList) onNewList(pending.size());
      if (pending.empty()) break;
      newListGaveNothing = true;
    }
    const std::array<int, 2> p = pending.front();
    pending.erase(pending.begin());
    if (p[0] == p[1] || triedIndex.contains(p[0], p[1], false)) continue;
    tried.push_back(p);
    triedIndex.add(p[0], p[1]);
    pairs.push_back(p);
    newListGaveNothing = false;
  }
  return pairs;
}

}  // namespace landscape
