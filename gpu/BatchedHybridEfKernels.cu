// Compiled with -fmad=false (CMakeLists.txt): the CPU twin rounds every multiply and add alone.
#include <cstddef>
#include <stdexcept>
#include <string>

#include "gpu/BatchedHybridEfKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/TeamDevice.cuh"

namespace landscape {
namespace {

// Blocks of up to 8 warps get up to 128 registers per thread (LJ38: 128, with a few hundred
// bytes of spills); larger ones get 64 and spill kilobytes.
constexpr int kMaxSearchWarps = 32;
constexpr int kWideSearchWarps = 8;
// Registers held to 128 per thread (two 8-warp blocks per multiprocessor): a search block lasts
// milliseconds, and with 255 (no cap) the search blocks spread over every multiprocessor left no
// room for the whole-band kernel's and the shared calls' blocks, which then waited for them
// (LJ38 growth on an H200: shared calls 0.6 ms instead of 2.7 ms with the cap; docs/benchmarks.md).
constexpr int kSearchBlocksPerSm = 2;

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
  __device__ bool stopRequested() { return readStopFlag(m_stop, m_stopShared); }

 private:
  HybridEfTeamSearch& m_search;
  int* m_stopShared;
  const volatile int* m_stop;
  TeamPairSchedule m_schedule;
};

// Where a search's arrays live: all in global memory, all in the block's shared memory (copied
// in at the start and the io back at the end), or all but the L-BFGS history in shared memory (a
// long history, OPTIM's UPDATES 100, would leave room for one block per multiprocessor).
enum class Placement { Global, Shared, SharedButHistory };

// A block per search. A search is a chain of short dependent passes over a few hundred doubles:
// in shared memory each pass waits for shared memory instead of the L2 cache.
template <int W, int MaxThreads, Placement Where>
__global__ void __launch_bounds__(MaxThreads,
                                  kSearchBlocksPerSm* kWideSearchWarps* kTeamWarpSize / MaxThreads)
    batchedHybridEfKernel(BatchedHybridEfArgs args) {
  __shared__ double scratch[6 * kMaxSearchWarps];
  __shared__ int stop;
  extern __shared__ double arrays[];
  const int n = args.settings.n, m = args.settings.m;
  const long ioDoubles = hybridEfTeamIoDoubles(n);
  double* io = args.d_io + static_cast<long>(blockIdx.x) * ioDoubles;
  double* work = args.d_work + static_cast<long>(blockIdx.x) * hybridEfTeamWorkDoubles(n, m);
  constexpr bool inShared = Where != Placement::Global;
  if (inShared) {
    for (long c = threadIdx.x; c < ioDoubles; c += blockDim.x) arrays[c] = io[c];
    __syncthreads();
  }
  HybridEfTeamSearch search{};
  search.set = args.settings;
  search.st =
      hybridEfTeamLayout(inShared ? arrays : io, inShared ? arrays + ioDoubles : work, n, m);
  if (Where == Placement::SharedButHistory) {
    // s and y in the global work block (its own layout's places); rho and alpha in shared memory
    // where s would start, so that the block takes the shared memory of the rest alone.
    const HybridEfTeamStorage global = hybridEfTeamLayout(io, work, n, m);
    search.st.lbfgs.rho = search.st.lbfgs.s;
    search.st.lbfgs.alpha = search.st.lbfgs.s + m;
    search.st.lbfgs.s = global.lbfgs.s;
    search.st.lbfgs.y = global.lbfgs.y;
  }
  HybridEfDeviceTeam<W> team(search, scratch, &stop, args);
  const HybridEfTeamOutcome out = hybridEfTeamSearch(team, search);
  if (inShared) {
    __syncthreads();
    for (long c = threadIdx.x; c < ioDoubles; c += blockDim.x) io[c] = arrays[c];
  }
  if (threadIdx.x == 0) args.d_outcomes[blockIdx.x] = out;
}

template <int W, int MaxThreads, Placement Where>
void launchPlaced(const BatchedHybridEfArgs& args, std::size_t bytes, cudaStream_t stream) {
  const auto kernel = batchedHybridEfKernel<W, MaxThreads, Where>;
  if (bytes > 48 * 1024)  // beyond the default limit of a block's dynamic shared memory
    LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(bytes)));
  kernel<<<args.searches, kTeamWarpSize * args.warps, bytes, stream>>>(args);
}

// A whole search in shared memory while it takes at most this much, so that several blocks share
// a multiprocessor; beyond it the history stays in global memory.
constexpr std::size_t kWholeInSharedBytes = 48 * 1024;

template <int W, int MaxThreads>
void launchSearches(const BatchedHybridEfArgs& args, cudaStream_t stream) {
  const int n = args.settings.n, m = args.settings.m;
  const std::size_t all = hybridEfTeamSharedBytes(n, m);
  const std::size_t history = 2 * static_cast<std::size_t>(m) * n * sizeof(double);
  if (all <= args.sharedBytesLimit && all <= kWholeInSharedBytes)
    launchPlaced<W, MaxThreads, Placement::Shared>(args, all, stream);
  else if (all - history <= args.sharedBytesLimit)
    launchPlaced<W, MaxThreads, Placement::SharedButHistory>(args, all - history, stream);
  else
    launchPlaced<W, MaxThreads, Placement::Global>(args, 0, stream);
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
    if (args.warps <= kWideSearchWarps)
      launchSearches<W, kWideSearchWarps * kTeamWarpSize>(args, stream);
    else
      launchSearches<W, kMaxSearchWarps * kTeamWarpSize>(args, stream);
  });
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
