#pragma once
// Geometry helpers for atomic clusters in a spherical container (GMIN conventions).
#include <cstddef>
#include <vector>

#include "landscape/core/Random.h"

namespace landscape {

/// GMIN's default container radius for a cluster of N atoms (reduced LJ units):
/// 2 + (3 N / 17.77153175)^(1/3), i.e. a sphere comfortably larger than the close-packed cluster.
double defaultContainerRadius(std::size_t atoms);

/// Moves the centre of mass to the origin (equal masses).
void removeCentreOfMass(std::vector<double>& x);

/// Largest distance of an atom from the origin.
double maxRadius(const std::vector<double>& x);

/// Uniformly random atoms inside a sphere of `radius`, rejecting atoms closer than
/// `minSeparation` to any earlier atom (avoids the 10^24 energies of overlapping LJ atoms).
std::vector<double> randomCluster(std::size_t atoms, double radius, double minSeparation,
                                  Random& random);

}  // namespace landscape
