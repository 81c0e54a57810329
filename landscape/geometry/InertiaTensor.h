#pragma once
// Principal moments of inertia of a configuration of point masses: the last three columns of
// PATHSAMPLE's min.data and ts.data, and OPTIM's "rotcon>" line. The tensor is taken about the
// centre of mass,
//   I = sum_i m_i (|r_i|^2 1 - r_i r_i^T),  r_i = x_i - centre of mass,
// and its eigenvalues are returned in ascending order. With unit masses (Lennard-Jones clusters,
// PATHSAMPLE's convention for atomic clusters) the unit is length^2 (sigma^2 in reduced units);
// with masses in amu and Angstrom coordinates it is amu Angstrom^2.
#include <Eigen/Core>
#include <vector>

namespace landscape {

/// Principal moments (ascending) and the matching unit axes (columns of `axes`, right-handed).
struct PrincipalAxes {
  Eigen::Vector3d moments = Eigen::Vector3d::Zero();  ///< mass x length^2, ascending
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
};

/// The inertia tensor about the centre of mass. `x` holds 3N coordinates x1 y1 z1 x2 ...;
/// `masses` is empty (unit masses) or holds N positive masses. Throws std::invalid_argument when
/// the sizes do not fit, x is empty, a coordinate is not finite or a mass is not > 0.
Eigen::Matrix3d inertiaTensor(const std::vector<double>& x, const std::vector<double>& masses = {});

/// Eigen-decomposition of inertiaTensor(x, masses).
PrincipalAxes principalAxes(const std::vector<double>& x, const std::vector<double>& masses = {});

/// principalAxes(x, masses).moments.
Eigen::Vector3d principalMomentsOfInertia(const std::vector<double>& x,
                                          const std::vector<double>& masses = {});

}  // namespace landscape
