#pragma once
// The entries of a list of stationary points (minima or transition states) ordered by energy, so
// that the candidates for "the same point" (GMIN/OPTIM's EDIFFTOL: energies closer than the
// tolerance, before the geometry is compared) are found without a scan of the whole list: a merge
// asks for every point of every connect run of a cycle, and a long growth holds tens of thousands
// (a scan per question made merging a cycle of the LJ38 example take 0.9 s at 20,000 minima;
// docs/benchmarks.md, "Merging a cycle").
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace landscape {

class EnergyWindowIndex {
 public:
  /// Entry `index` has energy `energy` (a NaN energy is never within any window, so not kept).
  void add(double energy, int index) {
    if (!std::isnan(energy)) m_byEnergy.emplace(energy, index);
  }
  /// The entries i with |energy_i - energy| < tolerance, exactly that comparison, in ascending
  /// index order (the order the list would have been scanned in).
  std::vector<int> within(double energy, double tolerance) const {
    std::vector<int> found;
    if (!(tolerance > 0.0) || std::isnan(energy)) return found;  // |x| < 0 holds for no x
    // A window twice as wide, so that rounding of its ends cannot leave out an entry that the
    // exact comparison keeps.
    const auto end = m_byEnergy.upper_bound(energy + 2.0 * tolerance);
    for (auto it = m_byEnergy.lower_bound(energy - 2.0 * tolerance); it != end; ++it)
      if (std::abs(it->first - energy) < tolerance) found.push_back(it->second);
    std::sort(found.begin(), found.end());
    return found;
  }

 private:
  std::multimap<double, int> m_byEnergy;
};

}  // namespace landscape
