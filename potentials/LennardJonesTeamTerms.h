#pragma once
// One Lennard-Jones pair inside a tile of the team pair schedule
// (landscape/core/PairTileSchedule.h), shared by the GPU kernels (gpu/TeamLennardJones.cuh) and
// their CPU twin (potentials/LennardJonesTeam). V(r) = 4 (r^-12 - r^-6) in reduced units, as in
// potentials/LennardJonesTerms.h, but factored for the FP64 pipe: the per-pair work uses fused
// multiply-adds and leaves the constant factors out, so that a lane adds
//   energy partial   += r^-12 - r^-6                      (x kLennardJonesTeamEnergyScale = 4)
//   gradient of i    += s (r_i - r_j),  of j -= s (r_i - r_j),  s = (r^-6 - 2 r^-12) / r^2
//                                                          (x kLennardJonesTeamGradientScale = 24)
// and the team multiplies by the constants once per evaluation: 24 FP64 operations per pair
// (5 of them, and one reciprocal estimate, the reciprocal of r^2) instead of 34.
//
// Every operation is a separately rounded IEEE add, multiply, divide or fma(), written left to
// right: the kernels that include this are compiled with -fmad=false and the twin with
// -ffp-contract=off, and fma() is correctly rounded on both sides, so the two give the same bits.
// The rounding of the reciprocal of r^2 and the invalid pairs: next to lennardJonesTeamClampR2 and
// lennardJonesTeamPair below.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "landscape/core/HostDevice.h"

namespace landscape {

constexpr double kLennardJonesTeamEnergyScale = 4.0;     ///< epsilon per unit of the partials
constexpr double kLennardJonesTeamGradientScale = 24.0;  ///< epsilon / sigma per unit

// The reciprocal 1 / r^2 is correctly rounded on both sides: the host divides, the device runs
// the fast path of its own IEEE reciprocal (the estimate MUFU.RCP64H and five fma, as nvcc
// compiles 1.0 / r2) without the branch to the slow path, which only inputs outside
// [2^-1000, 2^1000] need. So r^2 is first clamped into that range (on the bits of its high word:
// two integer min/max), on both sides; the clamp changes nothing a cluster can reach except
// r^2 = 0 (atoms on top of each other), whose r^-6 and so energy are still infinite.

/// High words of 2^-1000 and 2^1000: the range of r^2 whose reciprocal needs no slow path.
constexpr std::int32_t kLennardJonesTeamR2HighMin = (1023 - 1000) << 20;
constexpr std::int32_t kLennardJonesTeamR2HighMax = (1023 + 1000) << 20;

/// r2 with the high word (sign, exponent, 20 mantissa bits) clamped into
/// [kLennardJonesTeamR2HighMin, kLennardJonesTeamR2HighMax] as a signed integer; the low word
/// kept. Identity on [2^-1000, 2^1000); 0 goes to about 2^-1000, NaN to a finite value.
LANDSCAPE_HD double lennardJonesTeamClampR2(double r2) {
#ifdef __CUDA_ARCH__
  const int high =
      min(max(__double2hiint(r2), kLennardJonesTeamR2HighMin), kLennardJonesTeamR2HighMax);
  return __hiloint2double(high, __double2loint(r2));
#else
  std::uint64_t bits;
  std::memcpy(&bits, &r2, sizeof bits);
  std::int32_t high = static_cast<std::int32_t>(static_cast<std::uint32_t>(bits >> 32));
  high = high < kLennardJonesTeamR2HighMin ? kLennardJonesTeamR2HighMin : high;
  high = high > kLennardJonesTeamR2HighMax ? kLennardJonesTeamR2HighMax : high;
  bits =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(high)) << 32) | (bits & 0xffffffffu);
  double out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
#endif
}

/// 1 / r2, correctly rounded, for r2 in [2^-1000, 2^1000] (lennardJonesTeamClampR2's range).
LANDSCAPE_HD double lennardJonesTeamReciprocal(double r2) {
#ifdef __CUDA_ARCH__
  // The fast path of nvcc's 1.0 / r2: the estimate's high word with r2's high word + 0x300402 as
  // its low word (the low word matters: with 0 the result is off by one ulp for some r2), one
  // cubic and one Newton step.
  double estimate;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(estimate) : "d"(r2));
  const double y0 = __hiloint2double(__double2hiint(estimate), __double2hiint(r2) + 0x300402);
  double e = fma(-r2, y0, 1.0);
  e = fma(e, e, e);
  const double y1 = fma(y0, e, y0);
  return fma(y1, fma(-r2, y1, 1.0), y1);
#else
  return 1.0 / r2;
#endif
}

// A pair can be invalid (a padding atom of a partial tile, a lane of an idle group, the second
// meeting of a diagonal pair): the kernels compute it anyway, branch-free, with r^-6 selected to
// 0 (see lennardJonesTeamPair). The twin computes the invalid pairs of busy tiles too, on the
// same positions, so both sides do the same arithmetic.

/// Pair (i, j) with positions xi, xj (reduced length), unscaled as described above. An invalid
/// pair is computed with r^-6 replaced by 0, so that it adds 0 x (0 - 1) = -0 to `energy` (which
/// leaves it as it is) and s = 0 x 1 x r^-2 = 0 (r^-2 is finite after the clamp), i.e. 0 x d to
/// the gradients.
LANDSCAPE_HD void lennardJonesTeamPair(const double* xi, const double* xj, double* gradI,
                                       double* gradJ, double& energy, bool valid) {
  const double d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
  const double r2 = fma(d[2], d[2], fma(d[1], d[1], d[0] * d[0]));
  const double ir2 = lennardJonesTeamReciprocal(lennardJonesTeamClampR2(r2));
  const double pairIr6 = ir2 * ir2 * ir2;
  const double ir6 = valid ? pairIr6 : 0.0;
  energy = fma(ir6, ir6 - 1.0, energy);              // + r^-12 - r^-6
  const double s = ir6 * fma(-2.0, ir6, 1.0) * ir2;  // (r^-6 - 2 r^-12) / r^2
  for (int c = 0; c < 3; ++c) {
    gradI[c] = fma(s, d[c], gradI[c]);
    gradJ[c] = fma(-s, d[c], gradJ[c]);
  }
}

}  // namespace landscape
