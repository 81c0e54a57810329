#pragma once
// Candidate structures of GMIN's SYMMETRISE move: symmetry-adapted basin-hopping moves (Oakley,
// Johnston and Wales, Phys. Chem. Chem. Phys. 15, 3965 (2013): "high-symmetry structures are more
// likely to have particularly low energy"). The most symmetric core of a cluster is found, and its
// outer atoms (floaters) are moved into vacant symmetry-related sites (holes) of the core's point
// group.
//
// 1. Centre: c = sum w_i x_i / sum w_i, w_i = exp(-centreDecay |x_i - c_prev|), iterated from the
//    plain centroid until c moves less than 1e-4 or 200 passes (centreDecay = 0: the centroid).
// 2. Atoms sorted by distance from c (ties by index); an orbit (shell) is a run of consecutive
//    atoms whose successive distances differ by less than orbitTolerance.
// 3. Cores are the first k orbits, k = 1, 2, ...; the point group (findPointGroup, tolerance
//    symmetryTolerance) of every core of 4 or more atoms is found, and the core with the largest
//    order x atoms wins (the larger on a tie): a big core of modest symmetry beats a tetrahedron
//    of four atoms, whose images are hundreds of holes (LJ38 from GMIN's SYMMETRISE input: 1036
//    quenches on average against 2035 when the most symmetric small core won). The price: LJ13
//    with a vertex moved onto the far side keeps a 12-atom C2v core, not the 4-atom C3v one whose
//    holes include the vacancy. A core of order 1 or of every atom: no candidates.
// 4. Holes: every operation of the core's group (about the core's centroid) applied to every
//    non-core atom (floater). An image within occupiedTolerance of an atom is occupied; otherwise
//    it is a hole when it is at least overlapDistance from every atom; a hole within
//    holeMergeTolerance of an earlier one is that one.
// 5. Candidates: candidate k is x with the k least bound floaters (highest atom energy first, or
//    without energies the farthest from c first) moved one after another, each into the free hole
//    with the most atoms within 1.25 d_nn of it (d_nn: the median over atoms of the
//    nearest-neighbour distance; the moving atom not counted, holes nearer than overlapDistance
//    to the moved structure excluded, recounted after every move; ties by hole index), skipping a
//    floater for which every free hole has fewer than 3 such neighbours; at most maxCandidates.
//    Moving several atoms completes a core whose orbits lack several (one atom per candidate did
//    not reach LJ38 from GMIN's SYMMETRISE input; docs/benchmarks.md). holeCoordination reports
//    each hole's count in x.
//
// Cost per call (one core of the build machine, Release build, CoreSymmetryCompletion.CostPerCall):
// 0.3 ms for LJ38, its global minimum or with a vertex moved to a hollow (cores of 6, 14 and 37
// or 38 atoms); 1.4 ms for LJ55 with a vertex moved (Ih cores of 13 and 43 atoms); 0.1 to 1.0 ms
// for quenched random LJ98 minima and 0.2 to 1.2 ms for LJ150 (up to 1000 holes). The point
// groups of the cores dominate (findPointGroup, O(n_a n_b N^2) per core); the holes cost
// O(|G| F N) for F floaters and |G| operations, merged on a grid.
//
// Coordinates are flat x1 y1 z1 x2 ... of identical atoms in any length unit; the tolerances are
// in the same unit. Deterministic: equal inputs give equal outputs.
#include <string>
#include <vector>

namespace landscape {

/// GMIN's SYMMETRISE arguments after the interval
/// (keyword: SYMMETRISE nint tol1 tol2 tol3 tol4 tol5 nsymqmax matdiff distfac).
struct CoreSymmetryParams {
  /// SYMTOL1 (length): consecutive atoms, sorted by distance from the centre, whose distances
  /// differ by less than this belong to one orbit (shell).
  double orbitTolerance = 0.1;
  /// SYMTOL2 (length): distance tolerance of the core's point group
  /// (PointGroupParams::distanceTolerance).
  double symmetryTolerance = 0.1;
  /// SYMTOL3 (length): an image within this of an atom is that atom: the site is occupied.
  double occupiedTolerance = 0.1;
  /// SYMTOL4 (length): holes within this of each other are one hole.
  double holeMergeTolerance = 0.1;
  /// SYMTOL5 (length): a hole must be at least this far from every atom (a nearer image overlaps
  /// an atom). For Lennard-Jones about 0.7 sigma keeps images that overlap an atom (energies of
  /// 10^2 epsilon and more) out of the holes; at 0.1 such images are holes with many neighbours
  /// and rank first.
  double overlapDistance = 0.1;
  /// NSYMQMAX: at most this many candidate structures.
  int maxCandidates = 20;
  /// DISTFAC (1/length): weights exp(-DISTFAC * r_i) of the core-weighted centre; 0 = plain
  /// centroid.
  double centreDecay = 0.0;

  /// Throws std::invalid_argument naming the first bad field (finite, > 0 tolerances,
  /// maxCandidates >= 1, centreDecay finite >= 0).
  void check() const;
};

struct CoreSymmetryCompletion {
  int coreAtoms = 0;  ///< atoms in the symmetric core (0: no core with a non-trivial group)
  int order = 1;      ///< order of the core's point group
  std::string pointGroup = "C1";  ///< its Schoenflies symbol (schoenfliesSymbol())
  int holes = 0;                  ///< distinct holes found
  /// Candidate structures (3N flat, same atom count and order of atoms as x except the moved
  /// atom's position), best first: each is x with one floater moved into one hole.
  std::vector<std::vector<double>> candidates;

  // Added fields, for callers that report the move and for tests.
  std::vector<int> core;              ///< indices of the core atoms, nearest the centre first
  std::vector<double> holeSites;      ///< 3 * holes: the holes in x's frame, in order of discovery
  std::vector<int> holeCoordination;  ///< per hole: atoms within 1.25 d_nn of it
  std::vector<int> movedAtoms;        ///< per candidate: the floater moved
  std::vector<int> targetHoles;       ///< per candidate: the hole it was moved into (its index)
};

/// x: flat 3N coordinates of a cluster of identical atoms (any length unit). atomEnergies: one per
/// atom (the potential's per-atom energies, more negative = more strongly bound) or empty.
/// Throws std::invalid_argument when x is empty or not a multiple of 3, a coordinate or energy is
/// not finite, atomEnergies has neither 0 nor N entries, or params.check() fails.
CoreSymmetryCompletion completeCoreSymmetry(const std::vector<double>& x,
                                            const std::vector<double>& atomEnergies,
                                            const CoreSymmetryParams& params);

}  // namespace landscape
