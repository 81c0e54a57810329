// EnergyWindowIndex: the entries within an energy tolerance are exactly those a scan of the whole
// list finds with the same comparison (|E_i - E| < tolerance), in the scan's order, so that
// TransitionNetwork's duplicate checks answer as before it kept an index.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/network/EnergyWindowIndex.h"

namespace landscape {
namespace {

std::vector<int> scan(const std::vector<double>& energies, double energy, double tolerance) {
  std::vector<int> found;
  for (std::size_t i = 0; i < energies.size(); ++i)
    if (std::abs(energies[i] - energy) < tolerance) found.push_back(static_cast<int>(i));
  return found;
}

TEST(EnergyWindowIndex, FindsWhatAScanFindsInItsOrder) {
  Random random(11);
  std::vector<double> energies;
  EnergyWindowIndex index;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int i = 0; i < 4000; ++i) {
    double e = -173.928 + 0.01 * std::floor(400.0 * random.uniform());  // many equal energies
    if (i % 7 == 0) e = std::nextafter(energies.empty() ? e : energies.back(), 0.0);  // an ulp away
    if (i % 97 == 0) e = nan;
    if (i % 131 == 0) e = -std::numeric_limits<double>::infinity();
    energies.push_back(e);
    index.add(e, i);
  }
  const double tolerances[] = {0.0, 1e-300, 1e-14, 1e-6, 0.005, 0.01, 0.5};
  for (int q = 0; q < 300; ++q) {
    const double energy =
        q % 3 == 0 ? energies[static_cast<std::size_t>(q * 13)] : -174.0 + 4.5 * random.uniform();
    for (double tolerance : tolerances)
      EXPECT_EQ(index.within(energy, tolerance), scan(energies, energy, tolerance))
          << "energy " << energy << " tolerance " << tolerance;
  }
  EXPECT_TRUE(index.within(nan, 1.0).empty());
  EXPECT_TRUE(index.within(-std::numeric_limits<double>::infinity(), 1.0).empty());
}

}  // namespace
}  // namespace landscape
