#pragma once
// Minimum distance between two configurations of identical atoms over
// translation, rotation, optional inversion and permutations of the atoms:
// GMIN/OPTIM's MINPERMDIST. Used by the basin-hopping AVOID taboo list and by
// connection runs to measure how far apart two minima are.
//
// The minimisation over orientations is a global optimisation; it is solved
// heuristically by alternating the optimal permutation for a fixed orientation
// (Hungarian algorithm) with the optimal proper rotation for a fixed
// permutation (Kabsch 1976), started from several orientations. A copy of a
// structure (moved, rotated, permuted, and inverted when inversion is allowed)
// is always recognised at distance ~0 because some starts are built from
// matching pairs of atoms; for genuinely different structures the result is an
// upper bound on the true minimum that never exceeds the best fit in the given
// atom order.
//
// Coordinates are flat x1 y1 z1 x2 ... in any length unit (reduced units for
// Lennard-Jones, Angstrom for molecules); distances come back in the same unit.
#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace landscape {

struct AlignmentParams {
  bool permutations = true;     ///< minimise over permutations of the (identical) atoms
  bool inversion = true;        ///< also try b inverted through its centroid (improper rotations)
  int orientationTrials = 8;    ///< starts refined by the full alternation, chosen as the best
                                ///< ranked (nearest-neighbour bound) of the candidate orientations
                                ///< (>= 1; used only with permutations)
  int randomOrientations = 16;  ///< random rotations added to the candidates, per chirality (>= 0)
  int maxIterations = 50;       ///< cap on permutation/rotation alternations per start (>= 1)
  double convergence = 1e-9;    ///< length: a start stops when its distance drops by less than
                                ///< this; a distance below it ends the search as an exact match
  std::uint64_t seed = 20240611;  ///< seed of the random orientations: same inputs, same result

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

struct AlignmentResult {
  /// |a - alignedB| over all 3N coordinates (length unit of the input). Not
  /// divided by sqrt(N): GMIN's convention for MINPERMDIST distances.
  double distance = 0.0;
  /// b moved onto a: alignedB atom i = s * rotation * (b atom permutation[i] -
  /// centroid(b))
  ///                                   + centroid(a), with s = -1 if inverted
  ///                                   else +1.
  std::vector<double> alignedB;
  std::vector<int> permutation;  ///< alignedB atom i is b atom permutation[i]
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  ///< proper rotation (det +1)
  bool inverted = false;  ///< b was inverted through its centroid before rotating
};

/// Aligns b onto a. Both must hold the same number of atoms (size a multiple of
/// 3, at least one atom) and finite coordinates; throws std::invalid_argument
/// otherwise or if params.check() fails. Deterministic, and symmetric:
/// distance(a, b) == distance(b, a) to rounding.
AlignmentResult alignStructures(const std::vector<double> &a, const std::vector<double> &b,
                                const AlignmentParams &params = {});

/// alignStructures(a, b, params).distance.
double minimumDistance(const std::vector<double> &a, const std::vector<double> &b,
                       const AlignmentParams &params = {});

}  // namespace landscape
