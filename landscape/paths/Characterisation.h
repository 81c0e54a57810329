#pragma once
// What PATHSAMPLE and OPTIM's path.info record about a stationary point besides its energy: the
// log product of the positive Hessian eigenvalues (from a finite-difference Hessian,
// landscape/NumericalHessian, where the system is small enough), the Hessian eigenvalues
// themselves, the point-group order (landscape/PointGroup) and the principal moments of inertia
// (landscape/InertiaTensor). Unit masses throughout (PATHSAMPLE's convention for atomic
// clusters): eigenvalues in energy/length^2, moments in length^2.
#include <cstddef>
#include <vector>

#include "landscape/geometry/PointGroup.h"
#include "landscape/network/StoredNetwork.h"
#include "potentials/Potential.h"

namespace landscape {

struct CharacterisationParams {
  /// The finite-difference Hessian (6N gradient calls and an O(N^3) eigensolver) is computed only
  /// for systems of at most this many atoms; above it the Hessian-derived fields stay unknown.
  /// 0 = never. 250 atoms cost about a second per stationary point for Lennard-Jones.
  std::size_t maxHessianAtoms = 250;
  double hessianStep = 1e-5;    ///< finite-difference step h (length; NumericalHessian)
  PointGroupParams pointGroup;  ///< tolerance (length) and atom types of the symmetry search

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

/// Characterises the stationary point x (3N coordinates of `potential`). Throws
/// std::invalid_argument on a size mismatch or bad params.
StationaryPointProperties characterise(Potential& potential, const std::vector<double>& x,
                                       const CharacterisationParams& params = {});

}  // namespace landscape
