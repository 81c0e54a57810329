#include "landscape/paths/TransitionStateDescent.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"

namespace landscape {

LbfgsParams TransitionStateDescentParams::defaultMinimiser() {
  LbfgsParams p;
  p.historySize = 10;
  p.maxStep = 0.2;
  p.rmsTolerance = 1e-6;
  p.maxIterations = 5000;
  return p;
}

void TransitionStateDescentParams::check() const {
  require(std::isfinite(pushoff) && pushoff > 0.0, "descent pushoff must be > 0 (length)");
  require(maxPushoffDoublings >= 0, "descent maxPushoffDoublings must be >= 0");
  try {
    minimiser.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("descent minimiser: ") + e.what());
  }
}

TransitionStateDescent::TransitionStateDescent(const TransitionStateDescentParams& params)
    : m_params(params) {
  m_params.check();
}

TransitionStateDescentResult TransitionStateDescent::descend(
    Potential& potential, const std::vector<double>& transitionState,
    const std::vector<double>& eigenvector) const {
  const std::size_t n = potential.dimension();
  if (transitionState.size() != n || eigenvector.size() != n) {
    throw std::invalid_argument(
        "descent: transition state (" + std::to_string(transitionState.size()) +
        ") and eigenvector (" + std::to_string(eigenvector.size()) +
        ") must have the potential's " + std::to_string(n) + " coordinates");
  }
  double norm = 0.0;
  for (double v : eigenvector) norm += v * v;
  norm = std::sqrt(norm);
  if (!(norm > 0.0) || !std::isfinite(norm)) {
    throw std::invalid_argument("descent: the eigenvector must be a non-zero finite vector");
  }
  std::vector<double> direction(eigenvector);
  for (double& v : direction) v /= norm;
  const double tsEnergy = potential.energy(transitionState.data());
  TransitionStateDescentResult result;
  result.plus = descendOneSide(potential, transitionState, tsEnergy, direction, +1.0);
  result.minus = descendOneSide(potential, transitionState, tsEnergy, direction, -1.0);
  return result;
}

DescentSide TransitionStateDescent::descendOneSide(Potential& potential,
                                                   const std::vector<double>& ts, double tsEnergy,
                                                   const std::vector<double>& direction,
                                                   double sign) const {
  DescentSide side;
  double pushoff = m_params.pushoff;
  std::vector<double> x(ts.size());
  for (int attempt = 0; attempt <= m_params.maxPushoffDoublings; ++attempt) {
    for (std::size_t i = 0; i < ts.size(); ++i) x[i] = ts[i] + sign * pushoff * direction[i];
    if (potential.energy(x.data()) < tsEnergy) break;
    if (attempt < m_params.maxPushoffDoublings) pushoff *= 2.0;
  }
  side.pushoff = sign * pushoff;
  side.minimisation = Lbfgs(m_params.minimiser).minimize(potential, x, m_params.workspace);
  side.energy = side.minimisation.energy;
  side.coordinates = std::move(x);
  return side;
}

}  // namespace landscape
