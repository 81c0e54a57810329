#pragma once
// Angle-axis rigid-body algebra shared by the CPU adapter (landscape/RigidBodyPotential) and the
// CUDA kernels (gpu/RigidBodyKernels.cu): Rodrigues' rotation matrix (Mantell, Pitt and Wales, J.
// Chem. Theory Comput. 2016, eqs 3-4), its derivatives with respect to the rotation vector p (eq 9)
// and the angle-axis metric of Ruehle, Kusumaatmaja, Chakrabarti and Wales (J. Chem. Theory
// Comput. 2013). Matrices are row-major double[9]; everything is unrolled 3x3 arithmetic.
//
// Eq 3 with the normalised skew matrix of eq 4 divides by theta = |p|. We use the equivalent form
// in the unnormalised skew matrix P = [p]_x,
//   R = I + a P + b P^2,          a = sin(t)/t,  b = (1 - cos t)/t^2,
//   dR/dp_k = a E_k + b (E_k P + P E_k) + p_k (a' P + b' P^2),
//             a' = (t cos t - sin t)/t^3,  b' = (t sin t - 2 (1 - cos t))/t^4,
// (E_k = [e_k]_x), which is eq 9 multiplied out, and switch to Taylor series of a, b, a', b' for
// t < kRigidSmallAngle, so p = 0 (the small-angle limit) is exact and no 1/t appears.
#include "landscape/core/HostDevice.h"

// The fixed 3x3 loops are unrolled by nvcc; g++ unrolls them itself.
#if defined(__CUDACC__)
#define LANDSCAPE_UNROLL _Pragma("unroll")
#else
#define LANDSCAPE_UNROLL
#endif

namespace landscape {

/// Below this angle (radians) the coefficients come from their Taylor series (truncation error
/// < 1e-17); above it the closed forms lose at most ~1e-12 relative to cancellation.
constexpr double kRigidSmallAngle = 5e-2;

struct RodriguesCoefficients {
  double a, b, da, db;  ///< a, b, a', b' of the header comment
};

LANDSCAPE_HD RodriguesCoefficients rodriguesCoefficients(double theta2) {
  RodriguesCoefficients c;
  if (theta2 < kRigidSmallAngle * kRigidSmallAngle) {
    const double t2 = theta2, t4 = t2 * t2, t6 = t4 * t2;
    c.a = 1.0 - t2 / 6.0 + t4 / 120.0 - t6 / 5040.0;
    c.b = 0.5 - t2 / 24.0 + t4 / 720.0 - t6 / 40320.0;
    c.da = -1.0 / 3.0 + t2 / 30.0 - t4 / 840.0 + t6 / 45360.0;
    c.db = -1.0 / 12.0 + t2 / 180.0 - t4 / 6720.0 + t6 / 453600.0;
  } else {
    const double t = sqrt(theta2);
    const double s = sin(t), co = cos(t), sh = sin(0.5 * t);
    const double oneMinusCos = 2.0 * sh * sh;  // 1 - cos t without its cancellation
    c.a = s / t;
    c.b = oneMinusCos / theta2;
    c.da = (t * co - s) / (theta2 * t);
    c.db = (t * s - 2.0 * oneMinusCos) / (theta2 * theta2);
  }
  return c;
}

/// R (eq 3) from the rotation vector p (radians).
LANDSCAPE_HD void rotationMatrix(const double p[3], double R[9]) {
  const RodriguesCoefficients c = rodriguesCoefficients(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  // P = [p]_x, P^2 = p p^T - |p|^2 I.
  const double t2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
  R[0] = 1.0 + c.b * (p[0] * p[0] - t2);
  R[1] = -c.a * p[2] + c.b * p[0] * p[1];
  R[2] = c.a * p[1] + c.b * p[0] * p[2];
  R[3] = c.a * p[2] + c.b * p[1] * p[0];
  R[4] = 1.0 + c.b * (p[1] * p[1] - t2);
  R[5] = -c.a * p[0] + c.b * p[1] * p[2];
  R[6] = -c.a * p[1] + c.b * p[2] * p[0];
  R[7] = c.a * p[0] + c.b * p[2] * p[1];
  R[8] = 1.0 + c.b * (p[2] * p[2] - t2);
}

/// R (eq 3) and its three derivatives dR/dp_k (eq 9), each row-major 3x3.
LANDSCAPE_HD void rotationMatrixAndDerivatives(const double p[3], double R[9], double dR1[9],
                                               double dR2[9], double dR3[9]) {
  rotationMatrix(p, R);
  const double t2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
  const RodriguesCoefficients c = rodriguesCoefficients(t2);
  // P and P^2 explicitly.
  const double P[9] = {0.0, -p[2], p[1], p[2], 0.0, -p[0], -p[1], p[0], 0.0};
  double P2[9];
  LANDSCAPE_UNROLL
  for (int i = 0; i < 3; ++i) LANDSCAPE_UNROLL
  for (int j = 0; j < 3; ++j) P2[3 * i + j] = p[i] * p[j] - (i == j ? t2 : 0.0);
  double* out[3] = {dR1, dR2, dR3};
  LANDSCAPE_UNROLL
  for (int k = 0; k < 3; ++k) {
    // E_k = [e_k]_x; E_k P + P E_k = e_k p^T + p e_k^T - 2 p_k I.
    double E[9] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    if (k == 0) {
      E[5] = -1.0;
      E[7] = 1.0;
    }
    if (k == 1) {
      E[2] = 1.0;
      E[6] = -1.0;
    }
    if (k == 2) {
      E[1] = -1.0;
      E[3] = 1.0;
    }
    double* D = out[k];
    LANDSCAPE_UNROLL
    for (int i = 0; i < 3; ++i) LANDSCAPE_UNROLL
    for (int j = 0; j < 3; ++j) {
      const double sym =
          (i == k ? p[j] : 0.0) + (j == k ? p[i] : 0.0) - (i == j ? 2.0 * p[k] : 0.0);
      D[3 * i + j] =
          c.a * E[3 * i + j] + c.b * sym + p[k] * (c.da * P[3 * i + j] + c.db * P2[3 * i + j]);
    }
  }
}

/// y = A x for row-major 3x3 A.
LANDSCAPE_HD void matVec3(const double A[9], const double x[3], double y[3]) {
  y[0] = A[0] * x[0] + A[1] * x[1] + A[2] * x[2];
  y[1] = A[3] * x[0] + A[4] * x[1] + A[5] * x[2];
  y[2] = A[6] * x[0] + A[7] * x[1] + A[8] * x[2];
}

/// Angle-axis metric tensor of one body (Ruehle et al. 2013):
///   M_kl = sum_i (R^k r0_i) . (R^l r0_i) = tr(R^k S R^l^T),  S = sum_i r0_i r0_i^T,
/// so it needs only the body's constant second moment S (row-major, Angstrom^2), not its atoms.
/// M is returned as its 6 upper-triangle entries m00 m01 m02 m11 m12 m22.
LANDSCAPE_HD void angleAxisMetric(const double dR1[9], const double dR2[9], const double dR3[9],
                                  const double S[9], double M[6]) {
  const double* D[3] = {dR1, dR2, dR3};
  double DS[3][9];
  LANDSCAPE_UNROLL
  for (int k = 0; k < 3; ++k) LANDSCAPE_UNROLL
  for (int i = 0; i < 3; ++i) LANDSCAPE_UNROLL
  for (int j = 0; j < 3; ++j)
    DS[k][3 * i + j] = D[k][3 * i] * S[j] + D[k][3 * i + 1] * S[3 + j] + D[k][3 * i + 2] * S[6 + j];
  int m = 0;
  LANDSCAPE_UNROLL
  for (int k = 0; k < 3; ++k) LANDSCAPE_UNROLL
  for (int l = k; l < 3; ++l) {
    double s = 0.0;
    LANDSCAPE_UNROLL
    for (int e = 0; e < 9; ++e) s += DS[k][e] * D[l][e];
    M[m++] = s;
  }
}

/// g^T M^-1 g for the symmetric positive-definite 3x3 M (upper triangle) by the adjugate. A
/// singular M (only at |p| = 2 pi n, n > 0, where the angle-axis chart degenerates) falls back to
/// |g|^2 / (tr M / 3) so that convergence tests still see a finite number.
LANDSCAPE_HD double inverseMetricNormSquared(const double M[6], const double g[3]) {
  const double a = M[0], b = M[1], c = M[2], d = M[3], e = M[4], f = M[5];
  const double A00 = d * f - e * e, A01 = c * e - b * f, A02 = b * e - c * d;
  const double A11 = a * f - c * c, A12 = b * c - a * e, A22 = a * d - b * b;
  const double det = a * A00 + b * A01 + c * A02;
  const double tr = a + d + f;
  const double gg = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
  if (!(det > 1e-12 * tr * tr * tr)) return tr > 0.0 ? 3.0 * gg / tr : gg;
  const double q = A00 * g[0] * g[0] + A11 * g[1] * g[1] + A22 * g[2] * g[2] +
                   2.0 * (A01 * g[0] * g[1] + A02 * g[0] * g[2] + A12 * g[1] * g[2]);
  return q / det;
}

}  // namespace landscape
