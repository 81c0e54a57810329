#pragma once
// How gmin runs walkers (landscape/search/WalkerEnsemble.h): how many by default, and
// the batched minimiser their quenches go through on each backend.
//   Lennard-Jones on --backend cuda: gpu/BatchedLbfgsCuda (team kernel), all walkers in one launch;
//   any other non-rigid system on --backend cuda whose kind the batched potential factory
//   (backends/BatchedPotentialFactory) builds device resident -- AMBER-GB and SOP, and the kinds
//   added there later with no change here: gpu/BatchedLbfgsRoundsCuda over that batched potential,
//   the whole L-BFGS of every walker on the device, walkers refilling the resident slots (not rigid
//   bodies: the rounds engine has no diagonal metric, and PotentialSpec carries no bodies);
//   otherwise ParallelLbfgs: each quench a whole GMIN L-BFGS on one of min(W, cores) threads, each
//   thread with its own copy of the potential (CPU, rigid bodies on the host included), or one
//   thread on the run's own potential (CUDA systems with no device batched potential, rigid
//   bodies on the device), with the L-BFGS of --lbfgs-backend.
// The host does every walker's step (perturbation, side-chain rotations, chirality and cis/trans
// checks, Metropolis, NEWRESTART) in walker order, exactly as on the CPU.
// A run decides all this once (planGminWalkers: the engine, the walker count, the CPU threads and
// the device batched potential, from the options and the device's properties); the rest of gmin
// reads the plan. Nothing is built only to be asked and thrown away.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "backends/BatchedMinimiserFactory.h"
#include "landscape/formats/CheckpointFile.h"
#include "landscape/search/WalkerEnsemble.h"
#include "potentials/BatchedPotential.h"
#include "src/gmin/GminConfig.h"
#include "src/gmin/GminSystem.h"

namespace landscape {

/// How the processes of `mpirun -n K gmin` share the machines (docs/cluster.md): K ranks,
/// `ranksOnNode` of them on this node (they divide its CPU cores). One process: {1, 1}.
struct WalkerRanks {
  int ranks = 1;
  int ranksOnNode = 1;
};

/// Where the quenches of gmin's walkers run (the list at the top of this header).
enum class WalkerEngine {
  LennardJonesTeams,  ///< Lennard-Jones on --backend cuda: gpu/BatchedLbfgsCuda
  DeviceRounds,       ///< a device batched potential: gpu/BatchedLbfgsRoundsCuda over it
  CpuThreads,         ///< ParallelLbfgs, a CPU copy of the potential per thread
  RunPotential,       ///< ParallelLbfgs on one thread over the run's own potential
};

/// The engine of a run, from the options and the system alone (building nothing): Lennard-Jones
/// on --backend cuda the team kernel; on --backend cuda without rigid bodies a kind that the
/// batched potential factory builds device resident (batchedPotentialIsDeviceResident: AMBER-GB,
/// SOP and the kinds added there later) the rounds engine; a run whose potential is on the CPU
/// (--backend cpu, rigid bodies on the host included) CPU threads; otherwise the run's own
/// potential (rigid bodies on the device).
WalkerEngine walkerEngine(const GminConfig& config, const GminSystem& system);

/// The default walkers of a Lennard-Jones cluster on the GPU, chosen for the time to the global
/// minimum rather than throughput (docs/benchmarks.md, "Walkers: the default W"): on an H200 the
/// LJ38 minimum took a median 0.14 s of search at W = 256 and 0.68 s at the 2112 resident teams;
/// LJ75 was found by 8 of 8 seeds at W = 4096 (median 4.8 s) and by 6 of 8 at its 1056 resident
/// teams (median about 22 s), LJ98 by 3 of 3 at 4096 and 3 of 5 at 528. More walkers cost more per
/// round but keep the hard double funnels from swallowing every chain.
int clusterWalkers(std::size_t atoms);
/// Clusters from this size on get the larger default (clusterWalkers).
constexpr std::size_t kLargeClusterAtoms = 50;

/// What the default walker count is sized from: the node's cores and the device's properties.
/// planGminWalkers reads them (GpuProperties, the potential's memory plan); tests give them.
struct WalkerFacts {
  int cores = 1;                   ///< this rank's share of its node's cores
  std::size_t clusterAtoms = 0;    ///< LennardJonesTeams: the cluster's atoms
  int multiprocessors = 0;         ///< DeviceRounds: the device's
  std::size_t freeBytes = 0;       ///< DeviceRounds: free device memory, the potential built
  std::size_t bytesPerWalker = 0;  ///< DeviceRounds: device bytes of one walker
  std::size_t dimension = 0;       ///< DeviceRounds: coordinates of one structure
};

/// How a run's walkers go, decided once (planGminWalkers) and read by the rest of gmin.
struct GminWalkerPlan {
  WalkerEngine engine = WalkerEngine::RunPotential;
  int walkers = 1;         ///< the walkers of the run, all ranks together
  bool automatic = false;  ///< walkers is the default (no --walkers, no checkpoint)
  int perRank = 1;         ///< the walkers one rank quenches: ceil(walkers / ranks)
  int threads = 1;         ///< CPU threads of a rank's minimiser: min(perRank, cores) on CpuThreads
  /// DeviceRounds: the default walkers of one device (deviceWalkers() from the facts).
  int deviceDefaultWalkers = 0;
  WalkerFacts facts;
  /// DeviceRounds, in a walker run: the device batched potential the walkers quench on, its
  /// scratch reserved for the largest batch (perRank walkers or the tight re-quench of the
  /// saved minima), shared by every minimiser of walkerMinimiserMaker; else nullptr.
  std::shared_ptr<BatchedPotential> devicePotential;
  /// DeviceRounds, in a walker run whose quenches run in other arithmetic than --precision
  /// (AMBER-GB's --quench-precision): the device batched potential in --precision for the tight
  /// re-quench of the saved minima; else nullptr (the tight re-quench takes devicePotential).
  std::shared_ptr<BatchedPotential> tightDevicePotential;

  /// A walker run (WalkerEnsemble) rather than one chain (BasinHopping).
  bool walkerRun(const GminConfig& config) const;
};

/// The plan's arithmetic, reading nothing: walkers = --walkers, or when 0: `checkpointWalkers` on
/// --resume (> 0), else 1 for the Langevin move (which cannot be split into walkers), else per
/// rank clusterWalkers(facts.clusterAtoms) (LennardJonesTeams), deviceWalkers() of the facts with
/// the free memory less kDeviceHeadroomBytes (DeviceRounds), facts.cores (CpuThreads) or 1
/// (RunPotential), times the ranks; then `agree` (when given) turns that count into the run's (rank
/// 0's under mpirun, src/GminRanks.h), from which perRank and threads follow. No devicePotential.
GminWalkerPlan planWalkers(const GminConfig& config, WalkerEngine engine, int checkpointWalkers,
                           WalkerRanks ranks, const WalkerFacts& facts,
                           const std::function<int(int)>& agree = {});

/// gmin's plan, decided once: walkerEngine(), the facts that engine needs -- the cluster's atoms
/// (LennardJonesTeams, for the default count), or on DeviceRounds the
/// device batched potential (built once, and kept as the plan's devicePotential in a walker run),
/// its bytes per walker (its memory plan, BatchedPotential::bytesPerStructure(), with the rounds
/// engine's slot and structure) and the device's multiprocessors and free memory (gpuProperties())
/// -- then planWalkers(), and on DeviceRounds the potential's scratch reserved for the largest
/// batch. A single chain (one walker without BHPT) quenches on the run's own potential and gets no
/// device potential, unless `ensemble` says that the caller runs a WalkerEnsemble whatever the
/// count (benchmarks of one walker).
GminWalkerPlan planGminWalkers(const GminConfig& config, const GminSystem& system,
                               int checkpointWalkers, WalkerRanks ranks = {},
                               const std::function<int(int)>& agree = {}, bool ensemble = false);

/// The tight re-quench's minimiser maker when the plan has a tightDevicePotential (the rounds
/// engine over it), else an empty function: the walkers' own maker serves.
BatchedMinimiserMaker walkerTightMinimiserMaker(const GminWalkerPlan& plan,
                                                const GminConfig& config);

/// SYMMETRISECSM's default interval for Lennard-Jones walkers on the GPU (useDefaultSymmetrisation).
constexpr int kDefaultCsmInterval = 10;
/// Lennard-Jones walkers on the GPU (the team engine) of clusters under kLargeClusterAtoms atoms
/// try SYMMETRISECSM every kDefaultCsmInterval quenches unless --symmetrise or a SYMMETRISE
/// keyword says otherwise; a resumed run (its
/// checkpoint's fingerprint in `resumedFrom`) keeps what it was made with.
void useDefaultSymmetrisation(GminConfig& config, const GminWalkerPlan& plan,
                              const CheckpointFingerprint* resumedFrom);

/// A CPU copy of the potential the search runs on, for another thread: the spec's potential, in
/// rigid coordinates over it with --rigid (the same bits as system.searched() when that runs on
/// the CPU).
std::unique_ptr<Potential> walkerPotentialCopy(const GminSystem& system);

/// Walkers per device multiprocessor by default on the rounds engine: its advance kernel is one
/// block per walker doing chained block reductions (latency bound), so two per multiprocessor let
/// one hide the other's latency; the potential's kernels (AMBER-GB trpcage: 10 or more blocks per
/// structure) then have 20 or more blocks per multiprocessor.
inline constexpr int kWalkersPerMultiprocessor = 2;

/// Small structures (at most kSmallStructureDimension coordinates) have one small block each in
/// the potential too, so the device fills only with many more walkers: rigid TIP4P (H2O)20 (120
/// coordinates) on an H200 ran 19,800 quenches/s at 2 per multiprocessor (264), 39,900 at 8 and
/// 50,700 at 32 (4224), and 48,100 at 128 (docs/benchmarks.md, "Rigid water").
inline constexpr int kWalkersPerMultiprocessorSmall = 32;
inline constexpr std::size_t kSmallStructureDimension = 256;

/// kWalkersPerMultiprocessorSmall for structures of at most kSmallStructureDimension coordinates,
/// else kWalkersPerMultiprocessor.
int walkersPerMultiprocessor(std::size_t dimension);

/// The default walkers of one device on the rounds engine: perMultiprocessor x `multiprocessors`,
/// capped so that that many walkers take at most half of `availableBytes` at `bytesPerWalker`
/// each (the tight re-quench's engine and other buffers get the rest); at least 1.
int deviceWalkers(int multiprocessors, std::size_t bytesPerWalker, std::size_t availableBytes,
                  int perMultiprocessor = kWalkersPerMultiprocessor);

/// Minimisers over one shared batched potential (kept alive by every minimiser): the rounds
/// engine on `backend` (cuda, or on cpu its twin) with `rounds` options.
BatchedMinimiserMaker roundsMinimiserMaker(std::shared_ptr<BatchedPotential> potential,
                                           Backend backend, const BatchedRoundsOptions& rounds);

/// Throws std::runtime_error for walker runs gmin cannot do (the Langevin move, whose noise
/// stream is numbered by quench, with more than one walker).
void checkWalkerRun(const GminConfig& config, int walkers);

/// The minimisers of the plan's walkers on this rank (plan.perRank of them); the maker keeps what
/// it builds alive.
BatchedMinimiserMaker walkerMinimiserMaker(const GminWalkerPlan& plan, const GminConfig& config,
                                           GminSystem& system);

/// One line for the run's header: where the walkers' quenches run and, on the device rounds
/// engine, the default walker count's reason and the device bytes per walker.
std::string walkerQuenchDescription(const GminWalkerPlan& plan, const GminConfig& config);

/// The potential the walkers' host-side work runs on (the ASTEP atom energies of each accepted
/// Markov state, the atom count of random starts and the container): a CPU copy built from the
/// spec when the quenches run on a device batched engine (Lennard-Jones teams, the rounds engine:
/// a device call per accepted step would stall the rounds, and SopCuda's atom energies run on the
/// device), else nullptr (the run's own potential).
std::unique_ptr<Potential> walkerHostPotential(const GminWalkerPlan& plan,
                                               const GminSystem& system);

}  // namespace landscape
