#pragma once
// How gmin runs walkers (issue 18, landscape/search/WalkerEnsemble.h): how many by default, and
// the batched minimiser their quenches go through on each backend.
//   Lennard-Jones on --backend cuda: gpu/BatchedLbfgsCuda, all walkers in one launch;
//   otherwise ParallelLbfgs: each quench a whole GMIN L-BFGS on one of min(W, cores) threads, each
//   thread with its own copy of the potential (CPU, rigid bodies on the host included), or one
//   thread on the run's own potential (CUDA molecules, rigid bodies on the device), with the
//   L-BFGS of --lbfgs-backend.
#include "landscape/search/WalkerEnsemble.h"
#include "src/GminSystem.h"
#include "src/RunConfig.h"

namespace landscape {

/// How the processes of `mpirun -n K gmin` share the machines (docs/cluster.md): K ranks,
/// `ranksOnNode` of them on this node (they divide its CPU cores). One process: {1, 1}.
struct WalkerRanks {
  int ranks = 1;
  int ranksOnNode = 1;
};

/// --walkers, or when 0: `checkpointWalkers` on --resume (> 0), else 1 for the Langevin move
/// (which cannot be split into walkers), and per rank: 1 for the systems that cannot be copied
/// (molecules on CUDA, rigid bodies on the device), the device's resident teams for Lennard-Jones on CUDA, and
/// one per CPU core of the rank's share of its node otherwise.
int resolveWalkers(const GminRunConfig& config, const GminSystem& system, int checkpointWalkers,
                   WalkerRanks ranks = {});

/// A CPU copy of the potential the search runs on, for another thread: the spec's potential, in
/// rigid coordinates over it with --rigid (the same bits as system.searched() when that runs on
/// the CPU).
std::unique_ptr<Potential> walkerPotentialCopy(const GminSystem& system);

/// Throws std::runtime_error for walker runs gmin cannot do (the Langevin move, whose noise
/// stream is numbered by quench, with more than one walker).
void checkWalkerRun(const GminRunConfig& config, int walkers);

/// The minimisers of a walker run of `walkers` walkers (on this rank); the maker keeps what it
/// builds alive.
BatchedMinimiserMaker walkerMinimiserMaker(const GminRunConfig& config, GminSystem& system,
                                           int walkers, WalkerRanks ranks = {});

/// The potential the walkers' host-side work (ASTEP atom energies) runs on: a CPU copy for
/// Lennard-Jones on CUDA (one device call per accepted step would stall the rounds), else nullptr
/// (the run's own potential).
std::unique_ptr<Potential> walkerHostPotential(const GminRunConfig& config,
                                               const GminSystem& system);

/// The threads the CPU minimiser uses for `walkers` walkers (1 when the system cannot be copied),
/// at most the rank's share of the node's cores.
int walkerThreads(const GminRunConfig& config, const GminSystem& system, int walkers,
                  WalkerRanks ranks = {});

}  // namespace landscape
