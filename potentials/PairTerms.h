#pragma once
// Pair potentials with species, cutoffs and periodic boxes: the physics of one pair, written once
// for the CPU reference loop (potentials/PairPotential) and the CUDA kernels. What a system is
// (species, parameters, box, tables) lives in potentials/PairModel.h; this header only evaluates.
//
// Every law is V(r) for r below the pair's cutoff plus a cutoff correction s0 + s1 r + s2 r^2
// (PairCoefficients::shift*), so that every named convention is one code path:
//   truncated                 s = 0
//   truncated and shifted     s0 = -V(rc)
//   force-shifted             s0 = -V(rc) + rc V'(rc), s1 = -V'(rc)
//   quadratic-smoothed        s2 = -V'(rc) / (2 rc), s0 = -V(rc) - s2 rc^2 (GMIN's BLJCLUSTER and
//                             pele's BLJCut: V and V' vanish at rc)
// and 0 beyond rc.
#include <cmath>

#include "landscape/core/HostDevice.h"
#include "potentials/PeriodicBox.h"

namespace landscape {

/// The law of every pair of a model (one law per model; species change only parameters).
enum class PairLaw : int {
  LennardJones = 0,  ///< 4 eps [(sigma/r)^12 - (sigma/r)^6]
  Morse = 1,         ///< eps e^{rho(1 - r/r0)} (e^{rho(1 - r/r0)} - 2): GMIN's MORSE, range rho
  Tabulated = 2,     ///< quadratic interpolation in a table of r, V(r) (potentials/PairTable.h)
};

/// One type pair's constants, derived from PairModel by PairModel::coefficients().
struct PairCoefficients {
  double c12 = 0.0, c6 = 0.0;  ///< Lennard-Jones: 4 eps sigma^12 and 4 eps sigma^6
  double epsilon = 0.0;        ///< Morse: well depth
  double r0 = 0.0;             ///< Morse: equilibrium distance
  double alpha = 0.0;          ///< Morse: rho / r0 (inverse length)
  double cutoff2 = 0.0;        ///< squared cutoff; 0 = no cutoff
  double shift0 = 0.0, shift1 = 0.0, shift2 = 0.0;  ///< cutoff correction s0 + s1 r + s2 r^2
  /// Tabulated: the table's pieces start at coefficient triple tableOffset of
  /// PairSystemView::tableCoefficients; piece i covers [tableStart + i w, tableStart + (i+1) w).
  int tableOffset = 0;
  int tablePieces = 0;
  double tableStart = 0.0;
  double tableWidth = 0.0;
  double tableInverseWidth = 0.0;
};

/// What a loop over pairs needs, as plain pointers: host arrays for the CPU reference, device
/// arrays in the kernels.
struct PairSystemView {
  PairLaw law = PairLaw::LennardJones;
  int speciesCount = 1;
  const PairCoefficients* pairs = nullptr;  ///< speciesCount^2, row-major, symmetric
  const int* species = nullptr;             ///< per atom, 0 .. speciesCount-1
  PeriodicBox box;
  const double* tableCoefficients = nullptr;  ///< Tabulated: (a, b, c) per piece, all tables
  bool needsDistance = false;  ///< the law or the cutoff correction needs r, not only r^2

  LANDSCAPE_HD const PairCoefficients& pair(int i, int j) const {
    return pairs[species[i] * speciesCount + species[j]];
  }
};

struct PairTerm {
  double energy;     ///< V(r) with the cutoff correction; 0 beyond the cutoff
  double dEdrOverR;  ///< V'(r) / r, so the gradient on atom i is dEdrOverR * (r_i - r_j)
};

/// Quadratic interpolation in a table: on piece i, V = a z^2 + b z + c with z = r - (start + i w)
/// (Supporting Information A of the MOIL GPU port: knots at 0, w/2 and w of each piece). Returns
/// the value and dV/dr, the exact derivative of the interpolant, so that minimisers see a
/// consistent energy and gradient. Below the first knot the value is NaN: a table that does not
/// reach the distances a run visits fails the run visibly instead of guessing.
LANDSCAPE_HD void tabulatedPairValue(const PairCoefficients& p, const double* coefficients,
                                     double r, double& value, double& derivative) {
  const double s = (r - p.tableStart) * p.tableInverseWidth;
  if (!(s >= 0.0)) {
    value = derivative = nan("");
    return;
  }
  int piece = static_cast<int>(s);
  if (piece >= p.tablePieces) piece = p.tablePieces - 1;  // r at the last knot itself
  const double* abc = coefficients + 3 * (p.tableOffset + piece);
#ifdef __CUDA_ARCH__
  // Every multiply-add spelled out: the kernels inline this in several loops (every pair, a
  // list's build, a stored list), whose sums must have the same bits, so no rounding may be left
  // to the compiler's choice of contraction.
  const double z = r - fma(static_cast<double>(piece), p.tableWidth, p.tableStart);
  value = fma(fma(abc[0], z, abc[1]), z, abc[2]);
  derivative = fma(2.0 * abc[0], z, abc[1]);
#else
  const double z = r - (p.tableStart + piece * p.tableWidth);
  value = (abc[0] * z + abc[1]) * z + abc[2];
  derivative = 2.0 * abc[0] * z + abc[1];
#endif
}

/// The bare law V(r) and V'(r) at distance r (r2 = r^2; r is read only when needsDistance).
LANDSCAPE_HD void pairLawValue(const PairSystemView& s, const PairCoefficients& p, double r2,
                               double r, double& value, double& derivativeOverR) {
  switch (s.law) {
    case PairLaw::LennardJones: {
      const double ir2 = 1.0 / r2;
      const double ir6 = ir2 * ir2 * ir2;
      const double rep = p.c12 * ir6 * ir6, att = p.c6 * ir6;
      value = rep - att;
      derivativeOverR = (-12.0 * rep + 6.0 * att) * ir2;  // V'(r) / r
      return;
    }
    case PairLaw::Morse: {
      const double e = exp(p.alpha * (p.r0 - r));  // e^{rho (1 - r / r0)}
      value = p.epsilon * e * (e - 2.0);
      derivativeOverR = -2.0 * p.epsilon * p.alpha * e * (e - 1.0) / r;
      return;
    }
    case PairLaw::Tabulated: {
      double derivative;
      tabulatedPairValue(p, s.tableCoefficients, r, value, derivative);
      derivativeOverR = derivative / r;
      return;
    }
  }
  value = derivativeOverR = 0.0;
}

/// One pair at squared distance r2 (minimum image already taken), cutoff included.
LANDSCAPE_HD PairTerm pairTerm(const PairSystemView& s, const PairCoefficients& p, double r2) {
  if (p.cutoff2 > 0.0 && r2 >= p.cutoff2) return {0.0, 0.0};
  const double r = s.needsDistance ? sqrt(r2) : 0.0;
  double value, derivativeOverR;
  pairLawValue(s, p, r2, r, value, derivativeOverR);
  if (p.cutoff2 > 0.0) {
    value += p.shift0 + p.shift2 * r2;
    derivativeOverR += 2.0 * p.shift2;
    if (p.shift1 != 0.0) {
      value += p.shift1 * r;
      derivativeOverR += p.shift1 / r;
    }
  }
  return {value, derivativeOverR};
}

/// The minimum-image separation x_i - x_j of atoms i and j (flat x y z arrays) and its square.
LANDSCAPE_HD double pairSeparation(const PairSystemView& s, const double* x, int i, int j,
                                   double d[3]) {
  d[0] = x[3 * i] - x[3 * j];
  d[1] = x[3 * i + 1] - x[3 * j + 1];
  d[2] = x[3 * i + 2] - x[3 * j + 2];
  s.box.minimumImage(d);
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

}  // namespace landscape
