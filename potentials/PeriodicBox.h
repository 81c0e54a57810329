#pragma once
// An orthorhombic periodic box and the minimum-image convention (Allen and Tildesley, Computer
// Simulation of Liquids, 2nd ed. 2017, section 1.6.2), written once for host and device. Lengths
// are in the potential's length unit (sigma for reduced units, Angstrom for molecules). A length of
// 0 along an axis means that axis is not periodic, so the default box is a cluster in open space.
#include <cmath>

#include "landscape/core/HostDevice.h"

namespace landscape {

struct PeriodicBox {
  double length[3] = {0.0, 0.0, 0.0};  ///< edge lengths; 0 = that axis is not periodic

  LANDSCAPE_HD bool periodic() const {
    return length[0] > 0.0 || length[1] > 0.0 || length[2] > 0.0;
  }

  /// Replaces the separation d (a - b) by its nearest periodic image: d_k - L_k round(d_k / L_k)
  /// on each periodic axis (round and floor are exact, so host and device agree bit for bit).
  /// The nearest image is the only one within a cutoff below half the shortest edge.
  LANDSCAPE_HD void minimumImage(double d[3]) const {
    for (int k = 0; k < 3; ++k) {
      if (length[k] > 0.0) d[k] -= length[k] * ::round(d[k] / length[k]);
    }
  }

  /// The coordinate x moved into the box [0, L_k) along periodic axis k (open axes unchanged).
  LANDSCAPE_HD double wrapped(double x, int k) const {
    if (!(length[k] > 0.0)) return x;
    const double folded = x - length[k] * ::floor(x / length[k]);
    return folded >= length[k] ? folded - length[k] : folded;  // x / L just below an integer
  }
};

}  // namespace landscape
