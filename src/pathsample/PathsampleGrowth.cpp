#include "src/pathsample/PathsampleGrowth.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "backends/BatchedAlignmentFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "backends/DnebBandsFactory.h"
#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "backends/TransitionStateSearchesFactory.h"
#include "landscape/formats/AtomicFile.h"
#include "landscape/network/Database.h"
#include "landscape/network/GrowthPairs.h"
#include "landscape/network/HarmonicRates.h"
#include "landscape/network/KineticPathPairs.h"
#include "landscape/network/KineticsOnlyDatabase.h"
#include "landscape/network/UntrapPairs.h"
#include "landscape/paths/ConnectJobs.h"
#include "landscape/paths/SharedDnebBands.h"
#include "landscape/paths/SharedTransitionStateSearches.h"
#include "potentials/SharedBatchedPotential.h"
#include "src/common/DistributedCharacterisation.h"
#include "src/common/DistributedConnectJobs.h"
#include "src/common/FaultDrill.h"
#include "src/common/OutputLock.h"
#include "src/optim/OptimDatabase.h"
#include "src/optim/OptimOdataFile.h"
#include "src/optim/OptimSystem.h"
#include "src/pathsample/CharacterisationAhead.h"
#include "src/pathsample/EndedConnectRuns.h"
#include "src/pathsample/PathsampleCommands.h"
#include "src/pathsample/PathsampleNetworkSource.h"

namespace landscape {

namespace {

namespace fs = std::filesystem;
using Pair = std::array<int, 2>;

constexpr int kSearchesPerRun = 4;  // a band's candidates refined side by side
// Lanes of whole hybrid EF searches (--ts-searches whole): launches that may be under way at once,
// so that a call's longest search holds up only its own call's runs.
constexpr int kTransitionStateSearchLanes = 4;
// Characterisation ahead starts when at most 1/kAheadFraction of the runs in flight remain (a
// trp-cage cycle's last quarter: fewer searches than fill the device), kAheadChunk points at a
// time (a merge waits for at most one chunk: four trp-cage Hessians, a few tenths of a second on
// an H200).
constexpr int kAheadFraction = 4;
constexpr std::size_t kAheadChunk = 4;

using Clock = std::chrono::steady_clock;

double secondsBetween(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double>(end - start).count();
}
double secondsSince(Clock::time_point start) { return secondsBetween(start, Clock::now()); }

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0,
                   double d = 0.0, double e = 0.0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c, d, e);
  return buffer;
}

// The odata file up to its POINTS line: PATHSAMPLE appends each job's endpoints there, and growth
// takes them from the pairs instead.
std::string odataKeywords(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open OPTIM odata file");
  std::string text, line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    std::transform(first.begin(), first.end(), first.begin(), ::toupper);
    if (first == "POINTS") break;
    text += line + "\n";
  }
  return text;
}

// The connect settings: the odata file's keywords on optim's keyword defaults, or optim's defaults
// (OPTIM's LJ38 example for clusters, the molecule defaults with --prmtop).
OptimConfig connectSettings(const PathsampleConfig& c, const std::string& odataText,
                            const ProgressPrinter& print) {
  OptimConfig oc;
  oc.prmtopFile = c.prmtopFile;
  oc.waterModel = c.waterModel;
  oc.waterIons = c.waterIons;
  oc.ellipsoids = c.ellipsoids;
  oc.gayBerne = c.gayBerne;
  oc.backend = c.backend;
  oc.lbfgsBackend = c.lbfgsBackend;
  oc.precision = c.precision;
  if (!c.odataFile.empty()) {
    oc.settings = optimKeywordDefaults();
    oc.odataFile = c.odataFile;
    std::istringstream in(odataText);
    applyOdataKeywords(in, c.odataFile, oc);
  } else {
    oc.settings = oc.isMolecule() ? optimAmberDefaultSettings() : optimLj38ExampleSettings();
  }
  if (c.connectCycles > 0) oc.settings.connect.maxCycles = c.connectCycles;
  if (c.tsSteps > 0) oc.settings.connect.transitionStateSearch.maxIterations = c.tsSteps;
  // The pair system of the command line, or else the odata's keywords (checked as optim does).
  if (c.pair.active())
    oc.pair = c.pair;
  else
    resolvePairSystem(oc.pair, GivenOptions{}, oc.keywordOrigins);
  if (oc.pair.active() && oc.isMolecule())
    throw std::runtime_error(oc.pair.systemOrigin() +
                             ": a pair system cannot be combined with --prmtop");
  // A Gupta cluster likewise: the command line's, or else the odata's GUPTA; a system given on
  // the command line replaces the odata's, whichever kind each is.
  if (c.gupta.active()) {
    oc.gupta = c.gupta;
    if (!c.pair.active()) oc.pair = PairSystemConfig{};
  } else if (c.pair.active()) {
    oc.gupta = GuptaSystemConfig{};
  } else {
    resolveGuptaSystem(oc.gupta, GivenOptions{}, oc.keywordOrigins);
  }
  if (oc.gupta.active() && (oc.isMolecule() || oc.pair.active()))
    throw std::runtime_error(oc.gupta.origin() + ": a Gupta cluster cannot be combined with " +
                             (oc.isMolecule() ? std::string("--prmtop") : oc.pair.systemOrigin()));
  if (oc.isRigidMolecules() &&
      (oc.isMolecule() || oc.pair.active() || oc.gupta.active() || (oc.isWater() && oc.ellipsoids)))
    throw std::runtime_error(std::string("command line: ") +
                             (oc.isWater() ? "--water" : "--ellipsoids") +
                             " cannot be combined with " +
                             (oc.isMolecule()     ? std::string("--prmtop")
                              : oc.pair.active()  ? oc.pair.systemOrigin()
                              : oc.gupta.active() ? oc.gupta.origin()
                                                  : std::string("--ellipsoids")) +
                             " (the molecules are the system)");
  if (oc.ellipsoids) {
    try {
      oc.gayBerne.check();
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(std::string("command line: ") + e.what());
    }
  }
  if (oc.isMolecule()) {  // chiral, and no perm.allow groups here: rotations and translations
    for (AlignmentParams* a : {&oc.settings.network.alignment, &oc.settings.connect.dneb.alignment})
      a->inversion = a->permutations = false;
  }
  oc.settings.seed = static_cast<std::uint64_t>(c.seed);
  oc.settings.applySeed();
  try {
    oc.settings.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error((c.odataFile.empty() ? "connect settings" : c.odataFile) + ": " +
                             e.what());
  }
  for (const std::string& w : oc.warnings) print("pathsample: warning: " + w);
  return oc;
}

// What a resumed run must share with the run it continues (--cycles may grow).
std::string growthSettings(const PathsampleConfig& c, const std::string& odataText) {
  std::ostringstream s;
  s.precision(17);
  s << "pair-selection=" << pairSelectionName(c.pairSelection) << "\n";
  if (c.direction != PathsampleDirection::AB)  // AB: as before DIRECTION
    s << "direction=" << pathsampleDirectionName(c.direction) << "\n";
  const UntrapParams& u = c.untrap;
  if (c.pairSelection == PairSelection::Untrap)
    s << "untrap=" << u.energyIncrement << " " << u.energyThreshold << " " << u.deltaMin << " "
      << u.lowBarrier << " " << u.highBarrier << "\n";
  if (c.pairSelection == PairSelection::Shortcut)
    s << "shortcut=" << c.shortcutSteps << " " << shortcutByName(c.shortcutBy) << "\n";
  if (c.pairSelection == PairSelection::Dijkstra)
    s << "dijkstra-power=" << c.dijkstraPower << "\n";
  if (c.pairSelection != PairSelection::Untrap)
    s << "temperature=" << c.temperatures.front() << "\n";
  if (c.cyclesInFlight != 1)  // 1 (PATHSAMPLE's cycles): as before the option
    s << "cycles-in-flight=" << c.cyclesInFlight << "\n";
  if (c.connectCycles != 0)  // 0 (the odata's or optim's): as before the option
    s << "connect-cycles=" << c.connectCycles << "\n";
  if (c.tsSteps != 0)  // likewise
    s << "ts-steps=" << c.tsSteps << "\n";
  s << "pairs-per-cycle=" << c.pairsPerCycle << "\npair-list-size=" << c.listSize
    << "\nseed=" << c.seed << "\nprmtop=" << c.prmtopFile << "\n";
  if (!c.waterModel.empty()) s << "water=" << c.waterModel << "\n";
  if (!c.waterIons.empty()) s << "ions=" << c.waterIons << "\n";
  if (c.ellipsoids) {
    const GayBerneParams& g = c.gayBerne;
    s << "ellipsoids=gay-berne sigma0 " << g.sigma0 << " eps0 " << g.eps0 << " kappa " << g.kappa
      << " kappa' " << g.kappaPrime << " mu " << g.mu << " nu " << g.nu << " cutoff " << g.cutoff
      << "\n";
  }
  // Where the runs' arithmetic happens changes their round-off (said only when not the default,
  // so that runs started before these options resume).
  if (c.backend != Backend::Cpu || c.lbfgsBackend != LbfgsBackend::Cpu)
    s << "backend=" << backendName(c.backend) << " lbfgs-backend=" << lbfgsBackendName(c.lbfgsBackend)
      << " precision=" << precisionName(c.precision) << "\n";
  if (c.backend == Backend::Cuda && c.dnebBands != DnebBandRelaxation::Whole)
    s << "dneb-bands=" << dnebBandRelaxationName(c.dnebBands) << "\n";
  if (c.backend == Backend::Cuda && c.transitionStateSearches != TransitionStateSearchRuns::Steps)
    s << "ts-searches=" << transitionStateSearchRunsName(c.transitionStateSearches) << "\n";
  if (c.backend == Backend::Cuda && c.alignments != AlignmentRuns::Host)
    s << "alignments=" << alignmentRunsName(c.alignments) << "\n";
  s << "odata:\n"
    << odataText;
  return s.str();
}

// Cycles taken but not merged, given back: their pairs leave the tried pairs and go first on
// the list again, oldest cycle first, so that the next cycles take them again in the same order.
void giveBack(GrowthRecord& r, const std::vector<std::vector<Pair>>& cycles) {
  for (auto cycle = cycles.rbegin(); cycle != cycles.rend(); ++cycle) {
    for (const Pair& p : *cycle) {
      // The last time it was taken (takeCyclePairs records each pair it takes).
      const auto taken = std::find(r.triedPairs.rbegin(), r.triedPairs.rend(), p);
      if (taken != r.triedPairs.rend()) r.triedPairs.erase(std::next(taken).base());
    }
    r.pendingPairs.insert(r.pendingPairs.begin(), cycle->begin(), cycle->end());
  }
}

// A stop request that ended the choice of a cycle's pairs (one process).
struct SelectionStopped {};

// The connect runs' system: optim's, with rigid water's molecules or the ellipsoids as bodies.
OptimSystem makeGrowthSystem(const OptimConfig& optim, std::shared_ptr<const AmberTopology> amber,
                             std::size_t atoms, OptimSettings& settings) {
  OptimSystem system = makeOptimSystem(optim, std::move(amber), atoms, settings);
  if (optim.isWater()) useRigidWater(optim, system, settings);
  if (optim.ellipsoids) useRigidEllipsoids(optim, system, settings);
  return system;
}

// The state of the run: network, its stored records and the growth record.
struct Growth {
  const PathsampleConfig& config;
  OptimConfig optim;
  std::shared_ptr<const AmberTopology> amber;
  OptimSettings settings;
  OptimSystem system;
  TransitionNetwork network;
  DatabaseMetadata metadata;
  KnownEntries known;  // everything saved so far (network indices)
  StoredTransitionNetwork stored;
  std::string output;
  double kT = 0.0;
  Communicator& ranks;  // every rank holds the same network; rank 0 writes it

  Growth(const PathsampleConfig& c, OptimConfig oc, const std::string& input, Communicator& r)
      : config(c),
        optim(std::move(oc)),
        amber(readOptimTopology(optim)),
        settings(optim.settings),
        system(makeGrowthSystem(optim, amber, MinimaDatabase::readMetadata(input).atoms, settings)),
        network(settings.network),
        ranks(r) {
    known = loadDatabase(input, system, MinimaDatabase::readMetadata(input).atoms, network,
                         metadata, true);
    metadata.program = "pathsample";
    const double t = c.temperatures.front();
    kT = metadata.energyUnit == "kcal/mol" ? kBoltzmannKcalPerMolK * t
         : metadata.energyUnit == "kJ/mol" ? kBoltzmannKjPerMolK * t
                                           : t;
  }

  // With runs in flight sharing batched calls: the lanes of shared calls, each a batched
  // potential of its own (cuda: its own device workspace and stream; cpu: over `threads` CPU
  // potentials) and the gate its runs' structures go through; empty without shared calls.
  struct CallLane {
    std::unique_ptr<BatchedPotential> batched;
    std::unique_ptr<SharedBatchedPotential> shared;
  };
  std::vector<CallLane> lanes;
  // With lanes on cuda for Lennard-Jones clusters (--dneb-bands whole): the runs' DNEB bands
  // relaxed whole by the device, many per launch, on a service thread of their own (declared
  // after the lanes, whose potentials it wakes: it stops first).
  std::unique_ptr<DnebBands> wholeBands;
  // --alignments whole: the bands' endpoint alignments (on the band service's thread) and the
  // pair selection's distances (on the selection's thread), each with a device stream of its own.
  std::unique_ptr<BatchedAlignment> endpointAlignment, distanceAlignment;
  std::unique_ptr<SharedDnebBands> sharedBands;
  // ... and (--ts-searches whole) their hybrid EF searches run whole by the device, on lanes of
  // their own (a launch lasts as long as its longest search).
  std::unique_ptr<SharedTransitionStateSearches> sharedSearches;
  SharedWholeSearches whole() const { return {sharedBands.get(), sharedSearches.get()}; }
  bool sharesCalls() const { return !lanes.empty(); }
  // The lane of the calling thread's runs: a thread's runs (its fibres) all wait on one lane, so
  // that a thread whose fibres all wait helps and makes that lane's calls. Threads are dealt out
  // to the lanes in the order they first ask; which lane a run joins never changes its bits.
  SharedBatchedPotential& threadLane() const {
    static std::atomic<int> threadsSeen{0};
    thread_local const int ordinal = threadsSeen.fetch_add(1);
    return *lanes[static_cast<std::size_t>(ordinal) % lanes.size()].shared;
  }
  // The calls of all lanes together (callSeconds and copySeconds summed over the lanes).
  SharedBatchStatistics callStatistics() const {
    SharedBatchStatistics s;
    for (const CallLane& lane : lanes) s += lane.shared->statistics();
    return s;
  }
  int searchesInFlight() const {
    int members = 0;
    for (const CallLane& lane : lanes) members += lane.shared->members();
    return members;
  }
  // Transition states new to their run's own network, counted after each DNEB attempt of the runs
  // of this process since it started (before the merge; a molecule's run lasts minutes).
  std::atomic<long> statesFound{0};
  // The runs that had ended in cycles not yet merged (DIR/ended-runs): those an interrupted run
  // kept, which a cycle takes instead of running their pairs again, and (rank 0) this run's own as
  // each ends; dropped once their cycle has merged. Runs end on the cycles' threads.
  EndedConnectRuns ended;
  std::mutex endedLock;
  std::string endedFile;

  // One process with batched Hessians on the device: the new points of each run as it ends are
  // characterised once no more than aheadWhenRunsInFlight runs are in flight (the cycle's tail,
  // when the device has room), and the merge's save takes them
  // (src/pathsample/CharacterisationAhead.h).
  std::unique_ptr<CharacterisationAhead> ahead;
  std::atomic<int> runsInFlight{0};
  int aheadWhenRunsInFlight = 0;
  void characteriseAhead(int jobsInFlight) {
    if (ranks.size() != 1 || !settings.characterisation.backend.hessians) return;
    aheadWhenRunsInFlight = std::max(1, jobsInFlight / kAheadFraction);
    // The worker's chunk on as many threads as it has points: the runs in flight keep the rest.
    CharacterisationParams aheadParams = settings.characterisation;
    aheadParams.threads = std::min<int>(aheadParams.threads, static_cast<int>(kAheadChunk));
    ahead = std::make_unique<CharacterisationAhead>(
        [this, aheadParams](const std::vector<std::vector<double>>& points) {
          return characteriseTogether(system.characterisation(), points, aheadParams);
        },
        settings.network.energyTolerance, kAheadChunk, [] { ThreadPool::startWorker(); });
  }
  // A run's stationary points for `ahead` (those the network knows are skipped there).
  void addAhead(const ConnectJobResult& job) {
    if (!ahead) return;
    for (const NetworkMinimum& m : job.minima) ahead->add(m.energy, system.atoms(m.coordinates));
    for (const NetworkTransitionState& t : job.transitionStates)
      ahead->add(t.energy, system.atoms(t.coordinates));
  }
  void runsStarted(int runs) {
    runsInFlight += runs;
    if (ahead) ahead->allow(runsInFlight.load() <= aheadWhenRunsInFlight);
  }
  void runEnded(const ConnectJobResult& job) {
    addAhead(job);
    if (--runsInFlight <= aheadWhenRunsInFlight && ahead) ahead->allow(true);
  }

  std::vector<double> minimumEnergies() const {
    std::vector<double> energies;
    for (const NetworkMinimum& m : network.minima()) energies.push_back(m.energy);
    return energies;
  }
  // The kept runs of an interrupted run, on every rank (rank 0 reads the file): those of pairs
  // not yet tried (a kill after a merge was saved but before the file was rewritten leaves the
  // merged cycle's runs there too). Rank 0 rewrites the file when its last record was cut short
  // (a kill while it was appended; that run runs again), so that appends follow whole records.
  void loadEndedRuns(const ProgressPrinter& print) {
    std::vector<char> bytes;
    if (ranks.rank() == 0 && fs::exists(endedFile)) {
      const std::string text = readWholeFile(endedFile, "ended connect runs");
      bytes.assign(text.begin(), text.end());
    }
    const std::vector<char> all = ranks.allGather(bytes)[0];
    if (all.empty()) return;
    EndedConnectRunsFile file = decodeEndedConnectRuns(
        std::string_view(all.data(), all.size()), endedFile, known.growth.settings,
        minimumEnergies(), network.minima().front().coordinates.size());
    const std::set<Pair> tried(known.growth.triedPairs.begin(), known.growth.triedPairs.end());
    for (auto run = file.runs.begin(); run != file.runs.end();)
      run = tried.count(run->first) != 0 ? file.runs.erase(run) : std::next(run);
    ended = std::move(file.runs);
    if (file.lastRecordCutShort && ranks.rank() == 0)
      print("grow> " + endedFile +
            ": its last run's record was cut short (a kill while it was written); that run "
            "runs again");
    saveEndedRuns();
  }
  // Rank 0 rewrites the file whole (removes it once no run is kept).
  void saveEndedRuns() {
    if (ranks.rank() != 0) return;
    std::lock_guard<std::mutex> lock(endedLock);
    if (ended.empty()) {
      fs::remove(endedFile);
      return;
    }
    writeFileAtomically(endedFile,
                        encodeEndedConnectRuns(ended, known.growth.settings, minimumEnergies()),
                        "ended connect runs");
  }
  // Rank 0 keeps a run of its own as it ends: appended to the file, flushed to disk, so that a
  // kill -9 before its cycle merges does not lose it. `energies`: those of the pair's minima.
  void keepEndedRun(const Pair& pair, const std::array<double, 2>& energies,
                    const ConnectJobResult& job) {
    if (ranks.rank() != 0) return;
    std::lock_guard<std::mutex> lock(endedLock);
    std::string bytes;
    if (!fs::exists(endedFile)) bytes = encodeEndedConnectRunsStart(known.growth.settings);
    appendToFileDurably(endedFile, bytes + encodeEndedConnectRun(pair, energies, job),
                        "ended connect runs");
    ended[pair] = job;
  }
  bool isKept(const Pair& pair) {
    std::lock_guard<std::mutex> lock(endedLock);
    return ended.count(pair) != 0;
  }

  // Every connect run's structures through shared batched calls: the band's images, each
  // transition-state search and descent of every run in flight join the calls of their thread's
  // lane (potentials/SharedBatchedPotential). With two or more lanes one lane's call runs on the
  // device while the other lanes' runs take their host steps and gather their next batch (on the
  // H200 a trp-cage cycle's runs ended 1.27x sooner with 2 lanes than with one, and sooner again
  // with 4, 8 and 16; on the CPU a lane per thread spares each thread waiting for the others'
  // runs; docs/benchmarks.md). A lane's batched potential takes its share of the threads (on the
  // CPU: one thread per lane evaluates its calls itself). A structure's bits do not depend on the
  // batch, so neither does the network on the number of runs in flight or of lanes.
  void shareEvaluations(int threads, int patience, int callLanes) {
    SharedBatchedPotential::Options options;
    options.geometry = system.geometry.get();  // rigid water: angle-axis metric, overall motions
    if (patience > 0)
      options.patience = std::chrono::microseconds(patience);
    else
      options.patienceFollowsCalls = true;
    for (int k = 0; k < callLanes; ++k) {
      CallLane lane;
      lane.batched = makeSharedBatchedBase(system.spec, optim.backend,
                                           std::max(1, threads / callLanes), system.rigid);
      lane.shared = std::make_unique<SharedBatchedPotential>(*lane.batched, options);
      lanes.push_back(std::move(lane));
    }
    if (config.dnebBands == DnebBandRelaxation::Whole && !system.rigid)
      wholeBands = makeDnebBands(system.spec, optim.backend);
    if (wholeBands && config.alignments == AlignmentRuns::Whole) {
      const int atoms = static_cast<int>(system.spec.atoms);
      endpointAlignment = makeBatchedAlignment(atoms, optim.backend, threads);
      distanceAlignment = makeBatchedAlignment(atoms, optim.backend, threads);
    }
    if (wholeBands)
      sharedBands = std::make_unique<SharedDnebBands>(*wholeBands, endpointAlignment.get());
    if (config.transitionStateSearches == TransitionStateSearchRuns::Whole && !system.rigid) {
      std::vector<std::unique_ptr<TransitionStateSearches>> searchLanes;
      for (int k = 0; k < kTransitionStateSearchLanes; ++k) {
        std::unique_ptr<TransitionStateSearches> lane =
            makeTransitionStateSearches(system.spec, optim.backend);
        if (!lane) break;
        searchLanes.push_back(std::move(lane));
      }
      if (!searchLanes.empty())
        sharedSearches = std::make_unique<SharedTransitionStateSearches>(std::move(searchLanes));
    }
  }

  // One connect run's engines. Shared: sharedConnectEngine, with the band's candidates searched
  // side by side (kSearchesPerRun; DNEB bands rarely have more maxima). Otherwise (the CPU
  // without --jobs-in-flight) a CPU potential of its own, one structure at a time.
  ConnectJobEngine engine() const {
    if (sharesCalls())
      return sharedConnectEngine(threadLane(), settings.connect.descent.minimiser, kSearchesPerRun,
                                 whole());
    ConnectJobEngine e;
    if (system.rigid) {  // rigid water: its rigid bodies over a copy of the atomistic potential
      e.potential = makeOwningRigidBodyPotential(makePotential(system.spec, optim.backend),
                                                 *system.rigid, optim.backend);
      return e;
    }
    OptimSettings s = settings;
    e.potential = std::move(makeOptimSystem(optim, amber, metadata.atoms, s).atomistic);
    return e;
  }

  // Computes a selection's distances ahead on the pool's threads (one process: and stops the
  // selection on a stop request, throwing SelectionStopped; under mpirun stops are agreed between
  // cycles, so every rank selects alike to the end).
  ThreadPool* pool = nullptr;
  std::function<bool()> stopSelection;

  std::vector<CandidatePair> select() {
    const MinimumDistance distance = [this](int a, int b) { return network.distance(a, b); };
    DistancePrefetch prefetch;
    if (pool)
      prefetch = [this](const std::vector<std::pair<int, int>>& pairs) {
        const bool all = distanceAlignment
                             ? network.precomputeDistances(pairs, *distanceAlignment, stopSelection)
                             : network.precomputeDistances(pairs, *pool, stopSelection);
        if (!all) throw SelectionStopped{};
      };
    const TriedPairs& tried = known.growth.triedPairs;
    const PathsampleConfig& c = config;
    // DIRECTION BA: B is the product, the paths run from A to B.
    StoredTransitionNetwork oriented;
    const bool reversed = c.direction == PathsampleDirection::BA;
    if (reversed) {
      oriented = stored;
      std::swap(oriented.setA, oriented.setB);
    }
    const StoredTransitionNetwork& sets = reversed ? oriented : stored;
    if (c.pairSelection == PairSelection::Untrap) {
      UntrapParams p = c.untrap;
      p.listSize = static_cast<std::size_t>(c.listSize);
      return untrapPairs(sets, sets.setA, p, tried, distance, prefetch).pairs;
    }
    std::vector<CandidatePair> pairs =
        c.pairSelection == PairSelection::Shortcut
            ? shortcutPairs(sets, kT, c.shortcutSteps, c.shortcutBy == ShortcutBy::Barrier,
                            static_cast<std::size_t>(c.listSize), tried, distance)
            : dijkstraPairs(sets, kT, c.dijkstraPower, tried, distance);
    if (pairs.size() > static_cast<std::size_t>(c.listSize)) pairs.resize(c.listSize);
    return pairs;
  }

  // The cycle's pairs from the candidate list, recomputed when used up (GrowthPairs.h), with the
  // selection's time: on a large network, UNTRAP's minimum distances make it the longest step.
  std::vector<Pair> takePairs(const ProgressPrinter& print) {
    GrowthRecord& r = known.growth;
    double seconds = 0.0;
    std::size_t computed = 0;
    return takeCyclePairs(
        r.pendingPairs, r.triedPairs, config.pairsPerCycle,
        [this, &seconds, &computed] {
          const auto start = Clock::now();
          const std::size_t before = network.knownDistances();
          std::vector<CandidatePair> pairs = select();
          seconds = secondsSince(start);
          computed = network.knownDistances() - before;
          return pairs;
        },
        [&](std::size_t size) {
          print("grow> " + std::to_string(size) + " candidate pairs (" +
                pairSelectionName(config.pairSelection) + ")" +
                format(", chosen in %.1f s, %.0f minimum distances computed", seconds,
                       static_cast<double>(computed)));
        });
  }

  // Saves the network and the growth record as they would stand had the cycles in flight never
  // been taken (`inFlight`, the pairs of each, oldest first): a run killed now resumes by taking
  // them again, in the same order, from the same network.
  // What a save spent (seconds): the new points' characterisation (Hessians), then the write.
  // With `ahead`, how many of the points were found characterised ahead.
  struct SaveSeconds {
    double characterisation = 0.0;
    double write = 0.0;
    CharacterisationAhead::Use ahead;
  };
  SaveSeconds save(const std::vector<std::vector<Pair>>& inFlight = {}) {
    const auto start = Clock::now();
    SaveSeconds spent;
    // Each rank characterises its block of the new points
    // (src/common/DistributedCharacterisation.h), those not done ahead.
    stored = completeNetwork(
        system, network, known, settings.characterisation,
        [this, &spent](Potential& potential, const std::vector<std::vector<double>>& points,
                       const CharacterisationParams& params) {
          const CharacterisationAhead::Characterise rest =
              [&](const std::vector<std::vector<double>>& others) {
                return characteriseOverRanks(potential, others, params, ranks);
              };
          return ahead ? ahead->take(points, rest, &spent.ahead) : rest(points);
        });
    if (ahead) {
      std::vector<double> energies;
      for (const StoredNetworkMinimum& m : stored.minima) energies.push_back(m.energy);
      for (const StoredTransitionState& t : stored.transitionStates) energies.push_back(t.energy);
      ahead->know(std::move(energies));
      ahead->allow(runsInFlight.load() <= aheadWhenRunsInFlight);
    }
    const auto characterised = Clock::now();
    giveBack(stored.growth, inFlight);
    if (ranks.rank() == 0) TransitionNetworkDatabase::write(output, metadata, stored);
    known.minima = stored.minima;
    known.states = stored.transitionStates;
    spent.characterisation = secondsBetween(start, characterised);
    spent.write = secondsSince(characterised);
    return spent;
  }
};

int jobsInFlight(const PathsampleConfig& c);

// A molecule's cycle can last many minutes: while one is awaited, a line this often says how the
// runs in flight are doing.
constexpr int kWaitingLineSeconds = 60;

// A cycle under way: its pairs, and this rank's runs of them on a thread pool of the cycle's own
// (the runs read copies of their endpoints, never the network, which later merges change).
struct CycleInFlight {
  int number = 0;  // 1-based
  std::vector<Pair> pairs;
  std::vector<std::size_t> toRun;  // indices into pairs of the runs started (the others were kept)
  int ended = 0;                                   // this rank's runs ended so far (progress lines)
  std::future<std::vector<ConnectJobResult>> own;  // last: its destructor waits for the runs
};

// Starts cycle `number`'s connect runs on `pool` (this rank's share of them) and returns at once;
// the pairs whose runs had ended before an interruption (g.ended) are not run again.
// A line per run as it ends (rank 0's runs under mpirun): the runs in flight, and the transition
// states the runs have found per hour so far (counted after each DNEB attempt of every run in
// flight), before the merge recognises duplicates.
void startCycle(Growth& g, CycleInFlight& cycle, ThreadPool& pool,
                const std::function<bool()>& stop, std::mutex& printing,
                const ProgressPrinter& print, Clock::time_point started) {
  std::vector<Pair> running;
  std::vector<std::array<double, 2>> energies;  // of each running pair's minima, for the file
  for (std::size_t j = 0; j < cycle.pairs.size(); ++j) {
    if (g.isKept(cycle.pairs[j])) continue;
    cycle.toRun.push_back(j);
    running.push_back(cycle.pairs[j]);
    energies.push_back({g.network.minima()[static_cast<std::size_t>(running.back()[0])].energy,
                        g.network.minima()[static_cast<std::size_t>(running.back()[1])].energy});
  }
  if (running.size() < cycle.pairs.size() && g.ranks.rank() == 0) {
    cycle.ended = static_cast<int>(cycle.pairs.size() - running.size());
    print(format("grow> cycle %.0f: %.0f of its %.0f runs ended before the run was interrupted and "
                 "are kept (",
                 cycle.number, cycle.ended, static_cast<double>(cycle.pairs.size())) +
          g.endedFile + "); " + std::to_string(running.size()) + " to run");
  }
  for (const Pair& pair : cycle.pairs)
    if (g.isKept(pair)) {
      std::lock_guard<std::mutex> lock(g.endedLock);
      g.addAhead(g.ended.at(pair));
    }
  g.runsStarted(static_cast<int>(running.size()));
  const auto runEnded = [&g, &cycle, &printing, &print, started, energies = std::move(energies)](
                            std::size_t k, const ConnectJobResult& job) {
    if (!job.ran || g.ranks.rank() != 0) return;
    g.keepEndedRun(cycle.pairs[cycle.toRun[k]], energies[k], job);  // before its line is printed
    g.runEnded(job);
    std::lock_guard<std::mutex> lock(printing);
    ++cycle.ended;
    const double elapsed = secondsSince(started);
    const std::vector<Pair>& pairs = cycle.pairs;
    const std::size_t i = cycle.toRun[k];
    std::string line =
        "run " + std::to_string(cycle.ended) + " of " + std::to_string(pairs.size()) +
        (g.config.cyclesInFlight > 1 ? " of cycle " + std::to_string(cycle.number)
                                     : std::string()) +
        " ended: pair " + std::to_string(pairs[i][0] + 1) + "-" + std::to_string(pairs[i][1] + 1) +
        " " + (job.result.connected() ? "connected" : "not connected") + ", " +
        std::to_string(job.transitionStates.size()) + " ts";
    if (g.sharesCalls()) line += "; searches in flight " + std::to_string(g.searchesInFlight());
    line += format("; found %.0f ts per hour (before duplicates)  elapsed %.1f s",
                   elapsed > 0 ? static_cast<double>(g.statesFound.load()) * 3600.0 / elapsed : 0.0,
                   elapsed);
    print(line);
  };
  const auto attemptMade = [&g](const ConnectAttempt& attempt) {
    g.statesFound += attempt.newTransitionStates;
  };
  cycle.own = std::async(
      std::launch::async,
      [&g, &pool, stop, progress = ConnectJobProgress{runEnded, attemptMade},
       ends = connectJobEnds(g.network, running), connect = Connect(g.settings.connect)] {
        ThreadPool::startWorker();  // this rank's GPU: the current device is per thread
        return runOwnConnectJobs(
            connect, [&g] { return g.engine(); }, ends, pool, jobsInFlight(g.config),
            g.ranks.rank(), g.ranks.size(), stop, progress);
      });
}

// Waits for a cycle's runs and receives every rank's (collective). False when a stop left any
// run out: then nothing of the cycle may be merged, and its pairs go back to the front of the list
// in their order (giveBack), so that the resumed run repeats the cycle as it would have run
// uninterrupted (the network never depends on when a signal came).
// `waiting` is called every kWaitingLineSeconds while this rank's runs of the cycle go on.
bool finishCycle(Growth& g, CycleInFlight& cycle, std::vector<ConnectJobResult>& jobs,
                 const std::function<void()>& waiting = {}) {
  while (waiting &&
         cycle.own.wait_for(std::chrono::seconds(kWaitingLineSeconds)) != std::future_status::ready)
    waiting();
  std::vector<ConnectJobResult> run =
      gatherConnectJobs(cycle.own.get(), cycle.toRun.size(), g.ranks);
  jobs.assign(cycle.pairs.size(), ConnectJobResult{});
  {
    std::lock_guard<std::mutex> lock(g.endedLock);
    std::size_t k = 0;  // cycle.toRun is increasing: the pairs run, the others were kept
    for (std::size_t j = 0; j < jobs.size(); ++j)
      jobs[j] =
          k < run.size() && cycle.toRun[k] == j ? std::move(run[k++]) : g.ended.at(cycle.pairs[j]);
  }
  return std::all_of(jobs.begin(), jobs.end(), [](const ConnectJobResult& j) { return j.ran; });
}

// Merges a finished cycle's runs into the network in pair order.
MergeCounts mergeCycle(Growth& g, const std::vector<ConnectJobResult>& jobs) {
  MergeCounts total;
  const std::size_t statesBefore = g.network.transitionStates().size();
  // The duplicate checks' alignments on the selection's threads, idle while a cycle merges.
  const std::vector<JobLookups> ahead = lookUpCycleAhead(g.network, jobs, *g.pool);
  for (std::size_t j = 0; j < jobs.size(); ++j)
    total += mergeConnectJob(g.network, jobs[j], statesBefore, &ahead[j]);
  ++g.known.growth.cycles;
  return total;
}

// The shared calls as the last waiting line saw them.
struct WaitingWindow {
  Clock::time_point at;
  SharedBatchStatistics calls;
};

// While a cycle is awaited: the cycles in flight, their runs ended (this rank's), the searches in
// flight, the transition states found so far per hour (before duplicates) and, with shared calls,
// how full they were and the structures evaluated per second since the last such line.
std::string waitingLine(const Growth& g, const std::deque<CycleInFlight>& inFlight,
                        std::mutex& printing, WaitingWindow& last, Clock::time_point started) {
  const auto now = Clock::now();
  const double elapsed = secondsBetween(started, now);
  std::size_t runs = 0;
  int ended = 0;
  long found = 0;
  {
    std::lock_guard<std::mutex> lock(printing);
    for (const CycleInFlight& c : inFlight) {
      runs += c.pairs.size();
      ended += c.ended;
    }
    found = g.statesFound.load();
  }
  const std::string cycles =
      inFlight.size() == 1
          ? format("cycle %.0f", inFlight.front().number)
          : format("cycles %.0f-%.0f", inFlight.front().number, inFlight.back().number);
  std::string line = "grow> " + cycles + " under way: " + std::to_string(ended) + " of " +
                     std::to_string(runs) + " runs ended";
  if (g.ranks.size() > 1) line += " (rank 0's)";
  if (g.sharesCalls()) line += ", searches in flight " + std::to_string(g.searchesInFlight());
  line += format(", found %.0f ts per hour (before duplicates)  elapsed %.1f s",
                 elapsed > 0 ? static_cast<double>(found) * 3600.0 / elapsed : 0.0, elapsed);
  if (g.sharesCalls()) {
    const SharedBatchStatistics calls = g.callStatistics();
    const double window = secondsBetween(last.at, now);
    const double structures = static_cast<double>(calls.structures - last.calls.structures);
    const long made = calls.calls - last.calls.calls;
    if (made > 0 && window > 0)
      line += format(
                  "  shared calls %.1f structures each, %.0f structures per second, "
                  "%.0f%% of the time in calls (%.0f%% copying",
                  structures / static_cast<double>(made), structures / window,
                  100.0 * (calls.callSeconds - last.calls.callSeconds) / window,
                  100.0 * (calls.copySeconds - last.calls.copySeconds) / window) +
              (g.lanes.size() > 1 ? "; the lanes' times summed)" : ")");
    last = {now, calls};
  }
  return line;
}

// The saved growth settings in today's terms: a run started from a pathdata SHORTCUT n BARRIER
// saved its shortcut line as "shortcut=n BARRIER", which today reads "shortcut=n barrier" (as
// --shortcut-by barrier always wrote it).
std::string upgradedSettings(const std::string& saved) {
  const std::string shortcut = "shortcut=", former = " BARRIER";
  std::istringstream lines(saved);
  std::string out, line;
  bool keywords = true;  // the lines before the odata text
  while (std::getline(lines, line)) {
    if (line == "odata:") keywords = false;
    if (keywords && line.rfind(shortcut, 0) == 0 && line.size() > former.size() &&
        line.compare(line.size() - former.size(), former.size(), former) == 0)
      line.replace(line.size() - former.size(), former.size(), " barrier");
    out += line + "\n";
  }
  return saved.empty() || saved.back() == '\n' ? out : out.substr(0, out.size() - 1);
}

void checkResume(const GrowthRecord& record, const std::string& settings, const std::string& path) {
  if (record.empty()) {
    throw std::runtime_error(path + ": holds no growth run to resume (no /growth group)");
  }
  if (record.settings != settings && upgradedSettings(record.settings) != settings) {
    throw std::runtime_error(path + ": the run was started with other growth settings; resume "
                                    "it with the same options (only --cycles may change).\n"
                                    "saved:\n" + record.settings + "now:\n" + settings);
  }
}

// The pairs of a cycle as the progress line lists them (1-based), with the rank that ran each
// under mpirun (pair i on rank i mod K, as runConnectJobsOverRanks spreads them).
std::string pairList(const std::vector<Pair>& pairs, int ranks) {
  std::string list;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    list += " " + std::to_string(pairs[i][0] + 1) + "-" + std::to_string(pairs[i][1] + 1);
    if (ranks > 1) list += " (rank " + std::to_string(i % static_cast<std::size_t>(ranks)) + ")";
  }
  return list;
}

// Connect runs under way at once per rank (--jobs-in-flight; 0: cuda the cycle's pairs, cpu one
// per thread), never more than a cycle's pairs (the others would idle) or kMaxJobsInFlight.
int jobsInFlight(const PathsampleConfig& c) {
  const int asked = c.jobsInFlight > 0               ? c.jobsInFlight
                    : c.backend == Backend::Cuda ? c.pairsPerCycle
                                                 : c.threads;
  return std::min({asked, c.pairsPerCycle, kMaxJobsInFlight});
}

// The threads that run the connect runs in flight (each thread its share of them, as fibres).
int threadsRunningJobs(const PathsampleConfig& c) { return std::min(c.threads, jobsInFlight(c)); }

// Whether the runs share batched calls (always on cuda; on cpu when --jobs-in-flight is given).
bool sharesEvaluations(const PathsampleConfig& c) {
  return c.backend == Backend::Cuda || c.jobsInFlight > 0;
}

// The lanes of shared calls: --call-lanes, by default one per thread running connect runs (each
// thread then makes its own runs' calls and never waits for another's: docs/benchmarks.md, "Lanes
// of shared calls"); never more (a lane without threads would never be called), nor more than
// kMaxCallLanes.
int callLanes(const PathsampleConfig& c) {
  const int threads = threadsRunningJobs(c) * c.cyclesInFlight;
  const int lanes = c.callLanes > 0 ? c.callLanes : std::min(threads, kMaxCallLanes);
  return std::max(1, std::min(lanes, threads));
}

std::string workers(const PathsampleConfig& c, const Growth& g, Communicator& ranks) {
  const int jobs = jobsInFlight(c);
  std::string text;
  if (g.sharesCalls())
    text = std::to_string(jobs) + " in flight on " + std::to_string(threadsRunningJobs(c)) +
           (threadsRunningJobs(c) == 1 ? " thread" : " threads") +
           ", their structures in shared calls of " + g.lanes.front().batched->name() +
           (g.lanes.size() > 1 ? " (" + std::to_string(g.lanes.size()) + " lanes)" : "");
  else
    text = std::to_string(c.threads) + (c.threads == 1 ? " thread" : " threads");
  text = " on " + (ranks.size() == 1 ? text : ranks.description() + ", " + text + " each");
  if (c.cyclesInFlight > 1)
    text += "; " + std::to_string(c.cyclesInFlight) + " cycles in flight, each with these";
  return text;
}

// The shared calls of a cycle: structures per call (how full the batches were) and how long a
// call took on average, with the share of it spent copying (what a run waits for each step).
std::string batchFill(const SharedBatchStatistics& before, const SharedBatchStatistics& after) {
  const long calls = after.calls - before.calls;
  if (calls == 0) return "";
  const double structures = static_cast<double>(after.structures - before.structures);
  const double seconds = after.callSeconds - before.callSeconds;
  const double copying = after.copySeconds - before.copySeconds;
  return format("  batch fill %.1f structures per call (%.0f calls, %.0f structures; ",
                structures / calls, static_cast<double>(calls), structures) +
         format("%.0f us per call, %.0f%% of it copying)", 1e6 * seconds / calls,
                seconds > 0 ? 100.0 * copying / seconds : 0.0);
}

// The whole-job calls of a cycle (--dneb-bands whole, --ts-searches whole): jobs per call and a
// call's length, `what` naming the jobs ("bands", "searches").
std::string wholeFill(const char* what, const SharedCallStatistics& before,
                      const SharedCallStatistics& after) {
  const long calls = after.calls - before.calls;
  if (calls == 0) return "";
  const double jobs = static_cast<double>(after.jobs - before.jobs);
  const std::string name(what);
  return "  whole " + name +
         format(" %.1f per call (%.0f calls, %.0f ", jobs / calls, static_cast<double>(calls),
                jobs) +
         name +
         format("; %.2f ms per call)", 1e3 * (after.callSeconds - before.callSeconds) / calls);
}

}  // namespace

OptimConfig growthConnectSettings(const PathsampleConfig& config, const ProgressPrinter& print) {
  return connectSettings(
      config, config.odataFile.empty() ? "" : odataKeywords(config.odataFile), print);
}

bool growNetwork(const PathsampleConfig& c, const ProgressPrinter& print,
                 const std::function<bool()>& stopRequested, Communicator& ranks) {
  const auto started = Clock::now();
  const bool resuming = !c.resumeDir.empty();
  const std::string dir = resuming ? c.resumeDir : c.outputDir;
  const std::string output = (fs::path(dir) / "network.h5").string();
  const std::string odataText = c.odataFile.empty() ? "" : odataKeywords(c.odataFile);
  const std::string settings = growthSettings(c, odataText);
  // Run in a PATHSAMPLE folder (its pathdata, min.data ..., no --database): the folder's files
  // are imported into the output folder's network.h5, which then grows in place; the grown
  // network's PATHSAMPLE files are written beside it at the end.
  const bool inFolder = readsPathsampleFolder(c);
  // One writer per folder and per network (rank 0 writes); a folder's network is continued with
  // --resume or grown in place (--database DIR/network.h5), never replaced by another.
  std::optional<OutputLock> folderLock;
  std::optional<DatabaseLock> networkLock;
  if (ranks.rank() == 0) {
    folderLock.emplace(dir, "pathsample grow");
    networkLock.emplace(output, "pathsample grow");
    std::error_code error;
    if (!resuming && fs::exists(output, error) &&
        (inFolder || !fs::equivalent(output, c.database, error)))
      throw std::runtime_error(output + " exists: it would be replaced by the network grown from " +
                               (inFolder ? "the PATHSAMPLE files of " + c.directory : c.database) +
                               " (continue it with --resume " + dir +
                               ", grow it with --database " + output +
                               ", or choose another --output)");
  }
  const bool fromFolder = !resuming && inFolder;
  if (fromFolder && ranks.rank() == 0) {
    PathsampleConfig import = c;
    import.mode = PathsampleMode::Import;
    import.database = output;
    runPathsampleMode(import, print);
  }
  if (fromFolder) ranks.broadcast(0L);  // the others read it once rank 0 has written it
  const std::string input = resuming || fromFolder ? output : c.database;
  if (KineticsOnlyDatabase::holdsOne(input))
    throw std::runtime_error(input + " holds a kinetics-only network (imported with NOPOINTS or "
                                     "--no-points, no coordinates): growth runs connect searches "
                                     "between structures, so it needs a database with "
                                     "coordinates (import with points.min and points.ts)");
  if (const std::size_t atoms = MinimaDatabase::readMetadata(input).atoms; atoms < 2)
    throw std::runtime_error(input + " holds a network of " + std::to_string(atoms) +
                             " atom: growth's connect runs need at least 2 atoms (NATOMS 1 is "
                             "PATHSAMPLE's dummy for kinetics-only networks; import those with "
                             "--no-points and compute their kinetics)");
  if (std::isfinite(c.maxTsEnergy))
    print("grow> note: --max-ts-energy (MAXTSENERGY) applies to rates, committors and regroup; "
          "the connect runs' transition states above it are kept in the network");
  Growth g(c, connectSettings(c, odataText, print), input, ranks);
  // A save characterises the new points while no run is in flight: on all the threads.
  g.settings.characterisation.threads = c.threads;
  g.output = output;
  if (sharesEvaluations(c)) g.shareEvaluations(c.threads, c.callPatience, callLanes(c));
  g.characteriseAhead(jobsInFlight(c));
  g.endedFile = endedConnectRunsPath(dir);
  if (resuming) {
    checkResume(g.known.growth, settings, output);
    g.loadEndedRuns(print);
  } else {
    g.known.growth = GrowthRecord{};  // a new run: its own record
    g.known.growth.settings = settings;
    if (ranks.rank() == 0) fs::remove(g.endedFile);  // an earlier run's, never this one's
  }
  if (g.known.setA.empty() || g.known.setB.empty()) {
    throw std::runtime_error((resuming ? output : c.database) +
                             ": no endpoint sets A and B (import a database with min.A and "
                             "min.B)");
  }
  // Every rank has read its input before rank 0 rewrites it (on --resume, the same file).
  ranks.anyTrue(false);
  if (ranks.rank() == 0) fs::create_directories(dir);
  g.save();  // the start (or the resumed state) in DIR, characterised
  print(format("grow> %.0f minima, %.0f transition states; cycle %.0f of %.0f; ",
               static_cast<double>(g.stored.minima.size()),
               static_cast<double>(g.stored.transitionStates.size()), g.known.growth.cycles,
               c.cycles) +
        std::to_string(c.pairsPerCycle) + " connect runs per cycle" + workers(c, g, ranks) +
        "; " + output);
  if (c.backend == Backend::Cuda && c.pairsPerCycle < 64)
    print("grow> note: the device fills with many connect runs in flight (e.g. --pairs-per-cycle "
          "256): " + std::to_string(c.pairsPerCycle) + " per cycle leave most of it idle");
  // One pool per cycle in flight: cycle n runs on pool n mod D, free again since cycle n - D
  // has ended; the pair selection computes its distances ahead on a pool of its own.
  std::vector<std::unique_ptr<ThreadPool>> pools;
  for (int k = 0; k < c.cyclesInFlight; ++k)
    pools.push_back(std::make_unique<ThreadPool>(threadsRunningJobs(c)));
  ThreadPool selectionPool(c.threads);
  g.pool = &selectionPool;
  if (ranks.size() == 1) g.stopSelection = stopRequested;
  const std::size_t statesAtStart = g.stored.transitionStates.size();
  const FaultDrill drill = faultDrill(ranks.rank());
  std::mutex printing;
  // A failure here leaves the runs in flight: none starts after it (they still end first).
  std::atomic<bool> abandoned{false};
  const std::function<bool()> stopRuns = [&abandoned, &stopRequested] {
    return abandoned.load() || (stopRequested && stopRequested());
  };
  const auto pairsOf = [](const std::deque<CycleInFlight>& cycles) {
    std::vector<std::vector<Pair>> pairs;
    for (const CycleInFlight& cycle : cycles) pairs.push_back(cycle.pairs);
    return pairs;
  };
  bool stopped = false;
  int taken = g.known.growth.cycles;  // cycles whose pairs were taken
  SharedBatchStatistics since = g.sharesCalls() ? g.callStatistics() : SharedBatchStatistics{};
  SharedCallStatistics bandsSince =
      g.sharedBands ? g.sharedBands->statistics() : SharedCallStatistics{};
  SharedCallStatistics searchesSince =
      g.sharedSearches ? g.sharedSearches->statistics() : SharedCallStatistics{};
  SharedCallStatistics alignmentsSince =
      g.sharedBands ? g.sharedBands->alignmentStatistics() : SharedCallStatistics{};
  std::deque<CycleInFlight> inFlight;  // oldest first
  WaitingWindow lastWait{Clock::now(), since};
  try {
    while (true) {
      // Agreed by all ranks (a signal may reach one only); rank 0 has saved the cycle before.
      if (!stopped && ranks.anyTrue(stopRequested && stopRequested())) stopped = true;
      // Cycles start until D are under way: cycle n's pairs are taken once cycle n - D has
      // merged, from the network as it then stood.
      bool noPairs = false;
      while (!stopped && inFlight.size() < static_cast<std::size_t>(c.cyclesInFlight) &&
             taken < c.cycles) {
        runFaultDrill(drill, taken + 1);
        // A stop while the pairs are chosen (a new candidate list can take minutes in a big
        // network) leaves the growth record as the last cycle taken left it.
        const GrowthRecord record = g.known.growth;
        std::vector<Pair> pairs;
        try {
          pairs = g.takePairs(print);
        } catch (const SelectionStopped&) {
          g.known.growth = record;
          print(
              format("cycle %.0f stopped while its pairs were chosen: the state of cycle %.0f "
                     "is saved",
                     taken + 1, g.known.growth.cycles));
          stopped = true;
          break;
        }
        if (pairs.empty()) {  // perhaps not once the cycles in flight have merged
          noPairs = true;
          break;
        }
        CycleInFlight& cycle = inFlight.emplace_back();
        cycle.number = ++taken;
        cycle.pairs = std::move(pairs);
        startCycle(g, cycle, *pools[static_cast<std::size_t>(cycle.number % c.cyclesInFlight)],
                   stopRuns, printing, print, started);
      }
      if (inFlight.empty()) {
        if (noPairs) print("grow> no candidate pairs left: growth ends");
        break;
      }
      std::vector<ConnectJobResult> jobs;
      if (!finishCycle(g, inFlight.front(), jobs, [&] {
            if (ranks.rank() == 0) print(waitingLine(g, inFlight, printing, lastWait, started));
          })) {
        // Every cycle from this one on is given back: none may merge before it. Their runs that
        // had ended are kept for --resume (written before the record that gives their pairs back).
        stopped = true;
        const std::vector<std::vector<Pair>> back = pairsOf(inFlight);
        std::size_t kept = 0;
        for (std::size_t k = 0; k < inFlight.size(); ++k) {
          if (k > 0) finishCycle(g, inFlight[k], jobs);
          std::lock_guard<std::mutex> lock(g.endedLock);
          for (std::size_t j = 0; j < jobs.size(); ++j) {
            if (!jobs[j].ran) continue;
            g.ended[inFlight[k].pairs[j]] = std::move(jobs[j]);
            ++kept;
          }
        }
        g.saveEndedRuns();
        giveBack(g.known.growth, back);
        g.save();
        const double elapsed = secondsSince(started);
        std::size_t pairs = 0;
        for (const std::vector<Pair>& cycle : back) pairs += cycle.size();
        const std::string which =
            back.size() == 1
                ? format("cycle %.0f", inFlight.front().number)
                : format("cycles %.0f-%.0f", inFlight.front().number, inFlight.back().number);
        print(which + format(" stopped after %.1f s: nothing of ", elapsed) +
              (back.size() == 1 ? "it merged, its " : "them merged, their ") +
              std::to_string(pairs) + " pairs first on the list again" +
              (kept > 0 ? "; " + std::to_string(kept) + " of those runs had ended and are kept (" +
                              g.endedFile + ")"
                        : std::string()));
        inFlight.clear();
        break;
      }
      const auto merging = Clock::now();
      const MergeCounts found = mergeCycle(g, jobs);
      const double mergeSeconds = secondsSince(merging);
      const std::vector<Pair> pairs = std::move(inFlight.front().pairs);
      inFlight.pop_front();
      std::string fill;
      if (g.sharesCalls()) {
        const SharedBatchStatistics now = g.callStatistics();
        fill = batchFill(since, now);
        since = now;
      }
      if (g.sharedBands) {
        const SharedCallStatistics now = g.sharedBands->statistics();
        fill += wholeFill("bands", bandsSince, now);
        bandsSince = now;
      }
      if (g.endpointAlignment) {
        const SharedCallStatistics now = g.sharedBands->alignmentStatistics();
        fill += wholeFill("alignments", alignmentsSince, now);  // endpoints and Dijkstra distances
        alignmentsSince = now;
      }
      if (g.sharedSearches) {
        const SharedCallStatistics now = g.sharedSearches->statistics();
        fill += wholeFill("searches", searchesSince, now);
        searchesSince = now;
      }
      const Growth::SaveSeconds saved = g.save(pairsOf(inFlight));
      std::size_t used = 0;
      {
        std::lock_guard<std::mutex> lock(g.endedLock);
        for (const Pair& pair : pairs) used += g.ended.erase(pair);
      }
      if (used > 0) g.saveEndedRuns();
      const double elapsed = secondsSince(started);
      const double added = static_cast<double>(g.stored.transitionStates.size() - statesAtStart);
      print(
          format("cycle %.0f  pairs %.0f  new minima %.0f  new ts %.0f  ", g.known.growth.cycles,
                 static_cast<double>(pairs.size()), found.newMinima, found.newTransitionStates) +
          format("known ts %.0f  repeated ts %.0f  ", found.knownTransitionStates,
                 found.repeatedInCycle) +
          format("minima %.0f  ts %.0f  elapsed %.1f s  ts per hour %.0f",
                 static_cast<double>(g.stored.minima.size()),
                 static_cast<double>(g.stored.transitionStates.size()), elapsed,
                 elapsed > 0 ? added * 3600.0 / elapsed : 0.0) +
          format("  merge %.1f s  characterisation %.1f s", mergeSeconds, saved.characterisation) +
          (saved.ahead.points > 0
               ? format(" (%.0f of %.0f points done ahead)", static_cast<double>(saved.ahead.ahead),
                        static_cast<double>(saved.ahead.points))
               : std::string()) +
          format("  write %.1f s", saved.write) + fill +
          "  pairs:" + pairList(pairs, ranks.size()));
    }
  } catch (...) {
    abandoned = true;
    throw;
  }
  if (inFolder && ranks.rank() == 0) {
    PathsampleConfig files = c;
    files.mode = PathsampleMode::Export;
    files.database = output;
    files.directory = dir;
    runPathsampleMode(files, print);
  }
  print(format("pathsample: grew to %.0f minima and %.0f transition states in %.0f cycles; ",
               static_cast<double>(g.stored.minima.size()),
               static_cast<double>(g.stored.transitionStates.size()), g.known.growth.cycles) +
        output + (stopped ? " (stopped on request; continue with --resume " + dir + ")" : ""));
  return stopped;
}

}  // namespace landscape
