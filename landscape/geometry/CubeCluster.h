#pragma once
// Random cluster starts uniform in a cube, the starts of the batched-minimisation benchmarks:
// no minimum separation, so close pairs (huge LJ energies) occur as they would in a
// plain random start.
#include <cstddef>
#include <vector>

#include "landscape/core/Random.h"

namespace landscape {

/// The benchmarks' cube half-side for N atoms: 1.5 N^(1/3) (reduced length units).
double cubeStartHalfSide(std::size_t atoms);

/// 3N coordinates uniform in [-halfSide, halfSide)^3.
std::vector<double> uniformCubeCluster(std::size_t atoms, double halfSide, Random& random);

}  // namespace landscape
