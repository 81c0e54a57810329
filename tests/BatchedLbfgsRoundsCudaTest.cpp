// The round-based batched L-BFGS on a CUDA device (gpu/BatchedLbfgsRoundsCuda) against its CPU
// twin over the same potential bits (the twin calls the device potential's host entry point, which
// runs the same kernel): every structure's iterates, energies, counts, status and coordinates bit
// for bit, for several team sizes, poll intervals, resident batches (refill from the device
// queue), with and without the CUDA graph, at B = 1 with large n and with a long history; the
// same bits whatever the rest of the batch; round-off agreement with the CPU reference; memory
// and refusals. All cases skip without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/minimisation/BatchedLbfgsRoundsTwin.h"
#include "potentials/BatchedLennardJones.h"
#include "tests/BatchedStructures.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedLbfgsRoundsCuda.h"
#include "gpu/BatchedLennardJonesCuda.h"
#endif

namespace landscape {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

using namespace batchtest;

BatchedRoundsOptions roundsOptions(int threads, int poll = 32, std::size_t resident = 0,
                                   bool graph = true) {
  BatchedRoundsOptions o;
  o.threadsPerStructure = threads;
  o.roundsPerPoll = poll;
  o.residentStructures = resident;
  o.useGraph = graph;
  return o;
}

#ifdef LANDSCAPE_HAVE_CUDA

// Mixed batches (a few iterations, already converged, the cap, an overlap with E ~ 1e16 and a
// non-finite start, plus cube starts) for LJ13 to LJ147 and several team sizes.
TEST(BatchedLbfgsRoundsCuda, EqualsTheCpuTwinBitForBitInMixedBatches) {
  SKIP_WITHOUT_GPU();
  for (std::size_t atoms : {13, 38, 75, 147}) {
    const LbfgsParams params = benchParams(atoms > 100 ? 150 : 400);
    const std::vector<double> x0 = mixedBatch(atoms, 7 + atoms, atoms > 100 ? 3 : 8);
    BatchedLennardJonesCuda potential(atoms);
    for (int threads : {0, 32, 64, 256}) {
      BatchedLbfgsRoundsCuda gpu(potential, params, roundsOptions(threads));
      BatchedLbfgsRoundsTwin twin(potential, params, roundsOptions(threads), 2);
      ASSERT_EQ(gpu.teamThreads(), twin.teamThreads());
      const MinimisedBatch got = minimiseBatch(gpu, x0);
      std::printf("[ rounds ] %s: %ld rounds, %ld polls, graph %s\n", gpu.name().c_str(),
                  gpu.lastStats().rounds, gpu.lastStats().polls,
                  gpu.lastStats().graph ? "yes" : "no");
      expectSameBatch(
          got, minimiseBatch(twin, x0), 3 * atoms,
          "LJ" + std::to_string(atoms) + ", " + std::to_string(gpu.teamThreads()) + " threads");
      EXPECT_EQ(got.results[kExactOverlap].status, LbfgsStatus::NonFiniteEnergy);
      EXPECT_EQ(got.results[kAtMinimum].iterations, 0);
    }
  }
}

// Poll interval, resident slots (refill from the device queue) and the graph change the time
// only: every structure's bits are the same.
TEST(BatchedLbfgsRoundsCuda, SameBitsForEveryPollIntervalResidentBatchAndGraph) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 38, n = 3 * atoms;
  const LbfgsParams params = benchParams(300);
  std::vector<double> x0 = mixedBatch(atoms, 31, 20);
  BatchedLennardJonesCuda potential(atoms);
  BatchedLbfgsRoundsCuda reference(potential, params, roundsOptions(0));
  const MinimisedBatch base = minimiseBatch(reference, x0);
  expectSameBatch(minimiseBatch(reference, x0), base, n, "second run");
  for (int poll : {1, 7, 64})
    for (std::size_t resident : {0, 1, 5, 16})
      for (bool graph : {true, false}) {
        if (poll == 1 && resident == 1) continue;  // ~10^4 polls: slow under the sanitizers
        BatchedLbfgsRoundsCuda gpu(potential, params, roundsOptions(0, poll, resident, graph));
        expectSameBatch(minimiseBatch(gpu, x0), base, n,
                        "poll " + std::to_string(poll) + ", resident " + std::to_string(resident) +
                            (graph ? ", graph" : ", launches"));
      }
  // Perturbing one structure leaves the others bit for bit; a structure alone is itself.
  std::vector<double> x1 = x0;
  const std::size_t victim = kRoles + 3;
  x1[victim * n + 2] += 1e-3;
  const MinimisedBatch changed = minimiseBatch(reference, x1);
  for (std::size_t s = 0; s < base.results.size(); ++s) {
    if (s == victim) continue;
    expectSameResult(base.results[s], changed.results[s], "structure " + std::to_string(s));
    EXPECT_TRUE(sameBits(&base.x[s * n], &changed.x[s * n], n)) << s;
  }
  for (std::size_t s : {std::size_t{kCloseOverlap}, victim + 1}) {
    std::vector<double> alone(x0.begin() + s * n, x0.begin() + (s + 1) * n);
    LbfgsResult r;
    reference.minimise(1, alone.data(), &r);
    expectSameResult(r, base.results[s], "alone");
    EXPECT_TRUE(sameBits(alone.data(), &base.x[s * n], n));
  }
}

// Packing the tail (BatchedRoundsOptions::packFactor) changes the time only: 605 LJ38 structures
// (the mixed roles, 30 cube starts that take hundreds of iterations, then 570 perturbed minima
// that take a few tens, so that the cube starts make the tail) give the bits of the unpacked
// engine and of the twin for several factors, polls, resident batches and with and without the
// graph, two-loop and compact directions; the engine does pack.
TEST(BatchedLbfgsRoundsCuda, PackingTheTailChangesNoBit) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 38, n = 3 * atoms;
  std::vector<double> x0 = mixedBatch(atoms, 53, 30);
  const std::vector<double> minimum = quenchedMinimum(atoms, 54);
  for (int k = 0; k < 570; ++k) {
    const std::vector<double> near = perturbed(minimum, 1e-3, 1000 + k);
    x0.insert(x0.end(), near.begin(), near.end());
  }
  BatchedLennardJonesCuda potential(atoms);
  ASSERT_TRUE(potential.rowsMayMove());
  for (int compactFrom : {-1, 8}) {
    LbfgsParams params = benchParams(300);
    if (compactFrom > 0) params.historySize = 16;
    BatchedRoundsOptions unpacked = roundsOptions(0);
    unpacked.packFactor = 0;
    unpacked.compactFromHistory = compactFrom;
    BatchedLbfgsRoundsCuda plain(potential, params, unpacked);
    const MinimisedBatch want = minimiseBatch(plain, x0);
    EXPECT_EQ(plain.lastStats().packs, 0);
    BatchedLbfgsRoundsTwin twin(potential, params, unpacked, 2);
    expectSameBatch(want, minimiseBatch(twin, x0), n, "unpacked against the twin");
    for (int factor : {2, 4, 16})
      for (int poll : {1, 32})
        for (std::size_t resident : {0, 256})
          for (bool graph : {true, false}) {
            if (poll == 1 && !graph) continue;  // slow under the sanitizers
            BatchedRoundsOptions o = roundsOptions(0, poll, resident, graph);
            o.packFactor = factor;
            o.compactFromHistory = compactFrom;
            BatchedLbfgsRoundsCuda gpu(potential, params, o);
            const std::string what = "pack factor " + std::to_string(factor) + ", poll " +
                                     std::to_string(poll) + ", resident " +
                                     std::to_string(resident) + (graph ? ", graph" : ", launches") +
                                     (compactFrom > 0 ? ", compact" : ", two-loop");
            for (int call = 0; call < 2; ++call)  // the second reuses the packed graphs
              expectSameBatch(minimiseBatch(gpu, x0), want, n, what);
            const std::size_t slots = resident ? resident : x0.size() / n;
            if (slots / factor < kRoundsPackedSlotsAtLeast) continue;  // too few rows to pack
            EXPECT_GT(gpu.lastStats().packs, 0) << what;
            EXPECT_LT(gpu.lastStats().lastSlots, slots) << what;
          }
  }
}

// B = 1 with many degrees of freedom (a 600-atom cluster, n = 1800, 256 threads) and a history
// longer than the run is short (m = 50: the circular history wraps) against the twin.
TEST(BatchedLbfgsRoundsCuda, LargeStructureAloneAndLongHistoryEqualTheTwin) {
  SKIP_WITHOUT_GPU();
  {
    const std::size_t atoms = 600;
    const LbfgsParams params = benchParams(40);
    const std::vector<double> x0 = cubeStart(atoms, 61);
    BatchedLennardJonesCuda potential(atoms);
    BatchedLbfgsRoundsCuda gpu(potential, params);
    BatchedLbfgsRoundsTwin twin(potential, params, {}, 1);
    EXPECT_EQ(gpu.teamThreads(), 256);
    expectSameBatch(minimiseBatch(gpu, x0), minimiseBatch(twin, x0), 3 * atoms, "LJ600 alone");
  }
  {
    const std::size_t atoms = 38;
    LbfgsParams params = benchParams(150);
    params.historySize = 50;
    std::vector<double> x0 = mixedBatch(atoms, 3, 4);
    BatchedLennardJonesCuda potential(atoms);
    BatchedRoundsOptions twoLoop = roundsOptions(64, 16, 3);
    twoLoop.compactFromHistory = -1;  // the compact path has its own test below
    BatchedLbfgsRoundsCuda gpu(potential, params, twoLoop);
    twoLoop.residentStructures = 0;
    BatchedLbfgsRoundsTwin twin(potential, params, twoLoop, 2);
    expectSameBatch(minimiseBatch(gpu, x0), minimiseBatch(twin, x0), 3 * atoms, "m = 50");
  }
}

// Long histories in the compact form (landscape/minimisation/LbfgsRoundsCompactTerms.h, the multi-block
// kernels of gpu/BatchedLbfgsRoundsCompactKernels.cu) against the twin's compact path: mixed LJ38
// batches at m = 64 (one chunk, a partial history; the overlap, cap and at-minimum roles) over
// team sizes, poll intervals, resident slots and the graph.
TEST(BatchedLbfgsRoundsCuda, CompactDirectionsEqualTheTwinBitForBit) {
  SKIP_WITHOUT_GPU();
  {
    const std::size_t atoms = 38;
    LbfgsParams params = benchParams(200);
    params.historySize = 64;
    const std::vector<double> x0 = mixedBatch(atoms, 41, 6);
    BatchedLennardJonesCuda potential(atoms);
    MinimisedBatch expected;
    for (int threads : {0, 64}) {
      BatchedRoundsOptions twinOptions = roundsOptions(threads);
      twinOptions.compactFromHistory = 8;
      BatchedLbfgsRoundsTwin twin(potential, params, twinOptions, 2);
      const MinimisedBatch want = minimiseBatch(twin, x0);
      if (threads == 0) expected = want;
      for (int poll : {1, 32})
        for (std::size_t resident : {0, 3})
          for (bool graph : {true, false}) {
            if (poll == 1 && resident == 3 && graph) continue;  // slow under the sanitizers
            BatchedRoundsOptions o = roundsOptions(threads, poll, resident, graph);
            o.compactFromHistory = 8;
            BatchedLbfgsRoundsCuda gpu(potential, params, o);
            ASSERT_NE(gpu.name().find("compact"), std::string::npos);
            expectSameBatch(minimiseBatch(gpu, x0), want, 3 * atoms,
                            "LJ38 m = 64, threads " + std::to_string(threads) + ", poll " +
                                std::to_string(poll) + ", resident " + std::to_string(resident) +
                                (graph ? ", graph" : ", launches"));
            if (poll == 32 && resident == 0 && graph) EXPECT_TRUE(gpu.lastStats().graph);
          }
    }
    EXPECT_EQ(expected.results[kExactOverlap].status, LbfgsStatus::NonFiniteEnergy);
  }
}

// The compact path's shapes (the sanitizer runs of tools/gpu_check.sh rounds use this test):
// LJ75 at m = 100 (two chunks, the ring wraps after 100 iterations), LJ600 alone at m = 64
// (n = 1800: eight component blocks), LJ13 through the reset path with compact directions from
// m = 1.
TEST(BatchedLbfgsRoundsCuda, CompactShapesAndResetsEqualTheTwinBitForBit) {
  SKIP_WITHOUT_GPU();
  for (std::size_t atoms : {75, 600}) {
    LbfgsParams params = benchParams(atoms == 75 ? 300 : 40);
    params.historySize = atoms == 75 ? 100 : 64;
    const std::vector<double> x0 = atoms == 75 ? mixedBatch(atoms, 9, 2) : cubeStart(atoms, 61);
    BatchedLennardJonesCuda potential(atoms);
    BatchedRoundsOptions o = roundsOptions(0);
    o.compactFromHistory = 8;
    BatchedLbfgsRoundsCuda gpu(potential, params, o);
    BatchedLbfgsRoundsTwin twin(potential, params, o, 2);
    const MinimisedBatch got = minimiseBatch(gpu, x0);
    expectSameBatch(got, minimiseBatch(twin, x0), 3 * atoms,
                    "LJ" + std::to_string(atoms) + " compact");
    if (atoms == 75) EXPECT_GT(got.results[kRandom].iterations, 100);  // the ring wrapped
  }
  {  // the reset path (maxRise 0, no backtracks), compact from m = 1
    LbfgsParams params = benchParams(200);
    params.historySize = 7;
    params.maxBacktracks = 0;
    params.maxRise = 0.0;
    params.rmsTolerance = 1e-8;
    const std::vector<double> x0 = mixedBatch(13, 77, 8);
    BatchedLennardJonesCuda potential(13);
    BatchedRoundsOptions o = roundsOptions(0);
    o.compactFromHistory = 1;
    BatchedLbfgsRoundsCuda gpu(potential, params, o);
    BatchedLbfgsRoundsTwin twin(potential, params, o, 1);
    expectSameBatch(minimiseBatch(gpu, x0), minimiseBatch(twin, x0), 39, "LJ13 resets, compact");
  }
}

TEST(BatchedLbfgsRoundsCuda, AgreesWithTheCpuReferenceToRoundOffInsideABasin) {
  SKIP_WITHOUT_GPU();
  for (std::size_t atoms : {13, 38, 147}) {
    const LbfgsParams params = benchParams(10000);
    std::vector<double> x0;
    for (int b = 0; b < 4; ++b) {
      const std::vector<double> s = perturbed(quenchedMinimum(atoms, 600 + b), 0.1, 700 + b);
      x0.insert(x0.end(), s.begin(), s.end());
    }
    auto cpu = makeBatchedMinimiser({atoms}, params, Backend::Cpu, {BatchedEngine::Reference, 2});
    auto gpu = makeBatchedMinimiser({atoms}, params, Backend::Cuda, {BatchedEngine::Rounds});
    const MinimisedBatch ref = minimiseBatch(*cpu, x0), got = minimiseBatch(*gpu, x0);
    for (std::size_t b = 0; b < ref.results.size(); ++b) {
      EXPECT_EQ(got.results[b].converged(), ref.results[b].converged());
      EXPECT_NEAR(got.results[b].energy, ref.results[b].energy,
                  1e-10 * std::abs(ref.results[b].energy));
      std::printf("[ rounds gpu vs reference ] LJ%zu structure %zu: %d vs %d iterations\n", atoms,
                  b, got.results[b].iterations, ref.results[b].iterations);
    }
  }
}

TEST(BatchedLbfgsRoundsCuda, MemoryAndRefusals) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 38, n = 3 * atoms;
  BatchedLennardJonesCuda potential(atoms);
  BatchedLbfgsRoundsCuda gpu(potential, benchParams(100));
  const std::size_t slot = 8 * ((5 + 2 * 4) * n + 2 * 4 + 1) + 1 + 80;
  // Packing's scratch: a quarter of the widest row (the history, 4 n doubles), a map entry and a
  // byte per slot.
  const std::size_t pack = 8 * 4 * n / 4 + 1 + 4;
  EXPECT_EQ(gpu.memory().bytesPerStructure, slot + pack + 8 * n + 32);
  BatchedRoundsOptions unpacked;
  unpacked.packFactor = 0;
  EXPECT_EQ(
      BatchedLbfgsRoundsCuda(potential, benchParams(100), unpacked).memory().bytesPerStructure,
      slot + 8 * n + 32);
  const std::size_t largest = gpu.maxBatch();
  ASSERT_GT(largest, 10000u);
  try {
    gpu.minimise(largest + 1, nullptr, nullptr);  // refused before anything is touched
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(
        std::string(e.what()).find("the largest batch that fits is " + std::to_string(largest)),
        std::string::npos)
        << e.what();
  }
  BatchedLennardJones hostOnly(atoms, 1);
  try {
    BatchedLbfgsRoundsCuda refused(hostOnly, benchParams(100));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no device entry point"), std::string::npos) << e.what();
  }
  EXPECT_THROW(BatchedLbfgsRoundsCuda(potential, benchParams(100), roundsOptions(40)),
               std::invalid_argument);
  EXPECT_THROW(gpu.minimiseDevice(3, nullptr, nullptr, nullptr), std::invalid_argument);
}

#endif  // LANDSCAPE_HAVE_CUDA

TEST(BatchedMinimiserFactory, CudaRoundsWithoutADeviceSaysWhy) {
  if (gpuAvailable()) GTEST_SKIP() << "a device is present";
  try {
    makeBatchedMinimiser({38}, benchParams(10), Backend::Cuda, {BatchedEngine::Rounds});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace landscape
