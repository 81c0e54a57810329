#pragma once
// One Lennard-Jones pair inside a tile of the team pair schedule (potentials/PairTileSchedule.h),
// shared by the GPU kernels (gpu/TeamLennardJones.cuh) and their CPU twin
// (potentials/LennardJonesTeam). V(r) = 4 (r^-12 - r^-6) in reduced units, as in
// potentials/LennardJonesTerms.h, but factored for the FP64 pipe: the per-pair work uses fused
// multiply-adds and leaves the constant factors out, so that a lane adds
//   energy partial   += r^-12 - r^-6                      (x kLennardJonesTeamEnergyScale = 4)
//   gradient of i    += s (r_i - r_j),  of j -= s (r_i - r_j),  s = (r^-6 - 2 r^-12) / r^2
//                                                          (x kLennardJonesTeamGradientScale = 24)
// and the team multiplies by the constants once per evaluation: 26 FP64 operations per pair
// (7 of them the division) instead of 34.
//
// Every operation is a separately rounded IEEE add, multiply, divide or fma(), written left to
// right: the kernels that include this are compiled with -fmad=false and the twin with
// -ffp-contract=off, and fma() is correctly rounded on both sides, so the two give the same bits.
#include <cmath>

#include "potentials/HostDevice.h"

namespace landscape {

constexpr double kLennardJonesTeamEnergyScale = 4.0;     ///< epsilon per unit of the partials
constexpr double kLennardJonesTeamGradientScale = 24.0;  ///< epsilon / sigma per unit

/// Pair (i, j) with positions xi, xj (reduced length), unscaled as described above.
LANDSCAPE_HD void lennardJonesTeamPair(const double* xi, const double* xj, double* gradI,
                                       double* gradJ, double& energy) {
  const double d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
  const double r2 = fma(d[2], d[2], fma(d[1], d[1], d[0] * d[0]));
  const double ir2 = 1.0 / r2;
  const double ir6 = ir2 * ir2 * ir2;
  energy = fma(ir6, ir6 - 1.0, energy);              // + r^-12 - r^-6
  const double s = ir6 * fma(-2.0, ir6, 1.0) * ir2;  // (r^-6 - 2 r^-12) / r^2
  for (int c = 0; c < 3; ++c) {
    gradI[c] = fma(s, d[c], gradI[c]);
    gradJ[c] = fma(-s, d[c], gradJ[c]);
  }
}

}  // namespace landscape
