#pragma once
// Pair models (potentials/PairModel.h) as the rest of the bindings see them: the model a potential
// was built from, and what the algorithms need so that they treat its structures as the model's,
// the way gmin and optim do for their --binary-lj, --kob-andersen and --box systems: permutations
// only within a species (an A atom is never mapped onto a B atom), alignment modulo the periodic
// box, and basin-hopping settings that do not assume a cluster in a container.
#include <string>

#include "landscape/geometry/Alignment.h"
#include "landscape/paths/Characterisation.h"
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

/// `alignment` restricted to the model, as the programs align a pair system: the model's box, and
/// with more than one species one permutation group per species (of two atoms or more; none at
/// all when no species has two). Inversion is kept for clusters (the mirror image of a pair
/// system has the same energy); the periodic alignment ignores it.
void restrictAlignment(const PairModel& model, AlignmentParams& alignment);
/// restrictAlignment for the potential's model; nothing for other potentials.
void restrictAlignment(const Potential& potential, AlignmentParams& alignment);

/// Characterisation of a pair system's stationary points: symmetry operations map atoms only onto
/// atoms of their species. Throws std::invalid_argument (messages starting with `what`) for a
/// periodic model: optim's log product leaves out six rigid-body modes, and a box has three
/// (translations), so its rates would be wrong.
void restrictCharacterisation(const Potential& potential, CharacterisationParams& params,
                              const std::string& what);

/// Basin-hopping in a periodic box: gmin's cluster settings that cannot work there refused with a
/// sentence (std::invalid_argument, starting with `what`): the container (atoms of a box lie far
/// from the origin, so every quench would evaporate), NEWRESTART and the crowd limit (their
/// reseeds are random clusters) and a run without a start (its random start is a cluster too).
/// Nothing for open models.
void requireBoxBasinHopping(const PairModel& model, const BasinHoppingParams& params,
                            bool haveStart, const std::string& what);
/// gmin's defaults for a periodic box: `params` without the container, angular moves (ASTEP
/// places an atom on a cluster's surface), NEWRESTART, AVOID and the crowd limit.
BasinHoppingParams boxBasinHoppingParams(BasinHoppingParams params);

}  // namespace landscape::python
