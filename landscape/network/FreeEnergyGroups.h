#pragma once
// Regrouping of minima into free-energy groups at a barrier threshold (PATHSAMPLE's REGROUPFREE,
// docs/pathsample.md). With the harmonic free energies
//   F_m  = E_m  + kT (F_vib,m / 2 + ln o_m)
//   F_ts = E_ts + kT (F_vib,ts / 2 + ln o_ts + ln 2 pi)
// (F_vib the log product; constants common to all minima dropped) the harmonic rate of
// HarmonicRates.h is k(m -> n) = exp(-(F_ts - F_m) / kT) in the database's inverse time unit. A
// group I has F_I = -kT ln sum_{m in I} exp(-F_m / kT) and two groups I, J the transition-state
// free energy F_IJ = -kT ln sum_{ts between I and J} exp(-F_ts / kT), so that the group rate
// exp(-(F_IJ - F_I) / kT) is the equilibrium-weighted rate out of I into J. Two groups merge when
// both barriers F_IJ - F_I and F_IJ - F_J are at most the threshold; the pair with the lowest
// larger barrier merges first, and merging repeats until no pair qualifies.
#include <vector>

#include "landscape/network/StoredNetwork.h"

namespace landscape {

struct FreeEnergyGroups {
  std::vector<int> groupOfMinimum;  ///< 0-based group of every minimum; groups numbered by their
                                    ///< lowest free energy first
  std::vector<double> freeEnergy;   ///< F_I of each group (energy unit)
  std::vector<std::vector<int>> members;  ///< minima of each group, ascending
};

/// Groups at temperature kT (> 0) and barrier threshold (>= 0, energy unit). Throws
/// std::invalid_argument for bad arguments or unknown log products / point-group orders.
FreeEnergyGroups regroupFreeEnergy(const StoredTransitionNetwork& network, double kT,
                                   double threshold);

}  // namespace landscape
