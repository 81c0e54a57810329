#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/AmberGbKernels.cuh"
#include "gpu/BatchedAmberGbCuda.h"
#include "gpu/BatchedHostStaging.h"
#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/DeviceMemoryPlan.h"
#include "gpu/DeviceWideSync.h"
#include "gpu/GpuDevice.h"
#include "gpu/ProgrammaticLaunch.cuh"

namespace landscape {

namespace {

/// Column tiles per pair-kernel block: long chunks for big systems (fewer, larger slot arrays),
/// chunk 1 for small ones so that the grid still fills the device.
int choosePairChunk(std::size_t atoms) {
  const int tiles = static_cast<int>((atoms + kGbTile - 1) / kGbTile);
  return std::max(1, std::min(8, tiles / 96));
}

/// SMs of the device the layouts are tuned for (H100 SXM, H200). A constant, not a device query:
/// the layouts fix the summation order, which must depend on the system alone.
constexpr int kTunedSms = 132;

/// Rotation-step parts of the pair grids: split each tile pair over up to 8 blocks (4 steps each)
/// while the grid has fewer than 4 blocks per SM (3 of 256 threads are resident at a time), so
/// that a small protein still spreads over the device, a warp's serial chain of pairs is short
/// and the last wave is not a lone tail.
int choosePairParts(int taskCount) {
  int parts = 1;
  while (parts < 8 && taskCount * parts < 4 * kTunedSms) parts *= 2;
  return parts;
}

/// Row tiles per block of the pair grids in the throughput layout: the most (8, 4, 2, 1) whose
/// blocks keep at least 90% of their warps busy (a warp whose row tile lies beyond the block's
/// column tile has no pair and waits; the fewer rows, the fewer such warps, but the more column
/// loads and column slots), else the one that keeps the most busy. trp-cage (10 tiles): 2 rows,
/// 55 tile pairs on 60 warps (8 rows: 96); myoglobin (78 tiles): 8 rows, 92%.
int choosePairRows(std::size_t atoms, int chunk) {
  int best = kGbPairWarps;
  double bestBusy = 0.0;
  for (int rows : {kGbPairWarps, 4, 2, 1}) {
    const GbPairLayout l = gbPairLayout(atoms, chunk, 1, rows);
    const double tilePairs = 0.5 * l.tiles * (l.tiles + 1);
    const double busy = tilePairs / (static_cast<double>(l.taskCount) * rows * l.chunk);
    if (busy >= 0.9) return rows;
    if (busy > bestBusy) {
      best = rows;
      bestBusy = busy;
    }
  }
  return best;
}

/// The Born-radius gather: column parts of 4 rotation steps for small systems (short serial
/// chains), whole column tiles for large ones; as many blocks per tile as fill the device without
/// leaving warps with no unit at all.
GbGatherLayout chooseGatherLayout(int tiles) {
  GbGatherLayout g;
  g.columnParts = tiles < 32 ? 8 : tiles < 128 ? 4 : tiles < 512 ? 2 : 1;
  const int units = tiles * g.columnParts;
  const int enoughWorkers = (units + kGbGatherWarps - 1) / kGbGatherWarps;
  const int fill = (2 * kTunedSms + tiles - 1) / tiles;  // 2 resident blocks of 512 per SM
  g.blocksPerTile = std::max(1, std::min(enoughWorkers, fill));
  return g;
}

struct ExclusionTiles {
  std::vector<int> offsets;  // tiles + 1
  std::vector<int> columns;
  std::vector<std::uint32_t> masks;  // 32 per column entry
};

ExclusionTiles buildExclusionTiles(const AmberGbTables& t, int tiles) {
  std::map<std::pair<int, int>, std::array<std::uint32_t, kGbTile>> byTilePair;
  const int n = static_cast<int>(t.charges.size());
  for (int i = 0; i < n; ++i)
    for (int k = t.exclusionOffsets[i]; k < t.exclusionOffsets[i + 1]; ++k) {
      const int j = t.exclusions[static_cast<std::size_t>(k)];  // j > i
      auto& masks = byTilePair[{i / kGbTile, j / kGbTile}];     // value-initialised to zeros
      masks[static_cast<std::size_t>(i % kGbTile)] |= 1u << (j % kGbTile);
    }
  ExclusionTiles e;
  e.offsets.assign(static_cast<std::size_t>(tiles) + 1, 0);
  for (const auto& [key, masks] : byTilePair) {  // ordered by (row, column)
    ++e.offsets[static_cast<std::size_t>(key.first) + 1];
    e.columns.push_back(key.second);
    e.masks.insert(e.masks.end(), masks.begin(), masks.end());
  }
  for (int r = 0; r < tiles; ++r)
    e.offsets[static_cast<std::size_t>(r) + 1] += e.offsets[static_cast<std::size_t>(r)];
  return e;
}

void requireArrays(std::size_t batch, const void* x, const void* g, const void* energy,
                   const char* where) {
  if (batch == 0)
    throw std::invalid_argument(std::string("batched AMBER-GB on cuda, ") + where +
                                ": the batch must hold at least one structure (batch is 0)");
  if (!x || !g || !energy)
    throw std::invalid_argument(std::string("batched AMBER-GB on cuda, ") + where +
                                ": coordinates, gradients and energies must not be null");
}

/// Argument sets whose launch sequences are kept as executable graphs, and argument sets
/// remembered as seen once (a set becomes a graph on its second use, so callers that pass fresh
/// arrays every time never pay for a capture). Many, because the shared calls of network growth
/// change their batch every call (one to a few hundred structures): each size keeps its graph.
constexpr std::size_t kMaxGraphs = 256;
constexpr std::size_t kMaxSeen = 256;

/// What a captured launch sequence bakes in besides the scratch: the caller's arrays and B.
struct LaunchKey {
  const double* x = nullptr;
  double* g = nullptr;
  double* energy = nullptr;
  const std::uint8_t* active = nullptr;
  std::size_t batch = 0;
  bool operator==(const LaunchKey& o) const {
    return x == o.x && g == o.g && energy == o.energy && active == o.active && batch == o.batch;
  }
};

struct LaunchGraph {
  LaunchKey key;
  cudaGraphExec_t exec = nullptr;
};

/// Whether work enqueued on `stream` now would be captured into someone else's graph (the round
/// engine captures its rounds, potential calls included): then the kernels are launched plainly.
bool streamCapturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  const cudaError_t queried = cudaStreamIsCapturing(stream, &status);
  if (queried != cudaSuccess) {
    (void)cudaGetLastError();  // the plain launches that follow report the stream's state
    return true;
  }
  return status != cudaStreamCaptureStatusNone;
}

template <typename Real>
cudaGraphExec_t captureLaunches(const GbEvalArgs& args, std::size_t batch, cudaStream_t capture,
                                bool programmatic) {
  cudaGraph_t graph = nullptr;
  {
    const StreamCaptureScope capturing;  // other lanes' device-wide waits wait for its end
    LANDSCAPE_CUDA_CHECK(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal));
    try {
      launchGbEnergyGradient<Real>(args, batch, capture, programmatic);
    } catch (...) {
      cudaGraph_t partial = nullptr;
      (void)cudaStreamEndCapture(capture, &partial);
      if (partial) (void)cudaGraphDestroy(partial);
      (void)cudaGetLastError();
      throw;
    }
    LANDSCAPE_CUDA_CHECK(cudaStreamEndCapture(capture, &graph));
  }
  cudaGraphExec_t exec = nullptr;
  const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
  (void)cudaGraphDestroy(graph);
  LANDSCAPE_CUDA_CHECK(made);
  return exec;
}

}  // namespace

struct BatchedAmberGbCuda::DeviceState {
  AmberGbTables tables;
  GbPairLayout layout;
  GbGatherLayout gather;
  GbBondedBlocks bondedBlocks;
  GbScratchLayout scratchLayout;
  GbEvalArgs args;  // shared tables filled in; per-structure pointers bound by reserve()

  // Shared by all structures, constant for the object's life.
  DeviceBuffer<double> charge, radius, rho, screened;
  DeviceBuffer<double2> lj;      // (A, B) per type pair
  DeviceBuffer<float2> ljFloat;  // the same in float, for the mixed pair loop
  DeviceBuffer<int> ljType;
  DeviceBuffer<int> excludedOffsets, excludedTile;
  DeviceBuffer<std::uint32_t> excludedMask;
  DeviceBuffer<AmberBondTerm> bonds;
  DeviceBuffer<AmberAngleTerm> angles;
  DeviceBuffer<AmberDihedralTerm> dihedrals;
  DeviceBuffer<AmberPair14Term> pairs14;
  DeviceBuffer<int> atomSlotOffsets, atomSlots;
  DeviceBuffer<int2> tasks;

  // Per structure: the scratch arenas and ticket counters of `reservedBatch` structures.
  std::size_t reservedBatch = 0;
  DeviceBuffer<double> scratch;
  DeviceBuffer<unsigned> tickets;  // zero between evaluations

  BatchedHostStaging staging;  // the host entry point's device arrays

  // The launch sequence as CUDA graphs (one launch instead of six), most recently used last.
  bool useGraphs = true;
  // Programmatic dependent launches (compute capability >= 9.0 only).
  bool programmaticSupported = false;
  bool programmatic = false;
  std::vector<LaunchGraph> graphs;
  std::vector<LaunchKey> seen;  // plain-launched argument sets, oldest first
  std::size_t graphsCaptured = 0;
  CudaStream captureStream;  // created with the first graph

  // breakdown()'s copy lands in page-locked memory (a short synchronous round trip).
  PinnedBuffer<double> hostComponents;

  DeviceState() = default;
  DeviceState(const DeviceState&) = delete;
  DeviceState& operator=(const DeviceState&) = delete;
  ~DeviceState() { dropGraphs(); }

  /// Forgets every graph (they hold the scratch pointers); launches in flight finish.
  void dropGraphs() {
    for (LaunchGraph& graph : graphs) (void)cudaGraphExecDestroy(graph.exec);
    graphs.clear();
    seen.clear();
  }

  /// The graph of `key`, captured now if the key was seen before; nullptr: launch plainly.
  template <typename Real>
  cudaGraphExec_t graphFor(const LaunchKey& key, const GbEvalArgs& args) {
    for (std::size_t k = 0; k < graphs.size(); ++k)
      if (graphs[k].key == key) {
        std::rotate(graphs.begin() + static_cast<std::ptrdiff_t>(k),
                    graphs.begin() + static_cast<std::ptrdiff_t>(k) + 1, graphs.end());
        return graphs.back().exec;
      }
    const auto before = std::find(seen.begin(), seen.end(), key);
    if (before == seen.end()) {
      if (seen.size() == kMaxSeen) seen.erase(seen.begin());
      seen.push_back(key);
      return nullptr;
    }
    seen.erase(before);
    if (!captureStream) captureStream = CudaStream::create(cudaStreamNonBlocking);
    cudaGraphExec_t exec = nullptr;
    try {
      exec = captureLaunches<Real>(args, key.batch, captureStream, programmatic);
    } catch (const std::runtime_error&) {
      // A runtime or driver that cannot capture or instantiate the sequence: plain launches from
      // now on (they report any real launch error themselves).
      useGraphs = false;
      return nullptr;
    }
    if (graphs.size() == kMaxGraphs) {
      (void)cudaGraphExecDestroy(graphs.front().exec);
      graphs.erase(graphs.begin());
    }
    graphs.push_back({key, exec});
    ++graphsCaptured;
    return exec;
  }

  std::size_t bytesPerStructure() const {
    return static_cast<std::size_t>(scratchLayout.stride) * sizeof(double) +
           static_cast<std::size_t>(scratchLayout.tickets) * sizeof(unsigned);
  }
};

BatchedAmberGbCuda::BatchedAmberGbCuda(const AmberTopology& topology, const AmberGbParams& params,
                                       Precision precision, std::size_t reserveBatch,
                                       AmberGbCudaLayout layout)
    : m_params(params),
      m_precision(precision),
      m_layout(layout),
      m_atoms(static_cast<std::size_t>(topology.atomCount)),
      m_device(std::make_unique<DeviceState>()) {
  requirePrecision(precision, amberGbPrecisions(), "AMBER-GB on CUDA");
  if (reserveBatch == 0)
    throw std::invalid_argument("batched AMBER-GB on cuda: reserveBatch must be at least 1");
  DeviceState& d = *m_device;
  d.tables = buildAmberGbTables(topology, params);
  const AmberGbTables& t = d.tables;
  if (m_atoms == 0)
    throw std::invalid_argument("AmberGbCuda: prmtop " + topology.path + " has no atoms");
  if (!gpuAvailable())
    throw std::runtime_error("AMBER-GB on cuda: no CUDA device (" + gpuDescription() + ")");
  const int chunk = choosePairChunk(m_atoms);
  const bool latency = layout == AmberGbCudaLayout::Latency;
  const int parts = latency ? choosePairParts(gbPairLayout(m_atoms, chunk, 1).taskCount) : 1;
  d.layout =
      gbPairLayout(m_atoms, chunk, parts, latency ? kGbPairWarps : choosePairRows(m_atoms, chunk));
  d.gather = chooseGatherLayout(d.layout.tiles);
  if (!latency) d.gather.blocksPerTile = 1;

  d.charge = DeviceBuffer<double>(t.charges);
  d.radius = DeviceBuffer<double>(t.gbRadius);
  d.rho = DeviceBuffer<double>(t.gbRho);
  d.screened = DeviceBuffer<double>(t.gbScreened);
  std::vector<double2> lj(t.ljA.size());
  std::vector<float2> ljFloat(t.ljA.size());
  for (std::size_t k = 0; k < lj.size(); ++k) {
    lj[k] = make_double2(t.ljA[k], t.ljB[k]);
    ljFloat[k] = make_float2(static_cast<float>(t.ljA[k]), static_cast<float>(t.ljB[k]));
  }
  d.lj = DeviceBuffer<double2>(lj);
  d.ljFloat = DeviceBuffer<float2>(ljFloat);
  d.ljType = DeviceBuffer<int>(t.ljTypes);

  const ExclusionTiles exclusions = buildExclusionTiles(t, d.layout.tiles);
  d.excludedOffsets = DeviceBuffer<int>(exclusions.offsets);
  d.excludedTile = DeviceBuffer<int>(exclusions.columns);
  d.excludedMask = DeviceBuffer<std::uint32_t>(exclusions.masks);

  d.bonds = DeviceBuffer<AmberBondTerm>(t.bonds);
  d.angles = DeviceBuffer<AmberAngleTerm>(t.angles);
  d.dihedrals = DeviceBuffer<AmberDihedralTerm>(t.dihedrals);
  d.pairs14 = DeviceBuffer<AmberPair14Term>(t.pairs14);
  std::vector<int> slotOffsets, slots;
  gbBondedAtomSlots(t, m_atoms, slotOffsets, slots);
  d.atomSlotOffsets = DeviceBuffer<int>(slotOffsets);
  d.atomSlots = DeviceBuffer<int>(slots);
  d.bondedBlocks =
      gbBondedBlocks(static_cast<int>(t.bonds.size()), static_cast<int>(t.angles.size()),
                     static_cast<int>(t.dihedrals.size()), static_cast<int>(t.pairs14.size()));

  std::vector<int2> tasks;
  for (int b = 0; b < d.layout.rowBlocks; ++b)
    for (int c = 0; c < d.layout.chunks; ++c)
      if (std::min(d.layout.tiles - 1, c * d.layout.chunk + d.layout.chunk - 1) >=
          b * d.layout.rows)
        tasks.push_back(make_int2(b, c));
  if (static_cast<int>(tasks.size()) != d.layout.taskCount)
    throw std::logic_error("BatchedAmberGbCuda: pair task list disagrees with gbPairLayout");
  d.tasks = DeviceBuffer<int2>(tasks);
  d.scratchLayout = gbScratchLayout(m_atoms, d.layout, d.gather, slots.size(), d.bondedBlocks,
                                    d.layout.tiles <= kGbSlopeTableMaxTiles);

  GbEvalArgs& a = d.args;
  a.atoms = m_atoms;
  a.model = t.model;
  a.descreenCutoff = t.model.rgbmax + t.gbScreenedMax;
  a.params.d_charge = d.charge.data();
  a.params.d_ljType = d.ljType.data();
  a.params.d_radius = d.radius.data();
  a.params.d_rho = d.rho.data();
  a.params.d_screened = d.screened.data();
  a.params.d_lj = d.lj.data();
  a.params.d_ljFloat = d.ljFloat.data();
  a.params.ljTypeCount = t.ljTypeCount;
  a.exclusions.d_excludedTileOffsets = d.excludedOffsets.data();
  a.exclusions.d_excludedTile = d.excludedTile.data();
  a.exclusions.d_excludedMask = d.excludedMask.data();
  a.layout = d.layout;
  a.gather = d.gather;
  a.d_tasks = d.tasks.data();
  a.d_atomSlotOffsets = d.atomSlotOffsets.data();
  a.d_atomSlots = d.atomSlots.data();
  a.bondedBlocks = d.bondedBlocks;
  a.bonded.d_bonds = d.bonds.data();
  a.bonded.d_angles = d.angles.data();
  a.bonded.d_dihedrals = d.dihedrals.data();
  a.bonded.d_pairs14 = d.pairs14.data();
  a.bonded.bonds = static_cast<int>(t.bonds.size());
  a.bonded.angles = static_cast<int>(t.angles.size());
  a.bonded.dihedrals = static_cast<int>(t.dihedrals.size());
  a.bonded.pairs14 = static_cast<int>(t.pairs14.size());
  d.hostComponents = PinnedBuffer<double>(8);
  d.programmaticSupported = programmaticLaunchesSupported();
  d.programmatic = d.programmaticSupported;
  reserve(reserveBatch);
}

BatchedAmberGbCuda::~BatchedAmberGbCuda() = default;

std::size_t BatchedAmberGbCuda::dimension() const { return 3 * m_atoms; }

std::string amberGbCudaLayoutName(AmberGbCudaLayout layout) {
  return layout == AmberGbCudaLayout::Latency ? "latency" : "throughput";
}

std::string BatchedAmberGbCuda::name() const {
  return "batched AMBER GB igb=" + std::to_string(m_params.igb) + " " + std::to_string(m_atoms) +
         " atoms (cuda, " + precisionName(m_precision) + ", " + amberGbCudaLayoutName(m_layout) +
         " layout)";
}

int BatchedAmberGbCuda::pairChunk() const { return m_device->layout.chunk; }
std::size_t BatchedAmberGbCuda::reserved() const { return m_device->reservedBatch; }
std::size_t BatchedAmberGbCuda::bytesPerStructure() const { return m_device->bytesPerStructure(); }

void BatchedAmberGbCuda::reserve(std::size_t batch) {
  DeviceState& d = *m_device;
  if (batch <= d.reservedBatch) return;
  const DeviceWideScope growing;  // no other thread's capture while the device is waited for
  requireScratchFits("batched AMBER-GB on cuda", batch, d.bytesPerStructure(),
                     d.scratch.bytes() + d.tickets.bytes());
  d.scratch = DeviceBuffer<double>();  // free first: old and new need not fit together
  d.tickets = DeviceBuffer<unsigned>();
  d.reservedBatch = 0;
  d.scratch = DeviceBuffer<double>(batch * static_cast<std::size_t>(d.scratchLayout.stride));
  d.tickets = DeviceBuffer<unsigned>(batch * static_cast<std::size_t>(d.scratchLayout.tickets));
  d.tickets.zero();
  synchronizeDevice();  // zero before any stream's next launch
  // The graphs point at the old arenas.
  d.dropGraphs();
  bindGbScratch(d.args, d.scratchLayout, d.scratch.data(), d.tickets.data());
  d.reservedBatch = batch;
}

void BatchedAmberGbCuda::energyGradientDevice(std::size_t batch, const double* d_x, double* d_g,
                                              double* d_energy, const std::uint8_t* d_active,
                                              DeviceStream stream) {
  requireArrays(batch, d_x, d_g, d_energy, "device entry point");
  reserve(batch);
  GbEvalArgs a = m_device->args;
  a.batch.d_active = d_active;
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_total = d_energy;
  a.bonded.d_x = d_x;
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  const bool isDouble = m_precision == Precision::Double;
  DeviceState& d = *m_device;
  if (d.useGraphs && batch <= static_cast<std::size_t>(kGbMaxGridY) && !streamCapturing(s)) {
    const LaunchKey key{d_x, d_g, d_energy, d_active, batch};
    const cudaGraphExec_t exec = isDouble ? d.graphFor<double>(key, a) : d.graphFor<float>(key, a);
    if (exec) {
      LANDSCAPE_CUDA_CHECK(cudaGraphLaunch(exec, s));
      return;
    }
  }
  if (isDouble)
    launchGbEnergyGradient<double>(a, batch, s, d.programmatic);
  else
    launchGbEnergyGradient<float>(a, batch, s, d.programmatic);
}

void BatchedAmberGbCuda::setProgrammaticLaunches(bool on) {
  DeviceState& d = *m_device;
  const bool next = on && d.programmaticSupported;
  if (next != d.programmatic) d.dropGraphs();  // captured with the other launch kind
  d.programmatic = next;
}

bool BatchedAmberGbCuda::programmaticLaunches() const { return m_device->programmatic; }

void BatchedAmberGbCuda::setGraphLaunches(bool on) {
  m_device->useGraphs = on;
  if (!on) m_device->dropGraphs();
}

bool BatchedAmberGbCuda::graphLaunches() const { return m_device->useGraphs; }

std::size_t BatchedAmberGbCuda::graphsCaptured() const { return m_device->graphsCaptured; }

// Through gpu/BatchedHostStaging: page-locked copies of the active rows, one wait per call.
BatchedPotential::HostArrays BatchedAmberGbCuda::hostArrays(std::size_t batch) {
  return m_device->staging.arrays(batch, dimension());
}

void BatchedAmberGbCuda::preferOnDevice() { m_device->staging.preferOnDevice(); }

void BatchedAmberGbCuda::energyGradient(std::size_t batch, const double* x, double* g,
                                        double* energy, const std::uint8_t* active) {
  requireArrays(batch, x, g, energy, "host entry point");
  m_device->staging.run(*this, batch, x, g, energy, active);
}

AmberEnergyBreakdown BatchedAmberGbCuda::breakdown(std::size_t b) const {
  const DeviceState& d = *m_device;
  if (b >= d.reservedBatch)
    throw std::out_of_range("batched AMBER-GB on cuda: structure " + std::to_string(b) +
                            " is beyond the " + std::to_string(d.reservedBatch) + " reserved");
  // On the legacy stream, then a wait for it: ordered after (and reporting faults of) every
  // evaluation enqueued on blocking streams, as a cudaMemcpy would be.
  double* e = d.hostComponents.data();
  LANDSCAPE_CUDA_CHECK(
      cudaMemcpyAsync(e,
                      d.scratch.data() + b * static_cast<std::size_t>(d.scratchLayout.stride) +
                          static_cast<std::size_t>(d.scratchLayout.components),
                      8 * sizeof(double), cudaMemcpyDeviceToHost, cudaStreamLegacy));
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  return AmberEnergyBreakdown{e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]};
}

std::vector<double> BatchedAmberGbCuda::bornRadii(std::size_t b) const {
  const DeviceState& d = *m_device;
  if (b >= d.reservedBatch)
    throw std::out_of_range("batched AMBER-GB on cuda: structure " + std::to_string(b) +
                            " is beyond the " + std::to_string(d.reservedBatch) + " reserved");
  std::vector<double> born(m_atoms);
  LANDSCAPE_CUDA_CHECK(cudaMemcpy(born.data(),
                                  d.scratch.data() +
                                      b * static_cast<std::size_t>(d.scratchLayout.stride) +
                                      static_cast<std::size_t>(d.scratchLayout.born),
                                  m_atoms * sizeof(double), cudaMemcpyDeviceToHost));
  return born;
}

}  // namespace landscape
