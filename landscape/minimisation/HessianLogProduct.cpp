#include "landscape/minimisation/HessianLogProduct.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

namespace {

/// hessian := P H P + c V V^T with the c described in the header; returns c.
double projectAndShiftModes(Eigen::MatrixXd& hessian, const Eigen::MatrixXd& v) {
  const Eigen::Index n = hessian.rows();
  const Eigen::Index k = v.cols();
  const Eigen::MatrixXd hv = hessian * v;                                   // n x k
  const Eigen::MatrixXd vhv = v.transpose() * hv;                           // k x k
  double c = (hessian.trace() - vhv.trace()) / static_cast<double>(n - k);  // trace(PHP)/(n-k)
  if (!(std::isfinite(c) && c > 0.0)) c = 1.0;  // any positive shift is exact
  // P H P + c V V^T = H - V (HV)^T - (HV) V^T + V (V^T H V + c) V^T.
  const Eigen::MatrixXd middle = vhv + c * Eigen::MatrixXd::Identity(k, k);
  hessian.noalias() -= v * hv.transpose();
  hessian.noalias() -= hv * v.transpose();
  hessian.noalias() += v * (middle * v.transpose());
  return c;
}

/// In-place Cholesky of the lower triangle; the strict upper triangle is left as it was, so a
/// failed attempt is undone from it and the saved diagonal. Returns false when not positive
/// definite.
bool choleskyLogDeterminant(Eigen::MatrixXd& matrix, double& logDeterminant) {
  const Eigen::VectorXd diagonal = matrix.diagonal();
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>, Eigen::Lower> llt(matrix);
  if (llt.info() == Eigen::Success) {
    logDeterminant = 2.0 * matrix.diagonal().array().log().sum();
    if (std::isfinite(logDeterminant)) return true;
  }
  matrix.triangularView<Eigen::StrictlyLower>() = matrix.transpose();
  matrix.diagonal() = diagonal;
  return false;
}

}  // namespace

void massWeightHessian(Eigen::MatrixXd& hessian, const std::vector<double>& masses) {
  if (hessian.rows() != hessian.cols() ||
      static_cast<std::size_t>(hessian.rows()) != 3 * masses.size()) {
    throw std::invalid_argument("massWeightHessian: a " + std::to_string(hessian.rows()) + " x " +
                                std::to_string(hessian.cols()) + " Hessian and " +
                                std::to_string(masses.size()) +
                                " masses (the Hessian must be 3N x 3N for N masses)");
  }
  Eigen::VectorXd scale(hessian.rows());
  for (std::size_t a = 0; a < masses.size(); ++a) {
    if (!(std::isfinite(masses[a]) && masses[a] > 0.0)) {
      throw std::invalid_argument("massWeightHessian: the mass of atom " + std::to_string(a + 1) +
                                  " must be positive and finite");
    }
    scale.segment<3>(3 * static_cast<Eigen::Index>(a)).setConstant(1.0 / std::sqrt(masses[a]));
  }
  hessian.array().colwise() *= scale.array();  // in place: a protein's Hessian is large
  hessian.array().rowwise() *= scale.transpose().array();
}

double shiftRigidBodyModes(Eigen::MatrixXd& hessian, const RigidBodyModes& modes) {
  const Eigen::Index n = hessian.rows();
  if (n != hessian.cols() || static_cast<std::size_t>(n) != modes.dimension() ||
      modes.count() >= n) {
    throw std::invalid_argument(
        "hessianLogProduct: the Hessian must be square with one row per "
        "coordinate of the rigid-body modes, and more rows than modes");
  }
  if (!hessian.allFinite()) {
    throw std::invalid_argument("hessianLogProduct: the Hessian has a non-finite entry");
  }
  return projectAndShiftModes(hessian, modes.basis());
}

HessianLogProduct logProductFromDeterminant(double logDeterminant, Eigen::Index dimension,
                                            int removedModes, double shift) {
  HessianLogProduct result;
  result.removedModes = removedModes;
  result.logProduct = logDeterminant - removedModes * std::log(shift);
  result.positiveEigenvalues = static_cast<int>(dimension) - removedModes;
  return result;
}

HessianLogProduct logProductFromEigenvalues(const Eigen::VectorXd& eigenvalues, int removedModes,
                                            double shift) {
  HessianLogProduct result;
  result.method = LogProductMethod::EigenDecomposition;
  result.removedModes = removedModes;
  double sum = 0.0;
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i) {
    if (eigenvalues[i] > 0.0) {
      sum += std::log(eigenvalues[i]);
      ++result.positiveEigenvalues;
    } else {
      ++result.negativeEigenvalues;
    }
  }
  result.positiveEigenvalues -= removedModes;  // the shifted modes, c > 0
  result.logProduct = sum - removedModes * std::log(shift);
  return result;
}

HessianLogProduct hessianLogProduct(Eigen::MatrixXd& hessian, const RigidBodyModes& modes) {
  const double c = shiftRigidBodyModes(hessian, modes);
  double logDeterminant = 0.0;
  if (choleskyLogDeterminant(hessian, logDeterminant)) {
    return logProductFromDeterminant(logDeterminant, hessian.rows(), modes.count(), c);
  }
  // Not positive definite (a transition state): eigenvalues, the shifted modes among them.
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(hessian, Eigen::EigenvaluesOnly);
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("hessianLogProduct: the symmetric eigensolver did not converge");
  }
  return logProductFromEigenvalues(solver.eigenvalues(), modes.count(), c);
}

}  // namespace landscape
