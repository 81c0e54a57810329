#include "landscape/minimisation/NumericalHessian.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>
#include <string>

#include "landscape/geometry/RigidBodyModes.h"

namespace landscape {

Eigen::MatrixXd numericalHessian(Potential& potential, const std::vector<double>& x, double step) {
  if (!(std::isfinite(step) && step > 0.0)) {
    throw std::invalid_argument("numericalHessian: the finite-difference step must be > 0");
  }
  const std::size_t n = potential.dimension();
  if (x.size() != n) {
    throw std::invalid_argument("numericalHessian: coordinate vector has " +
                                std::to_string(x.size()) + " entries, the potential expects " +
                                std::to_string(n));
  }
  const Eigen::Index dim = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd hessian(dim, dim);
  std::vector<double> displaced = x;
  Eigen::VectorXd plus(dim), minus(dim);
  for (Eigen::Index i = 0; i < dim; ++i) {
    displaced[i] = x[i] + step;
    potential.energyGradient(displaced.data(), plus.data());
    displaced[i] = x[i] - step;
    potential.energyGradient(displaced.data(), minus.data());
    displaced[i] = x[i];
    hessian.row(i) = (plus - minus).transpose() / (2.0 * step);
  }
  return 0.5 * (hessian + hessian.transpose());
}

int HessianSpectrum::negativeCount(double tolerance) const {
  int count = 0;
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i) count += eigenvalues[i] < -tolerance;
  return count;
}

double HessianSpectrum::logProductOfPositiveEigenvalues(double tolerance) const {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i) {
    if (eigenvalues[i] > tolerance) sum += std::log(eigenvalues[i]);
  }
  return sum;
}

HessianSpectrum hessianSpectrum(const Eigen::MatrixXd& hessian) {
  if (hessian.rows() != hessian.cols() || hessian.rows() == 0) {
    throw std::invalid_argument("hessianSpectrum: the Hessian must be a non-empty square matrix");
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(hessian);
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("hessianSpectrum: the symmetric eigensolver did not converge");
  }
  HessianSpectrum spectrum;
  spectrum.eigenvalues = solver.eigenvalues();
  spectrum.eigenvectors = solver.eigenvectors();
  return spectrum;
}

Eigen::VectorXd hessianEigenvalues(const Eigen::MatrixXd& hessian) {
  if (hessian.rows() != hessian.cols() || hessian.rows() == 0) {
    throw std::invalid_argument(
        "hessianEigenvalues: the Hessian must be a non-empty square matrix");
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(hessian, Eigen::EigenvaluesOnly);
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("hessianEigenvalues: the symmetric eigensolver did not converge");
  }
  return solver.eigenvalues();
}

HessianSpectrum hessianSpectrumWithoutRigidBodyModes(const Eigen::MatrixXd& hessian,
                                                     const std::vector<double>& x) {
  if (hessian.rows() != hessian.cols() || hessian.rows() != static_cast<Eigen::Index>(x.size())) {
    throw std::invalid_argument(
        "hessianSpectrumWithoutRigidBodyModes: the Hessian must be square with one row per "
        "coordinate of x");
  }
  const RigidBodyModes modes(x);
  const Eigen::MatrixXd complement = modes.complementBasis();
  const Eigen::MatrixXd reduced = complement.transpose() * hessian * complement;
  HessianSpectrum spectrum = hessianSpectrum(0.5 * (reduced + reduced.transpose()));
  spectrum.eigenvectors = complement * spectrum.eigenvectors;
  spectrum.removedModes = modes.count();
  return spectrum;
}

}  // namespace landscape
