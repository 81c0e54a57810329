#pragma once
// The point group of a configuration of atoms: every rotation and improper rotation about the
// centroid that maps the structure onto itself within a distance tolerance, atoms only onto atoms
// of their own type. Its order is PATHSAMPLE's point-group order (third column of min.data, fourth
// of ts.data), which enters the rate constants as the symmetry number; OPTIM's `symmetry` routine
// is the reference (LJ38 global minimum Oh, 48; the LJ13 icosahedron Ih, 120).
//
// Search (direct, no Hessian): pick a reference atom a off the centroid, and an atom b off the
// line through the centroid and a, each from the smallest "shell" of atoms of its type at its
// distance from the centroid. A symmetry operation maps a onto an atom a' of the same shell and b
// onto an atom b' of its shell with the same a.b, and the pair (a', b') fixes the operation up to
// the choice of handedness. Each of the two candidates (proper, improper) is accepted when every
// atom's image lies near a distinct atom of its type: first with a loose tolerance to find the
// permutation, then the operation is refitted to all atoms (Kabsch with the determinant fixed)
// and every deviation must be below distanceTolerance. Distinct operations are told apart by their
// permutations and handedness (a planar structure's mirror plane moves no atom).
// Cost: O(n_a n_b N^2) for shells of n_a and n_b atoms; milliseconds for clusters of tens of atoms.
//
// Conventions for the degenerate cases (their groups are infinite): a single atom (or all atoms at
// the centroid) has order 1 and symbol "Kh"; a linear structure has order 2 and symbol "D*h" when
// it is symmetric under inversion, otherwise order 1 and "C*v".
//
// Coordinates are flat x1 y1 z1 x2 ... in any length unit; the tolerance is in the same unit.
#include <Eigen/Core>
#include <string>
#include <vector>

namespace landscape {

struct PointGroupParams {
  /// Largest distance between an atom's image and the atom it lands on (length; > 0). 1e-3 sigma
  /// accepts minima and transition states converged to an RMS gradient of about 1e-4 and below.
  double distanceTolerance = 1e-3;
  /// One type per atom (e.g. element or AMBER type index); empty = all atoms interchangeable.
  std::vector<int> atomTypes;

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

struct PointGroup {
  int order = 1;              ///< number of symmetry operations, identity included
  std::string symbol = "C1";  ///< Schoenflies symbol: "C1", "Cs", "Ci", "C5v", "D5h", "Oh", ...
  /// The operations as 3x3 orthogonal matrices acting on coordinates relative to the centroid,
  /// identity first; det = -1 for improper ones.
  std::vector<Eigen::Matrix3d> operations;
  /// permutations[k][i] is the atom that operation k moves atom i onto.
  std::vector<std::vector<int>> permutations;
  bool linear = false;  ///< linear structure (or a single atom): the conventions above apply
};

/// The point group of x (3N coordinates, N >= 1). Throws std::invalid_argument when the size is
/// not a positive multiple of 3, a coordinate is not finite, params.check() fails or atomTypes has
/// the wrong length.
PointGroup findPointGroup(const std::vector<double>& x, const PointGroupParams& params = {});

/// The Schoenflies symbol of a finite group given by its operations (orthogonal 3x3 matrices,
/// identity included): C1, Cs, Ci, Cn, Cnv, Cnh, S2n, Dn, Dnh, Dnd, T, Td, Th, O, Oh, I, Ih; "?"
/// when the set is not recognisably one of these (e.g. an incomplete set).
std::string schoenfliesSymbol(const std::vector<Eigen::Matrix3d>& operations);

}  // namespace landscape
