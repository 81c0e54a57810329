#pragma once
// Device helpers of the pair-potential kernels (gpu/BatchedPairKernels.cu: B structures, a block
// each; gpu/PairKernels.cu: one large structure, all pairs or a Verlet list): the minimum image
// with the box's inverse edges, one pair's term and the load of a species pair's constants into
// shared memory. Included only from .cu files.
//
// The physics is potentials/PairTerms.h's: the laws come from pairLawValue and
// tabulatedPairValue, the cutoff correction s0 + s1 r + s2 r^2 is PairTerms.h's pairTerm line by
// line. Two changes of arithmetic, which keep the GPU within rounding of the CPU reference
// (potentials/PairPotential) but not bit for bit:
//   - the image: d - L k with k the nearest integer to d / L, found as (d L^-1 + 1.5 2^52) - 1.5
//     2^52 (two full-rate additions instead of a division and a rounding instruction, which the
//     Hopper SM runs at a quarter of the FP64 rate); ties (|d| = L/2 exactly, far beyond any
//     cutoff, PairModel::check) may pick the other image;
//   - where the law or the correction needs r (Morse, tables, the force-shifted s1), r and 1/r
//     come from one reciprocal square root (CUDA's rsqrt, 1 ulp) instead of sqrt and divisions.
#include <cuda_runtime.h>

#include "potentials/PairTerms.h"

namespace landscape {

/// The box as the kernels use it: edges and their inverses, both 0 on open axes (then the image
/// leaves d unchanged, with no branch).
struct PairDeviceBox {
  double length[3] = {0.0, 0.0, 0.0};
  double inverse[3] = {0.0, 0.0, 0.0};
};

inline PairDeviceBox pairDeviceBox(const PeriodicBox& box) {
  PairDeviceBox b;
  for (int k = 0; k < 3; ++k) {
    b.length[k] = box.length[k] > 0.0 ? box.length[k] : 0.0;
    b.inverse[k] = box.length[k] > 0.0 ? 1.0 / box.length[k] : 0.0;
  }
  return b;
}

/// 1.5 x 2^52: adding it to |v| < 2^51 rounds v to the nearest integer (ties to even), and
/// subtracting it again is exact.
constexpr double kPairRoundShift = 6755399441055744.0;

/// The nearest image of the separation component d along an axis of edge L (inverse iL).
__device__ __forceinline__ double pairImage(double d, double L, double iL) {
  const double k = __dsub_rn(__fma_rn(d, iL, kPairRoundShift), kPairRoundShift);
  return __fma_rn(-L, k, d);
}

/// d = a - b under the minimum image; returns |d|^2.
__device__ __forceinline__ double pairSeparationDevice(const PairDeviceBox& box, double ax,
                                                       double ay, double az, double bx, double by,
                                                       double bz, double d[3]) {
  d[0] = pairImage(ax - bx, box.length[0], box.inverse[0]);
  d[1] = pairImage(ay - by, box.length[1], box.inverse[1]);
  d[2] = pairImage(az - bz, box.length[2], box.inverse[2]);
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/// One pair at squared distance r2 of the law kLaw (PairTerms.h's pairTerm, with r and 1/r from
/// one rsqrt where needed). `table`: the tables' coefficients (Tabulated only).
template <PairLaw kLaw>
__device__ __forceinline__ PairTerm pairTermDevice(const PairCoefficients& p, double r2,
                                                   const double* table) {
  const double cut2 = p.cutoff2;
  if (cut2 > 0.0 && r2 >= cut2) return {0.0, 0.0};
  PairSystemView law;  // only law and tableCoefficients are read by the value functions
  law.law = kLaw;
  law.tableCoefficients = table;
  double value, derivativeOverR, rInverse = 0.0, r = 0.0;
  if (kLaw == PairLaw::LennardJones) {
    pairLawValue(law, p, r2, 0.0, value, derivativeOverR);
  } else {
    rInverse = rsqrt(r2);
    r = r2 * rInverse;
    if (kLaw == PairLaw::Morse) {
      pairLawValue(law, p, r2, r, value, derivativeOverR);
    } else {
      double derivative;
      tabulatedPairValue(p, table, r, value, derivative);
      derivativeOverR = __dmul_rn(derivative, rInverse);  // never fused with what follows
    }
  }
  // The correction's roundings spelled out (intrinsics are never contracted): the kernels inline
  // this term in several loops whose sums must have the same bits.
  if (cut2 > 0.0) {
    value = __dadd_rn(value, __fma_rn(p.shift2, r2, p.shift0));
    derivativeOverR = __dadd_rn(derivativeOverR, 2.0 * p.shift2);
    if (p.shift1 != 0.0) {
      if (kLaw == PairLaw::LennardJones) {
        rInverse = rsqrt(r2);
        r = r2 * rInverse;
      }
      value = __fma_rn(p.shift1, r, value);
      derivativeOverR = __fma_rn(p.shift1, rInverse, derivativeOverR);
    }
  }
  return {value, derivativeOverR};
}

/// Copies `count` PairCoefficients from global to shared memory with the whole block (as doubles:
/// the struct is a whole number of them), followed by __syncthreads() at the caller.
__device__ __forceinline__ void loadPairCoefficients(PairCoefficients* shared,
                                                     const PairCoefficients* global, int count) {
  static_assert(sizeof(PairCoefficients) % sizeof(double) == 0,
                "PairCoefficients is copied as doubles");
  constexpr int kWords = static_cast<int>(sizeof(PairCoefficients) / sizeof(double));
  const double* from = reinterpret_cast<const double*>(global);
  double* to = reinterpret_cast<double*>(shared);
  for (int k = threadIdx.x; k < count * kWords; k += blockDim.x) to[k] = __ldg(from + k);
}

}  // namespace landscape
