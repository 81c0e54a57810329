#pragma once
// GMIN's L-BFGS step control (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016,
// Algorithms 1 and 3) as one state machine of scalars, written once for host and device. Every
// driver runs it: the readable reference loop (Lbfgs::minimize), the batched CPU reference
// (LbfgsStructureRun), the Lennard-Jones team kernel and its twin (lbfgsTeamMinimise) and the
// round-based engine on any device potential and its twin (lbfgsRoundsAdvance). A driver owns the
// vectors (x, g, the direction p and the history) and does what the returned LbfgsNext asks; the
// decisions (trial step, maximum step, energy-rise test with the division by 10, uphill
// reversal, history reset, RMS test, iteration cap) are made here and nowhere else.
//
//   lbfgsStepStart(energy, rms) at the start point  -> Direction or Finish
//   Direction / ClearAndDirection: (clear the history,) compute p, then lbfgsStepDirection
//                                                   -> Trial (reverse p first when s.reversed)
//   Trial: evaluate x + s.scale p, then lbfgsStepTrial(energy) -> Accept, Trial (c / 10),
//                                                   ClearAndDirection or Finish
//   Accept: store the pair, move to the trial point, then lbfgsStepAccepted(rms)
//                                                   -> Direction or Finish
#include "landscape/core/HostDevice.h"

namespace landscape {

/// How a minimisation ended. The values are stored as ints by the device engines.
enum class LbfgsStatus : int {
  Converged = 0,         ///< RMS gradient below the tolerance
  MaxIterations = 1,     ///< iteration cap reached
  LineSearchFailed = 2,  ///< the energy rose even along the steepest-descent direction
  NonFiniteEnergy = 3,   ///< the potential returned NaN/inf at the start point
  /// A stop was requested (landscape/core/StopRequest.h, SIGINT/SIGTERM): the run ended before
  /// its next iteration. Not converged; callers neither accept nor save the point.
  Stopped = 4,
};

/// What one minimisation ended with (32 bytes; the device engines write one per structure).
struct LbfgsResult {
  double energy = 0.0;          ///< at the final point (the potential's energy unit)
  double rmsGradient = 0.0;     ///< at the final point (energy / length)
  long long functionCalls = 0;  ///< energy + gradient evaluations
  int iterations = 0;           ///< accepted steps
  LbfgsStatus status = LbfgsStatus::MaxIterations;
  LANDSCAPE_HD bool converged() const { return status == LbfgsStatus::Converged; }
};

/// The settings the step control reads (LbfgsParams' fields of the same names and units).
struct LbfgsStepLimits {
  double maxStep;       ///< cap on |c p| (length)
  double maxRise;       ///< largest energy rise accepted on a step (energy)
  double rmsTolerance;  ///< converged when the RMS gradient is below it (energy / length)
  int maxBacktracks;    ///< divisions of c by 10 before the history is cleared
  int maxIterations;    ///< iteration cap
};

/// What the driver does next.
enum class LbfgsNext : int {
  Direction = 0,          ///< compute the direction p from the history
  ClearAndDirection = 1,  ///< clear the history, then compute p (now -H0 g)
  Trial = 2,              ///< evaluate energy and gradient at x + scale p
  Accept = 3,             ///< store the pair, move to the trial point, report its RMS gradient
  Finish = 4,             ///< the run has ended; status says how
};

/// The scalars of one structure's run (56 bytes).
struct LbfgsStepState {
  double energy;    ///< at the current point x (the potential's energy unit)
  double rms;       ///< RMS gradient at x
  double scale;     ///< c of Algorithm 3: the trial point is x + c p
  long long calls;  ///< energy + gradient evaluations
  int iteration;    ///< the iteration under way, 1-based
  int iterations;   ///< completed iterations (the result)
  int attempt;      ///< divisions of c so far on this direction
  unsigned char cleared;   ///< the history was cleared in this iteration
  unsigned char reversed;  ///< the direction pointed uphill and was reversed
  unsigned char capped;    ///< |p| exceeded maxStep and c was reduced to meet it
  unsigned char unused;
  LbfgsStatus status;
};

/// A fresh run whose start point is being evaluated (one call).
LANDSCAPE_HD LbfgsStepState lbfgsStepFresh() {
  LbfgsStepState s{};
  s.calls = 1;
  s.status = LbfgsStatus::MaxIterations;
  return s;
}

/// The loop condition, then the iteration's first direction.
LANDSCAPE_HD LbfgsNext lbfgsStepBeginIteration(LbfgsStepState& s, const LbfgsStepLimits& limits) {
  // A NaN RMS gradient fails both tests and ends the run at MaxIterations.
  if (!(s.rms >= limits.rmsTolerance && s.iteration <= limits.maxIterations)) {
    if (s.rms < limits.rmsTolerance) s.status = LbfgsStatus::Converged;
    return LbfgsNext::Finish;
  }
  s.cleared = 0;
  return LbfgsNext::Direction;
}

/// The start point's energy and RMS gradient; the history is empty.
LANDSCAPE_HD LbfgsNext lbfgsStepStart(LbfgsStepState& s, double energy, double rms,
                                      const LbfgsStepLimits& limits) {
  s.energy = energy;
  s.rms = rms;
  // x - x == 0 holds exactly for finite x (isfinite without <cmath> in device code).
  if (!(energy - energy == 0.0) || !(rms - rms == 0.0)) {
    s.status = LbfgsStatus::NonFiniteEnergy;
    return LbfgsNext::Finish;
  }
  s.status = LbfgsStatus::MaxIterations;
  s.iteration = 1;
  return lbfgsStepBeginIteration(s, limits);
}

/// Algorithm 3 up to the first trial, for a direction with p.g = directionDotGradient and length
/// directionNorm: reverse an uphill p (the driver does it when s.reversed), c = 1 or
/// maxStep / |p| when |p| exceeds maxStep.
LANDSCAPE_HD LbfgsNext lbfgsStepDirection(LbfgsStepState& s, double directionDotGradient,
                                          double directionNorm, const LbfgsStepLimits& limits) {
  s.reversed = directionDotGradient > 0.0;
  s.capped = directionNorm > limits.maxStep;
  s.scale = s.capped ? limits.maxStep / directionNorm : 1.0;
  s.attempt = 0;
  return LbfgsNext::Trial;
}

/// The trial point's energy: accept it when it rises by less than maxRise (a NaN energy counts
/// as a rise), else divide c by 10, after maxBacktracks divisions clear the history and try -H0 g
/// once, and when that fails too end the run (LineSearchFailed). On Accept, s.energy is already
/// the trial energy.
LANDSCAPE_HD LbfgsNext lbfgsStepTrial(LbfgsStepState& s, double energy,
                                      const LbfgsStepLimits& limits) {
  ++s.calls;
  if (energy - s.energy < limits.maxRise) {
    s.energy = energy;
    return LbfgsNext::Accept;
  }
  if (s.attempt < limits.maxBacktracks) {
    s.scale /= 10.0;
    ++s.attempt;
    return LbfgsNext::Trial;
  }
  if (!s.cleared) {
    s.cleared = 1;
    return LbfgsNext::ClearAndDirection;
  }
  s.iterations = s.iteration - 1;
  s.status = LbfgsStatus::LineSearchFailed;
  return LbfgsNext::Finish;
}

/// After the driver accepted the trial point: its RMS gradient, then the next iteration.
LANDSCAPE_HD LbfgsNext lbfgsStepAccepted(LbfgsStepState& s, double rms,
                                         const LbfgsStepLimits& limits) {
  s.rms = rms;
  s.iterations = s.iteration;
  ++s.iteration;
  return lbfgsStepBeginIteration(s, limits);
}

/// Ends an unfinished run on a stop request: status Stopped at the last accepted point (energy
/// and RMS `nan`, a quiet NaN, when the start was never evaluated).
LANDSCAPE_HD void lbfgsStepStop(LbfgsStepState& s, bool startEvaluated, double nan) {
  if (!startEvaluated) s.energy = s.rms = nan;
  s.status = LbfgsStatus::Stopped;
}

/// The result of a run that a stop request ended before it started: `nan` a quiet NaN.
LANDSCAPE_HD LbfgsResult lbfgsStoppedResult(double nan) {
  LbfgsResult r;
  r.energy = r.rmsGradient = nan;
  r.status = LbfgsStatus::Stopped;
  return r;
}

LANDSCAPE_HD LbfgsResult lbfgsStepResult(const LbfgsStepState& s) {
  LbfgsResult r;
  r.energy = s.energy;
  r.rmsGradient = s.rms;
  r.functionCalls = s.calls;
  r.iterations = s.iterations;
  r.status = s.status;
  return r;
}

}  // namespace landscape
