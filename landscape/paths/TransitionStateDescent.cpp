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

std::vector<double> TransitionStateDescent::unitDirection(
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
  return direction;
}

TransitionStateDescentResult TransitionStateDescent::descend(
    Potential& potential, const std::vector<double>& transitionState,
    const std::vector<double>& eigenvector) const {
  const std::vector<double> direction = unitDirection(potential, transitionState, eigenvector);
  const double tsEnergy = potential.energy(transitionState.data());
  TransitionStateDescentResult result;
  for (DescentSide* side : {&result.plus, &result.minus}) {
    *side = pushOff(potential, transitionState, tsEnergy, direction,
                    side == &result.plus ? +1.0 : -1.0);
    side->minimisation =
        Lbfgs(m_params.minimiser).minimize(potential, side->coordinates, m_params.workspace);
    side->energy = side->minimisation.energy;
  }
  return result;
}

std::vector<TransitionStateDescentResult> TransitionStateDescent::descendTogether(
    Potential& potential, const std::vector<std::vector<double>>& transitionStates,
    const std::vector<std::vector<double>>& eigenvectors, BatchedMinimiser& minimiser) const {
  const std::size_t count = transitionStates.size(), n = potential.dimension();
  if (eigenvectors.size() != count)
    throw std::invalid_argument("descent: one eigenvector per transition state");
  if (minimiser.dimension() != n)
    throw std::invalid_argument("descent: the batched minimiser has " +
                                std::to_string(minimiser.dimension()) +
                                " coordinates, the potential " + std::to_string(n));
  std::vector<TransitionStateDescentResult> results(count);
  std::vector<double> batch(2 * count * n);
  for (std::size_t k = 0; k < count; ++k) {
    const auto& ts = transitionStates[k];
    const std::vector<double> direction = unitDirection(potential, ts, eigenvectors[k]);
    const double tsEnergy = potential.energy(ts.data());
    results[k].plus = pushOff(potential, ts, tsEnergy, direction, +1.0);
    results[k].minus = pushOff(potential, ts, tsEnergy, direction, -1.0);
    std::copy(results[k].plus.coordinates.begin(), results[k].plus.coordinates.end(),
              &batch[2 * k * n]);
    std::copy(results[k].minus.coordinates.begin(), results[k].minus.coordinates.end(),
              &batch[(2 * k + 1) * n]);
  }
  std::vector<LbfgsResult> minimised(2 * count);
  if (count > 0) minimiser.minimise(2 * count, batch.data(), minimised.data());
  for (std::size_t s = 0; s < 2 * count; ++s) {
    DescentSide& side = s % 2 == 0 ? results[s / 2].plus : results[s / 2].minus;
    const LbfgsResult& r = minimised[s];
    side.coordinates.assign(&batch[s * n], &batch[s * n] + n);
    side.minimisation = r;
    side.energy = r.energy;
  }
  return results;
}

DescentSide TransitionStateDescent::pushOff(Potential& potential, const std::vector<double>& ts,
                                            double tsEnergy, const std::vector<double>& direction,
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
  side.coordinates = std::move(x);
  return side;
}

}  // namespace landscape
