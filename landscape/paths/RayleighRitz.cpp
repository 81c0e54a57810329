#include "landscape/paths/RayleighRitz.h"

#include <cmath>
#include <memory>
#include <limits>
#include <stdexcept>

#include "landscape/core/Random.h"
#include "landscape/core/Require.h"
#include "landscape/minimisation/LbfgsCpuWorkspace.h"

namespace landscape {

namespace {

// A guess with less than this fraction of its length outside the rigid-body modes is unusable.
constexpr double kNegligible = 1e-10;

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Any L-BFGS workspace, with the iterate renormalised after every accepted step (Mantell, Pitt and
// Wales, J. Chem. Theory Comput. 2016, section 2.2: "The eigenvector is also normalized at every
// iteration of the minimization").
class NormalisingWorkspace : public LbfgsWorkspace {
 public:
  NormalisingWorkspace(LbfgsWorkspace& inner, const RayleighRitzPotential& ratio)
      : m_inner(inner), m_ratio(ratio), m_buffer(inner.dimension()) {}
  std::size_t dimension() const override { return m_inner.dimension(); }
  void setCoordinates(const double* x) override { m_inner.setCoordinates(x); }
  void getCoordinates(double* x) const override { m_inner.getCoordinates(x); }
  void getGradient(double* g) const override { m_inner.getGradient(g); }
  double evaluateCurrent() override { return m_inner.evaluateCurrent(); }
  double gradientNormSquared() const override { return m_inner.gradientNormSquared(); }
  DirectionSummary computeDirection(double initialGuess) override {
    return m_inner.computeDirection(initialGuess);
  }
  void reverseDirection() override { m_inner.reverseDirection(); }
  double evaluateTrial(double c) override { return m_inner.evaluateTrial(c); }
  double acceptTrial() override {
    const double g2 = m_inner.acceptTrial();
    m_inner.getCoordinates(m_buffer.data());
    m_ratio.normalise(m_buffer);
    m_inner.setCoordinates(m_buffer.data());
    return g2;
  }
  void clearHistory() override { m_inner.clearHistory(); }
  int historyLength() const override { return m_inner.historyLength(); }

 private:
  LbfgsWorkspace& m_inner;
  const RayleighRitzPotential& m_ratio;
  std::vector<double> m_buffer;
};

}  // namespace

LbfgsParams RayleighRitzParams::defaultLbfgs() {
  LbfgsParams p;  // historySize: kLbfgsHistorySize
  p.maxStep = 0.2;  // the iterate is a unit vector: at most ~0.2 rad of rotation per step
  p.rmsTolerance = 0.01;
  p.maxIterations = 1000;
  return p;
}

void RayleighRitzParams::check() const {
  require(std::isfinite(zeta) && zeta > 0.0,
          "Rayleigh-Ritz zeta (finite-difference displacement, eq 14) must be > 0 (length)");
  require(std::isfinite(eigenvalueTolerance) && eigenvalueTolerance > 0.0,
          "Rayleigh-Ritz eigenvalue tolerance (relative change of lambda) must be > 0");
  require(maxTightenings >= 0, "Rayleigh-Ritz maxTightenings must be >= 0");
  try {
    lbfgs.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("Rayleigh-Ritz lbfgs: ") + e.what());
  }
}

RayleighRitzPotential::RayleighRitzPotential(Potential& potential,
                                             const std::vector<double>& coordinates, double zeta,
                                             bool removeRigidBodyModes, bool translationsOnly)
    : m_potential(potential), m_x(coordinates), m_zeta(zeta) {
  if (coordinates.size() != potential.dimension()) {
    throw std::invalid_argument(
        "Rayleigh-Ritz: coordinate vector has " + std::to_string(coordinates.size()) +
        " entries, the potential expects " + std::to_string(potential.dimension()));
  }
  if (!(std::isfinite(zeta) && zeta > 0.0)) {
    throw std::invalid_argument("Rayleigh-Ritz: zeta must be > 0 (length)");
  }
  // Built only when used: a model surface need not have 3N coordinates.
  // Potentials in other coordinates (rigid bodies) supply their own overall motions.
  if (removeRigidBodyModes && translationsOnly) {
    m_modes = RigidBodyModes::translations(coordinates.size());
  } else if (removeRigidBodyModes) {
    std::vector<double> own;
    if (potential.overallMotionModes(coordinates.data(), own)) {
      m_modes = RigidBodyModes::fromCandidates(Eigen::Map<const Eigen::MatrixXd>(
          own.data(), static_cast<Eigen::Index>(coordinates.size()),
          static_cast<Eigen::Index>(own.size() / coordinates.size())));
    } else {
      m_modes.emplace(coordinates);
    }
  }
  const std::size_t n = m_x.size();
  m_unit.resize(n);
  m_displaced.resize(2 * n);
  m_gradients.resize(2 * n);
  m_scratch.resize(n);
}

std::string RayleighRitzPotential::name() const {
  return "Rayleigh-Ritz ratio of " + m_potential.name();
}

double RayleighRitzPotential::energy(const double* x) {
  return energyGradient(x, m_scratch.data());
}

double RayleighRitzPotential::energyGradient(const double* x, double* g) {
  const std::size_t n = m_x.size();
  // xhat = P x / |P x|: normalised at every evaluation (Mantell et al. 2016, section 2.2).
  for (std::size_t i = 0; i < n; ++i) m_unit[i] = x[i];
  if (m_modes) m_modes->projectOut(m_unit.data());
  const double norm = std::sqrt(dot(m_unit, m_unit));
  if (!(norm > 0.0) || !std::isfinite(norm)) {
    for (std::size_t i = 0; i < n; ++i) g[i] = 0.0;
    return std::numeric_limits<double>::quiet_NaN();
  }
  for (double& v : m_unit) v /= norm;

  // X + zeta xhat and X - zeta xhat, asked for together (one request where calls are batched).
  for (std::size_t i = 0; i < n; ++i) {
    m_displaced[i] = m_x[i] + m_zeta * m_unit[i];
    m_displaced[n + i] = m_x[i] - m_zeta * m_unit[i];
  }
  m_potential.energyGradients(2, m_displaced.data(), m_gradients.data(), m_energies);
  m_gradientCalls += 2;

  // Eq 14 for |xhat| = 1.
  double* difference = m_gradients.data();  // grad V(X + zeta x) - grad V(X - zeta x)
  double lambda = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    difference[i] -= m_gradients[n + i];
    lambda += difference[i] * m_unit[i];
  }
  lambda /= 2.0 * m_zeta;
  // Eq 13 at the unit vector (orthogonal to it, since lambda is its own Rayleigh quotient).
  for (std::size_t i = 0; i < n; ++i) {
    g[i] = difference[i] / m_zeta - 2.0 * lambda * m_unit[i];
  }
  if (m_modes) m_modes->projectOut(g);
  return lambda;
}

void RayleighRitzPotential::normalise(std::vector<double>& x) const {
  if (x.size() != m_x.size()) {
    throw std::invalid_argument("Rayleigh-Ritz: eigenvector guess has " + std::to_string(x.size()) +
                                " entries, expected " + std::to_string(m_x.size()));
  }
  const double before = std::sqrt(dot(x, x));
  if (m_modes) m_modes->projectOut(x.data());
  const double norm = std::sqrt(dot(x, x));
  if (!(norm > kNegligible * before) || !std::isfinite(norm)) {
    throw std::invalid_argument(
        "Rayleigh-Ritz: the eigenvector guess has no finite component outside the rigid-body "
        "modes");
  }
  for (double& v : x) v /= norm;
}

RayleighRitz::RayleighRitz(const RayleighRitzParams& params) : m_params(params) {
  m_params.check();
}

RayleighRitzResult RayleighRitz::smallestEigenvector(
    Potential& potential, const std::vector<double>& coordinates,
    const std::vector<double>& initialGuess) const {
  RayleighRitzPotential ratio(potential, coordinates, m_params.zeta, m_params.removeRigidBodyModes,
                              m_params.translationsOnly);
  RayleighRitzResult result;
  result.eigenvector = initialGuess;
  ratio.normalise(result.eigenvector);

  std::vector<double> lambdas;
  const auto record = [&](const LbfgsIteration& it) { lambdas.push_back(it.energy); };
  // Relative change of lambda below tolerance on the final two iterations of the search.
  const auto settled = [&](int iterations) {
    if (iterations < 2) return true;  // the RMS criterion held at once: nothing left to settle
    const std::size_t k = lambdas.size();
    if (k < 3) return false;
    for (std::size_t j = k - 2; j < k; ++j) {
      if (std::abs(lambdas[j] - lambdas[j - 1]) >
          m_params.eigenvalueTolerance * std::abs(lambdas[j])) {
        return false;
      }
    }
    return true;
  };

  LbfgsParams p = m_params.lbfgs;
  const std::unique_ptr<LbfgsWorkspace> inner =
      m_params.workspace ? m_params.workspace(ratio, p.historySize)
                         : std::make_unique<LbfgsCpuWorkspace>(ratio, p.historySize);
  NormalisingWorkspace workspace(*inner, ratio);
  for (int round = 0;; ++round) {
    p.maxIterations = m_params.lbfgs.maxIterations - result.iterations;
    workspace.setCoordinates(result.eigenvector.data());
    const LbfgsResult run = Lbfgs(p).minimize(workspace, record);
    workspace.getCoordinates(result.eigenvector.data());
    result.iterations += run.iterations;
    result.status = run.status;
    result.rmsGradient = run.rmsGradient;
    result.eigenvalue = run.energy;
    ratio.normalise(result.eigenvector);
    if (!run.converged()) break;
    result.eigenvalueSettled = settled(result.iterations);
    if (result.eigenvalueSettled || round >= m_params.maxTightenings ||
        result.iterations >= m_params.lbfgs.maxIterations) {
      break;
    }
    p.rmsTolerance *= 0.1;  // lambda still moving: tighten and go on from here
  }
  result.gradientCalls = ratio.gradientCalls();
  return result;
}

std::vector<double> randomUnitVector(std::size_t dimension, std::uint64_t seed) {
  if (dimension == 0) throw std::invalid_argument("randomUnitVector: dimension must be > 0");
  Random random(seed);
  std::vector<double> v(dimension);
  double norm2 = 0.0;
  while (norm2 == 0.0) {
    for (double& x : v) x = random.symmetric();
    norm2 = dot(v, v);
  }
  const double norm = std::sqrt(norm2);
  for (double& x : v) x /= norm;
  return v;
}

}  // namespace landscape
