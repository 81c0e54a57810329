// Batched SOP on the GPU: B structures of one SOP topology per launch sequence
// (gpu/BatchedSopCuda) against the CPU oracle (the factory's PerStructureBatchedPotential over
// potentials/Sop, structure by structure), the bit identity of a structure alone and in any batch,
// the mask, bad input, and the round-based batched L-BFGS over it. GPU tests skip without a
// device; the factory's CPU path and its refusals run everywhere.
//
// Tolerances (double rounding; the GPU sums per bead in lane order with one rsqrt per repulsive
// pair, the CPU per term list): each component within 1e-10 of the sum of the absolute values of
// its terms, the energy within 1e-10 of the sum over all terms, and every gradient entry within
// 1e-10 of the sum of the absolute values of the contributions to that entry. The scales are
// formed here from potentials/SopTerms.h over the CPU's pair list.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "potentials/BatchedPotential.h"
#include "potentials/Sop.h"
#include "potentials/SopTerms.h"
#include "tests/TestData.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/BatchedSopCuda.h"
#include "gpu/DeviceBuffer.h"
#endif

namespace landscape {
namespace {

std::shared_ptr<const SopTopology> loadSop(const std::string& file, std::string* why) {
  const auto path = testDataPath("sop/" + file);
  if (!path) {
    *why = "test data sop/" + file + " not found under " + testDataRoot();
    return nullptr;
  }
  return std::make_shared<const SopTopology>(readSopTopology(*path));
}

PotentialSpec sopSpec(std::shared_ptr<const SopTopology> topology) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sop;
  spec.sopTopology = std::move(topology);
  return spec;
}

/// Structure b of a batch: the native structure scaled about its centroid (0.85, 1, 1.2: denser
/// and sparser packings) with every coordinate moved by up to 0.3, 1 or 2 A, a seed per structure,
/// so that the repulsive pair lists differ from the native one and from each other.
std::vector<double> deformedBatch(const SopTopology& t, std::size_t count, std::uint64_t seed) {
  const std::vector<double> native = t.nativeCoordinates();
  const std::size_t n = native.size();
  double centre[3] = {0, 0, 0};
  for (std::size_t k = 0; k < n; ++k) centre[k % 3] += native[k] / (n / 3);
  const double scales[3] = {1.0, 0.85, 1.2}, amplitudes[3] = {0.3, 1.0, 2.0};
  std::vector<double> batch;
  for (std::size_t b = 0; b < count; ++b) {
    std::mt19937_64 rng(seed + b);
    std::uniform_real_distribution<double> u(-amplitudes[(b / 3) % 3], amplitudes[(b / 3) % 3]);
    for (std::size_t k = 0; k < n; ++k)
      batch.push_back(centre[k % 3] + scales[b % 3] * (native[k] - centre[k % 3]) + u(rng));
  }
  return batch;
}

bool sameBits(const double* a, const double* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
}
bool sameBits(double a, double b) { return sameBits(&a, &b, 1); }

/// Sums of |term| per component and of |contribution| per gradient entry at x (the error scales).
struct Scales {
  std::array<double, 3> components{0, 0, 0};
  std::vector<double> gradient;
};

Scales absoluteScales(const Sop& sop, const double* x) {
  const SopTopology& t = sop.topology();
  const SopParams& p = t.params;
  Scales s;
  s.gradient.assign(sop.dimension(), 0.0);
  auto add = [&](int c, int i, int j, const SopTerm<double>& term, const double d[3]) {
    s.components[c] += std::abs(term.energy);
    for (int k = 0; k < 3; ++k) {
      s.gradient[3 * i + k] += std::abs(term.dEdrOverR * d[k]);
      s.gradient[3 * j + k] += std::abs(term.dEdrOverR * d[k]);
    }
  };
  auto delta = [&](int i, int j, double d[3]) {
    for (int k = 0; k < 3; ++k) d[k] = x[3 * i + k] - x[3 * j + k];
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  };
  double d[3];
  for (const SopBond& b : t.bonds)
    add(0, b.i, b.j, sopFene(delta(b.i, b.j, d), b.r0, p.feneK, p.feneR0 * p.feneR0), d);
  for (const SopContact& c : t.contacts)
    add(1, c.i, c.j, sopNative(delta(c.i, c.j, d), c.r0 * c.r0, p.nativeEpsilon), d);
  const SopRepulsion<double> rep =
      makeSopRepulsion<double>(p.repulsiveEpsilon, p.sigma, p.repulsiveCutoff);
  for (const auto& [i, j] : sop.repulsivePairs(x, p.repulsiveCutoff))
    add(2, i, j, sopRepulsive(delta(i, j, d), rep), d);
  return s;
}

// ---- on every machine: the factory's CPU path and its refusals -------------------------------

TEST(BatchedPotentialFactory, SopOnTheCpuIsTheReferenceStructureByStructure) {
  std::string why;
  const auto topology = loadSop("1TIT.pdb", &why);
  if (!topology) GTEST_SKIP() << why;
  Sop reference(*topology);
  const std::size_t n = reference.dimension(), batch = 6;
  const std::vector<double> x = deformedBatch(*topology, batch, 5);
  for (int threads : {1, 2}) {
    auto batched = makeBatchedPotentialForSpec(sopSpec(topology), Backend::Cpu, {threads, {}, 1});
    ASSERT_EQ(batched->dimension(), n);
    std::vector<double> g(batch * n, -3.0), e(batch, -3.0);
    const std::vector<std::uint8_t> active{1, 0, 1, 1, 0, 1};
    evaluateBatch(*batched, x, g, e, active);
    for (std::size_t b = 0; b < batch; ++b) {
      if (!active[b]) {
        EXPECT_EQ(e[b], -3.0);
        for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(g[b * n + k], -3.0);
        continue;
      }
      std::vector<double> gRef(n);
      const double eRef = reference.energyGradient(&x[b * n], gRef.data());
      EXPECT_TRUE(sameBits(e[b], eRef)) << "structure " << b << ", " << threads << " threads";
      EXPECT_TRUE(sameBits(&g[b * n], gRef.data(), n)) << "structure " << b;
    }
  }
}

TEST(BatchedPotentialFactory, SopNeedsATopologyAndSaysWhyCudaIsMissing) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sop;  // no topology
  EXPECT_THROW(makeBatchedPotentialForSpec(spec, Backend::Cpu), std::invalid_argument);
  EXPECT_THROW(makeBatchedPotentialForSpec(spec, Backend::Cuda), std::invalid_argument);
  std::string why;
  const auto topology = loadSop("1TIT.pdb", &why);
  if (!topology) GTEST_SKIP() << why;
  if (gpuAvailable()) GTEST_SKIP() << "a device is present";
  try {
    makeBatchedPotentialForSpec(sopSpec(topology), Backend::Cuda);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("batched SOP on cuda"), std::string::npos)
        << error.what();
  }
}

/// The minimisation settings of the rounds tests (kcal/mol, A): GMIN's L-BFGS with m = 4.
LbfgsParams sopMinimisationParams() {
  LbfgsParams params;
  params.historySize = 4;
  params.maxStep = 0.4;        // A
  params.maxRise = 1e-4;       // kcal/mol
  params.rmsTolerance = 1e-3;  // kcal/mol/A
  params.maxIterations = 20000;
  return params;
}

double rmsOf(const std::vector<double>& g) {
  double sum = 0.0;
  for (double v : g) sum += v * v;
  return std::sqrt(sum / static_cast<double>(g.size()));
}

// The starts of the GPU rounds test on the CPU: the rounds twin over the factory's CPU SOP
// converges every one, to points where Sop's own RMS gradient is below the tolerance.
TEST(BatchedPotentialFactory, SopRoundsTwinOnTheCpuReachesMinima) {
  std::string why;
  const auto topology = loadSop("1TIT.pdb", &why);
  if (!topology) GTEST_SKIP() << why;
  const std::size_t batch = 7;
  std::vector<double> x = deformedBatch(*topology, batch, 42);
  auto potential = makeBatchedPotentialForSpec(sopSpec(topology), Backend::Cpu, {2, {}, 1});
  const LbfgsParams params = sopMinimisationParams();
  BatchedEngineOptions options;
  options.engine = BatchedEngine::Rounds;
  options.threads = 2;
  auto minimiser = makeBatchedMinimiserOver(*potential, params, Backend::Cpu, options);
  std::vector<LbfgsResult> results(batch);
  minimiser->minimise(batch, x.data(), results.data());
  Sop reference(*topology);
  const std::size_t n = reference.dimension();
  for (std::size_t b = 0; b < batch; ++b) {
    ASSERT_EQ(results[b].status, LbfgsStatus::Converged) << "structure " << b;
    std::vector<double> g(n);
    const double e = reference.energyGradient(&x[b * n], g.data());
    EXPECT_TRUE(sameBits(e, results[b].energy)) << b;
    EXPECT_LT(rmsOf(g), params.rmsTolerance) << b;
    EXPECT_LT(e, -300.0) << "structure " << b << " (native: -380.2 kcal/mol)";
    std::printf("[ sop rounds cpu ] structure %zu: E %.6f kcal/mol, %d iterations\n", b,
                results[b].energy, results[b].iterations);
  }
}

#ifdef LANDSCAPE_HAVE_CUDA

#define REQUIRE_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

struct Evaluated {
  std::vector<double> g, e;
};

/// The host entry point on a batch; g and e start as NaN sentinels.
Evaluated evaluateHost(BatchedPotential& p, const std::vector<double>& x,
                       const std::vector<std::uint8_t>& active = {}) {
  Evaluated r;
  r.g.assign(x.size(), std::numeric_limits<double>::quiet_NaN());
  r.e.assign(x.size() / p.dimension(), std::numeric_limits<double>::quiet_NaN());
  evaluateBatch(p, x, r.g, r.e, active);
  return r;
}

std::vector<double> rows(const std::vector<double>& x, std::size_t first, std::size_t count,
                         std::size_t n) {
  return std::vector<double>(x.begin() + first * n, x.begin() + (first + count) * n);
}

using OracleCase = std::tuple<const char*, std::size_t>;
class BatchedSopCudaVsCpu : public testing::TestWithParam<OracleCase> {};

// Every active structure's energy, components and gradient against the CPU Sop; inactive ones keep
// their NaN sentinels; the deformations change the repulsive pair lists.
TEST_P(BatchedSopCudaVsCpu, EveryStructureMatchesTheCpuOracle) {
  REQUIRE_GPU();
  const std::string file = std::get<0>(GetParam());
  const std::size_t batch = std::get<1>(GetParam());
  std::string why;
  const auto topology = loadSop(file, &why);
  if (!topology) GTEST_SKIP() << why;
  Sop reference(*topology);
  const std::size_t n = reference.dimension();
  const std::vector<double> x = deformedBatch(*topology, batch, 20261124);
  auto oracle = makeBatchedPotentialForSpec(sopSpec(topology), Backend::Cpu, {2, {}, 1});
  const Evaluated cpu = evaluateHost(*oracle, x);
  BatchedSopCuda gpu(*topology);
  std::vector<std::uint8_t> active(batch, 1);
  for (std::size_t b = 3; b < batch; b += 5) active[b] = 0;
  const Evaluated dev = evaluateHost(gpu, x, active);

  const std::vector<double> native = topology->nativeCoordinates();
  const auto nativePairs =
      reference.repulsivePairs(native.data(), topology->params.repulsiveCutoff);
  std::size_t changedLists = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    const double* xb = &x[b * n];
    if (reference.repulsivePairs(xb, topology->params.repulsiveCutoff) != nativePairs)
      ++changedLists;
    if (!active[b]) {  // neither read nor written
      EXPECT_TRUE(std::isnan(dev.e[b])) << b;
      for (std::size_t k = 0; k < n; ++k)
        ASSERT_TRUE(std::isnan(dev.g[b * n + k])) << b << " " << k;
      continue;
    }
    const Scales scale = absoluteScales(reference, xb);
    const auto parts = reference.energyComponents(xb);
    const std::array<double, 3> partsGpu = gpu.components(b);
    double scaleSum = 0.0;
    for (int c = 0; c < 3; ++c) {
      EXPECT_LE(std::abs(partsGpu[c] - parts[c].value), 1e-10 * scale.components[c])
          << file << " structure " << b << " " << parts[c].name << ": cpu " << parts[c].value
          << " gpu " << partsGpu[c];
      scaleSum += scale.components[c];
    }
    EXPECT_TRUE(sameBits(dev.e[b], partsGpu[0] + partsGpu[1] + partsGpu[2])) << b;
    EXPECT_LE(std::abs(dev.e[b] - cpu.e[b]), 1e-10 * scaleSum)
        << file << " structure " << b << ": cpu " << cpu.e[b] << " gpu " << dev.e[b];
    for (std::size_t k = 0; k < n; ++k)
      ASSERT_LE(std::abs(dev.g[b * n + k] - cpu.g[b * n + k]), 1e-10 * scale.gradient[k])
          << file << " structure " << b << " entry " << k << ": cpu " << cpu.g[b * n + k] << " gpu "
          << dev.g[b * n + k];
  }
  if (batch > 1) EXPECT_GE(changedLists, batch - 1) << "the deformations must change the lists";
}

std::string oracleName(const testing::TestParamInfo<OracleCase>& info) {
  std::string name = std::get<0>(info.param);
  name = name.substr(0, name.find('_') < name.find('.') ? name.find('_') : name.find('.'));
  return name + "_B" + std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(BatchedSopCuda, BatchedSopCudaVsCpu,
                         testing::Combine(testing::Values("1TIT.pdb", "PF8_protofilament_ca.pdb"),
                                          testing::Values(std::size_t{1}, std::size_t{7},
                                                          std::size_t{64})),
                         oracleName);

// A structure's bits alone (a fresh object with B = 1) equal its bits in a batch, with exclusions
// tested by the native lists instead of the bitmask, in the reversed batch, under a mask, after
// other coordinates were evaluated (no state carried between calls), and through the device entry
// point on a non-blocking stream.
TEST(BatchedSopCuda, AStructureHasTheSameBitsAloneAndInAnyBatch) {
  REQUIRE_GPU();
  for (const char* file : {"1TIT.pdb", "PF8_protofilament_ca.pdb"}) {
    std::string why;
    const auto topology = loadSop(file, &why);
    if (!topology) GTEST_SKIP() << why;
    const std::size_t batch = file[0] == '1' ? 24 : 5;
    const std::vector<double> x = deformedBatch(*topology, batch, 99);
    BatchedSopCuda gpu(*topology);
    const std::size_t n = gpu.dimension();
    std::vector<Evaluated> single;
    for (std::size_t b = 0; b < batch; ++b) {
      BatchedSopCuda alone(*topology);
      single.push_back(evaluateHost(alone, rows(x, b, 1, n)));
    }
    auto expectSingle = [&](const Evaluated& r, std::size_t row, std::size_t b,
                            const std::string& how) {
      EXPECT_TRUE(sameBits(r.e[row], single[b].e[0])) << file << " " << how << ", structure " << b;
      EXPECT_TRUE(sameBits(&r.g[row * n], single[b].g.data(), n))
          << file << " " << how << ", structure " << b;
    };
    const Evaluated all = evaluateHost(gpu, x);
    for (std::size_t b = 0; b < batch; ++b) expectSingle(all, b, b, "in the batch");

    // Exclusions by the native lists instead of the bitmask: the same pairs, the same bits.
    BatchedSopCuda scanning(*topology, 1, 0);
    EXPECT_TRUE(gpu.usesExclusionMask());
    EXPECT_FALSE(scanning.usesExclusionMask());
    const Evaluated scanned = evaluateHost(scanning, x);
    for (std::size_t b = 0; b < batch; ++b) expectSingle(scanned, b, b, "native-list exclusions");

    std::vector<double> reversed;
    for (std::size_t b = batch; b-- > 0;) {
      const std::vector<double> r = rows(x, b, 1, n);
      reversed.insert(reversed.end(), r.begin(), r.end());
    }
    const Evaluated back = evaluateHost(gpu, reversed);
    for (std::size_t b = 0; b < batch; ++b) expectSingle(back, batch - 1 - b, b, "reversed");

    std::vector<std::uint8_t> active(batch, 0);
    for (std::size_t b = 1; b < batch; b += 2) active[b] = 1;
    const Evaluated masked = evaluateHost(gpu, x, active);
    for (std::size_t b = 1; b < batch; b += 2) expectSingle(masked, b, b, "masked");
    for (std::size_t b = 0; b < batch; b += 2) EXPECT_TRUE(std::isnan(masked.e[b])) << b;

    // Other coordinates in between, then x again: the same bits as the first time.
    evaluateHost(gpu, deformedBatch(*topology, batch, 7));
    const Evaluated again = evaluateHost(gpu, x);
    for (std::size_t b = 0; b < batch; ++b) expectSingle(again, b, b, "after other coordinates");

    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    DeviceBuffer<double> dx(x), dg(x.size()), de(batch);
    gpu.energyGradientDevice(batch, dx.data(), dg.data(), de.data(), nullptr, stream);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
    const Evaluated device{dg.toHost(), de.toHost()};
    for (std::size_t b = 0; b < batch; ++b) expectSingle(device, b, b, "device entry, stream");
  }
}

// Two beads on top of each other, a NaN coordinate and coordinates of +-1e308 (an infinite extent
// the cell grid must not loop on) in three structures leave the others' bits unchanged.
TEST(BatchedSopCuda, BrokenStructuresDoNotDisturbTheOthers) {
  REQUIRE_GPU();
  std::string why;
  const auto topology = loadSop("1TIT.pdb", &why);
  if (!topology) GTEST_SKIP() << why;
  const std::size_t batch = 6;
  std::vector<double> x = deformedBatch(*topology, batch, 3);
  BatchedSopCuda gpu(*topology);
  const std::size_t n = gpu.dimension();
  const Evaluated clean = evaluateHost(gpu, x);
  for (int c = 0; c < 3; ++c) x[1 * n + 3 * 40 + c] = x[1 * n + 3 * 10 + c];  // 10 and 40 coincide
  x[2 * n + 17] = std::numeric_limits<double>::quiet_NaN();
  x[4 * n + 0] = 1e308;  // the bounding box's extent overflows to infinity
  x[4 * n + 3] = -1e308;
  const Evaluated broken = evaluateHost(gpu, x);
  for (std::size_t b : {0, 3, 5}) {
    EXPECT_TRUE(sameBits(broken.e[b], clean.e[b])) << b;
    EXPECT_TRUE(sameBits(&broken.g[b * n], &clean.g[b * n], n)) << b;
  }
  EXPECT_FALSE(std::isfinite(broken.e[1])) << "coinciding beads: " << broken.e[1];
  EXPECT_TRUE(std::isnan(broken.e[2]));
}

TEST(BatchedSopCuda, BadArgumentsThrowWithASentence) {
  REQUIRE_GPU();
  std::string why;
  const auto topology = loadSop("1TIT.pdb", &why);
  if (!topology) GTEST_SKIP() << why;
  EXPECT_THROW(BatchedSopCuda(*topology, 0), std::invalid_argument);
  BatchedSopCuda gpu(*topology);
  std::vector<double> x(gpu.dimension()), g(gpu.dimension()), e(1);
  EXPECT_THROW(gpu.energyGradient(0, x.data(), g.data(), e.data(), nullptr), std::invalid_argument);
  EXPECT_THROW(gpu.energyGradient(1, nullptr, g.data(), e.data(), nullptr), std::invalid_argument);
  EXPECT_THROW(gpu.energyGradientDevice(1, nullptr, nullptr, nullptr, nullptr, nullptr),
               std::invalid_argument);
  EXPECT_THROW(gpu.components(5), std::out_of_range);
  EXPECT_GT(gpu.bytesPerStructure(), 89u * 32u);
  try {
    gpu.reserve(std::size_t(1) << 40);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("bytes of device scratch per structure"),
              std::string::npos)
        << error.what();
  }
}

// 66,000 structures: more than one grid's 65,535 rows; structures on both sides of the cut equal
// their B = 1 bits.
TEST(BatchedSopCuda, MoreStructuresThanOneGridHolds) {
  REQUIRE_GPU();
  std::string why;
  const auto topology = loadSop("1TIT.pdb", &why);
  if (!topology) GTEST_SKIP() << why;
  const std::size_t batch = 66000;
  BatchedSopCuda gpu(*topology);
  const std::size_t n = gpu.dimension();
  try {
    gpu.reserve(batch);
  } catch (const std::runtime_error&) {
    GTEST_SKIP() << "not enough device memory for " << batch << " structures";
  }
  const std::vector<double> few = deformedBatch(*topology, 9, 11);
  std::vector<double> x;
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<double> r = rows(few, b % 9, 1, n);
    x.insert(x.end(), r.begin(), r.end());
  }
  const Evaluated all = evaluateHost(gpu, x);
  for (std::size_t b :
       {std::size_t{0}, std::size_t{65534}, std::size_t{65535}, std::size_t{65536}, batch - 1}) {
    BatchedSopCuda alone(*topology);
    const Evaluated one = evaluateHost(alone, rows(x, b, 1, n));
    EXPECT_TRUE(sameBits(all.e[b], one.e[0])) << b;
    EXPECT_TRUE(sameBits(&all.g[b * n], one.g.data(), n)) << b;
  }
}

TEST(BatchedPotentialFactory, SopOnCudaIsTheBatchedKernel) {
  REQUIRE_GPU();
  std::string why;
  const auto topology = loadSop("1TIT.pdb", &why);
  if (!topology) GTEST_SKIP() << why;
  auto p = makeBatchedPotentialForSpec(sopSpec(topology), Backend::Cuda, {1, {}, 8});
  ASSERT_TRUE(p->isDeviceResident());
  EXPECT_EQ(p->backend(), Backend::Cuda);
  auto* sop = dynamic_cast<BatchedSopCuda*>(p.get());
  ASSERT_NE(sop, nullptr);
  EXPECT_EQ(sop->reserved(), 8u);
  const std::vector<double> x = deformedBatch(*topology, 3, 1);
  BatchedSopCuda direct(*topology);
  const Evaluated a = evaluateHost(*p, x), b = evaluateHost(direct, x);
  EXPECT_TRUE(sameBits(a.e.data(), b.e.data(), 3));
  EXPECT_TRUE(sameBits(a.g.data(), b.g.data(), x.size()));
}

// The round-based batched L-BFGS over the device potential equals its CPU twin over the same
// potential (host entry point: the same bits) for every structure, with all structures resident
// or 3 slots refilled from the queue; every converged minimum has a CPU Sop RMS gradient below the
// tolerance and a CPU energy equal to the reported one to rounding.
TEST(BatchedSopCuda, RoundsEngineEqualsItsTwinAndReachesCpuMinima) {
  REQUIRE_GPU();
  std::string why;
  const auto topology = loadSop("1TIT.pdb", &why);
  if (!topology) GTEST_SKIP() << why;
  const std::size_t batch = 7;
  const std::vector<double> x0 = deformedBatch(*topology, batch, 42);
  BatchedSopCuda potential(*topology, batch);
  const std::size_t n = potential.dimension();
  const LbfgsParams params = sopMinimisationParams();
  BatchedEngineOptions options;
  options.threads = 2;
  options.engine = BatchedEngine::Rounds;
  auto minimiseWith = [&](Backend backend, std::size_t resident) {
    options.rounds.residentStructures = resident;
    auto minimiser = makeBatchedMinimiserOver(potential, params, backend, options);
    std::vector<double> x = x0;
    std::vector<LbfgsResult> results(batch);
    minimiser->minimise(batch, x.data(), results.data());
    return std::make_pair(x, results);
  };
  const auto gpu = minimiseWith(Backend::Cuda, 0);
  const auto twin = minimiseWith(Backend::Cpu, 0);
  const auto refilled = minimiseWith(Backend::Cuda, 3);
  Sop reference(*topology);
  for (std::size_t b = 0; b < batch; ++b) {
    for (const auto* other : {&twin, &refilled}) {
      EXPECT_TRUE(sameBits(gpu.second[b].energy, other->second[b].energy)) << b;
      EXPECT_EQ(gpu.second[b].iterations, other->second[b].iterations) << b;
      EXPECT_EQ(gpu.second[b].functionCalls, other->second[b].functionCalls) << b;
      EXPECT_EQ(gpu.second[b].status, other->second[b].status) << b;
      EXPECT_TRUE(sameBits(&gpu.first[b * n], &other->first[b * n], n)) << b;
    }
    ASSERT_EQ(gpu.second[b].status, LbfgsStatus::Converged) << "structure " << b;
    std::vector<double> g(n);
    const double e = reference.energyGradient(&gpu.first[b * n], g.data());
    const double rms = rmsOf(g);
    EXPECT_LT(rms, params.rmsTolerance) << "structure " << b;
    const Scales scale = absoluteScales(reference, &gpu.first[b * n]);
    EXPECT_LE(std::abs(e - gpu.second[b].energy),
              1e-10 * (scale.components[0] + scale.components[1] + scale.components[2]))
        << "structure " << b;
    std::printf("[ sop rounds ] structure %zu: E %.6f kcal/mol, %d iterations, CPU RMS %.2e\n", b,
                gpu.second[b].energy, gpu.second[b].iterations, rms);
  }
}

#endif  // LANDSCAPE_HAVE_CUDA

}  // namespace
}  // namespace landscape
