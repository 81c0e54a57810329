// Rigid bodies on the GPU (gpu/RigidBodyCuda) against the CPU adapter: the same energy, projected
// gradient and angle-axis RMS for bodies of 3, 11, 32 (warp path), 33, 256 (one block), 257,
// 1024 and 5000 atoms (multi-block passes), bit-identical reruns, and the GPU L-BFGS in rigid
// coordinates. Bodies of 1 atom are rejected by RigidBodySet (RigidBodyFile tests). All cases skip
// without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "gpu/GpuDevice.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/HarmonicWellCuda.h"
#endif
#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "landscape/core/Random.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/HarmonicWell.h"
#include "potentials/LennardJones.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodySystem.h"
#include "tests/RigidLayouts.h"

namespace landscape {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

TEST(RigidBodySetBodies, SingleAtomAndTwoAtomBodiesAreRejected) {
  RigidBodySet set(10);
  EXPECT_THROW(set.addBody({4}), std::invalid_argument);
  EXPECT_THROW(set.addBody({4, 5}), std::invalid_argument);
  EXPECT_NO_THROW(set.addBody({4, 5, 6}));
}

using rigidtest::Layout;
using rigidtest::makeLayout;

// Lennard-Jones by default; the harmonic well (O(N)) for very large bodies.
void expectCpuEqualsGpu(const std::vector<std::size_t>& bodySizes, std::size_t freeAtoms,
                        bool harmonic = false) {
  const Layout layout = makeLayout(bodySizes, freeAtoms, 11);
  const std::size_t n = layout.atoms.size() / 3;
  const RigidBodySystem system(layout.set, layout.atoms);
  std::unique_ptr<Potential> atomCpu, atomGpu;
  if (harmonic) {
    atomCpu = std::make_unique<HarmonicWell>(n, 2.0);
#ifdef LANDSCAPE_HAVE_CUDA
    atomGpu = std::make_unique<HarmonicWellCuda>(n, 2.0);
#endif
  } else {
    atomCpu = std::make_unique<LennardJones>(n);
    PotentialSpec spec;
    spec.atoms = n;
    atomGpu = makePotential(spec, Backend::Cuda);
  }
  ASSERT_TRUE(atomGpu);
  auto cpu = makeRigidBodyPotential(*atomCpu, system, Backend::Cpu);
  auto gpu = makeRigidBodyPotential(*atomGpu, system, Backend::Cuda);
  ASSERT_TRUE(gpu->isDeviceResident());

  std::vector<double> q = system.fromAtoms(layout.atoms);
  Random random(5);
  for (std::size_t b = 0; b < system.bodyCount(); ++b)  // rotate and shift every body a little
    for (int k = 0; k < 3; ++k) {
      q[3 * b + k] += 0.01 * random.symmetric();
      q[3 * system.bodyCount() + 3 * b + k] += 0.02 * random.symmetric();
    }
  std::vector<double> gc(q.size()), gg(q.size()), gg2(q.size());
  const double ec = cpu->energyGradient(q.data(), gc.data());
  const double eg = gpu->energyGradient(q.data(), gg.data());
  EXPECT_NEAR(eg, ec, 1e-11 * std::max(1.0, std::fabs(ec)));
  double scale = 0.0;
  for (double v : gc) scale = std::max(scale, std::fabs(v));
  for (std::size_t i = 0; i < q.size(); ++i)
    ASSERT_NEAR(gg[i], gc[i], 1e-11 * std::max(1.0, scale)) << "component " << i;
  // Deterministic: a rerun gives the same bits.
  const double eg2 = gpu->energyGradient(q.data(), gg2.data());
  EXPECT_EQ(eg2, eg);
  EXPECT_EQ(gg2, gg);
  // The angle-axis RMS on the device equals the host formula.
  const double rc = cpu->rmsGradient(q.data(), gc.data());
  EXPECT_NEAR(gpu->rmsGradient(q.data(), gg.data()), rc, 1e-9 * rc);
}

TEST(RigidBodyCuda, WarpPathBodiesOf3And11And32Atoms) {
  SKIP_WITHOUT_GPU();
  expectCpuEqualsGpu({3, 11, 32, 3, 11}, 25);
}

TEST(RigidBodyCuda, OneBlockBodiesOf33And256Atoms) {
  SKIP_WITHOUT_GPU();
  expectCpuEqualsGpu({33, 256, 5}, 10);
}

TEST(RigidBodyCuda, MultiBlockBodiesOf257And1024Atoms) {
  SKIP_WITHOUT_GPU();
  expectCpuEqualsGpu({257, 1024, 3}, 7);
}

TEST(RigidBodyCuda, MultiBlockBodyOf5000Atoms) {
  SKIP_WITHOUT_GPU();
  expectCpuEqualsGpu({5000, 11, 40}, 30);
}

TEST(RigidBodyCuda, ThreePassBodyOf70000Atoms) {
  SKIP_WITHOUT_GPU();
  expectCpuEqualsGpu({70000, 33, 3}, 5, true);
}

TEST(RigidBodyCuda, AllBodiesNoFreeAtoms) {
  SKIP_WITHOUT_GPU();
  expectCpuEqualsGpu({3, 3, 3, 11}, 0);
}

TEST(RigidBodyCuda, HostOnlyAtomisticPotentialIsStagedThroughTheHost) {
  SKIP_WITHOUT_GPU();
  const Layout layout = makeLayout({3, 40}, 12, 3);
  const RigidBodySystem system(layout.set, layout.atoms);
  LennardJones lj(layout.atoms.size() / 3);
  auto cpu = makeRigidBodyPotential(lj, system, Backend::Cpu);
  auto gpu = makeRigidBodyPotential(lj, system, Backend::Cuda);
  std::vector<double> q = system.fromAtoms(layout.atoms);
  q[3 * system.bodyCount()] = 0.3;
  std::vector<double> gc(q.size()), gg(q.size());
  EXPECT_NEAR(gpu->energyGradient(q.data(), gg.data()), cpu->energyGradient(q.data(), gc.data()),
              1e-10);
  for (std::size_t i = 0; i < q.size(); ++i) EXPECT_NEAR(gg[i], gc[i], 1e-9) << i;
}

TEST(RigidBodyCuda, GpuLbfgsRunsInRigidCoordinates) {
  SKIP_WITHOUT_GPU();
  const Layout layout = makeLayout({3, 11, 33}, 20, 9);
  const std::size_t n = layout.atoms.size() / 3;
  const RigidBodySystem system(layout.set, layout.atoms);
  LennardJones ljCpu(n);
  PotentialSpec spec;
  spec.atoms = n;
  auto ljGpu = makePotential(spec, Backend::Cuda);
  auto cpu = makeRigidBodyPotential(ljCpu, system, Backend::Cpu);
  auto gpu = makeRigidBodyPotential(*ljGpu, system, Backend::Cuda);
  LbfgsParams params;
  params.maxIterations = 20000;
  params.rmsTolerance = 1e-6;
  const std::vector<double> start = system.fromAtoms(layout.atoms);
  auto run = [&](LbfgsBackend backend, Potential& potential, std::vector<double>& q,
                 std::vector<double>& energies) {
    auto ws = lbfgsWorkspaceFactory(backend)(potential, params.historySize);
    ws->setCoordinates(q.data());
    const LbfgsResult r = Lbfgs(params).minimize(
        *ws, [&](const LbfgsIteration& it) { energies.push_back(it.energy); });
    ws->getCoordinates(q.data());
    return r;
  };
  std::vector<double> qc = start, qg = start, ec, eg;
  const LbfgsResult rc = run(LbfgsBackend::Cpu, *cpu, qc, ec);
  const LbfgsResult rg = run(LbfgsBackend::Gpu, *gpu, qg, eg);
  EXPECT_TRUE(rc.converged());
  EXPECT_TRUE(rg.converged());
  // The same iterates to round-off at first (later the descent may amplify round-off and end in
  // another minimum, see LbfgsCudaTest).
  for (std::size_t i = 0; i < std::min<std::size_t>({ec.size(), eg.size(), 20}); ++i)
    EXPECT_NEAR(eg[i], ec[i], 1e-9 * std::fabs(ec[i])) << "iteration " << i + 1;
  std::vector<double> g(qg.size());
  cpu->energyGradient(qg.data(), g.data());
  EXPECT_LT(cpu->rmsGradient(qg.data(), g.data()), 1.01e-6);
}

// The diagonal metric (Potential::diagonalMetric) on the device: the GPU workspace scales the
// history and the gradient column exactly as the CPU one, so with a large body (300 atoms, where
// the metric matters most) and with the metric on or off, the first iterates agree to round-off:
// energies, accepted step lengths (in the metric) and backtracks.
TEST(RigidBodyCuda, GpuLbfgsFollowsTheCpuIteratesWithAndWithoutTheDiagonalMetric) {
  SKIP_WITHOUT_GPU();
  const Layout layout = makeLayout({300, 11, 3}, 60, 13);
  const std::size_t n = layout.atoms.size() / 3;
  const RigidBodySystem system(layout.set, layout.atoms);
  LennardJones ljCpu(n);
  PotentialSpec spec;
  spec.atoms = n;
  auto ljGpu = makePotential(spec, Backend::Cuda);
  auto cpu = makeRigidBodyPotential(ljCpu, system, Backend::Cpu);
  auto gpu = makeRigidBodyPotential(*ljGpu, system, Backend::Cuda);
  std::vector<double> start = system.fromAtoms(layout.atoms);
  Random random(21);
  for (double& v : start) v += 0.01 * random.symmetric();
  for (const bool metric : {true, false}) {
    LbfgsParams params;
    params.historySize = 4;
    params.maxIterations = 30;
    params.useDiagonalMetric = metric;
    auto run = [&](LbfgsBackend backend, Potential& potential) {
      auto ws = lbfgsWorkspaceFactory(backend)(potential, params.historySize);
      ws->setCoordinates(start.data());
      std::vector<LbfgsIteration> its;
      Lbfgs(params).minimize(*ws, [&](const LbfgsIteration& it) { its.push_back(it); });
      return its;
    };
    const std::vector<LbfgsIteration> c = run(LbfgsBackend::Cpu, *cpu);
    const std::vector<LbfgsIteration> g = run(LbfgsBackend::Gpu, *gpu);
    ASSERT_EQ(c.size(), g.size()) << "metric " << metric;
    for (std::size_t i = 0; i < std::min<std::size_t>(c.size(), 20); ++i) {
      EXPECT_NEAR(g[i].energy, c[i].energy, 1e-9 * std::fabs(c[i].energy))
          << "metric " << metric << ", iteration " << i + 1;
      EXPECT_NEAR(g[i].stepLength, c[i].stepLength, 1e-8 * c[i].stepLength)
          << "metric " << metric << ", iteration " << i + 1;
      EXPECT_EQ(g[i].backtracks, c[i].backtracks) << "metric " << metric << ", iteration " << i + 1;
    }
  }
}

}  // namespace
}  // namespace landscape
