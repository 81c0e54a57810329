// Batched local rigid bodies on the CPU (potentials/BatchedRigidBodyPotential):
// every structure's energy and rigid gradient are RigidBodyPotential's bits over the same
// atomistic potential, whatever the batch, its order, the mask and the thread count (Lennard-Jones
// bodies of 3 to 40 atoms with free atoms; rigid Trp-cage on AMBER-GB through the factory);
// inactive rows untouched; the batched gradient against central differences in rigid
// coordinates; the factory's refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/BatchedRigidBodyPotential.h"
#include "potentials/LennardJones.h"
#include "potentials/RigidBodyPotential.h"
#include "tests/BatchedStructures.h"
#include "tests/RigidLayouts.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

using batchtest::sameBits;
using rigidtest::makeLayout;
using rigidtest::perturbedRigidBatch;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Every active structure of q against `single`, bit for bit; inactive rows keep their NaNs.
void expectSingleStructureBits(BatchedPotential& batched, Potential& single,
                               const std::vector<double>& q,
                               const std::vector<std::uint8_t>& active, const std::string& where) {
  const std::size_t n = single.dimension(), batch = q.size() / n;
  std::vector<double> g(q.size(), kNaN), e(batch, kNaN);
  evaluateBatch(batched, q, g, e, active);
  for (std::size_t b = 0; b < batch; ++b) {
    if (!active.empty() && !active[b]) {
      EXPECT_TRUE(std::isnan(e[b])) << where << ", structure " << b;
      for (std::size_t k = 0; k < n; ++k) ASSERT_TRUE(std::isnan(g[b * n + k])) << where << k;
      continue;
    }
    std::vector<double> gs(n);
    const double es = single.energyGradient(&q[b * n], gs.data());
    EXPECT_TRUE(sameBits(e[b], es)) << where << ", structure " << b << ": " << e[b] << " vs " << es;
    EXPECT_TRUE(sameBits(&g[b * n], gs.data(), n)) << where << ", structure " << b;
  }
}

TEST(BatchedRigidBody, EveryStructureIsTheSingleStructurePotentialBitForBit) {
  const rigidtest::Layout layout = makeLayout({3, 11, 40, 5}, 21, 17);
  const std::size_t atoms = layout.atoms.size() / 3;
  const RigidBodySystem system(layout.set, layout.atoms);
  LennardJones lj(atoms);
  RigidBodyPotential single(lj, system);
  const std::size_t batch = 13;
  const std::vector<double> q = perturbedRigidBatch(system, layout.atoms, batch, 0.05, 0.8, 40);
  for (int threads : {1, 2, 3}) {
    BatchedLennardJones atomistic(atoms, threads);
    BatchedRigidBodyPotential batched(atomistic, system, threads);
    ASSERT_EQ(batched.dimension(), system.dimension());
    const std::string where = std::to_string(threads) + " threads";
    expectSingleStructureBits(batched, single, q, {}, where);
    std::vector<std::uint8_t> mask(batch, 1);
    for (std::size_t b = 0; b < batch; b += 3) mask[b] = 0;
    expectSingleStructureBits(batched, single, q, mask, where + ", masked");
    // A batch of one and the batch in reverse order: the same bits again.
    const std::size_t n = system.dimension();
    expectSingleStructureBits(batched, single,
                              std::vector<double>(q.begin() + 5 * n, q.begin() + 6 * n), {},
                              where + ", B = 1");
    std::vector<double> reversed;
    for (std::size_t b = batch; b-- > 0;)
      reversed.insert(reversed.end(), q.begin() + b * n, q.begin() + (b + 1) * n);
    expectSingleStructureBits(batched, single, reversed, {}, where + ", reversed");
  }
}

TEST(BatchedRigidBody, AllBodiesAndNoBodies) {
  for (const std::vector<std::size_t>& bodies :
       {std::vector<std::size_t>{3, 4, 5}, std::vector<std::size_t>{}}) {
    const rigidtest::Layout layout = makeLayout(bodies, bodies.empty() ? 13 : 0, 3);
    const std::size_t atoms = layout.atoms.size() / 3;
    const RigidBodySystem system(layout.set, layout.atoms);
    LennardJones lj(atoms);
    RigidBodyPotential single(lj, system);
    BatchedLennardJones atomistic(atoms, 2);
    BatchedRigidBodyPotential batched(atomistic, system, 2);
    expectSingleStructureBits(batched, single,
                              perturbedRigidBatch(system, layout.atoms, 4, 0.05, 0.5, 9), {},
                              std::to_string(bodies.size()) + " bodies");
  }
}

// Central differences of the batched energy in rigid coordinates (h = 1e-6: truncation ~h^2 times
// the third derivative, round-off ~1e-16 |E| / h; both far below 1e-6 of the largest component),
// every component of two structures with bodies turned far from p = 0, one near |p| = pi.
TEST(BatchedRigidBody, GradientMatchesCentralDifferences) {
  const rigidtest::Layout layout = makeLayout({3, 11}, 16, 5);
  const std::size_t atoms = layout.atoms.size() / 3;
  const RigidBodySystem system(layout.set, layout.atoms);
  BatchedLennardJones atomistic(atoms, 1);
  BatchedRigidBodyPotential batched(atomistic, system, 2);
  std::vector<double> q = perturbedRigidBatch(system, layout.atoms, 2, 0.03, 1.0, 77);
  const std::size_t n = system.dimension(), B = system.bodyCount();
  q[n + 3 * B] = 3.1;  // structure 1, body 0: |p| close to pi
  q[n + 3 * B + 1] = 0.1;
  std::vector<double> g(q.size()), e(2);
  evaluateBatch(batched, q, g, e);
  const double h = 1e-6;
  for (std::size_t s = 0; s < 2; ++s) {
    double scale = 0.0;
    for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, std::fabs(g[s * n + i]));
    for (std::size_t i = 0; i < n; ++i) {
      // Both displaced copies in one batch of two.
      std::vector<double> pm(q.begin() + s * n, q.begin() + (s + 1) * n);
      pm.insert(pm.end(), pm.begin(), pm.end());
      pm[i] += h;
      pm[n + i] -= h;
      std::vector<double> gpm(2 * n), epm(2);
      evaluateBatch(batched, pm, gpm, epm);
      EXPECT_NEAR(g[s * n + i], (epm[0] - epm[1]) / (2 * h), 1e-6 * std::max(1.0, scale))
          << "structure " << s << ", component " << i;
    }
  }
}

TEST(BatchedRigidBody, RefusesMismatchedSystemsAndNullArrays) {
  const rigidtest::Layout layout = makeLayout({3}, 5, 1);
  const RigidBodySystem system(layout.set, layout.atoms);
  BatchedLennardJones wrong(9, 1);
  EXPECT_THROW(BatchedRigidBodyPotential(wrong, system, 1), std::invalid_argument);
  BatchedLennardJones atomistic(8, 1);
  EXPECT_THROW(BatchedRigidBodyPotential(atomistic, system, 0), std::invalid_argument);
  BatchedRigidBodyPotential batched(atomistic, system, 1);
  double e = 0.0;
  EXPECT_THROW(batched.energyGradient(1, nullptr, nullptr, &e, nullptr), std::invalid_argument);
  PotentialSpec spec;
  spec.atoms = 9;
  EXPECT_THROW(makeBatchedRigidPotential(spec, system, Backend::Cpu), std::invalid_argument);
}

TEST(BatchedRigidBody, FactoryOnCudaWithoutADeviceSaysWhy) {
  if (gpuAvailable()) GTEST_SKIP() << "a device is present";
  const rigidtest::Layout layout = makeLayout({3}, 5, 1);
  const RigidBodySystem system(layout.set, layout.atoms);
  PotentialSpec spec;
  spec.atoms = 8;
  try {
    makeBatchedRigidPotential(spec, system, Backend::Cuda);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
  }
}

// Rigid Trp-cage (make_rigid_bodies' local groups: 27 bodies of <= 11 atoms, the rest free) on
// AMBER-GB through the factory (PerStructureBatchedPotential over AmberGb copies): each structure
// is RigidBodyPotential over AmberGb bit for bit, for 1 and 3 threads and a mask.
TEST(BatchedRigidBody, FactoryTrpCageIsTheSingleStructurePotentialBitForBit) {
  const auto trp = rigidtest::loadRigidTrpCage();
  if (!trp) GTEST_SKIP() << "no gb/trpcage data under " << testDataRoot();
  const PotentialSpec& spec = trp->spec;
  const std::vector<double>& x = trp->x;
  const RigidBodySystem& system = trp->system;
  const AmberTopology& topology = *spec.amberTopology;
  AmberGb gb(topology, spec.amber);
  RigidBodyPotential single(gb, system);
  const std::vector<double> q = perturbedRigidBatch(system, x, 4, 0.05, 0.05, 3);
  for (int threads : {1, 3}) {
    BatchedPotentialOptions options;
    options.threads = threads;
    auto batched = makeBatchedRigidPotential(spec, system, Backend::Cpu, options);
    expectSingleStructureBits(*batched, single, q, {1, 0, 1, 1},
                              "trpcage, " + std::to_string(threads) + " threads");
  }
}

}  // namespace
}  // namespace landscape
