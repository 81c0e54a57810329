#include "landscape/geometry/BoxGeometry.h"

#include <stdexcept>
#include <string>

namespace landscape {

std::vector<double> randomBoxStructure(std::size_t atoms, const PeriodicBox& box,
                                       double minSeparation, Random& random) {
  for (int k = 0; k < 3; ++k)
    if (!(box.length[k] > 0.0))
      throw std::invalid_argument(
          "randomBoxStructure: every axis of the box must be periodic (edge > 0), axis " +
          std::to_string(k + 1) + " is not");
  std::vector<double> x(3 * atoms);
  const double min2 = minSeparation * minSeparation;
  for (std::size_t i = 0; i < atoms; ++i) {
    for (int tries = 0;; ++tries) {
      if (tries > 100000)
        throw std::runtime_error("cannot place " + std::to_string(atoms) + " atoms at least " +
                                 std::to_string(minSeparation) + " apart in a box of " +
                                 std::to_string(box.length[0]) + " x " +
                                 std::to_string(box.length[1]) + " x " +
                                 std::to_string(box.length[2]) + " (too dense for random starts)");
      double p[3];
      for (int k = 0; k < 3; ++k) p[k] = box.length[k] * random.uniform();
      bool clear = true;
      for (std::size_t j = 0; j < i && clear; ++j) {
        double d[3] = {p[0] - x[3 * j], p[1] - x[3 * j + 1], p[2] - x[3 * j + 2]};
        box.minimumImage(d);
        clear = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= min2;
      }
      if (clear) {
        for (int k = 0; k < 3; ++k) x[3 * i + k] = p[k];
        break;
      }
    }
  }
  return x;
}

void wrapIntoBox(std::vector<double>& x, const PeriodicBox& box) {
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = box.wrapped(x[i], static_cast<int>(i % 3));
}

}  // namespace landscape
