// Compiled with -fmad=false (CMakeLists.txt): the CPU twin rounds every multiply and add alone.
#include <stdexcept>
#include <string>

#include "gpu/BatchedHybridEfKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/TeamDevice.cuh"

namespace landscape {
namespace {

constexpr int kMaxSearchWarps = 32;

// The search's team: the block's threads over the structure's components in global memory
// (thread t owns t, t + blockDim.x, ...; an Owned vector is a view of the search's direction),
// its warps over the structures an objective evaluates.
template <int W>
class HybridEfDeviceTeam : public DeviceRowTeam {
 public:
  __device__ HybridEfDeviceTeam(HybridEfTeamSearch& search, double* scratch, int* stopShared,
                                const BatchedHybridEfArgs& args)
      : DeviceRowTeam(search.set.n, scratch),
        m_search(search),
        m_stopShared(stopShared),
        m_stop(args.d_stop),
        m_schedule(args.schedule) {}

  __device__ Owned owned() const { return {m_search.st.direction}; }

  template <class F>
  __device__ void forWarpItems(int count, F f) {
    DeviceWarpTeam warp(n);
    const int warps = static_cast<int>(blockDim.x) / kTeamWarpSize;
    for (int i = static_cast<int>(threadIdx.x) / kTeamWarpSize; i < count; i += warps) f(i, warp);
  }
  __device__ double evaluateImage(DeviceWarpTeam& warp, const double* x, double* g) {
    return teamLennardJones<W>(warp, m_schedule, x, g);
  }
  // One thread reads the host's flag; the block hears its answer after a barrier.
  __device__ bool stopRequested() {
    sync();
    if (threadIdx.x == 0) *m_stopShared = m_stop ? *m_stop : 0;
    sync();
    return *m_stopShared != 0;
  }

 private:
  HybridEfTeamSearch& m_search;
  int* m_stopShared;
  const volatile int* m_stop;
  TeamPairSchedule m_schedule;
};

template <int W>
__global__ void __launch_bounds__(kMaxSearchWarps* kTeamWarpSize)
    batchedHybridEfKernel(BatchedHybridEfArgs args) {
  __shared__ double scratch[6 * kMaxSearchWarps];
  __shared__ int stop;
  const int n = args.settings.n;
  HybridEfTeamSearch search{};
  search.set = args.settings;
  search.st = hybridEfTeamLayout(
      args.d_io + static_cast<long>(blockIdx.x) * 2 * n,
      args.d_work + static_cast<long>(blockIdx.x) * hybridEfTeamWorkDoubles(n, args.settings.m), n,
      args.settings.m);
  HybridEfDeviceTeam<W> team(search, scratch, &stop, args);
  const HybridEfTeamOutcome out = hybridEfTeamSearch(team, search);
  if (threadIdx.x == 0) args.d_outcomes[blockIdx.x] = out;
}

}  // namespace

void launchBatchedHybridEf(const BatchedHybridEfArgs& args, cudaStream_t stream) {
  if (args.warps < 1 || args.warps > kMaxSearchWarps)
    throw std::invalid_argument("launchBatchedHybridEf: 1 to 32 warps per search, got " +
                                std::to_string(args.warps));
  if (args.schedule.groups * args.schedule.tileWidth != kTeamWarpSize ||
      args.settings.n != 3 * args.schedule.atoms)
    throw std::invalid_argument(
        "launchBatchedHybridEf: the schedule must be built for one warp and the structure's atoms");
  if (args.searches == 0) return;
  if (!args.d_io || !args.d_work || !args.d_outcomes || !args.schedule.slots)
    throw std::invalid_argument("launchBatchedHybridEf: every device pointer must be set");
  withTileWidth(args.schedule.tileWidth, [&](auto w) {
    constexpr int W = decltype(w)::value;
    batchedHybridEfKernel<W><<<args.searches, kTeamWarpSize * args.warps, 0, stream>>>(args);
  });
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
