// Free-energy regrouping (landscape/network/FreeEnergyGroups) on a three-minimum network whose
// group free energies and barriers follow by hand from the definitions in FreeEnergyGroups.h.
#include <gtest/gtest.h>

#include <cmath>

#include "landscape/formats/PathsampleKineticsFiles.h"
#include "landscape/network/FreeEnergyGroups.h"

namespace landscape {
namespace {

StoredTransitionNetwork threeMinima() {
  StoredTransitionNetwork n;
  for (double e : {0.0, 0.1, 0.0}) {
    StoredNetworkMinimum m;
    m.energy = e;
    m.properties.logProductOfPositiveEigenvalues = 0.0;
    m.properties.pointGroupOrder = 1;
    n.minima.push_back(m);
  }
  auto ts = [&](double e, int a, int b) {
    StoredTransitionState t;
    t.energy = e;
    t.plusMinimum = a;
    t.minusMinimum = b;
    t.properties.logProductOfPositiveEigenvalues = 0.0;
    t.properties.pointGroupOrder = 1;
    n.transitionStates.push_back(t);
  };
  ts(0.3, 0, 1);
  ts(2.0, 1, 2);
  return n;
}

TEST(FreeEnergyGroups, MergesWhenBothBarriersAreBelowTheThreshold) {
  const double kT = 0.1, twoPi = 6.283185307179586;
  // F_ts(0,1) = 0.3 + kT ln 2 pi; barriers 0.3 + kT ln 2 pi (from 0) and 0.2 + kT ln 2 pi (from 1).
  const double larger = 0.3 + kT * std::log(twoPi);
  const FreeEnergyGroups merged = regroupFreeEnergy(threeMinima(), kT, larger + 1e-9);
  ASSERT_EQ(merged.members.size(), 2u);
  const double groupF = -kT * std::log(1.0 + std::exp(-1.0));  // minima at 0 and 0.1
  EXPECT_NEAR(merged.freeEnergy[0], groupF, 1e-12);
  EXPECT_EQ(merged.members[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(merged.members[1], (std::vector<int>{2}));
  EXPECT_NEAR(merged.freeEnergy[1], 0.0, 1e-12);
  EXPECT_EQ(merged.groupOfMinimum, (std::vector<int>{0, 0, 1}));
  const FreeEnergyGroups apart = regroupFreeEnergy(threeMinima(), kT, larger - 1e-9);
  EXPECT_EQ(apart.members.size(), 3u);
  // A threshold above the second barrier (from the merged group) joins everything.
  const double second = 2.0 + kT * std::log(twoPi) - groupF;
  EXPECT_EQ(regroupFreeEnergy(threeMinima(), kT, second + 1e-9).members.size(), 1u);
  EXPECT_EQ(regroupFreeEnergy(threeMinima(), kT, second - 1e-9).members.size(), 2u);
  EXPECT_THROW(regroupFreeEnergy(threeMinima(), 0.0, 1.0), std::invalid_argument);
}

TEST(PathsampleKineticsFiles, CommitDataUsesPathsampleColumns) {
  // The zero lines of tests/data/lj38/pathsample-untrap/expected_output/commit.data (G20.10).
  EXPECT_EQ(formatCommitData({0.0, std::nan(""), 1.0}),
            "     0.000000000    \n     0.000000000    \n     1.000000000    \n");
}

}  // namespace
}  // namespace landscape
