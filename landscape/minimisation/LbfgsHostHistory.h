#pragma once
// The L-BFGS history of the host drivers (Eigen): m pairs {s, y} with their rho in the cyclic
// order of LbfgsHistory, and the two directions p = -H g: the two-loop recursion (Mantell, Pitt
// and Wales, J. Chem. Theory Comput. 2016, Algorithm 2, H0 = gamma I by eq 2) and the compact
// representation of Byrd, Nocedal and Schnabel (Math. Prog. 63, 129 (1994), eq 3.1). Used by
// LbfgsCpuWorkspace (Lbfgs, DNEB's band) and LbfgsStructureRun (the batched CPU reference), so
// that their iterates stay bit for bit those of the reference loop.
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
  /// p = -H g by the compact representation (identical to the two-loop recursion up to
  /// round-off; one pass over S and Y): p = -initialGuess g on an empty history.
  Eigen::VectorXd compactDirection(const Eigen::VectorXd& g, double initialGuess) const;

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
  Eigen::Index m_n;
  int m_m;
  LbfgsHistory m_order;
  Eigen::MatrixXd m_s, m_y;  // n x m, column = slot
  std::vector<double> m_rho, m_alpha;
};

/// p = -H g for the pairs in the columns of S and Y (oldest first, at least one) by the compact
/// representation. Zero curvature s.y is replaced by 1 and gamma comes from the newest pair
/// (GMIN's guards, as in the two-loop recursion).
Eigen::VectorXd compactLbfgsDirection(const Eigen::MatrixXd& S, const Eigen::MatrixXd& Y,
                                      const Eigen::VectorXd& g);

}  // namespace landscape
