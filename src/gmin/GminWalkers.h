#pragma once
// How gmin runs walkers (issue 18, landscape/search/WalkerEnsemble.h): how many by default, and
// the batched minimiser their quenches go through on each backend.
//   Lennard-Jones on --backend cuda: gpu/BatchedLbfgsCuda (team kernel), all walkers in one launch;
//   any other non-rigid system on --backend cuda whose kind the batched potential factory
//   (backends/BatchedPotentialFactory) builds device resident -- AMBER-GB and SOP, and the kinds
//   added there later with no change here: gpu/BatchedLbfgsRoundsCuda over that batched potential, the
//   whole L-BFGS of every walker on the device, walkers refilling the resident slots (not rigid
//   bodies: the rounds engine has no diagonal metric, and PotentialSpec carries no bodies);
//   otherwise ParallelLbfgs: each quench a whole GMIN L-BFGS on one of min(W, cores) threads, each
//   thread with its own copy of the potential (CPU, rigid bodies on the host included), or one
//   thread on the run's own potential (CUDA systems with no device batched potential, rigid
//   bodies on the device), with the L-BFGS of --lbfgs-backend.
// The host does every walker's step (perturbation, side-chain rotations, chirality and cis/trans
// checks, Metropolis, NEWRESTART) in walker order, exactly as on the CPU.
#include <cstddef>
#include <memory>
#include <string>

#include "backends/BatchedMinimiserFactory.h"
#include "landscape/search/WalkerEnsemble.h"
#include "potentials/BatchedPotential.h"
#include "src/gmin/GminSystem.h"
#include "src/gmin/GminConfig.h"

namespace landscape {

/// How the processes of `mpirun -n K gmin` share the machines (docs/cluster.md): K ranks,
/// `ranksOnNode` of them on this node (they divide its CPU cores). One process: {1, 1}.
struct WalkerRanks {
  int ranks = 1;
  int ranksOnNode = 1;
};

/// --walkers, or when 0: `checkpointWalkers` on --resume (> 0), else 1 for the Langevin move
/// (which cannot be split into walkers), and per rank: the device's resident teams for
/// Lennard-Jones on CUDA, deviceWalkers() for systems on the device rounds engine, 1 for the
/// other systems that cannot be copied (rigid bodies on the device, CUDA systems without a
/// device batched potential), and one per CPU core of the rank's share of its node otherwise.
int resolveWalkers(const GminConfig& config, const GminSystem& system, int checkpointWalkers,
                   WalkerRanks ranks = {});

/// A CPU copy of the potential the search runs on, for another thread: the spec's potential, in
/// rigid coordinates over it with --rigid (the same bits as system.searched() when that runs on
/// the CPU).
std::unique_ptr<Potential> walkerPotentialCopy(const GminSystem& system);

/// Walkers per device multiprocessor by default on the rounds engine: its advance kernel is one
/// block per walker doing chained block reductions (latency bound), so two per multiprocessor let
/// one hide the other's latency; the potential's kernels (AMBER-GB trpcage: 10 or more blocks per
/// structure) then have 20 or more blocks per multiprocessor.
inline constexpr int kWalkersPerMultiprocessor = 2;

/// The default walkers of one device on the rounds engine: kWalkersPerMultiprocessor x
/// `multiprocessors`, capped so that that many walkers take at most half of `availableBytes` at
/// `bytesPerWalker` each (the tight re-quench's engine and other buffers get the rest); at least 1.
int deviceWalkers(int multiprocessors, std::size_t bytesPerWalker, std::size_t availableBytes);

/// The device-resident batched potential the walkers of this system quench on with --backend
/// cuda, its scratch reserved for the largest batch of `walkers` walkers (their quenches, or the
/// tight re-quench of the saved minima); nullptr when there is none: another backend, rigid
/// bodies, Lennard-Jones (its team kernel is faster) or a kind the factory builds on the host only
/// (decided by trying the factory, so kinds added there follow with no change here).
std::shared_ptr<BatchedPotential> walkerDevicePotential(const GminConfig& config,
                                                        const GminSystem& system, int walkers = 1);

/// Minimisers over one shared batched potential (kept alive by every minimiser): the rounds
/// engine on `backend` (CudaRounds, or CpuRoundsTwin for its CPU twin) with `rounds` options.
BatchedMinimiserMaker roundsMinimiserMaker(std::shared_ptr<BatchedPotential> potential,
                                           BatchedBackend backend,
                                           const BatchedRoundsOptions& rounds);

/// Throws std::runtime_error for walker runs gmin cannot do (the Langevin move, whose noise
/// stream is numbered by quench, with more than one walker).
void checkWalkerRun(const GminConfig& config, int walkers);

/// The minimisers of a walker run of `walkers` walkers (on this rank); the maker keeps what it
/// builds alive.
BatchedMinimiserMaker walkerMinimiserMaker(const GminConfig& config, GminSystem& system,
                                           int walkers, WalkerRanks ranks = {});

/// One line for the run's header: where the walkers' quenches run and, on the device rounds
/// engine, the default walker count's reason and the device bytes per walker.
std::string walkerQuenchDescription(const GminConfig& config, const GminSystem& system,
                                    int walkers);

/// The potential the walkers' host-side work runs on (the ASTEP atom energies of each accepted
/// Markov state, the atom count of random starts and the container): a CPU copy built from the
/// spec when the quenches run on a device batched engine (Lennard-Jones teams, the rounds engine:
/// a device call per accepted step would stall the rounds, and SopCuda's atom energies run on the
/// device), else nullptr (the run's own potential).
std::unique_ptr<Potential> walkerHostPotential(const GminConfig& config, const GminSystem& system);

/// The threads the CPU minimiser uses for `walkers` walkers (1 when the system cannot be copied),
/// at most the rank's share of the node's cores.
int walkerThreads(const GminConfig& config, const GminSystem& system, int walkers,
                  WalkerRanks ranks = {});

}  // namespace landscape
