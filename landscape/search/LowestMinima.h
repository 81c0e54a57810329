#pragma once
// The N lowest distinct minima of a run (GMIN's SAVE list): two minima are the same when their
// energies differ by less than EDIFF; the first one found is kept.
#include <cstddef>
#include <vector>

#include "landscape/network/StoredMinimum.h"

namespace landscape {

class LowestMinima {
 public:
  LowestMinima(std::size_t capacity, double energyDifference);

  /// Offers a minimum; returns true if it entered the list (new and low enough).
  bool offer(const StoredMinimum& minimum);
  /// Replaces the whole list (after the tight re-quench), re-sorting and de-duplicating.
  void replace(std::vector<StoredMinimum> minima);

  const std::vector<StoredMinimum>& minima() const { return m_minima; }  ///< lowest first
  bool empty() const { return m_minima.empty(); }
  double lowestEnergy() const { return m_minima.front().energy; }
  /// The energy that a new minimum must be below to enter: +infinity while the list has room.
  /// Once the list is full it only ever falls, so a minimum refused by it now is refused later.
  double entryBar() const;

 private:
  std::size_t m_capacity;
  double m_energyDifference;
  std::vector<StoredMinimum> m_minima;
};

}  // namespace landscape
