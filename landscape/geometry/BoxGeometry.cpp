#include "landscape/geometry/BoxGeometry.h"

#include <algorithm>
#include <cmath>
#include <random>
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

std::vector<double> perturbedLatticeInBox(std::size_t n, double density, double amplitude, unsigned seed,
                                  double* edgeOut) {
  const double edge = std::cbrt(static_cast<double>(n) / density);
  std::mt19937_64 rng(seed);
  std::vector<double> sites;
  const int c = static_cast<int>(std::lround(std::cbrt(n / 4.0)));
  if (static_cast<std::size_t>(4 * c * c * c) == n) {
    const double a = edge / c, basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    for (int i = 0; i < c; ++i)
      for (int j = 0; j < c; ++j)
        for (int k = 0; k < c; ++k)
          for (const auto& b : basis) {
            sites.push_back((i + b[0]) * a);
            sites.push_back((j + b[1]) * a);
            sites.push_back((k + b[2]) * a);
          }
  } else {
    int m = 1;
    while (static_cast<std::size_t>(m * m * m) < n) ++m;
    const double a = edge / m;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j)
        for (int k = 0; k < m; ++k) {
          sites.push_back(i * a);
          sites.push_back(j * a);
          sites.push_back(k * a);
        }
  }
  std::vector<std::size_t> deal(sites.size() / 3);
  for (std::size_t s = 0; s < deal.size(); ++s) deal[s] = s;
  std::shuffle(deal.begin(), deal.end(), rng);
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  std::vector<double> x(3 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) x[3 * i + k] = sites[3 * deal[i] + k] + u(rng);
  if (edgeOut) *edgeOut = edge;
  return x;
}

}  // namespace landscape
