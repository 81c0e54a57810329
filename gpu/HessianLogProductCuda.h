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
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
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

/// hessianLogProductCuda for many Hessians: each cuSOLVER handle, its non-blocking stream and its
/// device buffers are made when first needed and kept. Nothing goes through the legacy default
/// stream or frees memory per call, either of which would wait for (and hold up) other streams'
/// work, such as the connect runs that a growth cycle characterises beside. Concurrent callers
/// (characteriseTogether's threads) each take a handle of their own, up to kMostHandles and
/// about 2 GiB of matrices; beyond that they wait for one. A 912 x 912 factorisation (trp-cage)
/// is a chain of small launches and synchronisations that leaves the device mostly idle, so
/// several side by side finish sooner than one after another.
class HessianFactorisationCuda {
 public:
  static constexpr int kMostHandles = 8;
  HessianFactorisationCuda();
  ~HessianFactorisationCuda();
  HessianFactorisationCuda(const HessianFactorisationCuda&) = delete;
  HessianFactorisationCuda& operator=(const HessianFactorisationCuda&) = delete;
  /// As hessianLogProductCuda, bit for bit, whichever handle computes it.
  HessianLogProduct logProduct(Eigen::MatrixXd& hessian, const RigidBodyModes& modes);

 private:
  struct State;
  std::unique_ptr<State> take(std::size_t matrixBytes);
  std::mutex m_lock;
  std::condition_variable m_returned;
  std::vector<std::unique_ptr<State>> m_idle;
  int m_made = 0;
};

}  // namespace landscape
