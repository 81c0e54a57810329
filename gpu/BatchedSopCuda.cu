#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/BatchedHostStaging.h"
#include "gpu/BatchedSopCuda.h"
#include "gpu/BatchedSopKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/DeviceMemoryPlan.h"
#include "gpu/GpuDevice.h"
#include "gpu/SopDeviceTopology.cuh"

namespace landscape {

namespace {

void requireArrays(std::size_t batch, const void* x, const void* g, const void* energy,
                   const char* where) {
  if (batch == 0)
    throw std::invalid_argument(std::string("batched SOP on cuda, ") + where +
                                ": the batch must hold at least one structure (batch is 0)");
  if (!x || !g || !energy)
    throw std::invalid_argument(std::string("batched SOP on cuda, ") + where +
                                ": coordinates, gradients and energies must not be null");
}

/// Cells per structure: as the dynamics' cell list (at most ~4 beads' worth plus 64; the build
/// widens the cells until the grid fits).
int maxCellsFor(std::size_t beads) { return 4 * static_cast<int>(beads) + 64; }

/// Bit j of row i (rows of (N + 31) / 32 words) set when beads i and j are bonded or native.
std::vector<std::uint32_t> exclusionMask(const SopTopology& t) {
  const std::size_t n = t.beadCount(), words = (n + 31) / 32;
  std::vector<std::uint32_t> mask(n * words, 0u);
  auto set = [&](int i, int j) {
    mask[static_cast<std::size_t>(i) * words + static_cast<std::size_t>(j) / 32] |= 1u << (j % 32);
  };
  for (const SopBond& b : t.bonds) set(b.i, b.j), set(b.j, b.i);
  for (const SopContact& c : t.contacts) set(c.i, c.j), set(c.j, c.i);
  return mask;
}

}  // namespace

struct BatchedSopCuda::DeviceState {
  DeviceState(const SopTopology& t, bool withMask)
      : topology(t, {}), beads(static_cast<int>(t.beadCount())), maxCells(maxCellsFor(beads)) {
    if (withMask) {
      exclusions = DeviceBuffer<std::uint32_t>(exclusionMask(t));
      exclusionWords = (beads + 31) / 32;
    }
  }

  SopDeviceTopology<double> topology;
  int beads, maxCells;
  DeviceBuffer<std::uint32_t> exclusions;  // shared by all structures; empty: scan the lists
  int exclusionWords = 0;
  // Per structure, `reservedBatch` of each.
  std::size_t reservedBatch = 0;
  DeviceBuffer<SopPos4<double>> pos;
  DeviceBuffer<double> beadEnergy, components;
  DeviceBuffer<SopCellGrid<double>> grid;
  DeviceBuffer<int> cellStart, cellBeads, beadCell, cellFill;
  DeviceBuffer<int> status{3};  // the cell build's counters (unused here)
  BatchedHostStaging staging;   // the host entry point's arrays

  std::size_t bytesPerStructure() const {
    const std::size_t n = static_cast<std::size_t>(beads),
                      cells = static_cast<std::size_t>(maxCells);
    return n * sizeof(SopPos4<double>) + (3 * n + 3) * sizeof(double) +
           sizeof(SopCellGrid<double>) + (cells + 1 + n + n + cells) * sizeof(int);
  }
  std::size_t heldBytes() const {
    return pos.bytes() + beadEnergy.bytes() + components.bytes() + grid.bytes() +
           cellStart.bytes() + cellBeads.bytes() + beadCell.bytes() + cellFill.bytes();
  }
};

BatchedSopCuda::BatchedSopCuda(const SopTopology& topology, std::size_t reserveBatch,
                               std::size_t exclusionMaskBeads)
    : m_beads(topology.beadCount()) {
  topology.params.check();
  if (m_beads < 2)
    throw std::invalid_argument("batched SOP on cuda: the topology needs at least 2 beads, has " +
                                std::to_string(m_beads));
  if (reserveBatch == 0)
    throw std::invalid_argument("batched SOP on cuda: reserveBatch must be at least 1");
  if (!gpuAvailable())
    throw std::runtime_error("batched SOP on cuda: no CUDA device (" + gpuDescription() + ")");
  m_description = "batched SOP " + std::to_string(m_beads) + " beads, " +
                  std::to_string(topology.chainCount()) + " chains, " +
                  std::to_string(topology.contacts.size()) + " native contacts (cuda)";
  m_device = std::make_unique<DeviceState>(topology, m_beads <= exclusionMaskBeads);
  m_device->status.zero();
  reserve(reserveBatch);
}

BatchedSopCuda::~BatchedSopCuda() = default;

std::size_t BatchedSopCuda::dimension() const { return 3 * m_beads; }
std::string BatchedSopCuda::name() const { return m_description; }
bool BatchedSopCuda::usesExclusionMask() const { return m_device->exclusionWords > 0; }
std::size_t BatchedSopCuda::reserved() const { return m_device->reservedBatch; }
std::size_t BatchedSopCuda::bytesPerStructure() const { return m_device->bytesPerStructure(); }

void BatchedSopCuda::reserve(std::size_t batch) {
  DeviceState& d = *m_device;
  if (batch <= d.reservedBatch) return;
  // The kernels index structures with int.
  requireScratchFits("batched SOP on cuda", batch, d.bytesPerStructure(), d.heldBytes(),
                     static_cast<std::size_t>(INT_MAX));
  const std::size_t n = static_cast<std::size_t>(d.beads),
                    cells = static_cast<std::size_t>(d.maxCells);
  // Free first: old and new need not fit together.
  d.pos = {};
  d.beadEnergy = {};
  d.components = {};
  d.grid = {};
  d.cellStart = {};
  d.cellBeads = {};
  d.beadCell = {};
  d.cellFill = {};
  d.reservedBatch = 0;
  d.pos = DeviceBuffer<SopPos4<double>>(batch * n);
  d.beadEnergy = DeviceBuffer<double>(batch * 3 * n);
  d.components = DeviceBuffer<double>(batch * 3);
  d.grid = DeviceBuffer<SopCellGrid<double>>(batch);
  d.cellStart = DeviceBuffer<int>(batch * (cells + 1));
  d.cellBeads = DeviceBuffer<int>(batch * n);
  d.beadCell = DeviceBuffer<int>(batch * n);
  d.cellFill = DeviceBuffer<int>(batch * cells);
  d.reservedBatch = batch;
}

void BatchedSopCuda::energyGradientDevice(std::size_t batch, const double* d_x, double* d_g,
                                          double* d_energy, const std::uint8_t* d_active,
                                          DeviceStream stream) {
  requireArrays(batch, d_x, d_g, d_energy, "device entry point");
  reserve(batch);
  DeviceState& d = *m_device;
  SopBatchArgs a;
  a.topology = d.topology.view();
  SopListView<double>& cells = a.cells;
  cells.replicas = static_cast<int>(batch);
  // Cells at least rc wide: every partner within the cutoff is in the 27 cells around a bead.
  const double rc = d.topology.params.repulsiveCutoff;
  cells.listRadius2 = rc * rc;
  cells.maxCells = d.maxCells;
  cells.d_grid = d.grid.data();
  cells.d_cellStart = d.cellStart.data();
  cells.d_cellBeads = d.cellBeads.data();
  cells.d_beadCell = d.beadCell.data();
  cells.d_cellFill = d.cellFill.data();
  cells.d_status = d.status.data();
  a.batch = batch;
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_energy = d_energy;
  a.d_active = d_active;
  a.d_pos = d.pos.data();
  a.d_beadEnergy = d.beadEnergy.data();
  a.d_components = d.components.data();
  a.d_exclusionMask = d.exclusionWords > 0 ? d.exclusions.data() : nullptr;
  a.exclusionWords = d.exclusionWords;
  launchSopBatchEnergyGradient(a, static_cast<cudaStream_t>(stream));
}

BatchedPotential::HostArrays BatchedSopCuda::hostArrays(std::size_t batch) {
  return m_device->staging.arrays(batch, dimension());
}

void BatchedSopCuda::preferOnDevice() { m_device->staging.preferOnDevice(); }

void BatchedSopCuda::energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                                    const std::uint8_t* active) {
  requireArrays(batch, x, g, energy, "host entry point");
  m_device->staging.run(*this, batch, x, g, energy, active);
}

std::array<double, 3> BatchedSopCuda::components(std::size_t b) const {
  const DeviceState& d = *m_device;
  if (b >= d.reservedBatch)
    throw std::out_of_range("batched SOP on cuda: structure " + std::to_string(b) +
                            " is beyond the " + std::to_string(d.reservedBatch) + " reserved");
  std::array<double, 3> c{};
  LANDSCAPE_CUDA_CHECK(cudaMemcpy(c.data(), d.components.data() + 3 * b, sizeof(double) * 3,
                                  cudaMemcpyDeviceToHost));
  return c;
}

}  // namespace landscape
