// Benchmark (not a test) of the batched engine: Lennard-Jones minimisations per second
// against the batch size B on the CPU reference (1 and 2 threads) and on CUDA, from random starts
// uniform in a cube of half-side 1.5 N^(1/3), GMIN's L-BFGS with m = 4, maxStep 0.4, maxRise
// 1e-4, H0 0.1, RMS 1e-6. Each row gives energy+gradient calls per minimisation, the converged
// fraction, the speed-up over the 1-thread CPU and the fraction of the FP64 pair floor:
// floor time = N(N-1)/2 pairs x calls x kFlopsPerPair / peak FP64 rate.
//
// Engines on the GPU: `cuda` (the team kernel: one persistent kernel, a structure in shared
// memory) and `rounds` (gpu/BatchedLbfgsRoundsCuda: state in global memory, the potential's device
// entry point once per round). The rounds engine's cost per iteration against the history size
// at B = 1 is measured with a real potential: bench_history --impl gpu-rounds --m 4,1000.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/geometry/CubeCluster.h"
#include "src/common/OptionTable.h"
#include "src/common/SharedOptions.h"

namespace {

using namespace landscape;

// Pair physics of potentials/LennardJonesTerms.h plus the gradient update, as
// bench_potential --potential lj counts it: 3 sub, 5 for r^2, 1 reciprocal (counted as 1), 4 for
// r^-6/r^-12, 3 energy, 4 derivative, 6 gradient = 26 FLOP per pair.
constexpr double kFlopsPerPair = 26.0;

struct Options {
  std::vector<std::size_t> sizes = {13, 38, 75, 147};
  std::vector<std::size_t> batches = {1, 8, 64, 512, 4096, 32768};
  std::vector<std::string> backends = {"cpu1", "cpu2", "cuda"};
  double peak = 34e12, cpuSeconds = 20.0, minSeconds = 0.5;
  int maxIterations = 10000, m = 4;
  BatchedTeamShape shape;
  BatchedRoundsOptions rounds;
  std::uint64_t seed = 1;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_batch");
  t.about =
      "usage: bench_batch [--sizes 13,38,75,147] [--batches 1,8,64,512,4096,32768]\n"
      "                   [--backends cpu1,cpu2,cuda] [--fp64-peak FLOPS] [--cpu-seconds S]\n"
      "                   [--min-seconds S] [--max-iterations I] [--lbfgs-m M] [--warps W]\n"
      "                   [--tile T] [--seed S] [--rounds-threads T] [--rounds-poll K]\n"
      "                   [--rounds-resident R]\n"
      "Lennard-Jones minimisations per second against the batch size B, from random starts\n"
      "uniform in a cube of half-side 1.5 N^(1/3) (GMIN L-BFGS: m = 4, maxStep 0.4, maxRise 1e-4,\n"
      "H0 0.1, RMS 1e-6; reduced units), as a Markdown table with energy+gradient calls per\n"
      "minimisation, the converged fraction, the ratio to the 1-thread CPU rate and the fraction\n"
      "of the FP64 pair floor (N(N-1)/2 pairs x calls x 26 FLOP / peak).\n";
  t.helpCommand();
  t.add("sizes", "LIST", "cluster sizes in atoms", fieldOf(&Options::sizes)).atLeast(2);
  t.add("batches", "LIST", "batch sizes B (those that fit)", fieldOf(&Options::batches)).atLeast(1);
  t.add("backends", "LIST",
        "cpuT (CPU reference on T threads), twinT (CPU twin of the kernel), cuda (the team "
        "kernel), rounds (the round-based engine on the batched CUDA potential); cuda and rounds "
        "only where a device is found",
        fieldOf(&Options::backends));
  t.add("fp64-peak", "F", "FP64 rate of the floor (H100 SXM / H200, non-tensor)",
        fieldOf(&Options::peak))
      .unit("FLOP/s")
      .positive();
  t.add("cpu-seconds", "S", "skip a CPU row whose predicted time exceeds S",
        fieldOf(&Options::cpuSeconds))
      .unit("s")
      .positive();
  t.add("min-seconds", "S", "repeat a GPU batch until S seconds have passed",
        fieldOf(&Options::minSeconds))
      .unit("s")
      .positive();
  t.add("max-iterations", "I", "L-BFGS iteration cap", fieldOf(&Options::maxIterations)).atLeast(1);
  addLbfgsHistoryOption(t, "L-BFGS history size", fieldOf(&Options::m)).alias("m");
  t.add("warps", "W", "GPU warps per structure (1, 2, 4 or 8; 0: from shared memory)",
        fieldOf(&Options::shape, &BatchedTeamShape::warps))
      .oneOf({0, 1, 2, 4, 8});
  t.add("tile", "T", "GPU pair tile width (4, 8, 16 or 32; 0: chosen)",
        fieldOf(&Options::shape, &BatchedTeamShape::tileWidth))
      .oneOf({0, 4, 8, 16, 32});
  t.add("seed", "S", "seed of the starts", fieldOf(&Options::seed));
  t.add("rounds-threads", "T", "rounds engine: threads per structure (0: about n / 8)",
        fieldOf(&Options::rounds, &BatchedRoundsOptions::threadsPerStructure))
      .atLeast(0);
  t.add("rounds-poll", "K", "rounds engine: rounds between two looks of the host",
        fieldOf(&Options::rounds, &BatchedRoundsOptions::roundsPerPoll))
      .atLeast(1);
  t.add("rounds-resident", "R", "rounds engine: structures resident at once (0: the batch)",
        fieldOf(&Options::rounds, &BatchedRoundsOptions::residentStructures));
  t.add("rounds-compact", "K",
        "rounds engine: compact-form directions from history size K on (0: automatic, -1: never)",
        fieldOf(&Options::rounds, &BatchedRoundsOptions::compactFromHistory))
      .atLeast(-1);
  return t;
}

LbfgsParams benchParams(const Options& o) {
  LbfgsParams p;
  p.historySize = o.m;
  p.maxStep = 0.4;
  p.maxRise = 1e-4;
  p.initialGuess = 0.1;
  p.rmsTolerance = 1e-6;
  p.maxIterations = o.maxIterations;
  return p;
}

std::vector<double> cubeStarts(std::size_t atoms, std::size_t batch, std::uint64_t seed) {
  Random random(seed);
  std::vector<double> x;
  x.reserve(batch * 3 * atoms);
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<double> s = uniformCubeCluster(atoms, cubeStartHalfSide(atoms), random);
    x.insert(x.end(), s.begin(), s.end());
  }
  return x;
}

struct Measurement {
  double rate = 0.0;  // minimisations per second
  double callsPerMin = 0.0;
  double convergedFraction = 0.0;
};

// Minimises the batch (repeatedly, from the same starts, until minSeconds have passed).
Measurement measure(BatchedMinimiser& minimiser, std::size_t atoms, std::size_t batch,
                    const Options& o, double minSeconds) {
  const std::vector<double> starts = cubeStarts(atoms, batch, o.seed);
  std::vector<LbfgsResult> results(batch);
  double seconds = 0.0;
  long runs = 0;
  do {
    std::vector<double> x = starts;
    const auto t0 = std::chrono::steady_clock::now();
    minimiser.minimise(batch, x.data(), results.data());
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++runs;
  } while (seconds < minSeconds);
  Measurement m;
  m.rate = static_cast<double>(batch * runs) / seconds;
  for (const auto& r : results) {
    m.callsPerMin += static_cast<double>(r.functionCalls);
    m.convergedFraction += r.converged() ? 1.0 : 0.0;
  }
  m.callsPerMin /= static_cast<double>(batch);
  m.convergedFraction /= static_cast<double>(batch);
  return m;
}

std::unique_ptr<BatchedMinimiser> makeFor(const std::string& backend, std::size_t atoms,
                                          const Options& o) {
  BatchedEngineOptions options;
  options.shape = o.shape;
  options.rounds = o.rounds;
  if (backend == "cuda" || backend == "rounds") {
    options.engine = backend == "cuda" ? BatchedEngine::Team : BatchedEngine::Rounds;
    return makeBatchedMinimiser({atoms}, benchParams(o), Backend::Cuda, options);
  }
  const bool twin = backend.rfind("twin", 0) == 0;
  if (!twin && backend.rfind("cpu", 0) != 0)
    throw std::invalid_argument("backend must be cpuT, twinT, cuda or rounds, not '" + backend +
                                "'");
  options.threads = std::stoi(backend.substr(twin ? 4 : 3));
  options.engine = twin ? BatchedEngine::Team : BatchedEngine::Reference;
  return makeBatchedMinimiser({atoms}, benchParams(o), Backend::Cpu, options);
}

// All batch sizes of one backend and cluster size; CPU rows stop when the next would take longer
// than cpuSeconds at the rate measured so far.
void benchRow(const std::string& backend, std::size_t atoms, const Options& o,
              std::map<std::size_t, double>& cpuReference) {
  const bool gpu = backend == "cuda" || backend == "rounds";
  if (gpu && !gpuAvailable()) return;
  std::unique_ptr<BatchedMinimiser> minimiser = makeFor(backend, atoms, o);
  const BatchMemory memory = minimiser->memory();
  std::fprintf(stderr, "%s: %zu bytes of %s per structure, largest batch %zu\n",
               minimiser->name().c_str(), memory.bytesPerStructure, memory.where.c_str(),
               memory.largestBatch());
  if (gpu) measure(*minimiser, atoms, 1, o, 0.0);  // context, module load, first launch
  const double pairs = 0.5 * static_cast<double>(atoms) * static_cast<double>(atoms - 1);
  double rate = 0.0;
  for (std::size_t batch : o.batches) {
    if (batch > minimiser->maxBatch()) {
      std::printf("| LJ%zu | %s | %zu | does not fit (largest %zu) | | | | |\n", atoms,
                  backend.c_str(), batch, minimiser->maxBatch());
      continue;
    }
    if (!gpu && rate > 0.0 && static_cast<double>(batch) / rate > o.cpuSeconds) {
      std::printf("| LJ%zu | %s | %zu | skipped (~%.0f s) | | | | |\n", atoms, backend.c_str(),
                  batch, static_cast<double>(batch) / rate);
      continue;
    }
    // Short CPU batches are repeated too (0.2 s), so that timer and scheduler noise stay small.
    const Measurement m = measure(*minimiser, atoms, batch, o, gpu ? o.minSeconds : 0.2);
    rate = m.rate;
    if (backend == "cpu1") cpuReference[atoms] = std::max(cpuReference[atoms], rate);
    const double floorRate = o.peak / (pairs * m.callsPerMin * kFlopsPerPair);
    const auto ref = cpuReference.find(atoms);
    char ratio[32] = "";
    if (ref != cpuReference.end()) std::snprintf(ratio, sizeof ratio, "%.1f", rate / ref->second);
    std::printf("| LJ%zu | %s | %zu | %.4g | %.0f | %.3f | %s | %.3g |\n", atoms, backend.c_str(),
                batch, rate, m.callsPerMin, m.convergedFraction, ratio, rate / floorRate);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    std::printf("device: %s\n", gpuDescription().c_str());
    std::printf("FP64 pair floor: N(N-1)/2 pairs x calls x %.0f FLOP / %.3g FLOP/s\n\n",
                kFlopsPerPair, o.peak);
    std::printf(
        "| system | backend | B | minimisations/s | calls/min | converged | x cpu1 | "
        "of FP64 floor |\n|---|---|---|---|---|---|---|---|\n");
    std::map<std::size_t, double> cpuReference;  // best 1-thread CPU rate per size
    for (std::size_t atoms : o.sizes)
      for (const std::string& backend : o.backends) benchRow(backend, atoms, o, cpuReference);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_batch: %s\n", e.what());
    return 1;
  }
}
