#include "landscape/search/LowestMinima.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace landscape {

LowestMinima::LowestMinima(std::size_t capacity, double energyDifference)
    : m_capacity(capacity), m_energyDifference(energyDifference) {
  if (capacity == 0) throw std::invalid_argument("the lowest-minima list needs capacity >= 1");
}

bool LowestMinima::offer(const StoredMinimum& minimum) {
  if (!std::isfinite(minimum.energy)) return false;
  for (const StoredMinimum& known : m_minima) {
    if (std::abs(known.energy - minimum.energy) < m_energyDifference) return false;
  }
  if (m_minima.size() == m_capacity && minimum.energy >= m_minima.back().energy) return false;
  const auto at = std::upper_bound(
      m_minima.begin(), m_minima.end(), minimum.energy,
      [](double e, const StoredMinimum& m) { return e < m.energy; });
  m_minima.insert(at, minimum);
  if (m_minima.size() > m_capacity) m_minima.pop_back();
  return true;
}

double LowestMinima::entryBar() const {
  return m_minima.size() < m_capacity ? std::numeric_limits<double>::infinity()
                                      : m_minima.back().energy;
}

void LowestMinima::replace(std::vector<StoredMinimum> minima) {
  // Keep the earliest-found representative of each energy level.
  std::stable_sort(minima.begin(), minima.end(),
                   [](const StoredMinimum& a, const StoredMinimum& b) {
                     return a.firstFoundStep < b.firstFoundStep;
                   });
  m_minima.clear();
  for (const StoredMinimum& m : minima) offer(m);
}

}  // namespace landscape
