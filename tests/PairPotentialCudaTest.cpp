// Pair potentials on the GPU: gpu/BatchedPairPotentialCuda (B structures, a block each) and
// gpu/PairPotentialCuda (one large structure: every pair, or a Verlet list built on the device)
// against the CPU reference potentials/PairPotential, for Kob-Andersen boxes under every cutoff
// convention, binary Lennard-Jones and Morse clusters, a Morse box and tabulated pairs; the bits
// of a batched structure whatever its batch, position and mask; the list through moves that do and
// do not rebuild it; run-to-run bits; unwrapped coordinates; the rounds engine over the batched
// potential. GPU tests skip without a device; the factories' answers run everywhere.
//
// Tolerances (double rounding; the GPU sums each atom's pairs in its own order, takes the image
// with one fused multiply-add and r from one rsqrt, gpu/PairDevice.cuh): the energy within 1e-12
// of the sum of |pair energies| (formed here from potentials/PairTerms.h over every pair), and
// every gradient entry within 1e-10 of the largest |gradient entry| of the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "potentials/BatchedPotential.h"
#include "landscape/geometry/BoxGeometry.h"
#include "potentials/PairModel.h"
#include "potentials/PairPotential.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/BatchedPairPotentialCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/PairPotentialCuda.h"
#endif

namespace landscape {
namespace {

PotentialSpec pairSpec(const PairModel& model) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Pair;
  spec.pairModel = std::make_shared<const PairModel>(model);
  return spec;
}

// ---- on every machine: the factories' answers ------------------------------------------------

TEST(PairPotentialFactory, PairOnCudaIsDeviceResidentOrSaysWhyNot) {
  EXPECT_TRUE(batchedPotentialIsDeviceResident(PotentialSpec::Kind::Pair, Backend::Cuda));
  EXPECT_FALSE(batchedPotentialIsDeviceResident(PotentialSpec::Kind::Pair, Backend::Cpu));
  if (gpuAvailable()) GTEST_SKIP() << "a device is present (the GPU tests below build them)";
  const PotentialSpec spec = pairSpec(morseModel(13, 6.0));
  EXPECT_THROW(makePotential(spec, Backend::Cuda), std::runtime_error);
  try {
    makeBatchedPotentialForSpec(spec, Backend::Cuda);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("batched pair potential on cuda"), std::string::npos)
        << error.what();
  }
}

#ifdef LANDSCAPE_HAVE_CUDA

#define REQUIRE_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

// ---- configurations ------------------------------------------------------------------------


/// n atoms in a cube of edge `edge` (open), no two closer than minSeparation.
std::vector<double> randomCluster(std::size_t n, double edge, double minSeparation,
                                  unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, edge);
  std::vector<double> x;
  while (x.size() < 3 * n) {
    const double p[3] = {u(rng), u(rng), u(rng)};
    bool ok = true;
    for (std::size_t j = 0; ok && j < x.size() / 3; ++j) {
      const double d[3] = {p[0] - x[3 * j], p[1] - x[3 * j + 1], p[2] - x[3 * j + 2]};
      ok = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= minSeparation * minSeparation;
    }
    if (ok) x.insert(x.end(), p, p + 3);
  }
  return x;
}

PairModel kobAndersenBox(std::size_t n, PairCutoff convention, double edge) {
  PeriodicBox box;
  box.length[0] = box.length[1] = box.length[2] = edge;
  return kobAndersenModel(n, 2.5, convention, box);
}

/// The Lennard-Jones law of the model's species pairs tabulated (1024 pieces from 0.5 to each
/// pair's cutoff), one table per distinct pair.
PairModel tabulatedTwin(PairModel m) {
  const int types = m.speciesCount();
  m.law = PairLaw::Tabulated;
  for (int a = 0; a < types; ++a)
    for (int b = a; b < types; ++b) {
      PairParameters p = m.pair(a, b);
      const double eps = p.epsilon, sigma = p.sigma;
      auto lj = [eps, sigma](double r) {
        const double s6 = std::pow(sigma / r, 6);
        return 4.0 * eps * (s6 * s6 - s6);
      };
      p.table = static_cast<int>(m.tables.size());
      m.tables.push_back(tabulatePairFunction(lj, 0.5, p.cutoff, 1024, "LJ " + m.speciesNames[a] +
                                                                           m.speciesNames[b]));
      m.setPair(a, b, p);
    }
  return m;
}

// ---- the CPU reference and the comparison --------------------------------------------------

struct Reference {
  double energy = 0.0;
  std::vector<double> gradient;
  double energyScale = 0.0;    ///< sum over pairs of |pair energy|
  double gradientScale = 0.0;  ///< max |gradient entry|
};

Reference cpuReference(const PairModel& model, const double* x) {
  Reference r;
  PairPotential cpu(model);
  r.gradient.resize(cpu.dimension());
  r.energy = cpu.energyGradient(x, r.gradient.data());
  const std::vector<PairCoefficients> coefficients = model.coefficients();
  const std::vector<double> tables = model.tableCoefficients();
  PairSystemView view;
  view.law = model.law;
  view.speciesCount = model.speciesCount();
  view.pairs = coefficients.data();
  view.species = model.species.data();
  view.box = model.box;
  view.tableCoefficients = tables.data();
  view.needsDistance = model.needsDistance();
  const int n = static_cast<int>(model.atoms());
  double d[3];
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      r.energyScale += std::abs(pairTerm(view, view.pair(i, j), pairSeparation(view, x, i, j, d)).energy);
  for (double v : r.gradient) r.gradientScale = std::max(r.gradientScale, std::abs(v));
  return r;
}

void expectMatches(const Reference& cpu, double energy, const double* g, const std::string& what) {
  EXPECT_LE(std::abs(energy - cpu.energy), 1e-12 * cpu.energyScale)
      << what << ": cpu " << cpu.energy << " gpu " << energy;
  double worst = 0.0;
  std::size_t at = 0;
  for (std::size_t k = 0; k < cpu.gradient.size(); ++k)
    if (!(std::abs(g[k] - cpu.gradient[k]) <= worst)) {
      worst = std::abs(g[k] - cpu.gradient[k]);
      at = k;
    }
  EXPECT_LE(worst, 1e-10 * cpu.gradientScale)
      << what << ": gradient entry " << at << " cpu " << cpu.gradient[at] << " gpu " << g[at];
}

bool sameBits(const double* a, const double* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
}

struct Evaluated {
  std::vector<double> g, e;
};

/// The host entry point on a batch; rows start as NaN sentinels.
Evaluated evaluateHost(BatchedPotential& p, const std::vector<double>& x,
                       const std::vector<std::uint8_t>& active = {}) {
  Evaluated r;
  r.g.assign(x.size(), std::numeric_limits<double>::quiet_NaN());
  r.e.assign(x.size() / p.dimension(), std::numeric_limits<double>::quiet_NaN());
  evaluateBatch(p, x, r.g, r.e, active);
  return r;
}

/// Every structure of a batch through BatchedPairPotentialCuda and PairPotentialCuda (its
/// automatic lanes per atom, and 1, 2 and 4) against the CPU.
void expectBothMatchTheCpu(const PairModel& model, const std::vector<double>& batch,
                           const std::string& what) {
  const std::size_t n = 3 * model.atoms(), count = batch.size() / n;
  BatchedPairPotentialCuda batched(model);
  const Evaluated dev = evaluateHost(batched, batch);
  // A second call reads the rows' stored lists where the potential keeps them (the first builds).
  const Evaluated listed = evaluateHost(batched, batch);
  PairPotentialCuda automatic(model), one(model, 0.3, 1), two(model, 0.3, 2), four(model, 0.3, 4);
  for (std::size_t b = 0; b < count; ++b) {
    const double* x = &batch[b * n];
    const Reference cpu = cpuReference(model, x);
    expectMatches(cpu, dev.e[b], &dev.g[b * n], what + ", batched, structure " + std::to_string(b));
    expectMatches(cpu, listed.e[b], &listed.g[b * n],
                  what + ", batched second call, structure " + std::to_string(b));
    for (PairPotentialCuda* single : {&automatic, &one, &two, &four}) {
      std::vector<double> g(n);
      const double e = single->energyGradient(x, g.data());
      expectMatches(cpu, e, g.data(),
                    what + ", single (" + std::to_string(single->lanesPerAtom()) +
                        " lanes per atom), structure " + std::to_string(b));
    }
  }
}

// ---- against the CPU -----------------------------------------------------------------------

TEST(PairPotentialCuda, KobAndersenBoxesMatchTheCpuUnderEveryCutoffConvention) {
  REQUIRE_GPU();
  for (PairCutoff c : {PairCutoff::Truncated, PairCutoff::Shifted, PairCutoff::ForceShifted,
                       PairCutoff::QuadraticSmoothed}) {
    for (std::size_t atoms : {std::size_t{256}, std::size_t{1000}}) {
      double edge = 0.0;
      std::vector<double> batch;
      for (unsigned seed = 1; seed <= 3; ++seed) {
        const std::vector<double> x = perturbedLatticeInBox(atoms, 1.2, 0.05 + 0.05 * seed, seed, &edge);
        batch.insert(batch.end(), x.begin(), x.end());
      }
      expectBothMatchTheCpu(kobAndersenBox(atoms, c, edge), batch,
                            "KA " + std::to_string(atoms) + " " + pairCutoffName(c));
    }
  }
}

TEST(PairPotentialCuda, ClustersWithoutACutoffMatchTheCpu) {
  REQUIRE_GPU();
  for (std::size_t atoms : {std::size_t{13}, std::size_t{38}, std::size_t{75}, std::size_t{150}}) {
    // GMIN's BINARY: 80% A, epsilon_AB 1.5, epsilon_BB 0.5, sigma_AB 0.8, sigma_BB 0.88.
    const PairModel blj = binaryLennardJonesModel(atoms, (atoms * 4) / 5, 1.5, 0.5, 0.8, 0.88,
                                                  0.0, PairCutoff::None);
    std::vector<double> batch;
    for (unsigned seed = 1; seed <= 3; ++seed) {
      const std::vector<double> x = randomCluster(atoms, std::cbrt(atoms / 0.9), 0.8, seed);
      batch.insert(batch.end(), x.begin(), x.end());
    }
    expectBothMatchTheCpu(blj, batch, "BLJ " + std::to_string(atoms));
    for (double rho : {6.0, 14.0})
      expectBothMatchTheCpu(morseModel(atoms, rho), batch,
                            "Morse rho " + std::to_string(rho) + " " + std::to_string(atoms));
  }
}

TEST(PairPotentialCuda, MorseBoxTabulatedPairsAndAnOpenClusterWithACutoffMatchTheCpu) {
  REQUIRE_GPU();
  // A Morse box cut force-shifted (the s1 r term).
  PairModel morse = morseModel(300, 6.0);
  morse.cutoff = PairCutoff::ForceShifted;
  morse.pairs[0].cutoff = 1.8;
  double edge = 0.0;
  std::vector<double> batch = perturbedLatticeInBox(300, 1.0, 0.1, 3, &edge);
  morse.box.length[0] = morse.box.length[1] = morse.box.length[2] = edge;
  expectBothMatchTheCpu(morse, batch, "Morse box");
  // The Kob-Andersen law tabulated, shifted.
  batch.clear();
  for (unsigned seed = 4; seed <= 5; ++seed) {
    const std::vector<double> x = perturbedLatticeInBox(500, 1.2, 0.1, seed, &edge);
    batch.insert(batch.end(), x.begin(), x.end());
  }
  expectBothMatchTheCpu(tabulatedTwin(kobAndersenBox(500, PairCutoff::Shifted, edge)), batch,
                        "tabulated KA 500");
  // GMIN's BLJCLUSTER (quadratic-smoothed at 2.5 sigma_ab, open): the list over the bounding box.
  const std::size_t atoms = 400;
  const PairModel cluster = binaryLennardJonesModel(atoms, 320, 1.5, 0.5, 0.8, 0.88, 2.5,
                                                    PairCutoff::QuadraticSmoothed);
  batch = randomCluster(atoms, std::cbrt(atoms / 0.9), 0.8, 6);
  expectBothMatchTheCpu(cluster, batch, "BLJ cluster with cutoff");
  PairPotentialCuda single(cluster);
  ASSERT_TRUE(single.usesNeighbourList());
  std::vector<double> g(3 * atoms);
  single.energyGradient(batch.data(), g.data());
  EXPECT_EQ(single.rebuilds(), 1);
}

// ---- the batch does not change a structure's bits -----------------------------------------

// A structure's bits alone (B = 1, a fresh object) equal its bits in a batch of 9, in the
// reversed batch, under a mask (inactive rows neither read nor written), through the device entry
// point on a non-blocking stream, and in a second run.
TEST(BatchedPairPotentialCuda, AStructureHasTheSameBitsWhateverItsBatch) {
  REQUIRE_GPU();
  double edge = 0.0;
  std::vector<std::pair<PairModel, std::vector<double>>> systems;
  {
    std::vector<double> x;
    for (unsigned seed = 1; seed <= 9; ++seed) {
      const std::vector<double> s = perturbedLatticeInBox(256, 1.2, 0.1, seed, &edge);
      x.insert(x.end(), s.begin(), s.end());
    }
    systems.emplace_back(kobAndersenBox(256, PairCutoff::Shifted, edge), x);
  }
  {
    std::vector<double> x;
    for (unsigned seed = 1; seed <= 9; ++seed) {
      const std::vector<double> s = randomCluster(38, 3.5, 0.8, seed);
      x.insert(x.end(), s.begin(), s.end());
    }
    systems.emplace_back(binaryLennardJonesModel(38, 30, 1.5, 0.5, 0.8, 0.88, 0.0, PairCutoff::None), x);
  }
  for (const auto& [model, x] : systems) {
    const std::size_t n = 3 * model.atoms(), batch = x.size() / n;
    BatchedPairPotentialCuda potential(model);
    const Evaluated all = evaluateHost(potential, x);
    const Evaluated again = evaluateHost(potential, x);
    EXPECT_TRUE(sameBits(all.g.data(), again.g.data(), x.size()));
    EXPECT_TRUE(sameBits(all.e.data(), again.e.data(), batch));
    std::vector<double> reversed;
    for (std::size_t b = batch; b-- > 0;) reversed.insert(reversed.end(), x.begin() + b * n, x.begin() + (b + 1) * n);
    const Evaluated back = evaluateHost(potential, reversed);
    std::vector<std::uint8_t> active(batch, 1);
    active[1] = active[4] = active[5] = 0;
    const Evaluated masked = evaluateHost(potential, x, active);
    // The device entry point on a non-blocking stream.
    DeviceBuffer<double> dx(x), dg(x.size()), de(batch);
    cudaStream_t stream = nullptr;
    LANDSCAPE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    potential.energyGradientDevice(batch, dx.data(), dg.data(), de.data(), nullptr, stream);
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
    LANDSCAPE_CUDA_CHECK(cudaStreamDestroy(stream));
    const std::vector<double> deviceG = dg.toHost(), deviceE = de.toHost();
    for (std::size_t b = 0; b < batch; ++b) {
      const std::string what = model.describe() + ", structure " + std::to_string(b);
      BatchedPairPotentialCuda alone(model);
      const Evaluated one = evaluateHost(alone, std::vector<double>(x.begin() + b * n, x.begin() + (b + 1) * n));
      EXPECT_TRUE(sameBits(&one.e[0], &all.e[b], 1)) << what;
      EXPECT_TRUE(sameBits(one.g.data(), &all.g[b * n], n)) << what;
      const std::size_t r = batch - 1 - b;
      EXPECT_TRUE(sameBits(&back.e[r], &all.e[b], 1)) << what << " (reversed)";
      EXPECT_TRUE(sameBits(&back.g[r * n], &all.g[b * n], n)) << what << " (reversed)";
      EXPECT_TRUE(sameBits(&deviceE[b], &all.e[b], 1)) << what << " (device entry)";
      EXPECT_TRUE(sameBits(&deviceG[b * n], &all.g[b * n], n)) << what << " (device entry)";
      if (active[b]) {
        EXPECT_TRUE(sameBits(&masked.e[b], &all.e[b], 1)) << what << " (masked)";
        EXPECT_TRUE(sameBits(&masked.g[b * n], &all.g[b * n], n)) << what << " (masked)";
      } else {
        EXPECT_TRUE(std::isnan(masked.e[b])) << what;
        for (std::size_t k = 0; k < n; ++k) ASSERT_TRUE(std::isnan(masked.g[b * n + k])) << what;
      }
    }
  }
}

// ---- the Verlet list -------------------------------------------------------------------------

/// Moves every atom of x0 in a random direction by `length` (a fresh direction per atom).
std::vector<double> movedBy(const std::vector<double>& x0, double length, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> x = x0;
  for (std::size_t i = 0; i < x.size() / 3; ++i) {
    double d[3] = {normal(rng), normal(rng), normal(rng)};
    const double scale = length / std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3; ++k) x[3 * i + k] += scale * d[k];
  }
  return x;
}

// Each row's Verlet list in the batched kernel (gpu/BatchedPairKernels.cuh) only leaves out terms
// that are exactly zero, so the list path gives the bits of the path over every pair: Kob-Andersen
// 256 at density 1.2 (the list's sphere is 43% of the box) through moves below half the skin (no
// rebuild), beyond it (every row rebuilds), rows handed other structures (the rows whose new
// structure is far from their build rebuild), a row crowded beyond the list's capacity (that
// atom's lane visits every partner) and a NaN; Lennard-Jones under two conventions and Morse (tabulated laws keep every pair).
TEST(BatchedPairPotentialCuda, VerletListsGiveTheBitsOfEveryPairThroughMovesAndRowSwaps) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::size_t atoms = 256, n = 3 * atoms, batch = 6;
  std::vector<double> x0;
  for (unsigned seed = 1; seed <= batch; ++seed) {
    const std::vector<double> s = perturbedLatticeInBox(atoms, 1.2, 0.1, seed, &edge);
    x0.insert(x0.end(), s.begin(), s.end());
  }
  std::vector<PairModel> models{kobAndersenBox(atoms, PairCutoff::Shifted, edge),
                                kobAndersenBox(atoms, PairCutoff::QuadraticSmoothed, edge)};
  {
    PairModel morse = morseModel(atoms, 6.0);
    morse.cutoff = PairCutoff::Shifted;
    PairParameters p = morse.pair(0, 0);
    p.cutoff = 2.2;
    morse.setPair(0, 0, p);
    morse.box.length[0] = morse.box.length[1] = morse.box.length[2] = edge;
    models.push_back(morse);
  }
  // Tabulated laws keep every pair (BatchedPairPotentialCuda.h): Always is refused, Automatic
  // takes every pair.
  {
    const PairModel table = tabulatedTwin(kobAndersenBox(atoms, PairCutoff::Shifted, edge));
    EXPECT_THROW(BatchedPairPotentialCuda(table, 0, BatchedPairList::Always), std::invalid_argument);
    EXPECT_FALSE(BatchedPairPotentialCuda(table).usesNeighbourList());
  }
  for (const PairModel& model : models) {
    BatchedPairPotentialCuda listed(model, 0, BatchedPairList::Always);
    BatchedPairPotentialCuda every(model, 0, BatchedPairList::Never);
    ASSERT_TRUE(listed.usesNeighbourList());
    ASSERT_FALSE(every.usesNeighbourList());
    EXPECT_TRUE(listed.rowsMayMove());  // what the row swap below shows
    EXPECT_GT(listed.bytesPerStructure(), 0u);
    EXPECT_EQ(every.bytesPerStructure(), 0u);
    long expected = 0;
    auto check = [&](const std::vector<double>& x, long rebuilt, const std::string& what) {
      const Evaluated a = evaluateHost(listed, x), b = evaluateHost(every, x);
      EXPECT_TRUE(sameBits(a.e.data(), b.e.data(), batch)) << model.describe() << ": " << what;
      EXPECT_TRUE(sameBits(a.g.data(), b.g.data(), x.size())) << model.describe() << ": " << what;
      expected += rebuilt;
      EXPECT_EQ(listed.listRebuilds(), expected) << model.describe() << ": " << what;
    };
    check(x0, static_cast<long>(batch), "first evaluation (every row builds)");
    check(movedBy(x0, 0.14, 3), 0, "every atom moved 0.14 (below half the skin 0.15)");
    check(movedBy(x0, 0.14, 4), 0, "another move of 0.14 from the build positions");
    const std::vector<double> x1 = movedBy(x0, 0.3, 5);
    check(x1, static_cast<long>(batch), "every atom moved 0.3");
    std::vector<double> swapped(x1.begin() + n, x1.begin() + 2 * n);  // rows 0 and 1 exchanged
    swapped.insert(swapped.end(), x1.begin(), x1.begin() + n);
    swapped.insert(swapped.end(), x1.begin() + 2 * n, x1.end());
    check(swapped, 2, "rows 0 and 1 holding each other's structure");
    // Row 2: 150 atoms squeezed into a cube of edge 1 around atom 0: their lists overflow.
    std::vector<double> crowded = swapped;
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    for (std::size_t i = 1; i <= 150; ++i)
      for (int k = 0; k < 3; ++k) crowded[2 * n + 3 * i + k] = crowded[2 * n + k] + u(rng);
    check(crowded, 1, "a crowded row (lists beyond their capacity)");
    std::vector<double> poisoned = crowded;
    poisoned[3 * n + 7] = std::numeric_limits<double>::quiet_NaN();
    const Evaluated a = evaluateHost(listed, poisoned);
    EXPECT_TRUE(std::isnan(a.e[3])) << model.describe();
    ++expected;  // row 3 rebuilt from the NaN
    check(crowded, 1, "row 3 back from its NaN (its build positions held the NaN)");
  }
}

TEST(BatchedPairPotentialCuda, ChoosesAListForBoxesWhoseListSphereIsWellInside) {
  REQUIRE_GPU();
  double edge = 0.0;
  perturbedLatticeInBox(256, 1.2, 0.1, 1, &edge);
  EXPECT_TRUE(BatchedPairPotentialCuda(kobAndersenBox(256, PairCutoff::Shifted, edge))
                  .usesNeighbourList());  // sphere of 2.8: 43% of the box
  perturbedLatticeInBox(160, 1.2, 0.1, 1, &edge);
  EXPECT_FALSE(BatchedPairPotentialCuda(kobAndersenBox(160, PairCutoff::Shifted, edge))
                   .usesNeighbourList());  // edge 5.11: the sphere is 69% of the box
  const PairModel cluster =
      binaryLennardJonesModel(38, 30, 1.5, 0.5, 0.8, 0.88, 0.0, PairCutoff::None);
  EXPECT_FALSE(BatchedPairPotentialCuda(cluster).usesNeighbourList());
  EXPECT_THROW(BatchedPairPotentialCuda(cluster, 0, BatchedPairList::Always), std::invalid_argument);
  EXPECT_THROW(BatchedPairPotentialCuda(kobAndersenBox(256, PairCutoff::Shifted, 5.975), 0,
                                        BatchedPairList::Always, 0.0),
               std::invalid_argument);
}

/// The largest displacement of an atom of row `row` of x from the same row of `from` under the
/// minimum image of a cube of edge `edge` (infinite where `from` holds a NaN).
double largestDisplacement(const std::vector<double>& x, const std::vector<double>& from,
                           std::size_t row, std::size_t n, double edge) {
  double largest = 0.0;
  for (std::size_t i = row * n; i < (row + 1) * n; i += 3) {
    double r2 = 0.0;
    for (int k = 0; k < 3; ++k) {
      double d = x[i + k] - from[i + k];
      d -= edge * std::nearbyint(d / edge);
      r2 += d * d;
    }
    if (std::isnan(r2)) return std::numeric_limits<double>::infinity();  // never built
    largest = std::max(largest, std::sqrt(r2));
  }
  return largest;
}

// A quench-like sequence: every atom drifts 0.04 per call along its own fixed direction, so a row
// rebuilds when an atom's drift since the row's last build passes half the skin (0.15): at the 4th
// call, not at each. Row 1 is masked out at the 4th call (neither read nor rebuilt) and rebuilds
// when it returns; rows 0 and 2 hold two structures 0.05 apart per atom, drifting alike, and
// exchange them at the 6th call without a rebuild (each row's new structure is within half the
// skin of its build). The rebuilds are those of the rule applied here on the host, and at every
// call the list path gives the bits of the path over every pair.
TEST(BatchedPairPotentialCuda, VerletListsFollowADriftRebuildingOnlyPastHalfTheSkin) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::size_t atoms = 256, n = 3 * atoms, batch = 4;
  std::vector<double> x;
  for (unsigned seed = 1; seed <= batch; ++seed) {
    const std::vector<double> s = perturbedLatticeInBox(atoms, 1.2, 0.1, 20 + seed, &edge);
    x.insert(x.end(), s.begin(), s.end());
  }
  // Row 2 starts as row 0 moved by 0.05 per atom, and drifts as row 0 does.
  const std::vector<double> near = movedBy(std::vector<double>(x.begin(), x.begin() + n), 0.05, 9);
  std::copy(near.begin(), near.end(), x.begin() + 2 * n);
  std::vector<double> direction = movedBy(std::vector<double>(x.size(), 0.0), 1.0, 10);
  std::copy(direction.begin(), direction.begin() + n, direction.begin() + 2 * n);
  const PairModel model = kobAndersenBox(atoms, PairCutoff::QuadraticSmoothed, edge);
  BatchedPairPotentialCuda listed(model, 0, BatchedPairList::Always);
  BatchedPairPotentialCuda every(model, 0, BatchedPairList::Never);
  std::vector<double> built(x.size(), std::numeric_limits<double>::quiet_NaN());
  long expected = 0;
  for (int call = 0; call <= 12; ++call) {
    const std::string what = "call " + std::to_string(call);
    std::vector<std::uint8_t> active(batch, 1);
    if (call == 4) active[1] = 0;
    if (call == 6) {  // rows 0 and 2 exchange their structures
      std::vector<double> row0(x.begin(), x.begin() + n);
      std::copy(x.begin() + 2 * n, x.begin() + 3 * n, x.begin());
      std::copy(row0.begin(), row0.end(), x.begin() + 2 * n);
    }
    std::vector<int> rebuilds;  // the rows the rule rebuilds at this call
    for (std::size_t b = 0; b < batch; ++b) {
      if (!active[b]) continue;
      const double moved = largestDisplacement(x, built, b, n, edge);
      ASSERT_GT(std::abs(moved - 0.15), 1e-6) << what << ": row " << b << " on the threshold";
      if (!(moved <= 0.15)) {
        rebuilds.push_back(static_cast<int>(b));
        std::copy(x.begin() + b * n, x.begin() + (b + 1) * n, built.begin() + b * n);
      }
    }
    if (call == 0) EXPECT_EQ(rebuilds, (std::vector<int>{0, 1, 2, 3}));
    if (call >= 1 && call <= 3) EXPECT_TRUE(rebuilds.empty()) << what;
    if (call == 4) EXPECT_EQ(rebuilds, (std::vector<int>{0, 2, 3}));
    if (call == 5) EXPECT_EQ(rebuilds, (std::vector<int>{1}));
    if (call == 6) EXPECT_TRUE(rebuilds.empty()) << what << ": the exchange needs no rebuild";
    const Evaluated a = evaluateHost(listed, x, active), b = evaluateHost(every, x, active);
    EXPECT_TRUE(sameBits(a.e.data(), b.e.data(), batch)) << what;
    EXPECT_TRUE(sameBits(a.g.data(), b.g.data(), x.size())) << what;
    expected += static_cast<long>(rebuilds.size());
    EXPECT_EQ(listed.listRebuilds(), expected) << what;
    for (std::size_t k = 0; k < x.size(); ++k) x[k] += 0.04 * direction[k];
  }
  EXPECT_EQ(every.listRebuilds(), 0);
}

// The rounds engine (graphs captured, three resident structures taking the next of eight as each
// finishes, so rows hold one structure after another) quenches the same minima, bit for bit, over
// the rows' lists as over every pair; the CPU twin over the list potential's host entry point
// agrees too (tests/BatchedLbfgsRoundsTest.cpp holds the twin to the GPU engine).
TEST(BatchedPairPotentialCuda, RoundsEngineQuenchesTheSameBitsWithAndWithoutLists) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::size_t batch = 8, atoms = 256, n = 3 * atoms;
  std::vector<double> x0;
  for (unsigned seed = 1; seed <= batch; ++seed) {
    const std::vector<double> s = perturbedLatticeInBox(atoms, 1.2, 0.2, 60 + seed, &edge);
    x0.insert(x0.end(), s.begin(), s.end());
  }
  const PairModel model = kobAndersenBox(atoms, PairCutoff::Shifted, edge);
  BatchedPairPotentialCuda listed(model, 0, BatchedPairList::Always);
  BatchedPairPotentialCuda every(model, 0, BatchedPairList::Never);
  LbfgsParams params;  // GMIN's defaults
  params.maxIterations = 10000;
  BatchedEngineOptions options;
  options.engine = BatchedEngine::Rounds;
  options.rounds.residentStructures = 3;
  options.rounds.roundsPerPoll = 8;
  auto quench = [&](BatchedPairPotentialCuda& potential, Backend backend) {
    auto minimiser = makeBatchedMinimiserOver(potential, params, backend, options);
    std::vector<double> x = x0;
    std::vector<LbfgsResult> results(batch);
    minimiser->minimise(batch, x.data(), results.data());
    return std::make_pair(x, results);
  };
  const auto withLists = quench(listed, Backend::Cuda);
  const long rebuilds = listed.listRebuilds();
  const auto withoutLists = quench(every, Backend::Cuda);
  const auto twin = quench(listed, Backend::Cpu);
  EXPECT_GT(rebuilds, static_cast<long>(batch));  // the atoms travel beyond half the skin
  for (std::size_t b = 0; b < batch; ++b) {
    ASSERT_EQ(withLists.second[b].status, LbfgsStatus::Converged) << b;
    for (const auto* other : {&withoutLists, &twin}) {
      EXPECT_TRUE(sameBits(&withLists.second[b].energy, &other->second[b].energy, 1)) << b;
      EXPECT_EQ(withLists.second[b].iterations, other->second[b].iterations) << b;
      EXPECT_TRUE(sameBits(&withLists.first[b * n], &other->first[b * n], n)) << b;
    }
  }
}

// After reserve(B) the device entry point neither allocates nor synchronises: it is captured in a
// CUDA graph, and replays of the graph over new coordinates (copied into the captured array)
// rebuild the rows' lists where the atoms moved past half the skin, with the bits of every pair.
TEST(BatchedPairPotentialCuda, ReservedListsAreCapturedInAGraph) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::size_t atoms = 256, batch = 3;
  std::vector<double> x0;
  for (unsigned seed = 1; seed <= batch; ++seed) {
    const std::vector<double> s = perturbedLatticeInBox(atoms, 1.2, 0.1, 30 + seed, &edge);
    x0.insert(x0.end(), s.begin(), s.end());
  }
  const PairModel model = kobAndersenBox(atoms, PairCutoff::Shifted, edge);
  BatchedPairPotentialCuda listed(model, 0, BatchedPairList::Always);
  BatchedPairPotentialCuda every(model, 0, BatchedPairList::Never);
  listed.reserve(batch);
  DeviceBuffer<double> dx(x0), dg(x0.size()), de(batch);
  cudaStream_t stream = nullptr;
  LANDSCAPE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  LANDSCAPE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  listed.energyGradientDevice(batch, dx.data(), dg.data(), de.data(), nullptr, stream);
  cudaGraph_t graph = nullptr;
  LANDSCAPE_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  LANDSCAPE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  LANDSCAPE_CUDA_CHECK(cudaGraphDestroy(graph));
  long expected = 0;
  // Builds at x0, kept 0.1 away, rebuilt 0.2 away, kept 0.1 from the new build.
  const std::vector<double> x2 = movedBy(x0, 0.2, 13);
  const std::vector<std::pair<std::vector<double>, long>> steps{
      {x0, 3}, {movedBy(x0, 0.1, 12), 0}, {x2, 3}, {movedBy(x2, 0.1, 14), 0}};
  for (const auto& [x, rebuilt] : steps) {
    LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(dx.data(), x.data(), x.size() * sizeof(double),
                                         cudaMemcpyHostToDevice, stream));
    LANDSCAPE_CUDA_CHECK(cudaGraphLaunch(exec, stream));
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::vector<double> g = dg.toHost(), e = de.toHost();
    const Evaluated b = evaluateHost(every, x);
    EXPECT_TRUE(sameBits(e.data(), b.e.data(), batch));
    EXPECT_TRUE(sameBits(g.data(), b.g.data(), x.size()));
    expected += rebuilt;
    EXPECT_EQ(listed.listRebuilds(), expected);
  }
  LANDSCAPE_CUDA_CHECK(cudaGraphExecDestroy(exec));
  LANDSCAPE_CUDA_CHECK(cudaStreamDestroy(stream));
}

// The rows' arrays: the build positions (3N doubles), the count of each (atom, lane) and its
// entries (capacity 16-bit indices each), per row. A larger reserve() starts them anew (every row
// builds at its next evaluation), a smaller one keeps them; a batch beyond device memory throws.
TEST(BatchedPairPotentialCuda, ReserveHoldsTheRowsListsAndGrowsOnlyForLargerBatches) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::size_t atoms = 256, batch = 2;
  std::vector<double> x;
  for (unsigned seed = 1; seed <= batch; ++seed) {
    const std::vector<double> s = perturbedLatticeInBox(atoms, 1.2, 0.1, 40 + seed, &edge);
    x.insert(x.end(), s.begin(), s.end());
  }
  const PairModel model = kobAndersenBox(atoms, PairCutoff::Shifted, edge);
  BatchedPairPotentialCuda listed(model, 0, BatchedPairList::Always);
  const std::size_t slots = atoms * static_cast<std::size_t>(listed.lanesPerAtom());
  EXPECT_EQ(listed.bytesPerStructure(),
            3 * atoms * sizeof(double) + slots * sizeof(int) +
                static_cast<std::size_t>(listed.listCapacity()) * slots * sizeof(std::uint16_t));
  // The capacity holds the mean partners of an (atom, lane): density x 4/3 pi (2.5 + 0.3)^3 over
  // the lanes, at least (A-A's cutoff is the longest).
  const double mean = 1.2 * 4.0 / 3.0 * 3.14159265358979 * 2.8 * 2.8 * 2.8 / listed.lanesPerAtom();
  EXPECT_GE(listed.listCapacity(), static_cast<int>(mean));
  EXPECT_LE(listed.listCapacity(), static_cast<int>((atoms + listed.lanesPerAtom() - 1) /
                                                     listed.lanesPerAtom()));
  evaluateHost(listed, x);
  EXPECT_EQ(listed.listRebuilds(), 2);
  evaluateHost(listed, x);
  EXPECT_EQ(listed.listRebuilds(), 2);  // the stored lists
  listed.reserve(1);                    // smaller: kept
  evaluateHost(listed, x);
  EXPECT_EQ(listed.listRebuilds(), 2);
  listed.reserve(5);  // larger: new arrays, every row builds again
  evaluateHost(listed, x);
  EXPECT_EQ(listed.listRebuilds(), 4);
  EXPECT_THROW(listed.reserve(std::size_t{1} << 40), std::runtime_error);
  evaluateHost(listed, x);  // still usable after the refusal
  BatchedPairPotentialCuda every(model, 0, BatchedPairList::Never);
  EXPECT_EQ(every.bytesPerStructure(), 0u);
  EXPECT_NO_THROW(every.reserve(std::size_t{1} << 40));  // nothing to hold
  EXPECT_EQ(every.listRebuilds(), 0);
}


// Kob-Andersen, 4,000 atoms at density 1.2, skin 0.3: moves of every atom by 0.14 (below half the
// skin) keep the list; one atom moved by 0.2 and then every atom by 0.3 rebuild it; the CPU agrees
// at every point, per-atom energies included.
TEST(PairPotentialCuda, NeighbourListFollowsTheCpuThroughMovesWithAndWithoutRebuilds) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::size_t atoms = 4000;
  const std::vector<double> x0 = perturbedLatticeInBox(atoms, 1.2, 0.1, 11, &edge);
  const PairModel model = kobAndersenBox(atoms, PairCutoff::Shifted, edge);
  PairPotentialCuda gpu(model);
  ASSERT_TRUE(gpu.usesNeighbourList());
  std::vector<double> g(3 * atoms);
  auto check = [&](const std::vector<double>& x, long rebuilds, const std::string& what) {
    const double e = gpu.energyGradient(x.data(), g.data());
    EXPECT_EQ(gpu.rebuilds(), rebuilds) << what;
    expectMatches(cpuReference(model, x.data()), e, g.data(), what);
    return e;
  };
  const double e0 = check(x0, 1, "start");
  const std::vector<double> x1 = movedBy(x0, 0.14, 21);
  const double e1 = check(x1, 1, "every atom moved by 0.14 (kept)");
  EXPECT_NE(e1, e0);
  const std::vector<double> x2 = movedBy(x0, 0.14, 22);
  check(x2, 1, "every atom moved by 0.14 from the start again (kept)");
  std::vector<double> x3 = x2;
  for (int k = 0; k < 3; ++k) x3[3 * 1234 + k] = x0[3 * 1234 + k];
  x3[3 * 1234] += 0.2;  // 0.2 from its build position, beyond half the skin
  check(x3, 2, "one atom moved by 0.2 (rebuilt)");
  const std::vector<double> x4 = movedBy(x3, 0.3, 23);
  check(x4, 3, "every atom moved by 0.3 (rebuilt)");
  check(x4, 3, "the same coordinates (kept)");
  // Per-atom energies: each atom's sum over its partners, as the CPU's.
  std::vector<double> cpuAtoms(atoms), gpuAtoms(atoms);
  PairPotential cpu(model);
  ASSERT_TRUE(cpu.perAtomEnergies(x4.data(), cpuAtoms.data()));
  ASSERT_TRUE(gpu.perAtomEnergies(x4.data(), gpuAtoms.data()));
  const double scale = cpuReference(model, x4.data()).energyScale;
  for (std::size_t i = 0; i < atoms; ++i)
    ASSERT_LE(std::abs(gpuAtoms[i] - cpuAtoms[i]), 1e-12 * scale) << "atom " << i;
}

// The same calls on two fresh potentials give the same bits: a list with rebuilds, and every pair.
TEST(PairPotentialCuda, RunsRepeatBitForBit) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::vector<double> x0 = perturbedLatticeInBox(4000, 1.2, 0.1, 12, &edge);
  const std::vector<std::vector<double>> path = {x0, movedBy(x0, 0.1, 31), movedBy(x0, 0.4, 32)};
  const PairModel ka = kobAndersenBox(4000, PairCutoff::ForceShifted, edge);
  const PairModel blj = binaryLennardJonesModel(4000, 3200, 1.5, 0.5, 0.8, 0.88, 0.0, PairCutoff::None);
  for (const PairModel* model : {&ka, &blj}) {
    std::vector<std::vector<double>> first;
    for (int run = 0; run < 2; ++run) {
      PairPotentialCuda gpu(*model);
      for (std::size_t k = 0; k < path.size(); ++k) {
        std::vector<double> g(path[k].size() + 1);
        g.back() = gpu.energyGradient(path[k].data(), g.data());
        if (run == 0)
          first.push_back(g);
        else
          EXPECT_TRUE(sameBits(first[k].data(), g.data(), g.size()))
              << model->describe() << ", call " << k;
      }
      if (model == &ka) EXPECT_EQ(gpu.rebuilds(), 2);
    }
  }
}

// Atoms anywhere (coordinates shifted by whole edges) give the energy and gradient of the wrapped
// structure to rounding, on both classes; the list's cells take the wrapped positions.
TEST(PairPotentialCuda, UnwrappedCoordinatesGiveTheWrappedEnergy) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::vector<double> x = perturbedLatticeInBox(1000, 1.2, 0.1, 13, &edge);
  const PairModel model = kobAndersenBox(1000, PairCutoff::Shifted, edge);
  std::mt19937_64 rng(14);
  std::uniform_int_distribution<int> images(-3, 3);
  std::vector<double> unwrapped = x;
  for (double& v : unwrapped) v += edge * images(rng);
  const Reference cpu = cpuReference(model, x.data());
  BatchedPairPotentialCuda batched(model);
  std::vector<double> both = x;
  both.insert(both.end(), unwrapped.begin(), unwrapped.end());
  const Evaluated dev = evaluateHost(batched, both);
  expectMatches(cpu, dev.e[0], &dev.g[0], "batched, wrapped");
  expectMatches(cpu, dev.e[1], &dev.g[3000], "batched, unwrapped");
  const std::vector<double>* layouts[] = {&x, &unwrapped};
  for (const std::vector<double>* coordinates : layouts) {
    PairPotentialCuda single(model);
    std::vector<double> g(3000);
    const double e = single.energyGradient(coordinates->data(), g.data());
    expectMatches(cpu, e, g.data(), coordinates == &x ? "single, wrapped" : "single, unwrapped");
  }
}

// ---- the factories and the rounds engine ---------------------------------------------------

TEST(PairPotentialCuda, FactoriesBuildTheCudaClasses) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::vector<double> x = perturbedLatticeInBox(256, 1.2, 0.1, 15, &edge);
  const PairModel model = kobAndersenBox(256, PairCutoff::Shifted, edge);
  const std::unique_ptr<Potential> single = makePotential(pairSpec(model), Backend::Cuda);
  EXPECT_TRUE(single->isDeviceResident());
  EXPECT_NE(single->name().find("cuda"), std::string::npos) << single->name();
  const auto batched = makeBatchedPotentialForSpec(pairSpec(model), Backend::Cuda);
  EXPECT_TRUE(batched->isDeviceResident());
  BatchedPairPotentialCuda direct(model);
  const Evaluated a = evaluateHost(*batched, x), b = evaluateHost(direct, x);
  EXPECT_TRUE(sameBits(a.g.data(), b.g.data(), x.size()));
  EXPECT_TRUE(sameBits(a.e.data(), b.e.data(), 1));
  std::vector<double> g(x.size());
  expectMatches(cpuReference(model, x.data()), single->energyGradient(x.data(), g.data()),
                g.data(), "makePotential");
}

TEST(PairPotentialCuda, BadArgumentsThrowWithASentence) {
  REQUIRE_GPU();
  const PairModel model = morseModel(13, 6.0);
  EXPECT_THROW({ BatchedPairPotentialCuda p(model, 48); }, std::invalid_argument);
  EXPECT_THROW({ PairPotentialCuda p(model, 0.0); }, std::invalid_argument);
  EXPECT_THROW({ PairPotentialCuda p(morseModel(1, 6.0)); }, std::invalid_argument);
  BatchedPairPotentialCuda batched(model);
  EXPECT_THROW(batched.energyGradientDevice(1, nullptr, nullptr, nullptr, nullptr, nullptr),
               std::invalid_argument);
  PairPotentialCuda single(model);
  EXPECT_THROW(single.energyGradientDevice(nullptr, nullptr), std::invalid_argument);
}

// The rounds engine over the batched potential quenches Kob-Andersen boxes of 256 atoms: the GPU
// run equals its CPU twin over the same potential's host entry point bit for bit, and every minimum
// has a CPU energy within rounding of the reported one and a CPU RMS gradient below twice the
// tolerance (the gradients differ by rounding).
TEST(PairPotentialCuda, RoundsEngineQuenchesKobAndersenBoxes) {
  REQUIRE_GPU();
  double edge = 0.0;
  const std::size_t batch = 6, atoms = 256, n = 3 * atoms;
  std::vector<double> x0;
  for (unsigned seed = 1; seed <= batch; ++seed) {
    const std::vector<double> s = perturbedLatticeInBox(atoms, 1.2, 0.2, 40 + seed, &edge);
    x0.insert(x0.end(), s.begin(), s.end());
  }
  const PairModel model = kobAndersenBox(atoms, PairCutoff::Shifted, edge);
  BatchedPairPotentialCuda potential(model);
  LbfgsParams params;  // GMIN's defaults: m = 4, RMS 1e-5
  params.maxIterations = 10000;
  BatchedEngineOptions options;
  options.engine = BatchedEngine::Rounds;
  auto quench = [&](Backend backend) {
    auto minimiser = makeBatchedMinimiserOver(potential, params, backend, options);
    std::vector<double> x = x0;
    std::vector<LbfgsResult> results(batch);
    minimiser->minimise(batch, x.data(), results.data());
    return std::make_pair(x, results);
  };
  const auto gpu = quench(Backend::Cuda);
  const auto twin = quench(Backend::Cpu);
  PairPotential cpu(model);
  for (std::size_t b = 0; b < batch; ++b) {
    EXPECT_TRUE(sameBits(&gpu.second[b].energy, &twin.second[b].energy, 1)) << b;
    EXPECT_EQ(gpu.second[b].iterations, twin.second[b].iterations) << b;
    EXPECT_TRUE(sameBits(&gpu.first[b * n], &twin.first[b * n], n)) << b;
    ASSERT_EQ(gpu.second[b].status, LbfgsStatus::Converged) << "structure " << b;
    const Reference ref = cpuReference(model, &gpu.first[b * n]);
    EXPECT_LE(std::abs(ref.energy - gpu.second[b].energy), 1e-12 * ref.energyScale) << b;
    double sum = 0.0;
    for (double v : ref.gradient) sum += v * v;
    const double rms = std::sqrt(sum / n);
    EXPECT_LT(rms, 2 * params.rmsTolerance) << b;
    EXPECT_LT(gpu.second[b].energy / atoms, -7.3) << b;  // an inherent structure, not a liquid
    std::printf("[ KA256 rounds ] structure %zu: E/N %.6f, %d iterations, CPU RMS %.2e\n", b,
                gpu.second[b].energy / atoms, gpu.second[b].iterations, rms);
  }
}

#endif  // LANDSCAPE_HAVE_CUDA

}  // namespace
}  // namespace landscape
