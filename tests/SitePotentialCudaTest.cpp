// Site potentials on the GPU: gpu/BatchedSitePotentialCuda (B structures of a site model, a block
// each) and gpu/SitePotentialCuda (its batch of one) against the CPU reference
// potentials/SitePotential for rigid TIP4P clusters (H2O)n, n = 2, 8, 20 (potentials/WaterCluster),
// B = 1, 7, 256, as site Cartesians and through the rigid layer (makeBatchedRigidPotential on cuda
// against RigidBodyPotential over SitePotential on the CPU); the bits of a structure whatever its
// batch, position, mask, stream and entry point, and from run to run; inactive rows untouched.
// On every machine: the partner table (gpu/SitePartnerTable.h) against TIP4P's charges and
// Lennard-Jones sites, its chunks, the kernel loop's CPU twin against SitePotential, and the
// factories' CPU paths (Kind::Sites) against the potentials they wrap, bit for bit. GPU tests skip
// without a device.
//
// Tolerances (double rounding; the GPU evaluates each pair from both sites and sums each site's
// partners in list order, the CPU every pair i < j once): the energy within 1e-10 of |E| of the
// CPU, every gradient entry within 1e-10 of the largest |gradient entry| of the CPU, in site and
// in rigid coordinates. The clusters are hydrogen-bonded (quenched, then perturbed), where the
// sum of |pair energies| is 90 |E| for (H2O)2 to 320 |E| for (H2O)20, so double rounding of the
// pair sums stays near 1e-13 |E|; random orientations would make E a near-cancellation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "gpu/SitePartnerTable.h"
#include "landscape/core/Random.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/search/RigidBodyMoves.h"
#include "potentials/BatchedPotential.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/SiteModel.h"
#include "potentials/SitePotential.h"
#include "potentials/WaterCluster.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/BatchedSitePotentialCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/SitePotentialCuda.h"
#endif

namespace landscape {
namespace {

PotentialSpec siteSpec(const SiteModel& model) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sites;
  spec.siteModel = std::make_shared<const SiteModel>(model);
  return spec;
}

/// Rigid coordinates of an (H2O)n cluster: the molecules' centres on a cubic grid of 3.1 A (the
/// TIP4P O-O distance of a hydrogen bond is ~2.75 A) moved by up to 0.2 A, every orientation a
/// random angle-axis vector with |p| <= pi. Seeded: the same cluster on every run.
std::vector<double> gridStart(const RigidBodySystem& system, std::size_t molecules,
                              std::mt19937_64& rng) {
  std::uniform_real_distribution<double> jitter(-0.2, 0.2), unit(-1.0, 1.0);
  std::size_t side = 1;
  while (side * side * side < molecules) ++side;
  std::vector<double> q(system.dimension());
  for (std::size_t m = 0; m < molecules; ++m) {
    const std::size_t cell[3] = {m % side, (m / side) % side, m / (side * side)};
    for (int c = 0; c < 3; ++c) q[3 * m + c] = 3.1 * double(cell[c]) + jitter(rng);
    double p[3], norm = 0.0;
    do {
      norm = 0.0;
      for (int c = 0; c < 3; ++c) {
        p[c] = unit(rng);
        norm += p[c] * p[c];
      }
    } while (norm > 1.0 || norm < 1e-6);
    for (int c = 0; c < 3; ++c) q[3 * molecules + 3 * m + c] = 3.14159 * p[c];
  }
  return q;
}

/// `batch` bound (H2O)n clusters: gridStart quenched by L-BFGS on RigidBodyPotential over
/// SitePotential (a hydrogen-bonded cluster, E ~ -20 to -40 kJ/mol per molecule, so that the
/// energy is not a near-cancellation of its pair terms), each structure that quench with every
/// centre moved by up to 0.05 A and every angle-axis component by up to 0.05 rad.
std::vector<double> randomRigidWater(const RigidBodySystem& system, std::size_t molecules,
                                     std::size_t batch, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> q0 = gridStart(system, molecules, rng);
  SitePotential sites(tip4pCluster(molecules).model);
  RigidBodyPotential rigid(sites, system);
  LbfgsParams params;
  params.maxIterations = 3000;
  params.rmsTolerance = 1e-3;
  Lbfgs(params).minimize(rigid, q0);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> q;
  for (std::size_t b = 0; b < batch; ++b)
    for (double v : q0) q.push_back(v + 0.05 * unit(rng));
  return q;
}

/// `batch` bound clusters of TIP4P molecules with ions (water.ions): a random start in a ball of
/// 4 A quenched by L-BFGS on the CPU rigid potential to RMS 1e-3, then every rigid coordinate
/// (centres, angle-axis vectors, the ions' positions) moved by up to 0.05 per structure.
std::vector<double> boundWaterWithIons(const WaterCluster& water, std::size_t batch,
                                       unsigned seed) {
  const RigidBodySystem system = water.rigidSystem();
  Random random(seed);
  std::vector<double> q0 = randomRigidStructure(system, 4.0, random);
  SitePotential sites(water.model);
  RigidBodyPotential rigid(sites, system);
  LbfgsParams params;
  params.maxIterations = 3000;
  params.rmsTolerance = 1e-3;
  Lbfgs(params).minimize(rigid, q0);
  std::vector<double> q;
  for (std::size_t b = 0; b < batch; ++b)
    for (double v : q0) q.push_back(v + 0.05 * random.symmetric());
  return q;
}

/// Site Cartesians of every structure of q.
std::vector<double> sitesOf(const RigidBodySystem& system, const std::vector<double>& q) {
  const std::size_t n = system.dimension(), batch = q.size() / n;
  std::vector<double> x;
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<double> one =
        system.toAtoms(std::vector<double>(q.begin() + b * n, q.begin() + (b + 1) * n));
    x.insert(x.end(), one.begin(), one.end());
  }
  return x;
}

double maxAbs(const double* v, std::size_t n) {
  double m = 0.0;
  for (std::size_t k = 0; k < n; ++k) m = std::max(m, std::fabs(v[k]));
  return m;
}

bool sameBits(const double* a, const double* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
}

/// e and g (dimension n) against the reference ec, gc at the stated tolerances.
void expectClose(double e, const double* g, double ec, const double* gc, std::size_t n,
                 const std::string& what) {
  EXPECT_LE(std::fabs(e - ec), 1e-10 * std::fabs(ec)) << what << ": " << e << " vs " << ec;
  const double scale = maxAbs(gc, n);
  for (std::size_t k = 0; k < n; ++k)
    ASSERT_LE(std::fabs(g[k] - gc[k]), 1e-10 * scale) << what << ", entry " << k;
}

struct Evaluated {
  std::vector<double> g, e;
};

Evaluated evaluateHost(BatchedPotential& potential, const std::vector<double>& x,
                       const std::vector<std::uint8_t>& active = {}) {
  const std::size_t n = potential.dimension(), batch = x.size() / n;
  Evaluated out;
  out.g.assign(x.size(), std::numeric_limits<double>::quiet_NaN());
  out.e.assign(batch, std::numeric_limits<double>::quiet_NaN());
  potential.energyGradient(batch, x.data(), out.g.data(), out.e.data(),
                           active.empty() ? nullptr : active.data());
  return out;
}

/// Central differences (h = 1e-5 A) of every coordinate of one (H2O)8 structure against the
/// analytic gradient of makePotential(Kind::Sites, backend), within 1e-8 of max(1, max |g|)
/// (~1.4e-6 kJ/mol/A here): the energy's rounding (at most ~1e-16 of the ~5e4 kJ/mol sum of |pair
/// energies|) over 2h is below 3e-7, the truncation (h^2 times the third derivative) smaller; the
/// CPU's largest difference is 5e-8.
void expectCentralDifferences(Backend backend) {
  const WaterCluster water = tip4pCluster(8);
  const RigidBodySystem system = water.rigidSystem();
  std::vector<double> x = sitesOf(system, randomRigidWater(system, 8, 1, 17));
  auto potential = makePotential(siteSpec(water.model), backend);
  std::vector<double> g(x.size());
  potential->energyGradient(x.data(), g.data());
  const double tolerance = 1e-8 * std::max(1.0, maxAbs(g.data(), g.size())), h = 1e-5;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double x0 = x[k];
    x[k] = x0 + h;
    const double plus = potential->energy(x.data());
    x[k] = x0 - h;
    const double minus = potential->energy(x.data());
    x[k] = x0;
    EXPECT_NEAR(g[k], (plus - minus) / (2.0 * h), tolerance) << "component " << k;
  }
}

// ---- on every machine ------------------------------------------------------------------------

// TIP4P: O carries no charge and only O-O has Lennard-Jones, so of a molecule pair's 16 site pairs
// O-O, the 4 H-H, the 4 H-M and M-M interact (10); O's partners are the other oxygens, H's and M's
// the other molecules' H, H and M.
TEST(SitePartnerTable, Tip4pKeepsTheTenInteractingPairsOfEachMoleculePair) {
  for (std::size_t n : {2u, 8u, 20u}) {
    const WaterCluster water = tip4pCluster(n);
    const SitePartnerTable t = buildSitePartnerTable(water.model);
    EXPECT_EQ(t.sites, static_cast<int>(4 * n));
    EXPECT_EQ(t.pairCount(), 10 * n * (n - 1) / 2) << n << " molecules";
    EXPECT_EQ(t.widest, static_cast<int>(3 * (n - 1)));
    for (std::size_t m = 0; m < n; ++m) {
      EXPECT_EQ(t.count[4 * m], static_cast<int>(n - 1)) << "O of molecule " << m;
      for (int s = 1; s < 4; ++s) EXPECT_EQ(t.count[4 * m + s], static_cast<int>(3 * (n - 1)));
    }
    // O-O (C6, C12), H-H, H-M and M-M (k q q): four kinds.
    EXPECT_EQ(t.coefficients.size(), 4u);
    for (int i = 0; i < t.sites; ++i)
      for (int k = 0; k < t.count[i]; ++k) {
        const SitePartner p = t.entries[static_cast<std::size_t>(k) * t.sites + i];
        ASSERT_NE(water.model.molecule[i], water.model.molecule[p.site]);
        if (k > 0)
          ASSERT_LT(t.entries[static_cast<std::size_t>(k - 1) * t.sites + i].site, p.site);
      }
  }
}

// The chunks of the partner lists: every list covered once, in order, by chunks of at most
// chunkLength entries; chunk i is site i's first; chunk-major order; chunkOf names them. TIP4P
// (H2O)20: chunks of 19 (the oxygens' lists), 1 per oxygen and 3 per H and M, 200 in all; (H2O)8:
// the oxygens' 7 is below the shortest chunk (8), so H and M take 8 + 8 + 5; (H2O)2: one each.
TEST(SitePartnerTable, PartnerListsAreCutIntoChunksOfLikeLength) {
  const struct {
    std::size_t molecules;
    int length, perSite, chunks;
  } cases[] = {{2, 8, 1, 8}, {8, 8, 3, 8 + 24 * 3}, {20, 19, 3, 20 + 60 * 3}};
  for (const auto& c : cases) {
    const SitePartnerTable t = buildSitePartnerTable(tip4pCluster(c.molecules).model);
    EXPECT_EQ(t.chunkLength, c.length) << c.molecules;
    EXPECT_EQ(t.chunksPerSite, c.perSite) << c.molecules;
    ASSERT_EQ(static_cast<int>(t.chunks.size()), c.chunks) << c.molecules;
    for (int i = 0; i < t.sites; ++i) {
      int covered = 0;
      for (int k = 0; k < t.chunksPerSite; ++k) {
        const int at = t.chunkOf[static_cast<std::size_t>(k) * t.sites + i];
        if (k == 0) EXPECT_EQ(at, i);
        if (at < 0) break;
        const SiteChunk& chunk = t.chunks[static_cast<std::size_t>(at)];
        EXPECT_EQ(chunk.site, i);
        EXPECT_EQ(chunk.begin, covered);
        EXPECT_LE(chunk.end - chunk.begin, t.chunkLength);
        covered = chunk.end;
      }
      EXPECT_EQ(covered, t.count[i]) << "site " << i;
    }
    for (std::size_t k = 1; k < t.chunks.size(); ++k)
      EXPECT_TRUE(
          t.chunks[k - 1].begin < t.chunks[k].begin ||
          (t.chunks[k - 1].begin == t.chunks[k].begin && t.chunks[k - 1].site < t.chunks[k].site))
          << "chunk " << k;
  }
}

// A chunk is Coulomb-only when none of its pairs has Lennard-Jones: in TIP4P the H and M sites'
// chunks (their partners are the other molecules' H and M, charge only) and never an oxygen's
// (O-O is Lennard-Jones only); with ions, an ion's chunks (its partners include the oxygens) are
// not, and the H and M chunks stay Coulomb-only (H and M have no Lennard-Jones to combine).
TEST(SitePartnerTable, ChunksWithoutLennardJonesAreMarkedCoulombOnly) {
  const SitePartnerTable water = buildSitePartnerTable(tip4pCluster(20).model);
  int coulombOnly = 0;
  for (const SiteChunk& c : water.chunks) {
    EXPECT_EQ(c.coulombOnly, c.site % 4 == 0 ? 0 : 1) << "site " << c.site;
    coulombOnly += c.coulombOnly;
  }
  EXPECT_EQ(coulombOnly, 60 * 3);
  const SitePartnerTable ions =
      buildSitePartnerTable(tip4pCluster(8, tip4pIonsFromList("Na+,Cl-")).model);
  for (const SiteChunk& c : ions.chunks)
    EXPECT_EQ(c.coulombOnly, c.site >= 32 || c.site % 4 == 0 ? 0 : 1) << "site " << c.site;
}

// The kernel's loop on the CPU (siteTableEnergyGradient) against SitePotential on the structures
// of x (site Cartesians); each CPU energy must lie below `bound`.
void expectKernelLoopTwin(const WaterCluster& water, const std::vector<double>& x,
                          double bound = std::numeric_limits<double>::infinity()) {
  const SitePartnerTable t = buildSitePartnerTable(water.model);
  SitePotential cpu(water.model);
  const std::size_t dim = cpu.dimension();
  for (std::size_t b = 0; b < x.size() / dim; ++b) {
    std::vector<double> g(dim), gc(dim);
    const double e = siteTableEnergyGradient(t, &x[b * dim], g.data());
    const double ec = cpu.energyGradient(&x[b * dim], gc.data());
    EXPECT_LT(ec, bound);
    expectClose(e, g.data(), ec, gc.data(), dim,
                water.model.name + ", structure " + std::to_string(b));
  }
}

TEST(SitePartnerTable, KernelLoopTwinMatchesSitePotential) {
  for (std::size_t n : {2u, 8u, 20u}) {
    const WaterCluster water = tip4pCluster(n);
    const RigidBodySystem system = water.rigidSystem();
    expectKernelLoopTwin(water, sitesOf(system, randomRigidWater(system, n, 3, 40 + n)));
  }
}

TEST(SitePotentialFactory, CpuGradientMatchesCentralDifferences) {
  expectCentralDifferences(Backend::Cpu);
}

TEST(SitePotentialFactory, CpuPathsAreThePotentialsTheyWrapBitForBit) {
  EXPECT_TRUE(batchedPotentialIsDeviceResident(PotentialSpec::Kind::Sites, Backend::Cuda));
  EXPECT_FALSE(batchedPotentialIsDeviceResident(PotentialSpec::Kind::Sites, Backend::Cpu));
  const std::size_t n = 8;
  const WaterCluster water = tip4pCluster(n);
  const PotentialSpec spec = siteSpec(water.model);
  const RigidBodySystem system = water.rigidSystem();
  const std::size_t batch = 5, dq = system.dimension();
  const std::vector<double> q = randomRigidWater(system, n, batch, 7);
  const std::vector<double> x = sitesOf(system, q);
  const std::size_t dx = 3 * water.model.siteCount();

  auto single = makePotential(spec, Backend::Cpu);
  ASSERT_NE(dynamic_cast<SitePotential*>(single.get()), nullptr);
  BatchedPotentialOptions options;
  options.threads = 2;
  auto batched = makeBatchedPotentialForSpec(spec, Backend::Cpu, options);
  ASSERT_EQ(batched->dimension(), dx);
  const Evaluated atoms = evaluateHost(*batched, x);
  auto rigid = makeBatchedRigidPotential(spec, system, Backend::Cpu, options);
  ASSERT_EQ(rigid->dimension(), dq);
  const Evaluated bodies = evaluateHost(*rigid, q, {1, 1, 0, 1, 1});
  SitePotential sites(water.model);
  RigidBodyPotential reference(sites, system);
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<double> g(dx), gq(dq);
    const double e = single->energyGradient(&x[b * dx], g.data());
    EXPECT_TRUE(sameBits(&e, &atoms.e[b], 1)) << "structure " << b;
    EXPECT_TRUE(sameBits(g.data(), &atoms.g[b * dx], dx)) << "structure " << b;
    if (b == 2) {
      EXPECT_TRUE(std::isnan(bodies.e[b]));
      for (std::size_t k = 0; k < dq; ++k) ASSERT_TRUE(std::isnan(bodies.g[b * dq + k]));
      continue;
    }
    const double eq = reference.energyGradient(&q[b * dq], gq.data());
    EXPECT_TRUE(sameBits(&eq, &bodies.e[b], 1)) << "rigid structure " << b;
    EXPECT_TRUE(sameBits(gq.data(), &bodies.g[b * dq], dq)) << "rigid structure " << b;
  }

  PotentialSpec missing;
  missing.kind = PotentialSpec::Kind::Sites;
  EXPECT_THROW(makePotential(missing, Backend::Cpu), std::invalid_argument);
  EXPECT_THROW(makeBatchedPotentialForSpec(missing, Backend::Cpu), std::invalid_argument);
  SiteModel bad = water.model;
  bad.c6[0] = -1.0;
  EXPECT_THROW(makePotential(siteSpec(bad), Backend::Cpu), std::invalid_argument);
  EXPECT_THROW(makeBatchedPotentialForSpec(siteSpec(bad), Backend::Cpu), std::invalid_argument);

  if (gpuAvailable()) GTEST_SKIP() << "a device is present (the GPU tests below build them)";
  EXPECT_THROW(makePotential(spec, Backend::Cuda), std::runtime_error);
  try {
    makeBatchedPotentialForSpec(spec, Backend::Cuda);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("site potential on cuda"), std::string::npos)
        << error.what();
  }
}

#ifdef LANDSCAPE_HAVE_CUDA
// Ions among the molecules (one-site molecules, free atoms of the rigid layer): Na+ and Cl- carry a
// charge and a Lennard-Jones core, so an ion pairs with all 4 sites of each molecule (O by
// Lennard-Jones, H, H and M by charge) and with the other ion. The kernel loop's twin against
// SitePotential on such clusters.
TEST(SitePartnerTable, IonsPairWithEverySiteThatCanInteract) {
  const WaterCluster water = tip4pCluster(8, tip4pIonsFromList("Na+,Cl-"));
  const SitePartnerTable t = buildSitePartnerTable(water.model);
  EXPECT_EQ(t.sites, 34);
  EXPECT_EQ(t.pairCount(), 10u * 28u + 4u * 8u * 2u + 1u);
  EXPECT_EQ(t.count[32], 4 * 8 + 1);
  EXPECT_EQ(t.count[33], 4 * 8 + 1);
  EXPECT_EQ(t.count[0], 7 + 2);  // an oxygen: 7 oxygens and both ions
  // Bound clusters: each below -100 kJ/mol.
  expectKernelLoopTwin(water, sitesOf(water.rigidSystem(), boundWaterWithIons(water, 3, 5)),
                       -100.0);
}

#define REQUIRE_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

TEST(BatchedSitePotentialCuda, MatchesTheCpuReference) {
  REQUIRE_GPU();
  for (std::size_t n : {2u, 8u, 20u}) {
    const WaterCluster water = tip4pCluster(n);
    const RigidBodySystem system = water.rigidSystem();
    BatchedSitePotentialCuda gpu(water.model);
    EXPECT_EQ(gpu.interactingPairs(), 10 * n * (n - 1) / 2);
    SitePotential cpu(water.model);
    const std::size_t dim = cpu.dimension();
    for (std::size_t batch : {1u, 7u, 256u}) {
      const std::vector<double> x =
          sitesOf(system, randomRigidWater(system, n, batch, 100 * n + batch));
      const Evaluated out = evaluateHost(gpu, x);
      for (std::size_t b = 0; b < batch; ++b) {
        std::vector<double> gc(dim);
        const double ec = cpu.energyGradient(&x[b * dim], gc.data());
        expectClose(out.e[b], &out.g[b * dim], ec, gc.data(), dim,
                    std::to_string(n) + " molecules, B = " + std::to_string(batch) +
                        ", structure " + std::to_string(b));
      }
    }
  }
}

// The Coulomb-only warps' short pair law drops only exact zeros: the same bits as the full law in
// every warp, for (H2O)20 (4 of 7 warps take it) and for water with ions.
TEST(BatchedSitePotentialCuda, CoulombShortcutGivesTheFullLawsBits) {
  REQUIRE_GPU();
  const WaterCluster water = tip4pCluster(20);
  const WaterCluster ions = tip4pCluster(8, tip4pIonsFromList("Na+,Cl-"));
  const std::vector<std::pair<const WaterCluster*, std::vector<double>>> cases = {
      {&water, sitesOf(water.rigidSystem(), randomRigidWater(water.rigidSystem(), 20, 33, 11))},
      {&ions, sitesOf(ions.rigidSystem(), boundWaterWithIons(ions, 33, 12))}};
  for (const auto& [cluster, x] : cases) {
    BatchedSitePotentialCuda shortcut(cluster->model);
    BatchedSitePotentialCuda full(cluster->model, 0, SitePairLawPath::FullLawEverywhere);
    const Evaluated a = evaluateHost(shortcut, x), b = evaluateHost(full, x);
    EXPECT_TRUE(sameBits(a.e.data(), b.e.data(), a.e.size())) << cluster->model.name;
    EXPECT_TRUE(sameBits(a.g.data(), b.g.data(), a.g.size())) << cluster->model.name;
  }
}

TEST(BatchedSitePotentialCuda, AStructureHasTheSameBitsWhateverItsBatch) {
  REQUIRE_GPU();
  const std::size_t molecules = 8, batch = 9;
  const WaterCluster water = tip4pCluster(molecules);
  const RigidBodySystem system = water.rigidSystem();
  const std::vector<double> x = sitesOf(system, randomRigidWater(system, molecules, batch, 5));
  BatchedSitePotentialCuda potential(water.model);
  const std::size_t n = potential.dimension();
  const Evaluated all = evaluateHost(potential, x);
  const Evaluated again = evaluateHost(potential, x);
  EXPECT_TRUE(sameBits(all.g.data(), again.g.data(), x.size())) << "run to run";
  EXPECT_TRUE(sameBits(all.e.data(), again.e.data(), batch)) << "run to run";
  std::vector<double> reversed;
  for (std::size_t b = batch; b-- > 0;)
    reversed.insert(reversed.end(), x.begin() + b * n, x.begin() + (b + 1) * n);
  const Evaluated back = evaluateHost(potential, reversed);
  std::vector<std::uint8_t> active(batch, 1);
  active[1] = active[4] = active[5] = 0;
  const Evaluated masked = evaluateHost(potential, x, active);
  DeviceBuffer<double> dx(x), dg(x.size()), de(batch);
  cudaStream_t stream = nullptr;
  LANDSCAPE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  potential.energyGradientDevice(batch, dx.data(), dg.data(), de.data(), nullptr, stream);
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
  LANDSCAPE_CUDA_CHECK(cudaStreamDestroy(stream));
  const std::vector<double> deviceG = dg.toHost(), deviceE = de.toHost();
  SitePotentialCuda single(water.model);
  for (std::size_t b = 0; b < batch; ++b) {
    const std::string what = "structure " + std::to_string(b);
    BatchedSitePotentialCuda alone(water.model);
    const Evaluated one =
        evaluateHost(alone, std::vector<double>(x.begin() + b * n, x.begin() + (b + 1) * n));
    EXPECT_TRUE(sameBits(&one.e[0], &all.e[b], 1)) << what;
    EXPECT_TRUE(sameBits(one.g.data(), &all.g[b * n], n)) << what;
    std::vector<double> gs(n);
    const double es = single.energyGradient(&x[b * n], gs.data());
    EXPECT_TRUE(sameBits(&es, &all.e[b], 1)) << what << " (SitePotentialCuda)";
    EXPECT_TRUE(sameBits(gs.data(), &all.g[b * n], n)) << what << " (SitePotentialCuda)";
    const std::size_t r = batch - 1 - b;
    EXPECT_TRUE(sameBits(&back.e[r], &all.e[b], 1)) << what << " (reversed)";
    EXPECT_TRUE(sameBits(&back.g[r * n], &all.g[b * n], n)) << what << " (reversed)";
    EXPECT_TRUE(sameBits(&deviceE[b], &all.e[b], 1)) << what << " (device entry)";
    EXPECT_TRUE(sameBits(&deviceG[b * n], &all.g[b * n], n)) << what << " (device entry)";
    if (active[b]) {
      EXPECT_TRUE(sameBits(&masked.e[b], &all.e[b], 1)) << what << " (masked)";
      EXPECT_TRUE(sameBits(&masked.g[b * n], &all.g[b * n], n)) << what << " (masked)";
    } else {
      EXPECT_TRUE(std::isnan(masked.e[b])) << what << " (inactive row written)";
      for (std::size_t k = 0; k < n; ++k)
        ASSERT_TRUE(std::isnan(masked.g[b * n + k])) << what << " (inactive row written)";
    }
  }
  // Inactive rows on the device entry point: the sentinel survives.
  const std::vector<double> sentinel(x.size(), -7.0), sentinelE(batch, -7.0);
  DeviceBuffer<double> mg(sentinel), me(sentinelE);
  DeviceBuffer<std::uint8_t> dActive(active);
  potential.energyGradientDevice(batch, dx.data(), mg.data(), me.data(), dActive.data(), nullptr);
  const std::vector<double> hostMg = mg.toHost(), hostMe = me.toHost();
  for (std::size_t b = 0; b < batch; ++b) {
    if (active[b]) continue;
    EXPECT_EQ(hostMe[b], -7.0) << "structure " << b;
    for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(hostMg[b * n + k], -7.0) << "structure " << b;
  }
}

TEST(SitePotentialCuda, FactoryBuildsTheBatchOfOneWithTheCpuComponents) {
  REQUIRE_GPU();
  const WaterCluster water = tip4pCluster(8);
  const RigidBodySystem system = water.rigidSystem();
  const std::vector<double> x = sitesOf(system, randomRigidWater(system, 8, 1, 3));
  auto gpu = makePotential(siteSpec(water.model), Backend::Cuda);
  ASSERT_NE(dynamic_cast<SitePotentialCuda*>(gpu.get()), nullptr);
  EXPECT_TRUE(gpu->isDeviceResident());
  SitePotential cpu(water.model);
  std::vector<double> g(x.size()), gc(x.size());
  const double e = gpu->energyGradient(x.data(), g.data());
  const double ec = cpu.energyGradient(x.data(), gc.data());
  expectClose(e, g.data(), ec, gc.data(), x.size(), "SitePotentialCuda");
  const double energyOnly = gpu->energy(x.data());
  EXPECT_TRUE(sameBits(&e, &energyOnly, 1)) << "energy() and energyGradient()";
  double sum = 0.0;
  for (const EnergyComponent& c : gpu->energyComponents(x.data())) sum += c.value;
  EXPECT_LE(std::fabs(sum - ec), 1e-10 * std::fabs(ec)) << "LJ + COULOMB";
}

TEST(SitePotentialCuda, GradientMatchesCentralDifferences) {
  REQUIRE_GPU();
  expectCentralDifferences(Backend::Cuda);
}

// `batch` structures q of `water` (rigid coordinates) through makeBatchedRigidPotential on cuda
// (BatchedRigidBodyCuda over BatchedSitePotentialCuda), the middle one inactive, against
// RigidBodyPotential over SitePotential on the CPU; inactive rows are left untouched.
void expectRigidBatchMatchesTheCpu(const WaterCluster& water, const std::vector<double>& q,
                                   std::size_t batch) {
  const RigidBodySystem system = water.rigidSystem();
  SitePotential sites(water.model);
  RigidBodyPotential cpu(sites, system);
  const std::size_t dq = system.dimension();
  BatchedPotentialOptions options;
  options.reserveBatch = batch;
  auto gpu = makeBatchedRigidPotential(siteSpec(water.model), system, Backend::Cuda, options);
  ASSERT_TRUE(gpu->isDeviceResident());
  std::vector<std::uint8_t> active(batch, 1);
  if (batch > 1) active[batch / 2] = 0;
  const Evaluated out = evaluateHost(*gpu, q, active);
  for (std::size_t b = 0; b < batch; ++b) {
    const std::string what =
        water.model.name + ", B = " + std::to_string(batch) + ", structure " + std::to_string(b);
    if (!active[b]) {
      EXPECT_TRUE(std::isnan(out.e[b])) << what << " (inactive row written)";
      for (std::size_t k = 0; k < dq; ++k)
        ASSERT_TRUE(std::isnan(out.g[b * dq + k])) << what << " (inactive row written)";
      continue;
    }
    std::vector<double> gc(dq);
    const double ec = cpu.energyGradient(&q[b * dq], gc.data());
    expectClose(out.e[b], &out.g[b * dq], ec, gc.data(), dq, what);
  }
}

// Rigid water against the CPU rigid potential.
TEST(BatchedSitePotentialCuda, RigidWaterMatchesTheCpuRigidBodyPotential) {
  REQUIRE_GPU();
  for (std::size_t n : {2u, 8u, 20u}) {
    const WaterCluster water = tip4pCluster(n);
    for (std::size_t batch : {1u, 7u, 256u})
      expectRigidBatchMatchesTheCpu(
          water, randomRigidWater(water.rigidSystem(), n, batch, 900 + 10 * n + batch), batch);
  }
}

// Ions among the molecules: the rigid layer's free atoms on cuda (BatchedRigidBodyCuda's free-atom
// path) against the CPU rigid potential.
TEST(BatchedSitePotentialCuda, RigidWaterWithIonsMatchesTheCpuRigidBodyPotential) {
  REQUIRE_GPU();
  for (const auto& [n, list] : {std::pair<std::size_t, const char*>{8, "Na+,Cl-"},
                                std::pair<std::size_t, const char*>{20, "Na+:2,Cl-:2"}}) {
    const WaterCluster water = tip4pCluster(n, tip4pIonsFromList(list));
    for (std::size_t batch : {1u, 7u, 256u})
      expectRigidBatchMatchesTheCpu(water, boundWaterWithIons(water, batch, 70 + n + batch), batch);
  }
}

#endif  // LANDSCAPE_HAVE_CUDA

}  // namespace
}  // namespace landscape
