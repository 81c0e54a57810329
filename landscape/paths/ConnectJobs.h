#pragma once
// A batch of connect runs for network growth (PATHSAMPLE's OPTIM jobs of one cycle): each pair
// of minima is connected on a network of its own holding just the two minima (as PATHSAMPLE hands
// OPTIM the two endpoints), so the runs are independent and run side by side on a thread pool;
// their minima and transition states are then merged into the growing network one job after the
// other in pair order, with its duplicate detection. The result does not depend on the thread
// count.
#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Connect.h"
#include "potentials/Potential.h"
#include "potentials/ThreadPool.h"

namespace landscape {

/// What one connect run found: the job's own network (its two endpoints first).
struct ConnectJobResult {
  bool ran = false;  ///< false: skipped because a stop was requested before it started
  ConnectResult result;
  std::vector<NetworkMinimum> minima;
  std::vector<NetworkTransitionState> transitionStates;  ///< minima indices into `minima`
};

/// A potential for one thread: potentials keep workspaces, so each job gets its own.
using PotentialMaker = std::function<std::unique_ptr<Potential>()>;

/// Connects each pair (indices of `network`'s minima) on `pool`. `stopRequested` is asked before
/// each run starts; a run it stops is left out (ran = false). Results are in pair order.
std::vector<ConnectJobResult> runConnectJobs(const Connect& connect, const PotentialMaker& potential,
                                             const TransitionNetwork& network,
                                             const std::vector<std::array<int, 2>>& pairs,
                                             ThreadPool& pool,
                                             const std::function<bool()>& stopRequested = {});

struct MergeCounts {
  int newMinima = 0;
  int newTransitionStates = 0;
};

/// Adds every transition state of the job, with the two minima it connects, to `network` (minima
/// and states already known are recognised, as in a connect run). Minima that no transition state
/// of the job reaches are not added (PATHSAMPLE reads path.info's min-sad-min triples).
MergeCounts mergeConnectJob(TransitionNetwork& network, const ConnectJobResult& job);

}  // namespace landscape
