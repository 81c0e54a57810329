// The round-based batched L-BFGS on a CUDA device under a potential's metric (docs/lbfgs.md):
// over local rigid bodies (gpu/BatchedRigidBodyCuda, whose host entry points run the device
// kernels) it is its CPU twin over the same potential bit for bit, for several team sizes, poll
// intervals and resident batches, metric on and off; against the twin over the CPU batch
// (potentials/BatchedRigidBodyPotential) it agrees within the rounds tests' tolerance (energy
// 1e-10 relative, same convergence) from starts near minima; the device's angle-axis RMS
// gradients (Ruehle et al., J. Chem. Theory Comput. 2013) are RigidBodySystem::rmsGradient's to
// rounding; compact directions with a metric are refused. Every case skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/minimisation/BatchedLbfgsRoundsTwin.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/BatchedRigidBodyPotential.h"
#include "tests/BatchedStructures.h"
#include "tests/RigidLayouts.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedLbfgsRoundsCuda.h"
#include "gpu/BatchedLennardJonesCuda.h"
#include "gpu/BatchedRigidBodyCuda.h"
#endif

namespace landscape {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

using namespace batchtest;
using rigidtest::makeLayout;
using rigidtest::perturbedRigidBatch;

#ifdef LANDSCAPE_HAVE_CUDA

// Five bodies of 3 to 11 atoms and 8 free atoms (38 Lennard-Jones atoms).
struct RigidLj {
  rigidtest::Layout layout = makeLayout({3, 11, 5, 7, 4}, 8, 19);
  std::size_t atoms = layout.atoms.size() / 3;
  RigidBodySystem system{layout.set, layout.atoms};
};

BatchedRoundsOptions roundsOptions(int threads, int poll, std::size_t resident) {
  BatchedRoundsOptions o;
  o.threadsPerStructure = threads;
  o.roundsPerPoll = poll;
  o.residentStructures = resident;
  return o;
}

TEST(BatchedLbfgsMetricCuda, DeviceRmsGradientsAreTheAngleAxisRms) {
  SKIP_WITHOUT_GPU();
  const RigidLj lj;
  const std::size_t n = lj.system.dimension(), batch = 7;
  BatchedLennardJonesCuda atomistic(lj.atoms);
  BatchedRigidBodyCuda gpu(atomistic, lj.system, batch);
  std::vector<double> w;
  ASSERT_TRUE(gpu.diagonalMetric(w));
  EXPECT_EQ(w, lj.system.diagonalMetric());
  ASSERT_TRUE(gpu.hasGradientMetric());
  const std::vector<double> q = perturbedRigidBatch(lj.system, lj.layout.atoms, batch, 0.05, 2.5, 4);
  std::vector<double> g(q.size()), e(batch);
  evaluateBatch(gpu, q, g, e);
  const std::vector<std::uint8_t> active = {1, 1, 0, 1, 0, 1, 1};
  std::vector<double> rms(batch, -1.0);
  gpu.rmsGradients(batch, q.data(), g.data(), rms.data(), active.data());
  for (std::size_t b = 0; b < batch; ++b) {
    if (!active[b]) {
      EXPECT_EQ(rms[b], -1.0) << b;
      continue;
    }
    const double host = lj.system.rmsGradient(&q[b * n], &g[b * n]);
    EXPECT_NEAR(rms[b], host, 1e-13 * host) << b;
  }
}

// The same device potential under the engine and its twin: every structure bit for bit.
TEST(BatchedLbfgsMetricCuda, RoundsEngineEqualsItsTwinBitForBit) {
  SKIP_WITHOUT_GPU();
  const RigidLj lj;
  const std::size_t n = lj.system.dimension(), batch = 12;
  std::vector<double> q0 = perturbedRigidBatch(lj.system, lj.layout.atoms, batch, 0.1, 0.6, 70);
  BatchedLennardJonesCuda atomistic(lj.atoms);
  BatchedRigidBodyCuda potential(atomistic, lj.system, batch);
  for (bool metric : {true, false}) {
    LbfgsParams params = benchParams(5000);
    params.useDiagonalMetric = metric;
    for (const BatchedRoundsOptions& o :
         {roundsOptions(0, 32, 0), roundsOptions(64, 5, 0), roundsOptions(32, 16, 5)}) {
      BatchedLbfgsRoundsCuda gpu(potential, params, o);
      BatchedLbfgsRoundsTwin twin(potential, params, o, 2);
      const MinimisedBatch got = minimiseBatch(gpu, q0);
      std::printf("[ rounds metric ] %s: %ld rounds, graph %s\n", gpu.name().c_str(),
                  gpu.lastStats().rounds, gpu.lastStats().graph ? "yes" : "no");
      expectSameBatch(got, minimiseBatch(twin, q0), n,
                      std::string("metric ") + (metric ? "on, " : "off, ") +
                          std::to_string(gpu.teamThreads()) + " threads, poll " +
                          std::to_string(o.roundsPerPoll) + ", resident " +
                          std::to_string(o.residentStructures));
      for (std::size_t b = 0; b < batch; ++b) EXPECT_TRUE(got.results[b].converged()) << b;
    }
  }
}

// Packing the tail under the angle-axis metric (the RMS gradients move with their rows): 400
// rigid structures give the unpacked engine's bits; the engine does pack.
TEST(BatchedLbfgsMetricCuda, PackingTheTailChangesNoBit) {
  SKIP_WITHOUT_GPU();
  const RigidLj lj;
  const std::size_t n = lj.system.dimension(), batch = 400;
  std::vector<double> q0 = perturbedRigidBatch(lj.system, lj.layout.atoms, batch, 0.1, 0.6, 71);
  BatchedLennardJonesCuda atomistic(lj.atoms);
  BatchedRigidBodyCuda potential(atomistic, lj.system, batch);
  ASSERT_TRUE(potential.rowsMayMove());
  LbfgsParams params = benchParams(5000);
  params.useDiagonalMetric = true;
  BatchedRoundsOptions unpacked = roundsOptions(0, 32, 0);
  unpacked.packFactor = 0;
  BatchedLbfgsRoundsCuda plain(potential, params, unpacked);
  const MinimisedBatch want = minimiseBatch(plain, q0);
  for (int poll : {1, 32}) {
    BatchedRoundsOptions o = roundsOptions(0, poll, 0);
    o.packFactor = 2;
    BatchedLbfgsRoundsCuda gpu(potential, params, o);
    expectSameBatch(minimiseBatch(gpu, q0), want, n, "packed, poll " + std::to_string(poll));
    EXPECT_GT(gpu.lastStats().packs, 0) << poll;
  }
}

// The engine on the device against the twin over the CPU batch, from starts near minima: the
// rounds tests' tolerance (energy 1e-10 relative, the same convergence).
TEST(BatchedLbfgsMetricCuda, RoundsEngineFollowsTheCpuTwinInsideABasin) {
  SKIP_WITHOUT_GPU();
  const RigidLj lj;
  const std::size_t batch = 6;
  BatchedLennardJones cpuAtoms(lj.atoms, 2);
  BatchedRigidBodyPotential cpu(cpuAtoms, lj.system, 2);
  BatchedLennardJonesCuda gpuAtoms(lj.atoms);
  BatchedRigidBodyCuda gpuPotential(gpuAtoms, lj.system, batch);
  for (bool metric : {true, false}) {
    LbfgsParams params = benchParams(10000);
    params.useDiagonalMetric = metric;
    BatchedLbfgs quench(cpu, params, 2);
    MinimisedBatch minima = minimiseBatch(
        quench, perturbedRigidBatch(lj.system, lj.layout.atoms, batch, 0.1, 0.6, 90));
    std::vector<double> q0 = minima.x;
    Random random(6);
    for (double& v : q0) v += 0.02 * random.symmetric();
    BatchedLbfgsRoundsTwin twin(cpu, params, {}, 2);
    auto gpu = makeBatchedMinimiserOver(gpuPotential, params, Backend::Cuda,
                                        {BatchedEngine::Rounds});
    const MinimisedBatch ref = minimiseBatch(twin, q0), got = minimiseBatch(*gpu, q0);
    for (std::size_t b = 0; b < batch; ++b) {
      const std::string where =
          std::string("metric ") + (metric ? "on" : "off") + ", structure " + std::to_string(b);
      EXPECT_TRUE(ref.results[b].converged()) << where;
      EXPECT_EQ(got.results[b].converged(), ref.results[b].converged()) << where;
      EXPECT_NEAR(got.results[b].energy, ref.results[b].energy,
                  1e-10 * std::abs(ref.results[b].energy))
          << where;
      std::printf("[ rounds gpu vs cpu twin, rigid LJ%zu ] %s: %d vs %d iterations\n", lj.atoms,
                  where.c_str(), got.results[b].iterations, ref.results[b].iterations);
    }
  }
}

TEST(BatchedLbfgsMetricCuda, CompactDirectionsWithAMetricAreRefused) {
  SKIP_WITHOUT_GPU();
  const RigidLj lj;
  BatchedLennardJonesCuda atomistic(lj.atoms);
  BatchedRigidBodyCuda potential(atomistic, lj.system, 1);
  BatchedRoundsOptions o;
  o.compactFromHistory = 1;
  EXPECT_THROW(BatchedLbfgsRoundsCuda(potential, benchParams(100), o), std::invalid_argument);
  LbfgsParams off = benchParams(100);
  off.useDiagonalMetric = false;
  BatchedLbfgsRoundsCuda compact(potential, off, o);
  EXPECT_NE(compact.name().find("compact"), std::string::npos) << compact.name();
}

#endif

}  // namespace
}  // namespace landscape
