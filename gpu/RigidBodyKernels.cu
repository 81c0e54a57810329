#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/RigidBodyKernels.cuh"
#include "potentials/RigidBodyTerms.h"

namespace landscape {

namespace {

constexpr int kWarp = 32;
constexpr int kSmallBlock = 128;  // 4 warps = 4 small bodies per block
constexpr int kPerAtomBlock = 256;

// Per-structure row lengths.
__host__ __device__ __forceinline__ std::size_t rigidDim(const RigidBodyArgs& a) {
  return 6 * a.bodies + 3 * a.freeAtoms;
}
__host__ __device__ __forceinline__ std::size_t rotationRow(const RigidBodyArgs& a) {
  return static_cast<std::size_t>(kRigidRotationStride) * a.bodies;
}

// Structure of this block (launches cover [first, first + gridDim.y)); false when it is inactive.
__device__ __forceinline__ bool structureOf(const RigidBodyArgs& a, std::size_t first,
                                            std::size_t& s) {
  s = first + blockIdx.y;
  return a.d_active == nullptr || a.d_active[s] != 0;
}

// "Shuffle on down" (NVIDIA's "Faster Parallel Reductions on Kepler", ref 35 of Mantell, Pitt and
// Wales, J. Chem. Theory Comput. 2016): lane 0 ends with the sum of the warp, in a fixed tree.
__device__ __forceinline__ double warpSum(double v) {
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// The six chain-rule terms of entry e in body b: g_i (eq 6) and g_i . (R^k r0_i) (eq 7). rotation
// and gAtoms are the structure's rows.
__device__ __forceinline__ void chainTerms(const RigidBodyArgs& a, int e, int b,
                                           const double* __restrict__ rotation,
                                           const double* __restrict__ gAtoms, double t[6]) {
  const double* rot = rotation + static_cast<std::size_t>(kRigidRotationStride) * b;
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

// gRigid is the structure's row.
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

__global__ void rotationsKernel(RigidBodyArgs a, std::size_t first, const double* __restrict__ q) {
  std::size_t s;
  if (!structureOf(a, first, s)) return;
  const std::size_t b = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (b >= a.bodies) return;
  const double* qs = q + s * rigidDim(a);
  const double p[3] = {qs[3 * a.bodies + 3 * b], qs[3 * a.bodies + 3 * b + 1],
                       qs[3 * a.bodies + 3 * b + 2]};
  double R[9], D1[9], D2[9], D3[9];
  rotationMatrixAndDerivatives(p, R, D1, D2, D3);
  double* out = a.d_rotation + s * rotationRow(a) + kRigidRotationStride * b;
#pragma unroll
  for (int e = 0; e < 9; ++e) {
    out[e] = R[e];
    out[9 + e] = D1[e];
    out[18 + e] = D2[e];
    out[27 + e] = D3[e];
  }
}

// A free atom's three coordinates between the rigid coordinates (after the 6 per body) and the
// Cartesian ones, both ways: a free atom's rigid coordinates are its Cartesian ones.
__device__ __forceinline__ void freeAtomToCartesian(const RigidBodyArgs& a, std::size_t f,
                                                    const double* qs, double* xs) {
  const int atom = a.d_freeAtoms[f];
  const double* src = qs + 6 * a.bodies + 3 * f;
  xs[3 * atom] = src[0];
  xs[3 * atom + 1] = src[1];
  xs[3 * atom + 2] = src[2];
}
__device__ __forceinline__ void freeAtomToRigid(const RigidBodyArgs& a, std::size_t f,
                                                const double* xs, double* qs) {
  const double* src = xs + 3 * static_cast<std::size_t>(a.d_freeAtoms[f]);
  double* dst = qs + 6 * a.bodies + 3 * f;
  dst[0] = src[0];
  dst[1] = src[1];
  dst[2] = src[2];
}

__global__ void toAtomsKernel(RigidBodyArgs a, std::size_t first, const double* __restrict__ q,
                              double* __restrict__ x) {
  std::size_t s;
  if (!structureOf(a, first, s)) return;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const double* qs = q + s * rigidDim(a);
  double* xs = x + s * 3 * a.atoms;
  if (i < a.entries) {
    const int b = a.d_bodyOfEntry[i];
    const int atom = a.d_bodyAtoms[i];
    const double r0[3] = {a.d_reference[3 * i], a.d_reference[3 * i + 1], a.d_reference[3 * i + 2]};
    double r[3];
    matVec3(a.d_rotation + s * rotationRow(a) + static_cast<std::size_t>(kRigidRotationStride) * b,
            r0, r);
    xs[3 * atom] = qs[3 * b] + r[0];
    xs[3 * atom + 1] = qs[3 * b + 1] + r[1];
    xs[3 * atom + 2] = qs[3 * b + 2] + r[2];
  } else if (i < a.entries + a.freeAtoms) {
    freeAtomToCartesian(a, i - a.entries, qs, xs);
  }
}

__global__ void smallBodiesKernel(RigidBodyArgs a, std::size_t first,
                                  const int* __restrict__ bodies, int count,
                                  const double* __restrict__ gAtoms, double* __restrict__ gRigid) {
  // The structure and the warp index are uniform across the warp, so whole warps leave together
  // and every __shfl_down_sync below runs with all 32 lanes.
  std::size_t s;
  if (!structureOf(a, first, s)) return;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / kWarp);
  const int lane = threadIdx.x % kWarp;
  if (warp >= count) return;
  const int b = bodies[warp];
  const int begin = a.d_bodyStart[b];
  const int n = a.d_bodyStart[b + 1] - begin;
  double t[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (lane < n)
    chainTerms(a, begin + lane, b, a.d_rotation + s * rotationRow(a), gAtoms + s * 3 * a.atoms, t);
  double sum[6];
#pragma unroll
  for (int c = 0; c < 6; ++c) sum[c] = warpSum(t[c]);
  if (lane == 0) writeBodyGradient(a, b, sum, gRigid + s * rigidDim(a));
}

__global__ void bodyPassKernel(RigidBodyArgs a, std::size_t first,
                               const RigidPassBlock* __restrict__ blocks, bool firstPass,
                               const double* __restrict__ gAtoms,
                               const double* __restrict__ partialIn,
                               double* __restrict__ partialOut, double* __restrict__ gRigid) {
  using BlockReduce = cub::BlockReduce<double, kRigidBlockSize>;
  __shared__ typename BlockReduce::TempStorage storage[6];
  std::size_t s;
  if (!structureOf(a, first, s)) return;  // uniform across the block: no barrier is skipped
  const RigidPassBlock blk = blocks[blockIdx.x];
  const std::size_t partialRow = 6 * a.partialStride * s;
  const int tid = threadIdx.x;
  double t[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (tid < blk.count) {
    if (firstPass) {
      chainTerms(a, blk.begin + tid, blk.body, a.d_rotation + s * rotationRow(a),
                 gAtoms + s * 3 * a.atoms, t);
    } else {
      const double* in = partialIn + partialRow + 6 * static_cast<std::size_t>(blk.begin + tid);
#pragma unroll
      for (int c = 0; c < 6; ++c) t[c] = in[c];
    }
  }
  double sum[6];
#pragma unroll
  for (int c = 0; c < 6; ++c) sum[c] = BlockReduce(storage[c]).Sum(t[c]);
  if (tid == 0) {
    if (blk.out < 0) {
      writeBodyGradient(a, blk.body, sum, gRigid + s * rigidDim(a));
    } else {
      double* out = partialOut + partialRow + 6 * static_cast<std::size_t>(blk.out);
#pragma unroll
      for (int c = 0; c < 6; ++c) out[c] = sum[c];
    }
  }
}

__global__ void freeAtomsKernel(RigidBodyArgs a, std::size_t first,
                                const double* __restrict__ gAtoms, double* __restrict__ gRigid) {
  std::size_t s;
  if (!structureOf(a, first, s)) return;
  const std::size_t f = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (f >= a.freeAtoms) return;
  freeAtomToRigid(a, f, gAtoms + s * 3 * a.atoms, gRigid + s * rigidDim(a));
}

// The compact layout: thread i of a launch serves structure first + i / perStructure and within it
// item i % perStructure (an atom or a body, then the free atoms). 32-bit indices within a launch:
// compactLaunches cuts a batch into launches that fit them.
__device__ __forceinline__ bool compactItem(const RigidBodyArgs& a, std::size_t first,
                                            unsigned int perStructure, unsigned int count,
                                            std::size_t& s, unsigned int& item) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return false;
  const unsigned int local = i / perStructure;
  item = i - local * perStructure;
  s = first + local;
  return a.d_active == nullptr || a.d_active[s] != 0;
}

// A thread per body atom (then per free atom): r_i = r_I + R r0_i (eq 5), R formed from the
// body's p by each of its atoms (a few FP64 operations, against the 36 strided doubles per body a
// stored rotation costs), so that consecutive threads write consecutive atoms.
__global__ void compactToAtomsKernel(RigidBodyArgs a, std::size_t first, unsigned int perStructure,
                                     unsigned int count, const double* __restrict__ q,
                                     double* __restrict__ x) {
  std::size_t s;
  unsigned int i;
  if (!compactItem(a, first, perStructure, count, s, i)) return;
  const double* qs = q + s * rigidDim(a);
  double* xs = x + s * 3 * a.atoms;
  if (i >= a.entries) {
    freeAtomToCartesian(a, i - a.entries, qs, xs);
    return;
  }
  const int b = a.d_bodyOfEntry[i];
  const int atom = a.d_bodyAtoms[i];
  const double p[3] = {qs[3 * a.bodies + 3 * b], qs[3 * a.bodies + 3 * b + 1],
                       qs[3 * a.bodies + 3 * b + 2]};
  double R[9];
  rotationMatrix(p, R);
  const double r0[3] = {a.d_reference[3 * i], a.d_reference[3 * i + 1], a.d_reference[3 * i + 2]};
  double r[3];
  matVec3(R, r0, r);
  xs[3 * atom] = qs[3 * b] + r[0];
  xs[3 * atom + 1] = qs[3 * b + 1] + r[1];
  xs[3 * atom + 2] = qs[3 * b + 2] + r[2];
}

// A thread per body (then per free atom): dR/dp_k from the body's p, its atoms' six chain-rule
// terms (eqs 6-7), summed in smallBodiesKernel's warp tree replayed in registers: warpSum adds lane
// l + offset to lane l for offsets 16, 8, 4, 2, 1, lanes past the body holding 0, so the offsets of
// at least Width (the power of two >= the largest body) add those zeros.
template <int Width>
__global__ void compactProjectKernel(RigidBodyArgs a, std::size_t first, unsigned int perStructure,
                                     unsigned int count, const double* __restrict__ q,
                                     const double* __restrict__ gAtoms,
                                     double* __restrict__ gRigid) {
  std::size_t s;
  unsigned int b;
  if (!compactItem(a, first, perStructure, count, s, b)) return;
  double* gs = gRigid + s * rigidDim(a);
  const double* ga = gAtoms + s * 3 * a.atoms;
  if (b >= a.bodies) {
    freeAtomToRigid(a, b - a.bodies, ga, gs);
    return;
  }
  const double* qs = q + s * rigidDim(a);
  const double p[3] = {qs[3 * a.bodies + 3 * b], qs[3 * a.bodies + 3 * b + 1],
                       qs[3 * a.bodies + 3 * b + 2]};
  double R[9], D[3][9];
  rotationMatrixAndDerivatives(p, R, D[0], D[1], D[2]);
  const int begin = a.d_bodyStart[b];
  const int n = a.d_bodyStart[b + 1] - begin;
  double v[Width][6];
#pragma unroll
  for (int l = 0; l < Width; ++l) {
#pragma unroll
    for (int c = 0; c < 6; ++c) v[l][c] = 0.0;
    if (l < n) {
      const int e = begin + l;
      const int atom = a.d_bodyAtoms[e];
      const double g[3] = {ga[3 * atom], ga[3 * atom + 1], ga[3 * atom + 2]};
      const double r0[3] = {a.d_reference[3 * e], a.d_reference[3 * e + 1],
                            a.d_reference[3 * e + 2]};
      v[l][0] = g[0];
      v[l][1] = g[1];
      v[l][2] = g[2];
#pragma unroll
      for (int k = 0; k < 3; ++k) {
        double d[3];
        matVec3(D[k], r0, d);
        v[l][3 + k] = g[0] * d[0] + g[1] * d[1] + g[2] * d[2];
      }
    }
  }
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset >>= 1) {
#pragma unroll
    for (int l = 0; l < Width; ++l) {
      if (offset >= Width) {
#pragma unroll
        for (int c = 0; c < 6; ++c) v[l][c] += 0.0;
      } else if (l < offset) {
#pragma unroll
        for (int c = 0; c < 6; ++c) v[l][c] += v[l + offset][c];
      }
    }
  }
  writeBodyGradient(a, static_cast<int>(b), v[0], gs);
}

// One block per structure (blockIdx.x), so no grid.y cut is needed. Rms: the result is
// sqrt(sum / 3N), RigidBodySystem::rmsGradient's last step, instead of the sum.
template <bool Rms, int Threads>
__global__ void metricNormKernel(RigidBodyArgs a, const double* __restrict__ q,
                                 const double* __restrict__ gRigid,
                                 const double* __restrict__ secondMoment, double* result) {
  using BlockReduce = cub::BlockReduce<double, Threads>;
  __shared__ typename BlockReduce::TempStorage storage;
  const std::size_t s = blockIdx.x;
  if (a.d_active != nullptr && a.d_active[s] == 0) return;  // uniform across the block
  const std::size_t B = a.bodies;
  const double* qs = q + s * rigidDim(a);
  const double* gs = gRigid + s * rigidDim(a);
  double sum = 0.0;
  for (std::size_t b = threadIdx.x; b < B; b += Threads) {
    const double* gt = gs + 3 * b;
    const double n = static_cast<double>(a.d_bodyStart[b + 1] - a.d_bodyStart[b]);
    sum += (gt[0] * gt[0] + gt[1] * gt[1] + gt[2] * gt[2]) / n;
    const double p[3] = {qs[3 * B + 3 * b], qs[3 * B + 3 * b + 1], qs[3 * B + 3 * b + 2]};
    double R[9], D1[9], D2[9], D3[9], S[9], M[6];
    rotationMatrixAndDerivatives(p, R, D1, D2, D3);
#pragma unroll
    for (int e = 0; e < 9; ++e) S[e] = secondMoment[9 * b + e];
    angleAxisMetric(D1, D2, D3, S, M);
    const double gp[3] = {gs[3 * B + 3 * b], gs[3 * B + 3 * b + 1], gs[3 * B + 3 * b + 2]};
    sum += inverseMetricNormSquared(M, gp);
  }
  for (std::size_t i = threadIdx.x; i < 3 * a.freeAtoms; i += Threads) {
    const double v = gs[6 * B + i];
    sum += v * v;
  }
  const double total = BlockReduce(storage).Sum(sum);
  if (threadIdx.x == 0)
    result[s] = Rms ? sqrt(total / static_cast<double>(3 * a.atoms)) : total;
}

// The metric norms of `batch` structures, a block each. Where every body and free-atom component
// has a thread of its own in one warp, the block is that warp: the same per-thread terms and the
// same warp tree as in a kRigidBlockSize block, whose other warps add exact zeros, so the same
// bits, without 7 idle warps per structure (water's 20 bodies).
template <bool Rms>
void launchMetricNorm(const RigidBodyArgs& a, std::size_t batch, const double* q,
                      const double* gRigid, const double* secondMoment, double* result,
                      cudaStream_t stream) {
  const unsigned int blocks = static_cast<unsigned int>(batch);
  if (a.bodies <= kWarp && 3 * a.freeAtoms <= kWarp)
    metricNormKernel<Rms, kWarp><<<blocks, kWarp, 0, stream>>>(a, q, gRigid, secondMoment, result);
  else
    metricNormKernel<Rms, kRigidBlockSize>
        <<<blocks, kRigidBlockSize, 0, stream>>>(a, q, gRigid, secondMoment, result);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

unsigned int gridFor(std::size_t threads, int block) {
  const std::size_t blocks = (threads + block - 1) / block;
  if (blocks > 0x7fffffffu) throw std::invalid_argument("rigid bodies: grid too large");
  return static_cast<unsigned int>(blocks);
}

void requireArgs(const RigidBodyArgs& a, std::size_t batch, const void* in, const void* out,
                 const char* what) {
  if (a.d_bodyStart == nullptr || (a.bodies > 0 && a.d_rotation == nullptr) ||
      (a.entries > 0 &&
       (a.d_bodyOfEntry == nullptr || a.d_bodyAtoms == nullptr || a.d_reference == nullptr)) ||
      (a.freeAtoms > 0 && a.d_freeAtoms == nullptr))
    throw std::invalid_argument(std::string(what) + ": a device array of RigidBodyArgs is null");
  if (batch > 0 && (in == nullptr || out == nullptr))
    throw std::invalid_argument(std::string(what) + ": null input or output array");
  if (a.atoms == 0 || a.entries + a.freeAtoms != a.atoms)
    throw std::invalid_argument(std::string(what) + ": RigidBodyArgs.atoms must be entries + "
                                                    "free atoms");
}

// Calls launch(first, count) for consecutive runs of at most 65535 structures (grid.y).
template <typename Launch>
void forEachStructureRun(std::size_t batch, Launch launch) {
  for (std::size_t first = 0; first < batch; first += kRigidMaxStructuresPerLaunch)
    launch(first, static_cast<unsigned int>(
                      std::min(kRigidMaxStructuresPerLaunch, batch - first)));
}

// The compact grid: perStructure threads per structure, 128 per block, launches of at most 2^31
// threads (the same kernels and arithmetic whatever the batch).
constexpr int kCompactBlock = 128;

template <typename Launch>
void compactLaunches(std::size_t batch, std::size_t perStructure, Launch launch) {
  const std::size_t most = std::max<std::size_t>(1, (std::size_t{1} << 31) / perStructure);
  for (std::size_t first = 0; first < batch; first += most) {
    const auto count = static_cast<unsigned int>(std::min(most, batch - first) * perStructure);
    launch(first, gridFor(count, kCompactBlock), count);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace

int rigidCompactTreeWidth(int largestBody) {
  if (largestBody < 1 || largestBody > kRigidCompactBodyLimit) return 0;
  int width = 1;
  while (width < largestBody) width *= 2;
  return width;
}

void launchRigidCompactToAtoms(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                               double* d_x, cudaStream_t stream) {
  requireArgs(args, batch, d_q, d_x, "launchRigidCompactToAtoms");
  const std::size_t perStructure = args.entries + args.freeAtoms;
  if (batch == 0) return;
  compactLaunches(batch, perStructure, [&](std::size_t first, unsigned int grid, unsigned int n) {
    compactToAtomsKernel<<<grid, kCompactBlock, 0, stream>>>(
        args, first, static_cast<unsigned int>(perStructure), n, d_q, d_x);
  });
}

void launchRigidCompactProject(const RigidBodyArgs& args, std::size_t batch, int treeWidth,
                               const double* d_q, const double* d_gAtoms, double* d_gRigid,
                               cudaStream_t stream) {
  requireArgs(args, batch, d_gAtoms, d_gRigid, "launchRigidCompactProject");
  if (d_q == nullptr && batch > 0)
    throw std::invalid_argument("launchRigidCompactProject: null coordinates");
  if (batch == 0) return;
  using Kernel = void (*)(RigidBodyArgs, std::size_t, unsigned int, unsigned int, const double*,
                          const double*, double*);
  const Kernel kernel = treeWidth == 1   ? compactProjectKernel<1>
                        : treeWidth == 2 ? compactProjectKernel<2>
                        : treeWidth == 4 ? compactProjectKernel<4>
                        : treeWidth == 8 ? compactProjectKernel<8>
                                         : nullptr;
  if (kernel == nullptr)
    throw std::invalid_argument("launchRigidCompactProject: tree width " +
                                std::to_string(treeWidth) + " is not 1, 2, 4 or 8");
  const std::size_t perStructure = args.bodies + args.freeAtoms;
  compactLaunches(batch, perStructure, [&](std::size_t first, unsigned int grid, unsigned int n) {
    kernel<<<grid, kCompactBlock, 0, stream>>>(args, first, static_cast<unsigned int>(perStructure),
                                               n, d_q, d_gAtoms, d_gRigid);
  });
}

void launchRigidRotations(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                          cudaStream_t stream) {
  requireArgs(args, batch, d_q, d_q, "launchRigidRotations");  // d_rotation: checked in args
  if (args.bodies == 0 || batch == 0) return;
  forEachStructureRun(batch, [&](std::size_t first, unsigned int count) {
    rotationsKernel<<<dim3(gridFor(args.bodies, 128), count), 128, 0, stream>>>(args, first, d_q);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  });
}

void launchRigidToAtoms(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                        double* d_x, cudaStream_t stream) {
  requireArgs(args, batch, d_q, d_x, "launchRigidToAtoms");
  const std::size_t n = args.entries + args.freeAtoms;
  if (n == 0 || batch == 0) return;
  forEachStructureRun(batch, [&](std::size_t first, unsigned int count) {
    toAtomsKernel<<<dim3(gridFor(n, kPerAtomBlock), count), kPerAtomBlock, 0, stream>>>(
        args, first, d_q, d_x);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  });
}

void launchRigidSmallBodies(const RigidBodyArgs& args, std::size_t batch,
                            const int* d_smallBodies, std::size_t smallBodies,
                            const double* d_gAtoms, double* d_gRigid, cudaStream_t stream) {
  requireArgs(args, batch, d_gAtoms, d_gRigid, "launchRigidSmallBodies");
  if (smallBodies == 0 || batch == 0) return;
  forEachStructureRun(batch, [&](std::size_t first, unsigned int count) {
    smallBodiesKernel<<<dim3(gridFor(smallBodies * kWarp, kSmallBlock), count), kSmallBlock, 0,
                        stream>>>(args, first, d_smallBodies, static_cast<int>(smallBodies),
                                  d_gAtoms, d_gRigid);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  });
}

void launchRigidBodyPass(const RigidBodyArgs& args, std::size_t batch,
                         const RigidPassBlock* d_blocks, std::size_t blocks, bool firstPass,
                         const double* d_gAtoms, const double* d_partialIn, double* d_partialOut,
                         double* d_gRigid, cudaStream_t stream) {
  requireArgs(args, batch, d_gAtoms, d_gRigid, "launchRigidBodyPass");
  if (blocks == 0 || batch == 0) return;
  if (blocks > 0x7fffffffu) throw std::invalid_argument("launchRigidBodyPass: too many blocks");
  forEachStructureRun(batch, [&](std::size_t first, unsigned int count) {
    bodyPassKernel<<<dim3(static_cast<unsigned int>(blocks), count), kRigidBlockSize, 0,
                     stream>>>(args, first, d_blocks, firstPass, d_gAtoms, d_partialIn,
                               d_partialOut, d_gRigid);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  });
}

void launchRigidFreeAtoms(const RigidBodyArgs& args, std::size_t batch, const double* d_gAtoms,
                          double* d_gRigid, cudaStream_t stream) {
  requireArgs(args, batch, d_gAtoms, d_gRigid, "launchRigidFreeAtoms");
  if (args.freeAtoms == 0 || batch == 0) return;
  forEachStructureRun(batch, [&](std::size_t first, unsigned int count) {
    freeAtomsKernel<<<dim3(gridFor(args.freeAtoms, kPerAtomBlock), count), kPerAtomBlock, 0,
                      stream>>>(args, first, d_gAtoms, d_gRigid);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  });
}

void launchRigidMetricNorm(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                           const double* d_gRigid, const double* d_secondMoment, double* d_result,
                           cudaStream_t stream) {
  requireArgs(args, batch, d_q, d_result, "launchRigidMetricNorm");
  if (batch == 0) return;
  if (batch > 0x7fffffffu) throw std::invalid_argument("launchRigidMetricNorm: batch too large");
  launchMetricNorm<false>(args, batch, d_q, d_gRigid, d_secondMoment, d_result, stream);
}

void launchRigidMetricRms(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                          const double* d_gRigid, const double* d_secondMoment, double* d_rms,
                          cudaStream_t stream) {
  requireArgs(args, batch, d_q, d_rms, "launchRigidMetricRms");
  if (batch == 0) return;
  if (batch > 0x7fffffffu) throw std::invalid_argument("launchRigidMetricRms: batch too large");
  launchMetricNorm<true>(args, batch, d_q, d_gRigid, d_secondMoment, d_rms, stream);
}

}  // namespace landscape
