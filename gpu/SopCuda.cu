#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/DeviceWideSync.h"
#include "gpu/ProgrammaticLaunch.cuh"
#include "gpu/RandomStreamsCuda.h"
#include "gpu/SopCuda.h"
#include "gpu/SopDeviceTopology.cuh"
#include "gpu/SopDynamicsCuda.h"
#include "gpu/SopKernels.cuh"
#include "potentials/Sop.h"

namespace landscape {

namespace {

/// Neighbour-list capacity: 1.5 x the largest row at the start structure plus 16, at most N - 1.
int neighbourCapacity(const SopTopology& topology, const std::vector<double>& x, double radius) {
  Sop sop(topology);
  std::vector<int> count(topology.beadCount(), 0);
  for (const auto& [i, j] : sop.repulsivePairs(x.data(), radius)) {
    ++count[i];
    ++count[j];
  }
  const int largest = count.empty() ? 0 : *std::max_element(count.begin(), count.end());
  const int n = static_cast<int>(topology.beadCount());
  return std::max(1, std::min(n - 1, largest + largest / 2 + 16));
}

/// Topology and neighbour-list storage of `replicas` copies of one SOP system (SopKernels.cuh).
template <class R>
struct SopDeviceSystem {
  SopDeviceSystem(const SopTopology& t, int replicas, double skin, int capacity,
                  const std::vector<unsigned char>& fixedBeads)
      : topology(t, fixedBeads),
        n(static_cast<int>(t.beadCount())),
        replicas(replicas),
        total(static_cast<std::size_t>(t.beadCount()) * replicas),
        params(t.params),
        skin(skin),
        maxNeighbours(capacity),
        maxCells(4 * static_cast<int>(t.beadCount()) + 64) {
    shortIndices = n <= 65536;
    const std::size_t indexBytes = shortIndices ? 2 : 4;
    // Whole chunks per bead (sopListSlot), so a lane's two-entry load never leaves the buffer.
    neighbour = DeviceBuffer<std::uint32_t>(
        (total * static_cast<std::size_t>(sopListCapacity(maxNeighbours)) * indexBytes + 7) / 8 *
        2);
    neighbourCount = DeviceBuffer<int>(total);
    neighbourCount.zero();
    posAtBuild = DeviceBuffer<SopPos4<R>>(total);
    grid = DeviceBuffer<SopCellGrid<R>>(replicas);
    cellStart = DeviceBuffer<int>(static_cast<std::size_t>(replicas) * (maxCells + 1));
    cellBeads = DeviceBuffer<int>(total);
    beadCell = DeviceBuffer<int>(total);
    cellFill = DeviceBuffer<int>(static_cast<std::size_t>(replicas) * maxCells);
    status = DeviceBuffer<int>(3);
    status.zero();
    for (auto& f : flags) {
      f = DeviceBuffer<int>(replicas);
      f.zero();
    }
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  SopTopologyView<R> topologyView() const { return topology.view(); }

  SopListView<R> listView() {
    SopListView<R> v;
    v.replicas = replicas;
    v.maxNeighbours = maxNeighbours;
    const double radius = params.repulsiveCutoff + skin;
    v.listRadius2 = static_cast<R>(radius * radius);
    v.halfSkin2 = static_cast<R>(0.25 * skin * skin);
    v.d_neighbour = neighbour.data();
    v.shortIndices = shortIndices;
    v.d_neighbourCount = neighbourCount.data();
    v.d_posAtBuild = posAtBuild.data();
    v.maxCells = maxCells;
    v.d_grid = grid.data();
    v.d_cellStart = cellStart.data();
    v.d_cellBeads = cellBeads.data();
    v.d_beadCell = beadCell.data();
    v.d_cellFill = cellFill.data();
    v.d_status = status.data();
    return v;
  }

  /// Waits for the device and throws on a neighbour-list overflow or blown-up coordinates.
  void checkStatus(const std::string& who) {
    int s[3];
    status.copyToHost(s, 3);
    rebuildCount = s[2];
    if (s[0] != 0 || s[1] != 0) {  // report once; a later call starts clean
      const int cleared[3] = {0, 0, s[2]};
      status.copyFromHost(cleared, 3);
    }
    if (s[1] != 0)
      throw std::runtime_error(who +
                               ": non-finite coordinates; the dynamics blew up (time step "
                               "too long for the forces?)");
    if (s[0] > 0)
      throw std::runtime_error(who + ": neighbour-list overflow: a bead has " +
                               std::to_string(s[0]) + " partners within " +
                               std::to_string(params.repulsiveCutoff + skin) +
                               " A but the capacity is " + std::to_string(maxNeighbours) +
                               "; raise maxNeighbours (--sop-max-neighbours)");
  }

  SopDeviceTopology<R> topology;
  int n, replicas;
  std::size_t total;
  SopParams params;
  double skin;
  int maxNeighbours, maxCells;
  long rebuildCount = 0;
  bool shortIndices = false;
  DeviceBuffer<std::uint32_t> neighbour;  // the Verlet list as 16- or 32-bit indices
  DeviceBuffer<int> neighbourCount;
  DeviceBuffer<SopPos4<R>> posAtBuild;
  DeviceBuffer<SopCellGrid<R>> grid;
  DeviceBuffer<int> cellStart, cellBeads, beadCell, cellFill, status;
  DeviceBuffer<int> flags[2];
};

}  // namespace

// ---- the potential -----------------------------------------------------------------------------

struct SopCuda::DeviceState {
  DeviceState(const SopTopology& t, double skin)
      : topology(t),
        system(t, 1, skin,
               neighbourCapacity(t, t.nativeCoordinates(), t.params.repulsiveCutoff + skin), {}),
        pos(t.beadCount()),
        x(3 * t.beadCount()),
        g(3 * t.beadCount()),
        beadEnergy(3 * t.beadCount()),
        energy(3) {}

  /// Evaluates at device coordinates d_x; the gradient goes to d_g (may be null: into scratch).
  double evaluate(const double* d_x, double* d_g) {
    const int n = system.n;
    SopCellArgs<double> cells;
    cells.list = system.listView();
    cells.beads = n;
    cells.d_pos = pos.data();
    SopStepArgs<double> step;
    step.topology = system.topologyView();
    step.list = cells.list;
    step.d_posIn = pos.data();
    step.integrate = false;
    step.d_gradient = d_g != nullptr ? d_g : g.data();
    step.d_beadEnergy = beadEnergy.data();
    if (!built) {
      launchSopPack<double>(d_x, n, pos.data(), nullptr, 0.0, nullptr, nullptr);
      launchSopCells(cells, nullptr);
      step.rebuildMode = 1;
      built = true;
    } else {
      int* flag = system.flags[0].data();
      launchSopPack<double>(d_x, n, pos.data(), system.posAtBuild.data(), step.list.halfSkin2, flag,
                            nullptr);
      cells.conditional = true;
      cells.d_rebuildFlag = flag;
      launchSopCells(cells, nullptr);
      step.rebuildMode = 2;
      step.d_rebuildNow = flag;
    }
    launchSopStep(step, nullptr);
    system.flags[0].zero();
    launchSopEnergySum(beadEnergy.data(), n, 1, energy.data(), nullptr);
    energy.copyToHost(components, 3);
    system.checkStatus("SopCuda");
    return components[0] + components[1] + components[2];
  }

  SopTopology topology;
  SopDeviceSystem<double> system;
  DeviceBuffer<SopPos4<double>> pos;
  DeviceBuffer<double> x, g, beadEnergy, energy;
  double components[3] = {0, 0, 0};
  bool built = false;
};

SopCuda::SopCuda(const SopTopology& topology, double skin) {
  topology.params.check();
  if (topology.beadCount() < 2)
    throw std::invalid_argument("SopCuda: the topology needs at least 2 beads");
  if (!(std::isfinite(skin) && skin > 0))
    throw std::invalid_argument("SopCuda: the neighbour-list skin (A) must be > 0");
  m_state = std::make_unique<DeviceState>(topology, skin);
}

SopCuda::~SopCuda() = default;

std::size_t SopCuda::dimension() const { return 3 * m_state->topology.beadCount(); }

std::string SopCuda::name() const {
  const SopTopology& t = m_state->topology;
  return "SOP " + std::to_string(t.beadCount()) + " beads, " + std::to_string(t.chainCount()) +
         " chains, " + std::to_string(t.contacts.size()) + " native contacts (cuda)";
}

double SopCuda::energy(const double* x) {
  m_state->x.copyFromHost(x, dimension());
  return m_state->evaluate(m_state->x.data(), nullptr);
}

double SopCuda::energyGradient(const double* x, double* g) {
  m_state->x.copyFromHost(x, dimension());
  const double e = m_state->evaluate(m_state->x.data(), m_state->g.data());
  m_state->g.copyToHost(g, dimension());
  return e;
}

std::vector<EnergyComponent> SopCuda::energyComponents(const double* x) {
  energy(x);
  const double* c = m_state->components;
  return {{"FENE", c[0]}, {"NATIVE", c[1]}, {"REPULSIVE", c[2]}};
}

bool SopCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  energy(x);
  // The kernel stores half of every pair term under each of its beads, per component.
  const std::size_t n = m_state->topology.beadCount();
  const std::vector<double> halves = m_state->beadEnergy.toHost();
  for (std::size_t i = 0; i < n; ++i)
    atomEnergies[i] = 2.0 * (halves[i] + halves[n + i] + halves[2 * n + i]);
  return true;
}

double SopCuda::energyGradientDevice(const double* d_x, double* d_g) {
  if (d_x == nullptr || d_g == nullptr)
    throw std::invalid_argument(name() +
                                ": energyGradientDevice needs device pointers d_x and d_g");
  return m_state->evaluate(d_x, d_g);
}

long SopCuda::rebuilds() const { return m_state->system.rebuildCount; }

// ---- the dynamics ------------------------------------------------------------------------------

struct SopDynamicsCuda::Impl {
  virtual ~Impl() = default;
  virtual void run(long steps) = 0;
  virtual std::vector<double> positions(int replica) = 0;
  virtual double tipPosition(int replica) = 0;
  virtual long rebuilds() = 0;
  virtual int maxNeighbours() const = 0;
  virtual SopDynamicsState saveState() = 0;
  virtual void restoreState(const SopDynamicsState& state) = 0;
  SopDynamicsParams params;
  SopProtocol protocol;
  std::size_t beads = 0;
  long steps = 0;
};

namespace {

struct CapturedGraph {
  CapturedGraph() = default;
  ~CapturedGraph() {
    if (exec != nullptr) (void)cudaGraphExecDestroy(exec);
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};

template <class R>
struct SopDynamicsImpl : SopDynamicsCuda::Impl {
  SopDynamicsImpl(const SopTopology& t, const std::vector<double>& start,
                  const SopDynamicsParams& p, const SopProtocol& prot)
      : system(t, p.replicas, p.skin,
               p.maxNeighbours > 0 ? p.maxNeighbours
                                   : neighbourCapacity(t, start, t.params.repulsiveCutoff + p.skin),
               prot.fixed),
        streams(p.langevin.generator, p.langevin.seed, system.total),
        blocksPerReplica(sopStepBlocksPerReplica(system.n)) {
    params = p;
    protocol = prot;
    beads = t.beadCount();
    std::vector<SopPos4<R>> host(system.total);
    for (int r = 0; r < p.replicas; ++r)
      for (int i = 0; i < system.n; ++i)
        host[static_cast<std::size_t>(r) * system.n + i] = {static_cast<R>(start[3 * i]),
                                                            static_cast<R>(start[3 * i + 1]),
                                                            static_cast<R>(start[3 * i + 2]), R(0)};
    for (auto& b : pos) b = DeviceBuffer<SopPos4<R>>(host);
    tip = DeviceBuffer<double>(p.replicas);
    tip.zero();
    tipPartial = DeviceBuffer<double>(static_cast<std::size_t>(p.replicas) * blocksPerReplica);
    tipDone = DeviceBuffer<unsigned int>(p.replicas);
    tipDone.zero();
    stepCounter = DeviceBuffer<unsigned long long>(2);  // by the parity of `current`
    stepCounter.zero();
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  SopExternalView<R> external() {
    SopExternalView<R> e;
    const SopProtocol& p = protocol;
    if (p.pulling) {
      e.pulledBead = p.pulledBead;
      e.pullSpringK = static_cast<R>(p.pullSpringK);
      for (int c = 0; c < 3; ++c) {
        e.pullAnchor0[c] = p.pullAnchor0[c];
        e.pullDirection[c] = p.pullDirection[c];
      }
      e.pullSpeed = p.pullSpeed;
    }
    if (p.indentation) {
      e.indentation = true;
      for (int c = 0; c < 3; ++c) {
        e.tipDirection[c] = static_cast<R>(p.tipDirection[c]);
        e.tipOrigin[c] = static_cast<R>(p.tipOrigin[c]);
      }
      e.tipRadius = static_cast<R>(p.tipRadius);
      e.tipMinGap = static_cast<R>(p.tipMinGap);
      e.tipRepulsion = makeSopRepulsion<R>(p.tipEpsilon, p.tipSigma, p.tipCutoff);
      e.tipSpringK = p.tipSpringK;
      e.tipSpeed = p.tipSpeed;
      e.tipMobility = p.tipMobility;
    }
    // Always set: the step kernel's last-block bookkeeping uses them.
    e.d_tip = tip.data();
    e.d_tipPartial = tipPartial.data();
    e.d_tipDone = tipDone.data();
    return e;
  }

  /// The step-invariant arguments, built once (host time per launch).
  const SopStepArgs<R>* stepArgsTemplate() {
    if (!stepTemplate) {
      stepTemplate = std::make_unique<SopStepArgs<R>>();
      stepTemplate->topology = system.topologyView();
      stepTemplate->list = system.listView();
      stepTemplate->external = external();
      stepTemplate->integrate = true;
      stepTemplate->mobilityStep = static_cast<R>(params.langevin.mobilityStep());
      stepTemplate->noiseAmplitude = static_cast<R>(params.langevin.noiseAmplitude());
      stepTemplate->timeStep = params.langevin.timeStep;
      stepTemplate->programmatic =
          params.cudaProgrammaticLaunches && programmaticLaunchesSupported();
    }
    return stepTemplate.get();
  }

  /// Enqueues one step on `stream` and flips the buffer parities it uses; `forced` builds the cell
  /// list first and every row in the step. Host state other than the parities is not touched,
  /// so that graph capture can call it.
  void enqueueStep(cudaStream_t stream, bool forced, int& cur, int& flg) {
    const bool byDisplacement = params.rebuildInterval == 0;
    stepArgsTemplate();
    SopCellArgs<R> cells;
    cells.list = stepTemplate->list;
    cells.beads = system.n;
    SopStepArgs<R> step = *stepTemplate;
    step.streams = streams.view();
    step.d_step = stepCounter.data() + cur;  // s, written as s + 1 to the other counter
    step.d_stepNext = stepCounter.data() + (1 - cur);
    step.d_posIn = pos[cur].data();
    step.d_posOut = pos[1 - cur].data();
    if (forced) {
      cells.d_pos = pos[cur].data();
      launchSopCells(cells, stream);
      step.rebuildMode = 1;
    } else {
      step.rebuildMode = byDisplacement ? 2 : 0;
      if (byDisplacement) step.d_rebuildNow = system.flags[flg].data();
    }
    if (byDisplacement) step.d_rebuildNext = system.flags[1 - flg].data();
    launchSopStep(step, stream);
    if (byDisplacement) {
      // Builds the cells for the new positions if any bead asked for it; clears the flag that
      // this step read, which the next step writes.
      cells.d_pos = pos[1 - cur].data();
      cells.conditional = true;
      cells.d_rebuildFlag = system.flags[1 - flg].data();
      cells.d_clearFlag = system.flags[flg].data();
      launchSopCells(cells, stream);
      flg = 1 - flg;
    }
    cur = 1 - cur;
  }

  /// k steps as one persistent launch on the legacy default stream (fixed schedule, no rebuild
  /// due): the step counter of parity `current` is read, and the one the next plain step reads
  /// (parity current ^ (k & 1)) receives the step number after them.
  void enqueuePersistent(int k) {  // graphStream is blocking: ordered with this stream
    SopStepArgs<R> step = *stepArgsTemplate();
    step.streams = streams.view();
    step.d_step = stepCounter.data() + current;
    const int after = (k % 2 == 0) ? current : 1 - current;
    step.d_stepNext = stepCounter.data() + after;
    step.d_posIn = pos[current].data();
    step.d_posOut = pos[1 - current].data();
    step.rebuildMode = 0;
    launchSopPersistentSteps(step, k, nullptr);
    current = after;
  }

  /// The graph of params.cudaGraphSteps plain steps starting from parities (cur, flg), captured
  /// on first use. The step number and time come from the device counter, so one graph serves
  /// every repetition; an even step count brings the parities back to where they started.
  cudaGraphExec_t graphFor(int cur, int flg) {
    CapturedGraph& slot = graphs[2 * cur + flg];
    if (slot.exec != nullptr) return slot.exec;
    // A blocking stream (it orders itself with the legacy default stream the rest of the code
    // uses); streams cannot be captured from the legacy default stream.
    if (!graphStream) graphStream = CudaStream::create(cudaStreamDefault);
    {
      const StreamCaptureScope capturing;  // other threads' device-wide waits wait for its end
      LANDSCAPE_CUDA_CHECK(
          cudaStreamBeginCapture(graphStream.get(), cudaStreamCaptureModeThreadLocal));
      try {
        for (int k = 0; k < params.cudaGraphSteps; ++k)
          enqueueStep(graphStream.get(), false, cur, flg);
      } catch (...) {
        cudaGraph_t broken = nullptr;
        (void)cudaStreamEndCapture(graphStream.get(), &broken);
        if (broken != nullptr) (void)cudaGraphDestroy(broken);
        throw;
      }
      LANDSCAPE_CUDA_CHECK(cudaStreamEndCapture(graphStream.get(), &slot.graph));
    }
    LANDSCAPE_CUDA_CHECK(cudaGraphInstantiate(&slot.exec, slot.graph, 0));
    return slot.exec;
  }

  void run(long count) override {
    if (count < 0) throw std::invalid_argument("SOP dynamics run: steps must be >= 0");
    const bool byDisplacement = params.rebuildInterval == 0;
    // Graphs replay fixed launch arguments; Lagged Fibonacci moves its ring offset every step.
    const long graphSteps = params.langevin.generator == RngKind::LaggedFibonacci
                                ? 0
                                : static_cast<long>(params.cudaGraphSteps);
    long done = 0;
    while (done < count) {
      const bool forced = !built || (!byDisplacement && steps % params.rebuildInterval == 0);
      // Steps until the next forced rebuild (fixed schedule) bound a graph launch.
      const long untilRebuild =
          byDisplacement ? count : params.rebuildInterval - steps % params.rebuildInterval;
      // Persistent launches: fixed schedule only (the displacement test and the cell build
      // between steps are separate kernels), up to the next forced rebuild.
      const long persistent = params.cudaPersistentSteps;
      if (!forced && !byDisplacement && persistent > 0 &&
          params.langevin.generator != RngKind::LaggedFibonacci) {
        const long k = std::min({persistent, count - done, untilRebuild});
        enqueuePersistent(static_cast<int>(k));
        for (long s = 0; s < k; ++s) streams.advance();
        steps += k;
        done += k;
        continue;
      }
      if (!forced && graphSteps > 0 && count - done >= graphSteps && untilRebuild >= graphSteps) {
        // Capture (which creates graphStream on first use) strictly before graphStream is read:
        // cudaGraphLaunch(graphFor(...), graphStream.get()) leaves the order of the two argument
        // evaluations unspecified, and GCC reads the stream first (still empty on the first
        // graph launch; with the stream behind a pointer this was the host segfault of an H100
        // run).
        const cudaGraphExec_t exec = graphFor(current, flag);
        LANDSCAPE_CUDA_CHECK(cudaGraphLaunch(exec, graphStream.get()));
        for (long k = 0; k < graphSteps; ++k) streams.advance();
        // The parities after graphSteps steps (check() keeps graphSteps even, so this is a no-op
        // there; kept so that the host state can never disagree with the captured graph).
        if (graphSteps % 2 != 0) {
          current = 1 - current;
          if (byDisplacement) flag = 1 - flag;
        }
        steps += graphSteps;
        done += graphSteps;
        continue;
      }
      enqueueStep(nullptr, forced, current, flag);
      built = true;
      streams.advance();
      ++steps;
      ++done;
    }
    if (graphStream) LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(graphStream.get()));
    system.checkStatus("SopDynamicsCuda");  // synchronises
  }

  std::vector<double> positions(int replica) override {
    if (replica < 0 || replica >= system.replicas)
      throw std::out_of_range("SOP dynamics: no replica " + std::to_string(replica));
    std::vector<SopPos4<R>> host(system.n);
    LANDSCAPE_CUDA_CHECK(
        cudaMemcpy(host.data(), pos[current].data() + static_cast<std::size_t>(replica) * system.n,
                   system.n * sizeof(SopPos4<R>), cudaMemcpyDeviceToHost));
    std::vector<double> x(3 * system.n);
    for (int i = 0; i < system.n; ++i) {
      x[3 * i] = host[i].x;
      x[3 * i + 1] = host[i].y;
      x[3 * i + 2] = host[i].z;
    }
    return x;
  }

  double tipPosition(int replica) override {
    if (replica < 0 || replica >= system.replicas)
      throw std::out_of_range("SOP dynamics: no replica " + std::to_string(replica));
    const std::vector<double> all = tip.toHost();
    return all[replica];
  }

  long rebuilds() override {
    system.checkStatus("SopDynamicsCuda");
    return system.rebuildCount;
  }
  int maxNeighbours() const override { return system.maxNeighbours; }

  std::vector<double> unpack(const DeviceBuffer<SopPos4<R>>& buffer) const {
    const std::vector<SopPos4<R>> host = buffer.toHost();
    std::vector<double> x(3 * host.size());
    for (std::size_t k = 0; k < host.size(); ++k) {
      x[3 * k] = host[k].x;  // float -> double is exact, so restoreState gets the same bits
      x[3 * k + 1] = host[k].y;
      x[3 * k + 2] = host[k].z;
    }
    return x;
  }
  void pack(const std::vector<double>& x, DeviceBuffer<SopPos4<R>>& buffer) const {
    std::vector<SopPos4<R>> host(x.size() / 3);
    for (std::size_t k = 0; k < host.size(); ++k)
      host[k] = {static_cast<R>(x[3 * k]), static_cast<R>(x[3 * k + 1]),
                 static_cast<R>(x[3 * k + 2]), R(0)};
    buffer.copyFromHost(host);
  }

  // The list reference: every bead of a replica is rebuilt in the same step, so posAtBuild holds
  // each replica's coordinates at its last build, and the flags of parity `flag` say which
  // replicas the next step rebuilds (displacement mode; the other parity is clear between steps).
  SopDynamicsState saveState() override {
    if (graphStream) LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(graphStream.get()));
    SopDynamicsState s;
    s.step = steps;
    s.positions = unpack(pos[current]);
    s.tips = tip.toHost();
    s.random = streams.state();
    s.rebuilds = rebuilds();
    if (built) {
      s.listPositions = unpack(system.posAtBuild);
      s.rebuildDue.assign(system.replicas, 0);
      if (params.rebuildInterval == 0) {
        const std::vector<int> due = system.flags[flag].toHost();
        for (int r = 0; r < system.replicas; ++r) s.rebuildDue[r] = due[r] != 0;
      }
    }
    return s;
  }

  void restoreState(const SopDynamicsState& s) override {
    requireSopStateShape(s, beads, system.replicas);
    streams.restore(s.random);  // checks the words before anything changes
    pack(s.positions, pos[current]);
    tip.copyFromHost(s.tips);
    const unsigned long long counter[2] = {static_cast<unsigned long long>(s.step),
                                           static_cast<unsigned long long>(s.step)};
    stepCounter.copyFromHost(counter, 2);
    steps = s.step;
    built = !s.listPositions.empty();
    if (built) rebuildListFrom(s.listPositions, s.rebuildDue);
    const int status[3] = {0, 0, static_cast<int>(s.rebuilds)};
    system.status.copyFromHost(status, 3);
    system.rebuildCount = s.rebuilds;
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  // The list the uninterrupted run used: cells and rows built from the saved reference (in the
  // free position buffer), as the step that built them did; then the cells of the current
  // coordinates, which a replica due for a rebuild uses in its next step, and the due flags.
  void rebuildListFrom(const std::vector<double>& reference, const std::vector<std::uint8_t>& due) {
    DeviceBuffer<SopPos4<R>>& scratch = pos[1 - current];
    pack(reference, scratch);
    SopCellArgs<R> cells;
    cells.list = system.listView();
    cells.beads = system.n;
    cells.d_pos = scratch.data();
    launchSopCells(cells, nullptr);
    DeviceBuffer<double> gradient(3 * system.total);
    SopStepArgs<R> rows;
    rows.topology = system.topologyView();
    rows.list = cells.list;
    rows.d_posIn = scratch.data();
    rows.integrate = false;
    rows.d_gradient = gradient.data();
    rows.rebuildMode = 1;
    launchSopStep(rows, nullptr);
    cells.d_pos = pos[current].data();
    launchSopCells(cells, nullptr);
    std::vector<int> flags(due.begin(), due.end());
    system.flags[flag].copyFromHost(flags);
    system.flags[1 - flag].zero();
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  SopDeviceSystem<R> system;
  RandomStreamsCuda streams;
  int blocksPerReplica;
  DeviceBuffer<SopPos4<R>> pos[2];
  DeviceBuffer<double> tip, tipPartial;
  DeviceBuffer<unsigned int> tipDone;
  DeviceBuffer<unsigned long long> stepCounter;
  int current = 0, flag = 0;
  bool built = false;
  std::unique_ptr<SopStepArgs<R>> stepTemplate;  // enqueueStep's invariant arguments
  CudaStream graphStream;                        // created when graphs are used
  CapturedGraph graphs[4];                       // by parities (current, flag)
};

}  // namespace

SopDynamicsCuda::SopDynamicsCuda(const SopTopology& topology, const std::vector<double>& start,
                                 const SopDynamicsParams& params) {
  const SopProtocol protocol = makeSopProtocol(topology, start, params);
  if (topology.beadCount() < 2)
    throw std::invalid_argument("SopDynamicsCuda: the topology needs at least 2 beads");
  if (params.precision == Precision::Single)
    m_impl = std::make_unique<SopDynamicsImpl<float>>(topology, start, params, protocol);
  else
    m_impl = std::make_unique<SopDynamicsImpl<double>>(topology, start, params, protocol);
}

SopDynamicsCuda::~SopDynamicsCuda() = default;

const SopDynamicsParams& SopDynamicsCuda::params() const { return m_impl->params; }
const SopProtocol& SopDynamicsCuda::protocol() const { return m_impl->protocol; }
std::size_t SopDynamicsCuda::beads() const { return m_impl->beads; }
void SopDynamicsCuda::run(long steps) { m_impl->run(steps); }
long SopDynamicsCuda::stepsDone() const { return m_impl->steps; }
std::vector<double> SopDynamicsCuda::positions(int replica) { return m_impl->positions(replica); }
double SopDynamicsCuda::tipPosition(int replica) { return m_impl->tipPosition(replica); }
long SopDynamicsCuda::rebuilds() const { return m_impl->rebuilds(); }
int SopDynamicsCuda::maxNeighbours() const { return m_impl->maxNeighbours(); }
SopDynamicsState SopDynamicsCuda::saveState() { return m_impl->saveState(); }
void SopDynamicsCuda::restoreState(const SopDynamicsState& state) { m_impl->restoreState(state); }

}  // namespace landscape
