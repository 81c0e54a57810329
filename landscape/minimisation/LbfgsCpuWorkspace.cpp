#include "landscape/minimisation/LbfgsCpuWorkspace.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "landscape/minimisation/LbfgsDiagonalMetric.h"

namespace landscape {

LbfgsCpuWorkspace::LbfgsCpuWorkspace(Potential& potential, int historySize,
                                     const LbfgsCpuWorkspaceOptions& options)
    : m_potential(potential),
      m_options(options),
      m_history(static_cast<Eigen::Index>(potential.dimension()), historySize) {
  const auto n = static_cast<Eigen::Index>(potential.dimension());
  if (options.stepNormBlock < 0 || (options.stepNormBlock > 0 && n % options.stepNormBlock != 0))
    throw std::invalid_argument("L-BFGS: the step-norm block must divide the dimension " +
                                std::to_string(n));
  m_x.setZero(n);
  m_g.setZero(n);
  m_p.setZero(n);
  m_xTrial.setZero(n);
  m_gTrial.setZero(n);
}

void LbfgsCpuWorkspace::setCoordinates(const double* x) {
  m_x = Eigen::Map<const Eigen::VectorXd>(x, m_x.size());
}

void LbfgsCpuWorkspace::getCoordinates(double* x) const {
  Eigen::Map<Eigen::VectorXd>(x, m_x.size()) = m_x;
}

void LbfgsCpuWorkspace::getGradient(double* g) const {
  Eigen::Map<Eigen::VectorXd>(g, m_g.size()) = m_g;
}

double LbfgsCpuWorkspace::evaluateCurrent() {
  return m_potential.energyGradient(m_x.data(), m_g.data());
}

void LbfgsCpuWorkspace::useDiagonalMetric(bool on) {
  m_sqrtW.resize(0);
  m_invSqrtW.resize(0);
  if (!on || !m_potential.diagonalMetric(m_metricW)) return;
  LbfgsDiagonalMetric metric =
      lbfgsDiagonalMetric(m_metricW, static_cast<std::size_t>(m_x.size()), m_potential.name());
  m_sqrtW = std::move(metric.sqrtW);
  m_invSqrtW = std::move(metric.invSqrtW);
}

double LbfgsCpuWorkspace::stepNorm() const {
  const Eigen::Index block = m_options.stepNormBlock;
  if (block == 0) return m_p.norm();
  double largest = 0.0;
  for (Eigen::Index start = 0; start < m_p.size(); start += block)
    largest = std::max(largest, m_p.segment(start, block).norm());
  return largest;
}

DirectionSummary LbfgsCpuWorkspace::computeDirection(double initialGuess) {
  // With a diagonal metric in the scaled coordinates u = sqrt(w) x, where the gradient is
  // g / sqrt(w).
  const bool scaled = m_sqrtW.size() > 0;
  Eigen::VectorXd& q = m_p;
  if (scaled)
    q = m_g.cwiseProduct(m_invSqrtW);
  else
    q = m_g;
  m_history.applyInverseHessian(q, initialGuess);
  m_p = -q;  // p = -H g
  if (!scaled) return {m_p.dot(m_g), stepNorm()};
  // p.g and |p| in u (the dot product is the same in x), then p back to x.
  const DirectionSummary summary{m_p.dot(m_g.cwiseProduct(m_invSqrtW)), stepNorm()};
  m_p = m_p.cwiseProduct(m_invSqrtW);
  return summary;
}

double LbfgsCpuWorkspace::rmsGradient(double gradientNormSquared) {
  if (m_potential.hasGradientMetric()) return m_potential.rmsGradient(m_x.data(), m_g.data());
  return std::sqrt(gradientNormSquared / static_cast<double>(m_x.size()));
}

double LbfgsCpuWorkspace::evaluateTrial(double c) {
  m_xTrial = m_x + c * m_p;
  return m_potential.energyGradient(m_xTrial.data(), m_gTrial.data());
}

double LbfgsCpuWorkspace::acceptTrial() {
  if (m_sqrtW.size() > 0)
    m_history.store((m_xTrial - m_x).cwiseProduct(m_sqrtW),
                    (m_gTrial - m_g).cwiseProduct(m_invSqrtW));
  else
    m_history.store(m_xTrial - m_x, m_gTrial - m_g);
  m_x.swap(m_xTrial);
  m_g.swap(m_gTrial);
  return m_g.squaredNorm();
}

}  // namespace landscape
