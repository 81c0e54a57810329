#pragma once
// Pair models (potentials/PairModel.h) as the rest of the bindings see them: the model a potential
// was built from, and what the algorithms need so that they treat its structures as the model's,
// the way gmin and optim do for their --binary-lj, --kob-andersen and --box systems: permutations
// only within a species (an A atom is never mapped onto a B atom), alignment modulo the periodic
// box, and basin-hopping settings that do not assume a cluster in a container.
#include <string>

#include "landscape/geometry/Alignment.h"
#include "landscape/paths/Characterisation.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"
#include "landscape/search/BasinHoppingParams.h"
#include "potentials/BatchedPotential.h"
#include "potentials/PairModel.h"
#include "potentials/Potential.h"

namespace landscape::python {

/// The model a potential was built from by landscape.pair_potential, kob_andersen,
/// binary_lennard_jones or morse (whatever the backend; recorded on its Python object), or by the
/// CPU PairPotential itself; nullptr for every other potential.
const PairModel* pairModelOf(const Potential& potential);
/// The same for landscape.batched_pair_potential.
const PairModel* pairModelOf(const BatchedPotential& potential);

/// `alignment` restricted to the model, as the programs align a pair system (pairAlignment of
/// landscape/geometry/PairModelAlignment.h).
void restrictAlignment(const PairModel& model, AlignmentParams& alignment);
/// restrictAlignment for the potential's model; nothing for other potentials.
void restrictAlignment(const Potential& potential, AlignmentParams& alignment);

/// Characterisation of a pair system's stationary points as optim's: symmetry operations map atoms
/// only onto atoms of their species; in a periodic box the log product leaves out the three
/// translations only (rotations are no symmetry of a box) and the point-group order is 1.
void restrictCharacterisation(const Potential& potential, CharacterisationParams& params);
/// A transition-state search on a pair system in a box: the Rayleigh-Ritz eigenvector is kept
/// orthogonal to the three translations only, as optim's (rotations carry real curvature there).
void restrictTransitionStateSearch(const Potential& potential,
                                   HybridEigenvectorFollowingParams& params);

/// Basin-hopping in a periodic box: the container refused with a sentence (std::invalid_argument,
/// starting with `what`): atoms of a box lie far from the origin, so every quench would evaporate.
/// Nothing for open models. Random starts and reseeds come from pairModelHooks
/// (landscape/search/PairModelHooks.h), uniform in the box, as gmin's.
void requireBoxBasinHopping(const PairModel& model, const BasinHoppingParams& params,
                            const std::string& what);
/// gmin's defaults for a periodic box (gmin's adaptSearchToBox): `params` without centring (a box
/// has no centre of mass to fix), the container and angular moves (ASTEP places an atom on a
/// cluster's surface).
BasinHoppingParams boxBasinHoppingParams(BasinHoppingParams params);

}  // namespace landscape::python
