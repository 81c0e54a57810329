#include "landscape/minimisation/Lbfgs.h"

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

LbfgsResult Lbfgs::minimize(LbfgsWorkspace& ws, const Observer& observer) const {
  const LbfgsStepLimits limits = m_params.stepLimits();
  LbfgsStepState s = lbfgsStepFresh();
  const double energy = ws.evaluateCurrent();
  const double rms = ws.rmsGradient(ws.gradientNormSquared());
  ws.clearHistory();
  ws.useDiagonalMetric(m_params.useDiagonalMetric);
  double directionNorm = 0.0;
  LbfgsNext next = lbfgsStepStart(s, energy, rms, limits);
  while (next != LbfgsNext::Finish) {
    switch (next) {
      case LbfgsNext::Direction:
        // Polled once per iteration (one relaxed atomic load), so a signal ends even a long
        // minimisation within one iteration.
        if (stopRequested()) {
          lbfgsStepStop(s, true, 0.0);
          next = LbfgsNext::Finish;
          break;
        }
        [[fallthrough]];
      case LbfgsNext::ClearAndDirection: {
        if (next == LbfgsNext::ClearAndDirection) ws.clearHistory();
        const DirectionSummary d = ws.computeDirection(m_params.initialGuess);
        directionNorm = d.directionNorm;
        next = lbfgsStepDirection(s, d.directionDotGradient, d.directionNorm, limits);
        if (s.reversed) ws.reverseDirection();
        break;
      }
      case LbfgsNext::Trial:
        next = lbfgsStepTrial(s, ws.evaluateTrial(s.scale), limits);
        break;
      case LbfgsNext::Accept: {
        const double newRms = ws.rmsGradient(ws.acceptTrial());
        if (observer) {
          observer({s.iteration, s.energy, newRms, s.scale * directionNorm, s.attempt,
                    s.reversed != 0, s.capped != 0, s.cleared != 0});
        }
        next = lbfgsStepAccepted(s, newRms, limits);
        break;
      }
      case LbfgsNext::Finish:
        break;
    }
  }
  return lbfgsStepResult(s);
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
