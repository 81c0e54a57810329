#pragma once
// Physics of one pair of uniaxial Gay-Berne ellipsoids (Gay and Berne, J. Chem. Phys. 74, 3316
// (1981), eqs 3-10, with the general exponents mu and nu of Berardi, Fava and Zannoni, Chem.
// Phys. Lett. 236, 462 (1995), eqs 1-5, and Brown, Allen, Martin and Underwood, J. Chem. Phys.
// 109, 2791 (1998)), shared by the CPU loop (potentials/GayBerne) and any device twin. Reduced
// units: lengths in sigma0's unit, energies in eps0's unit.
//
// With r = r_j - r_i, rhat = r / |r|, unit axes u_i, u_j and a = rhat.u_i, b = rhat.u_j,
// c = u_i.u_j:
//   U = 4 eps [ R^-12 - R^-6 ],   R = (|r| - sigma + sigma0) / sigma0,
//   sigma = sigma0 [ 1 - (chi/2) H(chi) ]^-1/2,
//   H(x)  = (a + b)^2 / (1 + x c) + (a - b)^2 / (1 - x c),
//   eps   = eps0 E1^nu E2^mu,   E1 = [ 1 - chi^2 c^2 ]^-1/2,   E2 = 1 - (chi'/2) H(chi'),
//   chi = (kappa^2 - 1) / (kappa^2 + 1),   chi' = (kappa'^(1/mu) - 1) / (kappa'^(1/mu) + 1),
// kappa = sigma_end / sigma_side (length / breadth), kappa' = eps_side / eps_end (the well depths
// side by side and end to end).
//
// Derivatives are taken with u_i and u_j as free 3-vectors in the formula above (a, b and c are
// linear in them); a caller whose axes are normalised vectors u = d / |d| applies
// dU/dd = (I - u u^T) dU/du / |d| (potentials/GayBerne.cpp). The formula is defined for R > 0;
// R <= 0 (the surfaces overlap by more than sigma0) is reported by gayBernePair and handled by the
// caller. This is the only place the formula lives.
#include <cmath>

#include "landscape/core/HostDevice.h"

namespace landscape {

/// The constants of one Gay-Berne model (GayBerneParams::shape() fills them).
struct GayBerneShape {
  double sigma0;    ///< side-by-side contact distance (length unit)
  double eps0;      ///< energy unit (the cross-configuration well depth)
  double chi;       ///< (kappa^2 - 1) / (kappa^2 + 1)
  double chiPrime;  ///< (kappa'^(1/mu) - 1) / (kappa'^(1/mu) + 1)
  double mu, nu;    ///< exponents of E2 and E1
};

/// One pair: energy and, when dr is not null, dU/dr (dr[3]: the gradient on centre j; centre i
/// gets -dr) and dU/du_i, dU/du_j (dui[3], duj[3]). overlap is set when R <= 0 (energy and
/// derivatives are then the formula's values at that R, meaningless). r2 = |r|^2 > 0.
struct GayBernePairTerm {
  double energy;
  double R;      ///< (|r| - sigma + sigma0) / sigma0
  double sigma;  ///< contact distance of this orientation
  double eps;    ///< well depth of this orientation
  bool overlap;  ///< R <= 0
};

/// H(x) of the header and its partial derivatives with respect to a, b and c.
struct GayBerneH {
  double h, da, db, dc;
};

LANDSCAPE_HD GayBerneH gayBerneH(double x, double a, double b, double c) {
  const double sp = a + b, sm = a - b;
  const double dp = 1.0 / (1.0 + x * c), dm = 1.0 / (1.0 - x * c);
  GayBerneH H;
  H.h = sp * sp * dp + sm * sm * dm;
  H.da = 2.0 * (sp * dp + sm * dm);
  H.db = 2.0 * (sp * dp - sm * dm);
  H.dc = x * (sm * sm * dm * dm - sp * sp * dp * dp);
  return H;
}

LANDSCAPE_HD GayBernePairTerm gayBernePair(const GayBerneShape& s, const double r[3],
                                           const double ui[3], const double uj[3], double* dr,
                                           double* dui, double* duj) {
  const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const double rn = sqrt(r2), ir = 1.0 / rn;
  const double e[3] = {r[0] * ir, r[1] * ir, r[2] * ir};
  const double a = e[0] * ui[0] + e[1] * ui[1] + e[2] * ui[2];
  const double b = e[0] * uj[0] + e[1] * uj[1] + e[2] * uj[2];
  const double c = ui[0] * uj[0] + ui[1] * uj[1] + ui[2] * uj[2];

  // Contact distance sigma = sigma0 S^-1/2, S = 1 - (chi/2) H(chi).
  const GayBerneH Hs = gayBerneH(s.chi, a, b, c);
  const double S = 1.0 - 0.5 * s.chi * Hs.h;
  const double sigma = s.sigma0 / sqrt(S);
  // Well depth eps = eps0 E1^nu E2^mu.
  const double oneMinus = 1.0 - s.chi * s.chi * c * c;  // E1 = oneMinus^-1/2
  const GayBerneH He = gayBerneH(s.chiPrime, a, b, c);
  const double E2 = 1.0 - 0.5 * s.chiPrime * He.h;
  const double eps = s.eps0 * pow(oneMinus, -0.5 * s.nu) * pow(E2, s.mu);

  const double R = (rn - sigma + s.sigma0) / s.sigma0;
  const double iR = 1.0 / R, iR2 = iR * iR, iR6 = iR2 * iR2 * iR2;
  const double f = 4.0 * (iR6 * iR6 - iR6);
  GayBernePairTerm t;
  t.energy = eps * f;
  t.R = R;
  t.sigma = sigma;
  t.eps = eps;
  t.overlap = !(R > 0.0);
  if (dr == nullptr) return t;

  // dU/dR = eps f'(R); R depends on |r| (dR/d|r| = 1/sigma0) and on sigma (dR/dsigma = -1/sigma0).
  const double dUdR = eps * 4.0 * (-12.0 * iR6 * iR6 + 6.0 * iR6) * iR;
  const double dUdrn = dUdR / s.sigma0;
  // dsigma/dq = (sigma0 chi / 4) S^-3/2 dH/dq = sigma^3 chi / (4 sigma0^2) dH/dq, q = a, b, c.
  const double ks = -dUdrn * sigma * sigma * sigma * s.chi / (4.0 * s.sigma0 * s.sigma0);
  // d ln eps / dq = nu chi^2 c / (1 - chi^2 c^2) [q = c] - mu (chi'/2) dH'/dq / E2.
  const double ke = f * eps;  // dU/d ln eps
  const double ke2 = -ke * s.mu * 0.5 * s.chiPrime / E2;
  const double dUda = ks * Hs.da + ke2 * He.da;
  const double dUdb = ks * Hs.db + ke2 * He.db;
  const double dUdc = ks * Hs.dc + ke2 * He.dc + ke * s.nu * s.chi * s.chi * c / oneMinus;
  // da/dr = (u_i - a rhat) / |r|, db/dr = (u_j - b rhat) / |r|, d|r|/dr = rhat.
  for (int k = 0; k < 3; ++k) {
    dr[k] = dUdrn * e[k] + (dUda * (ui[k] - a * e[k]) + dUdb * (uj[k] - b * e[k])) * ir;
    dui[k] = dUda * e[k] + dUdc * uj[k];
    duj[k] = dUdb * e[k] + dUdc * ui[k];
  }
  return t;
}

}  // namespace landscape
