#pragma once
// L-BFGS direction from the compact representation of Byrd, Nocedal and Schnabel (Math. Prog. 63,
// 129 (1994), eq 3.1): H = gamma I + [S  gamma Y] M [S^T; gamma Y^T] with
// M = [[R^-T (D + gamma Y^T Y) R^-1, -R^-T], [-R^-1, 0]], R = upper triangle of S^T Y and
// D = diag(S^T Y). With a = S^T g, b = Y^T g and u = R^-1 a:
//   H g = gamma g + S R^-T ((D + gamma Y^T Y) u - gamma b) - gamma Y u.
// Mathematically identical to the two-loop recursion (seed 001, Algorithm 2), but the history is
// touched by two matrix products instead of 2m sequential dot/axpy pairs, which is what lets the GPU
// workspace use one pass over S and Y per step. This is the CPU twin of that GPU computation.
#include <Eigen/Dense>

namespace landscape {

/// Returns p = -H g for the pairs in the columns of S and Y (oldest first). Zero curvature s.y is
/// replaced by 1 and gamma from the newest pair (GMIN's guards, as in LbfgsCpuWorkspace).
Eigen::VectorXd compactLbfgsDirection(const Eigen::MatrixXd& S, const Eigen::MatrixXd& Y,
                                      const Eigen::VectorXd& g);

}  // namespace landscape
