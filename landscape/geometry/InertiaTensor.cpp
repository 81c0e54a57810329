#include "landscape/geometry/InertiaTensor.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

Eigen::Matrix3d inertiaTensor(const std::vector<double>& x, const std::vector<double>& masses) {
  if (x.empty() || x.size() % 3 != 0) {
    throw std::invalid_argument("inertiaTensor: " + std::to_string(x.size()) +
                                " coordinates is not a positive multiple of 3");
  }
  const std::size_t atoms = x.size() / 3;
  if (!masses.empty() && masses.size() != atoms) {
    throw std::invalid_argument("inertiaTensor: " + std::to_string(masses.size()) + " masses for " +
                                std::to_string(atoms) + " atoms");
  }
  double total = 0.0;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < atoms; ++i) {
    const double m = masses.empty() ? 1.0 : masses[i];
    if (!(std::isfinite(m) && m > 0.0)) {
      throw std::invalid_argument("inertiaTensor: mass " + std::to_string(i) + " must be > 0");
    }
    const Eigen::Vector3d r(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
    if (!r.allFinite()) {
      throw std::invalid_argument("inertiaTensor: atom " + std::to_string(i) +
                                  " has a coordinate that is not finite");
    }
    centre += m * r;
    total += m;
  }
  centre /= total;
  Eigen::Matrix3d tensor = Eigen::Matrix3d::Zero();
  for (std::size_t i = 0; i < atoms; ++i) {
    const double m = masses.empty() ? 1.0 : masses[i];
    const Eigen::Vector3d r = Eigen::Vector3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]) - centre;
    tensor += m * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose());
  }
  return tensor;
}

PrincipalAxes principalAxes(const std::vector<double>& x, const std::vector<double>& masses) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(inertiaTensor(x, masses));
  PrincipalAxes result;
  result.moments = solver.eigenvalues();
  result.axes = solver.eigenvectors();
  if (result.axes.determinant() < 0.0) result.axes.col(2) *= -1.0;
  return result;
}

Eigen::Vector3d principalMomentsOfInertia(const std::vector<double>& x,
                                          const std::vector<double>& masses) {
  return principalAxes(x, masses).moments;
}

}  // namespace landscape
