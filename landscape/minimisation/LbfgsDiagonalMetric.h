#pragma once
// The scales of L-BFGS under a potential's constant diagonal metric w (Potential::diagonalMetric,
// BatchedPotential::diagonalMetric; rigid bodies: RigidBodySystem::diagonalMetric): the
// minimiser works in the scaled coordinates u_i = sqrt(w_i) x_i, where the gradient is
// g_i / sqrt(w_i), so H0 = gamma W^-1 and |p|_W caps the step (docs/lbfgs.md). Shared by the CPU
// workspace (LbfgsCpuWorkspace) and the batched engines (LbfgsStructureRun, the rounds engine
// and its twin), so that every one scales with the same bits.
#include <Eigen/Dense>
#include <cstddef>
#include <string>
#include <vector>

namespace landscape {

struct LbfgsDiagonalMetric {
  Eigen::VectorXd sqrtW;     ///< sqrt(w_i); empty: no metric
  Eigen::VectorXd invSqrtW;  ///< 1 / sqrt(w_i)
  bool on() const { return sqrtW.size() > 0; }
};

/// The scales of w for n coordinates of `potentialName`. Throws std::invalid_argument naming the
/// potential when w does not have n entries or an entry is not finite and > 0.
LbfgsDiagonalMetric lbfgsDiagonalMetric(const std::vector<double>& w, std::size_t n,
                                        const std::string& potentialName);

}  // namespace landscape
