#pragma once
// The two lowest minima of the seven-atom Lennard-Jones cluster (Cambridge Cluster Database,
// reduced units): the pentagonal bipyramid, -16.505384 (global minimum), and the capped
// octahedron, -15.935043. Built from ideal geometries with nearest-neighbour distance 1.12 and
// minimised tightly, for tests of transition-state searches between them.
#include <cmath>
#include <vector>

#include "landscape/minimisation/Lbfgs.h"
#include "potentials/LennardJones.h"

namespace landscape {

inline std::vector<double> minimisedLj7(std::vector<double> x) {
  LennardJones lj(7);
  LbfgsParams p;
  p.rmsTolerance = 1e-10;
  p.maxIterations = 10000;
  Lbfgs(p).minimize(lj, x);
  return x;
}

inline std::vector<double> lj7PentagonalBipyramid() {
  const double d = 1.12;
  const double pi = 3.14159265358979323846;
  const double ring = d / (2.0 * std::sin(pi / 5.0));
  const double apex = std::sqrt(d * d - ring * ring);
  std::vector<double> x;
  for (int k = 0; k < 5; ++k) {
    x.insert(x.end(),
             {ring * std::cos(2.0 * pi * k / 5.0), ring * std::sin(2.0 * pi * k / 5.0), 0.0});
  }
  x.insert(x.end(), {0.0, 0.0, apex, 0.0, 0.0, -apex});
  return minimisedLj7(x);
}

inline std::vector<double> lj7CappedOctahedron() {
  const double a = 1.12 / std::sqrt(2.0);
  return minimisedLj7({a, 0, 0, -a, 0, 0, 0, a, 0, 0, -a, 0, 0, 0, a, 0, 0, -a, a, a, a});
}

}  // namespace landscape
