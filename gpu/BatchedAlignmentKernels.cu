// Compiled with -fmad=false (CMakeLists.txt): the CPU twin rounds every multiply and add alone.
#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedAlignmentKernels.cuh"
#include "gpu/CudaCheck.h"

namespace landscape {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// One warp of the block (AlignmentTeamTerms.h's Warp): lane l takes items l, l + 32, ...; sums by
// the xor butterfly (landscape/core/TeamTerms.h's order); least() and any() by shuffles.
class DeviceAlignmentWarp {
 public:
  __device__ explicit DeviceAlignmentWarp(AlignmentWarpWork work) : m_work(work) {}
  __device__ int lane() const { return static_cast<int>(threadIdx.x) & (kTeamWarpSize - 1); }
  template <class F>
  __device__ void forLanes(int count, F f) const {
    for (int c = lane(); c < count; c += kTeamWarpSize) f(c);
  }
  __device__ void sync() const { __syncwarp(); }
  __device__ bool isLeader() const { return lane() == 0; }
  template <int R, class F>
  __device__ TeamSum<R> sum(int count, F term) const {
    TeamSum<R> s;
    for (int r = 0; r < R; ++r) s.v[r] = 0.0;
    for (int c = lane(); c < count; c += kTeamWarpSize) {
      const TeamSum<R> v = term(c);
      for (int r = 0; r < R; ++r) s.v[r] = s.v[r] + v.v[r];
    }
    for (int r = 0; r < R; ++r)
      for (int o = kTeamWarpSize / 2; o >= 1; o /= 2)
        s.v[r] = s.v[r] + __shfl_xor_sync(kFullMask, s.v[r], o);
    return s;
  }
  template <class F>
  __device__ int least(int count, F key) const {
    // A lane without items holds (infinity, INT_MAX, INT_MAX), after every real item.
    AlignmentKey best{alignmentInfinity(), INT_MAX};
    int index = INT_MAX;
    for (int c = lane(); c < count; c += kTeamWarpSize) {
      const AlignmentKey k = key(c);
      if (alignmentBefore(k, c, best, index)) {
        best = k;
        index = c;
      }
    }
    for (int o = kTeamWarpSize / 2; o >= 1; o /= 2) {
      const AlignmentKey other{__shfl_xor_sync(kFullMask, best.value, o),
                               __shfl_xor_sync(kFullMask, best.tie, o)};
      const int otherIndex = __shfl_xor_sync(kFullMask, index, o);
      if (alignmentBefore(other, otherIndex, best, index)) {
        best = other;
        index = otherIndex;
      }
    }
    return index;
  }
  template <class F>
  __device__ bool any(int count, F pred) const {
    bool found = false;
    for (int c = lane(); c < count && !found; c += kTeamWarpSize) found = pred(c);
    return __any_sync(kFullMask, found) != 0;
  }
  __device__ AlignmentWarpWork& work() { return m_work; }

 private:
  AlignmentWarpWork m_work;
};

// The block (AlignmentTeamTerms.h's Block): warp w takes items w, w + warps, ...
class DeviceAlignmentBlock {
 public:
  __device__ explicit DeviceAlignmentBlock(DeviceAlignmentWarp& warp) : m_warp(warp) {}
  __device__ static int warp() { return static_cast<int>(threadIdx.x) / kTeamWarpSize; }
  __device__ static int warps() { return static_cast<int>(blockDim.x) / kTeamWarpSize; }
  template <class F>
  __device__ void forWarpItems(int count, F f) {
    for (int i = warp(); i < count; i += warps()) f(i, m_warp);
    __syncthreads();
  }
  template <class F>
  __device__ void withLeaderWarp(F f) {
    if (warp() == 0) f(m_warp);
    __syncthreads();
  }
  template <class F>
  __device__ void forThreads(int count, F f) {
    for (int k = static_cast<int>(threadIdx.x); k < count; k += static_cast<int>(blockDim.x)) f(k);
    __syncthreads();
  }

 private:
  DeviceAlignmentWarp& m_warp;
};

__global__ void __launch_bounds__(kMaxAlignmentWarps* kTeamWarpSize)
    batchedAlignmentKernel(BatchedAlignmentArgs args) {
  extern __shared__ double shared[];
  const int n = args.settings.atoms;
  const int w = static_cast<int>(threadIdx.x) / kTeamWarpSize;
  double* doubles = shared + static_cast<long>(w) * alignmentWarpDoubles(n);
  int* ints = reinterpret_cast<int*>(shared + static_cast<long>(blockDim.x / kTeamWarpSize) *
                                                  alignmentWarpDoubles(n)) +
              static_cast<long>(w) * alignmentWarpInts(n);
  DeviceAlignmentWarp warp(alignmentWarpWork(doubles, ints, n));
  DeviceAlignmentBlock block(warp);
  alignmentTeamRun(block, args.settings,
                   alignmentTeamJob(args.arrays, args.settings, static_cast<int>(blockIdx.x)),
                   args.distinct);
}

}  // namespace

std::size_t batchedAlignmentSharedBytes(int atoms, int warps) {
  return static_cast<std::size_t>(warps) *
         (alignmentWarpDoubles(atoms) * sizeof(double) + alignmentWarpInts(atoms) * sizeof(int));
}

void launchBatchedAlignment(const BatchedAlignmentArgs& args, cudaStream_t stream) {
  if (args.warps < 1 || args.warps > kMaxAlignmentWarps)
    throw std::invalid_argument("launchBatchedAlignment: 1 to " +
                                std::to_string(kMaxAlignmentWarps) + " warps per pair, got " +
                                std::to_string(args.warps));
  if (args.settings.atoms < 1 || args.settings.orientationTrials < 1 ||
      args.settings.maxIterations < 1)
    throw std::invalid_argument(
        "launchBatchedAlignment: atoms, trials and iterations must be >= 1");
  if (args.pairs == 0) return;
  const AlignmentTeamArrays& a = args.arrays;
  if (!a.coordinates || !a.firstStart || !a.fits || !a.fitPermutations || !a.inOrder ||
      !a.outcomes || !a.permutations)
    throw std::invalid_argument("launchBatchedAlignment: every device pointer must be set");
  const std::size_t bytes = batchedAlignmentSharedBytes(args.settings.atoms, args.warps);
  int device = 0, optIn = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  LANDSCAPE_CUDA_CHECK(
      cudaDeviceGetAttribute(&optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (bytes > static_cast<std::size_t>(optIn))
    throw std::invalid_argument(
        "launchBatchedAlignment: " + std::to_string(args.warps) + " warps of " +
        std::to_string(args.settings.atoms) + " atoms need " + std::to_string(bytes) +
        " bytes of shared memory, the device's block has " + std::to_string(optIn));
  LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(batchedAlignmentKernel,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
  batchedAlignmentKernel<<<args.pairs, args.warps * kTeamWarpSize, bytes, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
