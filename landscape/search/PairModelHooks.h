#pragma once
// What replaces a cluster's assumptions when basin-hopping searches a pair model
// (potentials/PairModel.h), shared by gmin and the Python module: duplicates and AVOID compared
// by pairAlignment's distance (species, box); in a periodic box, random starts and reseeds
// (NEWRESTART, the walkers' crowd limit) uniform in the box, and each trial structure wrapped
// back into the box after the step (the energy is the same at every image; wrapping keeps a long
// run's coordinates bounded).
#include "landscape/search/BasinHopping.h"
#include "potentials/PairModel.h"

namespace landscape {

/// Closest approach of two atoms in a random start in a box (length units), as the cluster's
/// random starts keep (BasinHoppingRun.cpp), so that the first quench does not start from
/// overlapping atoms.
inline constexpr double kBoxRandomStartSeparation = 0.7;

/// The hooks for `model` (nothing is set for one species without a box: the cluster's defaults
/// are right). The model is copied into the hooks.
BasinHoppingHooks pairModelHooks(const PairModel& model);

}  // namespace landscape
