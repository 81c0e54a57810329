// Basin-hopping as GMIN does it: global minimum of LJ13, reproducibility, and one test for each
// rule of the run (step-size adaptation, lowest-minima list, moves, reseeding, target).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/ClusterStepTaker.h"
#include "landscape/search/LowestMinima.h"
#include "potentials/LennardJones.h"

namespace landscape {
namespace {

constexpr double kLj13GlobalMinimum = -44.326801;  // Cambridge Cluster Database

// GMIN's LJ38 example settings (tests/data/lj38/gmin/data) applied to a smaller cluster.
BasinHoppingParams gminExampleParams(long steps, std::uint64_t seed) {
  BasinHoppingParams p;
  p.steps = steps;
  p.temperature = 1.0;
  p.stepSize = 0.4;
  p.angularThreshold = 0.51;
  p.saveCount = 2;
  p.energyDifference = 0.003;
  p.sloppyRms = 5e-3;
  p.sloppyMaxIterations = 600;
  p.tightRms = 1e-3;
  p.tightMaxIterations = 500;
  p.newRestartSteps = 40;
  p.avoidDistance = 4.0;
  p.avoidMaxSaved = 20;
  p.avoidReseeds = false;  // AVOID 4.0 20 F
  p.seed = seed;
  return p;
}

class Recorder : public BasinHoppingObserver {
 public:
  void onQuench(const QuenchReport& q) override { quenches.push_back(q); }
  void onStepAdjust(const StepAdjustReport& s) override { adjusts.push_back(s); }
  void onRestart(const RestartReport& r) override { restarts.push_back(r); }
  std::vector<QuenchReport> quenches;
  std::vector<StepAdjustReport> adjusts;
  std::vector<RestartReport> restarts;
};

TEST(BasinHopping, Lj13GlobalMinimumWithin300StepsForTenSeeds) {
  LennardJones lj(13);
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    BasinHoppingParams p = gminExampleParams(300, seed);
    p.tightRms = 1e-6;  // so the reported energy is converged to well below 1e-5
    const BasinHoppingResult r = BasinHopping(lj, p).run({});
    ASSERT_FALSE(r.lowest.empty());
    EXPECT_NEAR(r.lowest.front().energy, kLj13GlobalMinimum, 1e-5) << "seed " << seed;
  }
}

TEST(BasinHopping, SameSeedGivesTheSameRunBitForBit) {
  LennardJones lj(13);
  const BasinHoppingParams p = gminExampleParams(120, 42);
  Recorder a, b;
  const BasinHoppingResult ra = BasinHopping(lj, p).run({}, &a);
  const BasinHoppingResult rb = BasinHopping(lj, p).run({}, &b);
  ASSERT_EQ(a.quenches.size(), b.quenches.size());
  for (std::size_t i = 0; i < a.quenches.size(); ++i) {
    EXPECT_EQ(a.quenches[i].energy, b.quenches[i].energy) << "quench " << i;
    EXPECT_EQ(a.quenches[i].accepted, b.quenches[i].accepted);
  }
  ASSERT_EQ(ra.lowest.size(), rb.lowest.size());
  for (std::size_t i = 0; i < ra.lowest.size(); ++i)
    EXPECT_EQ(ra.lowest[i].coordinates, rb.lowest[i].coordinates);
  EXPECT_EQ(ra.functionCalls, rb.functionCalls);

  BasinHoppingParams other = p;
  other.seed = 43;
  Recorder c;
  BasinHopping(lj, other).run({}, &c);
  EXPECT_NE(a.quenches[1].energy, c.quenches[1].energy) << "another seed, another run";
}

TEST(BasinHopping, StepSizeGrowsBy105WhenAcceptanceIsAboveTarget) {
  LennardJones lj(13);
  BasinHoppingParams p = gminExampleParams(100, 3);
  p.temperature = 1e6;  // Metropolis accepts everything that stays in the container
  p.newRestartSteps = 0;
  p.avoidDistance = 0.0;
  p.stepSize = 0.1;     // small steps: nothing evaporates
  Recorder rec;
  const BasinHoppingResult r = BasinHopping(lj, p).run({}, &rec);
  ASSERT_EQ(rec.adjusts.size(), 2u);
  EXPECT_EQ(rec.adjusts[0].quench, 50);
  EXPECT_GT(rec.adjusts[0].acceptanceRatio, 0.5);
  EXPECT_DOUBLE_EQ(rec.adjusts[0].stepSize, 0.1 * 1.05);
  EXPECT_DOUBLE_EQ(r.finalStepSize, 0.1 * 1.05 * 1.05);
}

TEST(BasinHopping, StepSizeShrinksWhenAcceptanceIsBelowTarget) {
  LennardJones lj(13);
  BasinHoppingParams p = gminExampleParams(50, 3);
  p.temperature = 1e-6;  // only downhill moves are accepted: rare once at the global minimum
  p.newRestartSteps = 0;
  p.avoidDistance = 0.0;
  // Large Cartesian steps and no angular move, so that quenches rarely return to the global
  // minimum (a return is "accepted" whenever the sloppy quench lands a hair lower).
  p.stepSize = 1.5;
  p.angularThreshold = 0.0;
  Recorder rec;
  // Start at the global minimum (found by a first run) so that almost nothing is accepted.
  const std::vector<double> gm = BasinHopping(lj, gminExampleParams(300, 1)).run({}).lowest.front().coordinates;
  BasinHopping(lj, p).run(gm, &rec);
  ASSERT_EQ(rec.adjusts.size(), 1u);
  EXPECT_LT(rec.adjusts[0].acceptanceRatio, 0.5);
  EXPECT_DOUBLE_EQ(rec.adjusts[0].stepSize, 1.5 / 1.05);
}

TEST(BasinHopping, MetropolisNeverAcceptsUphillAtZeroTemperatureLimit) {
  LennardJones lj(13);
  BasinHoppingParams p = gminExampleParams(80, 5);
  p.temperature = 1e-12;
  p.newRestartSteps = 0;
  p.avoidDistance = 0.0;
  Recorder rec;
  BasinHopping(lj, p).run({}, &rec);
  for (std::size_t i = 1; i < rec.quenches.size(); ++i) {
    const QuenchReport& q = rec.quenches[i];
    if (q.accepted) {
      EXPECT_LE(q.energy, rec.quenches[i - 1].markovEnergy + 1e-9);
    }
    EXPECT_LE(q.markovEnergy, rec.quenches[i - 1].markovEnergy);
  }
}

TEST(BasinHopping, NewRestartReseedsAfterQuenchesWithoutImprovement) {
  LennardJones lj(13);
  BasinHoppingParams p = gminExampleParams(200, 8);
  p.newRestartSteps = 10;
  p.avoidDistance = 0.0;
  p.avoidReseeds = true;
  Recorder rec;
  const BasinHoppingResult r = BasinHopping(lj, p).run({}, &rec);
  ASSERT_GT(rec.restarts.size(), 0u);
  EXPECT_EQ(r.restarts, static_cast<long>(rec.restarts.size()));
  for (const RestartReport& rr : rec.restarts)
    EXPECT_EQ(rr.reason, RestartReport::Reason::NoImprovement);
  // GMIN restarts when more than NEWRESTART quenches passed without improvement: consecutive
  // reseeds are at least 11 quenches apart.
  for (std::size_t i = 1; i < rec.restarts.size(); ++i)
    EXPECT_GE(rec.restarts[i].quench - rec.restarts[i - 1].quench, 11);
}

TEST(BasinHopping, AvoidReseedsWhenANewBestIsNearATabooStructure) {
  LennardJones lj(13);
  BasinHoppingParams p = gminExampleParams(200, 9);
  p.newRestartSteps = 5;
  p.avoidDistance = 100.0;  // every structure is "near": the first new best after a reseed
  p.avoidMaxSaved = 3;
  p.avoidReseeds = true;    // AVOID's third field T (GMIN's default)
  Recorder rec;
  const BasinHoppingResult r = BasinHopping(lj, p).run({}, &rec);
  bool sawTaboo = false;
  for (const RestartReport& rr : rec.restarts) {
    EXPECT_TRUE(rr.reseeded);
    sawTaboo |= rr.reason == RestartReport::Reason::Taboo;
    EXPECT_LE(rr.tabooSize, 3u);
  }
  EXPECT_TRUE(sawTaboo);
  EXPECT_EQ(r.restarts, static_cast<long>(rec.restarts.size()));
}

// GMIN's LJ38 example uses AVOID 4.0 20 F: restarts never reseed; the step is rejected instead.
TEST(BasinHopping, AvoidWithFRejectsStepsInsteadOfReseeding) {
  LennardJones lj(13);
  BasinHoppingParams p = gminExampleParams(300, 9);
  p.newRestartSteps = 5;
  p.avoidDistance = 100.0;
  p.avoidMaxSaved = 3;
  p.avoidReseeds = false;
  Recorder rec;
  const BasinHoppingResult r = BasinHopping(lj, p).run({}, &rec);
  EXPECT_EQ(r.restarts, 0);
  long tabooRejections = 0, staleRejections = 0;
  for (const RestartReport& rr : rec.restarts) {
    EXPECT_FALSE(rr.reseeded);
    (rr.reason == RestartReport::Reason::Taboo ? tabooRejections : staleRejections) += 1;
    EXPECT_FALSE(rec.quenches[rr.quench].accepted) << "quench " << rr.quench;
  }
  EXPECT_GT(staleRejections, 0);
  EXPECT_GT(tabooRejections, 0);
}

TEST(BasinHopping, TargetEnergyEndsTheRun) {
  LennardJones lj(13);
  BasinHoppingParams p = gminExampleParams(5000, 2);
  p.targetEnergy = kLj13GlobalMinimum;
  const BasinHoppingResult r = BasinHopping(lj, p).run({});
  ASSERT_TRUE(r.targetReached);
  EXPECT_EQ(r.quenches, r.targetQuench);
  EXPECT_LT(r.quenches, 5000);
  EXPECT_NEAR(r.lowest.front().energy, kLj13GlobalMinimum, 1e-4);
}

TEST(LowestMinima, KeepsDistinctLowestFirstFound) {
  LowestMinima list(3, 0.01);
  EXPECT_TRUE(list.offer({-1.0, {}, 1, 10}));
  EXPECT_FALSE(list.offer({-1.005, {}, 2, 20}));  // same minimum within EDIFF: first kept
  EXPECT_TRUE(list.offer({-3.0, {}, 3, 30}));
  EXPECT_TRUE(list.offer({-2.0, {}, 4, 40}));
  EXPECT_FALSE(list.offer({-0.5, {}, 5, 50}));   // full, higher than all
  EXPECT_TRUE(list.offer({-2.5, {}, 6, 60}));    // pushes -1.0 out
  ASSERT_EQ(list.minima().size(), 3u);
  EXPECT_EQ(list.minima()[0].energy, -3.0);
  EXPECT_EQ(list.minima()[1].energy, -2.5);
  EXPECT_EQ(list.minima()[2].energy, -2.0);
  EXPECT_EQ(list.minima()[0].firstFoundStep, 3);
  EXPECT_FALSE(list.offer({std::nan(""), {}, 7, 70}));
}

TEST(ClusterStepTaker, CartesianDisplacementsStayWithinStepAndContainer) {
  Random random(11);
  std::vector<double> x = randomCluster(20, 3.0, 0.7, random);
  const std::vector<double> before = x;
  ClusterStepTaker taker(5.0, 0.0);
  taker.takeStep(x, 0.3, {}, random);
  double largest = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) largest = std::max(largest, std::abs(x[i] - before[i]));
  EXPECT_LE(largest, 0.3);
  EXPECT_GT(largest, 0.2);  // 60 uniform draws in [-0.3, 0.3]: one beyond 0.2 for sure
  EXPECT_LE(maxRadius(x), 5.0);
}

// A zero step (rigid water's default) moves nothing inside the container and draws nothing, so the
// walker's stream serves only the moves that do something; an atom outside is still pulled in.
TEST(ClusterStepTaker, ZeroStepDrawsNothingAndOnlyPullsAtomsIn) {
  Random random(13);
  std::vector<double> x = randomCluster(20, 3.0, 0.7, random);
  x[0] = 9.0;  // outside the container of radius 5
  const std::vector<double> before = x;
  const std::uint64_t draws = random.draws();
  ClusterStepTaker(5.0, 0.0).takeStep(x, 0.0, {}, random);
  EXPECT_EQ(random.draws(), draws);
  for (std::size_t i = 3; i < x.size(); ++i) EXPECT_EQ(x[i], before[i]);
  EXPECT_NEAR(std::hypot(x[0], x[1], x[2]), std::sqrt(0.99) * 5.0, 1e-12);
}

TEST(ClusterStepTaker, AngularMoveSendsTheWeakestAtomToTheSurface) {
  Random random(12);
  std::vector<double> x = randomCluster(13, 2.0, 0.9, random);
  LennardJones lj(13);
  std::vector<double> vat(13);
  ASSERT_TRUE(lj.perAtomEnergies(x.data(), vat.data()));
  std::size_t weakest = 0;
  for (std::size_t i = 1; i < 13; ++i)
    if (vat[i] > vat[weakest]) weakest = i;
  // Centre-of-mass distance the weakest atom must land at: max distance + 1.
  double com[3] = {0, 0, 0};
  for (std::size_t i = 0; i < 13; ++i)
    for (int k = 0; k < 3; ++k) com[k] += x[3 * i + k] / 13.0;
  double maxd = 0.0;
  for (std::size_t i = 0; i < 13; ++i)
    maxd = std::max(maxd, std::hypot(x[3 * i] - com[0], x[3 * i + 1] - com[1], x[3 * i + 2] - com[2]));
  // ASTEP = 1: the threshold is the lowest atom energy itself, so the weakest atom always moves.
  ClusterStepTaker taker(100.0, 1.0);
  const ClusterStepSummary s = taker.takeStep(x, 0.0, vat, random);
  ASSERT_EQ(s.angularMovedAtom, static_cast<int>(weakest));
  const std::size_t w = weakest;
  EXPECT_NEAR(std::hypot(x[3 * w] - com[0], x[3 * w + 1] - com[1], x[3 * w + 2] - com[2]), maxd + 1.0,
              1e-12);
  // ASTEP ~ 0: the threshold is ~0 and every atom of a bound cluster lies below it: no move.
  ClusterStepTaker strict(100.0, 1e-9);
  EXPECT_EQ(strict.takeStep(x, 0.0, vat, random).angularMovedAtom, -1);
}

TEST(ClusterGeometry, GminDefaultContainerRadius) {
  EXPECT_NEAR(defaultContainerRadius(38), 2.0 + std::cbrt(114.0 / 17.77153175), 1e-15);
  std::vector<double> x = {1, 2, 3, 3, 4, 5};
  removeCentreOfMass(x);
  EXPECT_DOUBLE_EQ(x[0] + x[3], 0.0);
  EXPECT_DOUBLE_EQ(x[2] + x[5], 0.0);
}

}  // namespace
}  // namespace landscape

namespace landscape {
namespace {

// Slow suite (ctest -L slow): LJ38's double-funnel landscape with GMIN's example settings. GMIN
// reports a mean first encounter of 2825 quenches; 20000 steps leave a wide margin per run.
TEST(SlowBasinHopping, Lj38GlobalMinimumFromRandomStarts) {
  LennardJones lj(38);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    BasinHoppingParams p = gminExampleParams(20000, seed);
    p.targetEnergy = -173.928427;
    p.tightRms = 1e-6;
    const BasinHoppingResult r = BasinHopping(lj, p).run({});
    EXPECT_TRUE(r.targetReached) << "seed " << seed;
    EXPECT_NEAR(r.lowest.front().energy, -173.928427, 1e-5) << "seed " << seed;
  }
}

}  // namespace
}  // namespace landscape
