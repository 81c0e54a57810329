#include "landscape/paths/HybridEigenvectorFollowing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "landscape/core/Require.h"
#include "landscape/core/StopRequest.h"
#include "landscape/minimisation/Lbfgs.h"

namespace landscape {

namespace {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// OPTIM's trust-ratio factor for the maximum uphill step.
constexpr double kTrustFactor = 1.1;

}  // namespace

TangentSpacePotential::TangentSpacePotential(Potential& potential, std::vector<double> direction)
    : m_potential(potential), m_direction(std::move(direction)) {
  if (m_direction.size() != potential.dimension()) {
    throw std::invalid_argument(
        "TangentSpacePotential: direction has " + std::to_string(m_direction.size()) +
        " entries, the potential expects " + std::to_string(potential.dimension()));
  }
  const double norm = std::sqrt(dot(m_direction, m_direction));
  if (!(norm > 0.0) || !std::isfinite(norm)) {
    throw std::invalid_argument("TangentSpacePotential: direction must be a non-zero vector");
  }
  for (double& v : m_direction) v /= norm;
}

std::string TangentSpacePotential::name() const {
  return m_potential.name() + " (gradient orthogonal to the uphill eigenvector)";
}

double TangentSpacePotential::energyGradient(const double* x, double* g) {
  const double e = m_potential.energyGradient(x, g);
  // Eq 15: P G = G - (G . x) x with x the unit uphill eigenvector.
  double along = 0.0;
  for (std::size_t i = 0; i < m_direction.size(); ++i) along += g[i] * m_direction[i];
  for (std::size_t i = 0; i < m_direction.size(); ++i) g[i] -= along * m_direction[i];
  return e;
}

LbfgsParams HybridEigenvectorFollowingParams::defaultTangentSpace() {
  LbfgsParams p;  // historySize: kLbfgsHistorySize
  p.maxStep = 0.2;
  p.rmsTolerance = 1e-5;
  return p;
}

void HybridEigenvectorFollowingParams::check() const {
  try {
    rayleighRitz.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("hybrid EF rayleighRitz: ") + e.what());
  }
  try {
    tangentSpace.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("hybrid EF tangentSpace: ") + e.what());
  }
  require(tangentIterationsBefore >= 0, "hybrid EF tangentIterationsBefore must be >= 0");
  require(tangentIterationsAfter >= 0, "hybrid EF tangentIterationsAfter must be >= 0");
  require(overlapConvergence > 0.0 && overlapConvergence <= 1.0,
          "hybrid EF overlapConvergence must be in (0, 1]");
  require(std::isfinite(minUphillStep) && minUphillStep > 0.0,
          "hybrid EF minUphillStep must be > 0 (length)");
  require(std::isfinite(maxUphillStep) && maxUphillStep >= minUphillStep,
          "hybrid EF maxUphillStep must be >= minUphillStep (length)");
  require(initialUphillStep >= minUphillStep && initialUphillStep <= maxUphillStep,
          "hybrid EF initialUphillStep must lie in [minUphillStep, maxUphillStep] (length)");
  require(std::isfinite(trustRatio) && trustRatio > 0.0, "hybrid EF trustRatio must be > 0");
  require(std::isfinite(rmsTolerance) && rmsTolerance > 0.0,
          "hybrid EF rmsTolerance must be > 0 (energy/length)");
  require(std::isfinite(stepTolerance) && stepTolerance > 0.0,
          "hybrid EF stepTolerance must be > 0 (length)");
  require(maxIterations >= 1, "hybrid EF maxIterations must be >= 1");
}

std::string transitionStateStatusName(TransitionStateStatus status) {
  switch (status) {
    case TransitionStateStatus::Converged:
      return "converged";
    case TransitionStateStatus::MaxIterations:
      return "iteration limit";
    case TransitionStateStatus::NonFiniteEnergy:
      return "non-finite energy";
    case TransitionStateStatus::NotASaddle:
      return "stationary point with lambda >= 0";
    case TransitionStateStatus::Stopped:
      return "stopped on request";
  }
  return "unknown";
}

HybridEigenvectorFollowing::HybridEigenvectorFollowing(
    const HybridEigenvectorFollowingParams& params)
    : m_params(params) {
  m_params.check();
}

namespace {

// One search from one start: the coordinates (result.coordinates), the gradient, the followed
// eigenvector and the uphill trust radius, with one member per part of an iteration (Mantell, Pitt
// and Wales, J. Chem. Theory Comput. 2016, eqs 11-15), so that the search loop reads as the method
// does.
class EigenvectorWalk {
 public:
  EigenvectorWalk(const HybridEigenvectorFollowingParams& params, Potential& potential,
                  const std::vector<double>& start, const std::vector<double>& eigenvectorGuess,
                  TransitionStateResult& result)
      : m_params(params),
        m_potential(potential),
        m_eigenSearch(params.rayleighRitz),
        m_result(result),
        m_x(result.coordinates),
        m_g(start.size()),
        m_rmsScale(1.0 / std::sqrt(static_cast<double>(start.size()))),
        m_maxUphill(params.initialUphillStep) {
    m_x = start;
    m_energy = potential.energyGradient(m_x.data(), m_g.data());
    m_result.gradientCalls = 1;
    m_v = eigenvectorGuess.empty() ? randomUnitVector(start.size(), params.seed) : eigenvectorGuess;
  }

  double energy() const { return m_energy; }

  /// Iteration `it`: eigenvector, uphill step, tangent-space minimisation. True once converged.
  bool iterate(int it, const HybridEigenvectorFollowing::Observer& observer) {
    const int eigenIterations = updateEigenvector();
    const double h = stepUphill();
    const int tangentIterations = minimiseInTangentSpace();
    const double rms = std::sqrt(dot(m_g, m_g)) * m_rmsScale;
    m_result.lastUphillStep = std::abs(h);
    m_result.rmsGradient = rms;
    if (observer) {
      observer({it, m_energy, rms, m_lambda, m_overlap, h, m_maxUphill, eigenIterations,
                tangentIterations});
    }
    return rms < m_params.rmsTolerance && std::abs(h) < m_params.stepTolerance && m_lambda < 0.0;
  }

  /// The energy and the eigenpair at the returned coordinates (the loop's came before its last
  /// steps); a converged search whose eigenvalue is not negative is NotASaddle.
  void finish() {
    m_result.energy = m_energy;
    if (m_result.status == TransitionStateStatus::NonFiniteEnergy) {
      m_result.eigenvalue = m_lambda;
      m_result.eigenvector = m_v;
      return;
    }
    const RayleighRitzResult last = m_eigenSearch.smallestEigenvector(m_potential, m_x, m_v);
    m_result.gradientCalls += last.gradientCalls;
    m_result.eigenvalue = last.eigenvalue;
    m_result.eigenvector = last.eigenvector;
    if (m_result.converged() && !(last.eigenvalue < 0.0)) {
      m_result.status = TransitionStateStatus::NotASaddle;
    }
  }

 private:
  // 1. Smallest non-zero eigenvalue and eigenvector (eqs 11-14), warm-started from the last one;
  // its overlap with the last one decides the tangent-space iterations. Returns the iterations.
  int updateEigenvector() {
    const RayleighRitzResult eig = m_eigenSearch.smallestEigenvector(m_potential, m_x, m_v);
    m_result.gradientCalls += eig.gradientCalls;
    m_v = eig.eigenvector;
    m_lambda = eig.eigenvalue;
    m_overlap = 0.0;
    if (!m_previous.empty()) {
      const double d = dot(m_v, m_previous);
      if (d < 0.0) {  // an eigenvector's sign is arbitrary; keep following the same direction
        for (double& vi : m_v) vi = -vi;
      }
      m_overlap = std::abs(d);
    }
    m_previous = m_v;
    return eig.iterations;
  }

  // 2. Uphill eigenvector-following step along v with the trust-adapted cap. Returns the step.
  double stepUphill() {
    const double force = dot(m_g, m_v);
    const double lambda = m_lambda;
    double h;
    if (lambda < 0.0) {
      h = 2.0 * force /
          (std::abs(lambda) * (1.0 + std::sqrt(1.0 + 4.0 * (force / lambda) * (force / lambda))));
    } else {
      h = (force >= 0.0 ? 1.0 : -1.0) * m_maxUphill;
    }
    if (std::abs(h) > m_maxUphill) h = std::copysign(m_maxUphill, h);
    for (std::size_t i = 0; i < m_x.size(); ++i) m_x[i] += h * m_v[i];
    m_energy = m_potential.energyGradient(m_x.data(), m_g.data());
    ++m_result.gradientCalls;
    if (lambda < 0.0 && h != 0.0) adaptTrustRadius(force, h);
    return h;
  }

  // Predicted change of F along v is lambda h; the second form allows for v having flipped.
  void adaptTrustRadius(double force, double h) {
    const double forceNew = dot(m_g, m_v);
    const double error = std::min(std::abs(1.0 - (forceNew - force) / (h * m_lambda)),
                                  std::abs(1.0 - (-forceNew - force) / (h * m_lambda)));
    m_maxUphill = error > m_params.trustRatio
                      ? std::max(m_maxUphill / kTrustFactor, m_params.minUphillStep)
                      : std::min(m_maxUphill * kTrustFactor, m_params.maxUphillStep);
  }

  // 3. Minimisation orthogonal to v (eq 15). Returns the L-BFGS iterations.
  int minimiseInTangentSpace() {
    TangentSpacePotential tangent(m_potential, m_v);
    LbfgsParams tp = m_params.tangentSpace;
    tp.maxIterations = m_overlap > m_params.overlapConvergence ? m_params.tangentIterationsAfter
                                                               : m_params.tangentIterationsBefore;
    const LbfgsResult run = Lbfgs(tp).minimize(tangent, m_x, m_params.tangentWorkspace);
    m_result.gradientCalls += run.functionCalls;
    m_energy = m_potential.energyGradient(m_x.data(), m_g.data());
    ++m_result.gradientCalls;
    return run.iterations;
  }

  const HybridEigenvectorFollowingParams& m_params;
  Potential& m_potential;
  const RayleighRitz m_eigenSearch;
  TransitionStateResult& m_result;
  std::vector<double>& m_x;
  std::vector<double> m_g;
  const double m_rmsScale;
  double m_energy = 0.0;
  std::vector<double> m_v, m_previous;
  double m_maxUphill;
  double m_lambda = 0.0;
  double m_overlap = 0.0;
};

}  // namespace

TransitionStateResult HybridEigenvectorFollowing::findTransitionState(
    Potential& potential, const std::vector<double>& start,
    const std::vector<double>& eigenvectorGuess, const Observer& observer) const {
  const std::size_t n = potential.dimension();
  if (start.size() != n) {
    throw std::invalid_argument("hybrid EF: start has " + std::to_string(start.size()) +
                                " coordinates, the potential expects " + std::to_string(n));
  }
  if (!eigenvectorGuess.empty() && eigenvectorGuess.size() != n) {
    throw std::invalid_argument("hybrid EF: eigenvector guess has " +
                                std::to_string(eigenvectorGuess.size()) + " entries, expected " +
                                std::to_string(n));
  }
  TransitionStateResult result;
  EigenvectorWalk walk(m_params, potential, start, eigenvectorGuess, result);
  for (int it = 1; it <= m_params.maxIterations; ++it) {
    result.iterations = it;
    if (!std::isfinite(walk.energy())) {
      result.status = TransitionStateStatus::NonFiniteEnergy;
      break;
    }
    // Checked after the iteration as well: its inner minimisations end early on a stop, and
    // what they leave is no transition state.
    const bool converged = !stopRequested() && walk.iterate(it, observer);
    if (stopRequested()) {
      result.status = TransitionStateStatus::Stopped;
      break;
    }
    if (converged) {
      result.status = TransitionStateStatus::Converged;
      break;
    }
  }
  walk.finish();
  return result;
}

}  // namespace landscape
