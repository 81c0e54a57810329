// The SOP model and its dynamics on CUDA against the CPU reference (docs/architecture.md, "CPU
// first, GPU equal"). Every test skips, with the reason, without a usable device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backends/PotentialFactory.h"
#include "backends/SopDynamicsFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/dynamics/SopDynamics.h"
#include "potentials/Sop.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription()

std::vector<double> perturbed(std::vector<double> x, double amplitude, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  for (double& v : x) v += u(rng);
  return x;
}

double maxAbs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

void expectPotentialsAgree(const std::string& file, const SopParams& params, double amplitude) {
  const auto path = testDataPath("sop/" + file);
  if (!path) GTEST_SKIP() << "test data sop/" << file << " not found";
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sop;
  spec.sopTopology = std::make_shared<const SopTopology>(readSopTopology(*path, params));
  auto cpu = makePotential(spec, Backend::Cpu);
  auto gpu = makePotential(spec, Backend::Cuda);
  ASSERT_TRUE(gpu->isDeviceResident());
  const SopTopology& t = *spec.sopTopology;
  // The native structure, a perturbed one, and one far enough away to force a list rebuild.
  for (double a : {0.0, amplitude, 4.0 * amplitude}) {
    const std::vector<double> x = perturbed(t.nativeCoordinates(), a, 17);
    std::vector<double> gc(x.size()), gg(x.size(), 99.0);
    const double ec = cpu->energyGradient(x.data(), gc.data());
    const double eg = gpu->energyGradient(x.data(), gg.data());
    EXPECT_NEAR(eg, ec, 1e-10 * std::max(1.0, std::abs(ec))) << file << " amplitude " << a;
    const double scale = std::max(1.0, maxAbs(gc));
    for (std::size_t k = 0; k < x.size(); ++k)
      ASSERT_NEAR(gg[k], gc[k], 1e-10 * scale) << file << " coordinate " << k << " amplitude " << a;
    const auto cc = cpu->energyComponents(x.data()), cg = gpu->energyComponents(x.data());
    ASSERT_EQ(cc.size(), cg.size());
    for (std::size_t c = 0; c < cc.size(); ++c) {
      EXPECT_EQ(cc[c].name, cg[c].name);
      EXPECT_NEAR(cg[c].value, cc[c].value, 1e-10 * std::max(1.0, std::abs(cc[c].value)));
    }
    // Bit-identical reruns (no floating-point atomics).
    std::vector<double> g2(x.size());
    EXPECT_EQ(gpu->energyGradient(x.data(), g2.data()), eg);
    EXPECT_EQ(g2, gg);
  }
}

TEST(SopCuda, TitinEnergyAndGradientEqualCpu) {
  SKIP_WITHOUT_GPU();
  expectPotentialsAgree("1TIT.pdb", SopParams{}, 0.5);
}

TEST(SopCuda, ProtofilamentNeighbourListEqualsCpuCellList) {
  SKIP_WITHOUT_GPU();
  SopParams p;
  p.repulsiveCutoff = 20.0;  // SOP-GPU's pair-list cutoff
  expectPotentialsAgree("PF8_protofilament_ca.pdb", p, 0.5);
}

SopDynamicsParams dynamicsParams(int replicas) {
  SopDynamicsParams p;
  p.replicas = replicas;
  p.langevin.seed = 9;
  return p;
}

void expectTrajectoriesAgree(const SopTopology& t, const SopDynamicsParams& p, long steps,
                             double tolerance) {
  auto cpu = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cpu);
  auto gpu = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
  cpu->run(steps);
  gpu->run(steps / 2);
  gpu->run(steps - steps / 2);  // runs continue one trajectory
  EXPECT_EQ(gpu->stepsDone(), steps);
  for (int r = 0; r < p.replicas; ++r) {
    const std::vector<double> xc = cpu->positions(r), xg = gpu->positions(r);
    for (std::size_t k = 0; k < xc.size(); ++k)
      ASSERT_NEAR(xg[k], xc[k], tolerance) << "replica " << r << " coordinate " << k;
    EXPECT_NEAR(gpu->tipPosition(r), cpu->tipPosition(r), tolerance);
  }
}

TEST(SopDynamicsCuda, PullingTrajectoriesEqualCpuInDouble) {
  SKIP_WITHOUT_GPU();
  const auto path = testDataPath("sop/1TIT.pdb");
  if (!path) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const SopTopology t = readSopTopology(*path);
  for (RngKind kind : {RngKind::Philox, RngKind::HybridTaus}) {
    SopDynamicsParams p = dynamicsParams(3);
    p.langevin.generator = kind;
    p.pulling.enabled = true;
    p.pulling.speed = 1e-2;
    p.skin = 1.0;  // frequent rebuilds
    expectTrajectoriesAgree(t, p, 400, 1e-8);
  }
}

TEST(SopDynamicsCuda, IndentationTrajectoriesEqualCpuInDouble) {
  SKIP_WITHOUT_GPU();
  const auto path = testDataPath("sop/1TIT.pdb");
  if (!path) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const SopTopology t = readSopTopology(*path);
  SopDynamicsParams p = dynamicsParams(2);
  p.indentation.enabled = true;
  p.indentation.speed = 0.2;  // the base travels 8 A
  p.indentation.startGap = 0.5;
  p.indentation.tipRadius = 10.0;
  p.indentation.tipFriction = 1.0;  // the tip follows the base within ~10 ps
  expectTrajectoriesAgree(t, p, 400, 1e-8);
}

TEST(SopDynamicsCuda, FixedRebuildIntervalWithSopGpuListMatchesCpu) {
  SKIP_WITHOUT_GPU();
  const auto path = testDataPath("sop/1TIT.pdb");
  if (!path) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  SopParams sp;
  sp.repulsiveCutoff = 20.0;
  const SopTopology t = readSopTopology(*path, sp);
  SopDynamicsParams p = dynamicsParams(2);
  p.rebuildInterval = 50;
  p.skin = 6.0;  // no bead moves 3 A in 50 steps near the native state
  expectTrajectoriesAgree(t, p, 200, 1e-8);
}

TEST(SopDynamicsCuda, FloatPrecisionStaysCloseToCpu) {
  SKIP_WITHOUT_GPU();
  const auto path = testDataPath("sop/1TIT.pdb");
  if (!path) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const SopTopology t = readSopTopology(*path);
  SopDynamicsParams p = dynamicsParams(2);
  p.precision = Precision::Single;
  expectTrajectoriesAgree(t, p, 20, 2e-3);  // FP32 positions ~ 1e-5 A, a few steps of growth
}

TEST(SopDynamicsCuda, RerunsAreBitIdentical) {
  SKIP_WITHOUT_GPU();
  const auto path = testDataPath("sop/1TIT.pdb");
  if (!path) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const SopTopology t = readSopTopology(*path);
  for (Precision precision : {Precision::Double, Precision::Single}) {
    SopDynamicsParams p = dynamicsParams(4);
    p.precision = precision;
    p.pulling.enabled = true;
    auto a = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
    auto b = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
    a->run(300);
    b->run(300);
    for (int r = 0; r < 4; ++r) EXPECT_EQ(a->positions(r), b->positions(r));
    EXPECT_GT(a->rebuilds(), 0);
  }
}

// The first real-GPU run (H100, 2026-11-22) crashed here with a host segfault: run() read
// graphStream->stream in the same call that created graphStream (unspecified argument order).
TEST(SopDynamicsCuda, CudaGraphRunsEqualPlainLaunchesBitForBit) {
  SKIP_WITHOUT_GPU();
  const auto path = testDataPath("sop/1TIT.pdb");
  if (!path) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const SopTopology t = readSopTopology(*path);
  for (long interval : {0L, 30L}) {  // rebuild on displacement, and on a fixed schedule
    for (bool indent : {false, true}) {
      SopDynamicsParams p = dynamicsParams(3);
      p.rebuildInterval = interval;
      p.skin = 1.0;
      p.pulling.enabled = !indent;
      p.indentation.enabled = indent;
      p.indentation.startGap = 0.5;
      p.indentation.speed = 0.2;
      p.indentation.tipFriction = 1.0;
      auto plain = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
      p.cudaGraphSteps = 8;
      auto graph = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
      for (long chunk : {5L, 40L, 33L, 100L}) {  // graph launches, odd tails, parity changes
        plain->run(chunk);
        graph->run(chunk);
      }
      EXPECT_EQ(graph->stepsDone(), plain->stepsDone());
      for (int r = 0; r < p.replicas; ++r) {
        EXPECT_EQ(graph->positions(r), plain->positions(r)) << "interval " << interval;
        EXPECT_EQ(graph->tipPosition(r), plain->tipPosition(r));
      }
      EXPECT_EQ(graph->rebuilds(), plain->rebuilds());
    }
  }
}

// Persistent launches (several steps per cooperative kernel, a grid barrier between steps) run
// the plain kernel's per-bead code: the same bits, for pulling and indentation, both precisions,
// the stateful generators and Philox, chunks that end between and at forced rebuilds, and (200
// replicas of 1TIT: 800 tiles) more tiles than the device holds blocks at once.
TEST(SopDynamicsCuda, PersistentStepsEqualPlainLaunchesBitForBit) {
  SKIP_WITHOUT_GPU();
  const auto path = testDataPath("sop/1TIT.pdb");
  if (!path) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const SopTopology t = readSopTopology(*path);
  struct Case {
    RngKind kind;
    Precision precision;
    bool indent;
    int replicas;
  };
  const Case cases[] = {{RngKind::Philox, Precision::Double, false, 3},
                        {RngKind::Philox, Precision::Single, true, 3},
                        {RngKind::HybridTaus, Precision::Double, true, 2},
                        {RngKind::Lcg, Precision::Single, false, 2},
                        {RngKind::Ran2, Precision::Double, false, 2},
                        {RngKind::Philox, Precision::Single, true, 200}};
  for (const Case& c : cases) {
    SopDynamicsParams p = dynamicsParams(c.replicas);
    p.langevin.generator = c.kind;
    p.precision = c.precision;
    p.rebuildInterval = 30;
    p.skin = 1.0;
    p.pulling.enabled = !c.indent;
    p.indentation.enabled = c.indent;
    p.indentation.startGap = 0.5;
    p.indentation.speed = 0.2;
    p.indentation.tipFriction = 1.0;
    auto plain = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
    p.cudaPersistentSteps = 7;  // odd: the position and counter parities change per launch
    auto persistent = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
    for (long chunk : {5L, 40L, 33L, 100L, 1L}) {
      plain->run(chunk);
      persistent->run(chunk);
    }
    const std::string what = rngKindName(c.kind) + " " + precisionName(c.precision) +
                             (c.indent ? " indentation" : " pulling");
    EXPECT_EQ(persistent->stepsDone(), plain->stepsDone()) << what;
    for (int r = 0; r < p.replicas; ++r) {
      EXPECT_EQ(persistent->positions(r), plain->positions(r)) << what << " replica " << r;
      EXPECT_EQ(persistent->tipPosition(r), plain->tipPosition(r)) << what;
    }
    EXPECT_EQ(persistent->rebuilds(), plain->rebuilds()) << what;
  }
}

// Programmatic dependent launches (sm_90+; elsewhere the option changes nothing) give the bits of
// ordinary launches: step kernels that start early wait for the step before them, with fixed and
// displacement-triggered rebuilds, plain launches and graphs, pulling and indentation (whose tip
// takes a last-block sum every step).
TEST(SopDynamicsCuda, ProgrammaticLaunchesEqualOrdinaryLaunchesBitForBit) {
  SKIP_WITHOUT_GPU();
  const auto path = testDataPath("sop/1TIT.pdb");
  if (!path) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const SopTopology t = readSopTopology(*path);
  for (long interval : {0L, 30L})
    for (int graphSteps : {0, 8})
      for (bool indent : {false, true}) {
        SopDynamicsParams p = dynamicsParams(3);
        p.precision = indent ? Precision::Double : Precision::Single;
        p.rebuildInterval = interval;
        p.skin = 1.0;
        p.cudaGraphSteps = graphSteps;
        p.pulling.enabled = !indent;
        p.indentation.enabled = indent;
        p.indentation.startGap = 0.5;
        p.indentation.speed = 0.2;
        p.indentation.tipFriction = 1.0;
        p.cudaProgrammaticLaunches = false;
        auto ordinary = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
        p.cudaProgrammaticLaunches = true;
        auto programmatic = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
        for (long chunk : {5L, 40L, 33L, 100L}) {
          ordinary->run(chunk);
          programmatic->run(chunk);
        }
        const std::string what = "interval " + std::to_string(interval) + ", graph steps " +
                                 std::to_string(graphSteps) +
                                 (indent ? ", indentation" : ", pulling");
        EXPECT_EQ(programmatic->stepsDone(), ordinary->stepsDone()) << what;
        for (int r = 0; r < p.replicas; ++r) {
          EXPECT_EQ(programmatic->positions(r), ordinary->positions(r)) << what << " replica " << r;
          EXPECT_EQ(programmatic->tipPosition(r), ordinary->tipPosition(r)) << what;
        }
        EXPECT_EQ(programmatic->rebuilds(), ordinary->rebuilds()) << what;
      }
}

// Displacement-triggered rebuilds and Lagged Fibonacci fall back to plain launches: the option
// changes nothing there.
TEST(SopDynamicsCuda, PersistentStepsFallBackWhereTheyDoNotApply) {
  SKIP_WITHOUT_GPU();
  const auto path = testDataPath("sop/1TIT.pdb");
  if (!path) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const SopTopology t = readSopTopology(*path);
  for (long interval : {0L, 25L}) {
    SopDynamicsParams p = dynamicsParams(2);
    p.rebuildInterval = interval;
    p.langevin.generator = interval == 0 ? RngKind::Philox : RngKind::LaggedFibonacci;
    p.skin = 0.5;
    auto plain = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
    p.cudaPersistentSteps = 16;
    auto persistent = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
    plain->run(120);
    persistent->run(120);
    for (int r = 0; r < p.replicas; ++r)
      EXPECT_EQ(persistent->positions(r), plain->positions(r)) << "interval " << interval;
    EXPECT_EQ(persistent->rebuilds(), plain->rebuilds());
  }
}

TEST(SopDynamicsCuda, FreeBeadRecoversKTOverXiInFloat) {
  SKIP_WITHOUT_GPU();
  std::vector<SopBead> beads(64);
  std::vector<int> starts;
  for (int i = 0; i < 64; ++i) {
    beads[i].residueName = "GLY";
    beads[i].x = 100.0 * i;
    starts.push_back(i);
  }
  const SopTopology t = makeSopTopology(beads, starts, SopParams{});
  SopDynamicsParams p = dynamicsParams(64);  // 4096 beads
  p.precision = Precision::Single;
  p.skin = 50.0;
  auto md = makeSopDynamics(t, t.nativeCoordinates(), p, Backend::Cuda);
  md->run(200);
  const std::vector<double> x0 = t.nativeCoordinates();
  double msd = 0;
  for (int r = 0; r < p.replicas; ++r) {
    const std::vector<double> x = md->positions(r);
    for (std::size_t k = 0; k < x.size(); ++k) msd += (x[k] - x0[k]) * (x[k] - x0[k]);
  }
  msd /= 64.0 * p.replicas;
  const double d = msd / (6.0 * md->time());
  EXPECT_NEAR(d / (p.langevin.kT / p.langevin.friction), 1.0, 0.05);
}

}  // namespace
}  // namespace landscape
