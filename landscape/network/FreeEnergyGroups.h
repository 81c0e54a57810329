#pragma once
// Regrouping of minima into free-energy groups at a barrier threshold (PATHSAMPLE's REGROUPFREE,
// docs/pathsample.md). With the harmonic free energies
//   F_m  = E_m  + kT (F_vib,m / 2 + ln o_m)
//   F_ts = E_ts + kT (F_vib,ts / 2 + ln o_ts + ln 2 pi) + kT ln(kT / h)
// (F_vib the log product; constants common to all minima dropped; h Planck's constant in the
// energy unit x the time unit of the rate graph) the harmonic rate of HarmonicRates.h is Eyring's
// k(m -> n) = (kT / h) exp(-(F_ts - F_m) / kT), as PATHSAMPLE's regroupfree2 defines the
// transition-state free energy from the rate: F_ts = F_m - kT ln(k h / kT). With h = 0 the term
// kT ln(kT / h) is left out (k = exp(-(F_ts - F_m) / kT) in the inverse time unit). A group I has
// F_I = -kT ln sum_{m in I} exp(-F_m / kT) and two groups I, J the transition-state free energy
// F_IJ = -kT ln sum_{ts between I and J} exp(-F_ts / kT), so that (kT / h) exp(-(F_IJ - F_I) / kT)
// is the equilibrium-weighted rate out of I into J. Two groups merge when both barriers
// F_IJ - F_I and F_IJ - F_J are at most the threshold; the pair with the lowest larger barrier
// merges first, and merging repeats until no pair qualifies.
//
// Molecules: the rate graph's time unit is 1 / kMolecularFrequencyPerSecond (HarmonicRates.h), so
// h = kPlanckKcalPerMolSecond x kMolecularFrequencyPerSecond kcal/mol; at 298 K the term
// kT ln(kT / h) is -0.71 kcal/mol.
#include <vector>

#include "landscape/network/StoredNetwork.h"

namespace landscape {

struct FreeEnergyGroups {
  std::vector<int> groupOfMinimum;  ///< 0-based group of every minimum; groups numbered by their
                                    ///< lowest free energy first
  std::vector<double> freeEnergy;   ///< F_I of each group (energy unit)
  std::vector<std::vector<int>> members;  ///< minima of each group, ascending
};

/// Groups at temperature kT (> 0) and barrier threshold (>= 0, energy unit); `planck` (>= 0) is h
/// in the energy unit x the rate graph's time unit, 0 to leave out kT ln(kT / h). Throws
/// std::invalid_argument for bad arguments or unknown log products / point-group orders.
FreeEnergyGroups regroupFreeEnergy(const StoredTransitionNetwork& network, double kT,
                                   double threshold, double planck = 0.0);

}  // namespace landscape
