// Gay-Berne ellipsoids under the device rigid layer (gpu/RigidBodyCuda through
// backends/RigidBodyFactory): the marker potential (potentials/GayBerne) is host-only, so the
// rigid layer stages the markers through the host; energy and gradient must equal the CPU rigid
// layer's, and the GPU L-BFGS must follow the CPU iterates. Skips without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/RigidBodyFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/GayBerne.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

// 8 ellipsoids on the builder's lattice, moved and turned a little (no overlaps).
std::vector<double> perturbedStart(const RigidBodySystem& system,
                                   const std::vector<double>& markers, std::uint64_t seed) {
  std::vector<double> q = system.fromAtoms(markers);
  Random random(seed);
  for (double& v : q) v += 0.08 * random.symmetric();
  return q;
}

TEST(GayBerneCuda, DeviceRigidLayerMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 8);
  const RigidBodySystem system = cluster.rigidSystem();
  GayBerne markers(cluster.params, 8);
  auto cpu = makeRigidBodyPotential(markers, system, Backend::Cpu);
  auto gpu = makeRigidBodyPotential(markers, system, Backend::Cuda);
  const std::vector<double> q = perturbedStart(system, cluster.referenceMarkers, 3);
  std::vector<double> gc(q.size()), gg(q.size());
  const double ec = cpu->energyGradient(q.data(), gc.data());
  const double eg = gpu->energyGradient(q.data(), gg.data());
  ASSERT_TRUE(std::isfinite(ec));
  // The device sums in another order than the CPU: round-off only.
  EXPECT_NEAR(eg, ec, 1e-12 * std::fabs(ec));
  double scale = 1.0;
  for (double v : gc) scale = std::max(scale, std::fabs(v));
  for (std::size_t i = 0; i < q.size(); ++i) EXPECT_NEAR(gg[i], gc[i], 1e-11 * scale) << i;
  EXPECT_NEAR(gpu->rmsGradient(q.data(), gg.data()), cpu->rmsGradient(q.data(), gc.data()),
              1e-12 * scale);
}

TEST(GayBerneCuda, GpuLbfgsFollowsTheCpuIterates) {
  SKIP_WITHOUT_GPU();
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 8);
  const RigidBodySystem system = cluster.rigidSystem();
  GayBerne markers(cluster.params, 8);
  auto cpu = makeRigidBodyPotential(markers, system, Backend::Cpu);
  auto gpu = makeRigidBodyPotential(markers, system, Backend::Cuda);
  LbfgsParams params;
  params.maxIterations = 20000;
  params.rmsTolerance = 1e-6;
  const std::vector<double> start = perturbedStart(system, cluster.referenceMarkers, 5);
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
  // The same iterates to round-off at first (later round-off may be amplified).
  for (std::size_t i = 0; i < std::min<std::size_t>({ec.size(), eg.size(), 20}); ++i)
    EXPECT_NEAR(eg[i], ec[i], 1e-9 * std::fabs(ec[i])) << "iteration " << i + 1;
  std::vector<double> g(qg.size());
  cpu->energyGradient(qg.data(), g.data());
  EXPECT_LT(cpu->rmsGradient(qg.data(), g.data()), 1.01e-6);
}

}  // namespace
}  // namespace landscape
