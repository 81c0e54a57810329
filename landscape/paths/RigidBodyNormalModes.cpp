#include "landscape/paths/RigidBodyNormalModes.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"
#include "landscape/minimisation/HessianLogProduct.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "potentials/RigidBodyTerms.h"

namespace landscape {

namespace {

void checkCoordinates(const RigidBodySystem& system, const RigidBodyMasses& masses,
                      const std::vector<double>& q) {
  masses.check(system);
  require(q.size() == system.dimension(), "rigid-body normal modes: " + std::to_string(q.size()) +
                                              " rigid coordinates, the system has " +
                                              std::to_string(system.dimension()));
}

// R(p_b) and its three derivatives.
struct BodyRotation {
  double R[9], dR[3][9];
  BodyRotation(const RigidBodySystem& system, const std::vector<double>& q, std::size_t b) {
    rotationMatrixAndDerivatives(&q[3 * system.bodyCount() + 3 * b], R, dR[0], dR[1], dR[2]);
  }
};

}  // namespace

RigidBodyVibrations::RigidBodyVibrations(std::shared_ptr<Potential> p, RigidBodySystem s,
                                         RigidBodyMasses m)
    : potential(std::move(p)), system(std::move(s)), masses(std::move(m)) {
  require(potential != nullptr, "rigid-body normal modes need a potential");
  masses.check(system);
  require(potential->dimension() == system.dimension(),
          "rigid-body normal modes: the potential has " + std::to_string(potential->dimension()) +
              " coordinates, the rigid system " + std::to_string(system.dimension()));
}

Eigen::MatrixXd kineticMetric(const RigidBodySystem& system, const RigidBodyMasses& masses,
                              const std::vector<double>& q) {
  checkCoordinates(system, masses, q);
  const auto n = static_cast<Eigen::Index>(system.dimension());
  const auto bodies = static_cast<Eigen::Index>(system.bodyCount());
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index b = 0; b < bodies; ++b) {
    const RigidBodyMass& body = masses.bodies[static_cast<std::size_t>(b)];
    const BodyRotation rot(system, q, static_cast<std::size_t>(b));
    const Eigen::Index r = 3 * b, p = 3 * bodies + 3 * b;
    for (int i = 0; i < 3; ++i) G(r + i, r + i) = body.mass;
    for (int k = 0; k < 3; ++k) {
      double moved[3];  // R^k d: how the first moment moves with p_k
      matVec3(rot.dR[k], body.firstMoment.data(), moved);
      for (int i = 0; i < 3; ++i) G(r + i, p + k) = G(p + k, r + i) = moved[i];
      for (int l = 0; l < 3; ++l) {
        double trace = 0.0;  // tr(R^k S R^l^T) = sum_ij (R^k S)_ij R^l_ij
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            double rs = 0.0;
            for (int m = 0; m < 3; ++m) rs += rot.dR[k][3 * i + m] * body.secondMoment[3 * m + j];
            trace += rs * rot.dR[l][3 * i + j];
          }
        G(p + k, p + l) = trace;
      }
    }
  }
  for (std::size_t f = 0; f < system.freeAtomCount(); ++f)
    for (int i = 0; i < 3; ++i) {
      const auto k = 6 * bodies + static_cast<Eigen::Index>(3 * f) + i;
      G(k, k) = masses.freeAtomMasses[f];
    }
  return G;
}

Eigen::Vector3d principalMomentsOfRigidBodies(const RigidBodySystem& system,
                                              const RigidBodyMasses& masses,
                                              const std::vector<double>& q) {
  checkCoordinates(system, masses, q);
  // Total mass, first and second moments in the lab frame, then about the centre of mass.
  double total = 0.0;
  Eigen::Vector3d first = Eigen::Vector3d::Zero();
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();
  for (std::size_t b = 0; b < system.bodyCount(); ++b) {
    const RigidBodyMass& body = masses.bodies[b];
    const BodyRotation rot(system, q, b);
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R(rot.R);
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> S(
        body.secondMoment.data());
    const Eigen::Vector3d r(q[3 * b], q[3 * b + 1], q[3 * b + 2]);
    const Eigen::Vector3d d =
        R * Eigen::Vector3d(body.firstMoment[0], body.firstMoment[1], body.firstMoment[2]);
    total += body.mass;
    first += body.mass * r + d;
    second += body.mass * r * r.transpose() + r * d.transpose() + d * r.transpose() +
              R * S * R.transpose();
  }
  for (std::size_t f = 0; f < system.freeAtomCount(); ++f) {
    const double m = masses.freeAtomMasses[f];
    const std::size_t k = 6 * system.bodyCount() + 3 * f;
    const Eigen::Vector3d x(q[k], q[k + 1], q[k + 2]);
    total += m;
    first += m * x;
    second += m * x * x.transpose();
  }
  const Eigen::Matrix3d centred = second - first * first.transpose() / total;
  const Eigen::Matrix3d inertia = centred.trace() * Eigen::Matrix3d::Identity() - centred;
  return Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(inertia, Eigen::EigenvaluesOnly)
      .eigenvalues();
}

MetricWeightedHessian metricWeightedHessian(const RigidBodySystem& system,
                                            const RigidBodyMasses& masses,
                                            const std::vector<double>& q,
                                            const Eigen::MatrixXd& hessian) {
  const Eigen::MatrixXd G = kineticMetric(system, masses, q);
  require(hessian.rows() == G.rows() && hessian.cols() == G.cols(),
          "rigid-body normal modes: a " + std::to_string(hessian.rows()) + " x " +
              std::to_string(hessian.cols()) + " Hessian for " + std::to_string(G.rows()) +
              " rigid coordinates");
  const Eigen::LLT<Eigen::MatrixXd> llt(G);
  if (llt.info() != Eigen::Success)
    throw std::invalid_argument(
        "rigid-body normal modes: the kinetic metric is not positive definite (a body whose mass "
        "lies on a line, or an angle-axis vector at |p| = 2 pi)");
  const auto L = llt.matrixL();
  const Eigen::MatrixXd half = L.solve(hessian);  // L^-1 H
  Eigen::MatrixXd K = L.solve(half.transpose());  // L^-1 H^T L^-T
  K = 0.5 * (K + K.transpose()).eval();
  std::vector<double> motions;
  system.overallMotionModes(q.data(), motions);
  const auto n = G.rows();
  const Eigen::Map<const Eigen::MatrixXd> T(motions.data(), n,
                                            static_cast<Eigen::Index>(motions.size()) / n);
  const Eigen::MatrixXd candidates = llt.matrixU() * T;  // L^T t_k
  return {std::move(K), RigidBodyModes::fromCandidates(candidates)};
}

StationaryPointProperties characteriseRigidBodies(const RigidBodyVibrations& vibrations,
                                                  const std::vector<double>& atoms,
                                                  const CharacterisationParams& params) {
  const RigidBodySystem& system = vibrations.system;
  require(atoms.size() == 3 * system.atomCount(),
          "rigid-body normal modes: " + std::to_string(atoms.size()) + " coordinates for " +
              std::to_string(system.atomCount()) + " atoms");
  const std::vector<double> q = system.fromAtoms(atoms);
  StationaryPointProperties p;
  if (vibrations.symmetryAtoms.empty()) {
    p.pointGroupOrder = findPointGroup(atoms, params.pointGroup).order;
  } else {
    std::vector<double> sites;
    PointGroupParams kinds = params.pointGroup;
    kinds.atomTypes.clear();
    for (std::size_t a : vibrations.symmetryAtoms) {
      require(a < system.atomCount(), "rigid-body normal modes: symmetry atom " +
                                          std::to_string(a + 1) + " beyond the " +
                                          std::to_string(system.atomCount()) + " atoms");
      sites.insert(sites.end(), atoms.begin() + 3 * a, atoms.begin() + 3 * a + 3);
      if (!params.pointGroup.atomTypes.empty())
        kinds.atomTypes.push_back(params.pointGroup.atomTypes[a]);
    }
    p.pointGroupOrder = findPointGroup(sites, kinds).order;
  }
  const Eigen::Vector3d moments = principalMomentsOfRigidBodies(system, vibrations.masses, q);
  for (int k = 0; k < 3; ++k) p.principalMoments[k] = moments[k];
  if (system.atomCount() > params.maxHessianAtoms) return p;
  Eigen::MatrixXd hessian;
  {
    std::lock_guard<std::mutex> lock(vibrations.busy);
    hessian = numericalHessian(*vibrations.potential, q, params.hessianStep);
  }
  MetricWeightedHessian weighted = metricWeightedHessian(system, vibrations.masses, q, hessian);
  p.logProductOfPositiveEigenvalues =
      hessianLogProduct(weighted.hessian, weighted.modes).logProduct;
  return p;
}

}  // namespace landscape
