#include <algorithm>
#include <stdexcept>
#include <vector>

#include "gpu/BatchedHostStaging.h"
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

  std::size_t atoms;
  BatchedTeamShape shape;
  PairTileSchedule schedule;
  DeviceBuffer<PairSlot> slots;
  // The host entry point's arrays: the kernel reads each coordinate once (into shared memory)
  // and writes each result once, so small calls run on them in place.
  BatchedHostStaging staging{/*kernelReadsOnce=*/true};
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

BatchedPotential::HostArrays BatchedLennardJonesCuda::hostArrays(std::size_t batch) {
  return m_state->staging.arrays(batch, dimension());
}

void BatchedLennardJonesCuda::preferOnDevice() { m_state->staging.preferOnDevice(); }

void BatchedLennardJonesCuda::energyGradient(std::size_t batch, const double* x, double* g,
                                             double* energy, const std::uint8_t* active) {
  if (batch == 0) return;
  m_state->staging.run(*this, batch, x, g, energy, active);
}

}  // namespace landscape
