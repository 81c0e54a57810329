// The Gupta potential on the GPU: gpu/BatchedGuptaCuda (B clusters, a block each, two passes) and
// gpu/GuptaCuda (its batch of one) against the CPU reference potentials/GuptaPotential (the CPU
// twin) and against ASAP's energies and gradients (tests/data/clusters/gupta_asap.txt); the bits of
// a structure whatever its batch, position, mask, stream and entry point; run-to-run bits; the
// rounds engine quenching Gupta13 to pele's minimum. GPU tests skip without a device; the
// factories' answers run everywhere.
//
// Tolerances (double rounding; the GPU sums each atom's partners in index order, the CPU every
// pair i < j once): the energy within 1e-12 of |E|, every gradient entry within 1e-10 of
// max(1, max |g|) of the CPU.
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
#include <vector>

#include "GuptaReferenceCases.h"
#include "backends/BatchedMinimiserFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "potentials/GuptaPotential.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/BatchedGuptaCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GuptaCuda.h"
#endif

namespace landscape {
namespace {

PotentialSpec guptaSpec(std::size_t atoms, const GuptaParams& params) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Gupta;
  spec.atoms = atoms;
  spec.gupta = params;
  return spec;
}

// ---- on every machine: the factories' answers ------------------------------------------------

TEST(GuptaPotentialFactory, GuptaOnCudaIsDeviceResidentOrSaysWhyNot) {
  EXPECT_TRUE(batchedPotentialIsDeviceResident(PotentialSpec::Kind::Gupta, Backend::Cuda));
  EXPECT_FALSE(batchedPotentialIsDeviceResident(PotentialSpec::Kind::Gupta, Backend::Cpu));
  const PotentialSpec spec = guptaSpec(13, guptaMetalParams(GuptaMetal::Platinum));
  // On the CPU the batched potential is the single one per structure, bit for bit.
  auto batched = makeBatchedPotentialForSpec(spec, Backend::Cpu, {});
  auto single = makePotential(spec, Backend::Cpu);
  const std::vector<double> x = readGupta13Coordinates();
  if (!x.empty()) {
    std::vector<double> g(39), gb(39);
    double e = 0.0;
    const double e1 = single->energyGradient(x.data(), g.data());
    batched->energyGradient(1, x.data(), gb.data(), &e, nullptr);
    EXPECT_EQ(std::memcmp(&e, &e1, sizeof e), 0);
    EXPECT_EQ(std::memcmp(g.data(), gb.data(), sizeof(double) * 39), 0);
  }
  if (gpuAvailable()) GTEST_SKIP() << "a device is present (the GPU tests below build them)";
  EXPECT_THROW(makePotential(spec, Backend::Cuda), std::runtime_error);
  try {
    makeBatchedPotentialForSpec(spec, Backend::Cuda);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("Gupta"), std::string::npos) << error.what();
  }
}

#ifdef LANDSCAPE_HAVE_CUDA

#define REQUIRE_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()


bool sameBits(const double* a, const double* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
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

double maxAbs(const double* v, std::size_t n) {
  double m = 0.0;
  for (std::size_t k = 0; k < n; ++k) m = std::max(m, std::fabs(v[k]));
  return m;
}

// Structure b of a batched evaluation against the CPU reference.
void expectMatchesCpu(const GuptaParams& params, const double* x, std::size_t atoms, double e,
                      const double* g, const std::string& what) {
  GuptaPotential cpu(atoms, params);
  std::vector<double> gc(3 * atoms);
  const double ec = cpu.energyGradient(x, gc.data());
  EXPECT_NEAR(e, ec, 1e-12 * std::fabs(ec)) << what;
  const double scale = std::max(1.0, maxAbs(gc.data(), gc.size()));
  for (std::size_t k = 0; k < 3 * atoms; ++k)
    ASSERT_NEAR(g[k], gc[k], 1e-10 * scale) << what << ", entry " << k;
}

TEST(BatchedGuptaCuda, MatchesTheCpuTwinAndAsap) {
  REQUIRE_GPU();
  for (const GuptaReferenceCase& c : readGuptaReferenceCases()) {
    BatchedGuptaCuda potential(c.atoms(), c.params);
    const Evaluated out = evaluateHost(potential, c.x);
    expectMatchesCpu(c.params, c.x.data(), c.atoms(), out.e[0], out.g.data(), c.name);
    EXPECT_NEAR(out.e[0], c.energy, 1e-12 * std::fabs(c.energy)) << c.name << " (ASAP)";
    const double scale = std::max(1.0, maxAbs(c.g.data(), c.g.size()));
    for (std::size_t k = 0; k < c.g.size(); ++k)
      ASSERT_NEAR(out.g[k], c.g[k], 1e-10 * scale) << c.name << " (ASAP), entry " << k;
  }
  // Sizes around the block sizes: one partial warp, several passes of 256 threads.
  for (std::size_t atoms : {2u, 13u, 33u, 147u, 300u, 561u}) {
    const GuptaParams params = guptaMetalParams(GuptaMetal::Gold);
    std::vector<double> x;
    for (unsigned s = 0; s < 3; ++s) {
      const std::vector<double> one = guptaRandomCluster(atoms, 100 + s + static_cast<unsigned>(atoms));
      x.insert(x.end(), one.begin(), one.end());
    }
    BatchedGuptaCuda potential(atoms, params);
    const Evaluated out = evaluateHost(potential, x);
    for (std::size_t b = 0; b < 3; ++b)
      expectMatchesCpu(params, &x[3 * atoms * b], atoms, out.e[b], &out.g[3 * atoms * b],
                       std::to_string(atoms) + " atoms, structure " + std::to_string(b));
  }
}

TEST(BatchedGuptaCuda, AStructureHasTheSameBitsWhateverItsBatch) {
  REQUIRE_GPU();
  const std::size_t atoms = 38, n = 3 * atoms, batch = 9;
  const GuptaParams params = guptaMetalParams(GuptaMetal::Platinum);
  std::vector<double> x;
  for (unsigned seed = 1; seed <= batch; ++seed) {
    const std::vector<double> s = guptaRandomCluster(atoms, seed);
    x.insert(x.end(), s.begin(), s.end());
  }
  BatchedGuptaCuda potential(atoms, params);
  const Evaluated all = evaluateHost(potential, x);
  const Evaluated again = evaluateHost(potential, x);
  EXPECT_TRUE(sameBits(all.g.data(), again.g.data(), x.size()));
  EXPECT_TRUE(sameBits(all.e.data(), again.e.data(), batch));
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
  GuptaCuda single(atoms, params);
  for (std::size_t b = 0; b < batch; ++b) {
    const std::string what = "structure " + std::to_string(b);
    BatchedGuptaCuda alone(atoms, params);
    const Evaluated one =
        evaluateHost(alone, std::vector<double>(x.begin() + b * n, x.begin() + (b + 1) * n));
    EXPECT_TRUE(sameBits(&one.e[0], &all.e[b], 1)) << what;
    EXPECT_TRUE(sameBits(one.g.data(), &all.g[b * n], n)) << what;
    std::vector<double> gs(n);
    const double es = single.energyGradient(&x[b * n], gs.data());
    EXPECT_TRUE(sameBits(&es, &all.e[b], 1)) << what << " (GuptaCuda)";
    EXPECT_TRUE(sameBits(gs.data(), &all.g[b * n], n)) << what << " (GuptaCuda)";
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

TEST(GuptaCuda, MatchesTheCpuThroughTheFactoryAndOnDeviceArrays) {
  REQUIRE_GPU();
  const std::vector<double> x = readGupta13Coordinates();
  if (x.empty()) GTEST_SKIP() << "tests/data/clusters/gupta13_x0.txt not found";
  const PotentialSpec spec = guptaSpec(13, guptaMetalParams(GuptaMetal::Platinum));
  auto gpu = makePotential(spec, Backend::Cuda);
  EXPECT_EQ(gpu->backend(), Backend::Cuda);
  ASSERT_TRUE(gpu->isDeviceResident());
  std::vector<double> g(39);
  const double e = gpu->energyGradient(x.data(), g.data());
  EXPECT_NEAR(e, -64.91633912, 1e-8);  // pele's Gupta13
  expectMatchesCpu(spec.gupta, x.data(), 13, e, g.data(), "Gupta13");
  DeviceBuffer<double> dx(x), dg(39);
  const double eDevice = gpu->energyGradientDevice(dx.data(), dg.data());
  const std::vector<double> gDevice = dg.toHost();
  EXPECT_TRUE(sameBits(&eDevice, &e, 1));
  EXPECT_TRUE(sameBits(gDevice.data(), g.data(), 39));
  GuptaPotential cpu(13, spec.gupta);
  const auto parts = gpu->energyComponents(x.data()), cpuParts = cpu.energyComponents(x.data());
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].value, cpuParts[0].value);
  auto batched = makeBatchedPotentialForSpec(spec, Backend::Cuda, {});
  EXPECT_TRUE(batched->isDeviceResident());
  EXPECT_EQ(batched->bytesPerStructure(), 0u);
}

TEST(GuptaCuda, BadArgumentsThrowWithASentence) {
  REQUIRE_GPU();
  GuptaParams bad = guptaMetalParams(GuptaMetal::Nickel);
  bad.p = -1.0;
  EXPECT_THROW(BatchedGuptaCuda(13, bad), std::invalid_argument);
  EXPECT_THROW(BatchedGuptaCuda(1, guptaMetalParams(GuptaMetal::Nickel)), std::invalid_argument);
  EXPECT_THROW(BatchedGuptaCuda(13, guptaMetalParams(GuptaMetal::Nickel), 48),
               std::invalid_argument);
  BatchedGuptaCuda potential(13, guptaMetalParams(GuptaMetal::Nickel));
  double e = 0.0;
  EXPECT_THROW(potential.energyGradient(1, nullptr, nullptr, &e, nullptr), std::invalid_argument);
}

TEST(BatchedGuptaCuda, RoundsEngineQuenchesGupta13ToPelesMinimum) {
  REQUIRE_GPU();
  const std::vector<double> x13 = readGupta13Coordinates();
  if (x13.empty()) GTEST_SKIP() << "tests/data/clusters/gupta13_x0.txt not found";
  const std::size_t batch = 8, n = 39;
  std::mt19937_64 rng(17);
  std::normal_distribution<double> noise(0.0, 0.03);
  std::vector<double> x0;
  for (std::size_t b = 0; b < batch; ++b)
    for (double v : x13) x0.push_back(v + noise(rng));
  const GuptaParams params = guptaMetalParams(GuptaMetal::Platinum);
  BatchedGuptaCuda potential(13, params);
  LbfgsParams lbfgs;  // GMIN's defaults: m = 4, RMS 1e-5
  lbfgs.maxIterations = 10000;
  BatchedEngineOptions options;
  options.engine = BatchedEngine::Rounds;
  auto quench = [&](Backend backend) {
    auto minimiser = makeBatchedMinimiserOver(potential, lbfgs, backend, options);
    std::vector<double> x = x0;
    std::vector<LbfgsResult> results(batch);
    minimiser->minimise(batch, x.data(), results.data());
    return std::make_pair(x, results);
  };
  const auto gpu = quench(Backend::Cuda);
  const auto twin = quench(Backend::Cpu);
  for (std::size_t b = 0; b < batch; ++b) {
    EXPECT_TRUE(sameBits(&gpu.second[b].energy, &twin.second[b].energy, 1)) << b;
    EXPECT_EQ(gpu.second[b].iterations, twin.second[b].iterations) << b;
    EXPECT_TRUE(sameBits(&gpu.first[b * n], &twin.first[b * n], n)) << b;
    ASSERT_EQ(gpu.second[b].status, LbfgsStatus::Converged) << b;
    // A 0.03 r0 perturbation of the icosahedron relaxes back into it.
    EXPECT_NEAR(gpu.second[b].energy, -64.91633912, 1e-6) << b;
  }
}

#endif  // LANDSCAPE_HAVE_CUDA

}  // namespace
}  // namespace landscape
