#pragma once
// Minimum distance between two configurations of a periodic system (bulk liquids and glasses, e.g.
// the Kob-Andersen binary mixture, Kob and Andersen, Phys. Rev. E 51, 4626 (1995)) over
// translations modulo the box and permutations of identical atoms. Rotations and inversion are not
// symmetries of a periodic box (we ignore the box's own cubic symmetry operations), so the
// rotation stays the identity. alignStructures() (Alignment.h) calls this when params.box is
// periodic; callers use alignStructures.
//
// Distances are minimum-image distances (potentials/PeriodicBox.h): |a - alignedB| over all 3N
// coordinates with alignedB atom i = the image of (b atom permutation[i] + translation) nearest to
// a atom i, so that a - alignedB is the minimum-image displacement, atom by atom.
#include "landscape/geometry/Alignment.h"

#include <vector>

namespace landscape {

// The translation for a fixed permutation is found exactly: the squared minimum-image distance
// separates into the three axes, and along a periodic axis of length L, sum_i w(d_i - t)^2 (w the
// minimum image of a separation) is a piecewise quadratic in t whose pieces change where one
// atom's image flips, at t = d_i + L/2 (mod L); sorting those N breakpoints and taking each
// piece's clamped minimum (the mean of the displacements in that piece's images) gives the global
// minimum in O(N log N). (Averaging the minimum-image displacements once is not enough: the mean
// moves atoms across half a box and changes their images; iterating it finds only a local
// minimum.) An open axis takes the plain mean.
//
// The search over permutations is heuristic, as for clusters: candidate translations are ranked
// by a cheap bound and the best few refined by alternating the optimal permutation for a fixed
// translation (Hungarian algorithm, Hungarian.h, on squared minimum-image distances; within
// params.permutationGroups when given: one group per species for a binary mixture, processed in
// order with their swap sets as for molecules) with the exact optimal translation for that
// permutation, until the distance stops decreasing. The candidates put a reference atom of a onto
// an atom of b that a permutation may put there; images are ranked by how well the atoms' local
// environments (the sorted minimum-image distances to their nearest neighbours, unchanged by
// translations and permutations) agree, since trying every atom of b would cost O(N^3) in bounds
// alone. Reference atoms are those of a whose environment b matches best, so atoms moved in a
// rearrangement are avoided. The given atom order's fit is always refined as well.
//
// Guarantees: a translated, permuted copy of a (atoms wrapped back into the box or not) comes out
// at distance ~0, since a reference atom's true image has a matching environment and its start is
// exact; the result never exceeds the fit in the given atom order with the optimal translation;
// d(a, b) == d(b, a) up to rounding (one canonical direction, as for clusters); atoms of
// different permutation groups are never exchanged. For different structures the result is an
// upper bound on the true minimum distance.
//
// params as for clusters, with these differences: inversion and randomOrientations are not used
// (no rotations), nor is the seed (there is nothing random); orientationTrials counts the refined
// translation starts besides the given order's. Cost: O(N^2) for the environments and per bound,
// O(N^3) per Hungarian solve (warm-started), so O(orientationTrials x iterations x N^3) at worst;
// tests/PeriodicAlignmentTest.cpp prints it for 64 and 256 atoms.
//
/// Aligns b onto a in the periodic params.box. Expects the inputs alignStructures() has checked
/// (same size, 3N finite coordinates, valid params with a periodic box).
AlignmentResult alignPeriodicStructures(const std::vector<double>& a, const std::vector<double>& b,
                                        const AlignmentParams& params);

}  // namespace landscape
