#pragma once
// What PATHSAMPLE and OPTIM's path.info record about a stationary point besides its energy: the
// log product of the positive Hessian eigenvalues with the rigid-body modes removed (from a
// finite-difference Hessian, landscape/NumericalHessian, factorised by HessianLogProduct), the
// Hessian eigenvalues themselves (small systems), the point-group order (landscape/PointGroup)
// and the principal moments of inertia (landscape/InertiaTensor).
//
// Masses: without `masses` (atomic clusters, PATHSAMPLE's convention for them) unit masses:
// eigenvalues in energy/length^2, moments in length^2. With masses (molecules: AMBER's MASS, amu)
// the Hessian is mass-weighted, H_ij / sqrt(m_a m_b), and the modes removed are those of the
// mass-weighted coordinates, as OPTIM does for AMBER: eigenvalues are squared angular frequencies
// in kcal/mol / (amu Angstrom^2) (x 2.0454828e13^2 = (rad/s)^2, OPTIM's FRQCONV for AMBER),
// moments in amu Angstrom^2.
#include <Eigen/Core>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "landscape/geometry/PointGroup.h"
#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/minimisation/HessianLogProduct.h"
#include "landscape/network/StoredNetwork.h"
#include "potentials/Potential.h"

namespace landscape {

struct RigidBodyVibrations;  // landscape/paths/RigidBodyNormalModes.h

/// Where the Hessian and its factorisation are computed. Empty members: the CPU path
/// (numericalHessian of the potential given to characterise(), hessianLogProduct). optim's CUDA
/// backend fills them with the GPU twin (backends/HessianBackendFactory).
struct HessianBackend {
  /// The finite-difference Hessian at x (3N x 3N, energy/length^2) with step h.
  std::function<Eigen::MatrixXd(const std::vector<double>& x, double step)> hessian;
  /// As hessianLogProduct.
  std::function<HessianLogProduct(Eigen::MatrixXd& hessian, const RigidBodyModes& modes)>
      logProduct;
  /// The Hessians of several points at once (BatchedNumericalHessian: their displaced structures
  /// through a batched potential); characteriseTogether uses it, characterise uses `hessian`.
  /// Empty: one point at a time.
  std::function<std::vector<Eigen::MatrixXd>(const std::vector<std::vector<double>>& points,
                                             double step)>
      hessians;
};

struct CharacterisationParams {
  /// The finite-difference Hessian (6N gradient calls) and its log product (one Cholesky
  /// factorisation of a 3N x 3N matrix, or an eigen-decomposition at a transition state) are
  /// computed only for systems of at most this many atoms; above it the Hessian-derived fields
  /// stay unknown. 0 = never. The default is no limit.
  std::size_t maxHessianAtoms = 100000000;
  /// All 3N Hessian eigenvalues (a full O((3N)^3) eigen-decomposition, stored for path.info) only
  /// up to this many atoms; 250 atoms cost about a second per stationary point.
  std::size_t maxSpectrumAtoms = 250;
  double hessianStep = 1e-5;  ///< finite-difference step h (length; NumericalHessian)
  /// Atomic masses (N, positive; amu for molecules): the Hessian is mass-weighted and the moments
  /// are mass-weighted. Empty: unit masses (atomic clusters).
  std::vector<double> masses;
  PointGroupParams pointGroup;  ///< tolerance (length) and atom types of the symmetry search
  /// Atoms in a periodic box (potentials/PeriodicBox.h): the log product removes the three
  /// overall translations only (rotations are not symmetries of a box, their directions carry
  /// real curvature), and the point-group order is 1 (a configuration in a box has no molecular
  /// symmetry that PATHSAMPLE's degeneracy counts).
  bool translationsOnly = false;
  HessianBackend backend;       ///< empty: the CPU path
  /// Host threads over which characteriseTogether characterises a group's points once their
  /// batched Hessians are in (projection, factorisation, point group: each point alone, so the
  /// properties do not depend on it), while the next group's Hessians are computed. Only with
  /// backend.hessians; >= 1.
  int threads = 1;
  /// Host memory (bytes) that characteriseTogether's Hessians may hold at once (n x n doubles
  /// each; at least one Hessian is always held).
  double hessianMemory = 512.0 * 1024 * 1024;
  /// Rigid molecules (optim and grow with --water): the points are still given as the atoms of
  /// the potential passed to characterise (the point group is theirs), but the Hessian is that of
  /// rigidBodies->potential in rigid coordinates, weighted by the bodies' kinetic metric, so the
  /// eigenvalues are the squared angular frequencies of rigid molecules
  /// (landscape/paths/RigidBodyNormalModes.h). `masses` stays empty and `backend` unused.
  std::shared_ptr<const RigidBodyVibrations> rigidBodies;

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

/// Characterises the stationary point x (3N coordinates of `potential`). Throws
/// std::invalid_argument on a size mismatch (coordinates or masses) or bad params.
StationaryPointProperties characterise(Potential& potential, const std::vector<double>& x,
                                       const CharacterisationParams& params = {});

/// characterise for each of `points`, with their Hessians computed together when
/// params.backend.hessians is set (in groups within params.hessianMemory, or two groups of half
/// of it when params.threads > 1: one characterised while the next one's Hessians are computed);
/// the same properties as characterise point by point whenever the batched Hessians are the
/// single ones' bits, for any number of threads.
std::vector<StationaryPointProperties> characteriseTogether(
    Potential& potential, const std::vector<std::vector<double>>& points,
    const CharacterisationParams& params = {});

}  // namespace landscape
