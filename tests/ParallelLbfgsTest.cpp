// The batched CPU minimiser bench_history and optim use: ParallelLbfgs gives each structure of a
// batch today's single-structure Lbfgs run bit for bit -- energy, RMS gradient, iterations, calls,
// status and coordinates -- whatever the thread count, for Lennard-Jones starts made as
// bench_history makes them (a quenched random cluster with uniform displacements) at the settings
// of Mantell et al. 2016 over a range of history sizes, and for AMBER-GB (Ace-Ash-Nme), where the
// threads' potentials are separate copies of one topology.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/ParallelLbfgs.h"
#include "potentials/AmberGb.h"
#include "potentials/LennardJones.h"
#include "tests/AshMinima.h"

namespace landscape {
namespace {

// bench_history's settings at history size m.
LbfgsParams historyParams(int m) {
  LbfgsParams p;
  p.historySize = m;
  p.maxStep = 0.4;
  p.maxRise = 1e-4;
  p.rmsTolerance = 1e-5;
  p.maxIterations = 100000;
  return p;
}

// bench_history's Lennard-Jones starts: a random cluster quenched to RMS 1e-3, then each start
// displaced uniformly by up to dx per coordinate.
std::vector<std::vector<double>> historyStarts(std::size_t atoms, int count, double dx) {
  Random random(1);
  std::vector<double> base = randomCluster(atoms, defaultContainerRadius(atoms), 0.7, random);
  LennardJones lj(atoms);
  LbfgsParams quench;
  quench.rmsTolerance = 1e-3;
  Lbfgs(quench).minimize(lj, base);
  std::vector<std::vector<double>> starts(count, base);
  for (auto& s : starts)
    for (double& v : s) v += dx * random.symmetric();
  return starts;
}

// The batch through `minimiser` against one Lbfgs run per start on `single`, bit for bit.
void expectEachStartIsTheSingleRun(BatchedMinimiser& minimiser, Potential& single,
                                   const LbfgsParams& params,
                                   const std::vector<std::vector<double>>& starts) {
  const std::size_t n = single.dimension(), k = starts.size();
  std::vector<double> batch;
  for (const auto& s : starts) batch.insert(batch.end(), s.begin(), s.end());
  std::vector<LbfgsResult> results(k);
  minimiser.minimise(k, batch.data(), results.data());
  for (std::size_t b = 0; b < k; ++b) {
    std::vector<double> x = starts[b];
    const LbfgsResult r = Lbfgs(params).minimize(single, x);
    SCOPED_TRACE("start " + std::to_string(b) + ", m " + std::to_string(params.historySize) +
                 ", " + minimiser.name());
    EXPECT_EQ(results[b].energy, r.energy);
    EXPECT_EQ(results[b].rmsGradient, r.rmsGradient);
    EXPECT_EQ(results[b].iterations, r.iterations);
    EXPECT_EQ(results[b].functionCalls, r.functionCalls);
    EXPECT_EQ(results[b].status, r.status);
    EXPECT_EQ(std::memcmp(&batch[b * n], x.data(), n * sizeof(double)), 0);
  }
}

TEST(ParallelLbfgs, EachLennardJonesStartIsTheSingleStructureRunBitForBit) {
  const std::size_t atoms = 13;
  const auto starts = historyStarts(atoms, 7, 0.3);
  LennardJones reference(atoms), a(atoms), b(atoms), c(atoms);
  int converged = 0;
  for (int m : {4, 50, 250}) {
    for (const std::vector<Potential*>& threads :
         {std::vector<Potential*>{&a}, {&a, &b}, {&a, &b, &c}}) {
      ParallelLbfgs minimiser(threads, historyParams(m));
      expectEachStartIsTheSingleRun(minimiser, reference, historyParams(m), starts);
    }
    std::vector<double> x = starts.front();
    converged += Lbfgs(historyParams(m)).minimize(reference, x).converged();
  }
  EXPECT_EQ(converged, 3);  // the comparison is between finished minimisations
}

TEST(ParallelLbfgs, EachAmberStartIsTheSingleStructureRunBitForBit) {
  const std::optional<AshMinima> ash = makeAshMinima();
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  AmberGb reference(ash->topology), a(ash->topology), b(ash->topology);
  Random random(7);
  std::vector<std::vector<double>> starts(3, ash->first);
  for (auto& s : starts)
    for (double& v : s) v += 0.1 * random.symmetric();  // bench_history's AMBER displacement
  ParallelLbfgs minimiser({&a, &b}, historyParams(10));
  expectEachStartIsTheSingleRun(minimiser, reference, historyParams(10), starts);
}

TEST(ParallelLbfgs, RefusesABatchThatDoesNotFitNamingTheLargestThatDoes) {
  LennardJones lj(13);
  ParallelLbfgs minimiser({&lj}, historyParams(4));
  const BatchMemory memory = minimiser.memory();
  // Per structure: its coordinates and its result.
  EXPECT_EQ(memory.bytesPerStructure, 39 * sizeof(double) + sizeof(LbfgsResult));
  EXPECT_GT(memory.availableBytes, 0u);
  const std::size_t largest = minimiser.maxBatch();
  EXPECT_EQ(largest, (memory.availableBytes - memory.fixedBytes) / memory.bytesPerStructure);
  try {
    minimiser.minimise(largest + 1, nullptr, nullptr);  // refused before anything is touched
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the largest batch that fits is " +
                                         std::to_string(largest)),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace landscape
