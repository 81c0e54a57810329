#include "landscape/minimisation/LbfgsStructureRun.h"

#include <cmath>

namespace landscape {

LbfgsStructureRun::LbfgsStructureRun(int n, const LbfgsParams& params) : m_params(params) {
  m_x.setZero(n);
  m_g.setZero(n);
  m_p.setZero(n);
  m_xTrial.setZero(n);
  m_gTrial.setZero(n);
  m_s.setZero(n, params.historySize);
  m_y.setZero(n, params.historySize);
  m_rho.assign(params.historySize, 0.0);
  m_alpha.assign(params.historySize, 0.0);
}

void LbfgsStructureRun::start(const double* x) {
  m_x = Eigen::Map<const Eigen::VectorXd>(x, m_x.size());
  m_result = BatchedLbfgsResult{};
  m_result.functionCalls = 1;
  m_evaluatingCurrent = true;
  m_phase = Phase::Evaluating;
}

void LbfgsStructureRun::getCoordinates(double* x) const {
  Eigen::Map<Eigen::VectorXd>(x, m_x.size()) = m_x;
}

void LbfgsStructureRun::advance(double energy) {
  if (m_evaluatingCurrent)
    afterStart(energy);
  else
    afterTrial(energy);
}

// Lbfgs::minimize up to its loop.
void LbfgsStructureRun::afterStart(double energy) {
  m_evaluatingCurrent = false;
  m_energy = energy;
  m_rms = std::sqrt(m_g.squaredNorm() / static_cast<double>(m_x.size()));
  clearHistory();
  if (!std::isfinite(m_energy) || !std::isfinite(m_rms)) {
    m_result.status = LbfgsStatus::NonFiniteEnergy;
    finish();
    return;
  }
  m_result.status = LbfgsStatus::MaxIterations;
  m_iteration = 1;
  beginIteration();
}

// The loop condition of Lbfgs::minimize, then the first scaledStep of the iteration.
void LbfgsStructureRun::beginIteration() {
  if (!(m_rms >= m_params.rmsTolerance && m_iteration <= m_params.maxIterations)) {
    if (m_rms < m_params.rmsTolerance) m_result.status = LbfgsStatus::Converged;
    finish();
    return;
  }
  m_cleared = false;
  beginStep();
}

// scaledStep up to its first trial: direction, uphill reversal, cap at maxStep.
void LbfgsStructureRun::beginStep() {
  computeDirection();
  if (m_directionDotGradient > 0.0) m_p = -m_p;
  m_scale = 1.0;
  if (m_directionNorm > m_params.maxStep) m_scale = m_params.maxStep / m_directionNorm;
  m_attempt = 0;
  setTrial();
}

void LbfgsStructureRun::setTrial() { m_xTrial = m_x + m_scale * m_p; }

// The rest of scaledStep and of the iteration: accept, divide c by 10, or clear the history.
void LbfgsStructureRun::afterTrial(double energy) {
  ++m_result.functionCalls;
  if (energy - m_energy < m_params.maxRise) {
    m_energy = energy;
    m_rms = std::sqrt(acceptTrial() / static_cast<double>(m_x.size()));
    m_result.iterations = m_iteration;
    ++m_iteration;
    beginIteration();
  } else if (m_attempt < m_params.maxBacktracks) {
    m_scale /= 10.0;
    ++m_attempt;
    setTrial();
  } else if (!m_cleared) {
    clearHistory();
    m_cleared = true;
    beginStep();
  } else {
    m_result.iterations = m_iteration - 1;
    m_result.status = LbfgsStatus::LineSearchFailed;
    finish();
  }
}

void LbfgsStructureRun::stop() {
  if (m_phase == Phase::Done) return;
  if (m_evaluatingCurrent) m_energy = m_rms = std::nan("");
  m_result.status = LbfgsStatus::Stopped;
  finish();
}

void LbfgsStructureRun::finish() {
  m_result.energy = m_energy;
  m_result.rmsGradient = m_rms;
  m_phase = Phase::Done;
}

// LbfgsCpuWorkspace::computeDirection without a metric.
void LbfgsStructureRun::computeDirection() {
  Eigen::VectorXd& q = m_p;
  q = m_g;
  for (int k = m_length - 1; k >= 0; --k) {
    const int c = (m_oldest + k) % m_params.historySize;
    m_alpha[c] = m_rho[c] * m_s.col(c).dot(q);
    q.noalias() -= m_alpha[c] * m_y.col(c);
  }
  q *= (m_length == 0 ? m_params.initialGuess : m_gamma);
  for (int k = 0; k < m_length; ++k) {
    const int c = (m_oldest + k) % m_params.historySize;
    const double beta = m_rho[c] * m_y.col(c).dot(q);
    q.noalias() += (m_alpha[c] - beta) * m_s.col(c);
  }
  m_p = -q;
  m_directionDotGradient = m_p.dot(m_g);
  m_directionNorm = m_p.norm();
}

// LbfgsCpuWorkspace::acceptTrial without a metric.
double LbfgsStructureRun::acceptTrial() {
  int slot;
  if (m_length < m_params.historySize) {
    slot = (m_oldest + m_length) % m_params.historySize;
    ++m_length;
  } else {
    slot = m_oldest;
    m_oldest = (m_oldest + 1) % m_params.historySize;
  }
  m_s.col(slot) = m_xTrial - m_x;
  m_y.col(slot) = m_gTrial - m_g;
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

void LbfgsStructureRun::clearHistory() {
  m_length = 0;
  m_oldest = 0;
}

}  // namespace landscape
