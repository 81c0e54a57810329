// The round-based batched L-BFGS on the CPU (BatchedLbfgsRoundsTwin, the twin of
// gpu/BatchedLbfgsRoundsCuda): its state machine gives the team kernel's program
// (BatchedLbfgsTwin, = the GPU team kernel bit for bit) the same bits when both add in the same
// order over the same potential bits; a structure's bits do not depend on the slots, the refill,
// the threads or the rest of the batch; round-off agreement with the CPU reference (= Lbfgs);
// statuses of a mixed batch; memory and refusals. The GPU side is
// tests/BatchedLbfgsRoundsCudaTest.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "landscape/core/StopRequest.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/minimisation/BatchedLbfgsRoundsTwin.h"
#include "landscape/minimisation/BatchedLbfgsTwin.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/LennardJonesTeam.h"
#include "tests/BatchedStructures.h"

namespace landscape {
namespace {

using namespace batchtest;

// Lennard-Jones in the GPU team kernel's pair order (LennardJonesTeam), as a batched potential:
// the potential bits BatchedLbfgsTwin sees for the same schedule.
class TeamOrderLennardJones : public BatchedPotential {
 public:
  TeamOrderLennardJones(std::size_t atoms, int warps, int tileWidth)
      : m_atoms(atoms),
        m_team(buildPairTileSchedule(static_cast<int>(atoms), tileWidth, 32 * warps), 32 * warps) {}
  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override { return "Lennard-Jones in team order"; }
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override {
    const std::size_t n = dimension();
    for (std::size_t b = 0; b < batch; ++b)
      if (!active || active[b]) energy[b] = m_team.energyGradient(x + b * n, g + b * n);
  }

 private:
  std::size_t m_atoms;
  LennardJonesTeam m_team;
};

BatchedRoundsOptions roundsOptions(int threadsPerStructure, std::size_t resident = 0) {
  BatchedRoundsOptions o;
  o.threadsPerStructure = threadsPerStructure;
  o.residentStructures = resident;
  return o;
}

// The rounds' state machine and the team kernel's loop make the same decisions with the same
// arithmetic: for one warp per structure (32 threads, the same reduction order) over the same
// potential bits, every structure of a mixed batch is the team twin's bit for bit -- and the team
// twin is the GPU team kernel's bit for bit (BatchedLbfgsCuda tests).
TEST(BatchedLbfgsRoundsTwin, IsTheTeamKernelsProgramBitForBit) {
  for (std::size_t atoms : {13, 38}) {
    for (int m : {4, 9}) {
      LbfgsParams params = benchParams(300);
      params.historySize = m;
      const std::vector<double> x0 = mixedBatch(atoms, 17 + atoms, 4);
      const BatchedTeamShape shape{1, 8};
      BatchedLbfgsTwin team(atoms, params, shape, 2);
      TeamOrderLennardJones potential(atoms, shape.warps, shape.tileWidth);
      BatchedLbfgsRoundsTwin rounds(potential, params, roundsOptions(32), 2);
      expectSameBatch(minimiseBatch(rounds, x0), minimiseBatch(team, x0), 3 * atoms,
                      "LJ" + std::to_string(atoms) + ", m = " + std::to_string(m));
    }
  }
  // The line-search failure and history reset path (maxRise 0, no backtracks).
  LbfgsParams params = benchParams(200);
  params.historySize = 7;
  params.maxBacktracks = 0;
  params.maxRise = 0.0;
  params.rmsTolerance = 1e-8;
  const std::vector<double> x0 = mixedBatch(13, 77, 8);
  BatchedLbfgsTwin team(13, params, {1, 8}, 1);
  TeamOrderLennardJones potential(13, 1, 8);
  BatchedLbfgsRoundsTwin rounds(potential, params, roundsOptions(32), 1);
  const MinimisedBatch got = minimiseBatch(rounds, x0);
  expectSameBatch(got, minimiseBatch(team, x0), 39, "m = 7, no backtracks");
  int failures = 0;
  for (const auto& r : got.results) failures += r.status == LbfgsStatus::LineSearchFailed;
  EXPECT_GT(failures, 0);
}

// Slots (and so the refill from the queue), CPU threads and the rest of the batch change nothing.
TEST(BatchedLbfgsRoundsTwin, SameBitsWhateverTheSlotsTheThreadsAndTheRestOfTheBatch) {
  const std::size_t atoms = 38, n = 3 * atoms;
  const LbfgsParams params = benchParams(100);
  const std::vector<double> x0 = mixedBatch(atoms, 23, 6);
  BatchedLennardJones potential(atoms, 1);
  BatchedLbfgsRoundsTwin all(potential, params, roundsOptions(0), 1);
  const MinimisedBatch base = minimiseBatch(all, x0);
  for (std::size_t resident : {1, 3, 7}) {
    for (int threads : {1, 3}) {
      BatchedLbfgsRoundsTwin twin(potential, params, roundsOptions(0, resident), threads);
      expectSameBatch(minimiseBatch(twin, x0), base, n,
                      std::to_string(resident) + " slots, " + std::to_string(threads) + " threads");
    }
  }
  std::vector<double> x1 = x0;
  x1[kRandom * n + 4] += 1e-3;
  const MinimisedBatch changed = minimiseBatch(all, x1);
  for (std::size_t s = 0; s < base.results.size(); ++s) {
    if (s == kRandom) {
      EXPECT_FALSE(sameBits(&base.x[s * n], &changed.x[s * n], n));
      continue;
    }
    expectSameResult(base.results[s], changed.results[s], "structure " + std::to_string(s));
    EXPECT_TRUE(sameBits(&base.x[s * n], &changed.x[s * n], n)) << s;
  }
  std::vector<double> alone(x0.begin() + kCloseOverlap * n, x0.begin() + (kCloseOverlap + 1) * n);
  LbfgsResult r;
  all.minimise(1, alone.data(), &r);
  expectSameResult(r, base.results[kCloseOverlap], "alone");
  EXPECT_TRUE(sameBits(alone.data(), &base.x[kCloseOverlap * n], n));
}

TEST(BatchedLbfgsRoundsTwin, MixedBatchStatusesMatchTheReference) {
  for (std::size_t atoms : {13, 38, 75}) {
    const LbfgsParams params = benchParams(60);
    const std::vector<double> x0 = mixedBatch(atoms, 3 + atoms, 0);
    const MinimisedBatch ref = lbfgsOneByOne(atoms, x0, params);
    BatchedLennardJones potential(atoms, 2);
    BatchedLbfgsRoundsTwin twin(potential, params, {}, 2);
    const MinimisedBatch got = minimiseBatch(twin, x0);
    for (int role : {kNearMinimum, kAtMinimum, kExactOverlap}) {
      EXPECT_EQ(got.results[role].status, ref.results[role].status) << atoms << " role " << role;
      EXPECT_EQ(got.results[role].iterations, ref.results[role].iterations);
      EXPECT_EQ(got.results[role].functionCalls, ref.results[role].functionCalls);
      if (role != kExactOverlap)
        EXPECT_NEAR(got.results[role].energy, ref.results[role].energy,
                    1e-10 * std::abs(ref.results[role].energy));
      else
        EXPECT_FALSE(std::isfinite(got.results[role].energy));
    }
    EXPECT_EQ(got.results[kRandom].status, LbfgsStatus::MaxIterations);
    EXPECT_EQ(got.results[kRandom].iterations, 60);
    EXPECT_GT(got.results[kCloseOverlap].functionCalls, 2);
  }
}

// The brief's tolerance: final energy 1e-10 relative and the same converged flag from starts
// inside one basin (a minimum displaced by 0.1 sigma per coordinate); iteration counts printed.
TEST(BatchedLbfgsRoundsTwin, AgreesWithTheReferenceToRoundOffInsideABasin) {
  for (std::size_t atoms : {13, 38, 75}) {
    const LbfgsParams params = benchParams(10000);
    std::vector<double> x0;
    for (int b = 0; b < 6; ++b) {
      const std::vector<double> s = perturbed(quenchedMinimum(atoms, 200 + b), 0.1, 300 + b);
      x0.insert(x0.end(), s.begin(), s.end());
    }
    const MinimisedBatch ref = lbfgsOneByOne(atoms, x0, params);
    BatchedLennardJones potential(atoms, 1);
    for (int threads : {32, 64}) {
      BatchedLbfgsRoundsTwin twin(potential, params, roundsOptions(threads), 2);
      const MinimisedBatch got = minimiseBatch(twin, x0);
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
          "[ rounds twin vs reference ] LJ%zu, %d threads per structure: %d of %zu iteration "
          "counts equal, largest difference %d\n",
          atoms, threads, sameIterations, ref.results.size(), maxDifference);
    }
  }
}

// Batched Lennard-Jones that requests a stop at its `stopAt`-th batched call.
class StopAfterRounds : public BatchedLennardJones {
 public:
  StopAfterRounds(std::size_t atoms, int stopAt)
      : BatchedLennardJones(atoms, 1), m_stopAt(stopAt) {}
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override {
    BatchedLennardJones::energyGradient(batch, x, g, energy, active);
    if (++m_calls == m_stopAt) requestStop();
  }

 private:
  int m_stopAt, m_calls = 0;
};

// A stop ends the unfinished structures with status Stopped at their last accepted point; those
// that finished earlier keep their results; those still waiting for a slot report NaN.
TEST(BatchedLbfgsRoundsTwin, StopRequestEndsTheUnfinishedStructures) {
  const std::size_t atoms = 13, n = 3 * atoms;
  const LbfgsParams params = benchParams(60);
  const std::vector<double> x0 = mixedBatch(atoms, 53, 2);
  BatchedLennardJones plain(atoms, 1);
  BatchedLbfgsRoundsTwin full(plain, params, roundsOptions(0, 3), 1);
  const MinimisedBatch reference = minimiseBatch(full, x0);
  clearStopRequest();
  StopAfterRounds potential(atoms, 12);
  BatchedLbfgsRoundsTwin twin(potential, params, roundsOptions(0, 3), 1);
  const MinimisedBatch stopped = minimiseBatch(twin, x0);
  const bool stayed = stopRequested();
  clearStopRequest();
  ASSERT_TRUE(stayed);
  int stoppedCount = 0, neverStarted = 0;
  for (std::size_t s = 0; s < stopped.results.size(); ++s) {
    const LbfgsResult& r = stopped.results[s];
    if (r.status != LbfgsStatus::Stopped) {
      expectSameResult(r, reference.results[s], "structure " + std::to_string(s));
      EXPECT_TRUE(sameBits(&stopped.x[s * n], &reference.x[s * n], n));
      continue;
    }
    ++stoppedCount;
    EXPECT_LT(r.iterations, reference.results[s].iterations);
    if (r.functionCalls == 0) {
      ++neverStarted;
      EXPECT_TRUE(std::isnan(r.energy));
      EXPECT_TRUE(sameBits(&stopped.x[s * n], &x0[s * n], n));
    }
  }
  EXPECT_GE(stoppedCount, 2);
  EXPECT_EQ(stopped.results[kAtMinimum].status, LbfgsStatus::Converged);
}

TEST(BatchedLbfgsRoundsTwin, MemoryAndRefusals) {
  const std::size_t atoms = 38, n = 3 * atoms;
  const int m = 4;
  BatchedLennardJones potential(atoms, 1);
  LbfgsParams params = benchParams(10);
  BatchedLbfgsRoundsTwin twin(potential, params, {}, 1);
  // (5 + 2m) n doubles, rho and alpha, the energy, the flag and the 80-byte state per slot; the
  // coordinates and the 32-byte outcome per structure.
  const std::size_t slot = 8 * ((5 + 2 * m) * n + 2 * m + 1) + 1 + 80;
  EXPECT_EQ(twin.memory().bytesPerStructure, slot + 8 * n + 32);
  EXPECT_EQ(roundsSlotBytes(n, m), slot);
  BatchedLbfgsRoundsTwin resident(potential, params, roundsOptions(0, 100), 1);
  EXPECT_EQ(resident.memory().bytesPerStructure, 8 * n + 32);
  EXPECT_EQ(resident.memory().fixedBytes, 100 * slot);
  const std::size_t largest = twin.maxBatch();
  try {
    twin.minimise(largest + 1, nullptr, nullptr);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(
        std::string(e.what()).find("the largest batch that fits is " + std::to_string(largest)),
        std::string::npos)
        << e.what();
  }
  EXPECT_EQ(roundsTeamThreads(39), 32);
  EXPECT_EQ(roundsTeamThreads(912), 128);
  EXPECT_EQ(roundsTeamThreads(7476), 960);
  EXPECT_EQ(roundsTeamThreads(100000), 1024);
  for (BatchedRoundsOptions bad : {roundsOptions(48), roundsOptions(2048), roundsOptions(-32)}) {
    try {
      BatchedLbfgsRoundsTwin t(potential, params, bad, 1);
      FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("threadsPerStructure"), std::string::npos) << e.what();
    }
  }
  BatchedRoundsOptions noPolls;
  noPolls.roundsPerPoll = 0;
  EXPECT_THROW(BatchedLbfgsRoundsTwin(potential, params, noPolls, 1), std::invalid_argument);
  params.historySize = 0;
  EXPECT_THROW(BatchedLbfgsRoundsTwin(potential, params, {}, 1), std::invalid_argument);
}

// The rows a packed tail uses: the deepest level slots / factor^j that holds the structures still
// minimising and keeps at least kRoundsPackedSlotsAtLeast rows.
TEST(BatchedRoundsPlan, PackedSlotsAreTheDeepestLevelThatHoldsTheLive) {
  EXPECT_EQ(roundsPackedSlots(16896, 16896, 4), 16896u);
  EXPECT_EQ(roundsPackedSlots(16896, 4225, 4), 16896u);
  EXPECT_EQ(roundsPackedSlots(16896, 4224, 4), 4224u);
  EXPECT_EQ(roundsPackedSlots(16896, 1056, 4), 1056u);
  EXPECT_EQ(roundsPackedSlots(16896, 100, 4), 264u);
  EXPECT_EQ(roundsPackedSlots(16896, 66, 4), 66u);
  EXPECT_EQ(roundsPackedSlots(16896, 1, 4), 66u);  // 66 / 4 = 16 rows would be too few
  EXPECT_EQ(roundsPackedSlots(100, 1, 4), 100u);
  EXPECT_EQ(roundsPackedSlots(128, 32, 4), 32u);
  EXPECT_EQ(roundsPackedSlots(1024, 33, 2), 64u);
  EXPECT_EQ(roundsPackedSlots(1000, 10, 0), 1000u);
  EXPECT_EQ(kRoundsPackedSlotsAtLeast, 32u);
  for (int bad : {1, -1, -4}) {
    BatchedRoundsOptions o;
    o.packFactor = bad;
    try {
      o.check();
      FAIL() << "no exception for " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("packFactor"), std::string::npos) << e.what();
    }
  }
}

TEST(BatchedMinimiserFactory, RoundsEngine) {
  EXPECT_EQ(parseBatchedEngine("rounds"), BatchedEngine::Rounds);
  EXPECT_EQ(batchedEngineName(BatchedEngine::Rounds), "rounds");
  const BatchedEngineOptions rounds{BatchedEngine::Rounds};
  auto twin = makeBatchedMinimiser({13}, benchParams(100), Backend::Cpu, rounds);
  EXPECT_EQ(twin->dimension(), 39u);
  BatchedLennardJones potential(13, 1);
  auto over = makeBatchedMinimiserOver(potential, benchParams(100), Backend::Cpu, rounds);
  EXPECT_NE(over->name().find("rounds"), std::string::npos);
  try {
    makeBatchedMinimiserOver(potential, benchParams(100), Backend::Cuda, {BatchedEngine::Team});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("rounds engine"), std::string::npos) << e.what();
  }
  try {
    makeBatchedMinimiserOver(potential, benchParams(100), Backend::Cuda,
                             {BatchedEngine::Reference});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not run on cuda"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace landscape
