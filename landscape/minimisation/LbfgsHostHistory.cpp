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

Eigen::VectorXd LbfgsHostHistory::compactDirection(const Eigen::VectorXd& g,
                                                   double initialGuess) const {
  const int length = m_order.length;
  if (length == 0) return -initialGuess * g;
  Eigen::MatrixXd S(m_n, length), Y(m_n, length);
  for (int k = 0; k < length; ++k) {
    S.col(k) = m_s.col(m_order.slot(k, m_m));
    Y.col(k) = m_y.col(m_order.slot(k, m_m));
  }
  return compactLbfgsDirection(S, Y, g);
}

Eigen::VectorXd compactLbfgsDirection(const Eigen::MatrixXd& S, const Eigen::MatrixXd& Y,
                                      const Eigen::VectorXd& g) {
  // H g = gamma g + S R^-T ((D + gamma Y^T Y) u - gamma b) - gamma Y u with a = S^T g, b = Y^T g,
  // u = R^-1 a, R the upper triangle of S^T Y and D its diagonal (Byrd, Nocedal and Schnabel
  // 1994, eq 3.1).
  const Eigen::Index L = S.cols();
  if (L == 0 || Y.cols() != L || S.rows() != g.size() || Y.rows() != g.size())
    throw std::invalid_argument("compactLbfgsDirection: S, Y and g do not match");
  Eigen::MatrixXd SY = S.transpose() * Y;
  for (Eigen::Index i = 0; i < L; ++i)
    if (SY(i, i) == 0.0) SY(i, i) = 1.0;
  const Eigen::MatrixXd YY = Y.transpose() * Y;
  const double yy = YY(L - 1, L - 1) == 0.0 ? 1.0 : YY(L - 1, L - 1);
  const double gamma = SY(L - 1, L - 1) / yy;
  const Eigen::VectorXd a = S.transpose() * g, b = Y.transpose() * g;
  const Eigen::VectorXd u = SY.triangularView<Eigen::Upper>().solve(a);
  const Eigen::VectorXd v = SY.diagonal().cwiseProduct(u) + gamma * (YY * u) - gamma * b;
  const Eigen::VectorXd p1 = SY.transpose().triangularView<Eigen::Lower>().solve(v);
  return -(gamma * g + S * p1 - gamma * (Y * u));
}

}  // namespace landscape
