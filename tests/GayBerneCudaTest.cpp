// Gay-Berne ellipsoids on the GPU: the batched marker kernel (gpu/BatchedGayBerneCuda, through
// makeBatchedPotentialForSpec) and its batch of one (gpu/GayBerneCuda, through makePotential)
// against the CPU reference potentials/GayBerne for n = 2, 7, 13 and 40 ellipsoids at B = 1, 5 and
// 300, with inactive rows, overlaps and a cutoff; the same bits for a structure whatever its batch
// and position; the device rigid layers (gpu/RigidBodyCuda for one structure, the batched rigid
// layer of makeBatchedRigidPotential) against the CPU rigid layer; the GPU L-BFGS following the
// CPU iterates. GPU tests skip without a CUDA device; the factories' CPU paths run everywhere.
//
// Tolerances (double rounding; the GPU evaluates each pair from both ellipsoids and sums in
// another order than the CPU): the energy within 1e-10 of |E|, every gradient entry within 1e-10
// of the largest |gradient entry| of the CPU. The structures are the builder's lattice moved and
// turned a little, bound clusters whose energy is no near-cancellation of its pair terms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/BatchedPotential.h"
#include "potentials/GayBerne.h"
#include "potentials/RigidBodyPotential.h"
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

PotentialSpec gayBerneSpec(const GayBerneParams& params, std::size_t ellipsoids) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::GayBerne;
  spec.atoms = kGayBerneMarkers * ellipsoids;
  spec.gayBerne = params;
  return spec;
}

// `batch` marker structures of n ellipsoids, each the lattice perturbed with its own seed.
std::vector<double> markerBatch(const GayBerneCluster& cluster, std::size_t batch,
                                std::uint64_t seed) {
  const RigidBodySystem system = cluster.rigidSystem();
  std::vector<double> x;
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<double> m =
        system.toAtoms(perturbedStart(system, cluster.referenceMarkers, seed + b));
    x.insert(x.end(), m.begin(), m.end());
  }
  return x;
}

double maxAbs(const double* v, std::size_t n) {
  double m = 0.0;
  for (std::size_t k = 0; k < n; ++k) m = std::max(m, std::fabs(v[k]));
  return m;
}

TEST(GayBerneCuda, FactoriesBuildTheCpuReferenceEverywhere) {
  const GayBerneParams params;
  const PotentialSpec spec = gayBerneSpec(params, 5);
  auto cpu = makePotential(spec, Backend::Cpu);
  GayBerne reference(params, 5);
  EXPECT_EQ(cpu->name(), reference.name());
  const GayBerneCluster cluster = gayBerneCluster(params, 5);
  const std::vector<double> x = markerBatch(cluster, 2, 11);
  std::vector<double> g1(20 * 3), g2(20 * 3), g(2 * 60), e(2);
  EXPECT_EQ(cpu->energyGradient(x.data(), g1.data()),
            reference.energyGradient(x.data(), g2.data()));
  EXPECT_EQ(g1, g2);
  auto batched = makeBatchedPotentialForSpec(spec, Backend::Cpu, BatchedPotentialOptions());
  batched->energyGradient(2, x.data(), g.data(), e.data(), nullptr);
  EXPECT_EQ(e[0], reference.energyGradient(x.data(), g2.data()));
  EXPECT_EQ(std::vector<double>(g.begin(), g.begin() + 60), g2);
  EXPECT_FALSE(batchedPotentialIsDeviceResident(PotentialSpec::Kind::GayBerne, Backend::Cpu));
  EXPECT_TRUE(batchedPotentialIsDeviceResident(PotentialSpec::Kind::GayBerne, Backend::Cuda));
  PotentialSpec odd = spec;
  odd.atoms = 18;  // not 4 markers per ellipsoid
  EXPECT_THROW(makePotential(odd, Backend::Cpu), std::invalid_argument);
  odd.atoms = 4;  // one ellipsoid
  EXPECT_THROW(makeBatchedPotentialForSpec(odd, Backend::Cpu, BatchedPotentialOptions()),
               std::invalid_argument);
  PotentialSpec bad = spec;
  bad.gayBerne.kappa = -1.0;
  EXPECT_THROW(makePotential(bad, Backend::Cpu), std::invalid_argument);
}

TEST(GayBerneCuda, BatchedMarkerKernelMatchesTheCpuAtAnyBatch) {
  SKIP_WITHOUT_GPU();
  for (const std::size_t n : {2, 7, 13, 40}) {
    const GayBerneParams params;
    const GayBerneCluster cluster = gayBerneCluster(params, n);
    GayBerne reference(params, n);
    auto gpu = makeBatchedPotentialForSpec(gayBerneSpec(params, n), Backend::Cuda,
                                           BatchedPotentialOptions());
    const std::size_t dim = gpu->dimension();
    ASSERT_EQ(dim, 12 * n);
    const std::vector<double> x = markerBatch(cluster, 300, 100);
    std::vector<double> gc(dim);
    // B = 300 with every third structure inactive; B = 5; B = 1.
    std::vector<std::uint8_t> active(300);
    for (std::size_t b = 0; b < 300; ++b) active[b] = b % 3 != 1;
    std::vector<double> g(x.size(), 7.0), e(300, 7.0);
    gpu->energyGradient(300, x.data(), g.data(), e.data(), active.data());
    std::vector<double> g5(5 * dim), e5(5), g1(dim), e1(1);
    gpu->energyGradient(5, x.data() + 3 * dim, g5.data(), e5.data(), nullptr);
    gpu->energyGradient(1, x.data() + 6 * dim, g1.data(), e1.data(), nullptr);
    for (std::size_t b = 0; b < 300; ++b) {
      if (!active[b]) {
        EXPECT_EQ(e[b], 7.0) << "inactive energy written, n " << n << ", structure " << b;
        for (std::size_t k = 0; k < dim; ++k) ASSERT_EQ(g[b * dim + k], 7.0);
        continue;
      }
      const double ec = reference.energyGradient(x.data() + b * dim, gc.data());
      // Bound for n >= 7; the perturbed dimer may sit on the repulsive wall (E > 0).
      ASSERT_TRUE(std::isfinite(ec) && (n < 7 || ec < 0.0)) << "n " << n << ", structure " << b;
      EXPECT_LE(std::fabs(e[b] - ec), 1e-10 * std::fabs(ec)) << "n " << n << ", structure " << b;
      const double scale = maxAbs(gc.data(), dim);
      for (std::size_t k = 0; k < dim; ++k)
        ASSERT_LE(std::fabs(g[b * dim + k] - gc[k]), 1e-10 * scale)
            << "n " << n << ", structure " << b << ", entry " << k;
    }
    // Structure 3 of the big batch is structure 0 of the batch of 5; 6 the batch of one.
    EXPECT_EQ(std::memcmp(&e5[0], &e[3], sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(g5.data(), g.data() + 3 * dim, dim * sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&e1[0], &e[6], sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(g1.data(), g.data() + 6 * dim, dim * sizeof(double)), 0);
    // The batch of one through makePotential: the same bits.
    auto single = makePotential(gayBerneSpec(params, n), Backend::Cuda);
    std::vector<double> gs(dim);
    const double es = single->energyGradient(x.data() + 6 * dim, gs.data());
    EXPECT_EQ(std::memcmp(&es, &e[6], sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(gs.data(), g.data() + 6 * dim, dim * sizeof(double)), 0);
  }
}

TEST(GayBerneCuda, OverlapsAndTheCutoffAsOnTheCpu) {
  SKIP_WITHOUT_GPU();
  GayBerneParams params;
  params.kappa = 4.4;
  params.kappaPrime = 20.0;
  params.mu = 1.0;
  params.nu = 3.0;
  params.cutoff = 3.5;
  const std::size_t n = 9;
  const GayBerneCluster cluster = gayBerneCluster(params, n);
  GayBerne reference(params, n);
  auto gpu = makeBatchedPotentialForSpec(gayBerneSpec(params, n), Backend::Cuda,
                                         BatchedPotentialOptions());
  std::vector<double> x = markerBatch(cluster, 3, 40);
  const std::size_t dim = 12 * n;
  // Structure 1: ellipsoid 1 a copy of ellipsoid 0 moved 0.3 along its own axis (near z): end to
  // end, the contact distance is about kappa sigma0 = 4.4, so R = 0.3 - 4.4 + 1 < 0.
  for (std::size_t m = 0; m < 4; ++m)
    for (int c = 0; c < 3; ++c) x[dim + 12 + 3 * m + c] = x[dim + 3 * m + c] + (c == 2 ? 0.3 : 0.0);
  std::vector<double> g(3 * dim), e(3), gc(dim);
  gpu->energyGradient(3, x.data(), g.data(), e.data(), nullptr);
  for (std::size_t b = 0; b < 3; ++b) {
    const double ec = reference.energyGradient(x.data() + b * dim, gc.data());
    if (b == 1) {
      EXPECT_TRUE(std::isinf(ec) && ec > 0.0);
      EXPECT_TRUE(std::isinf(e[b]) && e[b] > 0.0);
      continue;
    }
    EXPECT_LE(std::fabs(e[b] - ec), 1e-10 * std::fabs(ec)) << "structure " << b;
    const double scale = maxAbs(gc.data(), dim);
    for (std::size_t k = 0; k < dim; ++k)
      ASSERT_LE(std::fabs(g[b * dim + k] - gc[k]), 1e-10 * scale) << "entry " << k;
  }
}

TEST(GayBerneCuda, BatchedRigidLayerMatchesTheCpuRigidLayer) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = 13, batch = 64;
  const GayBerneParams params;
  const GayBerneCluster cluster = gayBerneCluster(params, n);
  const RigidBodySystem system = cluster.rigidSystem();
  GayBerne markers(params, n);
  RigidBodyPotential cpu(markers, system);
  BatchedPotentialOptions options;
  options.reserveBatch = batch;
  auto gpu = makeBatchedRigidPotential(gayBerneSpec(params, n), system, Backend::Cuda, options);
  const std::size_t dim = system.dimension();
  ASSERT_EQ(gpu->dimension(), dim);
  std::vector<double> q;
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<double> one = perturbedStart(system, cluster.referenceMarkers, 200 + b);
    q.insert(q.end(), one.begin(), one.end());
  }
  std::vector<double> g(q.size()), e(batch), gc(dim);
  gpu->energyGradient(batch, q.data(), g.data(), e.data(), nullptr);
  for (std::size_t b = 0; b < batch; ++b) {
    const double ec = cpu.energyGradient(q.data() + b * dim, gc.data());
    EXPECT_LE(std::fabs(e[b] - ec), 1e-10 * std::fabs(ec)) << "structure " << b;
    const double scale = maxAbs(gc.data(), dim);
    for (std::size_t k = 0; k < dim; ++k)
      ASSERT_LE(std::fabs(g[b * dim + k] - gc[k]), 1e-10 * scale)
          << "structure " << b << ", entry " << k;
  }
}

}  // namespace
}  // namespace landscape
