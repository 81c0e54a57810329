// Hessians of several stationary points through one batched potential
// (landscape/minimisation/BatchedNumericalHessian) against numericalHessian, its one-structure
// twin: bit for bit over the CPU batched potentials (their gradients are the single potential's
// bits), for any call size; on the GPU batched potentials within round-off (skipped without a
// device).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "backends/HessianBackendFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/minimisation/BatchedNumericalHessian.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "landscape/paths/Characterisation.h"
#include "potentials/AmberGb.h"
#include "potentials/LennardJones.h"
#include "tests/AshMinima.h"
#include "tests/Lj7Structures.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedNumericalHessianCuda.h"
#endif

namespace landscape {
namespace {

std::vector<double> perturbed(std::vector<double> x, double amount) {
  for (std::size_t k = 0; k < x.size(); ++k) x[k] += amount * std::sin(1.7 * k + 0.3);
  return x;
}

std::vector<std::vector<double>> lj7Points() {
  return {lj7PentagonalBipyramid(), lj7CappedOctahedron(),
          perturbed(lj7PentagonalBipyramid(), 0.05)};
}

PotentialSpec ljSpec(std::size_t atoms) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::LennardJones;
  spec.atoms = atoms;
  return spec;
}

TEST(BatchedNumericalHessian, EqualsNumericalHessianBitForBitOnTheCpuForAnyCallSize) {
  LennardJones single(7);
  const std::vector<std::vector<double>> points = lj7Points();
  std::unique_ptr<BatchedPotential> batched =
      makeBatchedPotentialForSpec(ljSpec(7), Backend::Cpu, {2});
  for (std::size_t maxBatch : {0, 1, 2, 7, 42, 1000}) {
    BatchedHessianParams params;
    params.maxBatch = maxBatch;
    const std::vector<Eigen::MatrixXd> h = batchedNumericalHessians(*batched, points, params);
    ASSERT_EQ(h.size(), points.size());
    for (std::size_t p = 0; p < points.size(); ++p) {
      const Eigen::MatrixXd reference = numericalHessian(single, points[p]);
      EXPECT_EQ((h[p] - reference).cwiseAbs().maxCoeff(), 0.0)
          << "point " << p + 1 << ", maxBatch " << maxBatch;
    }
  }
}

TEST(BatchedNumericalHessian, AmberGbOverCpuThreadsEqualsNumericalHessian) {
  const std::optional<AshMinima> ash = makeAshMinima(1e-3);
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  AmberGb single(ash->topology);
  const PotentialSpec spec = ash->spec();
  std::unique_ptr<BatchedPotential> batched = makeBatchedPotentialForSpec(spec, Backend::Cpu, {2});
  BatchedHessianParams params;
  params.maxBatch = 31;  // odd: rounded down to 30 so that +h and -h share a call
  const std::vector<Eigen::MatrixXd> h =
      batchedNumericalHessians(*batched, {ash->first, ash->second}, params);
  EXPECT_EQ((h[0] - numericalHessian(single, ash->first)).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ((h[1] - numericalHessian(single, ash->second)).cwiseAbs().maxCoeff(), 0.0);
}

void expectSameProperties(const StationaryPointProperties& a, const StationaryPointProperties& b,
                          double tolerance) {
  EXPECT_EQ(a.pointGroupOrder, b.pointGroupOrder);
  EXPECT_NEAR(a.logProductOfPositiveEigenvalues, b.logProductOfPositiveEigenvalues,
              tolerance * std::fabs(b.logProductOfPositiveEigenvalues));
  ASSERT_EQ(a.hessianEigenvalues.size(), b.hessianEigenvalues.size());
  for (std::size_t k = 0; k < a.hessianEigenvalues.size(); ++k)
    EXPECT_NEAR(a.hessianEigenvalues[k], b.hessianEigenvalues[k],
                tolerance * (1.0 + std::fabs(b.hessianEigenvalues[k])));
  for (int k = 0; k < 3; ++k) EXPECT_EQ(a.principalMoments[k], b.principalMoments[k]);
}

// optim's characterisation of a cycle's new points together (characteriseTogether with batched
// Hessians) is characterise point by point: bit for bit on the CPU.
TEST(BatchedNumericalHessian, CharacteriseTogetherIsCharacterisePointByPoint) {
  LennardJones single(7);
  std::unique_ptr<BatchedPotential> batched =
      makeBatchedPotentialForSpec(ljSpec(7), Backend::Cpu, {2});
  CharacterisationParams params;
  useBatchedHessians(params.backend, *batched);
  const std::vector<std::vector<double>> points = lj7Points();
  const std::vector<StationaryPointProperties> together =
      characteriseTogether(single, points, params);
  ASSERT_EQ(together.size(), points.size());
  for (std::size_t p = 0; p < points.size(); ++p)
    expectSameProperties(together[p], characterise(single, points[p]), 0.0);
  EXPECT_EQ(together[0].pointGroupOrder, 20);  // D5h
  EXPECT_EQ(together[1].pointGroupOrder, 6);   // C3v
  EXPECT_TRUE(characteriseTogether(single, {}, params).empty());
  EXPECT_THROW(characteriseTogether(single, {std::vector<double>(3, 0.0)}, params),
               std::invalid_argument);
}

// The group characterised on threads while the next group's Hessians are computed gives the
// properties of one thread, bit for bit: groups of one, two and all points, on 1 to 4 threads.
TEST(BatchedNumericalHessian, CharacteriseTogetherGivesTheSameBitsOnAnyNumberOfThreads) {
  LennardJones single(7);
  std::unique_ptr<BatchedPotential> batched =
      makeBatchedPotentialForSpec(ljSpec(7), Backend::Cpu, {2});
  CharacterisationParams params;
  useBatchedHessians(params.backend, *batched);
  std::vector<std::vector<double>> points = lj7Points();
  for (std::size_t i = 0; i < 3; ++i) {  // three more, rotated copies (other moments)
    std::vector<double> x = points[i % points.size()];
    for (std::size_t a = 0; a < 7; ++a) std::swap(x[3 * a + i % 3], x[3 * a + (i + 1) % 3]);
    points.push_back(x);
  }
  const std::vector<StationaryPointProperties> reference =
      characteriseTogether(single, points, params);
  const double oneHessian = 8.0 * 21 * 21;
  for (double held : {1.0, 4.0, 100.0}) {
    for (int threads : {1, 2, 4}) {
      CharacterisationParams p = params;
      p.threads = threads;
      p.hessianMemory = held * oneHessian;
      const std::vector<StationaryPointProperties> got = characteriseTogether(single, points, p);
      ASSERT_EQ(got.size(), points.size());
      for (std::size_t k = 0; k < points.size(); ++k) {
        SCOPED_TRACE("point " + std::to_string(k) + ", " + std::to_string(threads) +
                     " threads, Hessians held " + std::to_string(held));
        expectSameProperties(got[k], reference[k], 0.0);
      }
    }
  }
  CharacterisationParams bad = params;
  bad.threads = 0;
  EXPECT_THROW(characteriseTogether(single, points, bad), std::invalid_argument);
}

TEST(BatchedNumericalHessian, BadArgumentsAreRefused) {
  std::unique_ptr<BatchedPotential> batched = makeBatchedPotentialForSpec(ljSpec(7), Backend::Cpu);
  BatchedHessianParams bad;
  bad.step = 0.0;
  EXPECT_THROW(batchedNumericalHessians(*batched, lj7Points(), bad), std::invalid_argument);
  EXPECT_THROW(batchedNumericalHessians(*batched, {std::vector<double>(20, 0.0)}),
               std::invalid_argument);
  EXPECT_TRUE(batchedNumericalHessians(*batched, {}).empty());
}

// The GPU twins: every displaced gradient of three LJ7 points, and of both Ace-Ash-Nme minima,
// in calls of up to 64 structures. Device gradients differ from the CPU's by round-off (about
// 1e-15 relative); divided by 2h = 2e-5 that is 1e-10 of the Hessian's largest entry; 1e-8 is
// asserted (the single-structure GPU Hessian's test asserts 1e-7).
TEST(BatchedNumericalHessian, CudaBatchedPotentialsMatchTheCpuTwin) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  BatchedHessianParams params;
  params.maxBatch = 64;
  LennardJones lj(7);
  std::unique_ptr<BatchedPotential> ljCuda = makeBatchedPotentialForSpec(ljSpec(7), Backend::Cuda);
  const std::vector<std::vector<double>> points = lj7Points();
  const std::vector<Eigen::MatrixXd> h = batchedNumericalHessians(*ljCuda, points, params);
  for (std::size_t p = 0; p < points.size(); ++p) {
    const Eigen::MatrixXd reference = numericalHessian(lj, points[p]);
    EXPECT_LT((h[p] - reference).cwiseAbs().maxCoeff() / reference.cwiseAbs().maxCoeff(), 1e-8)
        << "LJ7 point " << p + 1;
    EXPECT_EQ((h[p] - h[p].transpose()).cwiseAbs().maxCoeff(), 0.0);
  }
  // optim's GPU characterisation: both Ace-Ash-Nme minima together, mass-weighted, against the
  // one-point GPU backend.
  const std::optional<AshMinima> ash = makeAshMinima(1e-3);
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  {
    const PotentialSpec gbSpec = ash->spec();
    std::unique_ptr<Potential> device = makePotential(gbSpec, Backend::Cuda);
    CharacterisationParams one;
    one.masses = ash->topology.masses;
    one.backend = gpuHessianBackend(*device);
    CharacterisationParams together = one;
    useBatchedGpuHessians(together.backend, gbSpec);
    const std::vector<StationaryPointProperties> both =
        characteriseTogether(*device, {ash->first, ash->second}, together);
    expectSameProperties(both[0], characterise(*device, ash->first, one), 1e-9);
    expectSameProperties(both[1], characterise(*device, ash->second, one), 1e-9);
  }
  const PotentialSpec spec = ash->spec();
  BatchedPotentialOptions options;
  options.reserveBatch = params.maxBatch;
  std::unique_ptr<BatchedPotential> gbCuda =
      makeBatchedPotentialForSpec(spec, Backend::Cuda, options);
  AmberGb gb(ash->topology);
  const std::vector<Eigen::MatrixXd> hg =
      batchedNumericalHessians(*gbCuda, {ash->first, ash->second}, params);
  for (const auto& [index, x] : {std::pair<int, const std::vector<double>*>{0, &ash->first},
                                 std::pair<int, const std::vector<double>*>{1, &ash->second}}) {
    const Eigen::MatrixXd reference = numericalHessian(gb, *x);
    EXPECT_LT((hg[index] - reference).cwiseAbs().maxCoeff() / reference.cwiseAbs().maxCoeff(), 1e-8)
        << "Ace-Ash-Nme minimum " << index + 1;
  }
}

#ifdef LANDSCAPE_HAVE_CUDA
// The device path (displaced structures, finite differences and symmetrisation on the device)
// gives the host path's bits over the same CUDA batched potential: LJ7 and the Ace-Ash-Nme
// minima in the GB throughput layout, calls of 2, 63 (rounded to 62) and all structures.
TEST(BatchedNumericalHessian, DevicePathGivesTheHostPathsBits) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  std::vector<std::pair<std::unique_ptr<BatchedPotential>, std::vector<std::vector<double>>>> cases;
  cases.emplace_back(makeBatchedPotentialForSpec(ljSpec(7), Backend::Cuda), lj7Points());
  if (const std::optional<AshMinima> ash = makeAshMinima(1e-3)) {
    BatchedPotentialOptions options;
    options.gbLayout = AmberGbCudaLayout::Throughput;
    cases.emplace_back(
        makeBatchedPotentialForSpec(ash->spec(), Backend::Cuda, options),
        std::vector<std::vector<double>>{ash->first, ash->second, perturbed(ash->first, 0.05)});
  }
  for (auto& [potential, points] : cases) {
    for (std::size_t batch : {std::size_t{2}, std::size_t{63}, std::size_t{0}}) {
      BatchedHessianParams params;
      params.maxBatch = batch;
      const std::vector<Eigen::MatrixXd> host =
          batchedNumericalHessians(*potential, points, params);
      const std::vector<Eigen::MatrixXd> device =
          batchedNumericalHessiansCuda(*potential, points, params);
      ASSERT_EQ(device.size(), points.size());
      for (std::size_t p = 0; p < points.size(); ++p)
        EXPECT_EQ((device[p] - host[p]).cwiseAbs().maxCoeff(), 0.0)
            << potential->name() << ", point " << p + 1 << ", calls of " << batch;
      // Room for one matrix (blocks of one point), for two, and for none (the host path).
      const double matrix = 8.0 * std::pow(static_cast<double>(potential->dimension()), 2);
      for (double room : {1.5 * matrix, 2.0 * matrix, 0.5 * matrix}) {
        BatchedHessiansCuda blocks(room);
        const std::vector<Eigen::MatrixXd> inBlocks = blocks.hessians(*potential, points, params);
        ASSERT_EQ(inBlocks.size(), points.size());
        for (std::size_t p = 0; p < points.size(); ++p)
          EXPECT_EQ((inBlocks[p] - host[p]).cwiseAbs().maxCoeff(), 0.0)
              << potential->name() << ", point " << p + 1 << ", calls of " << batch << ", room for "
              << room / matrix << " matrices";
      }
    }
    EXPECT_TRUE(batchedNumericalHessiansCuda(*potential, {}).empty());
  }
  std::unique_ptr<BatchedPotential> cpu = makeBatchedPotentialForSpec(ljSpec(7), Backend::Cpu);
  EXPECT_THROW(batchedNumericalHessiansCuda(*cpu, lj7Points()), std::invalid_argument);
}
#else
TEST(BatchedNumericalHessian, DevicePathGivesTheHostPathsBits) {
  GTEST_SKIP() << "this build has no CUDA support";
}
#endif

}  // namespace
}  // namespace landscape
