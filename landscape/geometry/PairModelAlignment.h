#pragma once
// How the structures of a pair model (potentials/PairModel.h) are compared: alignment over the
// model's periodic box (minimum-image distances over translations modulo the box,
// PeriodicAlignment.h) and, for more than one species, permutations within each species only, so
// that an A atom is never mapped onto a B atom (OPTIM's perm.allow for a binary mixture). Used by
// gmin's duplicate and AVOID tests, optim's and growth's network, DNEB's images and Python.
#include "landscape/geometry/Alignment.h"
#include "potentials/PairModel.h"

namespace landscape {

/// `base` made fit for the model's structures: the box, and for more than one species one
/// permutation group per species (species of at least two atoms). Inversion is kept for clusters
/// (a mirror image of an achiral pair system has the same energy).
AlignmentParams pairAlignment(const PairModel& model, AlignmentParams base);

}  // namespace landscape
