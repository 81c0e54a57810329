#include "landscape/geometry/CubeCluster.h"

#include <cmath>

namespace landscape {

double cubeStartHalfSide(std::size_t atoms) { return 1.5 * std::cbrt(static_cast<double>(atoms)); }

std::vector<double> uniformCubeCluster(std::size_t atoms, double halfSide, Random& random) {
  std::vector<double> x(3 * atoms);
  for (double& v : x) v = halfSide * random.symmetric();
  return x;
}

}  // namespace landscape
