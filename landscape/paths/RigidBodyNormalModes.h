#pragma once
// The normal modes of rigid molecules at a stationary point, in the angle-axis framework
// (Chakrabarti and Wales, Phys. Chem. Chem. Phys. 11, 1970 (2009)): with rigid coordinates q (the
// bodies' centres and angle-axis vectors, potentials/RigidBodySystem.h), the kinetic energy is
// T = 1/2 q'^T G(q) q' and at a stationary point the squared angular frequencies are the
// eigenvalues of G^-1 H, H the Hessian of the energy in q (no gradient terms: the gradient is
// zero). With G = L L^T (Cholesky), they are those of the symmetric K = L^-1 H L^-T; the overall
// translations and rotations t_k (zero modes of H), and the spins of bodies with a spin axis
// (uniaxial ellipsoids, RigidBodySystem::setSpinAxes), are the zero modes L^T t_k of K, removed as
// HessianLogProduct removes a cluster's. Units: energy / (amu Angstrom^2), as a mass-weighted
// atomistic Hessian's (kcal/mol for SSD water, kJ/mol for TIP4P), so that a rigid molecule's
// intermolecular frequencies are those of its atoms held rigid.
//
// G from the bodies' mass moments (potentials/RigidBodyMasses.h), for body I with R = R(p_I) and
// R^k = dR/dp_k (RigidBodyTerms.h):
//   G_rr = M 1,   G_(r, p_k) = R^k d,   G_(p_k, p_l) = tr(R^k S R^l^T),
// and m 1 for each free atom.
#include <Eigen/Core>
#include <memory>
#include <mutex>
#include <vector>

#include "landscape/paths/Characterisation.h"
#include "potentials/Potential.h"
#include "potentials/RigidBodyMasses.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {

/// What characterise needs for rigid bodies (CharacterisationParams::rigidBodies).
struct RigidBodyVibrations {
  /// Throws std::invalid_argument when the masses do not fit the system or the potential's
  /// dimension is not the system's.
  RigidBodyVibrations(std::shared_ptr<Potential> potential, RigidBodySystem system,
                      RigidBodyMasses masses);

  /// The bodies' potential in rigid coordinates of `system`, in double precision (the CPU
  /// reference: its gradients carry the digits a finite-difference Hessian needs).
  std::shared_ptr<Potential> potential;
  RigidBodySystem system;
  RigidBodyMasses masses;
  /// The atoms whose point group is the point's (indices, ascending); empty = all. Uniaxial
  /// ellipsoids give their axis tips: the side markers follow the spin, which is arbitrary.
  std::vector<std::size_t> symmetryAtoms;
  mutable std::mutex busy;  ///< one Hessian at a time through `potential`
};

/// G(q) (dimension() x dimension(), amu, amu Angstrom and amu Angstrom^2 blocks). Throws
/// std::invalid_argument when the masses do not fit the system or q has the wrong size.
Eigen::MatrixXd kineticMetric(const RigidBodySystem& system, const RigidBodyMasses& masses,
                              const std::vector<double>& q);

/// Principal moments of inertia (ascending, amu Angstrom^2) of the whole system at q about its
/// centre of mass.
Eigen::Vector3d principalMomentsOfRigidBodies(const RigidBodySystem& system,
                                              const RigidBodyMasses& masses,
                                              const std::vector<double>& q);

/// K = L^-1 H L^-T from the Hessian H in rigid coordinates and G = L L^T, with the zero modes of
/// the overall motions at q, ready for hessianLogProduct / hessianSpectrum.
struct MetricWeightedHessian {
  Eigen::MatrixXd hessian;  ///< K, symmetric
  RigidBodyModes modes;     ///< L^T t_k, orthonormalised
};
MetricWeightedHessian metricWeightedHessian(const RigidBodySystem& system,
                                            const RigidBodyMasses& masses,
                                            const std::vector<double>& q,
                                            const Eigen::MatrixXd& hessian);

/// The stationary point given by the atoms of its bodies (as a database stores them): its rigid
/// coordinates by the best fit (RigidBodySystem::fromAtoms), the finite-difference Hessian of
/// vibrations.potential there (step params.hessianStep, in Angstrom and radians), then the log
/// product of K; the point group of the atoms (params.pointGroup; vibrations.symmetryAtoms when
/// given) and the moments of the mass model. The eigenvalues are not kept: the database and
/// path.info hold 3N per point, one per atomic coordinate, and rigid molecules have 6 per body.
/// Throws std::invalid_argument when the sizes do not fit.
StationaryPointProperties characteriseRigidBodies(const RigidBodyVibrations& vibrations,
                                                  const std::vector<double>& atoms,
                                                  const CharacterisationParams& params);

}  // namespace landscape
