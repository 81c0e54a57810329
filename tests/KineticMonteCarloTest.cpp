// Kinetic Monte Carlo first passages (landscape/network/KineticMonteCarlo): pele's analytic
// three-node network (tests/data/kinetics/README.md: complete graph, every rate 1, A = {0},
// B = {1}) has the mean first-passage time 1 from B to A (T1 = 1/2 + T2/2, T2 = 1/2 + T1/2), with
// a standard deviation of 1 (the passage time is exponential with rate 1: each wait is exponential
// with rate 2 and half the jumps end it); bad input is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "landscape/network/KineticMonteCarlo.h"

namespace landscape {
namespace {

RateGraph completeGraphOfThree() {
  RateGraph g;
  g.nodes = 3;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != j) g.edges.push_back({i, j, 0.0});  // ln 1
  return g;
}

TEST(KineticMonteCarlo, ThreeNodeMeanAndSpreadAreAnalytic) {
  const int runs = 20000;
  const std::vector<KmcPassage> p = kmcFirstPassages(completeGraphOfThree(), {0}, {1}, runs, 3);
  ASSERT_EQ(p.size(), static_cast<std::size_t>(runs));
  double sum = 0.0, squares = 0.0;
  for (const KmcPassage& x : p) {
    EXPECT_GE(x.steps, 1);
    sum += x.time;
    squares += x.time * x.time;
  }
  const double mean = sum / runs, sd = std::sqrt(squares / runs - mean * mean);
  EXPECT_NEAR(mean, 1.0, 4.0 / std::sqrt(static_cast<double>(runs)));  // 4 standard errors
  EXPECT_NEAR(sd, 1.0, 0.05);
  // The same seed, the same times.
  const std::vector<KmcPassage> again = kmcFirstPassages(completeGraphOfThree(), {0}, {1}, runs, 3);
  EXPECT_EQ(again.back().time, p.back().time);
}

TEST(KineticMonteCarlo, RefusesUnreachableProductsAndBadSets) {
  RateGraph g;
  g.nodes = 3;
  g.edges = {{1, 2, 0.0}, {2, 1, 0.0}};  // node 0 (A) cannot be reached
  EXPECT_THROW(kmcFirstPassages(g, {0}, {1}, 10, 1), std::runtime_error);
  EXPECT_THROW(kmcFirstPassages(completeGraphOfThree(), {0}, {0}, 10, 1), std::invalid_argument);
  EXPECT_THROW(kmcFirstPassages(completeGraphOfThree(), {}, {1}, 10, 1), std::invalid_argument);
  EXPECT_THROW(kmcFirstPassages(completeGraphOfThree(), {0}, {1}, 0, 1), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
