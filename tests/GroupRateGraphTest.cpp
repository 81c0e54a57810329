// Rates between free-energy groups (landscape/network/GroupRateGraph, PATHSAMPLE's NGT after
// REGROUPFREE): the group rates by hand from the definitions, and an identity of the steady-state
// rate constant: when the groups are A widened, B widened and single minima, kSS between the
// group nodes equals kSS between the widened sets on the minima's own graph, exactly (edges inside
// a group never count in kSS, and a group's rate out is the weighted sum of its minima's).
#include <gtest/gtest.h>

#include <cmath>

#include "landscape/network/GraphTransformation.h"
#include "landscape/network/GroupRateGraph.h"
#include "landscape/network/HarmonicRates.h"
#include "tests/UnitNetworks.h"

namespace landscape {
namespace {

// Five minima: 0 - 1 - 2 - 3 - 4 and 1 - 3, unit log products and orders (reduced units).
StoredTransitionNetwork fiveMinima() {
  return unitNetwork({0.0, 0.2, 0.5, 0.1, 0.3},
                     {{0.4, 0, 1}, {1.1, 1, 2}, {1.0, 2, 3}, {0.6, 3, 4}, {1.5, 1, 3}});
}

FreeEnergyGroups groupsOfFive() {
  FreeEnergyGroups g;
  g.groupOfMinimum = {0, 0, 1, 2, 2};
  g.members = {{0, 1}, {2}, {3, 4}};
  g.freeEnergy = {0.0, 0.0, 0.0};  // not used by the rate graph
  return g;
}

TEST(GroupRateGraph, GroupRatesAreEquilibriumWeightedSums) {
  const double kT = 0.2, twoPi = 6.283185307179586;
  const RateGraph minima = harmonicRateGraph(fiveMinima(), kT);
  const RateGraph groups = groupRateGraph(minima, groupsOfFive());
  ASSERT_EQ(groups.nodes, 3);
  // Weights exp(-E/kT) (log products 0, orders 1); rates exp(-(E_ts - E_m)/kT) / 2 pi.
  const auto p = [&](double e) { return std::exp(-e / kT); };
  const auto k = [&](double ts, double e) { return std::exp(-(ts - e) / kT) / twoPi; };
  EXPECT_NEAR(groups.logEquilibrium[0], std::log(p(0.0) + p(0.2)), 1e-12);
  EXPECT_NEAR(groups.logEquilibrium[2], std::log(p(0.1) + p(0.3)), 1e-12);
  // Group {0,1} -> {2}: only minimum 1 leads there; {0,1} -> {3,4}: minimum 1 over ts 1-3.
  double toTwo = 0.0, toThree = 0.0, fromThreeToOne = 0.0;
  for (const RateEdge& e : groups.edges) {
    EXPECT_NE(e.from, e.to);  // edges inside a group are gone
    if (e.from == 0 && e.to == 1) toTwo += std::exp(e.logRate);
    if (e.from == 0 && e.to == 2) toThree += std::exp(e.logRate);
    if (e.from == 2 && e.to == 0) fromThreeToOne += std::exp(e.logRate);
  }
  EXPECT_NEAR(toTwo, p(0.2) * k(1.1, 0.2) / (p(0.0) + p(0.2)), 1e-12 * toTwo);
  EXPECT_NEAR(toThree, p(0.2) * k(1.5, 0.2) / (p(0.0) + p(0.2)), 1e-12 * toThree);
  EXPECT_NEAR(fromThreeToOne, p(0.1) * k(1.5, 0.1) / (p(0.1) + p(0.3)), 1e-12 * fromThreeToOne);
  // Detailed balance between groups: Z_I k(I -> J) = Z_J k(J -> I).
  EXPECT_NEAR(std::log(toThree) + groups.logEquilibrium[0],
              std::log(fromThreeToOne) + groups.logEquilibrium[2], 1e-12);
  EXPECT_EQ(groupsOf({4, 3, 0}, groupsOfFive()), (std::vector<int>{0, 2}));
  EXPECT_THROW(groupsOf({5}, groupsOfFive()), std::invalid_argument);
  FreeEnergyGroups wrong = groupsOfFive();
  wrong.groupOfMinimum.pop_back();
  EXPECT_THROW(groupRateGraph(minima, wrong), std::invalid_argument);
}

TEST(GroupRateGraph, SteadyStateRatesEqualThoseOfTheWidenedSets) {
  // kT = 0.002 and 0.0005: ln kSS near -500 and -2600, outside double precision's range at the
  // lower temperature; the identity holds for the logarithms (absolute 1e-9 = relative 1e-9).
  for (double kT : {0.1, 0.3, 0.002, 0.0005}) {
    const RateGraph minima = harmonicRateGraph(fiveMinima(), kT);
    const GraphTransformationResult widened = graphTransformationRates(minima, {0, 1}, {3, 4});
    const GraphTransformationResult grouped =
        graphTransformationRates(groupRateGraph(minima, groupsOfFive()), {0}, {2});
    EXPECT_NEAR(grouped.aFromB.logKSS, widened.aFromB.logKSS, 1e-9) << kT;
    EXPECT_NEAR(grouped.bFromA.logKSS, widened.bFromA.logKSS, 1e-9) << kT;
    EXPECT_TRUE(std::isfinite(grouped.aFromB.logK) && std::isfinite(grouped.bFromA.logK)) << kT;
    EXPECT_NEAR(grouped.detailedBalanceKSS(), 1.0, 1e-10) << kT;
    if (kT >= 0.1) {
      EXPECT_NEAR(grouped.aFromB.kSS, widened.aFromB.kSS, 1e-11 * widened.aFromB.kSS) << kT;
      EXPECT_NEAR(grouped.bFromA.kSS, widened.bFromA.kSS, 1e-11 * widened.bFromA.kSS) << kT;
    }
  }
  // At kT = 0.0005 the rates themselves underflow: the log fields carry them, and say so.
  const RateGraph cold = harmonicRateGraph(fiveMinima(), 0.0005);
  const GraphTransformationResult r =
      graphTransformationRates(groupRateGraph(cold, groupsOfFive()), {0}, {2});
  EXPECT_LT(r.aFromB.logKSS, -745.0);
  EXPECT_EQ(r.aFromB.kSS, 0.0);
  EXPECT_FALSE(r.aFromB.representable());
}

}  // namespace
}  // namespace landscape
