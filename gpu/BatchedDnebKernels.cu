// Compiled with -fmad=false (CMakeLists.txt): the CPU twin rounds every multiply and add alone.
#include <stdexcept>
#include <string>

#include "gpu/BatchedDnebKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/TeamDevice.cuh"

namespace landscape {
namespace {

// Up to a warp per image of a 32-image band: a band's latency is its images' evaluations one
// after the other on each warp. Blocks of up to 8 warps keep 128 registers per thread; larger
// ones get 64.
constexpr int kMaxBandWarps = 32;
constexpr int kWideBandWarps = 8;

// The band's team: the block's threads over the band's components in global memory (thread t
// owns t, t + blockDim.x, ...; an Owned vector is a view of the band's direction), its warps over
// the images.
template <int W>
class DnebDeviceTeam : public DeviceRowTeam {
 public:
  __device__ DnebDeviceTeam(DnebTeamBand& band, double* scratch, int* stopShared,
                            const BatchedDnebArgs& args)
      : DeviceRowTeam(band.set.lbfgs.n, scratch),
        m_band(band),
        m_stopShared(stopShared),
        m_stop(args.d_stop),
        m_schedule(args.schedule) {}

  __device__ Owned owned() const { return {m_band.st.direction}; }

  template <class F>
  __device__ void forWarpItems(int count, F f) {
    DeviceWarpTeam warp(m_band.set.imageSize);
    const int warps = static_cast<int>(blockDim.x) / kTeamWarpSize;
    for (int i = static_cast<int>(threadIdx.x) / kTeamWarpSize; i < count; i += warps) f(i, warp);
  }
  __device__ double evaluateImage(DeviceWarpTeam& warp, const double* x, double* g) {
    return teamLennardJones<W>(warp, m_schedule, x, g);
  }
  __device__ double evaluate(const double* x, double* g) {
    return dnebTeamEvaluate(*this, m_band, x, g);
  }
  __device__ bool stopRequested() { return readStopFlag(m_stop, m_stopShared); }

 private:
  DnebTeamBand& m_band;
  int* m_stopShared;
  const volatile int* m_stop;
  TeamPairSchedule m_schedule;
};

template <int W, int MaxThreads>
__global__ void __launch_bounds__(MaxThreads) batchedDnebKernel(BatchedDnebArgs args) {
  __shared__ double scratch[6 * kMaxBandWarps];
  __shared__ int stop;
  const DnebBandSlot slot = args.d_slots[blockIdx.x];
  DnebTeamSettings set = args.settings;
  set.images = slot.images;
  set.lbfgs.n = slot.images * set.imageSize;
  set.lbfgs.maxIterations = slot.iterations;
  DnebTeamBand band{set,
                    dnebTeamLayout(args.d_io + slot.io, args.d_work + slot.work, slot.images,
                                   set.imageSize, set.lbfgs.m),
                    0.0, 0.0, 0};
  DnebDeviceTeam<W> team(band, scratch, &stop, args);
  const DnebTeamOutcome out = dnebTeamRelax(team, band);
  if (threadIdx.x == 0) args.d_outcomes[blockIdx.x] = out;
}

}  // namespace

void launchBatchedDneb(const BatchedDnebArgs& args, cudaStream_t stream) {
  if (args.warps < 1 || args.warps > kMaxBandWarps)
    throw std::invalid_argument("launchBatchedDneb: 1 to 32 warps per band, got " +
                                std::to_string(args.warps));
  if (args.schedule.groups * args.schedule.tileWidth != kTeamWarpSize ||
      args.settings.imageSize != 3 * args.schedule.atoms)
    throw std::invalid_argument(
        "launchBatchedDneb: the schedule must be built for one warp and the image's atoms");
  if (args.bands == 0) return;
  if (!args.d_slots || !args.d_io || !args.d_work || !args.d_outcomes || !args.schedule.slots)
    throw std::invalid_argument("launchBatchedDneb: every device pointer must be set");
  withTileWidth(args.schedule.tileWidth, [&](auto w) {
    constexpr int W = decltype(w)::value;
    const int threads = kTeamWarpSize * args.warps;
    if (args.warps <= kWideBandWarps)
      batchedDnebKernel<W, kWideBandWarps * kTeamWarpSize>
          <<<args.bands, threads, 0, stream>>>(args);
    else
      batchedDnebKernel<W, kMaxBandWarps * kTeamWarpSize><<<args.bands, threads, 0, stream>>>(args);
  });
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
