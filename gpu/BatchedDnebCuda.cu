#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "gpu/BatchedDnebCuda.h"
#include "gpu/BatchedDnebKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GpuDevice.h"
#include "gpu/MappedStopFlag.h"
#include "landscape/core/PairTileSchedule.h"

namespace landscape {

struct DnebBandsCuda::DeviceState {
  DeviceState(std::size_t atomCount, int warpCount) : atoms(atomCount), warps(warpCount) {
    if (atoms < 2)
      throw std::invalid_argument("DNEB bands on cuda: at least 2 atoms, got " +
                                  std::to_string(atoms));
    if (!gpuAvailable())
      throw std::runtime_error("DNEB bands on cuda: no CUDA device (" + gpuDescription() + ")");
    const int n = static_cast<int>(atoms);
    const PairTileSchedule s =
        buildPairTileSchedule(n, choosePairTileWidth(n, kTeamWarpSize), kTeamWarpSize);
    scheduleSlots = DeviceBuffer<PairSlot>(s.slots);
    schedule = {scheduleSlots.data(), s.steps, s.groups, s.tileWidth, s.atoms};
    LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
    stream = CudaStream::create(cudaStreamNonBlocking);
    // A call of bands lasts milliseconds; polled more often than the searches' (a band's
    // iteration is tens of microseconds, and the connect runs wait for their bands).
    stop = MappedStopFlag(std::chrono::microseconds(200));
  }


  std::size_t atoms;
  int warps;
  int device = 0;  // relax() may be called from another thread than the constructor's
  DeviceBuffer<PairSlot> scheduleSlots;
  TeamPairSchedule schedule;
  CudaStream stream;
  MappedStopFlag stop;
  DeviceBuffer<DnebBandSlot> slots;
  DeviceBuffer<double> io, work;
  DeviceBuffer<DnebTeamOutcome> outcomes;
  // Page-locked, grown by doubling: the copies go straight to and from it (a copy from the device
  // into pageable memory waits inside the driver for the bands), and the bands' counts vary from
  // call to call (each replacement's cudaFreeHost, like a device buffer's cudaFree, waits for
  // everything on the device).
  PinnedBuffer<DnebBandSlot> hostSlots;
  PinnedBuffer<double> hostIo;
  PinnedBuffer<DnebTeamOutcome> hostOutcomes;
};

DnebBandsCuda::DnebBandsCuda(std::size_t atoms, int warps)
    : m_state(std::make_unique<DeviceState>(atoms, warps)) {
  if (warps < 1 || warps > 32)
    throw std::invalid_argument("DNEB bands on cuda: 1 to 32 warps per band, got " +
                                std::to_string(warps));
}

DnebBandsCuda::~DnebBandsCuda() = default;

std::size_t DnebBandsCuda::imageSize() const { return 3 * m_state->atoms; }

std::string DnebBandsCuda::name() const {
  return "DNEB bands (cuda: " + std::to_string(m_state->warps) + " warps per band, tile width " +
         std::to_string(m_state->schedule.tileWidth) + ") on Lennard-Jones " +
         std::to_string(m_state->atoms) + " atoms";
}

void DnebBandsCuda::relax(const DnebParams& params, const std::vector<DnebBandJob>& jobs,
                          std::vector<DnebRelaxedBand>& out) {
  checkDnebBandJobs(jobs);
  params.check();
  out.assign(jobs.size(), DnebRelaxedBand{});
  if (jobs.empty()) return;
  DeviceState& d = *m_state;
  LANDSCAPE_CUDA_CHECK(cudaSetDevice(d.device));  // the current device is per thread
  const int size = static_cast<int>(imageSize()), m = params.historySize;
  d.hostSlots.reserveGrowing(jobs.size());
  DnebBandSlot* slots = d.hostSlots.data();
  long long io = 0, work = 0;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    slots[k] = {io, work, jobs[k].images, jobs[k].iterations};
    io += dnebTeamIoDoubles(jobs[k].images, size);
    work += dnebTeamWorkDoubles(jobs[k].images, size, m);
  }
  d.hostIo.reserveGrowing(static_cast<std::size_t>(io));
  std::fill(d.hostIo.data(), d.hostIo.data() + io, 0.0);
  d.hostOutcomes.reserveGrowing(jobs.size());
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    double* band = d.hostIo.data() + slots[k].io;
    std::copy(jobs[k].start, jobs[k].start + size, band);
    std::copy(jobs[k].finish, jobs[k].finish + size, band + size);
  }
  d.slots.reserveGrowing(jobs.size());
  d.io.reserveGrowing(static_cast<std::size_t>(io));
  d.work.reserveGrowing(static_cast<std::size_t>(work));
  d.outcomes.reserveGrowing(jobs.size());
  cudaStream_t stream = d.stream.get();
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d.slots.data(), slots, jobs.size() * sizeof(DnebBandSlot),
                                       cudaMemcpyHostToDevice, stream));
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d.io.data(), d.hostIo.data(), io * sizeof(double),
                                       cudaMemcpyHostToDevice, stream));
  d.stop.arm();
  BatchedDnebArgs args;
  args.d_slots = d.slots.data();
  args.d_io = d.io.data();
  args.d_work = d.work.data();
  args.d_outcomes = d.outcomes.data();
  args.d_stop = d.stop.device();
  args.schedule = d.schedule;
  // Images, n and the iteration cap are each band's own (the kernel sets them from its slot).
  args.settings = dnebTeamSettings(params, 1, size, 1);
  args.bands = static_cast<int>(jobs.size());
  args.warps = d.warps;
  launchBatchedDneb(args, stream);
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d.hostIo.data(), d.io.data(), io * sizeof(double),
                                       cudaMemcpyDeviceToHost, stream));
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d.hostOutcomes.data(), d.outcomes.data(),
                                       jobs.size() * sizeof(DnebTeamOutcome),
                                       cudaMemcpyDeviceToHost, stream));
  // Wait, passing a stop request on to the bands (they poll the flag between iterations).
  d.stop.waitPassingStops(stream);
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const int images = jobs[k].images;
    const std::size_t n = static_cast<std::size_t>(images) * size;
    const DnebTeamIo st = dnebTeamIo(d.hostIo.data() + slots[k].io, images, size);
    out[k].band.assign(st.x, st.x + n);
    out[k].tangents.assign(st.tangents, st.tangents + n);
    out[k].energies.assign(st.energies, st.energies + images + 2);
    out[k].outcome = d.hostOutcomes.data()[k];
  }
}

}  // namespace landscape
