#pragma once
// Minimum distance between two configurations of identical atoms over translation, rotation,
// optional inversion and permutations of the atoms: GMIN/OPTIM's MINPERMDIST. For molecules the
// permutations are restricted to declared groups of interchangeable atoms (OPTIM's perm.allow,
// landscape/formats/PermAllowFile.h) and inversion is switched off (a mirror image of a chiral
// molecule is a different molecule). Used by the basin-hopping AVOID taboo list and by connection
// runs to measure how far apart two minima are.
//
// In a periodic box (params.box, potentials/PeriodicBox.h: bulk liquids and glasses) the symmetries
// are translations modulo the box and permutations only; alignStructures() hands such systems to
// alignPeriodicStructures() (PeriodicAlignment.h), which measures minimum-image distances.
//
// How the search works, what it guarantees and what it costs: above alignStructures(), and for a
// periodic box above alignPeriodicStructures().
//
// Coordinates are flat x1 y1 z1 x2 ... in any length unit (reduced units for Lennard-Jones,
// Angstrom for molecules); distances come back in the same unit.
#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "potentials/PeriodicBox.h"

namespace landscape {

/// A group of interchangeable atoms (one entry of OPTIM's perm.allow): any permutation of `atoms`
/// is allowed, and when atoms[i] takes the place of atoms[j], swapSets[s][i] takes the place of
/// swapSets[s][j] for every set s (e.g. the hydrogens bonded to two exchangeable methyl carbons).
/// Atom indices are 0-based.
struct PermutationGroup {
  std::vector<int> atoms;                  ///< at least 2, distinct
  std::vector<std::vector<int>> swapSets;  ///< each of atoms.size() entries
};

struct AlignmentParams {
  bool permutations = true;  ///< minimise over permutations of the (identical) atoms; false keeps
                             ///< the given order (Kabsch only)
  /// With permutations: only permutations within these groups (molecules; OPTIM's perm.allow),
  /// applied in this order. Empty: every atom is interchangeable with every other (clusters).
  /// Groups may not share atoms; a swap-set atom may be an atom of a later group (nesting, e.g.
  /// methyl hydrogens that follow their carbon and are also permutable among themselves).
  std::vector<PermutationGroup> permutationGroups;
  bool inversion = true;        ///< also try b inverted through its centroid (improper rotations);
                                ///< switch off for chiral molecules
  int orientationTrials = 8;    ///< candidate orientations refined by the permutation/rotation
                                ///< alternation, the best ranked first (>= 1)
  int randomOrientations = 16;  ///< random rotations among the candidates, per chirality (>= 0)
  int maxIterations = 50;       ///< cap on alternations per refined start (>= 1)
  double convergence = 1e-9;    ///< length: a start stops once an alternation shortens the
                                ///< distance by less than this, and a distance below it ends the
                                ///< search as an exact match (>= 0)
  std::uint64_t seed = 20240611;  ///< seed of the random rotations: same inputs, same result
  /// Periodic axes (length > 0, in the coordinates' unit; 0 = open axis, the default: a cluster).
  /// With any periodic axis the alignment is over translations modulo the box and permutations,
  /// with minimum-image distances (alignPeriodicStructures); rotations and inversion are not
  /// symmetries of a box, so inversion and randomOrientations are not used, and
  /// orientationTrials counts refined translation starts. Edges must be finite and >= 0.
  PeriodicBox box;

  /// Throws std::invalid_argument with a sentence naming the first bad field. Atom indices are
  /// checked against the structure size in alignStructures().
  void check() const;
};

struct AlignmentResult {
  /// |a - alignedB| over all 3N coordinates, in the input's length unit (not divided by sqrt(N),
  /// as GMIN reports MINPERMDIST distances).
  double distance = 0.0;
  /// b moved onto a: alignedB atom i = s * rotation * (b atom permutation[i] - centroid(b))
  /// + centroid(a), with s = -1 if inverted else +1. Flat x y z per atom, like the inputs. In a
  /// periodic box: b atom permutation[i] + translation, moved by whole box edges to the image
  /// nearest to a atom i, so that a - alignedB is the minimum-image displacement.
  std::vector<double> alignedB;
  std::vector<int> permutation;  ///< alignedB atom i is b atom permutation[i]
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  ///< proper rotation (det +1); the
                                                           ///< identity in a periodic box
  bool inverted = false;  ///< b was inverted through its centroid before the rotation (never in
                          ///< a periodic box)
  /// alignedB atom i = s * rotation * b atom permutation[i] + translation, up to rounding (and
  /// whole box edges in a periodic box, where it is reduced to its minimum image).
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();
};

// Minimising over orientations is a global optimisation, solved heuristically: candidate
// orientations of b are ranked by a cheap nearest-neighbour bound, and the best few are refined by
// alternating the optimal permutation for a fixed orientation (Hungarian algorithm, Hungarian.h)
// with the optimal proper rotation for a fixed permutation (Kabsch 1976) until the distance stops
// decreasing. The candidates are the orientations that put a reference pair of atoms of a onto a
// matching pair of b (same distances from the centroid, same separation), the principal-axes
// alignments, the fit in the given atom order and random rotations.
//
// Guarantees: a moved, permuted copy of a (inverted too, when inversion is allowed) comes out at
// distance ~0, since one of the atom-pair orientations is exact; the result never exceeds the best
// fit in the given atom order; d(a, b) == d(b, a). For different structures the result is an upper
// bound on the true minimum distance. Structures related by a few displaced atoms (neighbouring
// minima) are normally aligned as well as their common atoms allow; for unrelated structures the
// bound may sit a few per cent above the true minimum, more starts (orientationTrials,
// randomOrientations) bring it down at proportional cost.
//
// With permutation groups (molecules) the atoms outside the groups keep their order, so the fit in
// the given order is an excellent start: the search alternates, from there, the best permutation
// within the groups (one Hungarian solve per group, processed in order as OPTIM does, swap-set
// atoms following their group's atoms) with the Kabsch rotation, and needs no frame or random
// starts. Cost O(N) per alternation plus the groups' small assignment problems. When fewer than 3
// atoms lie outside every group (a cluster of molecules: water, ellipsoids), the given order says
// nothing about the orientation, so the candidate orientations above are searched as well, each
// refined within the groups.
//
// Cost: O(N^2) per candidate and O(N^3) per Hungarian solve; for LJ38 a few tens of microseconds
// for a copy and a few hundred for different structures (tests/AlignmentTest.cpp prints both).
//
/// Aligns b onto a. Both must hold the same number of atoms (size a multiple of 3, at least one
/// atom) and finite coordinates, and every atom of params.permutationGroups must exist; throws
/// std::invalid_argument otherwise, or if params.check() fails. Deterministic for given inputs and
/// params. With a periodic params.box the work is alignPeriodicStructures()'s
/// (PeriodicAlignment.h).
AlignmentResult alignStructures(const std::vector<double>& a, const std::vector<double>& b,
                                const AlignmentParams& params = {});

/// alignStructures(a, b, params).distance.
double minimumDistance(const std::vector<double>& a, const std::vector<double>& b,
                       const AlignmentParams& params = {});

}  // namespace landscape
