// pathsample grow's characterisation ahead (src/pathsample/CharacterisationAhead): the worker
// characterises the points of ended runs, skipping those whose energy the network or an earlier
// point already has, and the merge takes them by exact coordinates, computing only the rest; the
// properties are characterise's, bit for bit, whichever points were done ahead. On the GPU, the
// premise: the batched device Hessians of a point are the same bits in a chunk of its own as in
// one call with others.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "backends/HessianBackendFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/paths/Characterisation.h"
#include "potentials/LennardJones.h"
#include "src/pathsample/CharacterisationAhead.h"
#include "tests/AshMinima.h"
#include "tests/Lj7Structures.h"

namespace landscape {
namespace {

std::vector<double> perturbed(std::vector<double> x, double amount) {
  for (std::size_t k = 0; k < x.size(); ++k) x[k] += amount * std::sin(1.7 * k + 0.3);
  return x;
}

void expectSameBits(const StationaryPointProperties& a, const StationaryPointProperties& b) {
  EXPECT_EQ(a.pointGroupOrder, b.pointGroupOrder);
  EXPECT_EQ(a.logProductOfPositiveEigenvalues, b.logProductOfPositiveEigenvalues);
  EXPECT_EQ(a.hessianEigenvalues, b.hessianEigenvalues);
  EXPECT_EQ(a.principalMoments, b.principalMoments);
}

// Three LJ7 structures (two minima and a perturbed one) and a fourth, the first slightly moved:
// another structure of another energy.
struct Lj7Points {
  LennardJones lj{7};
  std::vector<std::vector<double>> x = {lj7PentagonalBipyramid(), lj7CappedOctahedron(),
                                        perturbed(lj7PentagonalBipyramid(), 0.05),
                                        perturbed(lj7PentagonalBipyramid(), 0.01)};
  std::vector<double> energy;
  Lj7Points() {
    for (const std::vector<double>& p : x) energy.push_back(lj.energy(p.data()));
  }
};

// Waits (up to a minute, however loaded the machine) until `count` reaches `target`.
bool reaches(const std::atomic<int>& count, int target) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (count.load() < target && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return count.load() >= target;
}

TEST(CharacterisationAhead, TheMergeTakesThePointsDoneAheadAndComputesTheRest) {
  Lj7Points p;
  std::atomic<int> byWorker{0};
  CharacterisationAhead ahead(
      [&](const std::vector<std::vector<double>>& points) {
        byWorker += static_cast<int>(points.size());
        LennardJones own(7);
        return characteriseTogether(own, points);
      },
      1e-6, 1);
  ahead.know({p.energy[0]});  // point 1 is in the network already
  ahead.add(p.energy[0], p.x[0]);
  ahead.add(p.energy[1], p.x[1]);
  ahead.add(p.energy[2], p.x[2]);
  ahead.add(p.energy[1] + 1e-7, p.x[3]);  // within EDIFFTOL of point 2: a duplicate, skipped
  ahead.allow(true);
  ASSERT_TRUE(reaches(byWorker, 2));
  std::vector<std::vector<double>> asked;
  const CharacterisationAhead::Characterise rest =
      [&](const std::vector<std::vector<double>>& points) {
        asked = points;
        return characteriseTogether(p.lj, points);
      };
  CharacterisationAhead::Use use;
  const std::vector<StationaryPointProperties> found =
      ahead.take({p.x[2], p.x[0], p.x[3], p.x[1]}, rest, &use);
  EXPECT_EQ(byWorker.load(), 2);
  EXPECT_EQ(use.points, 4u);
  EXPECT_EQ(use.ahead, 2u);
  EXPECT_EQ(asked, (std::vector<std::vector<double>>{p.x[0], p.x[3]}));
  ASSERT_EQ(found.size(), 4u);
  for (const auto& [k, point] : {std::pair<int, int>{0, 2}, {1, 0}, {2, 3}, {3, 1}})
    expectSameBits(found[static_cast<std::size_t>(k)], characterise(p.lj, p.x[point]));
  EXPECT_EQ(found[3].pointGroupOrder, 6);  // C3v

  // Once the network holds them, the points done are dropped: asked again, they are computed.
  ahead.know({p.energy[0], p.energy[1], p.energy[2]});
  ahead.take({p.x[1]}, rest, &use);
  EXPECT_EQ(use.ahead, 0u);
  EXPECT_EQ(asked, (std::vector<std::vector<double>>{p.x[1]}));
}

// A worker that fails leaves every point to the merge, which computes them (and would report its
// own failure).
TEST(CharacterisationAhead, AFailedWorkerLeavesThePointsToTheMerge) {
  Lj7Points p;
  std::atomic<int> tried{0};
  CharacterisationAhead ahead(
      [&](const std::vector<std::vector<double>>&) -> std::vector<StationaryPointProperties> {
        ++tried;
        throw std::runtime_error("device lost");
      },
      1e-6, 4);
  ahead.add(p.energy[0], p.x[0]);
  ahead.allow(true);
  ASSERT_TRUE(reaches(tried, 1));
  ahead.add(p.energy[1], p.x[1]);
  CharacterisationAhead::Use use;
  const std::vector<StationaryPointProperties> found = ahead.take(
      {p.x[0], p.x[1]},
      [&](const std::vector<std::vector<double>>& points) {
        return characteriseTogether(p.lj, points);
      },
      &use);
  EXPECT_EQ(use.ahead, 0u);
  EXPECT_EQ(tried.load(), 1);  // not tried again after a failure
  ASSERT_EQ(found.size(), 2u);
  expectSameBits(found[1], characterise(p.lj, p.x[1]));
}

// The premise on the GPU: both Ace-Ash-Nme minima characterised in one call of the batched
// device Hessians (as a merge does) and each in a call of its own (as the worker's chunks may)
// are the same bits.
TEST(CharacterisationAhead, CudaBatchedHessiansGiveTheSameBitsInAnyChunk) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  const std::optional<AshMinima> ash = makeAshMinima(1e-3);
  ASSERT_TRUE(ash) << "gb/ash not found";
  const PotentialSpec spec = ash->spec();
  std::unique_ptr<Potential> device = makePotential(spec, Backend::Cuda);
  CharacterisationParams params;
  params.masses = ash->topology.masses;
  params.backend = gpuHessianBackend(*device);
  useBatchedGpuHessians(params.backend, spec);
  const std::vector<StationaryPointProperties> both =
      characteriseTogether(*device, {ash->first, ash->second}, params);
  ASSERT_EQ(both.size(), 2u);
  expectSameBits(characteriseTogether(*device, {ash->second}, params).at(0), both[1]);
  expectSameBits(characteriseTogether(*device, {ash->first}, params).at(0), both[0]);
  EXPECT_TRUE(std::isfinite(both[0].logProductOfPositiveEigenvalues));
}

}  // namespace
}  // namespace landscape
