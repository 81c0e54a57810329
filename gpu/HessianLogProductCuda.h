#pragma once
// The GPU path of a molecule's log product (docs/pathsample.md), twin of NumericalHessian and
// HessianLogProduct: the finite-difference Hessian from 6N displaced gradient evaluations of a
// device-resident potential (the coordinates, gradients and the 3N x 3N matrix stay on the device;
// only the energies cross), and the factorisation by cuSOLVER (Cholesky, potrf; at a transition
// state the eigenvalues, syevd). The projection of the rigid-body modes, O((3N)^2 k), stays on the
// host (HessianLogProduct's shiftRigidBodyModes). Defined only in CUDA builds
// (LANDSCAPE_HAVE_CUDA): callers guard their use; the CPU twin is NumericalHessian and
// HessianLogProduct (tests/HessianLogProductCudaTest.cpp compares the two).
#include <Eigen/Core>
#include <vector>

#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/minimisation/HessianLogProduct.h"
#include "potentials/Potential.h"

namespace landscape {

/// numericalHessian on the device: H_ij = (g_j(x + h e_i) - g_j(x - h e_i)) / 2h, symmetrised,
/// with the gradients of potential.energyGradientDevice(). Throws std::invalid_argument when the
/// potential is not device-resident, the step is not > 0 or x has the wrong size.
Eigen::MatrixXd numericalHessianCuda(Potential& potential, const std::vector<double>& x,
                                     double step = 1e-5);

/// hessianLogProduct with the factorisation on the device; the same result up to rounding.
/// `hessian` is overwritten with H' (as hessianLogProduct).
HessianLogProduct hessianLogProductCuda(Eigen::MatrixXd& hessian, const RigidBodyModes& modes);

}  // namespace landscape
