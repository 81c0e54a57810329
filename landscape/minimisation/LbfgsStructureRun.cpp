#include "landscape/minimisation/LbfgsStructureRun.h"

#include <cmath>

namespace landscape {

LbfgsStructureRun::LbfgsStructureRun(int n, const LbfgsParams& params,
                                     const LbfgsDiagonalMetric* metric, bool gradientMetric)
    : m_params(params),
      m_limits(params.stepLimits()),
      m_history(n, params.historySize),
      m_metric(metric && metric->on() ? metric : nullptr),
      m_gradientMetric(gradientMetric) {
  m_x.setZero(n);
  m_g.setZero(n);
  m_p.setZero(n);
  m_xTrial.setZero(n);
  m_gTrial.setZero(n);
}

void LbfgsStructureRun::start(const double* x) {
  m_x = Eigen::Map<const Eigen::VectorXd>(x, m_x.size());
  m_state = lbfgsStepFresh();
  m_evaluatingStart = true;
  m_next = LbfgsNext::Trial;  // the start point is the first evaluation
}

void LbfgsStructureRun::getCoordinates(double* x) const {
  Eigen::Map<Eigen::VectorXd>(x, m_x.size()) = m_x;
}

double LbfgsStructureRun::rms(double gradientNormSquared, double metricRms) const {
  if (m_gradientMetric) return metricRms;
  return std::sqrt(gradientNormSquared / static_cast<double>(m_x.size()));
}

void LbfgsStructureRun::advance(double energy, double metricRms) {
  m_metricRms = metricRms;
  if (m_evaluatingStart) {
    m_evaluatingStart = false;
    m_history.clear();
    m_next = lbfgsStepStart(m_state, energy, rms(m_g.squaredNorm(), metricRms), m_limits);
  } else {
    m_next = lbfgsStepTrial(m_state, energy, m_limits);
  }
  proceed();
}

// LbfgsCpuWorkspace::computeDirection, then the step control's decision: with a diagonal metric
// in the scaled coordinates u = sqrt(w) x, where the gradient is g / sqrt(w), p.g and |p| taken
// there, then p back to x.
void LbfgsStructureRun::direction() {
  if (!m_metric) {
    m_p = m_g;
    m_history.applyInverseHessian(m_p, m_params.initialGuess);
    m_p = -m_p;
    m_next = lbfgsStepDirection(m_state, m_p.dot(m_g), m_p.norm(), m_limits);
    return;
  }
  m_p = m_g.cwiseProduct(m_metric->invSqrtW);
  m_history.applyInverseHessian(m_p, m_params.initialGuess);
  m_p = -m_p;
  const double dot = m_p.dot(m_g.cwiseProduct(m_metric->invSqrtW)), norm = m_p.norm();
  m_p = m_p.cwiseProduct(m_metric->invSqrtW);
  m_next = lbfgsStepDirection(m_state, dot, norm, m_limits);
}

void LbfgsStructureRun::proceed() {
  for (;;) {
    switch (m_next) {
      case LbfgsNext::ClearAndDirection:
        m_history.clear();
        [[fallthrough]];
      case LbfgsNext::Direction:
        direction();
        if (m_state.reversed) m_p = -m_p;
        break;
      case LbfgsNext::Trial:
        m_xTrial = m_x + m_state.scale * m_p;
        return;
      case LbfgsNext::Accept:
        if (m_metric)
          m_history.store((m_xTrial - m_x).cwiseProduct(m_metric->sqrtW),
                          (m_gTrial - m_g).cwiseProduct(m_metric->invSqrtW));
        else
          m_history.store(m_xTrial - m_x, m_gTrial - m_g);
        m_x.swap(m_xTrial);
        m_g.swap(m_gTrial);
        m_next = lbfgsStepAccepted(m_state, rms(m_g.squaredNorm(), m_metricRms), m_limits);
        break;
      case LbfgsNext::Finish:
        return;
    }
  }
}

void LbfgsStructureRun::stop() {
  if (m_next == LbfgsNext::Finish) return;
  lbfgsStepStop(m_state, !m_evaluatingStart, std::nan(""));
  m_next = LbfgsNext::Finish;
}

}  // namespace landscape
