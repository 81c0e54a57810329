#include <algorithm>
#include <stdexcept>
#include <vector>

#include "gpu/BatchedLennardJonesCuda.h"
#include "gpu/BatchedLennardJonesKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GpuDevice.h"

namespace landscape {

struct BatchedLennardJonesCuda::DeviceState {
  DeviceState(std::size_t atomCount, BatchedTeamShape requested) : atoms(atomCount) {
    if (atoms < 2) throw std::invalid_argument("a Lennard-Jones cluster needs at least 2 atoms");
    if (!gpuAvailable())
      throw std::runtime_error("batched Lennard-Jones on cuda: no CUDA device (" +
                               gpuDescription() + ")");
    shape = requested;
    if (shape.warps == 0) shape.warps = atoms <= 64 ? 1 : atoms <= 128 ? 2 : 4;
    if (shape.warps != 1 && shape.warps != 2 && shape.warps != 4 && shape.warps != 8)
      throw std::invalid_argument(
          "batched Lennard-Jones: warps per structure must be 1, 2, 4 or 8");
    if (shape.tileWidth == 0)
      shape.tileWidth = choosePairTileWidth(static_cast<int>(atoms), 32 * shape.warps);
    schedule = buildPairTileSchedule(static_cast<int>(atoms), shape.tileWidth, 32 * shape.warps);
    slots = DeviceBuffer<PairSlot>(schedule.slots);
  }

  BatchedLennardJonesArgs args(std::size_t batch) const {
    BatchedLennardJonesArgs a;
    a.schedule = {slots.data(), schedule.steps, schedule.groups, schedule.tileWidth,
                  schedule.atoms};
    a.batch = batch;
    a.warps = shape.warps;
    return a;
  }

  void reserve(std::size_t batch) {
    const std::size_t n = 3 * atoms;
    if (energy.size() >= batch) return;
    x = DeviceBuffer<double>(batch * n);
    g = DeviceBuffer<double>(batch * n);
    energy = DeviceBuffer<double>(batch);
    active = DeviceBuffer<std::uint8_t>(batch);
    g.zero();  // rows of inactive structures are copied back unread; keep them defined
    energy.zero();
    // Page-locked staging: the copies go at the bus's speed, asynchronously on the stream.
    hostX = PinnedBuffer<double>(batch * n);
    hostG = PinnedBuffer<double>(batch * n);
    hostEnergy = PinnedBuffer<double>(batch);
    hostActive = PinnedBuffer<std::uint8_t>(batch);
    if (!stream) stream = CudaStream::create(cudaStreamNonBlocking);
  }

  std::size_t atoms;
  BatchedTeamShape shape;
  PairTileSchedule schedule;
  DeviceBuffer<PairSlot> slots;
  DeviceBuffer<double> x, g, energy;  // staging of the host entry point
  DeviceBuffer<std::uint8_t> active;
  PinnedBuffer<double> hostX, hostG, hostEnergy;
  PinnedBuffer<std::uint8_t> hostActive;
  CudaStream stream;  // the host entry point's own: one synchronisation per call
};

BatchedLennardJonesCuda::BatchedLennardJonesCuda(std::size_t atoms, BatchedTeamShape shape)
    : m_state(std::make_unique<DeviceState>(atoms, shape)) {}

BatchedLennardJonesCuda::~BatchedLennardJonesCuda() = default;

std::size_t BatchedLennardJonesCuda::dimension() const { return 3 * m_state->atoms; }
const BatchedTeamShape& BatchedLennardJonesCuda::shape() const { return m_state->shape; }
const PairTileSchedule& BatchedLennardJonesCuda::schedule() const { return m_state->schedule; }

std::string BatchedLennardJonesCuda::name() const {
  return "batched Lennard-Jones " + std::to_string(m_state->atoms) + " atoms (cuda, " +
         std::to_string(m_state->shape.warps) + " warps per structure, tile width " +
         std::to_string(m_state->shape.tileWidth) + ")";
}

void BatchedLennardJonesCuda::energyGradientDevice(std::size_t batch, const double* d_x,
                                                   double* d_g, double* d_energy,
                                                   const std::uint8_t* d_active,
                                                   DeviceStream stream) {
  BatchedLennardJonesArgs a = m_state->args(batch);
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_energy = d_energy;
  a.d_active = d_active;
  launchBatchedLennardJones(a, static_cast<cudaStream_t>(stream));
}

// Copies everything in and out through page-locked staging on the entry point's own stream (one
// synchronisation per call), then writes only the active structures' rows on the host, as the
// interface promises.
void BatchedLennardJonesCuda::energyGradient(std::size_t batch, const double* x, double* g,
                                             double* energy, const std::uint8_t* active) {
  if (batch == 0) return;
  DeviceState& st = *m_state;
  const std::size_t n = dimension();
  st.reserve(batch);
  const cudaStream_t stream = st.stream.get();
  std::copy(x, x + batch * n, st.hostX.data());
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(st.x.data(), st.hostX.data(), batch * n * sizeof(double),
                                       cudaMemcpyHostToDevice, stream));
  if (active) {
    std::copy(active, active + batch, st.hostActive.data());
    LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(st.active.data(), st.hostActive.data(), batch,
                                         cudaMemcpyHostToDevice, stream));
  }
  energyGradientDevice(batch, st.x.data(), st.g.data(), st.energy.data(),
                       active ? st.active.data() : nullptr, stream);
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(st.hostG.data(), st.g.data(), batch * n * sizeof(double),
                                       cudaMemcpyDeviceToHost, stream));
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(st.hostEnergy.data(), st.energy.data(),
                                       batch * sizeof(double), cudaMemcpyDeviceToHost, stream));
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));  // waits, reports kernel errors
  for (std::size_t b = 0; b < batch; ++b) {
    if (active && !active[b]) continue;
    energy[b] = st.hostEnergy.data()[b];
    std::copy(st.hostG.data() + b * n, st.hostG.data() + (b + 1) * n, g + b * n);
  }
}

}  // namespace landscape
