#include <algorithm>
#include <stdexcept>
#include <vector>

#include "gpu/BatchedLbfgsCuda.h"
#include "gpu/BatchedLbfgsKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/DeviceMemoryPlan.h"
#include "gpu/GpuDevice.h"
#include "landscape/minimisation/BatchedTeamPlan.h"
#include "landscape/core/PairTileSchedule.h"

namespace landscape {
namespace {

SharedMemoryLimits deviceLimits() {
  int device = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  LANDSCAPE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  SharedMemoryLimits limits;
  limits.perSm = prop.sharedMemPerMultiprocessor;
  limits.perBlock = prop.sharedMemPerBlockOptin;
  limits.reservedPerBlock = prop.reservedSharedMemPerBlock;
  limits.maxBlocksPerSm = prop.maxBlocksPerMultiProcessor;
  limits.maxWarpsPerSm = prop.maxThreadsPerMultiProcessor / 32;
  return limits;
}

int multiprocessors() {
  int device = 0, count = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  LANDSCAPE_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

// The team shape, the kernel's arguments (all but the device pointers) and the resident teams for
// clusters of `atoms` atoms on the current device: read off the device's properties and the
// kernel's occupancy, nothing allocated.
struct TeamPlan {
  BatchedTeamShape shape;
  PairTileSchedule schedule;
  BatchedLbfgsArgs args;
  int resident = 0;
};

TeamPlan planTeams(std::size_t atoms, const LbfgsParams& params, BatchedTeamShape requested) {
  params.check();
  if (!gpuAvailable())
    throw std::runtime_error("batched L-BFGS on cuda: no CUDA device (" + gpuDescription() + ")");
  TeamPlan plan;
  plan.shape = resolveTeamShape(requested, atoms, params.historySize, deviceLimits());
  plan.schedule =
      buildPairTileSchedule(static_cast<int>(atoms), plan.shape.tileWidth, 32 * plan.shape.warps);
  const PairTileSchedule& s = plan.schedule;
  plan.args.schedule = {nullptr, s.steps, s.groups, s.tileWidth, s.atoms};
  plan.args.settings = lbfgsTeamSettings(params, 3 * atoms);
  plan.args.warps = plan.shape.warps;
  const int perSm = batchedLbfgsBlocksPerSm(plan.args);
  if (perSm < 1)
    throw std::runtime_error("batched L-BFGS on cuda: the kernel cannot be resident with " +
                             std::to_string(batchedLbfgsSharedBytes(plan.args)) +
                             " bytes of shared memory and " +
                             std::to_string(32 * plan.shape.warps) + " threads per block");
  plan.resident = perSm * multiprocessors();
  return plan;
}

}  // namespace

int BatchedLbfgsCuda::residentTeamsFor(std::size_t atoms, const LbfgsParams& params,
                                       BatchedTeamShape shape) {
  return planTeams(atoms, params, shape).resident;
}

struct BatchedLbfgsCuda::DeviceState {
  DeviceState(std::size_t atomCount, const LbfgsParams& p, BatchedTeamShape requested)
      : atoms(atomCount), params(p) {
    TeamPlan plan = planTeams(atoms, params, requested);
    shape = plan.shape;
    resident = plan.resident;
    args = plan.args;
    slots = DeviceBuffer<PairSlot>(plan.schedule.slots);
    queue = DeviceBuffer<unsigned int>(1);
    args.schedule.slots = slots.data();
    args.d_queue = queue.data();
  }

  void reserve(std::size_t batch) {
    if (x.size() >= batch * 3 * atoms) return;
    x = DeviceBuffer<double>();  // free before allocating the larger pair
    outcomes = DeviceBuffer<LbfgsResult>();
    x = DeviceBuffer<double>(batch * 3 * atoms);
    outcomes = DeviceBuffer<LbfgsResult>(batch);
  }

  std::size_t atoms;
  LbfgsParams params;
  BatchedTeamShape shape;
  DeviceBuffer<PairSlot> slots;
  DeviceBuffer<unsigned int> queue;
  DeviceBuffer<double> x;
  DeviceBuffer<LbfgsResult> outcomes;
  BatchedLbfgsArgs args;
  int resident = 0;
};

BatchedLbfgsCuda::BatchedLbfgsCuda(std::size_t atoms, const LbfgsParams& params,
                                   BatchedTeamShape shape)
    : m_state(std::make_unique<DeviceState>(atoms, params, shape)) {}

BatchedLbfgsCuda::~BatchedLbfgsCuda() = default;

std::string BatchedLbfgsCuda::name() const {
  return "batched L-BFGS (cuda: " + std::to_string(m_state->shape.warps) +
         " warps per structure, tile width " + std::to_string(m_state->shape.tileWidth) + ", " +
         std::to_string(m_state->resident) + " resident) on Lennard-Jones " +
         std::to_string(m_state->atoms) + " atoms";
}

std::size_t BatchedLbfgsCuda::dimension() const { return 3 * m_state->atoms; }
const LbfgsParams& BatchedLbfgsCuda::params() const { return m_state->params; }
const BatchedTeamShape& BatchedLbfgsCuda::shape() const { return m_state->shape; }
int BatchedLbfgsCuda::residentTeams() const { return m_state->resident; }
std::size_t BatchedLbfgsCuda::sharedBytesPerTeam() const {
  return batchedLbfgsSharedBytes(m_state->args);
}

BatchMemory BatchedLbfgsCuda::memory() const {
  std::size_t freeBytes = 0, totalBytes = 0;
  LANDSCAPE_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  BatchMemory memory;
  memory.bytesPerStructure = sizeof(double) * dimension() + sizeof(LbfgsResult);
  memory.fixedBytes = kDeviceHeadroomBytes;
  memory.availableBytes = freeBytes + m_state->x.bytes() + m_state->outcomes.bytes();
  memory.where = "device memory";
  return memory;
}

void BatchedLbfgsCuda::minimiseDevice(std::size_t batch, double* d_x, LbfgsResult* d_outcomes,
                                      DeviceStream stream) {
  if (batch == 0) return;
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  BatchedLbfgsArgs args = m_state->args;
  args.d_x = d_x;
  args.d_outcomes = d_outcomes;
  args.batch = batch;
  LANDSCAPE_CUDA_CHECK(cudaMemsetAsync(args.d_queue, 0, sizeof(unsigned int), s));
  const int blocks = static_cast<int>(std::min<std::size_t>(batch, m_state->resident));
  launchBatchedLbfgs(args, blocks, s);
}

void BatchedLbfgsCuda::minimise(std::size_t batch, double* x, LbfgsResult* results) {
  requireBatchFits(batch, memory());
  if (batch == 0) return;
  DeviceState& st = *m_state;
  const std::size_t n = dimension();
  st.reserve(batch);
  st.x.copyFromHost(x, batch * n);
  minimiseDevice(batch, st.x.data(), st.outcomes.data(), nullptr);
  std::vector<LbfgsResult> outcomes(batch);
  st.outcomes.copyToHost(outcomes.data(), batch);  // synchronous: waits, reports kernel errors
  st.x.copyToHost(x, batch * n);
  std::copy(outcomes.begin(), outcomes.end(), results);
}

}  // namespace landscape
