#pragma once
// Many hybrid eigenvector-following searches at once, each run whole by one team
// (landscape/paths/HybridEfTeamTerms.h): the candidate, its eigenvector, both inner L-BFGS runs and
// the trust radius never leave the team until the search ends. Implemented by the CPU twin
// (landscape/paths/HybridEfTwin) and the GPU kernel (gpu/BatchedHybridEfCuda), which give the same
// bits for a search whatever other searches share the call; against
// HybridEigenvectorFollowing::findTransitionState on the CPU potential a search agrees to
// round-off.
#include <cstddef>
#include <string>
#include <vector>

#include "landscape/paths/HybridEfTeamTerms.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"

namespace landscape {

/// One search: the candidate and the eigenvector guess, dimension() coordinates each (guess
/// null: the seeded random vector of HybridEigenvectorFollowingParams::seed, as the host search
/// takes for an empty guess).
struct TransitionStateJob {
  const double* start = nullptr;
  const double* guess = nullptr;
};

class TransitionStateSearches {
 public:
  virtual ~TransitionStateSearches() = default;
  /// Coordinates of one structure.
  virtual std::size_t dimension() const = 0;
  virtual std::string name() const = 0;
  /// Refines every job with `params`; out[k] is job k's result, with the fields
  /// HybridEigenvectorFollowing::findTransitionState fills. The workspace factories of `params`
  /// are not used (a team keeps its L-BFGS vectors itself). Throws std::invalid_argument for a
  /// job without a start or for settings that fail check().
  virtual void search(const HybridEigenvectorFollowingParams& params,
                      const std::vector<TransitionStateJob>& jobs,
                      std::vector<TransitionStateResult>& out) = 0;
};

/// The team settings of searches over n coordinates.
HybridEfTeamSettings hybridEfTeamSettings(const HybridEigenvectorFollowingParams& params, int n);

/// Whether two settings search alike (the fields a team search reads).
bool sameHybridEfSettings(const HybridEigenvectorFollowingParams& a,
                          const HybridEigenvectorFollowingParams& b);

/// Throws std::invalid_argument naming the first job without a start, or params that fail
/// check().
void checkTransitionStateJobs(const HybridEigenvectorFollowingParams& params,
                              const std::vector<TransitionStateJob>& jobs);

/// The io block of each job (hybridEfTeamIoDoubles(n) doubles from `io`): the start, then the
/// guess (the seeded random unit vector for a null guess).
void fillTransitionStateIo(const HybridEigenvectorFollowingParams& params,
                           const TransitionStateJob& job, int n, double* io);

/// A job's result from its io block after the search and its outcome.
TransitionStateResult transitionStateResult(const double* io, int n,
                                            const HybridEfTeamOutcome& outcome);

}  // namespace landscape
