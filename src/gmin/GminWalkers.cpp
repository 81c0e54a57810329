#include "src/gmin/GminWalkers.h"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <stdexcept>
#include <thread>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/RigidBodyFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/minimisation/BatchedRoundsPlan.h"
#include "landscape/minimisation/ParallelLbfgs.h"

namespace landscape {

namespace {

bool ljOnCuda(const GminConfig& config, const GminSystem& system) {
  return config.backend == Backend::Cuda && !system.rigidPotential &&
         system.spec.kind == PotentialSpec::Kind::LennardJones;
}

// A rounds engine that shares its batched potential with the ensemble's other minimisers (the
// sloppy and the tight one exist together) and keeps it alive.
class SharingMinimiser : public BatchedMinimiser {
 public:
  SharingMinimiser(std::shared_ptr<BatchedPotential> potential,
                   std::unique_ptr<BatchedMinimiser> minimiser)
      : m_potential(std::move(potential)), m_minimiser(std::move(minimiser)) {}
  std::string name() const override { return m_minimiser->name(); }
  std::size_t dimension() const override { return m_minimiser->dimension(); }
  const LbfgsParams& params() const override { return m_minimiser->params(); }
  BatchMemory memory() const override { return m_minimiser->memory(); }
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override {
    m_minimiser->minimise(batch, x, results);
  }

 private:
  std::shared_ptr<BatchedPotential> m_potential;  // declared first: destroyed after the minimiser
  std::unique_ptr<BatchedMinimiser> m_minimiser;
};

// The device batched potential of the system, scratch for `reserve` structures, or nullptr
// (walkerDevicePotential).
std::shared_ptr<BatchedPotential> devicePotential(const GminConfig& config,
                                                  const GminSystem& system, std::size_t reserve) {
  if (config.backend != Backend::Cuda || system.rigidPotential ||
      system.spec.kind == PotentialSpec::Kind::LennardJones)
    return nullptr;
  BatchedPotentialOptions options;
  options.reserveBatch = reserve;
  std::shared_ptr<BatchedPotential> potential;
  try {
    potential = makeBatchedPotentialForSpec(system.spec, Backend::Cuda, options);
  } catch (const std::invalid_argument&) {
    return nullptr;  // no batched potential of this kind on cuda (yet)
  }
  if (!potential || !potential->isDeviceResident()) return nullptr;
  return potential;
}

// The potential of the probes that only look (engine choice, bytes, the default W): one
// structure's scratch.
std::shared_ptr<BatchedPotential> probePotential(const GminConfig& config,
                                                 const GminSystem& system) {
  return devicePotential(config, system, 1);
}

// Whether the system's quenches run on the device rounds engine: tried through the factory.
bool onDeviceRounds(const GminConfig& config, const GminSystem& system) {
  return probePotential(config, system) != nullptr;
}

// Device bytes of one walker on the rounds engine: its slot (history of --lbfgs-m pairs), its
// coordinates and outcome, and the potential's scratch.
std::size_t deviceBytesPerWalker(const GminConfig& config, const BatchedPotential& potential) {
  const std::size_t n = potential.dimension();
  return roundsSlotBytes(n, config.basinHopping.lbfgs.historySize) + roundsStructureBytes(n) +
         batchedPotentialBytesPerStructure(potential);
}

// Device memory the walkers may use now: free memory (as the rounds engine counts it).
std::size_t deviceAvailableBytes(const GminConfig& config, BatchedPotential& potential) {
  const BatchMemory memory =
      makeBatchedMinimiserOver(potential, config.basinHopping.lbfgs, BatchedBackend::CudaRounds, {})
          ->memory();
  return memory.availableBytes > memory.fixedBytes ? memory.availableBytes - memory.fixedBytes : 0;
}

// Each CPU thread needs its own potential: built from the spec on the CPU (rigid bodies on the
// host over their own atomistic copy, walkerPotentialCopy); potentials on CUDA are not copied.
bool copyable(const GminConfig& config, const GminSystem& system) {
  return config.backend == Backend::Cpu && system.searched().backend() == Backend::Cpu;
}

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

}  // namespace

std::unique_ptr<Potential> walkerPotentialCopy(const GminSystem& system) {
  std::unique_ptr<Potential> atomistic = makePotential(system.spec, Backend::Cpu);
  if (!system.rigid) return atomistic;
  return makeOwningRigidBodyPotential(std::move(atomistic), *system.rigid, Backend::Cpu);
}

int resolveWalkers(const GminConfig& config, const GminSystem& system, int checkpointWalkers,
                   WalkerRanks ranks) {
  if (config.walkers > 0) return config.walkers;
  if (checkpointWalkers > 0) return checkpointWalkers;
  if (config.langevin.steps > 0) return 1;
  if (ljOnCuda(config, system))
    return ranks.ranks * static_cast<int>(batchedResidentStructures({system.spec.atoms}, {}));
  if (const auto potential = probePotential(config, system))
    return ranks.ranks * deviceWalkers(gpuMultiprocessors(),
                                       deviceBytesPerWalker(config, *potential),
                                       deviceAvailableBytes(config, *potential));
  return ranks.ranks * (copyable(config, system) ? cores(ranks) : 1);
}

int deviceWalkers(int multiprocessors, std::size_t bytesPerWalker, std::size_t availableBytes) {
  const std::size_t wanted =
      static_cast<std::size_t>(std::max(1, multiprocessors)) * kWalkersPerMultiprocessor;
  const std::size_t fit = bytesPerWalker > 0 ? availableBytes / 2 / bytesPerWalker : wanted;
  return static_cast<int>(std::max<std::size_t>(1, std::min(wanted, fit)));
}

std::shared_ptr<BatchedPotential> walkerDevicePotential(const GminConfig& config,
                                                        const GminSystem& system, int walkers) {
  // Scratch for the largest batch before the first graph capture (growing it inside a capture
  // would cost the engine its graph): the walkers' quenches or the tight re-quench of the list.
  return devicePotential(
      config, system,
      static_cast<std::size_t>(std::max({1, walkers, config.basinHopping.saveCount})));
}

BatchedMinimiserMaker roundsMinimiserMaker(std::shared_ptr<BatchedPotential> potential,
                                           BatchedBackend backend,
                                           const BatchedRoundsOptions& rounds) {
  BatchedEngineOptions options;
  options.rounds = rounds;
  return [potential, backend, options](const LbfgsParams& params) {
    return std::unique_ptr<BatchedMinimiser>(std::make_unique<SharingMinimiser>(
        potential, makeBatchedMinimiserOver(*potential, params, backend, options)));
  };
}

void checkWalkerRun(const GminConfig& config, int walkers) {
  if (walkers > 1 && config.langevin.steps > 0)
    throw std::runtime_error(
        "command line: --langevin-steps runs one chain (its noise stream is numbered by quench); "
        "use --walkers 1");
}

std::unique_ptr<Potential> walkerHostPotential(const GminConfig& config, const GminSystem& system) {
  return ljOnCuda(config, system) || onDeviceRounds(config, system)
             ? makePotential(system.spec, Backend::Cpu)
             : nullptr;
}

int walkerThreads(const GminConfig& config, const GminSystem& system, int walkers,
                  WalkerRanks ranks) {
  return copyable(config, system) ? std::min(walkers, cores(ranks)) : 1;
}

BatchedMinimiserMaker walkerMinimiserMaker(const GminConfig& config, GminSystem& system,
                                           int walkers, WalkerRanks ranks) {
  if (ljOnCuda(config, system)) {
    const BatchedSystem lj{system.spec.atoms};
    return [lj](const LbfgsParams& params) {
      return makeBatchedMinimiser(lj, params, BatchedBackend::Cuda, {});
    };
  }
  if (auto potential = walkerDevicePotential(config, system, walkers)) {
    BatchedRoundsOptions rounds;
    rounds.residentStructures = config.walkerResident;
    return roundsMinimiserMaker(std::move(potential), BatchedBackend::CudaRounds, rounds);
  }
  // Thread 0 evaluates the run's own potential; the others copies built from the spec.
  auto copies = std::make_shared<std::vector<std::unique_ptr<Potential>>>();
  std::vector<Potential*> potentials{&system.searched()};
  for (int t = 1; t < walkerThreads(config, system, walkers, ranks); ++t) {
    copies->push_back(walkerPotentialCopy(system));
    potentials.push_back(copies->back().get());
  }
  const LbfgsWorkspaceFactory workspaces = lbfgsWorkspaceFactory(config.lbfgsBackend);
  return [copies, potentials, workspaces](const LbfgsParams& params) {
    return std::unique_ptr<BatchedMinimiser>(
        std::make_unique<ParallelLbfgs>(potentials, params, workspaces));
  };
}

std::string walkerQuenchDescription(const GminConfig& config, const GminSystem& system,
                                    int walkers) {
  if (ljOnCuda(config, system))
    return "quenches on the GPU: Lennard-Jones team kernel (gpu/BatchedLbfgsCuda), all walkers "
           "in one launch";
  const auto potential = probePotential(config, system);
  if (!potential)
    return copyable(config, system)
               ? "quenches on CPU threads (ParallelLbfgs, a copy of the potential per thread)"
               : "quenches one at a time on the run's potential (no device batched potential)";
  const int multiprocessors = gpuMultiprocessors();
  const std::size_t bytes = deviceBytesPerWalker(config, *potential);
  const std::string resident =
      config.walkerResident > 0 && config.walkerResident < static_cast<std::size_t>(walkers)
          ? std::to_string(config.walkerResident) + " walkers"
          : std::string("all walkers");
  char line[512];
  std::snprintf(line, sizeof line,
                "quenches on the GPU: round-based L-BFGS (gpu/BatchedLbfgsRoundsCuda) over %s, "
                "%.3g MB of device memory per walker, %s resident; default walkers %d per GPU "
                "(%d per multiprocessor x %d, capped by half the free memory)",
                potential->name().c_str(), static_cast<double>(bytes) / 1e6, resident.c_str(),
                deviceWalkers(multiprocessors, bytes, deviceAvailableBytes(config, *potential)),
                kWalkersPerMultiprocessor, multiprocessors);
  return line;
}

}  // namespace landscape
