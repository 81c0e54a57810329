#pragma once
// The gradient of a potential against central differences of its energy, h = 1e-6 in every
// coordinate: each entry within tolerance x max(1, the largest |gradient entry|).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "potentials/Potential.h"

namespace landscape {

inline void expectGradientMatchesDifferences(Potential& potential, const std::vector<double>& x,
                                             double tolerance) {
  std::vector<double> g(x.size());
  const double e = potential.energyGradient(x.data(), g.data());
  ASSERT_TRUE(std::isfinite(e));
  const double h = 1e-6;
  double scale = 1.0;
  for (double v : g) scale = std::max(scale, std::fabs(v));
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::vector<double> plus = x, minus = x;
    plus[i] += h;
    minus[i] -= h;
    const double fd = (potential.energy(plus.data()) - potential.energy(minus.data())) / (2.0 * h);
    EXPECT_NEAR(g[i], fd, tolerance * scale) << "component " << i;
  }
}

}  // namespace landscape
