#pragma once
// The symmetrised structure of GMIN's SYMMETRISECSM move for the point group Ci: the cluster
// averaged with its image under inversion through the centroid, after the best permutation of
// the atoms -- the continuous-symmetry-measure construction of Zabrodsky, Peleg and Avnir (J. Am.
// Chem. Soc. 114, 7843 (1992): the nearest structure of a point group is the average of the
// group's operations applied to the structure, each with the permutation of the atoms that fits
// best), used as a basin-hopping move by Oakley, Johnston and Wales (Phys. Chem. Chem. Phys. 15,
// 3965 (2013)). With c the centroid and P the assignment of atoms to the inverted atoms that
// minimises the squared distances (Hungarian.h):
//   average_i = c + ((x_i - c) - (x_P(i) - c)) / 2,
//   CSM = sum_i |(x_i - c) + (x_P(i) - c)|^2 / (4 sum_i |x_i - c|^2),
// GMIN's normalisation 2 |G| sum |x_i - c|^2 with |G| = 2. CSM = 0 for a centrosymmetric
// cluster. When P is an involution (P(P(i)) = i, the usual case) the average is exactly
// centrosymmetric; otherwise it is nearer to it than the cluster.
//
// The images are permuted, never rotated: a rotation would undo the operation (for a proper
// one) or turn the inversion into whatever improper operation fits best, and the measure would
// no longer be Ci's. The inversion commutes with every rotation, so the orientation of the
// cluster does not matter (GMIN's random orientations, CSMSTEPS, change nothing for Ci).
//
// Cost: one N x N assignment, O(N^3); about 0.1 ms for LJ38.
// Coordinates flat x1 y1 z1 x2 ... of identical atoms, any length unit.
#include <vector>

namespace landscape {

struct CsmSymmetrisation {
  std::vector<double> average;  ///< the symmetrised structure, same atom order as x
  std::vector<int> permutation;  ///< atom i's inverted partner P(i)
  double csm = 0.0;             ///< the continuous symmetry measure above (dimensionless, >= 0)
};

/// x: at least two atoms, finite. Throws std::invalid_argument for a bad size or non-finite
/// coordinates.
CsmSymmetrisation symmetriseByInversion(const std::vector<double>& x);

}  // namespace landscape
