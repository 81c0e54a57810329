// Cold fusion in DNEB: on a surface unbounded below (here a double well with a -c/r^2 sink beside
// the straight path, as AMBER's hydroxyl hydrogen over an oxygen), the band falls into the sink
// without the guard; with DnebParams::coldFusionDrop every image stays above the lower endpoint
// minus the drop, the band energies stay finite and the barrier maximum is still found.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "landscape/paths/Dneb.h"

namespace landscape {
namespace {

// E = (x^2 - 1)^2 + y^2 + z^2 - c / ((x - 0.3)^2 + (y - 0.6)^2 + z^2): minima near (+-1, 0, 0),
// a barrier of about 1 at the origin, and a sink at (0.3, 0.6, 0) where E -> -infinity.
class SinkSurface : public Potential {
 public:
  std::size_t dimension() const override { return 3; }
  std::string name() const override { return "double well with a sink"; }
  double energy(const double* x) override {
    std::vector<double> g(3);
    return energyGradient(x, g.data());
  }
  double energyGradient(const double* x, double* g) override {
    const double dx = x[0] - 0.3, dy = x[1] - 0.6, dz = x[2];
    const double r2 = dx * dx + dy * dy + dz * dz;
    const double w = x[0] * x[0] - 1.0;
    g[0] = 4.0 * w * x[0] + 2.0 * kC * dx / (r2 * r2);
    g[1] = 2.0 * x[1] + 2.0 * kC * dy / (r2 * r2);
    g[2] = 2.0 * x[2] + 2.0 * kC * dz / (r2 * r2);
    return w * w + x[1] * x[1] + x[2] * x[2] - kC / r2;
  }

 private:
  static constexpr double kC = 0.1;
};

DnebParams params() {
  DnebParams p;
  p.alignEndpoints = false;  // not 3N Cartesians of atoms
  p.images = 9;
  p.iterations = 400;
  p.maxStepPerImage = 0.05;
  p.rmsTolerance = 1e-6;
  // The projection form of the parallel spring: with it the unguarded band of this small
  // surface falls into the sink (with the segment form it happens to stay out), which the guard
  // test needs as its reference.
  p.segmentSprings = false;
  return p;
}

TEST(DnebColdFusion, TheGuardKeepsTheBandOutOfASinkThatIsUnboundedBelow) {
  SinkSurface surface;
  // The endpoints: the two minima (the sink shifts them a little; close enough for DNEB).
  const std::vector<double> start = {-1.0, 0.0, 0.0}, finish = {1.0, 0.0, 0.0};
  const double lowest = std::min(surface.energy(start.data()), surface.energy(finish.data()));

  const DnebResult free = Dneb(params()).run(surface, start, finish);
  double deepest = 0.0;
  for (double e : free.energies) deepest = std::min(deepest, e);
  EXPECT_LT(deepest, lowest - 10.0) << "without the guard an image should fall into the sink";
  EXPECT_EQ(free.coldFusionSteps, 0);

  DnebParams guarded = params();
  guarded.coldFusionDrop = 1.0;
  const DnebResult r = Dneb(guarded).run(surface, start, finish);
  EXPECT_GT(r.coldFusionSteps, 0);
  for (double e : r.energies) {
    EXPECT_TRUE(std::isfinite(e));
    EXPECT_GE(e, lowest - 1.0);
  }
  EXPECT_TRUE(std::isfinite(r.rmsGradient));
  EXPECT_FALSE(r.candidates.empty());

  guarded.coldFusionDrop = 0.0;
  EXPECT_THROW(guarded.check(), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
