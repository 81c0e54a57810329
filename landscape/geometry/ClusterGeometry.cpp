#include "landscape/geometry/ClusterGeometry.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

double defaultContainerRadius(std::size_t atoms) {
  return 2.0 + std::cbrt(3.0 * static_cast<double>(atoms) / 17.77153175);
}

void removeCentreOfMass(std::vector<double>& x) {
  const std::size_t n = x.size() / 3;
  double c[3] = {0.0, 0.0, 0.0};
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) c[k] += x[3 * i + k];
  for (int k = 0; k < 3; ++k) c[k] /= static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) x[3 * i + k] -= c[k];
}

double maxRadius(const std::vector<double>& x) {
  double r2 = 0.0;
  for (std::size_t i = 0; i + 2 < x.size(); i += 3)
    r2 = std::max(r2, x[i] * x[i] + x[i + 1] * x[i + 1] + x[i + 2] * x[i + 2]);
  return std::sqrt(r2);
}

std::vector<double> randomCluster(std::size_t atoms, double radius, double minSeparation,
                                  Random& random) {
  std::vector<double> x(3 * atoms);
  const double min2 = minSeparation * minSeparation;
  for (std::size_t i = 0; i < atoms; ++i) {
    for (int tries = 0;; ++tries) {
      if (tries > 100000) {
        throw std::runtime_error("cannot place " + std::to_string(atoms) +
                                 " atoms at least " + std::to_string(minSeparation) +
                                 " apart in a sphere of radius " + std::to_string(radius));
      }
      double p[3];
      do {
        for (double& v : p) v = radius * random.symmetric();
      } while (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] > radius * radius);
      bool clear = true;
      for (std::size_t j = 0; j < i && clear; ++j) {
        const double dx = p[0] - x[3 * j], dy = p[1] - x[3 * j + 1], dz = p[2] - x[3 * j + 2];
        clear = dx * dx + dy * dy + dz * dz >= min2;
      }
      if (clear) {
        for (int k = 0; k < 3; ++k) x[3 * i + k] = p[k];
        break;
      }
    }
  }
  return x;
}

}  // namespace landscape
