#pragma once
// How the mass of each rigid body is spread, as its kinetic energy needs it: a body of centre r
// and rotation R(p) whose mass points m_a sit at s_a in its reference frame (relative to its centre
// of geometry, as RigidBodySystem's reference offsets) has
//   T = 1/2 sum_a m_a |r' + R' s_a|^2,
// which depends on the masses only through three moments: the mass M = sum m_a, the first moment
// d = sum m_a s_a and the second moment S = sum m_a s_a s_a^T. So a body is described by those
// (amu, amu Angstrom, amu Angstrom^2), whether its mass sits on its interaction sites (TIP4P's O
// and H; the M site carries none) or is given as a mass and an inertia tensor (SSD water, whose
// markers carry no mass). Free atoms carry their own masses.
#include <array>
#include <cstddef>
#include <vector>

#include "potentials/RigidBodySystem.h"

namespace landscape {

struct RigidBodyMass {
  double mass = 0.0;                     ///< M (amu)
  std::array<double, 3> firstMoment{};   ///< d = sum m_a s_a (reference frame, amu Angstrom)
  std::array<double, 9> secondMoment{};  ///< S = sum m_a s_a s_a^T (row-major, amu Angstrom^2)
};

struct RigidBodyMasses {
  std::vector<RigidBodyMass> bodies;   ///< one per body, in RigidBodySystem's order
  std::vector<double> freeAtomMasses;  ///< one per free atom, in RigidBodySystem's order (amu)

  /// Throws std::invalid_argument unless it fits `system` (one entry per body and free atom) and
  /// every mass is positive and finite.
  void check(const RigidBodySystem& system) const;
};

/// The bodies' moments when the mass sits on the atoms: `atomMasses` holds one mass per atom of
/// `system` (>= 0; a massless site such as TIP4P's M contributes nothing, but each body must weigh
/// something and free atoms must have a positive mass). Throws std::invalid_argument otherwise.
RigidBodyMasses rigidBodyMassesOfAtoms(const RigidBodySystem& system,
                                       const std::vector<double>& atomMasses);

/// A body of mass M whose centre of geometry is its centre of mass (d = 0) and whose inertia tensor
/// about it is diag(ix, iy, iz) along the axes (columns of `axes`, row-major) of its reference
/// frame: S = (tr I / 2) 1 - I. Throws std::invalid_argument for a mass or moment that is not
/// positive, or moments that break the triangle inequality (no mass distribution has them).
RigidBodyMass rigidBodyMassOfInertia(double mass, const std::array<double, 3>& moments,
                                     const std::array<double, 9>& axes);

}  // namespace landscape
