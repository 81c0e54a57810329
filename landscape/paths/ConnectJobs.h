#pragma once
// A batch of connect runs for network growth (PATHSAMPLE's OPTIM jobs of one cycle): each pair
// of minima is connected on a network of its own holding just the two minima (as PATHSAMPLE hands
// OPTIM the two endpoints), so the runs are independent and run side by side, as fibres of a
// thread pool's threads (landscape/core/Fibres);
// their minima and transition states are then merged into the growing network one job after the
// other in pair order, with its duplicate detection. The result does not depend on the thread
// count. A job's engine may be a member of a SharedBatchedPotential (`pathsample grow --backend
// cuda`, or --jobs-in-flight on the CPU): then every structure of every run in flight (band
// images, transition-state searches, descents) joins shared batched calls, so that many runs
// fill the device together while each keeps its own history, trust radius and decisions.
#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "landscape/core/ThreadPool.h"
#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Connect.h"
#include "landscape/paths/DnebBands.h"
#include "landscape/paths/TransitionStateSearches.h"
#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"
#include "potentials/SharedBatchedPotential.h"

namespace landscape {

/// What one connect run found: the job's own network (its two endpoints first).
struct ConnectJobResult {
  /// false: a stop was requested before it started or while it ran (nothing of it kept)
  bool ran = false;
  ConnectResult result;
  std::vector<NetworkMinimum> minima;
  std::vector<NetworkTransitionState> transitionStates;  ///< minima indices into `minima`
};

/// A potential for one thread: potentials keep workspaces, so each job gets its own.
using PotentialMaker = std::function<std::unique_ptr<Potential>()>;

/// What one connect run works with: its potential and, each optional, batched engines of the
/// same system (ConnectBatching's), owned here so that each job has its own.
struct ConnectJobEngine {
  /// With a shared batched potential: this run's membership, behind its potential, images and
  /// descents (declared first: it outlives them).
  std::unique_ptr<SharedBatchedPotential::Member> member;
  std::unique_ptr<Potential> potential;
  std::unique_ptr<BatchedPotential> images;     ///< DNEB images; null: one at a time
  std::unique_ptr<BatchedMinimiser> descents;   ///< null: one side at a time
  std::unique_ptr<ConcurrentSearches> searches;  ///< null: a band's candidates one at a time
  std::unique_ptr<DnebBands> bands;  ///< DNEB bands relaxed whole; null: through the images
  /// Hybrid EF searches run whole; null: through the potential.
  std::unique_ptr<TransitionStateSearches> transitionStates;
  /// The cycles' distances aligned in batches; null: one at a time as the Dijkstra asks.
  std::unique_ptr<BatchedAlignment> alignments;
  ConnectBatching batching() const {
    return {images.get(), descents.get(),         searches.get(),
            bands.get(),  transitionStates.get(), alignments.get()};
  }
};
using ConnectEngineMaker = std::function<ConnectJobEngine()>;

/// What the caller hears of the runs as they go (progress lines), each optional and called on the
/// pool's threads, several at once (the caller serialises what it prints).
struct ConnectJobProgress {
  /// As each run ends, with its index in `pairs`.
  std::function<void(std::size_t, const ConnectJobResult&)> runEnded;
  /// After every DNEB attempt of any run (ConnectObserver::onAttempt): what the runs find while
  /// they are still under way (a molecule's run lasts minutes).
  std::function<void(const ConnectAttempt&)> attemptMade;
};

/// The two endpoints of each pair, copied out of a network: the runs read these alone, so the
/// network may change (later cycles merged) while they run.
struct ConnectJobEnds {
  TransitionNetworkParams params;
  std::vector<std::array<NetworkMinimum, 2>> ends;  ///< per pair: start, finish
};
ConnectJobEnds connectJobEnds(const TransitionNetwork& network,
                              const std::vector<std::array<int, 2>>& pairs);

/// Connects each pair (indices of `network`'s minima) on `pool`'s threads, each run with an engine
/// of its own, `runsInFlight` runs under way at once (at least one per thread): each thread runs
/// its share as fibres (landscape/core/Fibres), which give the thread to one another while they
/// wait for a shared batched potential's calls, so that one thread keeps many runs in flight.
/// `stopRequested` is asked before each run starts; a run it stops is left out (ran = false), and
/// so is a run that the stop request (landscape/core/StopRequest) ends (ConnectStatus::Stopped).
/// Results are in pair order and do not depend on the threads or the runs in flight.
std::vector<ConnectJobResult> runConnectJobs(
    const Connect& connect, const ConnectEngineMaker& engine, const TransitionNetwork& network,
    const std::vector<std::array<int, 2>>& pairs, ThreadPool& pool, int runsInFlight,
    const std::function<bool()>& stopRequested = {}, const ConnectJobProgress& progress = {});

/// The same from endpoints copied beforehand (`ends.ends` in pair order).
std::vector<ConnectJobResult> runConnectJobs(const Connect& connect,
                                             const ConnectEngineMaker& engine,
                                             const ConnectJobEnds& ends, ThreadPool& pool,
                                             int runsInFlight,
                                             const std::function<bool()>& stopRequested = {},
                                             const ConnectJobProgress& progress = {});

/// The same with a potential alone (nothing batched), one run per thread.
std::vector<ConnectJobResult> runConnectJobs(const Connect& connect, const PotentialMaker& potential,
                                             const TransitionNetwork& network,
                                             const std::vector<std::array<int, 2>>& pairs,
                                             ThreadPool& pool,
                                             const std::function<bool()>& stopRequested = {});

/// An engine maker whose engines hold `potential`'s potentials and nothing batched.
ConnectEngineMaker potentialOnly(PotentialMaker potential);

/// A run's engine over a shared batched potential: a new membership, its single-structure and
/// batched views as the potential and the band's images, the descents on the CPU reference
/// L-BFGS over the batched view (`descentMinimiser`: the connect's descent.minimiser; bit for
/// bit Lbfgs), and the band's candidates searched side by side, `searches` (>= 1) at once. With
/// `whole`'s engines, DNEB bands are relaxed whole in their shared calls instead of through the
/// images, and hybrid EF searches run whole instead of one evaluation per shared call.
ConnectJobEngine sharedConnectEngine(SharedBatchedPotential& shared,
                                     const LbfgsParams& descentMinimiser, int searches,
                                     SharedWholeSearches whole = {});

struct MergeCounts {
  int newMinima = 0;
  int newTransitionStates = 0;
  /// The job's transition states that were recognised: one the network held before the cycle
  /// (index below `statesBeforeCycle`), or one an earlier job of the cycle had added.
  int knownTransitionStates = 0;
  int repeatedInCycle = 0;

  MergeCounts& operator+=(const MergeCounts& o) {
    newMinima += o.newMinima;
    newTransitionStates += o.newTransitionStates;
    knownTransitionStates += o.knownTransitionStates;
    repeatedInCycle += o.repeatedInCycle;
    return *this;
  }
};

/// Adds every transition state of the job, with the two minima it connects, to `network` (minima
/// and states already known are recognised, as in a connect run). Minima that no transition state
/// of the job reaches are not added (PATHSAMPLE reads path.info's min-sad-min triples).
/// `statesBeforeCycle`: the network's transition states before the cycle's first job was merged
/// (the default counts every recognised one as known).
/// `ahead`: the job's lookups made ahead (lookUpCycleAhead), which the adds take instead of
/// comparing again the entries those lookups saw; the merge is the same with or without.
struct JobLookups;
MergeCounts mergeConnectJob(TransitionNetwork& network, const ConnectJobResult& job,
                            std::size_t statesBeforeCycle = static_cast<std::size_t>(-1),
                            const JobLookups* ahead = nullptr);

/// A job's points looked up in the network before the cycle merges: per minimum (those no
/// transition state of the job reaches are not looked up) and per transition state.
struct JobLookups {
  std::vector<TransitionNetwork::EarlierLookup> minima;
  std::vector<TransitionNetwork::EarlierLookup> transitionStates;
};
/// Every point of a cycle's jobs looked up in `network` as it stands, on `pool`'s threads: the
/// alignments of a merge's duplicate checks (a cycle of 256 LJ38 runs recognises thousands of
/// points it knows) made together, the adds then made in order on one thread.
std::vector<JobLookups> lookUpCycleAhead(const TransitionNetwork& network,
                                         const std::vector<ConnectJobResult>& jobs,
                                         ThreadPool& pool);

}  // namespace landscape
