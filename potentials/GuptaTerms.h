#pragma once
// The Gupta (second-moment tight-binding) many-body potential: the physics of one pair and of one
// atom's band term, written once for the CPU reference (potentials/GuptaPotential) and the CUDA
// kernel (gpu/BatchedGuptaKernels). Gupta, Phys. Rev. B 23, 6265 (1981); Cleri and Rosato, Phys.
// Rev. B 48, 22 (1993), eqs (1)-(3):
//   E = sum_i [ A sum_{j != i} e^{p (1 - r_ij / r0)} - xi sqrt(rho_i) ],
//   rho_i = sum_{j != i} e^{2 q (1 - r_ij / r0)},
// every pair, no cutoff (clusters). With these sums over all j != i the repulsion of a pair
// counts twice (once for each atom), as in GMIN's Gupta.f and pele.
//
// The gradient needs every atom's density first, so a loop makes two passes: the densities
// (guptaPair's `density`, summed per atom), then each pair's dE/dr from the inverse square roots of
// both atoms' densities (guptaPairDerivative).
#include <cmath>

#include "landscape/core/HostDevice.h"

namespace landscape {

/// The constants a loop needs, as plain doubles (device kernels take them by value).
struct GuptaConstants {
  double p = 0.0;          ///< repulsive range (dimensionless)
  double twoQ = 0.0;       ///< 2 q: the density's range (dimensionless)
  double a = 0.0;          ///< repulsion energy A (energy)
  double xi = 0.0;         ///< band energy xi (energy)
  double inverseR0 = 1.0;  ///< 1 / r0 (inverse length)
};

/// One pair at distance r: its repulsion e^{p (1 - r/r0)} and density e^{2q (1 - r/r0)}, and
/// their derivatives with respect to r.
struct GuptaPairTerm {
  double repulsion = 0.0;
  double density = 0.0;
  double dRepulsionDr = 0.0;
  double dDensityDr = 0.0;
};

LANDSCAPE_HD GuptaPairTerm guptaPair(const GuptaConstants& c, double r) {
  const double x = 1.0 - r * c.inverseR0;
  GuptaPairTerm t;
  t.repulsion = exp(c.p * x);
  t.density = exp(c.twoQ * x);
  t.dRepulsionDr = -c.p * c.inverseR0 * t.repulsion;
  t.dDensityDr = -c.twoQ * c.inverseR0 * t.density;
  return t;
}

/// Atom i's energy from its sums over j != i: A sum e^{p(..)} - xi sqrt(rho_i).
LANDSCAPE_HD double guptaAtomEnergy(const GuptaConstants& c, double repulsionSum,
                                    double densitySum) {
  return c.a * repulsionSum - c.xi * sqrt(densitySum);
}

/// 1 / sqrt(rho), and 0 for rho = 0: an atom so far from every other that its density underflows
/// has every pair density 0 too, and each pair's band force, proportional to
/// density_ij / sqrt(rho_i) <= sqrt(rho_i), vanishes with it (instead of 0 / 0).
LANDSCAPE_HD double guptaInverseSqrtDensity(double densitySum) {
  return densitySum > 0.0 ? 1.0 / sqrt(densitySum) : 0.0;
}

/// dE/dr_ij of the whole energy for the pair (i, j): its repulsion in the sums of both atoms and
/// its density under both square roots,
///   2 A d/dr e^{p(..)} - (xi / 2) (1/sqrt(rho_i) + 1/sqrt(rho_j)) d/dr e^{2q(..)}.
LANDSCAPE_HD double guptaPairDerivative(const GuptaConstants& c, const GuptaPairTerm& t,
                                        double inverseSqrtDensityI, double inverseSqrtDensityJ) {
  return 2.0 * c.a * t.dRepulsionDr -
         0.5 * c.xi * (inverseSqrtDensityI + inverseSqrtDensityJ) * t.dDensityDr;
}

}  // namespace landscape
