#include <cub/block/block_reduce.cuh>
#include <stdexcept>

#include "gpu/CudaCheck.h"
#include "gpu/RigidBodyKernels.cuh"
#include "potentials/RigidBodyTerms.h"

namespace landscape {

namespace {

constexpr int kWarp = 32;
constexpr int kSmallBlock = 128;  // 4 warps = 4 small bodies per block
constexpr int kPerAtomBlock = 256;

// "Shuffle on down" (seed 001 ref 35): lane 0 ends with the sum of the warp, in a fixed tree.
__device__ __forceinline__ double warpSum(double v) {
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// The six chain-rule terms of entry e in body b: g_i (eq 6) and g_i . (R^k r0_i) (eq 7).
__device__ __forceinline__ void chainTerms(const RigidBodyArgs& a, int e, int b,
                                           const double* __restrict__ gAtoms, double t[6]) {
  const double* rot = a.d_rotation + static_cast<std::size_t>(kRigidRotationStride) * b;
  const int atom = a.d_bodyAtoms[e];
  const double g[3] = {gAtoms[3 * atom], gAtoms[3 * atom + 1], gAtoms[3 * atom + 2]};
  const double r0[3] = {a.d_reference[3 * e], a.d_reference[3 * e + 1], a.d_reference[3 * e + 2]};
  t[0] = g[0];
  t[1] = g[1];
  t[2] = g[2];
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    double d[3];
    matVec3(rot + 9 * (k + 1), r0, d);
    t[3 + k] = g[0] * d[0] + g[1] * d[1] + g[2] * d[2];
  }
}

__device__ __forceinline__ void writeBodyGradient(const RigidBodyArgs& a, int b, const double s[6],
                                                  double* gRigid) {
  const std::size_t B = a.bodies;
  gRigid[3 * b] = s[0];
  gRigid[3 * b + 1] = s[1];
  gRigid[3 * b + 2] = s[2];
  gRigid[3 * B + 3 * b] = s[3];
  gRigid[3 * B + 3 * b + 1] = s[4];
  gRigid[3 * B + 3 * b + 2] = s[5];
}

__global__ void rotationsKernel(RigidBodyArgs a, const double* __restrict__ q) {
  const std::size_t b = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (b >= a.bodies) return;
  const double p[3] = {q[3 * a.bodies + 3 * b], q[3 * a.bodies + 3 * b + 1],
                       q[3 * a.bodies + 3 * b + 2]};
  double R[9], D1[9], D2[9], D3[9];
  rotationMatrixAndDerivatives(p, R, D1, D2, D3);
  double* out = a.d_rotation + kRigidRotationStride * b;
#pragma unroll
  for (int e = 0; e < 9; ++e) {
    out[e] = R[e];
    out[9 + e] = D1[e];
    out[18 + e] = D2[e];
    out[27 + e] = D3[e];
  }
}

__global__ void toAtomsKernel(RigidBodyArgs a, const double* __restrict__ q,
                              double* __restrict__ x) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < a.entries) {
    const int b = a.d_bodyOfEntry[i];
    const int atom = a.d_bodyAtoms[i];
    const double r0[3] = {a.d_reference[3 * i], a.d_reference[3 * i + 1], a.d_reference[3 * i + 2]};
    double r[3];
    matVec3(a.d_rotation + static_cast<std::size_t>(kRigidRotationStride) * b, r0, r);
    x[3 * atom] = q[3 * b] + r[0];
    x[3 * atom + 1] = q[3 * b + 1] + r[1];
    x[3 * atom + 2] = q[3 * b + 2] + r[2];
  } else if (i < a.entries + a.freeAtoms) {
    const std::size_t f = i - a.entries;
    const int atom = a.d_freeAtoms[f];
    const double* src = q + 6 * a.bodies + 3 * f;
    x[3 * atom] = src[0];
    x[3 * atom + 1] = src[1];
    x[3 * atom + 2] = src[2];
  }
}

__global__ void smallBodiesKernel(RigidBodyArgs a, const int* __restrict__ bodies, int count,
                                  const double* __restrict__ gAtoms, double* __restrict__ gRigid) {
  // The warp index is uniform across the warp, so whole warps leave together and every
  // __shfl_down_sync below runs with all 32 lanes.
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / kWarp);
  const int lane = threadIdx.x % kWarp;
  if (warp >= count) return;
  const int b = bodies[warp];
  const int begin = a.d_bodyStart[b];
  const int n = a.d_bodyStart[b + 1] - begin;
  double t[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (lane < n) chainTerms(a, begin + lane, b, gAtoms, t);
  double s[6];
#pragma unroll
  for (int c = 0; c < 6; ++c) s[c] = warpSum(t[c]);
  if (lane == 0) writeBodyGradient(a, b, s, gRigid);
}

__global__ void bodyPassKernel(RigidBodyArgs a, const RigidPassBlock* __restrict__ blocks,
                               bool firstPass, const double* __restrict__ gAtoms,
                               const double* __restrict__ partialIn,
                               double* __restrict__ partialOut, double* __restrict__ gRigid) {
  using BlockReduce = cub::BlockReduce<double, kRigidBlockSize>;
  __shared__ typename BlockReduce::TempStorage storage[6];
  const RigidPassBlock blk = blocks[blockIdx.x];
  const int tid = threadIdx.x;
  double t[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (tid < blk.count) {
    if (firstPass) {
      chainTerms(a, blk.begin + tid, blk.body, gAtoms, t);
    } else {
      const double* in = partialIn + 6 * static_cast<std::size_t>(blk.begin + tid);
#pragma unroll
      for (int c = 0; c < 6; ++c) t[c] = in[c];
    }
  }
  double s[6];
#pragma unroll
  for (int c = 0; c < 6; ++c) s[c] = BlockReduce(storage[c]).Sum(t[c]);
  if (tid == 0) {
    if (blk.out < 0) {
      writeBodyGradient(a, blk.body, s, gRigid);
    } else {
      double* out = partialOut + 6 * static_cast<std::size_t>(blk.out);
#pragma unroll
      for (int c = 0; c < 6; ++c) out[c] = s[c];
    }
  }
}

__global__ void freeAtomsKernel(RigidBodyArgs a, const double* __restrict__ gAtoms,
                                double* __restrict__ gRigid) {
  const std::size_t f = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (f >= a.freeAtoms) return;
  const int atom = a.d_freeAtoms[f];
  double* dst = gRigid + 6 * a.bodies + 3 * f;
  dst[0] = gAtoms[3 * atom];
  dst[1] = gAtoms[3 * atom + 1];
  dst[2] = gAtoms[3 * atom + 2];
}

__global__ void metricNormKernel(RigidBodyArgs a, const double* __restrict__ q,
                                 const double* __restrict__ gRigid,
                                 const double* __restrict__ secondMoment, double* result) {
  using BlockReduce = cub::BlockReduce<double, kRigidBlockSize>;
  __shared__ typename BlockReduce::TempStorage storage;
  const std::size_t B = a.bodies;
  double sum = 0.0;
  for (std::size_t b = threadIdx.x; b < B; b += kRigidBlockSize) {
    const double* gt = gRigid + 3 * b;
    const double n = static_cast<double>(a.d_bodyStart[b + 1] - a.d_bodyStart[b]);
    sum += (gt[0] * gt[0] + gt[1] * gt[1] + gt[2] * gt[2]) / n;
    const double p[3] = {q[3 * B + 3 * b], q[3 * B + 3 * b + 1], q[3 * B + 3 * b + 2]};
    double R[9], D1[9], D2[9], D3[9], S[9], M[6];
    rotationMatrixAndDerivatives(p, R, D1, D2, D3);
#pragma unroll
    for (int e = 0; e < 9; ++e) S[e] = secondMoment[9 * b + e];
    angleAxisMetric(D1, D2, D3, S, M);
    const double gp[3] = {gRigid[3 * B + 3 * b], gRigid[3 * B + 3 * b + 1],
                          gRigid[3 * B + 3 * b + 2]};
    sum += inverseMetricNormSquared(M, gp);
  }
  for (std::size_t i = threadIdx.x; i < 3 * a.freeAtoms; i += kRigidBlockSize) {
    const double v = gRigid[6 * B + i];
    sum += v * v;
  }
  const double total = BlockReduce(storage).Sum(sum);
  if (threadIdx.x == 0) result[0] = total;
}

unsigned int gridFor(std::size_t threads, int block) {
  const std::size_t blocks = (threads + block - 1) / block;
  if (blocks > 0x7fffffffu) throw std::invalid_argument("rigid bodies: grid too large");
  return static_cast<unsigned int>(blocks);
}

void requireArgs(const RigidBodyArgs& a, const char* what) {
  if (a.d_bodyStart == nullptr || (a.bodies > 0 && a.d_rotation == nullptr) ||
      (a.entries > 0 &&
       (a.d_bodyOfEntry == nullptr || a.d_bodyAtoms == nullptr || a.d_reference == nullptr)) ||
      (a.freeAtoms > 0 && a.d_freeAtoms == nullptr))
    throw std::invalid_argument(std::string(what) + ": a device array of RigidBodyArgs is null");
}

}  // namespace

void launchRigidRotations(const RigidBodyArgs& args, const double* d_q, cudaStream_t stream) {
  requireArgs(args, "launchRigidRotations");
  if (args.bodies == 0) return;
  rotationsKernel<<<gridFor(args.bodies, 128), 128, 0, stream>>>(args, d_q);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchRigidToAtoms(const RigidBodyArgs& args, const double* d_q, double* d_x,
                        cudaStream_t stream) {
  requireArgs(args, "launchRigidToAtoms");
  const std::size_t n = args.entries + args.freeAtoms;
  if (n == 0) return;
  toAtomsKernel<<<gridFor(n, kPerAtomBlock), kPerAtomBlock, 0, stream>>>(args, d_q, d_x);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchRigidSmallBodies(const RigidBodyArgs& args, const int* d_smallBodies,
                            std::size_t smallBodies, const double* d_gAtoms, double* d_gRigid,
                            cudaStream_t stream) {
  requireArgs(args, "launchRigidSmallBodies");
  if (smallBodies == 0) return;
  smallBodiesKernel<<<gridFor(smallBodies * kWarp, kSmallBlock), kSmallBlock, 0, stream>>>(
      args, d_smallBodies, static_cast<int>(smallBodies), d_gAtoms, d_gRigid);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchRigidBodyPass(const RigidBodyArgs& args, const RigidPassBlock* d_blocks,
                         std::size_t blocks, bool firstPass, const double* d_gAtoms,
                         const double* d_partialIn, double* d_partialOut, double* d_gRigid,
                         cudaStream_t stream) {
  requireArgs(args, "launchRigidBodyPass");
  if (blocks == 0) return;
  if (blocks > 0x7fffffffu) throw std::invalid_argument("launchRigidBodyPass: too many blocks");
  bodyPassKernel<<<static_cast<unsigned int>(blocks), kRigidBlockSize, 0, stream>>>(
      args, d_blocks, firstPass, d_gAtoms, d_partialIn, d_partialOut, d_gRigid);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchRigidFreeAtoms(const RigidBodyArgs& args, const double* d_gAtoms, double* d_gRigid,
                          cudaStream_t stream) {
  requireArgs(args, "launchRigidFreeAtoms");
  if (args.freeAtoms == 0) return;
  freeAtomsKernel<<<gridFor(args.freeAtoms, kPerAtomBlock), kPerAtomBlock, 0, stream>>>(
      args, d_gAtoms, d_gRigid);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchRigidMetricNorm(const RigidBodyArgs& args, const double* d_q, const double* d_gRigid,
                           const double* d_secondMoment, double* d_result, cudaStream_t stream) {
  requireArgs(args, "launchRigidMetricNorm");
  metricNormKernel<<<1, kRigidBlockSize, 0, stream>>>(args, d_q, d_gRigid, d_secondMoment,
                                                      d_result);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
