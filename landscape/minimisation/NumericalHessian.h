#pragma once
// Finite-difference Hessian from gradients, and its eigen-decomposition. Used to characterise
// stationary points: a transition state has exactly one negative eigenvalue once the overall
// translations and rotations are removed, and the log product of the positive eigenvalues is the
// second column of PATHSAMPLE's min.data / ts.data (in landscape/network/Database's HDF5 files).
//
// Cost: 2n gradient calls for n coordinates and an O(n^3) symmetric eigensolver, so meant for
// clusters and small molecules (tests, characterisation), not for the systems in the tables of
// Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016.
#include <Eigen/Core>
#include <vector>

#include "potentials/Potential.h"

namespace landscape {

/// H_ij = (g_j(x + h e_i) - g_j(x - h e_i)) / 2h, symmetrised as (H + H^T) / 2. `step` h is a
/// length (reduced units for Lennard-Jones, Angstrom for molecules), > 0; 1e-5 balances the
/// O(h^2) truncation against roundoff O(eps |g| / h) for Lennard-Jones. The result is in energy /
/// length^2. Throws std::invalid_argument for a bad step or a coordinate count that is not the
/// potential's dimension.
Eigen::MatrixXd numericalHessian(Potential& potential, const std::vector<double>& x,
                                 double step = 1e-5);

/// Eigenvalues in ascending order with unit eigenvectors as columns, in the full coordinate space.
struct HessianSpectrum {
  Eigen::VectorXd eigenvalues;   ///< energy / length^2, ascending
  Eigen::MatrixXd eigenvectors;  ///< dimension x eigenvalues.size()
  int removedModes = 0;          ///< zero modes projected out (0, or 3/5/6 for clusters)

  /// Eigenvalues below -tolerance.
  int negativeCount(double tolerance = 0.0) const;
  /// Sum of ln(lambda) over the eigenvalues above `tolerance`: PATHSAMPLE's log product of the
  /// positive Hessian eigenvalues (the negative one of a transition state is left out).
  double logProductOfPositiveEigenvalues(double tolerance = 0.0) const;
};

/// All n eigenvalues of the symmetric matrix `hessian`.
HessianSpectrum hessianSpectrum(const Eigen::MatrixXd& hessian);

/// hessianSpectrum's eigenvalues alone, the same bits: Eigen's implicit QL iterations on the
/// tridiagonal form update the diagonal alike whether or not they also accumulate the rotations
/// into eigenvectors, and skipping those (O(n^3)) leaves the O(n^2) iterations, a tenth of a
/// growth run's host time for LJ38 characterisations.
Eigen::VectorXd hessianEigenvalues(const Eigen::MatrixXd& hessian);

/// The eigenvalues of `hessian` restricted to the complement of the rigid-body modes at x
/// (RigidBodyModes): n - 6 eigenvalues for a non-linear cluster, none of them the six zero modes.
/// x must be the configuration at which the Hessian was computed (3N coordinates).
HessianSpectrum hessianSpectrumWithoutRigidBodyModes(const Eigen::MatrixXd& hessian,
                                                     const std::vector<double>& x);

}  // namespace landscape
