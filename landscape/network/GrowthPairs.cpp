#include "landscape/network/GrowthPairs.h"

namespace landscape {

bool wasTried(const TriedPairs& tried, int a, int b, bool eitherOrder) {
  for (const std::array<int, 2>& pair : tried) {
    if (pair[0] == a && pair[1] == b) return true;
    if (eitherOrder && pair[0] == b && pair[1] == a) return true;
  }
  return false;
}

std::vector<std::array<int, 2>> takeCyclePairs(
    std::vector<std::array<int, 2>>& pending, TriedPairs& tried, int count,
    const std::function<std::vector<CandidatePair>()>& select,
    const std::function<void(std::size_t)>& onNewList) {
  std::vector<std::array<int, 2>> pairs;
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
    if (p[0] == p[1] || wasTried(tried, p[0], p[1], false)) continue;
    tried.push_back(p);
    pairs.push_back(p);
    newListGaveNothing = false;
  }
  return pairs;
}

}  // namespace landscape
