#include "landscape/minimisation/LbfgsCpuWorkspace.h"

#include <cmath>
#include <stdexcept>

namespace landscape {

LbfgsCpuWorkspace::LbfgsCpuWorkspace(Potential& potential, int historySize)
    : m_potential(potential), m_historySize(historySize) {
  if (historySize < 1) throw std::invalid_argument("L-BFGS history size m must be >= 1");
  const auto n = static_cast<Eigen::Index>(potential.dimension());
  m_x.setZero(n);
  m_g.setZero(n);
  m_p.setZero(n);
  m_xTrial.setZero(n);
  m_gTrial.setZero(n);
  m_rho.assign(historySize, 0.0);
  m_alpha.assign(historySize, 0.0);
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
  if (m_metricW.size() != static_cast<std::size_t>(m_x.size()))
    throw std::invalid_argument("L-BFGS: the diagonal metric of " + m_potential.name() + " has " +
                                std::to_string(m_metricW.size()) + " entries, expected " +
                                std::to_string(m_x.size()));
  m_sqrtW.resize(m_x.size());
  m_invSqrtW.resize(m_x.size());
  for (Eigen::Index i = 0; i < m_x.size(); ++i) {
    if (!(m_metricW[i] > 0.0) || !std::isfinite(m_metricW[i]))
      throw std::invalid_argument("L-BFGS: the diagonal metric of " + m_potential.name() +
                                  " must be finite and > 0 (entry " + std::to_string(i) + ")");
    m_sqrtW[i] = std::sqrt(m_metricW[i]);
    m_invSqrtW[i] = 1.0 / m_sqrtW[i];
  }
}

DirectionSummary LbfgsCpuWorkspace::computeDirection(double initialGuess) {
  // Two-loop recursion (seed 001, Algorithm 2), newest pair first in the first loop; with a
  // diagonal metric in the scaled coordinates u = sqrt(w) x, where the gradient is g / sqrt(w).
  const bool scaled = m_sqrtW.size() > 0;
  Eigen::VectorXd& q = m_p;
  if (scaled)
    q = m_g.cwiseProduct(m_invSqrtW);
  else
    q = m_g;
  for (int k = m_length - 1; k >= 0; --k) {
    const int c = (m_oldest + k) % m_historySize;
    m_alpha[c] = m_rho[c] * m_s.col(c).dot(q);
    q.noalias() -= m_alpha[c] * m_y.col(c);
  }
  q *= (m_length == 0 ? initialGuess : m_gamma);
  for (int k = 0; k < m_length; ++k) {
    const int c = (m_oldest + k) % m_historySize;
    const double beta = m_rho[c] * m_y.col(c).dot(q);
    q.noalias() += (m_alpha[c] - beta) * m_s.col(c);
  }
  m_p = -q;  // p = -H g
  if (!scaled) return {m_p.dot(m_g), m_p.norm()};
  // p.g and |p| in u (the dot product is the same in x), then p back to x.
  const DirectionSummary summary{m_p.dot(m_g.cwiseProduct(m_invSqrtW)), m_p.norm()};
  m_p = m_p.cwiseProduct(m_invSqrtW);
  return summary;
}

double LbfgsCpuWorkspace::rmsGradient(double gradientNormSquared) {
  if (m_potential.hasGradientMetric()) return m_potential.rmsGradient(m_x.data(), m_g.data());
  return std::sqrt(gradientNormSquared / static_cast<double>(m_x.size()));
}

double LbfgsCpuWorkspace::evaluateTrial(double c) {
  m_xTrial = m_x + c * m_p;
  m_energyTrial = m_potential.energyGradient(m_xTrial.data(), m_gTrial.data());
  return m_energyTrial;
}

double LbfgsCpuWorkspace::acceptTrial() {
  if (m_s.cols() == 0) {  // history storage is allocated on first use
    m_s.setZero(m_x.size(), m_historySize);
    m_y.setZero(m_x.size(), m_historySize);
  }
  int slot;
  if (m_length < m_historySize) {
    slot = (m_oldest + m_length) % m_historySize;
    ++m_length;
  } else {  // drop the oldest pair (Algorithm 1, line 8)
    slot = m_oldest;
    m_oldest = (m_oldest + 1) % m_historySize;
  }
  m_s.col(slot) = m_xTrial - m_x;
  m_y.col(slot) = m_gTrial - m_g;
  if (m_sqrtW.size() > 0) {
    m_s.col(slot) = m_s.col(slot).cwiseProduct(m_sqrtW);
    m_y.col(slot) = m_y.col(slot).cwiseProduct(m_invSqrtW);
  }
  // GMIN guards a zero curvature product by replacing it with 1; a negative one is kept (the
  // resulting uphill direction is then reversed by the step control).
  double ys = m_y.col(slot).dot(m_s.col(slot));
  double yy = m_y.col(slot).squaredNorm();
  if (ys == 0.0) ys = 1.0;
  if (yy == 0.0) yy = 1.0;
  m_rho[slot] = 1.0 / ys;
  m_gamma = ys / yy;
  m_x.swap(m_xTrial);
  m_g.swap(m_gTrial);
  return m_g.squaredNorm();
}

void LbfgsCpuWorkspace::clearHistory() {
  m_length = 0;
  m_oldest = 0;
}

}  // namespace landscape
