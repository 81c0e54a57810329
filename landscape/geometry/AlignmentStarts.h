#pragma once
// What alignStructures() (Alignment.h) and the batched alignments (BatchedAlignment.h) share, so
// that both search the same starts and report alike: the checks of a pair, the pair as the search
// sees it (centred, moved in one canonical direction), the candidate starts in the order the
// search scores them, and the result assembled from the search's best fit. Use Alignment.h or
// BatchedAlignment.h; this header is their common part.
#include <Eigen/Core>
#include <limits>
#include <vector>

#include "landscape/geometry/Alignment.h"

namespace landscape {

/// Starts whose rotations differ by less than this (Frobenius norm, about sqrt(2) x the angle in
/// radians) lead to the same fit, so only the better ranked one is refined.
constexpr double kDistinctRotation = 0.1;

/// Throws std::invalid_argument as alignStructures() documents.
void checkAlignmentPair(const std::vector<double>& a, const std::vector<double>& b,
                        const AlignmentParams& params);

/// A pair as the search sees it: both structures centred, `moved` the one it rotates and
/// permutes onto `fixed`. That is b onto a, or a onto b when b precedes a lexicographically
/// (`swapped`): one canonical direction makes d(a, b) == d(b, a) by construction.
struct CentredPair {
  Eigen::Matrix3Xd fixed, moved;
  Eigen::Vector3d centroidA = Eigen::Vector3d::Zero(), centroidB = Eigen::Vector3d::Zero();
  bool swapped = false;
};

/// a and b as checked by checkAlignmentPair (clusters: not for a periodic box).
CentredPair centredPair(const std::vector<double>& a, const std::vector<double>& b);

/// A fit of the search: moved atom permutation[i] lies on fixed atom i after s * rotation, s = -1
/// if inverted else +1; squared is the sum of squared deviations.
struct AlignmentFit {
  double squared = std::numeric_limits<double>::infinity();
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  std::vector<int> permutation;
  bool inverted = false;
};

/// A candidate start: a rotation of the moved structure (inverted through its centroid first
/// when `inverted`). inOrderOf >= 0 marks the fit in the given atom order of that chirality
/// (0 plain, 1 inverted), whose rotation the search computes itself (the identity stands in).
/// random >= 0 marks rotation number `random` of randomAlignmentRotations() (the identity stands
/// in): those are the same for every pair of a call, so a batch keeps them once.
struct AlignmentStart {
  Eigen::Matrix3d rotation;
  bool inverted;
  int inOrderOf;
  int random;
};

/// Every candidate start of the search over all permutations (no permutation groups), in the
/// order alignStructures() scores them: the frame starts of atom pairs, then per chirality the
/// identity, the fit in the given order, the principal-axes alignments and params'
/// randomOrientations random rotations (drawn from params.seed as alignStructures draws them).
/// With numberRandomsAfter >= 0, random rotations that follow exactly that many draws of the
/// generator are given by number into randomAlignmentRotations(params, numberRandomsAfter).
std::vector<AlignmentStart> alignmentStarts(const CentredPair& pair, const AlignmentParams& params,
                                            int numberRandomsAfter = -1);

/// The draws of params.seed's generator that precede the random starts of a pair of `atoms`-atom
/// clusters, unless the pair is degenerate (every atom on the centroid).
int usualDrawsBeforeRandomStarts(int atoms);

/// The random starts' rotations after `draws` draws, every chirality's in turn:
/// (params.inversion ? 2 : 1) x params.randomOrientations.
std::vector<Eigen::Matrix3d> randomAlignmentRotations(const AlignmentParams& params, int draws);

/// The AlignmentResult of a and b (as given to centredPair) from the search's best fit, the swap
/// undone: the aligned copy of b, its distance from a, the permutation and transformation.
AlignmentResult alignmentResult(const CentredPair& pair, const AlignmentFit& fit,
                                const std::vector<double>& a);

}  // namespace landscape
