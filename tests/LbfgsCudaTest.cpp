// GPU L-BFGS (implementation 1 of Mantell et al. 2016, gpu/LbfgsCudaWorkspace) against the CPU
// L-BFGS: the same iterates to round-off, the same GMIN step control, any history size. All cases
// skip without a CUDA device; the CPU twin of the compact direction is tested in LbfgsTest.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "tests/TestData.h"
#include "tests/TestPotentials.h"

namespace landscape {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

struct Trace {
  std::vector<LbfgsIteration> iterations;
  LbfgsResult result;
  std::vector<double> x;
};

Trace minimizeOn(LbfgsBackend backend, Potential& potential, std::vector<double> x,
                 const LbfgsParams& params) {
  Trace t;
  auto workspace = lbfgsWorkspaceFactory(backend)(potential, params.historySize);
  workspace->setCoordinates(x.data());
  t.result = Lbfgs(params).minimize(
      *workspace, [&](const LbfgsIteration& it) { t.iterations.push_back(it); });
  t.x.resize(x.size());
  workspace->getCoordinates(t.x.data());
  return t;
}

std::vector<double> lj38Start(std::uint64_t seed) {
  Random random(seed);
  return randomCluster(38, defaultContainerRadius(38), 0.7, random);
}

// A start inside one basin: a quenched random LJ38 cluster, every coordinate displaced by up to
// 0.1 sigma. (From a raw random start the descent is chaotic: round-off differences of 1e-14 grow
// to 1e-7 within 50 iterations even between two CPU runs that only sum the energy in another order,
// and the runs then end in different minima, so that is no test of the implementations.)
std::vector<double> lj38PerturbedMinimum(Potential& cpuPotential, std::uint64_t seed) {
  std::vector<double> x = lj38Start(seed);
  LbfgsParams quench;
  quench.rmsTolerance = 1e-4;
  quench.maxIterations = 10000;
  Lbfgs(quench).minimize(cpuPotential, x);
  Random random(seed + 1000);
  for (double& v : x) v += 0.1 * random.symmetric();
  return x;
}

// Implementation 1 (all on the GPU), implementation 2 (CPU L-BFGS, CUDA potential) and the all-CPU
// path follow the same iterates: energies agree to round-off over the first 50 iterations.
TEST(LbfgsCuda, ThreeImplementationsFollowTheSameIteratesOnLj38) {
  SKIP_WITHOUT_GPU();
  PotentialSpec spec;
  spec.atoms = 38;
  auto cpuPotential = makePotential(spec, Backend::Cpu);
  auto cudaPotential = makePotential(spec, Backend::Cuda);
  for (int m : {4, 50}) {
    LbfgsParams p;
    p.historySize = m;
    p.rmsTolerance = 1e-7;
    p.maxIterations = 5000;
    const std::vector<double> x0 = lj38PerturbedMinimum(*cpuPotential, 21);
    const Trace cpu = minimizeOn(LbfgsBackend::Cpu, *cpuPotential, x0, p);
    const Trace gpu2 = minimizeOn(LbfgsBackend::Cpu, *cudaPotential, x0, p);
    const Trace gpu1 = minimizeOn(LbfgsBackend::Gpu, *cudaPotential, x0, p);
    const std::size_t k = std::min<std::size_t>(
        50, std::min({cpu.iterations.size(), gpu1.iterations.size(), gpu2.iterations.size()}));
    ASSERT_GE(k, 30u) << "too few iterations to compare";
    for (std::size_t i = 0; i < k; ++i) {
      const double e = cpu.iterations[i].energy;
      EXPECT_NEAR(gpu2.iterations[i].energy, e, 1e-10 * std::abs(e)) << "m " << m << " it " << i;
      EXPECT_NEAR(gpu1.iterations[i].energy, e, 1e-10 * std::abs(e)) << "m " << m << " it " << i;
      EXPECT_EQ(gpu1.iterations[i].backtracks, cpu.iterations[i].backtracks);
    }
    EXPECT_TRUE(cpu.result.converged());
    EXPECT_TRUE(gpu1.result.converged());
    EXPECT_TRUE(gpu2.result.converged());
    EXPECT_NEAR(gpu1.result.energy, cpu.result.energy, 1e-9 * std::abs(cpu.result.energy)) << "m " << m;
    EXPECT_NEAR(gpu2.result.energy, cpu.result.energy, 1e-9 * std::abs(cpu.result.energy)) << "m " << m;
  }
}

// Trp-cage in GB (igb 2, 0.2 M, rgbmax 12; CUDA potential in double precision) from its inpcrd: the
// three implementations agree over the first 50 iterations to round-off. The GB sums run in another
// order on the GPU (relative differences ~1e-14 per evaluation), so 1e-9 relative is round-off.
struct TrpcageStart {
  PotentialSpec spec;
  std::vector<double> x;
};

bool trpcageStart(TrpcageStart* out) {
  const auto prmtop = testDataPath("gb/trpcage/prmtop");
  const auto inpcrd = testDataPath("gb/trpcage/inpcrd");
  if (!prmtop || !inpcrd) return false;
  out->spec.kind = PotentialSpec::Kind::AmberGb;
  out->spec.amberTopology = std::make_shared<const AmberTopology>(readAmberTopology(*prmtop));
  out->spec.precision = Precision::Double;
  out->x = readAmberCoordinates(*inpcrd, *out->spec.amberTopology).positions;
  return true;
}

// `toTheEnd`: each run must also converge to a minimum of the CPU reference (its energy there to
// 1e-9 relative, the reference's RMS gradient below twice the tolerance). The three runs' minima
// are not compared with each other: over thousands of steps from the inpcrd the round-off
// differences grow as they do for LJ38 from a random start (lj38PerturbedMinimum), and the runs
// may end in neighbouring minima (2.9 kcal/mol apart on the H200).
void compareImplementations(const TrpcageStart& start, const LbfgsParams& p, std::size_t iterates,
                            bool toTheEnd) {
  auto cpuPotential = makePotential(start.spec, Backend::Cpu);
  auto cudaPotential = makePotential(start.spec, Backend::Cuda);
  const Trace cpu = minimizeOn(LbfgsBackend::Cpu, *cpuPotential, start.x, p);
  const Trace gpu2 = minimizeOn(LbfgsBackend::Cpu, *cudaPotential, start.x, p);
  const Trace gpu1 = minimizeOn(LbfgsBackend::Gpu, *cudaPotential, start.x, p);
  const std::size_t k = std::min(
      iterates, std::min({cpu.iterations.size(), gpu1.iterations.size(), gpu2.iterations.size()}));
  ASSERT_EQ(k, iterates) << "a run stopped early";
  for (std::size_t i = 0; i < k; ++i) {
    const double e = cpu.iterations[i].energy;
    EXPECT_NEAR(gpu2.iterations[i].energy, e, 1e-9 * std::abs(e)) << "it " << i;
    EXPECT_NEAR(gpu1.iterations[i].energy, e, 1e-9 * std::abs(e)) << "it " << i;
    EXPECT_EQ(gpu1.iterations[i].backtracks, cpu.iterations[i].backtracks) << "it " << i;
  }
  if (!toTheEnd) return;
  for (const Trace* t : {&cpu, &gpu1, &gpu2}) {
    EXPECT_TRUE(t->result.converged());
    std::vector<double> g(t->x.size());
    const double e = cpuPotential->energyGradient(t->x.data(), g.data());
    double g2 = 0.0;
    for (double v : g) g2 += v * v;
    EXPECT_NEAR(t->result.energy, e, 1e-9 * std::abs(e));
    EXPECT_LT(std::sqrt(g2 / static_cast<double>(g.size())), 2.0 * p.rmsTolerance)
        << "minimum at " << e;
  }
}

TEST(LbfgsCuda, ThreeImplementationsFollowTheSameIteratesOnTrpcage) {
  SKIP_WITHOUT_GPU();
  TrpcageStart start;
  if (!trpcageStart(&start)) GTEST_SKIP() << "gb/trpcage not under " << testDataRoot();
  // GMIN's settings in Mantell et al. 2016: m 4, max step 0.4 A, max rise 1e-4 kcal/mol.
  LbfgsParams p;
  p.historySize = 4;
  p.maxStep = 0.4;
  p.maxRise = 1e-4;
  p.rmsTolerance = 1e-5;
  p.maxIterations = 50;
  compareImplementations(start, p, 50, false);
}

// The whole minimisation to RMS 1e-5 kcal/mol/A (about 16000 steps; the CPU run takes about a
// minute), so in the slow suite: all three reach a minimum of the CPU reference.
TEST(SlowLbfgsCuda, ThreeImplementationsReachTheSameTrpcageMinimum) {
  SKIP_WITHOUT_GPU();
  TrpcageStart start;
  if (!trpcageStart(&start)) GTEST_SKIP() << "gb/trpcage not under " << testDataRoot();
  LbfgsParams p;
  p.historySize = 4;
  p.maxStep = 0.4;
  p.maxRise = 1e-4;
  p.rmsTolerance = 1e-5;
  p.maxIterations = 100000;
  compareImplementations(start, p, 50, true);
}

TEST(LbfgsCuda, RunsAreBitIdentical) {
  SKIP_WITHOUT_GPU();
  PotentialSpec spec;
  spec.atoms = 38;
  auto cudaPotential = makePotential(spec, Backend::Cuda);
  LbfgsParams p;
  p.historySize = 10;
  p.rmsTolerance = 1e-6;
  p.maxIterations = 5000;
  const Trace a = minimizeOn(LbfgsBackend::Gpu, *cudaPotential, lj38Start(5), p);
  const Trace b = minimizeOn(LbfgsBackend::Gpu, *cudaPotential, lj38Start(5), p);
  ASSERT_EQ(a.iterations.size(), b.iterations.size());
  for (std::size_t i = 0; i < a.iterations.size(); ++i)
    EXPECT_EQ(a.iterations[i].energy, b.iterations[i].energy) << i;
  EXPECT_EQ(a.x, b.x);
}

// The GMIN step-control rules of LbfgsTest.cpp, on the GPU backend (the analytic test functions
// run through the host entry point; the L-BFGS state stays on the device).
TEST(LbfgsCuda, FirstStepIsCappedAtMaxStep) {
  SKIP_WITHOUT_GPU();
  SeparablePolynomial f({1.0, 1.0, 1.0}, {0.0, 0.0, 0.0});
  LbfgsParams p;
  p.maxIterations = 1;
  const Trace t = minimizeOn(LbfgsBackend::Gpu, f, {0.0, 10.0, 0.0}, p);
  ASSERT_EQ(t.iterations.size(), 1u);
  EXPECT_TRUE(t.iterations[0].cappedAtMaxStep);
  EXPECT_NEAR(t.iterations[0].stepLength, 0.4, 1e-15);
  EXPECT_NEAR(t.x[1], 9.6, 1e-14);
}

TEST(LbfgsCuda, EnergyRiseDividesTheStepByTen) {
  SKIP_WITHOUT_GPU();
  SeparablePolynomial f({1000.0}, {0.0});
  LbfgsParams p;
  p.maxIterations = 1;
  const Trace t = minimizeOn(LbfgsBackend::Gpu, f, {0.01}, p);
  ASSERT_EQ(t.iterations.size(), 1u);
  EXPECT_EQ(t.iterations[0].backtracks, 2);
  EXPECT_NEAR(t.x[0], 0.006, 1e-15);
  EXPECT_EQ(t.result.functionCalls, 4);
}

TEST(LbfgsCuda, UphillDirectionIsReversed) {
  SKIP_WITHOUT_GPU();
  SeparablePolynomial f({-1.0}, {1.0});
  LbfgsParams p;
  p.maxIterations = 2;
  const Trace t = minimizeOn(LbfgsBackend::Gpu, f, {0.05}, p);
  ASSERT_EQ(t.iterations.size(), 2u);
  EXPECT_FALSE(t.iterations[0].reversed);
  EXPECT_TRUE(t.iterations[1].reversed);
  EXPECT_GT(t.x[0], 0.05);
}

TEST(LbfgsCuda, PersistentRiseClearsHistoryAndRetriesAlongMinusGradient) {
  SKIP_WITHOUT_GPU();
  ScriptedRise f(4, 14);
  LbfgsParams p;
  p.maxIterations = 3;
  const Trace t = minimizeOn(LbfgsBackend::Gpu, f, {1.0, 1.0}, p);
  ASSERT_EQ(t.iterations.size(), 3u);
  EXPECT_FALSE(t.iterations[1].historyCleared);
  EXPECT_TRUE(t.iterations[2].historyCleared);
  EXPECT_EQ(t.result.functionCalls, 15);
}

TEST(LbfgsCuda, HistorySizesFromOneToTwoThousandMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  PotentialSpec spec;
  spec.atoms = 38;
  auto cudaPotential = makePotential(spec, Backend::Cuda);
  auto cpuPotential = makePotential(spec, Backend::Cpu);
  for (int m : {1, 2, 7, 100, 2000}) {
    LbfgsParams p;
    p.historySize = m;
    p.rmsTolerance = 1e-7;
    p.maxIterations = 20000;
    const Trace gpu = minimizeOn(LbfgsBackend::Gpu, *cudaPotential, lj38Start(9), p);
    const Trace cpu = minimizeOn(LbfgsBackend::Cpu, *cpuPotential, lj38Start(9), p);
    EXPECT_TRUE(gpu.result.converged()) << "m " << m << ": " << lbfgsStatusName(gpu.result.status);
    const std::size_t k = std::min<std::size_t>(30, std::min(gpu.iterations.size(), cpu.iterations.size()));
    for (std::size_t i = 0; i < k; ++i)
      EXPECT_NEAR(gpu.iterations[i].energy, cpu.iterations[i].energy,
                  1e-9 * std::abs(cpu.iterations[i].energy))
          << "m " << m << " it " << i;
  }
}

// The diagonal metric on the device (host-staged test function, LbfgsTest's case): the same
// iterates as the CPU workspace with the metric on, and with it off.
TEST(LbfgsCuda, DiagonalMetricMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  const std::vector<double> k = {1.0, 100.0, 1e4, 3.0, 30.0, 300.0};
  MetricPolynomial f(k, {0.0, 0.1, 0.0, 1.0, 0.0, 0.01}, {1.0, 50.0, 1e4, 2.0, 30.0, 100.0});
  const std::vector<double> start = {0.3, 0.02, 0.001, -0.2, 0.05, -0.01};
  for (const bool metric : {true, false}) {
    LbfgsParams p;
    p.rmsTolerance = 1e-10;
    p.maxIterations = 500;
    p.useDiagonalMetric = metric;
    const Trace c = minimizeOn(LbfgsBackend::Cpu, f, start, p);
    const Trace g = minimizeOn(LbfgsBackend::Gpu, f, start, p);
    ASSERT_TRUE(c.result.converged());
    ASSERT_TRUE(g.result.converged());
    // Round-off differs (compact representation on the device, two-loop on the host), so compare
    // the first iterations, as HistorySizesFromOneToTwoThousandMatchTheCpu does.
    const std::size_t k =
        std::min<std::size_t>(15, std::min(c.iterations.size(), g.iterations.size()));
    for (std::size_t i = 0; i < k; ++i) {
      EXPECT_NEAR(g.iterations[i].energy, c.iterations[i].energy,
                  1e-14 + 1e-9 * std::fabs(c.iterations[i].energy))
          << "metric " << metric << ", iteration " << i + 1;
      EXPECT_NEAR(g.iterations[i].stepLength, c.iterations[i].stepLength,
                  1e-14 + 1e-8 * c.iterations[i].stepLength)
          << "metric " << metric << ", iteration " << i + 1;
    }
  }
}

TEST(LbfgsCuda, FactoryWithoutDeviceThrowsASentence) {
  if (gpuAvailable()) GTEST_SKIP() << "a device is present";
  SeparablePolynomial f({1.0}, {0.0});
  try {
    lbfgsWorkspaceFactory(LbfgsBackend::Gpu)(f, 4);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--lbfgs-backend gpu"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace landscape
