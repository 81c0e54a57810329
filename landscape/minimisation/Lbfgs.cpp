#include "landscape/minimisation/Lbfgs.h"

#include <cmath>
#include <memory>
#include <stdexcept>

#include "landscape/core/StopRequest.h"
#include "landscape/minimisation/LbfgsCpuWorkspace.h"

namespace landscape {

std::string lbfgsStatusName(LbfgsStatus status) {
  switch (status) {
    case LbfgsStatus::Converged: return "converged";
    case LbfgsStatus::MaxIterations: return "iteration limit";
    case LbfgsStatus::LineSearchFailed: return "energy rose along steepest descent";
    case LbfgsStatus::NonFiniteEnergy: return "non-finite energy";
    case LbfgsStatus::Stopped: return "stopped on request";
  }
  return "unknown";
}

Lbfgs::Lbfgs(const LbfgsParams& params) : m_params(params) { m_params.check(); }

namespace {

struct StepOutcome {
  bool accepted;
  double energy;
  double stepLength;
  int backtracks;
  bool reversed;
  bool capped;
};

// Algorithm 3 on the workspace's current direction: reverse if uphill, cap at maxStep, divide by
// 10 while the energy rises by more than maxRise.
StepOutcome scaledStep(LbfgsWorkspace& ws, const DirectionSummary& direction, double energy,
                       const LbfgsParams& params, long& calls) {
  StepOutcome out{false, energy, 0.0, 0, false, false};
  if (direction.directionDotGradient > 0.0) {
    ws.reverseDirection();
    out.reversed = true;
  }
  double c = 1.0;
  if (direction.directionNorm > params.maxStep) {
    c = params.maxStep / direction.directionNorm;
    out.capped = true;
  }
  for (int attempt = 0; attempt <= params.maxBacktracks; ++attempt) {
    const double trial = ws.evaluateTrial(c);
    ++calls;
    // A NaN energy compares false and is treated as a rise.
    if (trial - energy < params.maxRise) {
      out.accepted = true;
      out.energy = trial;
      out.stepLength = c * direction.directionNorm;
      out.backtracks = attempt;
      return out;
    }
    if (attempt < params.maxBacktracks) c /= 10.0;
  }
  out.backtracks = params.maxBacktracks;
  return out;
}

}  // namespace

LbfgsResult Lbfgs::minimize(LbfgsWorkspace& ws, const Observer& observer) const {
  LbfgsResult result;
  double energy = ws.evaluateCurrent();
  result.functionCalls = 1;
  double rms = ws.rmsGradient(ws.gradientNormSquared());
  ws.clearHistory();
  ws.useDiagonalMetric(m_params.useDiagonalMetric);
  if (!std::isfinite(energy) || !std::isfinite(rms)) {
    result.energy = energy;
    result.rmsGradient = rms;
    result.status = LbfgsStatus::NonFiniteEnergy;
    return result;
  }
  result.status = LbfgsStatus::MaxIterations;
  for (int it = 1; rms >= m_params.rmsTolerance && it <= m_params.maxIterations; ++it) {
    // Polled once per iteration (one relaxed atomic load), so a signal ends even a long
    // minimisation within one iteration.
    if (stopRequested()) {
      result.status = LbfgsStatus::Stopped;
      break;
    }
    StepOutcome step =
        scaledStep(ws, ws.computeDirection(m_params.initialGuess), energy, m_params,
                   result.functionCalls);
    bool cleared = false;
    if (!step.accepted) {
      // GMIN: restart the memory and go downhill along -g (scaled by the initial guess).
      ws.clearHistory();
      cleared = true;
      step = scaledStep(ws, ws.computeDirection(m_params.initialGuess), energy, m_params,
                        result.functionCalls);
      if (!step.accepted) {
        result.iterations = it - 1;
        result.status = LbfgsStatus::LineSearchFailed;
        break;
      }
    }
    energy = step.energy;
    rms = ws.rmsGradient(ws.acceptTrial());
    result.iterations = it;
    if (observer) {
      observer({it, energy, rms, step.stepLength, step.backtracks, step.reversed, step.capped,
                cleared});
    }
  }
  if (result.status == LbfgsStatus::MaxIterations && rms < m_params.rmsTolerance) {
    result.status = LbfgsStatus::Converged;
  }
  result.energy = energy;
  result.rmsGradient = rms;
  return result;
}

LbfgsResult Lbfgs::minimize(Potential& potential, std::vector<double>& x,
                            const Observer& observer) const {
  if (x.size() != potential.dimension()) {
    throw std::invalid_argument("L-BFGS: coordinate vector has " + std::to_string(x.size()) +
                                " entries, the potential expects " +
                                std::to_string(potential.dimension()));
  }
  LbfgsCpuWorkspace ws(potential, m_params.historySize);
  ws.setCoordinates(x.data());
  const LbfgsResult result = minimize(ws, observer);
  ws.getCoordinates(x.data());
  return result;
}

LbfgsResult Lbfgs::minimize(Potential& potential, std::vector<double>& x,
                            const LbfgsWorkspaceFactory& factory, const Observer& observer) const {
  if (!factory) return minimize(potential, x, observer);
  if (x.size() != potential.dimension()) {
    throw std::invalid_argument("L-BFGS: coordinate vector has " + std::to_string(x.size()) +
                                " entries, the potential expects " +
                                std::to_string(potential.dimension()));
  }
  const std::unique_ptr<LbfgsWorkspace> ws = factory(potential, m_params.historySize);
  ws->setCoordinates(x.data());
  const LbfgsResult result = minimize(*ws, observer);
  ws->getCoordinates(x.data());
  return result;
}

}  // namespace landscape
