#pragma once
// The L-BFGS history of the host drivers (Eigen): m pairs {s, y} with their rho in the cyclic
// order of LbfgsHistory, and the direction p = -H g by the two-loop recursion (Mantell, Pitt and
// Wales, J. Chem. Theory Comput. 2016, Algorithm 2, H0 = gamma I by eq 2). Used by
// LbfgsCpuWorkspace (Lbfgs, DNEB's band) and LbfgsStructureRun (the batched CPU reference), so
// that their iterates stay bit for bit those of the reference loop. (The compact representation
// of Byrd, Nocedal and Schnabel lives on the device only: gpu/LbfgsCudaWorkspace and the rounds
// engine's long histories; on the host its small matrix products cost more than the recursion.)
#include <Eigen/Dense>
#include <vector>

#include "landscape/minimisation/LbfgsHistory.h"

namespace landscape {

class LbfgsHostHistory {
 public:
  /// n components per vector, m >= 1 pairs; the pair storage is allocated on the first store.
  LbfgsHostHistory(Eigen::Index n, int m);

  int length() const { return m_order.length; }
  void clear() { m_order.clear(); }

  /// q <- H q by the two-loop recursion, newest pair first in the first loop; H0 = initialGuess
  /// on an empty history, else gamma.
  void applyInverseHessian(Eigen::VectorXd& q, double initialGuess);

  /// Stores a new pair (dropping the oldest beyond m): s and y are Eigen expressions of n
  /// components, evaluated straight into the pair's slot.
  template <class S, class Y>
  void store(const S& s, const Y& y) {
    if (m_s.cols() == 0) {
      m_s.setZero(m_n, m_m);
      m_y.setZero(m_n, m_m);
    }
    const int slot = m_order.push(m_m);
    m_s.col(slot) = s;
    m_y.col(slot) = y;
    const LbfgsPairScalars scalars =
        lbfgsPairScalars(m_y.col(slot).dot(m_s.col(slot)), m_y.col(slot).squaredNorm());
    m_rho[slot] = scalars.rho;
    m_order.gamma = scalars.gamma;
  }

 private:
  // q_i <- (q_i + a u_i) scale over the n components (q_i scale where u is null), then returns
  // x . q (0 where x is null), in one pass: the recursion's step (LbfgsHostHistory.cpp).
  double updateThenDot(double* q, double a, const double* u, double scale, const double* x);

  Eigen::Index m_n;
  int m_m;
  LbfgsHistory m_order;
  Eigen::MatrixXd m_s, m_y;  // n x m, column = slot
  std::vector<double> m_rho, m_alpha;
  std::vector<double> m_products;  // the baseline loop's products, summed after the pass
};

}  // namespace landscape
