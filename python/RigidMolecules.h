#pragma once
// Rigid molecules as the rest of the bindings see them (python/BindRigidMolecules.cpp): the search
// settings landscape.tip4p_cluster and gay_berne_cluster record on the potential's Python object,
// and the basin-hopping hooks that search any rigid-body potential in its rigid coordinates (the
// rigid-body moves, CENTRE and the container on the atoms, random rigid starts), as gmin does for
// --water and --rigid.
#include <optional>

#include "landscape/search/BasinHopping.h"
#include "landscape/search/BasinHoppingParams.h"
#include "landscape/search/RigidBodyMoves.h"
#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"

namespace landscape::python {

/// What a rigid cluster is searched with when basin_hopping is given no settings.
struct RigidSearchDefaults {
  BasinHoppingParams params;  ///< TIP4P: gmin --water's (GMIN's TIP4P example)
  RigidBodyMoveParams moves;  ///< TIP4P: rotations up to 1.57 rad (GMIN's STEP ostep)
  double startRadius = 0.0;   ///< random starts: centres in this ball (length); 0: none
};

/// The defaults recorded on a potential made by tip4p_cluster or gay_berne_cluster; nullopt for
/// every other potential.
std::optional<RigidSearchDefaults> rigidSearchDefaultsOf(const Potential& potential);

/// gmin's hooks for rigid coordinates q of `system` (which must outlive the hooks): `moves` after
/// the Cartesian step, angle-axis vectors canonicalised, CENTRE translating the atoms' centre of
/// geometry to the origin, the container measured on the atoms, and (startRadius > 0) random
/// starts and reseeds with centres uniform in that ball and uniform orientations.
void installRigidSearchHooks(const RigidBodySystem& system, const RigidBodyMoveParams& moves,
                             double startRadius, BasinHoppingHooks& hooks);

}  // namespace landscape::python
