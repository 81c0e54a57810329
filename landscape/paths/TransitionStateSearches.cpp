#include "landscape/paths/TransitionStateSearches.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "landscape/minimisation/BatchedTeamPlan.h"

namespace landscape {

HybridEfTeamSettings hybridEfTeamSettings(const HybridEigenvectorFollowingParams& params, int n) {
  const RayleighRitzParams& rr = params.rayleighRitz;
  HybridEfTeamSettings s{};
  s.n = n;
  s.m = std::max(rr.lbfgs.historySize, params.tangentSpace.historySize);
  s.ritz = lbfgsTeamSettings(rr.lbfgs, static_cast<std::size_t>(n));
  s.tangent = lbfgsTeamSettings(params.tangentSpace, static_cast<std::size_t>(n));
  s.zeta = rr.zeta;
  s.eigenvalueTolerance = rr.eigenvalueTolerance;
  s.maxTightenings = rr.maxTightenings;
  s.rigidBodyModes = !rr.removeRigidBodyModes ? 0 : (rr.translationsOnly ? 3 : 6);
  s.tangentIterationsBefore = params.tangentIterationsBefore;
  s.tangentIterationsAfter = params.tangentIterationsAfter;
  s.overlapConvergence = params.overlapConvergence;
  s.initialUphillStep = params.initialUphillStep;
  s.minUphillStep = params.minUphillStep;
  s.maxUphillStep = params.maxUphillStep;
  s.trustRatio = params.trustRatio;
  s.rmsTolerance = params.rmsTolerance;
  s.stepTolerance = params.stepTolerance;
  s.maxIterations = params.maxIterations;
  return s;
}

namespace {
bool sameLbfgs(const LbfgsParams& a, const LbfgsParams& b) {
  return a.historySize == b.historySize && a.initialGuess == b.initialGuess &&
         a.maxStep == b.maxStep && a.maxRise == b.maxRise && a.maxBacktracks == b.maxBacktracks &&
         a.maxIterations == b.maxIterations && a.rmsTolerance == b.rmsTolerance;
}
}  // namespace

bool sameHybridEfSettings(const HybridEigenvectorFollowingParams& a,
                          const HybridEigenvectorFollowingParams& b) {
  const RayleighRitzParams &ra = a.rayleighRitz, &rb = b.rayleighRitz;
  return sameLbfgs(ra.lbfgs, rb.lbfgs) && sameLbfgs(a.tangentSpace, b.tangentSpace) &&
         ra.zeta == rb.zeta && ra.eigenvalueTolerance == rb.eigenvalueTolerance &&
         ra.maxTightenings == rb.maxTightenings &&
         ra.removeRigidBodyModes == rb.removeRigidBodyModes &&
         ra.translationsOnly == rb.translationsOnly &&
         a.tangentIterationsBefore == b.tangentIterationsBefore &&
         a.tangentIterationsAfter == b.tangentIterationsAfter &&
         a.overlapConvergence == b.overlapConvergence &&
         a.initialUphillStep == b.initialUphillStep && a.minUphillStep == b.minUphillStep &&
         a.maxUphillStep == b.maxUphillStep && a.trustRatio == b.trustRatio &&
         a.rmsTolerance == b.rmsTolerance && a.stepTolerance == b.stepTolerance &&
         a.maxIterations == b.maxIterations && a.seed == b.seed;
}

void checkTransitionStateJobs(const HybridEigenvectorFollowingParams& params,
                              const std::vector<TransitionStateJob>& jobs) {
  params.check();
  for (std::size_t k = 0; k < jobs.size(); ++k)
    if (!jobs[k].start)
      throw std::invalid_argument("transition-state search " + std::to_string(k) + " has no start");
}

void fillTransitionStateIo(const HybridEigenvectorFollowingParams& params,
                           const TransitionStateJob& job, int n, double* io) {
  std::copy(job.start, job.start + n, io);
  if (job.guess) {
    std::copy(job.guess, job.guess + n, io + n);
  } else {
    const std::vector<double> v = randomUnitVector(static_cast<std::size_t>(n), params.seed);
    std::copy(v.begin(), v.end(), io + n);
  }
}

TransitionStateResult transitionStateResult(const double* io, int n,
                                            const HybridEfTeamOutcome& outcome) {
  TransitionStateResult r;
  r.status = outcome.status;
  r.energy = outcome.energy;
  r.coordinates.assign(io, io + n);
  r.eigenvalue = outcome.eigenvalue;
  r.eigenvector.assign(io + n, io + 2 * n);
  r.rmsGradient = outcome.rmsGradient;
  r.lastUphillStep = outcome.lastUphillStep;
  r.iterations = outcome.iterations;
  r.gradientCalls = static_cast<long>(outcome.gradientCalls);
  return r;
}

}  // namespace landscape
