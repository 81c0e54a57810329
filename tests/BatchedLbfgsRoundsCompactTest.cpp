// The compact direction of the round-based batched L-BFGS for long histories
// (landscape/minimisation/LbfgsRoundsCompactTerms.h, run by the CPU twin BatchedLbfgsRoundsTwin and by
// gpu/BatchedLbfgsRoundsCompactKernels.cu, whose bits tests/BatchedLbfgsRoundsCudaTest.cpp compares
// with the twin's): one direction against the two-loop recursion (GMIN's Algorithm 2) through a
// history that wraps and is reset; whole runs against the reference GMIN L-BFGS (Lbfgs) on LJ38 and
// on AMBER-GB (Ace-Ash-Nme) at m = 64; the first iteration of the compact engine is the two-loop
// engine's bit for bit; slots and threads change no bit; options and memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/minimisation/BatchedLbfgsRoundsTwin.h"
#include "landscape/minimisation/BatchedTeamPlan.h"
#include "landscape/minimisation/HostTeam.h"
#include "potentials/AmberGb.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/PerStructureBatchedPotential.h"
#include "tests/AshMinima.h"
#include "tests/BatchedStructures.h"

namespace landscape {
namespace {

using namespace batchtest;

BatchedRoundsOptions compactOptions(int from, std::size_t resident = 0) {
  BatchedRoundsOptions o;
  o.compactFromHistory = from;
  o.residentStructures = resident;
  return o;
}

// A host Team with an Owned view (LbfgsTeamTerms.h's two-loop recursion needs one).
class ViewTeam : public HostTeam {
 public:
  using HostTeam::HostTeam;
  struct Owned {
    double* v;
    double& operator[](int q) const { return v[q]; }
  };
};

double maxAbs(const std::vector<double>& v) {
  double a = 0.0;
  for (double x : v) a = std::max(a, std::abs(x));
  return a;
}

// On a quadratic f = x.A x / 2 (A symmetric positive definite, eigenvalues in [1, 5]), pairs are
// accepted one by one as the engine accepts them (lbfgsRoundsAccept); after each, the compact
// direction must be the two-loop recursion's to round-off (both reverse an uphill p and take the
// same first step), through a history of m = 5 that wraps and a reset (length 0) after which the
// stale slots must be ignored.
TEST(BatchedLbfgsRoundsCompact, DirectionIsTheTwoLoopRecursionsThroughWrapAndReset) {
  const int n = 40, m = 5;
  Random random(11);
  std::vector<double> a(n * n, 0.0);  // A = Q diag(1..5) Q^T with Q from Gram-Schmidt
  {
    std::vector<double> q(n * n);
    for (double& v : q) v = random.symmetric();
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < i; ++j) {
        double dot = 0.0;
        for (int c = 0; c < n; ++c) dot += q[i * n + c] * q[j * n + c];
        for (int c = 0; c < n; ++c) q[i * n + c] -= dot * q[j * n + c];
      }
      double norm = 0.0;
      for (int c = 0; c < n; ++c) norm += q[i * n + c] * q[i * n + c];
      for (int c = 0; c < n; ++c) q[i * n + c] /= std::sqrt(norm);
    }
    for (int i = 0; i < n; ++i)
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
          a[r * n + c] += (1.0 + 4.0 * i / (n - 1)) * q[i * n + r] * q[i * n + c];
  }
  auto gradient = [&](const double* x, double* g) {
    for (int r = 0; r < n; ++r) {
      g[r] = 0.0;
      for (int c = 0; c < n; ++c) g[r] += a[r * n + c] * x[c];
    }
  };
  LbfgsParams params;
  params.historySize = m;
  params.maxStep = 0.4;
  const LbfgsTeamSettings set = lbfgsTeamSettings(params, n);
  std::vector<double> x(n), g(n), xt(n), gt(n), s(m * n, 0.0), y(m * n, 0.0), rho(m), alpha(m);
  std::vector<double> p(n), p2(n), store(lbfgsCompactSlotDoubles(n, m), 0.0);
  const LbfgsTeamStorage st{x.data(), g.data(), xt.data(),  gt.data(),
                            s.data(), y.data(), rho.data(), alpha.data()};
  const LbfgsCompactStorage cs = lbfgsCompactLayout(store.data(), n, m);
  for (double& v : x) v = random.symmetric();
  gradient(x.data(), g.data());
  LbfgsRoundsState state{};
  ViewTeam team(n, 32);
  int compared = 0;
  for (int step = 0; step < 14; ++step) {
    if (step == 9) state.history.clear();  // the reset: slots keep stale pairs
    for (int c = 0; c < n; ++c) xt[c] = x[c] + 0.3 * random.symmetric();
    gradient(xt.data(), gt.data());
    lbfgsRoundsAccept(team, st, state.history, set);  // s, y into the ring; x = xt, g = gt
    // Reference first: the two-loop recursion, reversal and first step on a copy of the state.
    LbfgsRoundsState reference = state;
    ViewTeam::Owned view{p2.data()};
    const LbfgsTeamDirection d = lbfgsTeamDirection(team, st, view, state.history, set);
    if (d.directionDotGradient > 0.0)
      for (double& v : p2) v = -v;
    lbfgsStepDirection(reference.step, d.directionDotGradient, d.directionNorm, set.limits());
    state.phase = kRoundsDirection;
    batchedRoundsCompactDirection(st, cs, p.data(), state, set);
    EXPECT_EQ(state.phase, kRoundsTrial);
    EXPECT_EQ(state.step.attempt, 0);
    EXPECT_NEAR(state.step.scale, reference.step.scale, 1e-12 * reference.step.scale) << "step " << step;
    double worst = 0.0;
    for (int c = 0; c < n; ++c) {
      worst = std::max(worst, std::abs(p[c] - p2[c]));
      ASSERT_EQ(xt[c], std::fma(state.step.scale, p[c], x[c]));
    }
    EXPECT_LE(worst, 1e-12 * maxAbs(p2)) << "step " << step << ", history " << state.history.length;
    ++compared;
    std::printf("[ compact vs two-loop ] step %d, history %d (oldest slot %d): |dp| %.2e of %.2e\n",
                step, state.history.length, state.history.oldest, worst, maxAbs(p2));
  }
  EXPECT_EQ(compared, 14);
  EXPECT_EQ(state.history.length, 5);  // 5 pairs after the reset
}

// The first iteration (empty history) takes the two-loop path p = -H0 g in both engines, so with
// a cap of one iteration the compact engine is the two-loop engine bit for bit.
TEST(BatchedLbfgsRoundsCompact, FirstIterationIsTheTwoLoopEnginesBitForBit) {
  const std::size_t atoms = 38;
  LbfgsParams params = benchParams(1);
  params.historySize = 64;
  const std::vector<double> x0 = mixedBatch(atoms, 5, 3);
  BatchedLennardJones potential(atoms, 1);
  BatchedLbfgsRoundsTwin compact(potential, params, compactOptions(8), 2);
  BatchedLbfgsRoundsTwin twoLoop(potential, params, compactOptions(-1), 2);
  EXPECT_NE(compact.name().find("compact"), std::string::npos);
  EXPECT_EQ(twoLoop.name().find("compact"), std::string::npos);
  expectSameBatch(minimiseBatch(compact, x0), minimiseBatch(twoLoop, x0), 3 * atoms,
                  "one iteration");
}

// LJ38 at m = 64 (compact from m = 8): iterates follow the reference GMIN L-BFGS (Lbfgs, the
// two-loop recursion) to 1e-12 sigma for the first 20 iterations from starts inside a basin, and
// every run ends at the reference's minimum: energy to 1e-8 relative, the same converged flag.
TEST(BatchedLbfgsRoundsCompact, FollowsTheReferenceOnLj38) {
  const std::size_t atoms = 38;
  std::vector<double> x0;
  for (int b = 0; b < 4; ++b) {
    const std::vector<double> s = perturbed(quenchedMinimum(atoms, 400 + b), 0.1, 500 + b);
    x0.insert(x0.end(), s.begin(), s.end());
  }
  BatchedLennardJones potential(atoms, 1);
  for (int cap : {2, 5, 20}) {
    LbfgsParams params = benchParams(cap);
    params.historySize = 64;
    const MinimisedBatch ref = lbfgsOneByOne(atoms, x0, params);
    BatchedLbfgsRoundsTwin twin(potential, params, compactOptions(8), 2);
    const MinimisedBatch got = minimiseBatch(twin, x0);
    double worst = 0.0;
    for (std::size_t i = 0; i < x0.size(); ++i)
      worst = std::max(worst, std::abs(got.x[i] - ref.x[i]));
    for (std::size_t b = 0; b < ref.results.size(); ++b)
      EXPECT_EQ(got.results[b].iterations, ref.results[b].iterations) << cap << " " << b;
    EXPECT_LE(worst, 1e-12) << "after " << cap << " iterations";
    std::printf("[ compact vs reference ] LJ38, m = 64, %d iterations: largest |dx| %.2e\n", cap,
                worst);
  }
  LbfgsParams params = benchParams(10000);
  params.historySize = 64;
  const MinimisedBatch ref = lbfgsOneByOne(atoms, x0, params);
  BatchedLbfgsRoundsTwin twin(potential, params, compactOptions(8), 2);
  const MinimisedBatch got = minimiseBatch(twin, x0);
  for (std::size_t b = 0; b < ref.results.size(); ++b) {
    EXPECT_TRUE(ref.results[b].converged());
    EXPECT_EQ(got.results[b].converged(), ref.results[b].converged());
    EXPECT_NEAR(got.results[b].energy, ref.results[b].energy,
                1e-8 * std::abs(ref.results[b].energy));
    std::printf("[ compact vs reference ] LJ38 structure %zu: %d vs %d iterations\n", b,
                got.results[b].iterations, ref.results[b].iterations);
  }
}

// AMBER-GB (Ace-Ash-Nme, 25 atoms) at m = 64 from displaced minima: the iterates follow the
// reference's to 1e-10 Angstrom for the first 20 iterations, and the compact engine ends where the
// reference ends, energy to 1e-8 relative.
TEST(BatchedLbfgsRoundsCompact, FollowsTheReferenceOnAmberGb) {
  const std::optional<AshMinima> ash = makeAshMinima();
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  AmberGb reference(ash->topology), copy(ash->topology);
  LbfgsParams params;
  params.historySize = 64;
  params.maxStep = 0.4;
  params.maxRise = 1e-4;
  params.rmsTolerance = 1e-5;
  params.maxIterations = 20000;
  Random random(3);
  const std::size_t n = ash->first.size();
  std::vector<double> x0;
  for (int b = 0; b < 3; ++b)
    for (double v : ash->first) x0.push_back(v + 0.1 * random.symmetric());
  PerStructureBatchedPotential batched({&copy});
  for (int cap : {5, 20}) {  // the first iterations: the reference's iterates to round-off
    LbfgsParams capped = params;
    capped.maxIterations = cap;
    BatchedLbfgsRoundsTwin twin(batched, capped, compactOptions(8), 1);
    const MinimisedBatch got = minimiseBatch(twin, x0);
    double worst = 0.0;
    for (std::size_t b = 0; b < 3; ++b) {
      std::vector<double> x(x0.begin() + b * n, x0.begin() + (b + 1) * n);
      Lbfgs(capped).minimize(reference, x);
      for (std::size_t i = 0; i < n; ++i)
        worst = std::max(worst, std::abs(got.x[b * n + i] - x[i]));
    }
    EXPECT_LE(worst, 1e-10) << "after " << cap << " iterations";
    std::printf(
        "[ compact vs reference ] Ace-Ash-Nme, m = 64, %d iterations: largest |dx| %.2e A\n", cap,
        worst);
  }
  BatchedLbfgsRoundsTwin twin(batched, params, compactOptions(8), 1);
  const MinimisedBatch got = minimiseBatch(twin, x0);
  for (std::size_t b = 0; b < 3; ++b) {
    std::vector<double> x(x0.begin() + b * n, x0.begin() + (b + 1) * n);
    const LbfgsResult r = Lbfgs(params).minimize(reference, x);
    EXPECT_TRUE(r.converged());
    EXPECT_EQ(got.results[b].converged(), r.converged());
    EXPECT_NEAR(got.results[b].energy, r.energy, 1e-8 * std::abs(r.energy)) << b;
    std::printf(
        "[ compact vs reference ] Ace-Ash-Nme start %zu: E %.10f vs %.10f, %d vs %d "
        "iterations\n",
        b, got.results[b].energy, r.energy, got.results[b].iterations, r.iterations);
  }
}

// Slots (refill from the queue), CPU threads and the rest of the batch change no bit of the
// compact engine either; a history that wraps (m = 16 < iterations) included.
TEST(BatchedLbfgsRoundsCompact, SameBitsWhateverTheSlotsAndThreads) {
  const std::size_t atoms = 38, n = 3 * atoms;
  LbfgsParams params = benchParams(120);
  params.historySize = 16;
  const std::vector<double> x0 = mixedBatch(atoms, 29, 4);
  BatchedLennardJones potential(atoms, 1);
  BatchedLbfgsRoundsTwin all(potential, params, compactOptions(16), 1);
  const MinimisedBatch base = minimiseBatch(all, x0);
  EXPECT_EQ(base.results[kRandom].iterations, 120);
  for (std::size_t resident : {1, 3})
    for (int threads : {1, 3}) {
      BatchedLbfgsRoundsTwin twin(potential, params, compactOptions(16, resident), threads);
      expectSameBatch(minimiseBatch(twin, x0), base, n,
                      std::to_string(resident) + " slots, " + std::to_string(threads) + " threads");
    }
  std::vector<double> alone(x0.begin() + kRandom * n, x0.begin() + (kRandom + 1) * n);
  LbfgsResult r;
  all.minimise(1, alone.data(), &r);
  expectSameResult(r, base.results[kRandom], "alone");
  EXPECT_TRUE(sameBits(alone.data(), &base.x[kRandom * n], n));
}

// The reset path (maxRise 0 and no backtracks: every rise fails the step, the history is cleared
// and -H0 g tried once more, a second failure ends the run): the compact engine makes the two-loop
// engine's decisions -- statuses, iterations and calls -- and restarts from an empty history
// (two-loop p = -H0 g) exactly as it does.
TEST(BatchedLbfgsRoundsCompact, ResetPathMakesTheTwoLoopEnginesDecisions) {
  LbfgsParams params = benchParams(200);
  params.historySize = 7;
  params.maxBacktracks = 0;
  params.maxRise = 0.0;
  params.rmsTolerance = 1e-8;
  const std::vector<double> x0 = mixedBatch(13, 77, 8);
  BatchedLennardJones potential(13, 1);
  BatchedLbfgsRoundsTwin compact(potential, params, compactOptions(1), 1);
  BatchedLbfgsRoundsTwin twoLoop(potential, params, compactOptions(-1), 1);
  const MinimisedBatch got = minimiseBatch(compact, x0), ref = minimiseBatch(twoLoop, x0);
  int failures = 0, resumed = 0;
  for (std::size_t b = 0; b < ref.results.size(); ++b) {
    EXPECT_EQ(got.results[b].status, ref.results[b].status) << b;
    EXPECT_EQ(got.results[b].iterations, ref.results[b].iterations) << b;
    EXPECT_EQ(got.results[b].functionCalls, ref.results[b].functionCalls) << b;
    // Calls beyond the start, the accepted steps and the final two failed trials: a reset whose
    // steepest-descent step was accepted, after which the history was rebuilt from empty.
    resumed += ref.results[b].functionCalls > ref.results[b].iterations + 3;
    std::printf("[ compact reset ] structure %zu: %s %d iterations %lld calls vs %s %d %lld\n", b,
                lbfgsStatusName(got.results[b].status).c_str(), got.results[b].iterations,
                static_cast<long long>(got.results[b].functionCalls),
                lbfgsStatusName(ref.results[b].status).c_str(), ref.results[b].iterations,
                static_cast<long long>(ref.results[b].functionCalls));
    failures += ref.results[b].status == LbfgsStatus::LineSearchFailed;
  }
  EXPECT_GT(failures, 0);
  EXPECT_GT(resumed, 0);
}

TEST(BatchedLbfgsRoundsCompact, OptionsAndMemory) {
  BatchedRoundsOptions o;
  EXPECT_FALSE(roundsCompactDirections(o, 7476, 4));    // myoglobin, m = 4: two-loop
  EXPECT_TRUE(roundsCompactDirections(o, 7476, 1000));  // myoglobin, m = 1000: compact
  EXPECT_TRUE(roundsCompactDirections(o, 7476, 8));
  EXPECT_FALSE(roundsCompactDirections(o, 7476, 7));
  EXPECT_FALSE(roundsCompactDirections(o, 1500, 1000));  // n < 2 m
  EXPECT_FALSE(roundsCompactDirections(o, 1023, 32));    // small structures: two-loop
  EXPECT_FALSE(roundsCompactDirections(o, 114, 1000));   // LJ38
  o.compactFromHistory = 8;
  EXPECT_TRUE(roundsCompactDirections(o, 114, 8));
  EXPECT_FALSE(roundsCompactDirections(o, 114, 7));
  o.compactFromHistory = -1;
  EXPECT_FALSE(roundsCompactDirections(o, 7476, 1000));
  o.compactFromHistory = -2;
  EXPECT_THROW(o.check(), std::invalid_argument);
  // Bytes: the two-loop slot plus 3 m^2 + 8 m + ceil(m / 64) n + 2 ceil(n / 256) doubles and a
  // pending flag (m = 100, n = 114: 2 chunks, 1 block).
  const std::size_t n = 114, m = 100;
  EXPECT_EQ(roundsSlotBytes(n, m, true),
            roundsSlotBytes(n, m) + 8 * (3 * m * m + 8 * m + 2 * n + 2) + 1);
  LbfgsParams params = benchParams(10);
  params.historySize = static_cast<int>(m);
  BatchedLennardJones potential(38, 1);
  BatchedLbfgsRoundsTwin twin(potential, params, compactOptions(50), 1);
  EXPECT_EQ(twin.memory().bytesPerStructure, roundsSlotBytes(n, m, true) + roundsStructureBytes(n));
}

}  // namespace
}  // namespace landscape
