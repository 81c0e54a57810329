// The batched minimisers under a potential's metric (docs/lbfgs.md): over local rigid bodies
// (potentials/BatchedRigidBodyPotential) the CPU reference (BatchedLbfgs) is Lbfgs over
// RigidBodyPotential structure by structure bit for bit, with the diagonal metric on and off,
// for Lennard-Jones bodies and rigid Trp-cage on AMBER-GB; the round-based engine's CPU twin
// (BatchedLbfgsRoundsTwin) follows it to round-off inside a basin and reports the angle-axis RMS
// of Ruehle et al. (J. Chem. Theory Comput. 2013) at its minima; the batched potential's metric
// is RigidBodySystem's; compact directions with a metric are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/minimisation/BatchedLbfgsRoundsTwin.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/AmberGb.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/BatchedRigidBodyPotential.h"
#include "potentials/LennardJones.h"
#include "potentials/RigidBodyPotential.h"
#include "tests/BatchedStructures.h"
#include "tests/RigidLayouts.h"

namespace landscape {
namespace {

using namespace batchtest;
using rigidtest::makeLayout;
using rigidtest::perturbedRigidBatch;

// Lbfgs over `single`, one structure of q0 at a time.
MinimisedBatch lbfgsEach(Potential& single, const std::vector<double>& q0,
                         const LbfgsParams& params) {
  const std::size_t n = single.dimension(), batch = q0.size() / n;
  MinimisedBatch ref{q0, std::vector<LbfgsResult>(batch)};
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<double> q(q0.begin() + b * n, q0.begin() + (b + 1) * n);
    ref.results[b] = Lbfgs(params).minimize(single, q);
    std::copy(q.begin(), q.end(), ref.x.begin() + b * n);
  }
  return ref;
}

// Four bodies of 3 to 6 atoms and 6 free atoms (24 Lennard-Jones atoms).
struct RigidLj {
  rigidtest::Layout layout = makeLayout({3, 5, 4, 6}, 6, 11);
  std::size_t atoms = layout.atoms.size() / 3;
  RigidBodySystem system{layout.set, layout.atoms};
};

TEST(BatchedLbfgsMetric, BatchedRigidPotentialHasTheSystemsMetric) {
  const RigidLj lj;
  BatchedLennardJones atomistic(lj.atoms, 1);
  BatchedRigidBodyPotential batched(atomistic, lj.system, 2);
  std::vector<double> w;
  ASSERT_TRUE(batched.diagonalMetric(w));
  EXPECT_EQ(w, lj.system.diagonalMetric());
  ASSERT_TRUE(batched.hasGradientMetric());
  const std::size_t n = lj.system.dimension(), batch = 5;
  const std::vector<double> q = perturbedRigidBatch(lj.system, lj.layout.atoms, batch, 0.05, 0.8, 3);
  std::vector<double> g(q.size()), e(batch);
  evaluateBatch(batched, q, g, e);
  const double untouched = -1.0;
  std::vector<double> rms(batch, untouched);
  const std::vector<std::uint8_t> active = {1, 0, 1, 1, 0};
  batched.rmsGradients(batch, q.data(), g.data(), rms.data(), active.data());
  for (std::size_t b = 0; b < batch; ++b) {
    if (!active[b]) {
      EXPECT_EQ(rms[b], untouched) << b;
      continue;
    }
    EXPECT_TRUE(sameBits(rms[b], lj.system.rmsGradient(&q[b * n], &g[b * n]))) << b;
  }
  // A Cartesian potential has neither: plain sqrt(|g|^2 / n).
  EXPECT_FALSE(atomistic.diagonalMetric(w));
  EXPECT_FALSE(atomistic.hasGradientMetric());
  const std::vector<double> x(lj.layout.atoms);
  std::vector<double> gx(x.size()), ex(1), rx(1);
  evaluateBatch(atomistic, x, gx, ex);
  atomistic.rmsGradients(1, x.data(), gx.data(), rx.data(), nullptr);
  double sum = 0.0;
  for (double v : gx) sum += v * v;
  EXPECT_DOUBLE_EQ(rx[0], std::sqrt(sum / static_cast<double>(gx.size())));
}

// Starts turned and moved away from the lattice, plus the first one's minimum (converged before
// iterating) and a run cut by the iteration cap: every structure's iterates, energies, RMS,
// counts and status are Lbfgs's over RigidBodyPotential, metric on and off.
TEST(BatchedLbfgsMetric, ReferenceIsLbfgsOverRigidBodiesBitForBit) {
  const RigidLj lj;
  LennardJones single(lj.atoms);
  RigidBodyPotential rigid(single, lj.system);
  const std::size_t n = lj.system.dimension();
  for (bool metric : {true, false}) {
    LbfgsParams params = benchParams(3000);
    params.useDiagonalMetric = metric;
    std::vector<double> q0 = perturbedRigidBatch(lj.system, lj.layout.atoms, 5, 0.1, 0.6, 21);
    const MinimisedBatch first = lbfgsEach(rigid, std::vector<double>(q0.begin(), q0.begin() + n),
                                           params);
    q0.insert(q0.end(), first.x.begin(), first.x.end());
    const MinimisedBatch ref = lbfgsEach(rigid, q0, params);
    for (int threads : {1, 3}) {
      BatchedLennardJones atomistic(lj.atoms, 1);
      BatchedRigidBodyPotential batched(atomistic, lj.system, threads);
      BatchedLbfgs engine(batched, params, threads);
      const std::string what = std::string("metric ") + (metric ? "on" : "off") + ", " +
                               std::to_string(threads) + " threads";
      expectSameBatch(minimiseBatch(engine, q0), ref, n, what);
      LbfgsParams capped = params;
      capped.maxIterations = 7;
      BatchedLbfgs cappedEngine(batched, capped, threads);
      expectSameBatch(minimiseBatch(cappedEngine, q0), lbfgsEach(rigid, q0, capped), n,
                      what + ", capped");
    }
    for (std::size_t b = 0; b < 5; ++b) EXPECT_TRUE(ref.results[b].converged()) << b;
    EXPECT_EQ(ref.results[5].iterations, 0);
  }
}

// The metric changes the path (otherwise the test above would not see it): the same starts take
// other iteration counts with and without it.
TEST(BatchedLbfgsMetric, DiagonalMetricChangesThePath) {
  const RigidLj lj;
  BatchedLennardJones atomistic(lj.atoms, 1);
  BatchedRigidBodyPotential batched(atomistic, lj.system, 2);
  const std::vector<double> q0 = perturbedRigidBatch(lj.system, lj.layout.atoms, 4, 0.1, 0.6, 21);
  LbfgsParams on = benchParams(3000), off = on;
  off.useDiagonalMetric = false;
  BatchedLbfgs withMetric(batched, on, 2), without(batched, off, 2);
  const MinimisedBatch a = minimiseBatch(withMetric, q0), b = minimiseBatch(without, q0);
  int differing = 0;
  for (std::size_t s = 0; s < a.results.size(); ++s)
    differing += a.results[s].functionCalls != b.results[s].functionCalls;
  EXPECT_GT(differing, 0);
}

// Rigid Trp-cage (27 bodies, the rest free) on AMBER-GB through the factory: the reference engine
// is Lbfgs over RigidBodyPotential bit for bit (100 iterations of two structures).
TEST(BatchedLbfgsMetric, ReferenceIsLbfgsOverRigidTrpCageBitForBit) {
  const auto trp = rigidtest::loadRigidTrpCage();
  if (!trp) GTEST_SKIP() << "no gb/trpcage data under " << testDataRoot();
  AmberGb gb(*trp->spec.amberTopology, trp->spec.amber);
  RigidBodyPotential single(gb, trp->system);
  const std::vector<double> q0 = perturbedRigidBatch(trp->system, trp->x, 2, 0.05, 0.05, 8);
  LbfgsParams params;
  params.maxIterations = 100;
  auto batched = makeBatchedRigidPotential(trp->spec, trp->system, Backend::Cpu, {});
  auto engine = makeBatchedMinimiserOver(*batched, params, Backend::Cpu,
                                         {BatchedEngine::Reference, 2});
  expectSameBatch(minimiseBatch(*engine, q0), lbfgsEach(single, q0, params),
                  trp->system.dimension(), "rigid trpcage");
}

// The rounds twin under the metric against the reference from starts near minima: same
// convergence, energies within 1e-10 relative (the rounds tests' tolerance), and its RMS is the
// angle-axis RMS at its minimum (RigidBodySystem::rmsGradient there) below the tolerance.
TEST(BatchedLbfgsMetric, RoundsTwinFollowsTheReferenceInsideABasin) {
  const RigidLj lj;
  LennardJones single(lj.atoms);
  RigidBodyPotential rigid(single, lj.system);
  const std::size_t n = lj.system.dimension();
  for (bool metric : {true, false}) {
    LbfgsParams params = benchParams(10000);
    params.useDiagonalMetric = metric;
    const MinimisedBatch minima = lbfgsEach(
        rigid, perturbedRigidBatch(lj.system, lj.layout.atoms, 4, 0.1, 0.6, 31), params);
    std::vector<double> q0 = minima.x;
    Random random(5);
    for (double& v : q0) v += 0.02 * random.symmetric();
    BatchedLennardJones atomistic(lj.atoms, 1);
    BatchedRigidBodyPotential batched(atomistic, lj.system, 2);
    BatchedLbfgs reference(batched, params, 2);
    const MinimisedBatch ref = minimiseBatch(reference, q0);
    for (int threads : {0, 64}) {
      BatchedRoundsOptions options;
      options.threadsPerStructure = threads;
      BatchedLbfgsRoundsTwin twin(batched, params, options, 2);
      const MinimisedBatch got = minimiseBatch(twin, q0);
      for (std::size_t b = 0; b < ref.results.size(); ++b) {
        const std::string where = std::string("metric ") + (metric ? "on" : "off") + ", " +
                                  std::to_string(twin.teamThreads()) + " threads, structure " +
                                  std::to_string(b);
        ASSERT_TRUE(ref.results[b].converged()) << where;
        EXPECT_EQ(got.results[b].converged(), ref.results[b].converged()) << where;
        EXPECT_NEAR(got.results[b].energy, ref.results[b].energy,
                    1e-10 * std::abs(ref.results[b].energy))
            << where;
        std::vector<double> g(n);
        rigid.energyGradient(&got.x[b * n], g.data());
        const double rms = lj.system.rmsGradient(&got.x[b * n], g.data());
        EXPECT_TRUE(sameBits(got.results[b].rmsGradient, rms)) << where;
        EXPECT_LT(rms, params.rmsTolerance) << where;
        std::printf("[ rounds twin vs reference, rigid LJ%zu ] %s: %d vs %d iterations\n",
                    lj.atoms, where.c_str(), got.results[b].iterations,
                    ref.results[b].iterations);
      }
    }
  }
}

// The compact form has no diagonal metric: asked for, it is refused with a sentence; automatic,
// it falls back to two-loop directions; without the metric it is taken.
TEST(BatchedLbfgsMetric, CompactDirectionsWithAMetricAreRefused) {
  const RigidLj lj;
  BatchedLennardJones atomistic(lj.atoms, 1);
  BatchedRigidBodyPotential batched(atomistic, lj.system, 1);
  BatchedRoundsOptions options;
  options.compactFromHistory = 1;
  LbfgsParams params = benchParams(100);
  try {
    BatchedLbfgsRoundsTwin twin(batched, params, options, 1);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no diagonal metric"), std::string::npos) << e.what();
  }
  params.useDiagonalMetric = false;
  BatchedLbfgsRoundsTwin compact(batched, params, options, 1);
  EXPECT_NE(compact.name().find("compact"), std::string::npos) << compact.name();
  BatchedRoundsOptions automatic;
  EXPECT_TRUE(roundsCompactDirections(automatic, 4096, 16));
  EXPECT_FALSE(roundsCompactDirections(automatic, 4096, 16, true));
}

}  // namespace
}  // namespace landscape
