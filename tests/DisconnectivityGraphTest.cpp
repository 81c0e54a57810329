// Disconnectivity graphs (landscape/DisconnectivityGraph) on a hand-made network: the layout that
// landscape.plots draws (tests/python/test_plots.py checks the drawing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "landscape/network/DisconnectivityGraph.h"

namespace landscape {
namespace {

// Minima A (-10), B (-8), C (-9) joined by transition states A-B (-6) and B-C (-7); D (-5) is
// connected to nothing.
StoredTransitionNetwork sampleNetwork() {
  StoredTransitionNetwork n;
  for (double e : {-10.0, -8.0, -9.0, -5.0}) {
    StoredNetworkMinimum m;
    m.energy = e;
    n.minima.push_back(m);
  }
  StoredTransitionState ab, bc;
  ab.energy = -6.0;
  ab.plusMinimum = 0;
  ab.minusMinimum = 1;
  bc.energy = -7.0;
  bc.plusMinimum = 1;
  bc.minusMinimum = 2;
  n.transitionStates = {ab, bc};
  return n;
}

TEST(DisconnectivityGraph, SuperbasinsAndLeaves) {
  DisconnectivityParams p;
  p.levels = 8;
  p.topEnergy = -5.5;
  const DisconnectivityGraph g = buildDisconnectivityGraph(sampleNetwork(), p);
  EXPECT_EQ(g.minima, (std::vector<int>{0, 1, 2}));  // D is not connected to the global minimum
  ASSERT_EQ(g.levels.size(), 9u);
  EXPECT_DOUBLE_EQ(g.levels.front(), -5.5);
  EXPECT_DOUBLE_EQ(g.levels.back(), -10.0);
  EXPECT_DOUBLE_EQ(g.lowestEnergy, -10.0);
  // Every minimum's line ends at its own energy, at its own x.
  for (std::size_t k = 0; k < g.minima.size(); ++k) {
    const double e = sampleNetwork().minima[g.minima[k]].energy;
    const auto ends = std::count_if(g.segments.begin(), g.segments.end(), [&](const auto& s) {
      return s.energy1 == e && s.x1 == g.minimumX[k];
    });
    EXPECT_EQ(ends, 1) << "minimum " << g.minima[k];
    EXPECT_GT(g.minimumX[k], 0.0);
    EXPECT_LT(g.minimumX[k], 1.0);
  }
  // Segments run downhill, from one level to the next or to a minimum.
  for (const DisconnectivitySegment& s : g.segments) {
    EXPECT_GE(s.energy0, s.energy1);
    EXPECT_NE(std::find(g.levels.begin(), g.levels.end(), s.energy0), g.levels.end());
  }
  // B and C (joined at -7) split from each other below -7, A from {B, C} below -6: the global
  // minimum sits to one side, B and C side by side.
  EXPECT_NEAR(std::abs(g.minimumX[1] - g.minimumX[2]), 1.0 / 3.0, 1e-12);
  // With every minimum: D joins at the top level.
  p.connectedToLowestOnly = false;
  p.topEnergy = -4.0;
  EXPECT_EQ(buildDisconnectivityGraph(sampleNetwork(), p).minima.size(), 4u);
}

TEST(DisconnectivityGraph, AutomaticTopAndErrors) {
  const DisconnectivityGraph g = buildDisconnectivityGraph(sampleNetwork());
  EXPECT_GT(g.levels.front(), -6.0);  // above the highest transition state drawn
  EXPECT_EQ(g.levels.size(), 21u);
  EXPECT_THROW(buildDisconnectivityGraph({}), std::invalid_argument);
  StoredTransitionNetwork bad = sampleNetwork();
  bad.transitionStates[0].minusMinimum = 9;
  EXPECT_THROW(buildDisconnectivityGraph(bad), std::invalid_argument);
  DisconnectivityParams p;
  p.levels = 0;
  EXPECT_THROW(buildDisconnectivityGraph(sampleNetwork(), p), std::invalid_argument);
  p.levels = 5;
  p.topEnergy = -11.0;
  EXPECT_THROW(buildDisconnectivityGraph(sampleNetwork(), p), std::invalid_argument);
}

// dinfo's DELTA: levels a fixed energy apart from the top one down.
TEST(DisconnectivityGraph, LevelSpacingSetsTheLevels) {
  DisconnectivityParams p;
  p.levels = 4;
  p.topEnergy = -5.5;
  p.levelSpacing = 1.5;
  const DisconnectivityGraph g = buildDisconnectivityGraph(sampleNetwork(), p);
  EXPECT_EQ(g.levels, (std::vector<double>{-5.5, -7.0, -8.5, -10.0, -11.5}));
  p.levelSpacing = -1.0;
  EXPECT_THROW(buildDisconnectivityGraph(sampleNetwork(), p), std::invalid_argument);
}

// Every segment names the minima hanging below it (for colouring sets, dinfo's TRMIN): a
// minimum's own line holds just it, the top lines hold every minimum drawn, and each segment's
// minima are the union of the segments that continue below its lower end.
TEST(DisconnectivityGraph, SegmentsKnowTheirMinima) {
  DisconnectivityParams p;
  p.levels = 8;
  p.topEnergy = -5.5;
  const DisconnectivityGraph g = buildDisconnectivityGraph(sampleNetwork(), p);
  for (std::size_t k = 0; k < g.minima.size(); ++k) {
    const double e = sampleNetwork().minima[g.minima[k]].energy;
    for (const DisconnectivitySegment& s : g.segments) {
      if (s.energy1 == e && s.x1 == g.minimumX[k]) {
        EXPECT_EQ(s.minima, std::vector<int>{g.minima[k]});
      }
    }
  }
  for (const DisconnectivitySegment& s : g.segments) {
    std::vector<int> below;
    for (const DisconnectivitySegment& t : g.segments) {
      if (t.energy0 == s.energy1 && t.x0 == s.x1 && t.energy1 < t.energy0) {
        below.insert(below.end(), t.minima.begin(), t.minima.end());
      }
    }
    std::sort(below.begin(), below.end());
    std::vector<int> own = s.minima;
    std::sort(own.begin(), own.end());
    if (!below.empty()) EXPECT_EQ(below, own);
    if (s.energy0 == g.levels.front()) {
      EXPECT_TRUE(std::includes(g.minima.begin(), g.minima.end(), own.begin(), own.end()));
    }
  }
  // Below -6 the global minimum A parts from {B, C}: some segment holds exactly {1, 2}.
  EXPECT_TRUE(std::any_of(g.segments.begin(), g.segments.end(), [](const auto& s) {
    std::vector<int> m = s.minima;
    std::sort(m.begin(), m.end());
    return m == std::vector<int>{1, 2};
  }));
}

}  // namespace
}  // namespace landscape
