// Compiled with -fmad=false (CMakeLists.txt): the CPU twin rounds every multiply and add alone.
#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedLbfgsKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/TeamDevice.cuh"
#include "gpu/TeamLennardJones.cuh"

namespace landscape {
namespace {

constexpr int kMaxTeamThreads = 256;  // 8 warps
// At most 128 registers per thread (16 one-warp blocks, or 2 blocks of 8 warps, per
// multiprocessor): more registers measured slower on the H100 (fewer warps to hide latency).
#ifndef LANDSCAPE_BATCHED_BOUNDS
#define LANDSCAPE_BATCHED_BOUNDS                                          \
  __launch_bounds__(T == kTeamWarpSize ? kTeamWarpSize : kMaxTeamThreads, \
                    T == kTeamWarpSize ? 16 : 2)
#endif

// The Team of lbfgsTeamMinimise on the device: sums, barriers and owned components (at most K per
// thread) of DeviceOwnedTeam (T threads: 32, or 0 for blockDim.x), evaluations by
// teamLennardJones for tile width W.
template <int W, int K, int T>
class LennardJonesLbfgsTeam : public DeviceOwnedTeam<K, T> {
 public:
  __device__ LennardJonesLbfgsTeam(int dimension, double* scratch, const TeamPairSchedule& s)
      : DeviceOwnedTeam<K, T>(dimension, scratch), m_schedule(s) {}
  __device__ double evaluate(const double* x, double* g) {
    return teamLennardJones<W>(*this, m_schedule, x, g);
  }

 private:
  TeamPairSchedule m_schedule;
};

template <int W, int K, int T>
__global__ void LANDSCAPE_BATCHED_BOUNDS batchedLbfgsKernel(BatchedLbfgsArgs args) {
  extern __shared__ double shared[];
  __shared__ unsigned int taken;
  const int n = args.settings.n, m = args.settings.m;
  LennardJonesLbfgsTeam<W, K, T> team(n, lbfgsTeamScratch(shared, n, m), args.schedule);
  for (;;) {
    if (threadIdx.x == 0) taken = atomicAdd(args.d_queue, 1u);
    __syncthreads();
    const unsigned int b = taken;
    __syncthreads();  // every thread has read `taken` before thread 0 writes it again
    if (b >= args.batch) return;
    LbfgsTeamStorage st = lbfgsTeamLayout(shared, n, m);
    double* xb = args.d_x + static_cast<std::size_t>(b) * n;
    team.forEach([&](int c) { st.x[c] = xb[c]; });
    const LbfgsResult outcome = lbfgsTeamMinimise(team, st, args.settings);
    team.forEach([&](int c) { xb[c] = st.x[c]; });  // own components: no barrier needed
    if (team.isLeader()) args.d_outcomes[b] = outcome;
  }
}

// Components per thread the kernel instances keep in registers: the smallest of 2, 4, 8, 16 that
// covers n on the team's threads (0: none does).
int ownedPerThread(const BatchedLbfgsArgs& a) {
  const int threads = 32 * a.warps;
  for (int k : {2, 4, 8, 16})
    if (a.settings.n <= k * threads) return k;
  return 0;
}

// Calls f(kernel) with the kernel instance for the shape of `a` (T = 32 for one-warp teams).
template <int T, class F>
void withKernelOf(const BatchedLbfgsArgs& a, F f) {
  withTileWidth(a.schedule.tileWidth, [&](auto w) {
    constexpr int W = decltype(w)::value;
    switch (ownedPerThread(a)) {
      case 2:
        f(batchedLbfgsKernel<W, 2, T>);
        break;
      case 4:
        f(batchedLbfgsKernel<W, 4, T>);
        break;
      case 8:
        f(batchedLbfgsKernel<W, 8, T>);
        break;
      default:
        f(batchedLbfgsKernel<W, 16, T>);
        break;
    }
  });
}
template <class F>
void withKernel(const BatchedLbfgsArgs& a, F f) {
  if (a.warps == 1)
    withKernelOf<kTeamWarpSize>(a, f);
  else
    withKernelOf<0>(a, f);
}

// What the occupancy query needs: a consistent team shape.
void checkShape(const BatchedLbfgsArgs& a) {
  if (a.warps < 1 || 32 * a.warps > kMaxTeamThreads ||
      a.schedule.groups * a.schedule.tileWidth != 32 * a.warps)
    throw std::invalid_argument("launchBatchedLbfgs: the schedule must be built for " +
                                std::to_string(32 * a.warps) + " threads (1 to 8 warps)");
  if (a.settings.n != 3 * a.schedule.atoms || a.settings.m < 1)
    throw std::invalid_argument("launchBatchedLbfgs: n must be 3 x atoms and m >= 1");
  if (ownedPerThread(a) == 0)
    throw std::invalid_argument("launchBatchedLbfgs: a thread owns at most 16 components; " +
                                std::to_string(a.settings.n) + " need more than " +
                                std::to_string(a.warps) + " warps");
}

void checkArgs(const BatchedLbfgsArgs& a) {
  checkShape(a);
  if (!a.schedule.slots || !a.d_x || !a.d_outcomes || !a.d_queue)
    throw std::invalid_argument("launchBatchedLbfgs: every device pointer must be set");
  if (a.batch > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("launchBatchedLbfgs: at most " + std::to_string(INT_MAX) +
                                " structures per launch, got " + std::to_string(a.batch));
}

}  // namespace

std::size_t batchedLbfgsSharedBytes(const BatchedLbfgsArgs& args) {
  return sizeof(double) * static_cast<std::size_t>(lbfgsTeamStorageDoubles(
                              args.settings.n, args.settings.m, args.warps));
}

int batchedLbfgsBlocksPerSm(const BatchedLbfgsArgs& args) {
  checkShape(args);
  const std::size_t bytes = batchedLbfgsSharedBytes(args);
  int device = 0, optin = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  LANDSCAPE_CUDA_CHECK(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (bytes > static_cast<std::size_t>(optin)) return 0;
  int blocks = 0;
  withKernel(args, [&](auto kernel) {
    LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(bytes)));
    LANDSCAPE_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 32 * args.warps, bytes));
  });
  return blocks;
}

void launchBatchedLbfgs(const BatchedLbfgsArgs& args, int blocks, cudaStream_t stream) {
  checkArgs(args);
  if (args.batch == 0) return;
  if (blocks < 1 || static_cast<std::size_t>(blocks) > args.batch)
    throw std::invalid_argument("launchBatchedLbfgs: blocks must be in [1, batch], got " +
                                std::to_string(blocks));
  withKernel(args, [&](auto kernel) {
    kernel<<<blocks, 32 * args.warps, batchedLbfgsSharedBytes(args), stream>>>(args);
  });
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
