#pragma once
// Device helpers of the SOP kernels shared by the dynamics step (gpu/SopKernels.cu) and the batched
// energy + gradient (gpu/BatchedSopKernels.cu): cell coordinates, the exclusion test, position
// loads, the reciprocal (square root) and the sum over the kSopLanes lanes of a bead. Included
// only from .cu files.
#include <cuda_runtime.h>

#include "gpu/SopKernels.cuh"

namespace landscape {

/// Cell coordinate along one axis, clamped to the grid (non-finite values go to cell 0).
template <class R>
__device__ __forceinline__ int cellCoord(R x, R lo, R cellSize, int dim) {
  const R f = (x - lo) / cellSize;
  if (!(f >= R(0))) return 0;  // also catches NaN
  if (f >= R(dim)) return dim - 1;
  return min(static_cast<int>(f), dim - 1);
}

template <class R>
__device__ __forceinline__ bool sopExcluded(const SopTopologyView<R>& top, int i, int j) {
  if (j == top.d_bondPrev[i] || j == top.d_bondNext[i]) return true;
  const int count = top.d_nativeCount[i];
  for (int k = 0; k < count; ++k)
    if (top.d_nativeIndex[sopNativeSlot(k, i, top.beads)] == j) return true;
  return false;
}

/// Loads position j of a replica's array through the read-only path (the step never writes
/// d_posIn); an unsigned 32-bit index makes the address one wide multiply-add.
__device__ __forceinline__ SopPos4<float> sopLoad(const SopPos4<float>* base, unsigned int j) {
  const float4 v = __ldg(reinterpret_cast<const float4*>(base) + j);
  return {v.x, v.y, v.z, v.w};
}
__device__ __forceinline__ SopPos4<double> sopLoad(const SopPos4<double>* base, unsigned int j) {
  const double2* q = reinterpret_cast<const double2*>(base + j);
  const double2 a = __ldg(q);
  const double2 b = __ldg(q + 1);
  return {a.x, a.y, b.x, b.y};
}

/// 1/sqrt(x) without a division: in float one MUFU op (rsqrt.approx, relative error below
/// 2^-22.9 against FP32's own 2^-24 rounding; ftz only touches x < 1.2e-38 A^2); in double CUDA's
/// rsqrt (1 ulp), so the double path stays at rounding distance from the CPU twin.
__device__ __forceinline__ float sopRsqrt(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ double sopRsqrt(double x) { return rsqrt(x); }
/// 1/x: one MUFU op in float (rcp.approx, below 1 ulp), the IEEE division in double (the CPU's).
__device__ __forceinline__ float sopRecip(float x) {
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ double sopRecip(double x) { return 1.0 / x; }

template <class R>
__device__ __forceinline__ R laneSum(R v) {
  // Butterfly over the kSopLanes lanes of one bead: every lane ends with the same bits, since
  // each level adds the same two partial sums (in swapped order, which is exact).
  for (int offset = kSopLanes / 2; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

}  // namespace landscape
