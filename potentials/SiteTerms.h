#pragma once
// Physics of one pair of interaction sites on different rigid molecules, shared by the CPU loop
// (potentials/SitePotential) and the CUDA kernels: Lennard-Jones 12-6 in C6/C12 form plus bare
// Coulomb, as in TIP4P (Jorgensen, Chandrasekhar, Madura, Impey and Klein, J. Chem. Phys. 79, 926
// (1983), eq 1 and Table I),
//   V(r) = C12 / r^12 - C6 / r^6 + k q_i q_j / r,
//   C6 = sqrt(c6_i c6_j),  C12 = sqrt(c12_i c12_j)  (geometric combination of per-site values),
// no cutoff. Units are the SiteModel's (potentials/SiteModel.h): energy, length, e; k in energy x
// length / e^2. This is the only place the formula lives.
#include <cmath>

#include "landscape/core/HostDevice.h"

namespace landscape {

struct SitePairTerm {
  double energy;     ///< V(r), Lennard-Jones plus Coulomb
  double coulomb;    ///< the Coulomb part of energy, k q_i q_j / r
  double dEdrOverR;  ///< V'(r) / r: the gradient on site i is dEdrOverR * (r_i - r_j)
};

/// Pair coefficients already combined: c6 = sqrt(c6_i c6_j), c12 = sqrt(c12_i c12_j), kqq = k q_i
/// q_j; r2 is the squared distance (> 0).
LANDSCAPE_HD SitePairTerm sitePairCombined(double r2, double c6, double c12, double kqq) {
  const double ir2 = 1.0 / r2;
  const double ir = sqrt(ir2);
  const double ir6 = ir2 * ir2 * ir2;
  const double lj12 = c12 * ir6 * ir6, lj6 = c6 * ir6;
  const double coul = kqq * ir;
  // dV/dr / r = (-12 C12 r^-12 + 6 C6 r^-6 - k q q r^-1) / r^2.
  return {lj12 - lj6 + coul, coul, (-12.0 * lj12 + 6.0 * lj6 - coul) * ir2};
}

/// The pair of sites i and j from their own values (c6, c12 >= 0, charges in e) and the Coulomb
/// constant k of the model.
LANDSCAPE_HD SitePairTerm sitePair(double r2, double c6i, double c12i, double qi, double c6j,
                                   double c12j, double qj, double coulombConstant) {
  return sitePairCombined(r2, sqrt(c6i * c6j), sqrt(c12i * c12j), coulombConstant * qi * qj);
}

}  // namespace landscape
