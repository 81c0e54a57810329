#pragma once
// The cyclic order of an L-BFGS history of m pairs {s, y} (Mantell, Pitt and Wales, J. Chem.
// Theory Comput. 2016, Algorithm 1, lines 7-9), written once for host and device: pair k
// (0 = oldest) lives in slot (oldest + k) mod m, a new pair takes the next free slot or, with m
// pairs stored, the oldest one's. Every L-BFGS storage indexes its pairs through it: the host
// history (LbfgsHostHistory), the team and round-based engines (LbfgsTeamTerms.h,
// LbfgsRoundsTerms.h, LbfgsRoundsCompactTerms.h) and the device workspace (gpu/LbfgsCudaWorkspace).
#include "landscape/core/HostDevice.h"

namespace landscape {

struct LbfgsHistory {
  int oldest = 0;      ///< slot of the oldest pair
  int length = 0;      ///< pairs stored, <= m
  double gamma = 1.0;  ///< H0 = gamma I from the newest pair, s.y / y.y (Algorithm 2, eq 2)

  /// Slot of pair k (0 = oldest, k < m).
  LANDSCAPE_HD int slot(int k, int m) const {
    const int s = oldest + k;
    return s >= m ? s - m : s;
  }
  LANDSCAPE_HD int newestSlot(int m) const { return slot(length - 1, m); }
  /// Age of the pair in `slot` (0 = oldest; >= length: not in the history).
  LANDSCAPE_HD int age(int slotIndex, int m) const {
    const int k = slotIndex - oldest;
    return k < 0 ? k + m : k;
  }
  /// Makes room for a new pair and returns its slot, dropping the oldest beyond m.
  LANDSCAPE_HD int push(int m) {
    if (length < m) return slot(length++, m);
    const int s = oldest;
    oldest = slot(1, m);
    return s;
  }
  /// Forgets every pair (H0 is then the initial guess); gamma is kept but unused.
  LANDSCAPE_HD void clear() { oldest = length = 0; }
};

/// The scalars of a new pair from y.s and y.y: rho = 1 / y.s and gamma = y.s / y.y, a zero
/// product replaced by 1 as GMIN does (a negative curvature is kept: the resulting uphill
/// direction is reversed by the step control).
struct LbfgsPairScalars {
  double rho;
  double gamma;
};
LANDSCAPE_HD LbfgsPairScalars lbfgsPairScalars(double ys, double yy) {
  if (ys == 0.0) ys = 1.0;
  if (yy == 0.0) yy = 1.0;
  return {1.0 / ys, ys / yy};
}

}  // namespace landscape
