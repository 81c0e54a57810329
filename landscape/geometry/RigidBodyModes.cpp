#include "landscape/geometry/RigidBodyModes.h"

#include <Eigen/Geometry>
#include <Eigen/QR>
#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

namespace {
// A candidate mode whose norm falls below this fraction of its original norm after removing the
// earlier modes is linearly dependent on them (the rotation about a linear molecule's axis).
constexpr double kDependentFraction = 1e-8;

/// Unit translations along x, y, z and infinitesimal rotations e_k x (r_a - c) about the centre c
/// (the centroid, or the centre of mass when `masses` is given), each atom's rows scaled by
/// sqrt(m_a) when `masses` is given: 6 columns, not orthonormalised.
Eigen::MatrixXd candidateModes(const double* x, std::size_t dimension, const double* masses) {
  if (dimension == 0 || dimension % 3 != 0) {
    throw std::invalid_argument(
        "RigidBodyModes: the coordinate count must be a positive multiple "
        "of 3 (x y z per atom), got " +
        std::to_string(dimension));
  }
  const Eigen::Index n = static_cast<Eigen::Index>(dimension);
  const Eigen::Index atoms = n / 3;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  double total = 0.0;
  for (Eigen::Index i = 0; i < atoms; ++i) {
    const double m = masses ? masses[i] : 1.0;
    if (!(std::isfinite(m) && m > 0.0)) {
      throw std::invalid_argument("RigidBodyModes: the mass of atom " + std::to_string(i + 1) +
                                  " must be positive and finite");
    }
    for (int k = 0; k < 3; ++k) {
      const double v = x[3 * i + k];
      if (!std::isfinite(v)) {
        throw std::invalid_argument("RigidBodyModes: coordinate " + std::to_string(3 * i + k) +
                                    " is not finite");
      }
      centre[k] += m * v;
    }
    total += m;
  }
  centre /= total;
  Eigen::MatrixXd candidates = Eigen::MatrixXd::Zero(n, 6);
  for (Eigen::Index i = 0; i < atoms; ++i) {
    const double weight = masses ? std::sqrt(masses[i]) : 1.0;
    const Eigen::Vector3d r(x[3 * i] - centre[0], x[3 * i + 1] - centre[1],
                            x[3 * i + 2] - centre[2]);
    for (int k = 0; k < 3; ++k) {
      candidates(3 * i + k, k) = weight;
      candidates.block<3, 1>(3 * i, 3 + k) = weight * Eigen::Vector3d::Unit(k).cross(r);
    }
  }
  return candidates;
}
}  // namespace

RigidBodyModes::RigidBodyModes(const std::vector<double>& x) { build(x.data(), x.size()); }

RigidBodyModes::RigidBodyModes(const double* x, std::size_t dimension) { build(x, dimension); }

void RigidBodyModes::build(const double* x, std::size_t dimension) {
  orthonormalise(candidateModes(x, dimension, nullptr));
}

RigidBodyModes RigidBodyModes::massWeighted(const std::vector<double>& x,
                                            const std::vector<double>& masses) {
  if (masses.size() * 3 != x.size()) {
    throw std::invalid_argument("RigidBodyModes::massWeighted: " + std::to_string(masses.size()) +
                                " masses for " + std::to_string(x.size()) +
                                " coordinates (one mass per 3 coordinates)");
  }
  return fromCandidates(candidateModes(x.data(), x.size(), masses.data()));
}

RigidBodyModes RigidBodyModes::fromCandidates(const Eigen::MatrixXd& candidates) {
  RigidBodyModes modes;
  modes.orthonormalise(candidates);
  return modes;
}

RigidBodyModes RigidBodyModes::translations(std::size_t dimension,
                                            const std::vector<double>& masses) {
  if (dimension == 0 || dimension % 3 != 0)
    throw std::invalid_argument("RigidBodyModes::translations: " + std::to_string(dimension) +
                                " coordinates is not a positive multiple of 3");
  if (!masses.empty() && 3 * masses.size() != dimension)
    throw std::invalid_argument("RigidBodyModes::translations: " + std::to_string(masses.size()) +
                                " masses for " + std::to_string(dimension / 3) + " atoms");
  Eigen::MatrixXd candidates = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(dimension), 3);
  for (std::size_t i = 0; i < dimension; ++i) {
    const double m = masses.empty() ? 1.0 : masses[i / 3];
    if (!(std::isfinite(m) && m > 0.0))
      throw std::invalid_argument("RigidBodyModes::translations: masses must be > 0");
    candidates(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i % 3)) = std::sqrt(m);
  }
  return fromCandidates(candidates);
}

void RigidBodyModes::orthonormalise(const Eigen::MatrixXd& candidates) {
  // Modified Gram-Schmidt, dropping dependent candidates.
  const Eigen::Index n = candidates.rows();
  m_basis.resize(n, candidates.cols());
  int kept = 0;
  for (int c = 0; c < static_cast<int>(candidates.cols()); ++c) {
    Eigen::VectorXd v = candidates.col(c);
    const double original = v.norm();
    if (original == 0.0) continue;
    for (int j = 0; j < kept; ++j) v -= m_basis.col(j).dot(v) * m_basis.col(j);
    const double remaining = v.norm();
    if (remaining <= kDependentFraction * original) continue;
    m_basis.col(kept++) = v / remaining;
  }
  m_basis.conservativeResize(n, kept);
}

void RigidBodyModes::projectOut(double* v) const {
  projectOut(Eigen::Map<Eigen::VectorXd>(v, m_basis.rows()));
}

void RigidBodyModes::projectOut(Eigen::Ref<Eigen::VectorXd> v) const {
  const Eigen::VectorXd coefficients = m_basis.transpose() * v;
  v.noalias() -= m_basis * coefficients;
}

Eigen::MatrixXd RigidBodyModes::complementBasis() const {
  // The last n - k columns of the full Q of a QR decomposition of the modes span their
  // orthogonal complement.
  const Eigen::Index n = m_basis.rows();
  const Eigen::Index k = m_basis.cols();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(m_basis);
  const Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(n, n);
  return q.rightCols(n - k);
}

}  // namespace landscape
