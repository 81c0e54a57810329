#pragma once
// AMBER force field + generalized Born physics, written once for the CPU reference loops
// (potentials/AmberGb.cpp) and a CUDA kernel (docs/architecture.md: physics written once, loops
// written twice): plain doubles and fixed-size arrays only, no containers, no exceptions.
//
// Units: Angstrom, kcal/mol, radians; charges in AMBER's internal unit (e x 18.2223), so that
// q_i q_j / r is in kcal/mol. Every function returns energies and gradients (dE/dx), never forces.
// The formulas and their branch structure follow sander (egb.F90: egb_calc_radii, egb) and NAB
// (eff.c: egb), the authorities for what "AMBER igb = 1, 2, 5" means; see docs/amber-gb.md.
#include <math.h>

#include "landscape/core/HostDevice.h"

namespace landscape {

// ---- flat term records (what the CPU loop and a CUDA kernel iterate over) ---------------------

/// Bond i-j: E = k (r - r0)^2 (AMBER keeps no factor 1/2).
struct AmberBondTerm {
  int i, j;
  double forceConstant;  ///< k, kcal/mol/A^2
  double equilibrium;    ///< r0, Angstrom
};

/// Angle i-j-k with vertex j: E = k (theta - theta0)^2.
struct AmberAngleTerm {
  int i, j, k;
  double forceConstant;  ///< k, kcal/mol/rad^2
  double equilibrium;    ///< theta0, radians
};

/// One Fourier term of torsion i-j-k-l, in sander's form E = k + gamc cos(n phi) + gams sin(n phi)
/// with gamc = k cos(phase), gams = k sin(phase), i.e. E = k (1 + cos(n phi - phase)).
struct AmberDihedralTerm {
  int i, j, k, l;
  double forceConstant;  ///< k, kcal/mol
  double periodicity;    ///< n
  double gamc;           ///< k cos(phase), kcal/mol
  double gams;           ///< k sin(phase), kcal/mol
};

/// 1-4 pair (end atoms of a proper torsion), with the scale factors already applied:
/// E_eel = chargeProduct / r, E_vdw = a / r^12 - b / r^6.
struct AmberPair14Term {
  int i, j;
  double chargeProduct;  ///< q_i q_j / (SCEE eps_in), kcal/mol A
  double a;              ///< A_ij / SCNB, kcal/mol A^12
  double b;              ///< B_ij / SCNB, kcal/mol A^6
};

/// The GB model in the numbers the pair functions need.
struct AmberGbModel {
  int igb;                    ///< 1 (HCT), 2 (OBC I), 5 (OBC II)
  double alpha, beta, gamma;  ///< OBC rescaling (igb 2: 0.8, 0, 2.909125; igb 5: 1.0, 0.8, 4.85)
  double offset;              ///< 0.09 A, subtracted from the intrinsic radii
  double rgbmax;              ///< Born-radius integration cutoff, A
  double kappa;               ///< Debye-Hueckel screening, 1/A (0.73 sqrt(0.10806 saltcon))
  double interiorInverse;     ///< 1 / eps_in
  double exteriorInverse;     ///< 1 / eps_out
  /// sander's cut squared, A^2: the pair terms (EELEC, VDWAALS, the GB off-diagonal term) of a
  /// pair with r^2 > cutoff2 are left out (+infinity: every pair)
  double cutoff2;
};

// ---- small vector helpers ------------------------------------------------------------------

LANDSCAPE_HD double amberDot(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

LANDSCAPE_HD void amberCross(const double* a, const double* b, double* c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

// ---- bonded terms --------------------------------------------------------------------------

/// Bond energy; writes dE/dx_i to gi (dE/dx_j = -gi).
LANDSCAPE_HD double amberBond(const double* xi, const double* xj, double k, double r0, double* gi) {
  const double d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
  const double r = sqrt(amberDot(d, d));
  const double dr = r - r0;
  const double dEdrOverR = r > 0.0 ? 2.0 * k * dr / r : 0.0;
  for (int c = 0; c < 3; ++c) gi[c] = dEdrOverR * d[c];
  return k * dr * dr;
}

/// Angle energy, theta = atan2(|a x b|, a . b) with a = x_i - x_j, b = x_k - x_j (accurate at
/// every angle). Writes dE/dx_i to gi and dE/dx_k to gk (dE/dx_j = -(gi + gk)). At exactly 0 or
/// 180 degrees the direction of the gradient is undefined and gi = gk = 0.
LANDSCAPE_HD double amberAngle(const double* xi, const double* xj, const double* xk, double k,
                               double theta0, double* gi, double* gk) {
  const double a[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
  const double b[3] = {xk[0] - xj[0], xk[1] - xj[1], xk[2] - xj[2]};
  double axb[3];
  amberCross(a, b, axb);
  const double cross = sqrt(amberDot(axb, axb));
  const double ab = amberDot(a, b);
  const double theta = atan2(cross, ab);
  const double dtheta = theta - theta0;
  const double dEdtheta = 2.0 * k * dtheta;
  // d theta / d a = (a (a.b) / |a|^2 - b) / |a x b|, and symmetrically for b.
  const double scale = cross > 0.0 ? dEdtheta / cross : 0.0;
  const double aa = amberDot(a, a), bb = amberDot(b, b);
  for (int c = 0; c < 3; ++c) {
    gi[c] = scale * (a[c] * ab / aa - b[c]);
    gk[c] = scale * (b[c] * ab / bb - a[c]);
  }
  return k * dtheta * dtheta;
}

/// sander's snapping of the torsion phase (setgms): a phase within 1e-3 of +-pi is pi exactly
/// (prmtops store 180 degrees as 3.14159400), and cos/sin below 1e-10 are zero.
LANDSCAPE_HD void amberDihedralPhase(double k, double phase, double* gamc, double* gams) {
  const double pi = 3.14159265358979323846;
  if (fabs(fabs(phase) - pi) <= 1e-3) phase = phase < 0.0 ? -pi : pi;
  double c = cos(phase), s = sin(phase);
  if (fabs(c) < 1e-10) c = 0.0;
  if (fabs(s) < 1e-10) s = 0.0;
  *gamc = k * c;
  *gams = k * s;
}

/// One torsion Fourier term. phi is the IUPAC dihedral angle of i-j-k-l,
/// phi = atan2(|b2| b1 . (b2 x b3), (b1 x b2) . (b2 x b3)) with b1 = x_j - x_i, b2 = x_k - x_j,
/// b3 = x_l - x_k. Writes dE/dx of the four atoms to g[0..11] (i, j, k, l). The gradient of phi
/// is that of Blondel & Karplus, J. Comput. Chem. 17, 1132 (1996), eq 27, which has no
/// singularity at phi = 0 or 180 degrees; for collinear atoms it is set to zero.
LANDSCAPE_HD double amberDihedral(const double* xi, const double* xj, const double* xk,
                                  const double* xl, const AmberDihedralTerm& t, double* g) {
  const double b1[3] = {xj[0] - xi[0], xj[1] - xi[1], xj[2] - xi[2]};
  const double b2[3] = {xk[0] - xj[0], xk[1] - xj[1], xk[2] - xj[2]};
  const double b3[3] = {xl[0] - xk[0], xl[1] - xk[1], xl[2] - xk[2]};
  double m[3], n[3];
  amberCross(b1, b2, m);
  amberCross(b2, b3, n);
  const double b2b2 = amberDot(b2, b2);
  const double b2Length = sqrt(b2b2);
  const double phi = atan2(b2Length * amberDot(b1, n), amberDot(m, n));
  const double nphi = t.periodicity * phi;
  const double cosine = cos(nphi), sine = sin(nphi);
  const double energy = t.forceConstant + t.gamc * cosine + t.gams * sine;
  const double dEdphi = t.periodicity * (t.gams * cosine - t.gamc * sine);
  const double mm = amberDot(m, m), nn = amberDot(n, n);
  if (mm <= 0.0 || nn <= 0.0 || b2b2 <= 0.0) {
    for (int c = 0; c < 12; ++c) g[c] = 0.0;
    return energy;
  }
  const double p = amberDot(b1, b2) / b2b2, q = amberDot(b3, b2) / b2b2;
  for (int c = 0; c < 3; ++c) {
    const double dphiI = -b2Length / mm * m[c];
    const double dphiL = b2Length / nn * n[c];
    g[c] = dEdphi * dphiI;
    g[3 + c] = dEdphi * (-(1.0 + p) * dphiI + q * dphiL);
    g[6 + c] = dEdphi * (p * dphiI - (1.0 + q) * dphiL);
    g[9 + c] = dEdphi * dphiL;
  }
  return energy;
}

// ---- pair terms ----------------------------------------------------------------------------
// Templated on the arithmetic type: double for the CPU reference and the CUDA double mode, float
// for the pair arithmetic of the CUDA mixed mode (gpu/AmberGbCuda.h). Every literal is cast to
// Real so that a float instantiation never promotes to double.

/// A radial pair term: the gradient on atom i is dEdrOverR * (x_i - x_j).
template <typename Real>
struct AmberPairTermT {
  Real energy;
  Real dEdrOverR;
};
using AmberPairTerm = AmberPairTermT<double>;

/// 1/sqrt(x): the device's reciprocal square root (1 ulp in double, no division) in CUDA code,
/// 1 / sqrt(x) on the host. In CUDA double it is rsqrt's own sequence (the MUFU seed y and one
/// step y + y e (1/2 + 3e/8), e = 1 - x y^2: the same bits) without rsqrt's branch for zero,
/// subnormal, infinite or NaN x, which costs the pair loop a few instructions per call: its x
/// is a squared distance of two atoms (or f^2 >= it), a normal number.
template <typename Real>
LANDSCAPE_HD Real amberInverseSqrt(Real x) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(Real) >= sizeof(double)) {
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(static_cast<double>(x)));
    const double e = fma(x, -(y * y), 1.0);
    return fma(fma(e, 0.375, 0.5), y * e, y);
  } else {
    return rsqrt(x);
  }
#else
  return Real(1) / sqrt(x);
#endif
}

// e^r on |r| <= ln2 / 2, degree 11, lowest power first: Chebyshev interpolation at 12 nodes
// (relative error 1.7e-17 with these double coefficients, below half an ulp).
#define LANDSCAPE_AMBER_EXP_COEFFICIENTS                                                 \
  1.0, 1.0, 0x1.0000000000011p-1, 0x1.555555555555ap-3, 0x1.555555554f0cfp-5,            \
      0x1.111111110f225p-7, 0x1.6c16c187fbe02p-10, 0x1.a01a01b14378fp-13,                \
      0x1.a01991ac8730ap-16, 0x1.71ddf5749d126p-19, 0x1.28b4057f44145p-22,               \
      0x1.af631d0059becp-26
constexpr int kAmberExpDegree = 11;
constexpr double kAmberExpCoefficients[kAmberExpDegree + 1] = {LANDSCAPE_AMBER_EXP_COEFFICIENTS};
#ifdef __CUDACC__
// The device copy: the polynomial's multiply-adds take these as constant-bank operands.
static __constant__ double kAmberExpCoefficientsDevice[kAmberExpDegree + 1] = {
    LANDSCAPE_AMBER_EXP_COEFFICIENTS};
#endif

/// e^x for x <= 0 in double without a branch, for the GPU pair kernel: x = n ln2 + r
/// (Cody-Waite, |r| <= ln2/2), the degree-11 polynomial above, times 2^n built from n's bits.
/// Within 2 ulp of exp (tests/AmberGbTest.cpp). x below -708 gives e^-708 = 3.3e-308 (the pair
/// terms it scales are then far below rounding), and positive x is not its domain. Against CUDA's
/// exp it saves about 30 instructions per call in the register-bound pair loop: no branch for
/// large |x|, and each coefficient is an operand read from constant memory where exp loads it
/// as an immediate with two uniform moves.
LANDSCAPE_HD double amberExpNonPositive(double x) {
  x = x > -708.0 ? x : -708.0;  // below -708, and NaN, become -708 (r^2 carries a NaN on)
  const double shift = 0x1.8p52;  // 1.5 x 2^52: t's low bits are then round(x / ln2)
  const double t = fma(x, 1.4426950408889634, shift);
  const double n = t - shift;
  double r = fma(n, -0x1.62e42fefa39efp-1, x);  // ln2 rounded, then its remainder
  r = fma(n, -2.3190468138462996e-17, r);
#ifdef __CUDA_ARCH__
  const double* c = kAmberExpCoefficientsDevice;
#else
  const double* c = kAmberExpCoefficients;
#endif
  double p = c[kAmberExpDegree];
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int k = kAmberExpDegree - 1; k >= 0; --k) p = fma(p, r, c[k]);
#ifdef __CUDA_ARCH__
  // 2^n from n's bits (an integer operation, not a conversion): n >= -1021 after the clamp.
  return p * __hiloint2double((__double2loint(t) + 1023) << 20, 0);
#else
  return ldexp(p, static_cast<int>(n));
#endif
}

/// e^x (x <= 0) of the GB pair terms: exp on the host (the CPU reference) and in CUDA float (the
/// special-function unit), amberExpNonPositive in CUDA double.
template <typename Real>
LANDSCAPE_HD Real amberPairExp(Real x) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(Real) >= sizeof(double)) return amberExpNonPositive(x);
#endif
  return exp(x);
}

/// Lennard-Jones 12-6 with AMBER's coefficients from 1/r^2: E = A / r^12 - B / r^6.
template <typename Real>
LANDSCAPE_HD AmberPairTermT<Real> amberLennardJonesFromInverse(Real ir2, Real a, Real b) {
  const Real ir6 = ir2 * ir2 * ir2;
  const Real f12 = a * ir6 * ir6, f6 = b * ir6;
  return {f12 - f6, -(Real(12) * f12 - Real(6) * f6) * ir2};
}

template <typename Real>
LANDSCAPE_HD AmberPairTermT<Real> amberLennardJones(Real r2, Real a, Real b) {
  return amberLennardJonesFromInverse<Real>(Real(1) / r2, a, b);
}

/// Coulomb E = qiqj / r from 1/r (qiqj already holds 1 / eps_in and any 1-4 scaling).
template <typename Real>
LANDSCAPE_HD AmberPairTermT<Real> amberCoulombFromInverse(Real ir, Real qiqj) {
  const Real e = qiqj * ir;
  return {e, -e * ir * ir};
}

template <typename Real>
LANDSCAPE_HD AmberPairTermT<Real> amberCoulomb(Real r2, Real qiqj) {
  return amberCoulombFromInverse<Real>(Real(1) / sqrt(r2), qiqj);
}

// ---- generalized Born ----------------------------------------------------------------------

/// One atom's contribution to another's descreening integral, and its radial derivative.
template <typename Real>
struct AmberDescreeningT {
  Real value;     ///< I_ij, 1/A
  Real dValueDr;  ///< dI_ij/dr, 1/A^2
};
using AmberDescreening = AmberDescreeningT<double>;

/// The 5-term series of the descreening integral for r > 4 s_j (amberDescreening below):
/// I_ij = s^3/r^4 amberDescreeningSeries(t) and dI_ij/dr = -s^3/r^5 amberDescreeningSeriesSlope(t),
/// t = s^2/r^2; d/dr of s^(2k+3) r^-(2k+4) c_k, c_k = (k+1)/(2k+3), gives the slope's coefficients
/// (k+1)(2k+4)/(2k+3) = 4/3, 12/5, 24/7, 40/9, 60/11 (sander's te..thh).
template <typename Real>
LANDSCAPE_HD Real amberDescreeningSeries(Real t) {
  return Real(1.0 / 3.0) +
         t * (Real(2.0 / 5.0) +
              t * (Real(3.0 / 7.0) + t * (Real(4.0 / 9.0) + t * Real(5.0 / 11.0))));
}
template <typename Real>
LANDSCAPE_HD Real amberDescreeningSeriesSlope(Real t) {
  return Real(4.0 / 3.0) +
         t * (Real(12.0 / 5.0) +
              t * (Real(24.0 / 7.0) + t * (Real(40.0 / 9.0) + t * Real(60.0 / 11.0))));
}

/// The HCT pairwise descreening integral of atom i (radius rhoI = R_i - offset) by the sphere of
/// atom j scaled to sj = S_j (R_j - offset), at distance r, with AMBER's branches in sander's
/// order (egb_calc_radii; NAB egb):
///   r > rgbmax + sj            0 (beyond the integration cutoff)
///   r > rgbmax - sj            the part of the sphere inside rgbmax (smooth cutoff of
///                              Svrcek-Seiler and Onufriev): (1/8r)[1 + 2r/(r - s) +
///                              (r^2 - 4 rgbmax r - s^2)/rgbmax^2 + 2 ln((r - s)/rgbmax)]
///   r > 4 sj                   5-term Taylor series in (s/r)^2 of the next branch:
///                              s^3/r^4 [1/3 + t(2/5 + t(3/7 + t(4/9 + t 5/11)))], t = s^2/r^2
///   r > rhoI + sj              HCT eq 11 (Hawkins, Cramer, Truhlar, J. Phys. Chem. 100, 19824
///                              (1996); Schaefer & Froemmel, J. Mol. Biol. 216, 1045 (1990)):
///                              (1/2)[s/(r^2 - s^2) + (1/2r) ln((r - s)/(r + s))]
///   r > |rhoI - sj|            partial overlap: (1/4)[(2 - theta)/rho - 1/(r + s) +
///                              ln(rho/(r + s))/r], theta = (r^2 + rho^2 - s^2)/(2 rho r)
///   rhoI < sj                  i inside j's sphere: (1/2)[s/(r^2 - s^2) + 2/rho +
///                              (1/2r) ln((s - r)/(s + r))] (NAB and pmemd; sander's
///                              egb_calc_radii flips the sign of its last two terms)
///   otherwise                  0 (j inside i)
/// Each branch's derivative is the exact derivative of that branch's expression (sander's
/// datmp), so the gradient is that of the energy actually computed.
template <typename Real>
LANDSCAPE_HD AmberDescreeningT<Real> amberDescreening(Real r, Real rhoI, Real sj, Real rgbmax) {
  const Real s2 = sj * sj;
  const Real r2 = r * r;
  if (r > rgbmax + sj) return {Real(0), Real(0)};
  if (r > rgbmax - sj) {
    const Real rm = r - sj;
    const Real ir = Real(1) / r;
    const Real irgb2 = Real(1) / (rgbmax * rgbmax);
    const Real f = Real(1) + Real(2) * r / rm + (r2 - Real(4) * rgbmax * r - s2) * irgb2 +
                   Real(2) * log(rm / rgbmax);
    const Real df =
        Real(4) / rm - Real(2) * r / (rm * rm) + (Real(2) * r - Real(4) * rgbmax) * irgb2;
    return {Real(0.125) * f * ir, Real(0.125) * (df * ir - f * ir * ir)};
  }
  if (r > Real(4) * sj) {
    const Real ir = Real(1) / r;
    const Real ir2 = ir * ir;
    const Real t = s2 * ir2;
    const Real s3r4 = s2 * sj * ir2 * ir2;
    const Real series = amberDescreeningSeries(t);
    const Real dseries = amberDescreeningSeriesSlope(t);
    return {s3r4 * series, -s3r4 * dseries * ir};
  }
  if (r > rhoI + sj) {
    const Real d = r2 - s2;
    const Real lg = log((r - sj) / (r + sj));
    const Real value = Real(0.5) * (sj / d + Real(0.5) * lg / r);
    const Real derivative =
        Real(0.5) * (Real(-2) * r * sj / (d * d) - Real(0.5) * lg / r2 + sj / (r * d));
    return {value, derivative};
  }
  if (r > fabs(rhoI - sj)) {
    const Real theta = (r2 + rhoI * rhoI - s2) / (Real(2) * rhoI * r);
    const Real dtheta = Real(0.5) / rhoI - (rhoI * rhoI - s2) / (Real(2) * rhoI * r2);
    const Real u = Real(1) / (r + sj);
    const Real lg = log(rhoI * u);
    const Real value = Real(0.25) * ((Real(2) - theta) / rhoI - u + lg / r);
    const Real derivative = Real(0.25) * (-dtheta / rhoI + u * u - lg / r2 - u / r);
    return {value, derivative};
  }
  if (rhoI < sj) {
    const Real d = r2 - s2;
    const Real lg = log((sj - r) / (sj + r));
    const Real value = Real(0.5) * (sj / d + Real(2) / rhoI + Real(0.5) * lg / r);
    const Real derivative =
        Real(0.5) * (Real(-2) * r * sj / (d * d) - Real(0.5) * lg / r2 + sj / (r * d));
    return {value, derivative};
  }
  return {Real(0), Real(0)};
}

/// I_ij of amberDescreening alone (same branches, same expressions up to rounding), for the GPU
/// Born-radius pass: the caller passes ir = 1/r, computed once for all branches, and the branches
/// multiply by reciprocals (1/(r - s), 1/(r^2 - s^2), 1/rho; 1/rgbmax and 1/rho are
/// loop-invariant in the Born pass) where the full function divides. Agrees with
/// amberDescreening(...).value to a few ulps of the terms (tests/AmberGbTest.cpp).
template <typename Real>
LANDSCAPE_HD Real amberDescreeningValue(Real r, Real ir, Real rhoI, Real sj, Real rgbmax) {
  const Real s2 = sj * sj;
  const Real r2 = r * r;
  if (r > rgbmax + sj) return Real(0);
  if (r > rgbmax - sj) {
    const Real rm = r - sj;
    const Real irgb = Real(1) / rgbmax;
    const Real f = Real(1) + Real(2) * r / rm + (r2 - Real(4) * rgbmax * r - s2) * irgb * irgb +
                   Real(2) * log(rm * irgb);
    return Real(0.125) * f * ir;
  }
  if (r > Real(4) * sj) {
    const Real ir2 = ir * ir;
    const Real t = s2 * ir2;
    const Real s3r4 = s2 * sj * ir2 * ir2;
    const Real series = amberDescreeningSeries(t);
    return s3r4 * series;
  }
  if (r > rhoI + sj) {
    const Real lg = log((r - sj) / (r + sj));
    return Real(0.5) * (sj / (r2 - s2) + Real(0.5) * lg * ir);
  }
  if (r > fabs(rhoI - sj)) {
    const Real irho = Real(1) / rhoI;
    const Real theta = (r2 + rhoI * rhoI - s2) * Real(0.5) * irho * ir;
    const Real u = Real(1) / (r + sj);
    const Real lg = log(rhoI * u);
    return Real(0.25) * ((Real(2) - theta) * irho - u + lg * ir);
  }
  if (rhoI < sj) {
    const Real lg = log((sj - r) / (sj + r));
    return Real(0.5) * (sj / (r2 - s2) + Real(2) / rhoI + Real(0.5) * lg * ir);
  }
  return Real(0);
}

/// I_ij and dI_ij/dr of amberDescreening (same branches, same expressions up to rounding) for
/// the GPU passes: the caller passes ir = 1/r, computed once for all branches, and the branches
/// multiply by reciprocals where the full function divides, the value and the slope sharing the
/// logarithm and the reciprocals. A Born-radius pass that keeps each pair's slope for the chain
/// rule calls it; rgbmax is loop-invariant, so its reciprocal is hoisted by the compiler. Agrees
/// with amberDescreening to a few ulps of the terms (tests/AmberGbTest.cpp).
template <typename Real>
LANDSCAPE_HD AmberDescreeningT<Real> amberDescreeningValueAndDerivative(Real r, Real ir, Real rhoI,
                                                                        Real sj, Real rgbmax) {
  const Real s2 = sj * sj;
  const Real r2 = r * r;
  const Real ir2 = ir * ir;
  if (r > rgbmax + sj) return {Real(0), Real(0)};
  if (r > rgbmax - sj) {
    const Real rm = r - sj;
    const Real irm = Real(1) / rm;
    const Real irgb = Real(1) / rgbmax;
    const Real irgb2 = irgb * irgb;
    const Real q = r * irm;
    const Real f =
        Real(1) + Real(2) * q + (r2 - Real(4) * rgbmax * r - s2) * irgb2 + Real(2) * log(rm * irgb);
    const Real df = irm * (Real(4) - Real(2) * q) + (Real(2) * r - Real(4) * rgbmax) * irgb2;
    return {Real(0.125) * f * ir, Real(0.125) * (df - f * ir) * ir};
  }
  if (r > Real(4) * sj) {
    const Real t = s2 * ir2;
    const Real s3r4 = s2 * sj * ir2 * ir2;
    const Real series = amberDescreeningSeries(t);
    const Real dseries = amberDescreeningSeriesSlope(t);
    return {s3r4 * series, -s3r4 * dseries * ir};
  }
  if (r > rhoI + sj || (r <= fabs(rhoI - sj) && rhoI < sj)) {
    // HCT apart, or i inside j's sphere (2/rho more, the log's argument mirrored).
    const bool apart = r > rhoI + sj;
    const Real id = Real(1) / (r2 - s2);
    const Real lg = apart ? log((r - sj) / (r + sj)) : log((sj - r) / (sj + r));
    const Real inside = apart ? Real(0) : Real(2) / rhoI;
    return {Real(0.5) * (sj * id + inside + Real(0.5) * lg * ir),
            Real(0.5) * (Real(-2) * r * sj * id * id - Real(0.5) * lg * ir2 + sj * ir * id)};
  }
  if (r > fabs(rhoI - sj)) {
    const Real irho = Real(1) / rhoI;
    const Real theta = (r2 + rhoI * rhoI - s2) * Real(0.5) * irho * ir;
    const Real dtheta = Real(0.5) * irho - (rhoI * rhoI - s2) * Real(0.5) * irho * ir2;
    const Real u = Real(1) / (r + sj);
    const Real lg = log(rhoI * u);
    return {Real(0.25) * ((Real(2) - theta) * irho - u + lg * ir),
            Real(0.25) * (-dtheta * irho + u * u - lg * ir2 - u * ir)};
  }
  return {Real(0), Real(0)};
}

/// dI_ij/dr of amberDescreening alone, for the GPU chain-rule pass of systems too large to keep
/// the Born pass's slopes: amberDescreeningValueAndDerivative's slope (the value's arithmetic is
/// dead code there). The caller passes ir = 1/r, shared by the two directions of a pair.
template <typename Real>
LANDSCAPE_HD Real amberDescreeningDerivative(Real r, Real ir, Real rhoI, Real sj, Real rgbmax) {
  return amberDescreeningValueAndDerivative<Real>(r, ir, rhoI, sj, rgbmax).dValueDr;
}

/// An effective Born radius and its derivative with respect to the atom's descreening sum.
struct AmberBornRadius {
  double radius;       ///< B, Angstrom
  double dRadiusDSum;  ///< dB/dI, A^2
};

/// The effective Born radius from the descreening sum I = sum_j I_ij of an atom of intrinsic radius
/// R (rho = R - offset):
///   igb 1 (HCT):      1/B = 1/rho - I
///   igb 2, 5 (OBC):   1/B = 1/rho - tanh(alpha psi - beta psi^2 + gamma psi^3) / R, psi = I rho
///                     (Onufriev, Bashford, Case, Proteins 55, 383 (2004), eq 6)
/// A non-positive 1/B (possible only for HCT) gives B = 30 A with zero derivative, as NAB and
/// pmemd do.
LANDSCAPE_HD AmberBornRadius amberBornRadius(double sum, double radius, const AmberGbModel& m) {
  const double rho = radius - m.offset;
  double inverse, dInverseDSum;
  if (m.igb == 1) {
    inverse = 1.0 / rho - sum;
    dInverseDSum = -1.0;
  } else {
    const double psi = sum * rho;
    const double th = tanh((m.alpha - m.beta * psi + m.gamma * psi * psi) * psi);
    inverse = 1.0 / rho - th / radius;
    dInverseDSum = -(1.0 - th * th) * (m.alpha - 2.0 * m.beta * psi + 3.0 * m.gamma * psi * psi) *
                   rho / radius;
  }
  if (!(inverse > 0.0)) return {30.0, 0.0};
  const double b = 1.0 / inverse;
  return {b, -b * b * dInverseDSum};
}

/// GB pair term for i != j (Still et al. 1990 with the salt factor of Srinivasan et al. 1999):
/// E = -qiqj (1/eps_in - exp(-kappa f) / eps_out) / f, f = sqrt(r^2 + BiBj exp(-r^2 / (4 BiBj))).
template <typename Real>
struct AmberGbPairTermT {
  Real energy;
  Real dEdrOverR;  ///< explicit distance dependence (Born radii fixed)
  Real dEdBi;
  Real dEdBj;
};
using AmberGbPairTerm = AmberGbPairTermT<double>;

/// The GB pair term with the model's constants passed in the arithmetic type: kappa (1/A),
/// 1/eps_in and 1/eps_out; inverseBb = 1 / (Bi Bj) is passed in so that a caller holding 1/B per
/// atom needs no division.
template <typename Real>
LANDSCAPE_HD AmberGbPairTermT<Real> amberGbPair(Real r2, Real qiqj, Real bi, Real bj,
                                                Real inverseBb, Real kappa, Real interiorInverse,
                                                Real exteriorInverse) {
  const Real bb = bi * bj;
  const Real e4 = amberPairExp<Real>(Real(-0.25) * r2 * inverseBb);
  const Real f2 = r2 + bb * e4;
  const Real inverseF = amberInverseSqrt<Real>(f2);
  const Real f = f2 * inverseF;
  const Real screened = amberPairExp<Real>(-kappa * f) * exteriorInverse;
  const Real dielectric = interiorInverse - screened;
  const Real energy = -qiqj * dielectric * inverseF;
  // dE/df = qiqj [(1/eps_in - e^{-kf}/eps_out) - kappa f e^{-kf}/eps_out] / f^2
  const Real dEdf = qiqj * (dielectric - kappa * f * screened) * inverseF * inverseF;
  // df/dr = (r/f)(1 - e4/4);  df/dBi = Bj e4 (1 + r^2/(4 BiBj)) / (2f)
  const Real dfdBb = Real(0.5) * e4 * (Real(1) + Real(0.25) * r2 * inverseBb) * inverseF;
  return {energy, dEdf * (Real(1) - Real(0.25) * e4) * inverseF, dEdf * dfdBb * bj,
          dEdf * dfdBb * bi};
}

LANDSCAPE_HD AmberGbPairTerm amberGbPair(double r2, double qiqj, double bi, double bj,
                                         const AmberGbModel& m) {
  return amberGbPair<double>(r2, qiqj, bi, bj, 1.0 / (bi * bj), m.kappa, m.interiorInverse,
                             m.exteriorInverse);
}

// ---- far GB pairs (GPU pair kernel; docs/benchmarks.md "Large sizes, step 3") ---------------
// With x = r^2 / (4 BiBj) above X = amberGbFarThreshold<Real>(), e4 = exp(-x) no longer shows in
// amberGbPair's results at the arithmetic's precision eps (2^-53 double, 2^-24 float):
//   f^2 = r^2 + BiBj e4 = r^2 (1 + e4 / (4x)), and e4 / (4x) < eps / 2 (below half an ulp of
//     r^2), so f^2 rounds to r^2 and f = r;
//   (1 - e4 / 4) in dE/dr rounds to 1 (e4 / 4 < eps / 2);
//   dE/dBi = dE/df e4 (1 + x) Bj / (2f) is e4 (1 + x) / (8x) of |E| / Bi: 5e-19 at x = 40,
//     2e-9 at x = 18, far below the rounding of the sums it would join (the self term's dE/dB
//     and the near pairs of the same atom).
// X = 40 in double (e4 / 4 = 1.1e-18, 50 times below 2^-54), X = 18 in float (e4 / 4 = 3.8e-9,
// 8 times below 2^-25). A far pair is then E = -qiqj (1/eps_in - exp(-kappa r)/eps_out) / r with
// dE/dB = 0: no exp(-x), and its 1/r is the one LJ and Coulomb use.

/// The far-pair threshold X on x = r^2 / (4 BiBj): 40 in double, 18 in float (see above).
template <typename Real>
LANDSCAPE_HD constexpr Real amberGbFarThreshold() {
  return sizeof(Real) >= sizeof(double) ? Real(40) : Real(18);
}

/// Whether a pair is far (x > X), from r^2 and 1/(BiBj) as amberGbPair takes them.
template <typename Real>
LANDSCAPE_HD bool amberGbPairIsFar(Real r2, Real inverseBb) {
  return r2 * inverseBb > Real(4) * amberGbFarThreshold<Real>();
}

/// amberGbPair of a far pair (amberGbPairIsFar): f = r, dE/dBi = dE/dBj = 0. The caller passes
/// ir = 1/sqrt(r^2) (amberInverseSqrt), shared with LJ and Coulomb; the expressions are
/// amberGbPair's with f^2 = r^2, so in double the energy and dE/dr / r are its bits up to the
/// contraction of multiply-adds (tests/AmberGbTest.cpp).
template <typename Real>
LANDSCAPE_HD AmberPairTermT<Real> amberGbPairFar(Real r2, Real ir, Real qiqj, Real kappa,
                                                 Real interiorInverse, Real exteriorInverse) {
  const Real f = r2 * ir;
  const Real screened = amberPairExp<Real>(-kappa * f) * exteriorInverse;
  const Real dielectric = interiorInverse - screened;
  const Real energy = -qiqj * dielectric * ir;
  const Real dEdf = qiqj * (dielectric - kappa * f * screened) * ir * ir;
  return {energy, dEdf * ir};
}

/// GB self term: E = -(1/2) q^2 (1/eps_in - exp(-kappa B) / eps_out) / B.
struct AmberGbSelfTerm {
  double energy;
  double dEdB;
};

LANDSCAPE_HD AmberGbSelfTerm amberGbSelf(double q, double b, const AmberGbModel& m) {
  const double screened = exp(-m.kappa * b) * m.exteriorInverse;
  const double dielectric = m.interiorInverse - screened;
  const double q2h = 0.5 * q * q;
  return {-q2h * dielectric / b, q2h * (dielectric - m.kappa * b * screened) / (b * b)};
}

}  // namespace landscape
