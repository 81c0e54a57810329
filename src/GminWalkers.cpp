#include "src/GminWalkers.h"

#include <sched.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/RigidBodyFactory.h"
#include "landscape/minimisation/ParallelLbfgs.h"

namespace landscape {

namespace {

bool ljOnCuda(const GminRunConfig& config, const GminSystem& system) {
  return config.backend == Backend::Cuda && !system.rigidPotential &&
         system.spec.kind == PotentialSpec::Kind::LennardJones;
}

// Each CPU thread needs its own potential: built from the spec on the CPU (rigid bodies on the
// host over their own atomistic copy, walkerPotentialCopy); potentials on CUDA are not copied.
bool copyable(const GminRunConfig& config, const GminSystem& system) {
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

int resolveWalkers(const GminRunConfig& config, const GminSystem& system, int checkpointWalkers,
                   WalkerRanks ranks) {
  if (config.walkers > 0) return config.walkers;
  if (checkpointWalkers > 0) return checkpointWalkers;
  if (config.langevin.steps > 0) return 1;
  if (ljOnCuda(config, system))
    return ranks.ranks * static_cast<int>(batchedResidentStructures({system.spec.atoms}, {}));
  return ranks.ranks * (copyable(config, system) ? cores(ranks) : 1);
}

void checkWalkerRun(const GminRunConfig& config, int walkers) {
  if (walkers > 1 && config.langevin.steps > 0)
    throw std::runtime_error(
        "command line: --langevin-steps runs one chain (its noise stream is numbered by quench); "
        "use --walkers 1");
}

std::unique_ptr<Potential> walkerHostPotential(const GminRunConfig& config,
                                               const GminSystem& system) {
  return ljOnCuda(config, system) ? makePotential(system.spec, Backend::Cpu) : nullptr;
}

int walkerThreads(const GminRunConfig& config, const GminSystem& system, int walkers,
                  WalkerRanks ranks) {
  return copyable(config, system) ? std::min(walkers, cores(ranks)) : 1;
}

BatchedMinimiserMaker walkerMinimiserMaker(const GminRunConfig& config, GminSystem& system,
                                           int walkers, WalkerRanks ranks) {
  if (ljOnCuda(config, system)) {
    const BatchedSystem lj{system.spec.atoms};
    return [lj](const LbfgsParams& params) {
      return makeBatchedMinimiser(lj, params, BatchedBackend::Cuda, {});
    };
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

}  // namespace landscape
