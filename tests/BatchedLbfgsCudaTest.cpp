// The batched L-BFGS kernel on a CUDA device against its CPU twin: a structure's iterates,
// energies, counts, status and coordinates bit for bit (every reduction order mirrored, FMA
// contraction off on both sides), for each team shape; the same bits run to run and whatever the
// rest of the batch; round-off agreement with the CPU reference (= today's Lbfgs); the device
// entry point of the batched Lennard-Jones potential bit for bit its team-order twin. All cases
// skip without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/minimisation/BatchedLbfgsTwin.h"
#include "potentials/LennardJonesTeam.h"
#include "tests/BatchedStructures.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedLbfgsCuda.h"
#include "gpu/BatchedLennardJonesCuda.h"
#endif

namespace landscape {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

using namespace batchtest;

struct BatchRun {
  std::vector<double> x;
  std::vector<LbfgsResult> results;
};

BatchRun runBatch(BatchedMinimiser& minimiser, const std::vector<double>& x0) {
  BatchRun out{x0, std::vector<LbfgsResult>(x0.size() / minimiser.dimension())};
  minimiser.minimise(out.results.size(), out.x.data(), out.results.data());
  return out;
}

void expectIdentical(const BatchRun& a, const BatchRun& b, std::size_t n, const std::string& what) {
  ASSERT_EQ(a.results.size(), b.results.size());
  for (std::size_t s = 0; s < a.results.size(); ++s) {
    const std::string where = what + ", structure " + std::to_string(s);
    expectSameResult(a.results[s], b.results[s], where);
    EXPECT_TRUE(sameBits(&a.x[s * n], &b.x[s * n], n)) << where << ": coordinates differ";
  }
}

std::vector<double> cubeBatch(std::size_t atoms, int count, std::uint64_t seed) {
  std::vector<double> x;
  for (int b = 0; b < count; ++b) {
    const std::vector<double> s = cubeStart(atoms, seed + b);
    x.insert(x.end(), s.begin(), s.end());
  }
  return x;
}

#ifdef LANDSCAPE_HAVE_CUDA

TEST(BatchedLbfgsCuda, EqualsTheCpuTwinBitForBitInAMixedBatch) {
  SKIP_WITHOUT_GPU();
  for (std::size_t atoms : {13, 38, 75, 147}) {
    const LbfgsParams params = benchParams(atoms > 100 ? 300 : 2000);
    std::vector<double> x0 = mixedBatch(atoms, 7 + atoms, atoms > 100 ? 3 : 12);
    BatchedLbfgsCuda gpu(atoms, params);
    BatchedLbfgsTwin twin(atoms, params, gpu.shape(), 2);
    std::printf("[ shape ] LJ%zu: %s, %zu bytes of shared memory per structure\n", atoms,
                gpu.name().c_str(), gpu.sharedBytesPerTeam());
    expectIdentical(runBatch(gpu, x0), runBatch(twin, x0), 3 * atoms, "LJ" + std::to_string(atoms));
  }
}

TEST(BatchedLbfgsCuda, EqualsTheCpuTwinForEveryTeamShape) {
  SKIP_WITHOUT_GPU();
  // Capped at 200 iterations so that compute-sanitizer (tools/gpu_check.sh batch) runs it in
  // minutes; the cap, early convergence and overlaps still share the batch.
  const std::size_t atoms = 38;
  const LbfgsParams params = benchParams(200);
  const std::vector<double> x0 = mixedBatch(atoms, 5, 4);
  for (int warps : {1, 2, 4, 8})
    for (int w : {4, 8, 16, 32}) {
      const BatchedTeamShape shape{warps, w};
      BatchedLbfgsCuda gpu(atoms, params, shape);
      BatchedLbfgsTwin twin(atoms, params, shape, 2);
      expectIdentical(runBatch(gpu, x0), runBatch(twin, x0), 3 * atoms,
                      std::to_string(warps) + " warps, tile " + std::to_string(w));
    }
}

TEST(BatchedLbfgsCuda, SameBitsRunToRunAndWhateverTheRestOfTheBatch) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 38, n = 3 * atoms;
  const LbfgsParams params = benchParams(10000);
  std::vector<double> x0 = mixedBatch(atoms, 9, 0);
  const std::vector<double> cubes = cubeBatch(atoms, 3000, 5000);  // more than resident teams
  x0.insert(x0.end(), cubes.begin(), cubes.end());
  BatchedLbfgsCuda gpu(atoms, params);
  const BatchRun first = runBatch(gpu, x0);
  expectIdentical(runBatch(gpu, x0), first, n, "second run");
  // Perturb one structure: every other structure unchanged bit for bit.
  std::vector<double> x1 = x0;
  const std::size_t victim = kRoles + 17;
  x1[victim * n + 2] += 1e-3;
  const BatchRun changed = runBatch(gpu, x1);
  for (std::size_t s = 0; s < first.results.size(); ++s) {
    if (s == victim) continue;
    expectSameResult(first.results[s], changed.results[s], "structure " + std::to_string(s));
    ASSERT_TRUE(sameBits(&first.x[s * n], &changed.x[s * n], n)) << s;
  }
  // A structure alone is the structure in the batch.
  for (std::size_t s : {std::size_t{kCloseOverlap}, victim + 1}) {
    std::vector<double> alone(x0.begin() + s * n, x0.begin() + (s + 1) * n);
    LbfgsResult r;
    gpu.minimise(1, alone.data(), &r);
    expectSameResult(r, first.results[s], "alone");
    EXPECT_TRUE(sameBits(alone.data(), &first.x[s * n], n));
  }
  int converged = 0;
  for (const auto& r : first.results) converged += r.converged();
  std::printf("[ cube starts ] LJ38: %d of %zu converged\n", converged, first.results.size());
}

TEST(BatchedLbfgsCuda, AgreesWithTheCpuReferenceToRoundOffInsideABasin) {
  SKIP_WITHOUT_GPU();
  for (std::size_t atoms : {13, 38, 147}) {
    const LbfgsParams params = benchParams(10000);
    std::vector<double> x0;
    for (int b = 0; b < 4; ++b) {
      const std::vector<double> s = perturbed(quenchedMinimum(atoms, 600 + b), 0.1, 700 + b);
      x0.insert(x0.end(), s.begin(), s.end());
    }
    auto cpu = makeBatchedMinimiser({atoms}, params, Backend::Cpu, {BatchedEngine::Reference, 2});
    BatchedLbfgsCuda gpu(atoms, params);
    const BatchRun ref = runBatch(*cpu, x0), got = runBatch(gpu, x0);
    for (std::size_t b = 0; b < ref.results.size(); ++b) {
      EXPECT_EQ(got.results[b].converged(), ref.results[b].converged());
      EXPECT_NEAR(got.results[b].energy, ref.results[b].energy,
                  1e-10 * std::abs(ref.results[b].energy));
      std::printf("[ gpu vs reference ] LJ%zu structure %zu: %d vs %d iterations\n", atoms, b,
                  got.results[b].iterations, ref.results[b].iterations);
    }
  }
}

TEST(BatchedLbfgsCuda, RefusesABatchThatDoesNotFitNamingTheLargestThatDoes) {
  SKIP_WITHOUT_GPU();
  BatchedLbfgsCuda gpu(38, benchParams(100));
  const BatchMemory memory = gpu.memory();
  EXPECT_EQ(memory.bytesPerStructure, 114 * sizeof(double) + 32);
  const std::size_t largest = gpu.maxBatch();
  ASSERT_GT(largest, 100000u);
  try {
    gpu.minimise(largest + 1, nullptr, nullptr);  // refused before anything is touched
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(
        std::string(e.what()).find("the largest batch that fits is " + std::to_string(largest)),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(BatchedLbfgsCuda(147,
                                [] {
                                  LbfgsParams p = benchParams(10);
                                  p.historySize = 40;
                                  return p;
                                }()),
               std::invalid_argument);
}

TEST(BatchedLennardJonesCuda, DeviceEntryEqualsTheTeamTwinBitForBit) {
  SKIP_WITHOUT_GPU();
  for (std::size_t atoms : {13, 38, 147}) {
    BatchedLennardJonesCuda gpu(atoms);
    LennardJonesTeam twin(gpu.schedule(), 32 * gpu.shape().warps);
    const std::size_t n = 3 * atoms, batch = 40;
    const std::vector<double> x = cubeBatch(atoms, static_cast<int>(batch), 77);
    std::vector<std::uint8_t> active(batch, 1);
    active[3] = active[30] = 0;
    std::vector<double> g(batch * n, -1.0), e(batch, -1.0);
    gpu.energyGradient(batch, x.data(), g.data(), e.data(), active.data());
    for (std::size_t b = 0; b < batch; ++b) {
      if (!active[b]) {
        EXPECT_EQ(e[b], -1.0);
        continue;
      }
      std::vector<double> gt(n);
      const double et = twin.energyGradient(&x[b * n], gt.data());
      EXPECT_TRUE(sameBits(e[b], et)) << atoms << " atoms, structure " << b;
      EXPECT_TRUE(sameBits(&g[b * n], gt.data(), n)) << atoms << " atoms, structure " << b;
    }
  }
}

// The host entry point's staging (gpu/BatchedHostStaging.h) in pieces of about a MiB: LJ38 at
// B = 3000 (2.7 MB of coordinates, three pieces) with inactive structures at both ends and
// throughout: every active structure's bits are the team twin's and no inactive row is written,
// whether the arrays are the caller's or the potential's own page-locked ones (hostArrays), and
// a call on the arrays of a smaller batch is refused.
TEST(BatchedLennardJonesCuda, HostEntryInPiecesAndInPlaceEqualsTheTwin) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 38, n = 3 * atoms, batch = 3000;
  BatchedLennardJonesCuda gpu(atoms);
  LennardJonesTeam twin(gpu.schedule(), 32 * gpu.shape().warps);
  const std::vector<double> x = cubeBatch(atoms, static_cast<int>(batch), 91);
  std::vector<std::uint8_t> active(batch, 1);
  for (std::size_t b = 0; b < batch; ++b)
    if (b < 5 || b + 7 >= batch || b % 3 == 1) active[b] = 0;
  std::vector<double> g(batch * n, -1.0), e(batch, -1.0);
  gpu.energyGradient(batch, x.data(), g.data(), e.data(), active.data());
  const BatchedPotential::HostArrays own = gpu.hostArrays(batch);
  ASSERT_NE(own.x, nullptr);
  std::copy(x.begin(), x.end(), own.x);
  std::fill(own.g, own.g + batch * n, -1.0);
  std::fill(own.energy, own.energy + batch, -1.0);
  gpu.energyGradient(batch, own.x, own.g, own.energy, active.data());
  int wrong = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    if (!active[b]) {
      wrong +=
          e[b] != -1.0 || own.energy[b] != -1.0 || g[b * n + n - 1] != -1.0 || own.g[b * n] != -1.0;
      continue;
    }
    std::vector<double> gt(n);
    const double et = twin.energyGradient(&x[b * n], gt.data());
    wrong += !sameBits(e[b], et) || !sameBits(&g[b * n], gt.data(), n) ||
             !sameBits(own.energy[b], et) || !sameBits(&own.g[b * n], gt.data(), n);
  }
  EXPECT_EQ(wrong, 0);

  BatchedLennardJonesCuda small(atoms);
  const BatchedPotential::HostArrays ten = small.hostArrays(10);
  EXPECT_THROW(small.energyGradient(20, ten.x, ten.g, ten.energy, nullptr), std::logic_error);
}

// The staging's arrays grow by doubling (gpu/BatchedHostStaging.h): replacing them frees device
// and page-locked memory, which waits for everything on the device, and network growth's shared
// calls come in every size. Batches of 1, 2, ..., 64 structures replace the arrays 7 times (at 1,
// 2, 4, ..., 64), not 64; every call still gives the team twin's bits.
TEST(BatchedLennardJonesCuda, HostStagingGrowsByDoubling) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 13, n = 3 * atoms, most = 64;
  BatchedLennardJonesCuda gpu(atoms);
  LennardJonesTeam twin(gpu.schedule(), 32 * gpu.shape().warps);
  const std::vector<double> x = cubeBatch(atoms, static_cast<int>(most), 5);
  int replaced = 0, wrong = 0;
  const double* last = nullptr;
  for (std::size_t batch = 1; batch <= most; ++batch) {
    const BatchedPotential::HostArrays own = gpu.hostArrays(batch);
    replaced += own.x != last;
    last = own.x;
    std::copy(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(batch * n), own.x);
    gpu.energyGradient(batch, own.x, own.g, own.energy, nullptr);
    for (std::size_t b = 0; b < batch; ++b) {
      std::vector<double> gt(n);
      const double et = twin.energyGradient(&x[b * n], gt.data());
      wrong += !sameBits(own.energy[b], et) || !sameBits(&own.g[b * n], gt.data(), n);
    }
  }
  EXPECT_EQ(replaced, 7);
  EXPECT_EQ(wrong, 0);
}

// The staging's one-copy return (gpu/BatchedHostStaging.h: the energies follow the batch's
// gradient rows): a call of B structures on the arrays of B, of fewer structures on the same
// arrays (their energies then not right after the rows), and on the caller's arrays of a batch
// that fills the staging, all the team twin's bits; the rows past a smaller call untouched.
TEST(BatchedLennardJonesCuda, HostEntryReturnsInOneCopyWithTheTwinsBits) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 38, n = 3 * atoms, batch = 40, fewer = 17;
  BatchedLennardJonesCuda gpu(atoms);
  LennardJonesTeam twin(gpu.schedule(), 32 * gpu.shape().warps);
  const std::vector<double> x = cubeBatch(atoms, static_cast<int>(batch), 23);
  const auto wrongRows = [&](std::size_t count, const double* g, const double* e) {
    int wrong = 0;
    for (std::size_t b = 0; b < count; ++b) {
      std::vector<double> gt(n);
      const double et = twin.energyGradient(&x[b * n], gt.data());
      wrong += !sameBits(e[b], et) || !sameBits(&g[b * n], gt.data(), n);
    }
    return wrong;
  };
  const BatchedPotential::HostArrays own = gpu.hostArrays(batch);
  std::copy(x.begin(), x.end(), own.x);
  gpu.energyGradient(batch, own.x, own.g, own.energy, nullptr);
  EXPECT_EQ(wrongRows(batch, own.g, own.energy), 0);
  std::fill(own.g, own.g + batch * n, -1.0);
  std::fill(own.energy, own.energy + batch, -1.0);
  gpu.energyGradient(fewer, own.x, own.g, own.energy, nullptr);
  EXPECT_EQ(wrongRows(fewer, own.g, own.energy), 0);
  int touched = 0;
  for (std::size_t b = fewer; b < batch; ++b)
    touched += own.energy[b] != -1.0 || own.g[b * n] != -1.0 || own.g[b * n + n - 1] != -1.0;
  EXPECT_EQ(touched, 0);
  std::vector<double> g(batch * n), e(batch);
  gpu.energyGradient(batch, x.data(), g.data(), e.data(), nullptr);
  EXPECT_EQ(wrongRows(batch, g.data(), e.data()), 0);
}

// A call of one piece with a mask (the Lennard-Jones kernel then reads and writes the
// page-locked arrays across the bus: gpu/BatchedHostStaging.h): every active structure gets the
// team twin's bits and no inactive row is written, on the caller's arrays and on the potential's.
TEST(BatchedLennardJonesCuda, HostEntryOfOnePieceWithAMaskWritesOnlyActiveRows) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 38, n = 3 * atoms, batch = 40;
  BatchedLennardJonesCuda gpu(atoms);
  LennardJonesTeam twin(gpu.schedule(), 32 * gpu.shape().warps);
  const std::vector<double> x = cubeBatch(atoms, static_cast<int>(batch), 57);
  std::vector<std::uint8_t> active(batch, 1);
  for (std::size_t b = 0; b < batch; ++b)
    if (b == 0 || b + 1 == batch || b % 4 == 2) active[b] = 0;
  const BatchedPotential::HostArrays own = gpu.hostArrays(batch);
  std::copy(x.begin(), x.end(), own.x);
  std::fill(own.g, own.g + batch * n, -1.0);
  std::fill(own.energy, own.energy + batch, -1.0);
  gpu.energyGradient(batch, own.x, own.g, own.energy, active.data());
  std::vector<double> g(batch * n, -1.0), e(batch, -1.0);
  gpu.energyGradient(batch, x.data(), g.data(), e.data(), active.data());
  int wrong = 0, written = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    if (!active[b]) {
      written += e[b] != -1.0 || own.energy[b] != -1.0 || g[b * n] != -1.0 ||
                 g[b * n + n - 1] != -1.0 || own.g[b * n] != -1.0 || own.g[b * n + n - 1] != -1.0;
      continue;
    }
    std::vector<double> gt(n);
    const double et = twin.energyGradient(&x[b * n], gt.data());
    wrong += !sameBits(e[b], et) || !sameBits(&g[b * n], gt.data(), n) ||
             !sameBits(own.energy[b], et) || !sameBits(&own.g[b * n], gt.data(), n);
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(written, 0);
}

// preferOnDevice (the shared calls of network growth): the host entry point's stream changes
// priority, before and after its first call; the bits stay the team twin's.
TEST(BatchedLennardJonesCuda, PreferredOnDeviceKeepsItsBits) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 38, n = 3 * atoms, batch = 64;
  const std::vector<double> x = cubeBatch(atoms, static_cast<int>(batch), 17);
  BatchedLennardJonesCuda before(atoms), after(atoms);
  LennardJonesTeam twin(before.schedule(), 32 * before.shape().warps);
  before.preferOnDevice();
  std::vector<double> g1(batch * n), e1(batch), g2(batch * n), e2(batch);
  before.energyGradient(batch, x.data(), g1.data(), e1.data(), nullptr);
  after.energyGradient(batch, x.data(), g2.data(), e2.data(), nullptr);
  after.preferOnDevice();
  after.energyGradient(batch, x.data(), g2.data(), e2.data(), nullptr);
  int wrong = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<double> gt(n);
    const double et = twin.energyGradient(&x[b * n], gt.data());
    wrong += !sameBits(e1[b], et) || !sameBits(&g1[b * n], gt.data(), n) || !sameBits(e2[b], et) ||
             !sameBits(&g2[b * n], gt.data(), n);
  }
  EXPECT_EQ(wrong, 0);
}

#endif  // LANDSCAPE_HAVE_CUDA

TEST(BatchedMinimiserFactory, CudaWithoutADeviceSaysWhy) {
  if (gpuAvailable()) GTEST_SKIP() << "a device is present";
  try {
    makeBatchedMinimiser({38}, benchParams(10), Backend::Cuda, {BatchedEngine::Team});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace landscape
