#include "src/gmin/GminWalkers.h"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <thread>
#include <utility>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "gpu/DeviceMemoryPlan.h"
#include "gpu/GpuDevice.h"
#include "landscape/minimisation/BatchedRoundsPlan.h"
#include "landscape/minimisation/ParallelLbfgs.h"

namespace landscape {

namespace {

// The cores this process may run on: its affinity mask, which a launcher that binds ranks to
// cores (mpirun does by default for a few ranks) narrows.
int allowedCores() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) == 0) return std::max(1, CPU_COUNT(&mask));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// This rank's share of the node's cores: the cores it is bound to, or, when it may run anywhere,
// the node's cores divided among its ranks.
int cores(WalkerRanks ranks) {
  const int node = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int allowed = allowedCores();
  if (allowed < node) return allowed;
  return std::max(1, node / std::max(1, ranks.ranksOnNode));
}

// The walkers the run asks for: --walkers, the checkpoint's, 1 for the Langevin move; 0 when the
// default applies.
int requestedWalkers(const GminConfig& config, int checkpointWalkers) {
  if (config.walkers > 0) return config.walkers;
  if (checkpointWalkers > 0) return checkpointWalkers;
  if (config.langevin.steps > 0) return 1;
  return 0;
}

// The default walkers of one rank on `engine`.
int defaultWalkersPerRank(WalkerEngine engine, const WalkerFacts& facts, int deviceDefaultWalkers) {
  switch (engine) {
    case WalkerEngine::LennardJonesTeams:
      return clusterWalkers(facts.clusterAtoms);
    case WalkerEngine::DeviceRounds:
      return deviceDefaultWalkers;
    case WalkerEngine::CpuThreads:
      return facts.cores;
    case WalkerEngine::RunPotential:
      return 1;
  }
  return 1;
}

// Walkers per rank from which AMBER-GB takes the layout for batches that fill the device by their
// number: on the H200 it is the faster from about 16 structures per call (trp-cage, double: 4.9
// against 6.4 us per structure at B = 256; docs/benchmarks.md, "Batched AMBER GB").
constexpr int kGbThroughputLayoutWalkers = 16;

// The device batched potential of the system in `precision` (AMBER-GB; the other kinds have one
// arithmetic); `perRank`: the walkers each rank will run (0: the default, hundreds).
std::shared_ptr<BatchedPotential> deviceBatchedPotential(const GminSystem& system,
                                                         Precision precision, int perRank) {
  BatchedPotentialOptions options;
  options.gbLayout = perRank == 0 || perRank >= kGbThroughputLayoutWalkers
                         ? AmberGbCudaLayout::Throughput
                         : AmberGbCudaLayout::Latency;
  PotentialSpec spec = system.spec;
  if (spec.kind == PotentialSpec::Kind::AmberGb) spec.precision = precision;
  // Rigid bodies (--rigid, --water): the rigid layer over the device batch; the rounds engine
  // minimises in its angle-axis metric (docs/lbfgs.md).
  return system.rigid ? makeBatchedRigidPotential(spec, *system.rigid, Backend::Cuda, options)
                      : makeBatchedPotentialForSpec(spec, Backend::Cuda, options);
}

// The device batched potential of the walkers' quenches (one structure's scratch for now) and the
// facts that size them on it.
std::shared_ptr<BatchedPotential> deviceRoundsFacts(const GminConfig& config,
                                                    const GminSystem& system, int perRank,
                                                    WalkerFacts& facts) {
  std::shared_ptr<BatchedPotential> potential =
      deviceBatchedPotential(system, config.quenchPrecision, perRank);
  // A walker on the rounds engine: its slot (history of --lbfgs-m pairs), its coordinates and
  // outcome, and the potential's scratch.
  const std::size_t n = potential->dimension();
  // Measured for rigid water only: the other small systems keep 2 per multiprocessor until
  // measured (their default walker counts, and so their runs, stay as they were).
  facts.dimension = system.rigid ? n : 0;
  const int m = config.basinHopping.lbfgs.historySize;
  facts.bytesPerWalker =
      roundsSlotBytes(n, m) + roundsStructureBytes(n) + potential->bytesPerStructure() +
      (potential->rowsMayMove() ? roundsPackBytes(n, m, false, config.walkerPack) : 0);
  const GpuProperties device = gpuProperties();
  facts.multiprocessors = device.multiprocessors;
  facts.freeBytes = device.freeBytes;
  return potential;
}

}  // namespace

int clusterWalkers(std::size_t atoms) { return atoms < kLargeClusterAtoms ? 256 : 4096; }

// Chosen for the time to the global minimum (H200, gmin's default walkers, docs/benchmarks.md):
// LJ38 (Oh, centrosymmetric) median 0.019 s over 20 seeds with it, 0.064 s without. Larger
// clusters keep it off: LJ75 (D5h, no inversion centre) 3.9 s over 8 seeds with it, as without,
// but LJ98 (Td, none either) 8 of 10 seeds within 50 s, median 32 s, against 10 of 10 and 17 s.
void useDefaultSymmetrisation(GminConfig& config, const GminWalkerPlan& plan,
                              const CheckpointFingerprint* resumedFrom) {
  if (config.symmetriseGiven || plan.engine != WalkerEngine::LennardJonesTeams) return;
  if (plan.facts.clusterAtoms >= kLargeClusterAtoms) return;
  if (resumedFrom) {
    bool saved = false;
    for (const auto& [key, value] : *resumedFrom)
      saved = saved || (key == "symmetrise" && value == "csm");
    if (!saved) return;
  }
  SymmetrisationParams& s = config.basinHopping.symmetrisation;
  s.scheme = SymmetrisationParams::Scheme::Csm;
  s.interval = kDefaultCsmInterval;
}

WalkerEngine walkerEngine(const GminConfig& config, const GminSystem& system) {
  if (config.backend == Backend::Cuda) {
    if (!system.rigidPotential && system.spec.kind == PotentialSpec::Kind::LennardJones)
      return WalkerEngine::LennardJonesTeams;
    if (batchedPotentialIsDeviceResident(system.spec.kind, Backend::Cuda))
      return WalkerEngine::DeviceRounds;
  }
  // Each CPU thread needs its own potential: built from the spec on the CPU (rigid bodies on the
  // host over their own atomistic copy, walkerPotentialCopy); potentials on CUDA are not copied.
  if (config.backend == Backend::Cpu && system.searched().backend() == Backend::Cpu)
    return WalkerEngine::CpuThreads;
  return WalkerEngine::RunPotential;
}

bool GminWalkerPlan::walkerRun(const GminConfig& config) const {
  return walkers > 1 || config.tempering.enabled;
}

GminWalkerPlan planWalkers(const GminConfig& config, WalkerEngine engine, int checkpointWalkers,
                           WalkerRanks ranks, const WalkerFacts& facts,
                           const std::function<int(int)>& agree) {
  GminWalkerPlan plan;
  plan.engine = engine;
  plan.facts = facts;
  if (engine == WalkerEngine::DeviceRounds)
    plan.deviceDefaultWalkers =
        deviceWalkers(facts.multiprocessors, facts.bytesPerWalker,
                      deviceBytesForBatches(facts.freeBytes, 0),
                      walkersPerMultiprocessor(facts.dimension));
  plan.walkers = requestedWalkers(config, checkpointWalkers);
  plan.automatic = plan.walkers == 0;
  if (plan.automatic)
    plan.walkers = ranks.ranks * defaultWalkersPerRank(engine, facts, plan.deviceDefaultWalkers);
  if (agree) plan.walkers = agree(plan.walkers);
  plan.perRank = (plan.walkers + ranks.ranks - 1) / ranks.ranks;
  plan.threads = engine == WalkerEngine::CpuThreads ? std::min(plan.perRank, facts.cores) : 1;
  return plan;
}

GminWalkerPlan planGminWalkers(const GminConfig& config, const GminSystem& system,
                               int checkpointWalkers, WalkerRanks ranks,
                               const std::function<int(int)>& agree, bool ensemble) {
  const WalkerEngine engine = walkerEngine(config, system);
  const int requested = requestedWalkers(config, checkpointWalkers);
  WalkerFacts facts;
  facts.cores = cores(ranks);
  std::shared_ptr<BatchedPotential> potential;
  // The device batched potential is built for the default count or a walker run (one chain
  // quenches on the run's own potential).
  if (engine == WalkerEngine::DeviceRounds &&
      (ensemble || requested != 1 || config.tempering.enabled))
    potential = deviceRoundsFacts(config, system,
                                  (requested + ranks.ranks - 1) / std::max(1, ranks.ranks), facts);
  if (engine == WalkerEngine::LennardJonesTeams && requested == 0)
    facts.clusterAtoms = system.spec.atoms;
  GminWalkerPlan plan = planWalkers(config, engine, checkpointWalkers, ranks, facts, agree);
  if (potential && (ensemble || plan.walkerRun(config))) {
    // Scratch for the largest batch before the first graph capture (growing it inside a capture
    // would cost the engine its graph): the walkers' quenches or the tight re-quench of the list.
    potential->reserve(
        static_cast<std::size_t>(std::max({1, plan.perRank, config.basinHopping.saveCount})));
    plan.devicePotential = std::move(potential);
    if (system.spec.kind == PotentialSpec::Kind::AmberGb &&
        config.quenchPrecision != config.precision) {
      plan.tightDevicePotential = deviceBatchedPotential(system, config.precision, 0);
      plan.tightDevicePotential->reserve(
          static_cast<std::size_t>(std::max(1, config.basinHopping.saveCount)));
    }
  }
  return plan;
}

std::unique_ptr<Potential> walkerPotentialCopy(const GminSystem& system) {
  std::unique_ptr<Potential> atomistic = makePotential(system.spec, Backend::Cpu);
  if (!system.rigid) return atomistic;
  return makeOwningRigidBodyPotential(std::move(atomistic), *system.rigid, Backend::Cpu);
}

int walkersPerMultiprocessor(std::size_t dimension) {
  return dimension > 0 && dimension <= kSmallStructureDimension ? kWalkersPerMultiprocessorSmall
                                                                : kWalkersPerMultiprocessor;
}

int deviceWalkers(int multiprocessors, std::size_t bytesPerWalker, std::size_t availableBytes,
                  int perMultiprocessor) {
  const std::size_t wanted = static_cast<std::size_t>(std::max(1, multiprocessors)) *
                             static_cast<std::size_t>(std::max(1, perMultiprocessor));
  const std::size_t fit = bytesPerWalker > 0 ? availableBytes / 2 / bytesPerWalker : wanted;
  return static_cast<int>(std::max<std::size_t>(1, std::min(wanted, fit)));
}

BatchedMinimiserMaker roundsMinimiserMaker(std::shared_ptr<BatchedPotential> potential,
                                           Backend backend, const BatchedRoundsOptions& rounds) {
  BatchedEngineOptions options;
  options.engine = BatchedEngine::Rounds;
  options.rounds = rounds;
  return [potential, backend, options](const LbfgsParams& params) {
    return makeBatchedMinimiserOwning(potential, params, backend, options);
  };
}

void checkWalkerRun(const GminConfig& config, int walkers) {
  if (walkers > 1 && config.langevin.steps > 0)
    throw std::runtime_error(
        "command line: --langevin-steps runs one chain (its noise stream is numbered by quench); "
        "use --walkers 1");
}

std::unique_ptr<Potential> walkerHostPotential(const GminWalkerPlan& plan,
                                               const GminSystem& system) {
  return plan.engine == WalkerEngine::LennardJonesTeams || plan.engine == WalkerEngine::DeviceRounds
             ? walkerPotentialCopy(system)
             : nullptr;
}

namespace {

// The rounds engine on the device over `potential`, with --walker-resident slots.
BatchedMinimiserMaker deviceRoundsMaker(std::shared_ptr<BatchedPotential> potential,
                                        const GminConfig& config) {
  BatchedRoundsOptions rounds;
  rounds.residentStructures = config.walkerResident;
  rounds.packFactor = config.walkerPack;
  return roundsMinimiserMaker(std::move(potential), Backend::Cuda, rounds);
}

}  // namespace

BatchedMinimiserMaker walkerMinimiserMaker(const GminWalkerPlan& plan, const GminConfig& config,
                                           GminSystem& system) {
  if (plan.engine == WalkerEngine::LennardJonesTeams) {
    const BatchedSystem lj{system.spec.atoms};
    return [lj](const LbfgsParams& params) {
      return makeBatchedMinimiser(lj, params, Backend::Cuda, {BatchedEngine::Team});
    };
  }
  if (plan.engine == WalkerEngine::DeviceRounds) {
    if (!plan.devicePotential)
      throw std::logic_error("walkerMinimiserMaker: a single chain's plan has no device potential");
    return deviceRoundsMaker(plan.devicePotential, config);
  }
  // Thread 0 evaluates the run's own potential; the others copies built from the spec.
  auto copies = std::make_shared<std::vector<std::unique_ptr<Potential>>>();
  std::vector<Potential*> potentials{&system.searched()};
  for (int t = 1; t < plan.threads; ++t) {
    copies->push_back(walkerPotentialCopy(system));
    potentials.push_back(copies->back().get());
  }
  const LbfgsWorkspaceFactory workspaces = lbfgsWorkspaceFactory(config.lbfgsBackend);
  return [copies, potentials, workspaces](const LbfgsParams& params) {
    return std::unique_ptr<BatchedMinimiser>(
        std::make_unique<ParallelLbfgs>(potentials, params, workspaces));
  };
}

BatchedMinimiserMaker walkerTightMinimiserMaker(const GminWalkerPlan& plan,
                                                const GminConfig& config) {
  if (!plan.tightDevicePotential) return {};
  return deviceRoundsMaker(plan.tightDevicePotential, config);
}

std::string walkerQuenchDescription(const GminWalkerPlan& plan, const GminConfig& config) {
  switch (plan.engine) {
    case WalkerEngine::LennardJonesTeams:
      return "quenches on the GPU: Lennard-Jones team kernel (gpu/BatchedLbfgsCuda), all walkers "
             "in one launch";
    case WalkerEngine::CpuThreads:
      return "quenches on CPU threads (ParallelLbfgs, a copy of the potential per thread)";
    case WalkerEngine::RunPotential:
      return "quenches one at a time on the run's potential (no device batched potential)";
    case WalkerEngine::DeviceRounds:
      break;
  }
  const std::string resident =
      config.walkerResident > 0 && config.walkerResident < static_cast<std::size_t>(plan.perRank)
          ? std::to_string(config.walkerResident) + " walkers"
          : std::string("all walkers");
  const std::string tight = plan.tightDevicePotential
                                ? "; the tight re-quench over " + plan.tightDevicePotential->name()
                                : std::string();
  char line[768];
  std::snprintf(line, sizeof line,
                "quenches on the GPU: round-based L-BFGS (gpu/BatchedLbfgsRoundsCuda) over %s, "
                "%.3g MB of device memory per walker, %s resident; default walkers %d per GPU "
                "(%d per multiprocessor x %d, capped by half the free memory)%s",
                plan.devicePotential ? plan.devicePotential->name().c_str() : "no potential",
                static_cast<double>(plan.facts.bytesPerWalker) / 1e6, resident.c_str(),
                plan.deviceDefaultWalkers, walkersPerMultiprocessor(plan.facts.dimension),
                plan.facts.multiprocessors, tight.c_str());
  return line;
}

}  // namespace landscape
