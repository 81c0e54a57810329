// The batched L-BFGS on the CPU: the reference (BatchedLbfgs) gives each structure exactly the
// iterates of today's Lbfgs with that structure alone -- energies, RMS, iteration and call counts,
// status and coordinates bit for bit -- in batches that mix early convergence, the iteration cap,
// overlapping atoms and a non-finite start; the twin of the GPU kernel (BatchedLbfgsTwin) keeps
// every structure independent of the rest of the batch and agrees with the reference to
// round-off where the descent is not chaotic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "landscape/core/StopRequest.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/minimisation/BatchedLbfgsTwin.h"
#include "landscape/minimisation/BatchedTeamPlan.h"
#include "potentials/BatchedLennardJones.h"
#include "tests/BatchedStructures.h"

namespace landscape {
namespace {

using namespace batchtest;

struct Reference {
  std::vector<double> x;
  std::vector<LbfgsResult> results;
};

// Today's Lbfgs on the CPU, one structure at a time.
Reference singleStructureRuns(std::size_t atoms, const std::vector<double>& x0,
                              const LbfgsParams& params) {
  const std::size_t n = 3 * atoms, batch = x0.size() / n;
  Reference ref{x0, std::vector<LbfgsResult>(batch)};
  LennardJones lj(atoms);
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<double> x(x0.begin() + b * n, x0.begin() + (b + 1) * n);
    const LbfgsResult r = Lbfgs(params).minimize(lj, x);
    std::copy(x.begin(), x.end(), ref.x.begin() + b * n);
    ref.results[b] = r;
  }
  return ref;
}

Reference batchedRun(BatchedMinimiser& minimiser, const std::vector<double>& x0) {
  Reference out{x0, std::vector<LbfgsResult>(x0.size() / minimiser.dimension())};
  minimiser.minimise(out.results.size(), out.x.data(), out.results.data());
  return out;
}

void expectIdentical(const Reference& a, const Reference& b, std::size_t n, const char* what) {
  ASSERT_EQ(a.results.size(), b.results.size());
  for (std::size_t s = 0; s < a.results.size(); ++s) {
    const std::string where = std::string(what) + ", structure " + std::to_string(s);
    expectSameResult(a.results[s], b.results[s], where);
    EXPECT_TRUE(sameBits(&a.x[s * n], &b.x[s * n], n)) << where << ": coordinates differ";
  }
}

TEST(BatchedLbfgs, MixedBatchIsTodaysLbfgsBitForBit) {
  for (std::size_t atoms : {13, 38}) {
    const LbfgsParams params = benchParams(60);
    const std::vector<double> x0 = mixedBatch(atoms, 40 + atoms, 6);
    const Reference ref = singleStructureRuns(atoms, x0, params);
    // The batch covers what it claims to.
    EXPECT_EQ(ref.results[kNearMinimum].status, LbfgsStatus::Converged);
    EXPECT_LE(ref.results[kNearMinimum].iterations, 6);
    EXPECT_GE(ref.results[kNearMinimum].iterations, 1);
    EXPECT_EQ(ref.results[kAtMinimum].iterations, 0);
    EXPECT_EQ(ref.results[kRandom].status, LbfgsStatus::MaxIterations);
    EXPECT_GT(ref.results[kCloseOverlap].functionCalls, 2);
    EXPECT_EQ(ref.results[kExactOverlap].status, LbfgsStatus::NonFiniteEnergy);
    for (int threads : {1, 2, 3}) {
      BatchedLennardJones potential(atoms, threads);
      BatchedLbfgs batched(potential, params, threads);
      expectIdentical(batchedRun(batched, x0), ref, 3 * atoms, "cpu reference");
    }
  }
}

TEST(BatchedLbfgs, FullMinimisationsFromCubeStartsAreTodaysLbfgsBitForBit) {
  const std::size_t atoms = 38;
  std::vector<double> x0;
  for (int b = 0; b < 6; ++b) {
    const std::vector<double> s = cubeStart(atoms, 900 + b);
    x0.insert(x0.end(), s.begin(), s.end());
  }
  const LbfgsParams params = benchParams(10000);
  const Reference ref = singleStructureRuns(atoms, x0, params);
  auto minimiser =
      makeBatchedMinimiser({atoms}, params, Backend::Cpu, {BatchedEngine::Reference, 2});
  expectIdentical(batchedRun(*minimiser, x0), ref, 3 * atoms, "cpu reference, cube starts");
  for (const auto& r : ref.results) EXPECT_TRUE(r.converged());
}

// Batched Lennard-Jones that requests a stop at its `stopAt`-th batched call, as SIGINT would
// between two rounds.
class StopAfterRounds : public BatchedLennardJones {
 public:
  StopAfterRounds(std::size_t atoms, int stopAt) : BatchedLennardJones(atoms, 1), m_stopAt(stopAt) {}
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override {
    BatchedLennardJones::energyGradient(batch, x, g, energy, active);
    if (++m_calls == m_stopAt) requestStop();
  }

 private:
  int m_stopAt, m_calls = 0;
};

// A stop request ends the unfinished structures before the next round: status Stopped, at their
// last accepted point, which is where Lbfgs alone stands after as many iterations (a run capped
// there); structures that had finished keep their results.
TEST(BatchedLbfgs, StopRequestEndsTheUnfinishedStructuresBetweenRounds) {
  const std::size_t atoms = 13, n = 3 * atoms;
  const LbfgsParams params = benchParams(60);
  const std::vector<double> x0 = mixedBatch(atoms, 53, 2);
  const Reference full = singleStructureRuns(atoms, x0, params);
  clearStopRequest();
  StopAfterRounds potential(atoms, 12);
  BatchedLbfgs batched(potential, params, 1);
  const Reference stopped = batchedRun(batched, x0);
  const bool stayed = stopRequested();
  clearStopRequest();
  ASSERT_TRUE(stayed);
  int stoppedCount = 0;
  for (std::size_t s = 0; s < stopped.results.size(); ++s) {
    const LbfgsResult& r = stopped.results[s];
    const std::string where = "structure " + std::to_string(s);
    if (r.status != LbfgsStatus::Stopped) {  // finished within 12 rounds: untouched
      expectSameResult(r, full.results[s], where);
      continue;
    }
    ++stoppedCount;
    EXPECT_FALSE(r.converged());
    EXPECT_LT(r.iterations, full.results[s].iterations) << where;
    if (r.iterations == 0) {  // still in its first line search: the start
      EXPECT_TRUE(sameBits(&stopped.x[s * n], &x0[s * n], n)) << where;
      continue;
    }
    LbfgsParams capped = params;
    capped.maxIterations = r.iterations;
    const Reference alone = singleStructureRuns(
        atoms, std::vector<double>(x0.begin() + s * n, x0.begin() + (s + 1) * n), capped);
    EXPECT_TRUE(sameBits(r.energy, alone.results[0].energy)) << where;
    EXPECT_TRUE(sameBits(&stopped.x[s * n], alone.x.data(), n)) << where;
  }
  EXPECT_GE(stoppedCount, 3);  // the cube starts at least
  EXPECT_EQ(stopped.results[kAtMinimum].status, LbfgsStatus::Converged);
  EXPECT_EQ(stopped.results[kExactOverlap].status, LbfgsStatus::NonFiniteEnergy);
}

TEST(BatchedLbfgs, OtherParametersAndTheLineSearchFailure) {
  // maxRise 0 with no backtracks: some steps fail, the history is cleared and -H0 g tried.
  LbfgsParams params = benchParams(200);
  params.historySize = 7;
  params.maxBacktracks = 0;
  params.maxRise = 0.0;
  params.rmsTolerance = 1e-8;
  const std::size_t atoms = 13;
  const std::vector<double> x0 = mixedBatch(atoms, 77, 8);
  const Reference ref = singleStructureRuns(atoms, x0, params);
  int failures = 0;
  for (const auto& r : ref.results) failures += r.status == LbfgsStatus::LineSearchFailed;
  EXPECT_GT(failures, 0);
  BatchedLennardJones potential(atoms, 2);
  BatchedLbfgs batched(potential, params, 2);
  expectIdentical(batchedRun(batched, x0), ref, 3 * atoms, "m = 7, no backtracks");
}

TEST(BatchedLbfgs, RefusesABatchThatDoesNotFitNamingTheLargestThatDoes) {
  BatchMemory memory{1000, 500, 10'500, "device memory"};
  EXPECT_EQ(memory.largestBatch(), 10u);
  EXPECT_NO_THROW(requireBatchFits(10, memory));
  try {
    requireBatchFits(11, memory);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the largest batch that fits is 10"), std::string::npos)
        << e.what();
  }
  BatchedLennardJones potential(38, 1);
  BatchedLbfgs batched(potential, benchParams(10), 1);
  const std::size_t largest = batched.maxBatch();
  EXPECT_GT(batched.memory().bytesPerStructure, 13 * 114 * sizeof(double));
  try {
    batched.minimise(largest + 1, nullptr, nullptr);  // refused before anything is touched
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(largest)), std::string::npos) << e.what();
  }
  EXPECT_EQ(batched.defaultBatch(), std::min(largest, BatchedMinimiser::kDefaultBatchCap));
}

TEST(BatchedLbfgsTwin, PerturbingOneStructureLeavesTheOthersBitForBit) {
  const std::size_t atoms = 38, n = 3 * atoms;
  const std::vector<double> x0 = mixedBatch(atoms, 11, 3);
  BatchedLbfgsTwin twin(atoms, benchParams(60), {}, 2);
  const Reference base = batchedRun(twin, x0);
  std::vector<double> x1 = x0;
  x1[kRandom * n + 4] += 1e-3;
  const Reference changed = batchedRun(twin, x1);
  for (std::size_t s = 0; s < base.results.size(); ++s) {
    if (s == kRandom) {
      EXPECT_FALSE(sameBits(&base.x[s * n], &changed.x[s * n], n));
      continue;
    }
    expectSameResult(base.results[s], changed.results[s], "structure " + std::to_string(s));
    EXPECT_TRUE(sameBits(&base.x[s * n], &changed.x[s * n], n)) << s;
  }
  // A structure alone is the structure in the batch.
  std::vector<double> alone(x0.begin() + kCloseOverlap * n, x0.begin() + (kCloseOverlap + 1) * n);
  LbfgsResult r;
  twin.minimise(1, alone.data(), &r);
  expectSameResult(r, base.results[kCloseOverlap], "alone");
  EXPECT_TRUE(sameBits(alone.data(), &base.x[kCloseOverlap * n], n));
}

TEST(BatchedLbfgsTwin, MixedBatchStatusesMatchTheReference) {
  for (std::size_t atoms : {13, 38, 75}) {
    const LbfgsParams params = benchParams(60);
    const std::vector<double> x0 = mixedBatch(atoms, 3 + atoms, 0);
    const Reference ref = singleStructureRuns(atoms, x0, params);
    BatchedLbfgsTwin twin(atoms, params, {}, 2);
    const Reference got = batchedRun(twin, x0);
    for (int role : {kNearMinimum, kAtMinimum, kExactOverlap}) {
      EXPECT_EQ(got.results[role].status, ref.results[role].status) << atoms << " role " << role;
      EXPECT_EQ(got.results[role].iterations, ref.results[role].iterations);
      if (role != kExactOverlap)
        EXPECT_NEAR(got.results[role].energy, ref.results[role].energy,
                    1e-10 * std::abs(ref.results[role].energy));
      else
        EXPECT_FALSE(std::isfinite(got.results[role].energy));
    }
    EXPECT_EQ(got.results[kRandom].status, LbfgsStatus::MaxIterations);
    EXPECT_EQ(got.results[kRandom].iterations, 60);
  }
}

// Round-off agreement with the reference, with the tolerance the brief sets: final energy 1e-10
// relative and the same converged flag, from starts inside one basin (a minimum displaced by 0.1
// sigma per coordinate); the iteration counts are compared and their agreement printed.
TEST(BatchedLbfgsTwin, AgreesWithTheReferenceToRoundOffInsideABasin) {
  for (std::size_t atoms : {13, 38, 75}) {
    const LbfgsParams params = benchParams(10000);
    std::vector<double> x0;
    for (int b = 0; b < 6; ++b) {
      const std::vector<double> s = perturbed(quenchedMinimum(atoms, 200 + b), 0.1, 300 + b);
      x0.insert(x0.end(), s.begin(), s.end());
    }
    const Reference ref = singleStructureRuns(atoms, x0, params);
    for (BatchedTeamShape shape : {BatchedTeamShape{1, 0}, BatchedTeamShape{2, 4}}) {
      BatchedLbfgsTwin twin(atoms, params, shape, 2);
      const Reference got = batchedRun(twin, x0);
      int sameIterations = 0, maxDifference = 0;
      for (std::size_t b = 0; b < ref.results.size(); ++b) {
        EXPECT_EQ(got.results[b].converged(), ref.results[b].converged());
        EXPECT_NEAR(got.results[b].energy, ref.results[b].energy,
                    1e-10 * std::abs(ref.results[b].energy))
            << atoms << " atoms, structure " << b;
        const int d = std::abs(got.results[b].iterations - ref.results[b].iterations);
        sameIterations += d == 0;
        maxDifference = std::max(maxDifference, d);
      }
      std::printf(
          "[ twin vs reference ] LJ%zu, %d warps: %d of %zu iteration counts equal, "
          "largest difference %d\n",
          atoms, twin.shape().warps, sameIterations, ref.results.size(), maxDifference);
    }
  }
}

TEST(BatchedMinimiserFactory, ParsesEnginesAndBuildsTheCpuOnes) {
  EXPECT_EQ(parseBatchedEngine("reference"), BatchedEngine::Reference);
  EXPECT_EQ(parseBatchedEngine("team"), BatchedEngine::Team);
  EXPECT_EQ(parseBatchedEngine("rounds"), BatchedEngine::Rounds);
  EXPECT_THROW(parseBatchedEngine("cpu-twin"), std::invalid_argument);
  for (BatchedEngine e : {BatchedEngine::Reference, BatchedEngine::Team}) {
    auto minimiser = makeBatchedMinimiser({13}, benchParams(100), Backend::Cpu, {e, 1});
    EXPECT_EQ(minimiser->dimension(), 39u);
    EXPECT_FALSE(minimiser->name().empty());
  }
  LbfgsParams bad = benchParams(100);
  bad.historySize = 0;
  EXPECT_THROW(makeBatchedMinimiser({13}, bad, Backend::Cpu, {BatchedEngine::Reference, 1}),
               std::invalid_argument);
  EXPECT_THROW(makeBatchedMinimiser({13}, bad, Backend::Cpu, {BatchedEngine::Team, 1}),
               std::invalid_argument);
}

TEST(BatchedTeamPlan, ShapesFromSharedMemory) {
  const SharedMemoryLimits h100;
  EXPECT_EQ(resolveTeamShape({}, 13, 4, h100).warps, 1);
  EXPECT_EQ(resolveTeamShape({}, 38, 4, h100).warps, 1);
  EXPECT_EQ(resolveTeamShape({}, 75, 4, h100).warps, 2);
  EXPECT_EQ(resolveTeamShape({}, 147, 4, h100).warps, 4);
  EXPECT_EQ(lbfgsTeamSharedBytes(441, 4, 4), sizeof(double) * (12 * 441 + 8 + 24));
  EXPECT_THROW(resolveTeamShape({}, 147, 40, h100), std::invalid_argument);  // 1 MB of history
  EXPECT_THROW(resolveTeamShape({3, 0}, 38, 4, h100), std::invalid_argument);
  EXPECT_EQ(resolveTeamShape({2, 16}, 38, 4, h100).tileWidth, 16);
}

}  // namespace
}  // namespace landscape
