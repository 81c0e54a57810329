#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "gpu/BatchedHybridEfCuda.h"
#include "gpu/BatchedHybridEfKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GpuDevice.h"
#include "gpu/MappedStopFlag.h"
#include "landscape/core/PairTileSchedule.h"

namespace landscape {

struct HybridEfSearchesCuda::DeviceState {
  DeviceState(std::size_t atomCount, int warpCount, bool inShared)
      : atoms(atomCount), warps(warpCount) {
    if (atoms < 2)
      throw std::invalid_argument("hybrid EF searches on cuda: at least 2 atoms, got " +
                                  std::to_string(atoms));
    if (warps < 1 || warps > 32)
      throw std::invalid_argument("hybrid EF searches on cuda: 1 to 32 warps per search, got " +
                                  std::to_string(warps));
    if (!gpuAvailable())
      throw std::runtime_error("hybrid EF searches on cuda: no CUDA device (" + gpuDescription() +
                               ")");
    const int n = static_cast<int>(atoms);
    const PairTileSchedule s =
        buildPairTileSchedule(n, choosePairTileWidth(n, kTeamWarpSize), kTeamWarpSize);
    scheduleSlots = DeviceBuffer<PairSlot>(s.slots);
    schedule = {scheduleSlots.data(), s.steps, s.groups, s.tileWidth, s.atoms};
    LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
    if (inShared) {
      int optin = 0;
      LANDSCAPE_CUDA_CHECK(
          cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
      // The static scratch (reductions, stop flag) takes the rest.
      sharedBytesLimit = static_cast<std::size_t>(optin) - 2048;
    }
    stream = CudaStream::create(cudaStreamNonBlocking);
    stop = MappedStopFlag(std::chrono::milliseconds(1));  // a search lasts milliseconds
  }


  std::size_t atoms;
  int warps;
  std::size_t sharedBytesLimit = 0;  // 0: the arrays in global memory
  int device = 0;  // search() may be called from another thread than the constructor's
  DeviceBuffer<PairSlot> scheduleSlots;
  TeamPairSchedule schedule;
  CudaStream stream;
  MappedStopFlag stop;
  DeviceBuffer<double> io, work;
  DeviceBuffer<HybridEfTeamOutcome> outcomes;
  // Page-locked, grown by doubling: a copy from the device into pageable memory returns only once
  // the searches have ended, so the wait below, which passes a stop request on to them, would
  // never run while they do; and the searches' counts vary from call to call (each replacement's
  // cudaFreeHost, like a device buffer's cudaFree, waits for everything on the device).
  PinnedBuffer<double> hostIo;
  PinnedBuffer<HybridEfTeamOutcome> hostOutcomes;
};

HybridEfSearchesCuda::HybridEfSearchesCuda(std::size_t atoms, int warps, bool inShared)
    : m_state(std::make_unique<DeviceState>(atoms, warps, inShared)) {}

HybridEfSearchesCuda::~HybridEfSearchesCuda() = default;

std::size_t HybridEfSearchesCuda::dimension() const { return 3 * m_state->atoms; }

std::string HybridEfSearchesCuda::name() const {
  return "hybrid EF searches (cuda: " + std::to_string(m_state->warps) +
         " warps per search, tile width " + std::to_string(m_state->schedule.tileWidth) +
         (m_state->sharedBytesLimit > 0 ? ", arrays in shared memory where they fit" : "") +
         ") on Lennard-Jones " + std::to_string(m_state->atoms) + " atoms";
}

void HybridEfSearchesCuda::search(const HybridEigenvectorFollowingParams& params,
                                  const std::vector<TransitionStateJob>& jobs,
                                  std::vector<TransitionStateResult>& out) {
  checkTransitionStateJobs(params, jobs);
  out.assign(jobs.size(), TransitionStateResult{});
  if (jobs.empty()) return;
  DeviceState& d = *m_state;
  LANDSCAPE_CUDA_CHECK(cudaSetDevice(d.device));  // the current device is per thread
  const int n = static_cast<int>(dimension());
  const HybridEfTeamSettings settings = hybridEfTeamSettings(params, n);
  const std::size_t ioPer = static_cast<std::size_t>(hybridEfTeamIoDoubles(n));
  const std::size_t workPer = static_cast<std::size_t>(hybridEfTeamWorkDoubles(n, settings.m));
  const std::size_t io = ioPer * jobs.size();
  d.hostIo.reserveGrowing(io);
  std::fill(d.hostIo.data(), d.hostIo.data() + io, 0.0);
  for (std::size_t k = 0; k < jobs.size(); ++k)
    fillTransitionStateIo(params, jobs[k], n, d.hostIo.data() + k * ioPer);
  d.hostOutcomes.reserveGrowing(jobs.size());
  d.io.reserveGrowing(io);
  d.work.reserveGrowing(workPer * jobs.size());
  d.outcomes.reserveGrowing(jobs.size());
  cudaStream_t stream = d.stream.get();
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d.io.data(), d.hostIo.data(), io * sizeof(double),
                                       cudaMemcpyHostToDevice, stream));
  d.stop.arm();
  BatchedHybridEfArgs args;
  args.d_io = d.io.data();
  args.d_work = d.work.data();
  args.d_outcomes = d.outcomes.data();
  args.d_stop = d.stop.device();
  args.schedule = d.schedule;
  args.settings = settings;
  args.searches = static_cast<int>(jobs.size());
  args.warps = d.warps;
  args.sharedBytesLimit = d.sharedBytesLimit;
  launchBatchedHybridEf(args, stream);
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d.hostIo.data(), d.io.data(), io * sizeof(double),
                                       cudaMemcpyDeviceToHost, stream));
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d.hostOutcomes.data(), d.outcomes.data(),
                                       jobs.size() * sizeof(HybridEfTeamOutcome),
                                       cudaMemcpyDeviceToHost, stream));
  // Wait, passing a stop request on to the searches (they poll the flag between iterations).
  d.stop.waitPassingStops(stream);
  for (std::size_t k = 0; k < jobs.size(); ++k)
    out[k] = transitionStateResult(d.hostIo.data() + k * ioPer, n, d.hostOutcomes.data()[k]);
}

}  // namespace landscape
