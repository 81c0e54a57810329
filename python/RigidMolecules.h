#pragma once
// Rigid molecules as the rest of the bindings see them (python/BindRigidMolecules.cpp): the search
// settings landscape.tip4p_cluster and gay_berne_cluster record on the potential's Python object
// (basin_hopping searches with them through landscape/search/RigidBodySearch.h, as gmin does).
#include <optional>

#include "landscape/search/BasinHopping.h"
#include "landscape/search/BasinHoppingParams.h"
#include "landscape/search/RigidBodyMoves.h"
#include "landscape/search/RigidBodySearch.h"
#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"

namespace landscape::python {

/// What a rigid cluster is searched with when basin_hopping is given no settings (TIP4P: gmin
/// --water's; Gay-Berne: gayBerneClusterSearch, as gmin --ellipsoids).
using RigidSearchDefaults = RigidClusterSearch;

/// The defaults recorded on a potential made by tip4p_cluster or gay_berne_cluster; nullopt for
/// every other potential.
std::optional<RigidSearchDefaults> rigidSearchDefaultsOf(const Potential& potential);

}  // namespace landscape::python
