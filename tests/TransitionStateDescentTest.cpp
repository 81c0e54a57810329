// Descent from a transition state (OPTIM's PUSHOFF + minimisation) on the analytic double well.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "landscape/paths/TransitionStateDescent.h"
#include "tests/ModelSurfaces.h"

namespace landscape {
namespace {

TEST(TransitionStateDescent, CurvedDoubleWellSaddleLeadsToBothMinima) {
  CurvedDoubleWell f(2.0, 0.5);
  const TransitionStateDescentResult d =
      TransitionStateDescent(TransitionStateDescentParams{}).descend(f, {0.0, 0.0}, {2.0, 0.0});
  ASSERT_TRUE(d.converged());
  EXPECT_DOUBLE_EQ(d.plus.pushoff, 0.02);
  EXPECT_DOUBLE_EQ(d.minus.pushoff, -0.02);
  EXPECT_NEAR(d.plus.coordinates[0], 1.0, 1e-6);
  EXPECT_NEAR(d.plus.coordinates[1], 0.5, 1e-6);
  EXPECT_NEAR(d.minus.coordinates[0], -1.0, 1e-6);
  EXPECT_NEAR(d.minus.coordinates[1], 0.5, 1e-6);
  EXPECT_NEAR(d.plus.energy, 0.0, 1e-10);
  EXPECT_NEAR(d.minus.energy, 0.0, 1e-10);
}

// Along a direction of positive curvature the displaced points lie above the saddle: the pushoff
// is doubled maxPushoffDoublings times before minimising anyway.
TEST(TransitionStateDescent, PushoffDoublesWhileTheEnergyDoesNotDrop) {
  CurvedDoubleWell f(2.0, 0.5);
  TransitionStateDescentParams p;
  p.maxPushoffDoublings = 3;
  const TransitionStateDescentResult d =
      TransitionStateDescent(p).descend(f, {0.0, 0.0}, {0.0, 1.0});
  EXPECT_DOUBLE_EQ(d.plus.pushoff, 0.02 * 8.0);
  EXPECT_DOUBLE_EQ(d.minus.pushoff, -0.02 * 8.0);
}

TEST(TransitionStateDescent, BadArgumentsAreRejected) {
  TransitionStateDescentParams p;
  p.pushoff = 0.0;
  EXPECT_THROW(TransitionStateDescent{p}, std::invalid_argument);
  CurvedDoubleWell f;
  const TransitionStateDescent descent{TransitionStateDescentParams{}};
  EXPECT_THROW(descent.descend(f, {0.0, 0.0}, {0.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(descent.descend(f, {0.0}, {1.0, 0.0}), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
