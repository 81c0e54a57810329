#pragma once
// How a transition-state search ended (hybrid eigenvector-following,
// landscape/paths/HybridEigenvectorFollowing.h, and its team program for the GPU,
// landscape/paths/HybridEfTeamTerms.h). The values are stored as ints by the device searches.

namespace landscape {

enum class TransitionStateStatus : int {
  Converged = 0,        ///< RMS gradient and uphill step below tolerance, lambda < 0
  MaxIterations = 1,    ///< iteration cap reached
  NonFiniteEnergy = 2,  ///< the potential returned NaN/inf
  NotASaddle = 3,       ///< stationary, but the final eigenvector search found lambda >= 0
  Stopped = 4,          ///< a stop was requested (landscape/core/StopRequest.h); not converged
};

}  // namespace landscape
