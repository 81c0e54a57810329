#pragma once
// SOP pair physics (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, Appendix B, eq
// B1), written once for the CPU reference loops (potentials/Sop) and the CUDA kernels
// (gpu/SopKernels), templated on the arithmetic type R (double, or float as SOP-GPU uses). Units:
// kcal/mol, Angstrom. Every term returns the energy and dU/dr / r, so that the gradient on bead i
// of a pair term is dEdrOverR * (r_i - r_j).
#include <cmath>

#include "landscape/core/HostDevice.h"

namespace landscape {

template <class R>
struct SopTerm {
  R energy;     ///< kcal/mol
  R dEdrOverR;  ///< dU/dr / r (kcal/mol/A^2)
};

/// The FENE argument 1 - (r - r0)^2 / R0^2 is clamped at this floor: a bond stretched past its
/// tolerance keeps a large finite restoring force instead of a NaN (the energy stops growing).
constexpr double kSopFeneMinArgument = 1e-3;

/// FENE backbone bond, eq B1: U = -(k R0^2 / 2) log(1 - (r - r0)^2 / R0^2),
/// dU/dr = k (r - r0) / (1 - (r - r0)^2 / R0^2). k in kcal/mol/A^2, R0sq = R0^2 in A^2.
template <class R>
LANDSCAPE_HD SopTerm<R> sopFene(R r2, R r0, R k, R R0sq) {
  const R r = sqrt(r2);
  const R dr = r - r0;
  R s = R(1) - dr * dr / R0sq;
  if (s < R(kSopFeneMinArgument)) s = R(kSopFeneMinArgument);
  return {R(-0.5) * k * R0sq * log(s), k * dr / (s * r)};
}

/// Native contact, eq B1: U = eps_n [(r0/r)^12 - 2 (r0/r)^6], minimum -eps_n at r = r0.
/// r0sq = r0^2 (A^2), eps in kcal/mol.
/// The same from ir2 = 1/r^2 (the GPU passes a reciprocal that needs no division).
template <class R>
LANDSCAPE_HD SopTerm<R> sopNativeFromInverse(R ir2, R r0sq, R eps) {
  const R q3 = r0sq * ir2 * r0sq * ir2 * r0sq * ir2;  // (r0/r)^6
  const R q6 = q3 * q3;
  return {eps * (q6 - R(2) * q3), R(12) * eps * (q3 - q6) * ir2};
}

template <class R>
LANDSCAPE_HD SopTerm<R> sopNative(R r2, R r0sq, R eps) {
  return sopNativeFromInverse(R(1) / r2, r0sq, eps);
}

/// The repulsion eps_r (sigma/r)^6 of eq B1, cut at rc and force-shifted,
///   U(r) = eps_r sigma^6 (r^-6 - rc^-6) + 6 eps_r sigma^6 rc^-7 (r - rc)   for r < rc, else 0,
/// so that U and dU/dr both vanish at rc. Constants precomputed by makeSopRepulsion().
template <class R>
struct SopRepulsion {
  R epsSigma6 = 0;       ///< eps_r sigma^6 (kcal/mol A^6)
  R cutoff = 0;          ///< rc (A)
  R cutoff2 = 0;         ///< rc^2 (A^2)
  R energyAtCutoff = 0;  ///< eps_r sigma^6 rc^-6 (kcal/mol)
  R slopeAtCutoff = 0;   ///< -6 eps_r sigma^6 rc^-7 (kcal/mol/A), dU/dr of the bare term at rc
};

template <class R>
SopRepulsion<R> makeSopRepulsion(double epsilon, double sigma, double cutoff) {
  const double s6 = std::pow(sigma, 6.0), es6 = epsilon * s6;
  SopRepulsion<R> p;
  p.epsSigma6 = static_cast<R>(es6);
  p.cutoff = static_cast<R>(cutoff);
  p.cutoff2 = static_cast<R>(cutoff * cutoff);
  p.energyAtCutoff = static_cast<R>(es6 / std::pow(cutoff, 6.0));
  p.slopeAtCutoff = static_cast<R>(-6.0 * es6 / std::pow(cutoff, 7.0));
  return p;
}

/// The cut and shifted repulsion at squared distance r2 (zero at and beyond the cutoff).
template <class R>
LANDSCAPE_HD SopTerm<R> sopRepulsive(R r2, const SopRepulsion<R>& p) {
  if (r2 >= p.cutoff2) return {R(0), R(0)};
  const R r = sqrt(r2);
  const R ir2 = R(1) / r2;
  const R bare = p.epsSigma6 * ir2 * ir2 * ir2;  // eps_r (sigma/r)^6
  const R energy = bare - p.energyAtCutoff - p.slopeAtCutoff * (r - p.cutoff);
  const R dEdr = R(-6) * bare / r - p.slopeAtCutoff;
  return {energy, dEdr / r};
}

/// dU/dr / r of the cut and shifted repulsion for r2 < cutoff2 from rinv = 1/r, with no division
/// or square root (the GPU's pair loop; rinv from one reciprocal square root):
///   dU/dr / r = -6 eps_r sigma^6 r^-8 - slopeAtCutoff / r,
/// algebraically the dEdrOverR of sopRepulsive.
template <class R>
LANDSCAPE_HD R sopRepulsiveDEdrOverR(R rinv, const SopRepulsion<R>& p) {
  const R ir2 = rinv * rinv;
  const R ir4 = ir2 * ir2;
  return R(-6) * p.epsSigma6 * (ir4 * ir4) - p.slopeAtCutoff * rinv;
}

/// sopRepulsive's dEdrOverR at any distance from rinv = 1/r, cutoff included, with one min instead
/// of a compare and select: the force-shifted dU/dr = -6 eps_r sigma^6 r^-7 - slopeAtCutoff is
/// negative inside the cutoff and positive beyond it (the bare term falls below the shift, which
/// is its own value at rc), so min(., 0) is zero exactly where sopRepulsive is.
template <class R>
LANDSCAPE_HD R sopRepulsiveCutDEdrOverR(R rinv, const SopRepulsion<R>& p) {
  const R f = sopRepulsiveDEdrOverR(rinv, p);
  return f < R(0) ? f : R(0);
}

/// The energy of sopRepulsive for r2 < cutoff2 from r2 and rinv = 1/r (no division).
template <class R>
LANDSCAPE_HD R sopRepulsiveEnergy(R r2, R rinv, const SopRepulsion<R>& p) {
  const R ir2 = rinv * rinv;
  const R bare = p.epsSigma6 * ir2 * ir2 * ir2;  // eps_r (sigma/r)^6
  return bare - p.energyAtCutoff - p.slopeAtCutoff * (r2 * rinv - p.cutoff);
}

/// A spherical tip of radius `radius` (A) repels a bead at distance d (A) from its centre with the
/// cut and shifted repulsion of the gap s = d - radius (Zhmurov et al. 2011, section V: the
/// cantilever tip); s is floored at minGap (A) so that a bead inside the tip feels a large finite
/// push. Returns the energy and dU/dd / d, so the gradient on the bead is dEdrOverR * (r_bead -
/// r_tip).
template <class R>
LANDSCAPE_HD SopTerm<R> sopTip(R d, R radius, const SopRepulsion<R>& p, R minGap) {
  R s = d - radius;
  if (s < minGap) s = minGap;
  const SopTerm<R> t = sopRepulsive(s * s, p);
  if (d <= R(0)) return {t.energy, R(0)};
  return {t.energy, t.dEdrOverR * s / d};
}

/// A harmonic spring U = (k/2) d^2 on a displacement d (pulling cantilever, indentation spring);
/// k in kcal/mol/A^2. Returns U; the gradient is k d.
template <class R>
LANDSCAPE_HD R sopSpringEnergy(R k, R d2) {
  return R(0.5) * k * d2;
}

}  // namespace landscape
