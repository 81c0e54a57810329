#include "landscape/minimisation/LbfgsHostHistory.h"

#include <stdexcept>

namespace landscape {

LbfgsHostHistory::LbfgsHostHistory(Eigen::Index n, int m) : m_n(n), m_m(m) {
  if (m < 1) throw std::invalid_argument("L-BFGS history size m must be >= 1");
  m_rho.assign(m, 0.0);
  m_alpha.assign(m, 0.0);
}

void LbfgsHostHistory::applyInverseHessian(Eigen::VectorXd& q, double initialGuess) {
  const int length = m_order.length;
  for (int k = length - 1; k >= 0; --k) {
    const int c = m_order.slot(k, m_m);
    m_alpha[c] = m_rho[c] * m_s.col(c).dot(q);
    q.noalias() -= m_alpha[c] * m_y.col(c);
  }
  q *= (length == 0 ? initialGuess : m_order.gamma);
  for (int k = 0; k < length; ++k) {
    const int c = m_order.slot(k, m_m);
    const double beta = m_rho[c] * m_y.col(c).dot(q);
    q.noalias() += (m_alpha[c] - beta) * m_s.col(c);
  }
}

}  // namespace landscape
