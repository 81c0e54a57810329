// The potential side of the batched engine on the CPU: the thread pool, the batched Lennard-Jones
// reference (bit for bit the single-structure potential, inactive structures untouched), the pair
// tile schedule (every pair once, flush targets distinct) and the team-order twin of the GPU
// evaluation (round-off agreement with the reference).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "landscape/core/PairTileSchedule.h"
#include "landscape/core/Random.h"
#include "landscape/core/TeamTerms.h"
#include "landscape/core/ThreadPool.h"
#include "potentials/AmberGb.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/LennardJones.h"
#include "potentials/LennardJonesTeam.h"
#include "potentials/LennardJonesTeamTerms.h"
#include "potentials/PerStructureBatchedPotential.h"
#include "tests/AshMinima.h"
#include "tests/BatchedStructures.h"

namespace landscape {
namespace {

using batchtest::cubeStart;
using batchtest::sameBits;

TEST(BatchedThreadPool, RunsEveryItemOnceAndRethrows) {
  for (int threads : {1, 2, 3}) {
    ThreadPool pool(threads);
    std::vector<std::atomic<int>> hits(1000);
    for (int repeat = 0; repeat < 3; ++repeat)
      pool.forEach(hits.size(), [&](std::size_t i) { ++hits[i]; });
    for (const auto& h : hits) EXPECT_EQ(h.load(), 3);
    EXPECT_THROW(pool.forEach(10,
                              [](std::size_t i) {
                                if (i == 7) throw std::runtime_error("item 7");
                              }),
                 std::runtime_error);
    pool.forEach(5, [](std::size_t) {});  // usable after an exception
  }
  EXPECT_THROW(ThreadPool(0), std::invalid_argument);
}

// Items handed out `grain` at a time: every item of every count still runs once, whatever the
// grain against the count (a grain larger than the count, one that does not divide it).
TEST(BatchedThreadPool, EveryGrainRunsEveryItemOnce) {
  ThreadPool pool(3);
  for (std::size_t grain : {1, 2, 7, 33, 5000})
    for (std::size_t count : {0, 1, 2, 31, 1000, 4097}) {
      std::vector<std::atomic<int>> hits(count);
      pool.forEach(
          count, [&](std::size_t i) { ++hits[i]; }, grain);
      for (std::size_t i = 0; i < count; ++i)
        EXPECT_EQ(hits[i].load(), 1) << "grain " << grain << ", count " << count << ", item " << i;
    }
  EXPECT_THROW(pool.forEach(
                   3, [](std::size_t) {}, 0),
               std::invalid_argument);
  EXPECT_THROW(pool.forEach(
                   40,
                   [](std::size_t i) {
                     if (i == 17) throw std::runtime_error("item 17");
                   },
                   8),
               std::runtime_error);
}

// The per-thread state a worker needs (a rank's GPU: the CUDA runtime's current device is per host
// thread) is set by the start function on every worker; a failing start reaches the caller.
thread_local int tWorkerMark = 0;

TEST(BatchedThreadPool, EveryWorkerRunsTheStartFunctionFirst) {
  tWorkerMark = 7;  // the caller's thread works too, with its own setting
  ThreadPool::setWorkerStart([] { tWorkerMark = 7; });
  {
    ThreadPool pool(4);
    std::vector<int> seen(400, 0);
    pool.forEach(seen.size(), [&](std::size_t i) {
      std::this_thread::sleep_for(std::chrono::microseconds(50));  // spread over the workers
      seen[i] = tWorkerMark;
    });
    for (int s : seen) EXPECT_EQ(s, 7);
  }
  ThreadPool::setWorkerStart([] { throw std::runtime_error("no such device"); });
  {
    ThreadPool pool(2);
    EXPECT_THROW(pool.forEach(8, [](std::size_t) {}), std::runtime_error);
  }
  ThreadPool::setWorkerStart({});
  ThreadPool pool(2);
  tWorkerMark = 0;
  std::vector<int> seen(100, -1);
  pool.forEach(seen.size(), [&](std::size_t i) { seen[i] = tWorkerMark; });
  for (int s : seen) EXPECT_EQ(s, 0);
}

TEST(BatchedPotential, LennardJonesIsTheSingleStructurePotentialBitForBit) {
  const std::size_t atoms = 38, n = 3 * atoms, batch = 9;
  std::vector<double> x;
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<double> s = cubeStart(atoms, 100 + b);
    x.insert(x.end(), s.begin(), s.end());
  }
  LennardJones single(atoms);
  for (int threads : {1, 3}) {
    BatchedLennardJones batched(atoms, threads);
    std::vector<std::uint8_t> active(batch, 1);
    active[2] = active[5] = 0;
    std::vector<double> g(batch * n, -7.0), e(batch, -7.0);
    batched.energyGradient(batch, x.data(), g.data(), e.data(), active.data());
    for (std::size_t b = 0; b < batch; ++b) {
      if (!active[b]) {  // neither read nor written
        EXPECT_EQ(e[b], -7.0);
        for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(g[b * n + k], -7.0);
        continue;
      }
      std::vector<double> gRef(n);
      const double eRef = single.energyGradient(&x[b * n], gRef.data());
      EXPECT_TRUE(sameBits(e[b], eRef)) << "structure " << b;
      EXPECT_TRUE(sameBits(&g[b * n], gRef.data(), n)) << "structure " << b;
    }
  }
}

// Any Potential batched over threads (one copy per thread): AMBER-GB Ace-Ash-Nme structures get
// the single-structure potential's bits for 1 to 3 threads; masked structures stay untouched.
TEST(BatchedPotential, PerStructureIsTheSingleStructurePotentialBitForBit) {
  const std::optional<AshMinima> ash = makeAshMinima(1e-3);
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  const std::size_t n = ash->first.size(), batch = 7;
  Random random(3);
  std::vector<double> x;
  for (std::size_t b = 0; b < batch; ++b)
    for (double v : ash->first) x.push_back(v + 0.2 * random.symmetric());
  AmberGb single(ash->topology), a(ash->topology), b2(ash->topology), c(ash->topology);
  for (const std::vector<Potential*>& copies :
       {std::vector<Potential*>{&a}, {&a, &b2}, {&a, &b2, &c}}) {
    PerStructureBatchedPotential batched(copies);
    EXPECT_EQ(batched.dimension(), n);
    std::vector<std::uint8_t> active(batch, 1);
    active[1] = active[4] = 0;
    std::vector<double> g(batch * n, -7.0), e(batch, -7.0);
    batched.energyGradient(batch, x.data(), g.data(), e.data(), active.data());
    for (std::size_t s = 0; s < batch; ++s) {
      if (!active[s]) {
        EXPECT_EQ(e[s], -7.0);
        for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(g[s * n + k], -7.0);
        continue;
      }
      std::vector<double> gRef(n);
      const double eRef = single.energyGradient(&x[s * n], gRef.data());
      EXPECT_TRUE(sameBits(e[s], eRef)) << "structure " << s << ", " << batched.name();
      EXPECT_TRUE(sameBits(&g[s * n], gRef.data(), n)) << "structure " << s;
    }
  }
  LennardJones other(4);
  EXPECT_THROW(PerStructureBatchedPotential({&a, &other}), std::invalid_argument);
  EXPECT_THROW(PerStructureBatchedPotential({}), std::invalid_argument);
}

// Every pair i < j exactly once, and within each flush phase of a step no tile twice.
void expectScheduleCoversEveryPairOnce(int atoms, int w, int threads) {
  const PairTileSchedule s = buildPairTileSchedule(atoms, w, threads);
  ASSERT_EQ(s.groups * w, threads);
  ASSERT_EQ(static_cast<int>(s.slots.size()), s.steps * s.groups);
  std::vector<int> seen(static_cast<std::size_t>(atoms) * atoms, 0);
  auto pair = [&](int i, int j) {
    if (i < atoms && j < atoms) ++seen[std::min(i, j) * atoms + std::max(i, j)];
  };
  for (int st = 0; st < s.steps; ++st) {
    std::set<int> firsts, seconds;
    // One kind per step, which every slot's `step` names (the kernels branch on it per group).
    const int step = s.slots[st * s.groups].step;
    for (int q = 0; q < s.groups; ++q) {
      const PairSlot& slot = s.slots[st * s.groups + q];
      EXPECT_EQ(slot.step, step) << "step " << st;
      if (slot.kind == kPairSlotIdle) continue;
      if (step == kPairSlotCross) EXPECT_EQ(slot.kind, kPairSlotCross) << "step " << st;
      if (step != kPairSlotCross) EXPECT_NE(slot.kind, kPairSlotCross) << "step " << st;
      if (step == kPairSlotDiagonalSingle) EXPECT_LT(slot.second, 0) << "step " << st;
      EXPECT_TRUE(firsts.insert(slot.first).second) << "first tile twice in step " << st;
      if (slot.second >= 0)
        EXPECT_TRUE(seconds.insert(slot.second).second) << "second tile twice in step " << st;
      for (int l = 0; l < w; ++l) {
        if (slot.kind == kPairSlotCross) {
          for (int k = 0; k < w; ++k) pair(slot.first * w + l, slot.second * w + (l + k) % w);
          continue;
        }
        for (int tile : {static_cast<int>(slot.first), static_cast<int>(slot.second)}) {
          if (tile < 0) continue;
          for (int k = 1; k <= w / 2; ++k)
            if (k < w / 2 || l < w / 2) pair(tile * w + l, tile * w + (l + k) % w);
        }
      }
    }
  }
  for (int i = 0; i < atoms; ++i)
    for (int j = i + 1; j < atoms; ++j)
      ASSERT_EQ(seen[i * atoms + j], 1)
          << "pair " << i << "," << j << " atoms " << atoms << " w " << w << " threads " << threads;
}

TEST(BatchedPairTileSchedule, EveryPairOnceAndDistinctFlushTargets) {
  for (int atoms : {2, 3, 5, 13, 31, 32, 33, 38, 55, 64, 75, 147})
    for (int w : {4, 8, 16, 32})
      for (int threads : {32, 64, 128}) expectScheduleCoversEveryPairOnce(atoms, w, threads);
  EXPECT_THROW(buildPairTileSchedule(1, 8, 32), std::invalid_argument);
  EXPECT_THROW(buildPairTileSchedule(38, 6, 32), std::invalid_argument);
  EXPECT_THROW(buildPairTileSchedule(38, 8, 48), std::invalid_argument);
}

TEST(BatchedPairTileSchedule, ShortSchedulesForTheBenchmarkClusters) {
  // Lane efficiency = pairs / (rounds x threads); the greedy packing reaches these lower bounds.
  EXPECT_EQ(buildPairTileSchedule(38, 8, 32).steps, 4);  // 13 slots over 4 groups
  EXPECT_EQ(buildPairTileSchedule(38, 4, 32).steps, 7);  // 50 slots over 8 groups
  const int w = choosePairTileWidth(38, 32);
  EXPECT_TRUE(w == 4 || w == 8) << w;
}

TEST(BatchedPairTerms, ClampOfRSquaredKeepsTheReciprocalOnItsFastPath) {
  // Identity on [2^-1000, 2^1000); 0 and tiny values go to the low end (r^-6 still infinite), huge
  // values and NaN to the high end; the reciprocal is the host's division.
  for (double r2 : {std::ldexp(1.0, -1000), 1e-3, 0.7, 1.0, 1.5, 3.0, 1e5, std::ldexp(1.9, 999)})
    EXPECT_TRUE(sameBits(lennardJonesTeamClampR2(r2), r2)) << r2;
  const double low = lennardJonesTeamClampR2(0.0);
  EXPECT_EQ(low, std::ldexp(1.0, -1000));
  EXPECT_GE(lennardJonesTeamClampR2(1e-320), low);  // the low word is kept
  EXPECT_LT(lennardJonesTeamClampR2(1e-320), 2.0 * low);
  const double ir2 = lennardJonesTeamReciprocal(low);
  EXPECT_TRUE(std::isinf(ir2 * ir2 * ir2));
  EXPECT_LE(lennardJonesTeamClampR2(1e305), std::ldexp(2.0, 1000));
  EXPECT_TRUE(std::isfinite(lennardJonesTeamClampR2(INFINITY)));
  EXPECT_TRUE(std::isfinite(lennardJonesTeamClampR2(NAN)));
  EXPECT_TRUE(sameBits(lennardJonesTeamReciprocal(3.0), 1.0 / 3.0));
  // An invalid pair leaves the energy partial's bits and adds 0 x d to the gradients.
  const double xi[3] = {0.1, 0.2, 0.3}, xj[3] = {0.1, 0.2, 0.3};
  double gi[3] = {1.0, -2.0, 0.5}, gj[3] = {-1.0, 2.0, 3.0}, energy = -7.25;
  lennardJonesTeamPair(xi, xj, gi, gj, energy, false);
  EXPECT_EQ(energy, -7.25);
  EXPECT_EQ(gi[1], -2.0);
  EXPECT_EQ(gj[2], 3.0);
}

TEST(BatchedTeamTerms, MirrorReducesInTheButterflyOrder) {
  // 1 + 2^-60 + ... depends on the order; the mirror must equal a lane-0 butterfly written out.
  std::vector<double> v(64);
  for (int i = 0; i < 64; ++i) v[i] = (i % 3 == 0) ? 1.0 : std::ldexp(1.0, -50 - i % 7);
  std::vector<double> copy = v;
  double expected = 0.0;
  for (int w = 0; w < 2; ++w) {
    std::vector<double> lanes(v.begin() + 32 * w, v.begin() + 32 * w + 32);
    for (int o = 16; o >= 1; o /= 2) {
      std::vector<double> next(32);
      for (int l = 0; l < 32; ++l) next[l] = lanes[l] + lanes[l ^ o];
      lanes = next;
    }
    expected = w == 0 ? lanes[0] : expected + lanes[0];
  }
  EXPECT_TRUE(sameBits(teamSumMirror(copy.data(), 64), expected));
  EXPECT_TRUE(teamFinite(1e308) && !teamFinite(INFINITY) && !teamFinite(NAN));
}

TEST(BatchedPotential, TeamOrderTwinAgreesWithTheReferenceToRoundOff) {
  for (std::size_t atoms : {2, 13, 38, 75, 147}) {
    LennardJones reference(atoms);
    const std::vector<double> x = batchtest::quenchedMinimum(atoms, 5);
    const std::vector<double> y = cubeStart(atoms, 6);
    for (int threads : {32, 64, 128}) {
      for (int w : {4, 8, 16, 32}) {
        LennardJonesTeam team(buildPairTileSchedule(static_cast<int>(atoms), w, threads), threads);
        for (const auto* point : {&x, &y}) {
          std::vector<double> g(3 * atoms), gRef(3 * atoms);
          const double e = team.energyGradient(point->data(), g.data());
          const double eRef = reference.energyGradient(point->data(), gRef.data());
          EXPECT_NEAR(e, eRef, 1e-12 * std::max(1.0, std::abs(eRef)));
          double scale = 0.0;
          for (double v : gRef) scale = std::max(scale, std::abs(v));
          for (std::size_t k = 0; k < gRef.size(); ++k)
            EXPECT_NEAR(g[k], gRef[k], 1e-12 * std::max(1.0, scale)) << atoms << " atoms";
        }
      }
    }
  }
}

}  // namespace
}  // namespace landscape
