#pragma once
// Atoms in an orthorhombic periodic box (potentials/PeriodicBox.h: bulk liquids and glasses such
// as the Kob-Andersen mixture, Kob and Andersen, Phys. Rev. E 51, 4626 (1995)): the random
// starting structures of a global search and the coordinates moved into the box for output. The
// counterparts of ClusterGeometry.h, whose spherical container and centre of mass a box has not.
//
// Lengths in the potential's length unit (sigma for reduced units).
#include <cstddef>
#include <vector>

#include "landscape/core/Random.h"
#include "potentials/PeriodicBox.h"

namespace landscape {

/// Atoms uniform in [0, L_k) along each axis of `box` (all three periodic), each placed at least
/// `minSeparation` from every earlier atom at its minimum image (random sequential addition: it
/// avoids the 10^24 energies of overlapping Lennard-Jones atoms, and works up to a volume fraction
/// of (pi/6) d^3 N / V near 0.38, d = minSeparation). Draws 3 numbers per try. Throws
/// std::invalid_argument for an axis that is not periodic and std::runtime_error when an atom finds
/// no place in 100000 tries.
std::vector<double> randomBoxStructure(std::size_t atoms, const PeriodicBox& box,
                                       double minSeparation, Random& random);

/// A liquid-like start for a dense box, where random sequential addition cannot place the atoms:
/// n atoms on the sites of a lattice filling a cube of edge (n / density)^(1/3) (fcc when n = 4 c^3,
/// else n sites of a simple cubic grid of m^3 >= n sites), the sites dealt to the atoms in an order
/// drawn from `seed` (so that species mix) and every coordinate moved by up to `amplitude`.
/// Coordinates stay near [0, edge); the edge is written to *edgeOut when given.
std::vector<double> perturbedLatticeInBox(std::size_t n, double density, double amplitude,
                                          unsigned seed, double* edgeOut = nullptr);

/// Every coordinate moved into [0, L_k) along the periodic axes (PeriodicBox::wrapped); open axes
/// and the energy of a pair potential with the minimum-image convention are unchanged.
void wrapIntoBox(std::vector<double>& x, const PeriodicBox& box);

}  // namespace landscape
