#pragma once
// The log product of the non-zero Hessian eigenvalues of a stationary point (min.data/ts.data's
// second column, the vibrational part of PATHSAMPLE's harmonic rates) from a factorisation rather
// than a full eigen-decomposition, so that it is affordable for a protein.
//
// With V the orthonormal rigid-body modes (RigidBodyModes: 3N x k, k = 6, 5 for a linear molecule)
// and P = 1 - V V^T, the matrix
//
//   H' = P H P + c V V^T,   c = trace(P H P) / (3N - k) > 0,
//
// has the 3N - k eigenvalues of H restricted to the complement of the modes, and c (k times) on
// the modes, exactly: V spans an invariant subspace. So at a minimum ln det H' from its Cholesky
// factor L (2 sum ln L_ii) minus k ln c is the log product, at a cost of one O((3N)^3 / 3)
// factorisation and O((3N)^2 k) for the projection. A transition state's H' is not positive
// definite: then its eigenvalues are computed (Eigen's SelfAdjointEigenSolver, eigenvalues only)
// and the negative one is left out, as PATHSAMPLE's ts.data does.
//
// Molecules: H is mass-weighted first (massWeightHessian, H_ij / sqrt(m_a m_b)) and the modes are
// RigidBodyModes::massWeighted, so that the eigenvalues are squared angular frequencies; in
// kcal/mol / (amu Angstrom^2) for AMBER (landscape/network/HarmonicRates.h converts to s^-1).
#include <Eigen/Core>
#include <vector>

#include "landscape/geometry/RigidBodyModes.h"

namespace landscape {

/// How the log product was obtained.
enum class LogProductMethod { Cholesky, EigenDecomposition };

struct HessianLogProduct {
  /// Sum of ln(lambda) over the positive eigenvalues of H restricted to the complement of the
  /// modes (unit: ln of the Hessian's unit).
  double logProduct = 0.0;
  int positiveEigenvalues = 0;  ///< terms of the sum: 3N - k at a minimum, 3N - k - 1 at a TS
  int negativeEigenvalues = 0;  ///< eigenvalues <= 0 (not in the sum); 0 when Cholesky succeeded
  int removedModes = 0;         ///< k, the rigid-body modes projected out
  LogProductMethod method = LogProductMethod::Cholesky;
};

/// H_ij / sqrt(m_a m_b) in place, a and b the atoms of coordinates i and j (i / 3, j / 3).
/// `masses` holds N = rows / 3 positive masses. Throws std::invalid_argument otherwise.
void massWeightHessian(Eigen::MatrixXd& hessian, const std::vector<double>& masses);

/// The log product of `hessian` (symmetric, dimension = modes.dimension()) without the modes, as
/// described above. `hessian` is overwritten with H' (an n x n matrix is not copied more than
/// once: a protein's Hessian is hundreds of MB). Throws std::invalid_argument when the sizes do
/// not fit or the matrix is not finite, std::runtime_error when the eigensolver fails.
HessianLogProduct hessianLogProduct(Eigen::MatrixXd& hessian, const RigidBodyModes& modes);

// The steps of hessianLogProduct, shared with its GPU twin (gpu/HessianLogProductCuda).

/// hessian := P H P + c V V^T (checks as hessianLogProduct); returns the shift c.
double shiftRigidBodyModes(Eigen::MatrixXd& hessian, const RigidBodyModes& modes);
/// The result from ln det H' of a positive-definite n x n H' (a Cholesky factorisation).
HessianLogProduct logProductFromDeterminant(double logDeterminant, Eigen::Index dimension,
                                            int removedModes, double shift);
/// The result from all eigenvalues of H' (the shift's k among them).
HessianLogProduct logProductFromEigenvalues(const Eigen::VectorXd& eigenvalues, int removedModes,
                                            double shift);

}  // namespace landscape
