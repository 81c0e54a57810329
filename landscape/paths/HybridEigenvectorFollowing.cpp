#include "landscape/paths/HybridEigenvectorFollowing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "landscape/core/Require.h"
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
  }
  return "unknown";
}

HybridEigenvectorFollowing::HybridEigenvectorFollowing(
    const HybridEigenvectorFollowingParams& params)
    : m_params(params) {
  m_params.check();
}

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
  const RayleighRitz eigenSearch(m_params.rayleighRitz);
  const double rmsScale = 1.0 / std::sqrt(static_cast<double>(n));

  TransitionStateResult result;
  std::vector<double>& x = result.coordinates;
  x = start;
  std::vector<double> g(n);
  double energy = potential.energyGradient(x.data(), g.data());
  result.gradientCalls = 1;
  std::vector<double> v =
      eigenvectorGuess.empty() ? randomUnitVector(n, m_params.seed) : eigenvectorGuess;
  std::vector<double> previous;
  double maxUphill = m_params.initialUphillStep;
  double lambda = 0.0;

  for (int it = 1; it <= m_params.maxIterations; ++it) {
    result.iterations = it;
    if (!std::isfinite(energy)) {
      result.status = TransitionStateStatus::NonFiniteEnergy;
      break;
    }
    // 1. Smallest non-zero eigenvalue and eigenvector (eqs 11-14), warm-started.
    const RayleighRitzResult eig = eigenSearch.smallestEigenvector(potential, x, v);
    result.gradientCalls += eig.gradientCalls;
    v = eig.eigenvector;
    lambda = eig.eigenvalue;
    double overlap = 0.0;
    if (!previous.empty()) {
      const double d = dot(v, previous);
      if (d < 0.0) {  // an eigenvector's sign is arbitrary; keep following the same direction
        for (double& vi : v) vi = -vi;
      }
      overlap = std::abs(d);
    }
    previous = v;

    // 2. Uphill eigenvector-following step along v with the trust-adapted cap.
    const double force = dot(g, v);
    double h;
    if (lambda < 0.0) {
      h = 2.0 * force /
          (std::abs(lambda) * (1.0 + std::sqrt(1.0 + 4.0 * (force / lambda) * (force / lambda))));
    } else {
      h = (force >= 0.0 ? 1.0 : -1.0) * maxUphill;
    }
    if (std::abs(h) > maxUphill) h = std::copysign(maxUphill, h);
    for (std::size_t i = 0; i < n; ++i) x[i] += h * v[i];
    energy = potential.energyGradient(x.data(), g.data());
    ++result.gradientCalls;
    if (lambda < 0.0 && h != 0.0) {
      // Predicted change of F along v is lambda h; the second form allows for v having flipped.
      const double forceNew = dot(g, v);
      const double error = std::min(std::abs(1.0 - (forceNew - force) / (h * lambda)),
                                    std::abs(1.0 - (-forceNew - force) / (h * lambda)));
      maxUphill = error > m_params.trustRatio
                      ? std::max(maxUphill / kTrustFactor, m_params.minUphillStep)
                      : std::min(maxUphill * kTrustFactor, m_params.maxUphillStep);
    }

    // 3. Minimisation orthogonal to v (eq 15).
    TangentSpacePotential tangent(potential, v);
    LbfgsParams tp = m_params.tangentSpace;
    tp.maxIterations = overlap > m_params.overlapConvergence ? m_params.tangentIterationsAfter
                                                             : m_params.tangentIterationsBefore;
    const LbfgsResult tangentRun = Lbfgs(tp).minimize(tangent, x, m_params.tangentWorkspace);
    result.gradientCalls += tangentRun.functionCalls;
    energy = potential.energyGradient(x.data(), g.data());
    ++result.gradientCalls;
    const double rms = std::sqrt(dot(g, g)) * rmsScale;
    result.lastUphillStep = std::abs(h);
    result.rmsGradient = rms;
    if (observer) {
      observer(
          {it, energy, rms, lambda, overlap, h, maxUphill, eig.iterations, tangentRun.iterations});
    }
    if (rms < m_params.rmsTolerance && std::abs(h) < m_params.stepTolerance && lambda < 0.0) {
      result.status = TransitionStateStatus::Converged;
      break;
    }
  }
  result.energy = energy;
  if (result.status != TransitionStateStatus::NonFiniteEnergy) {
    // The eigenpair at the returned coordinates (the loop's came before the last steps).
    const RayleighRitzResult last = eigenSearch.smallestEigenvector(potential, x, v);
    result.gradientCalls += last.gradientCalls;
    result.eigenvalue = last.eigenvalue;
    result.eigenvector = last.eigenvector;
    if (result.converged() && !(last.eigenvalue < 0.0)) {
      result.status = TransitionStateStatus::NotASaddle;
    }
  } else {
    result.eigenvalue = lambda;
    result.eigenvector = v;
  }
  return result;
}

}  // namespace landscape
