#pragma once
// Basin-hopping moves for rigid bodies (GMIN's rigid-body steps): each body, with probability
// `probability`, is translated by a random vector of length up to `translation` and rotated by a
// random angle up to `rotation` about a uniformly random axis through its centre of geometry. The
// new rotation is composed with the old one (R' = R_move R) and stored as an angle-axis vector
// with |p| <= pi. Acts on rigid coordinates (potentials/RigidBodySystem.h). Free atoms are the
// atomistic steps' (local rigid bodies of a molecule), unless they are point beads among rigid
// molecules (ions among water molecules: `freeAtoms`), which take the bodies' translations.
#include <vector>

#include "landscape/core/Random.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {

struct RigidBodyMoveParams {
  double translation = 0.0;  ///< largest displacement of a body's centre (length; 0 = none)
  double rotation = 0.0;     ///< largest rotation of a body (radians, <= pi; 0 = none)
  double probability = 1.0;  ///< chance per body per step of being moved, in [0, 1]
  /// Free atoms are moved too, after the bodies, each as a body without rotation.
  bool freeAtoms = false;

  /// Throws std::invalid_argument naming the bad field.
  void check() const;
  bool active() const { return probability > 0.0 && (translation > 0.0 || rotation > 0.0); }
};

/// Moves the bodies of q (rigid coordinates of `system`) in place; free atoms only with
/// params.freeAtoms.
void moveRigidBodies(const RigidBodySystem& system, const RigidBodyMoveParams& params,
                     std::vector<double>& q, Random& random);

/// A random start for the bodies of `system` (rigid coordinates): centres and free atoms uniform
/// in the ball of `radius` (length) about the origin, orientations uniform over all rotations
/// (Shoemake's uniform quaternions, Graphics Gems III, 1992) as angle-axis vectors with |p| <= pi.
/// Throws std::invalid_argument for a radius that is not positive and finite.
std::vector<double> randomRigidStructure(const RigidBodySystem& system, double radius,
                                         Random& random);

}  // namespace landscape
