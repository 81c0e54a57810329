#include <algorithm>
#include <climits>
#include <stdexcept>
#include <vector>

#include "gpu/BatchedLbfgsRoundsCuda.h"
#include "gpu/BatchedLbfgsRoundsKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/DeviceMemoryPlan.h"
#include "gpu/DeviceWideSync.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/StopRequest.h"
#include "landscape/minimisation/BatchedTeamPlan.h"
#include "landscape/minimisation/LbfgsDiagonalMetric.h"
#include "landscape/minimisation/LbfgsRoundsCompactTerms.h"

namespace landscape {

struct BatchedLbfgsRoundsCuda::DeviceState {
  DeviceState(BatchedPotential& p, const LbfgsParams& lp, const BatchedRoundsOptions& o)
      : potential(p), params(lp), options(o), n(p.dimension()) {
    params.check();
    options.check();
    if (!potential.isDeviceResident())
      throw std::invalid_argument("batched L-BFGS rounds on cuda: the potential '" +
                                  potential.name() + "' has no device entry point");
    if (n == 0 || n > static_cast<std::size_t>(INT_MAX))
      throw std::invalid_argument("batched L-BFGS rounds on cuda: the dimension must be in [1, " +
                                  std::to_string(INT_MAX) + "]");
    if (!gpuAvailable())
      throw std::runtime_error("batched L-BFGS rounds on cuda: no CUDA device (" +
                               gpuDescription() + ")");
    threads = resolveRoundsTeamThreads(options.threadsPerStructure, n);
    std::vector<double> w;
    if (params.useDiagonalMetric && potential.diagonalMetric(w)) {
      const LbfgsDiagonalMetric metric = lbfgsDiagonalMetric(w, n, potential.name());
      sqrtW = DeviceBuffer<double>(std::vector<double>(metric.sqrtW.data(),
                                                       metric.sqrtW.data() + n));
      invSqrtW = DeviceBuffer<double>(std::vector<double>(metric.invSqrtW.data(),
                                                          metric.invSqrtW.data() + n));
    }
    gradientMetric = potential.hasGradientMetric();
    compact = roundsCompactDirections(options, n, params.historySize, sqrtW.size() > 0);
    stream = CudaStream::create(cudaStreamNonBlocking);
    for (CudaEvent& e : polled) e = CudaEvent::create(cudaEventDisableTiming);
    entry = CudaEvent::create(cudaEventDisableTiming);
    packable = options.packFactor >= 2 && potential.rowsMayMove();
    hostCount = PinnedBuffer<int>(3, cudaHostAllocMapped);
    deviceCount = hostCount.devicePointer();
    queue = DeviceBuffer<unsigned int>(1);
    job = DeviceBuffer<BatchedRoundsJob>(1);
  }

  ~DeviceState() {
    // Destructors must not throw: errors here mean the context is already gone.
    for (const auto& graph : graphs) (void)cudaGraphExecDestroy(graph.second);
  }

  // A slot's bytes, with its RMS gradient under a gradient metric (the diagonal metric's scales
  // are held from the constructor on).
  std::size_t slotBytes() const {
    return roundsSlotBytes(n, params.historySize, compact) + (gradientMetric ? sizeof(double) : 0);
  }

  // The rows of the slot arrays, each with its bytes per slot.
  std::vector<std::pair<void*, std::size_t>> slotRows() {
    const std::size_t m = static_cast<std::size_t>(params.historySize);
    std::vector<std::pair<void*, std::size_t>> rows;
    for (DeviceBuffer<double>* b : {&x, &g, &xt, &gt, &p}) rows.push_back({b->data(), n * 8});
    for (DeviceBuffer<double>* b : {&s, &y}) rows.push_back({b->data(), m * n * 8});
    for (DeviceBuffer<double>* b : {&rho, &alpha}) rows.push_back({b->data(), m * 8});
    rows.push_back({energy.data(), 8});
    rows.push_back({active.data(), 1});
    rows.push_back({state.data(), sizeof(LbfgsRoundsState)});
    if (compact) {
      rows.push_back({compactStore.data(), 8 * static_cast<std::size_t>(lbfgsCompactSlotDoubles(
                                                   static_cast<int>(n), params.historySize))});
      rows.push_back({pending.data(), 1});
    }
    if (gradientMetric) rows.push_back({rms.data(), 8});
    return rows;
  }

  // Packing's scratch per slot: a packed batch holds at most 1/packFactor of the rows, each
  // gathered there one array at a time.
  std::size_t packBytesPerSlot() const {
    return packable ? roundsPackBytes(n, params.historySize, compact, options.packFactor) : 0;
  }

  std::size_t heldBytes() const {
    std::size_t bytes = ioX.bytes() + ioOutcomes.bytes() + state.bytes() + active.bytes() +
                        compactStore.bytes() + pending.bytes() + rms.bytes() + packMap.bytes() +
                        packScratch.bytes();
    for (const DeviceBuffer<double>* b : {&x, &g, &xt, &gt, &p, &s, &y, &rho, &alpha, &energy})
      bytes += b->bytes();
    return bytes;
  }

  // Slot arrays for exactly `count` slots, all in use (the graphs captured for other pointers are
  // dropped).
  void reserveSlots(std::size_t count) {
    slots = count;
    if (count == capacity) return;
    dropGraphs();
    packMap = DeviceBuffer<int>();
    packScratch = DeviceBuffer<unsigned char>();
    const std::size_t m = static_cast<std::size_t>(params.historySize);
    for (DeviceBuffer<double>* b : {&x, &g, &xt, &gt, &p, &s, &y, &rho, &alpha, &energy})
      *b = DeviceBuffer<double>();  // free before allocating the new set
    state = DeviceBuffer<LbfgsRoundsState>();
    active = DeviceBuffer<std::uint8_t>();
    compactStore = DeviceBuffer<double>();
    pending = DeviceBuffer<std::uint8_t>();
    rms = DeviceBuffer<double>();
    for (DeviceBuffer<double>* b : {&x, &g, &xt, &gt, &p}) *b = DeviceBuffer<double>(count * n);
    s = DeviceBuffer<double>(count * m * n);
    y = DeviceBuffer<double>(count * m * n);
    rho = DeviceBuffer<double>(count * m);
    alpha = DeviceBuffer<double>(count * m);
    energy = DeviceBuffer<double>(count);
    active = DeviceBuffer<std::uint8_t>(count);
    state = DeviceBuffer<LbfgsRoundsState>(count);
    if (compact) {
      compactStore = DeviceBuffer<double>(count * static_cast<std::size_t>(lbfgsCompactSlotDoubles(
                                                      static_cast<int>(n), params.historySize)));
      pending = DeviceBuffer<std::uint8_t>(count);
      compactStore.zero(stream);
      pending.zero(stream);
    }
    if (gradientMetric) {
      rms = DeviceBuffer<double>(count);
      rms.zero(stream);
    }
    // Defined contents everywhere: rows of idle slots are handed to the potential (masked out).
    for (DeviceBuffer<double>* b : {&x, &g, &xt, &gt, &p, &s, &y, &rho, &alpha, &energy})
      b->zero(stream);
    // The potential's own per-structure arrays before any capture: grown inside one, its
    // allocation would fail the capture (or be captured).
    potential.reserve(count);
    capacity = count;
  }

  BatchedRoundsArgs args() {
    BatchedRoundsArgs a;
    a.slots = {x.data(),      g.data(),     xt.data(),  gt.data(),    p.data(),
               s.data(),      y.data(),     rho.data(), alpha.data(), energy.data(),
               active.data(), state.data(), slots};
    a.d_job = job.data();
    a.d_queue = queue.data();
    a.settings = lbfgsTeamSettings(params, n);
    a.threads = threads;
    if (compact) {
      a.compact = compactStore.data();
      a.pending = pending.data();
    }
    if (sqrtW.size() > 0) {
      a.metric.sqrtW = sqrtW.data();
      a.metric.invSqrtW = invSqrtW.data();
    }
    a.metric.gradientMetric = gradientMetric;
    if (gradientMetric) a.rms = rms.data();
    return a;
  }

  void dropGraphs() {
    for (const auto& graph : graphs) LANDSCAPE_CUDA_CHECK(cudaGraphExecDestroy(graph.second));
    graphs.clear();
  }

  // The graph of the rounds over the first `slots` rows: captured at its first use, kept while
  // the arrays are (a packed batch uses a few row counts, the same at every call of one batch).
  cudaGraphExec_t graphForSlots() {
    for (const auto& graph : graphs)
      if (graph.first == slots) return graph.second;
    cudaGraphExec_t exec = captureGraph();
    if (exec) graphs.push_back({slots, exec});
    return exec;
  }

  // Packs the structures still minimising into the first rows (BatchedRoundsOptions::packFactor),
  // after the rounds in flight. False when none is left.
  bool pack() {
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
    packMap.reserve(capacity);
    launchBatchedRoundsPackMap(state.data(), slots, packMap.data(), deviceCount + 2, stream);
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::size_t live =
        static_cast<std::size_t>(*static_cast<volatile int*>(hostCount.data() + 2));
    if (live == 0) return false;
    const std::size_t rows = roundsPackedSlots(slots, live, options.packFactor);
    if (rows == slots) return true;
    const std::vector<std::pair<void*, std::size_t>> arrays = slotRows();
    std::size_t widest = 0;
    for (const auto& a : arrays) widest = std::max(widest, a.second);
    if (packScratch.size() < live * widest)
      packScratch = DeviceBuffer<unsigned char>(capacity / options.packFactor * widest);
    for (const auto& a : arrays) {
      launchBatchedRoundsGatherRows(a.first, packScratch.data(), packMap.data(), live, a.second,
                                    stream);
      LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(a.first, packScratch.data(), live * a.second,
                                           cudaMemcpyDeviceToDevice, stream));
    }
    launchBatchedRoundsIdleRows(state.data(), active.data(), compact ? pending.data() : nullptr,
                                live, rows, stream);
    slots = rows;
    ++stats.packs;
    return true;
  }

  // The rounds between two polls, enqueued one by one.
  void enqueueRounds() {
    const BatchedRoundsArgs a = args();
    for (int k = 0; k < options.roundsPerPoll; ++k) {
      potential.energyGradientDevice(slots, xt.data(), gt.data(), energy.data(), active.data(),
                                     stream);
      if (gradientMetric)
        potential.rmsGradientsDevice(slots, xt.data(), gt.data(), rms.data(), active.data(),
                                     stream);
      launchBatchedRoundsAdvance(a, stream);
      if (compact) launchBatchedRoundsCompactDirection(a, stream);
    }
  }

  // Captures enqueueRounds() into a graph; null (and plain launches from then on) when the
  // potential cannot be captured.
  cudaGraphExec_t captureGraph() {
    bool enqueued = true;
    cudaGraph_t graph = nullptr;
    cudaError_t ended = cudaSuccess;
    {
      const StreamCaptureScope capturing;  // other threads' device-wide waits wait for its end
      LANDSCAPE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
      try {
        enqueueRounds();
      } catch (const std::exception&) {
        enqueued = false;
      }
      ended = cudaStreamEndCapture(stream, &graph);
    }
    cudaGraphExec_t exec = nullptr;
    bool ok = enqueued && ended == cudaSuccess && graph != nullptr;
    if (ok) ok = cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess;
    if (graph) (void)cudaGraphDestroy(graph);
    if (!ok) {
      (void)cudaGetLastError();  // a failed capture leaves a non-sticky error behind
      exec = nullptr;
      graphFailed = true;
    }
    return exec;
  }

  void runChunk(int parity) {
    cudaGraphExec_t exec = options.useGraph && !graphFailed ? graphForSlots() : nullptr;
    if (exec) {
      LANDSCAPE_CUDA_CHECK(cudaGraphLaunch(exec, stream));
      stats.graph = true;
    } else {
      enqueueRounds();
    }
    stats.rounds += options.roundsPerPoll;
    launchBatchedRoundsCount(active.data(), slots, deviceCount + parity, stream);
    LANDSCAPE_CUDA_CHECK(cudaEventRecord(polled[parity], stream));
  }

  void stopAll(std::size_t batch) {
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
    unsigned int taken = 0;
    LANDSCAPE_CUDA_CHECK(cudaMemcpy(&taken, queue.data(), sizeof taken, cudaMemcpyDeviceToHost));
    launchBatchedRoundsStop(args(), std::min<std::size_t>(taken, batch), batch, stream);
  }

  BatchedPotential& potential;
  LbfgsParams params;
  BatchedRoundsOptions options;
  std::size_t n;
  int threads = 32;
  bool compact = false;  // directions in the compact form (roundsCompactDirections)
  bool gradientMetric = false;          // the potential's RMS gradients (rmsGradientsDevice)
  bool packable = false;                // packFactor set and the potential's rows may move
  DeviceBuffer<double> sqrtW, invSqrtW;  // [n] the diagonal metric's scales, or empty
  DeviceBuffer<double> rms;              // [slots] RMS gradients (gradient metric only)
  CudaStream stream;
  CudaEvent polled[2];
  CudaEvent entry;
  PinnedBuffer<int> hostCount;  // mapped: [0], [1] alternate polls' active counts; [2] pack's live
  PinnedBuffer<double> hostX;   // hostBatch's array
  std::size_t hostXSize = 0;
  int* deviceCount = nullptr;   // its device address
  std::size_t capacity = 0;     // rows of the slot arrays
  std::size_t slots = 0;        // rows in use: all, or fewer once packed
  DeviceBuffer<double> x, g, xt, gt, p, s, y, rho, alpha, energy;
  DeviceBuffer<std::uint8_t> active;
  DeviceBuffer<LbfgsRoundsState> state;
  DeviceBuffer<double> compactStore;   // [slots x lbfgsCompactSlotDoubles] (compact only)
  DeviceBuffer<std::uint8_t> pending;  // [slots] (compact only)
  DeviceBuffer<unsigned int> queue;
  DeviceBuffer<BatchedRoundsJob> job;
  BatchedRoundsJob hostJob{};  // source of the asynchronous copy into `job`
  DeviceBuffer<double> ioX;    // staging of the host entry point
  DeviceBuffer<LbfgsResult> ioOutcomes;
  DeviceBuffer<int> packMap;                                    // [capacity] packing's source rows
  DeviceBuffer<unsigned char> packScratch;                      // one array's packed rows
  std::vector<std::pair<std::size_t, cudaGraphExec_t>> graphs;  // by the rows in use
  bool graphFailed = false;
  BatchedRoundsStats stats;
};

BatchedLbfgsRoundsCuda::BatchedLbfgsRoundsCuda(BatchedPotential& potential,
                                               const LbfgsParams& params,
                                               const BatchedRoundsOptions& options)
    : m_state(std::make_unique<DeviceState>(potential, params, options)) {}

BatchedLbfgsRoundsCuda::~BatchedLbfgsRoundsCuda() = default;

std::string BatchedLbfgsRoundsCuda::name() const {
  const DeviceState& st = *m_state;
  return "batched L-BFGS rounds (cuda: " + std::to_string(st.threads) + " threads per structure, " +
         (st.compact ? "compact directions, " : "") + std::to_string(st.options.roundsPerPoll) +
         " rounds per poll, " +
         (st.options.residentStructures
              ? std::to_string(st.options.residentStructures) + " resident"
              : std::string("the whole batch resident")) +
         ") on " + st.potential.name();
}

std::size_t BatchedLbfgsRoundsCuda::dimension() const { return m_state->n; }
const LbfgsParams& BatchedLbfgsRoundsCuda::params() const { return m_state->params; }
int BatchedLbfgsRoundsCuda::teamThreads() const { return m_state->threads; }
const BatchedRoundsOptions& BatchedLbfgsRoundsCuda::options() const { return m_state->options; }
const BatchedRoundsStats& BatchedLbfgsRoundsCuda::lastStats() const { return m_state->stats; }

BatchMemory BatchedLbfgsRoundsCuda::memory() const {
  const DeviceState& st = *m_state;
  std::size_t freeBytes = 0, totalBytes = 0;
  LANDSCAPE_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  BatchMemory memory;
  const std::size_t resident = st.options.residentStructures;
  const std::size_t perSlot = st.slotBytes() + st.packBytesPerSlot();
  memory.bytesPerStructure = roundsStructureBytes(st.n) + (resident ? 0 : perSlot);
  memory.fixedBytes = kDeviceHeadroomBytes + resident * perSlot;
  memory.availableBytes = freeBytes + st.heldBytes();
  memory.where = "device memory";
  return memory;
}

void BatchedLbfgsRoundsCuda::minimiseDevice(std::size_t batch, double* d_x,
                                            LbfgsResult* d_outcomes, DeviceStream stream) {
  if (batch == 0) return;
  if (!d_x || !d_outcomes)
    throw std::invalid_argument("batched L-BFGS rounds on cuda: d_x and d_outcomes must be set");
  if (batch > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("batched L-BFGS rounds on cuda: at most " +
                                std::to_string(INT_MAX) + " structures per batch, got " +
                                std::to_string(batch));
  DeviceState& st = *m_state;
  const std::size_t slots =
      st.options.residentStructures ? std::min(st.options.residentStructures, batch) : batch;
  st.stats = BatchedRoundsStats{};
  // After the caller's work on its stream.
  LANDSCAPE_CUDA_CHECK(cudaEventRecord(st.entry, static_cast<cudaStream_t>(stream)));
  LANDSCAPE_CUDA_CHECK(cudaStreamWaitEvent(st.stream, st.entry, 0));
  st.reserveSlots(slots);
  st.hostJob = {d_x, d_outcomes, static_cast<unsigned long long>(batch)};
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(st.job.data(), &st.hostJob, sizeof st.hostJob,
                                       cudaMemcpyHostToDevice, st.stream));
  st.state.zero(st.stream);  // every slot kRoundsEmpty
  st.queue.zero(st.stream);
  launchBatchedRoundsAdvance(st.args(), st.stream);  // every slot takes its first structure
  // Two polls in flight: the host reads one count while the next chunk of rounds runs.
  st.runChunk(0);
  st.runChunk(1);
  for (long i = 0;; ++i) {
    const int parity = static_cast<int>(i & 1);
    LANDSCAPE_CUDA_CHECK(cudaEventSynchronize(st.polled[parity]));
    ++st.stats.polls;
    const int stillActive = *static_cast<volatile int*>(st.hostCount.data() + parity);
    if (stillActive == 0) break;
    if (stopRequested()) {
      st.stopAll(batch);
      break;
    }
    // Fewer than slots/packFactor minimising: the queue is empty (a slot idles only then).
    if (st.packable &&
        roundsPackedSlots(st.slots, static_cast<std::size_t>(stillActive), st.options.packFactor) <
            st.slots &&
        !st.pack())
      break;
    st.runChunk(parity);
  }
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(st.stream));
  st.stats.lastSlots = st.slots;
}

double* BatchedLbfgsRoundsCuda::hostBatch(std::size_t batch) {
  DeviceState& st = *m_state;
  if (st.hostXSize < batch * st.n) {
    st.hostX = PinnedBuffer<double>();  // free first: old and new need not fit together
    st.hostX = PinnedBuffer<double>(batch * st.n);
    st.hostXSize = batch * st.n;
  }
  return st.hostX.data();
}

void BatchedLbfgsRoundsCuda::minimise(std::size_t batch, double* x, LbfgsResult* results) {
  requireBatchFits(batch, memory());
  if (batch == 0) return;
  DeviceState& st = *m_state;
  const std::size_t n = st.n;
  if (st.ioOutcomes.size() < batch) {
    st.ioX = DeviceBuffer<double>();
    st.ioOutcomes = DeviceBuffer<LbfgsResult>();
    st.ioX = DeviceBuffer<double>(batch * n);
    st.ioOutcomes = DeviceBuffer<LbfgsResult>(batch);
  }
  st.ioX.copyFromHost(x, batch * n);
  minimiseDevice(batch, st.ioX.data(), st.ioOutcomes.data(), nullptr);
  std::vector<LbfgsResult> outcomes(batch);
  st.ioOutcomes.copyToHost(outcomes.data(), batch);
  st.ioX.copyToHost(x, batch * n);
  std::copy(outcomes.begin(), outcomes.end(), results);
}

}  // namespace landscape
