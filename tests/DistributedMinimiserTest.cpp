// src/common/DistributedMinimiser: a batch split over K ranks gives every rank the whole batch's minima
// and results, bit for bit those of one minimiser quenching the whole batch. Here the ranks are
// threads that exchange through memory (ThreadRanks), so the split, the wire format and the
// reassembly are tested in every build, MPI or not; tests/MpiGminTest.cpp runs real MPI ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "landscape/minimisation/ParallelLbfgs.h"
#include "src/common/DistributedMinimiser.h"
#include "tests/BatchedStructures.h"
#include "tests/ThreadRanks.h"

namespace landscape {
namespace {

using namespace batchtest;

TEST(DistributedMinimiser, SlicesCoverTheBatchInRankOrderAndDifferByAtMostOne) {
  for (std::size_t batch = 0; batch <= 11; ++batch)
    for (int size = 1; size <= 4; ++size) {
      std::size_t next = 0, smallest = batch, largest = 0;
      for (int rank = 0; rank < size; ++rank) {
        const BatchSlice s = batchSlice(batch, rank, size);
        EXPECT_EQ(s.first, next) << batch << " over " << size;
        next = s.last;
        smallest = std::min(smallest, s.count());
        largest = std::max(largest, s.count());
      }
      EXPECT_EQ(next, batch);
      EXPECT_LE(largest - smallest, 1u);
    }
  EXPECT_THROW(batchSlice(4, 2, 2), std::invalid_argument);
}

// 8 LJ13 structures (converging, converged, iteration cap, huge and non-finite energies) over 1, 2
// and 3 ranks: each rank ends with the one-minimiser batch, every coordinate and result field.
TEST(DistributedMinimiser, SplitBatchEqualsOneMinimiserBitForBit) {
  const std::size_t atoms = 13, n = 3 * atoms;
  const std::vector<double> start = mixedBatch(atoms, 21, 3);
  const std::size_t batch = start.size() / n;
  LennardJones lj(atoms);
  ParallelLbfgs whole({&lj}, benchParams(60));
  std::vector<double> expected = start;
  std::vector<LbfgsResult> expectedResults(batch);
  whole.minimise(batch, expected.data(), expectedResults.data());

  for (int size : {1, 2, 3}) {
    ThreadExchange exchange(size);
    std::vector<std::vector<double>> x(static_cast<std::size_t>(size), start);
    std::vector<std::vector<LbfgsResult>> results(static_cast<std::size_t>(size),
                                                         std::vector<LbfgsResult>(batch));
    std::vector<std::thread> threads;
    for (int r = 0; r < size; ++r)
      threads.emplace_back([&, r] {
        const std::size_t i = static_cast<std::size_t>(r);
        ThreadRanks ranks(exchange, r);
        LennardJones own(atoms);
        DistributedMinimiser split(
            std::make_unique<ParallelLbfgs>(std::vector<Potential*>{&own}, benchParams(60)), ranks);
        split.minimise(batch, x[i].data(), results[i].data());
      });
    for (std::thread& t : threads) t.join();
    for (int r = 0; r < size; ++r) {
      const std::size_t i = static_cast<std::size_t>(r);
      EXPECT_TRUE(sameBits(x[i].data(), expected.data(), expected.size()))
          << "rank " << r << " of " << size;
      for (std::size_t b = 0; b < batch; ++b)
        expectSameResult(results[i][b], expectedResults[b],
                         "structure " + std::to_string(b) + " on rank " + std::to_string(r));
    }
  }
}

// Ranks whose copies of the batch differ (one bit of one coordinate) both stop with an error that
// names the divergence, rather than mixing each other's minima into their walkers.
TEST(DistributedMinimiser, RanksHoldingDifferentBatchesStopWithAnError) {
  const std::size_t atoms = 13;
  const std::vector<double> start = mixedBatch(atoms, 22, 1);
  const std::size_t batch = start.size() / (3 * atoms);
  ThreadExchange exchange(2);
  std::vector<std::string> errors(2);
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r)
    threads.emplace_back([&, r] {
      std::vector<double> x = start;
      if (r == 1) x.back() = std::nextafter(x.back(), 1e9);
      std::vector<LbfgsResult> results(batch);
      ThreadRanks ranks(exchange, r);
      LennardJones own(atoms);
      DistributedMinimiser split(
          std::make_unique<ParallelLbfgs>(std::vector<Potential*>{&own}, benchParams(60)), ranks);
      try {
        split.minimise(batch, x.data(), results.data());
      } catch (const std::runtime_error& e) {
        errors[static_cast<std::size_t>(r)] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::string& e : errors)
    EXPECT_NE(e.find("hold different structures for the same batch"), std::string::npos) << e;
}

}  // namespace
}  // namespace landscape
