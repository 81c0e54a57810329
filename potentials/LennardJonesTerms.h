#pragma once
// Lennard-Jones pair physics in reduced units (epsilon = sigma = 1), shared by the CPU reference
// loop and the CUDA kernel: V(r) = 4 (r^-12 - r^-6).
#include "landscape/core/HostDevice.h"

namespace landscape {

struct LennardJonesPairTerm {
  double energy;        ///< V(r)
  double dEdrOverR;     ///< V'(r) / r, so the gradient on atom i is dEdrOverR * (r_i - r_j)
};

/// Pair energy and radial derivative from the squared distance r2 (no cutoff).
LANDSCAPE_HD LennardJonesPairTerm lennardJonesPair(double r2) {
  const double ir2 = 1.0 / r2;
  const double ir6 = ir2 * ir2 * ir2;
  const double ir12 = ir6 * ir6;
  // dV/dr = (-48 r^-13 + 24 r^-7), divided by r gives (-48 r^-14 + 24 r^-8).
  return {4.0 * (ir12 - ir6), (-48.0 * ir12 + 24.0 * ir6) * ir2};
}

}  // namespace landscape
