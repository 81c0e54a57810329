#include "landscape/minimisation/LbfgsCompact.h"

#include <stdexcept>

namespace landscape {

Eigen::VectorXd compactLbfgsDirection(const Eigen::MatrixXd& S, const Eigen::MatrixXd& Y,
                                      const Eigen::VectorXd& g) {
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
