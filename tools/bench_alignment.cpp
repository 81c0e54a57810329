// Benchmark (not a test): the cost of one alignment (alignStructures, GMIN/OPTIM's MINPERMDIST) of
// Lennard-Jones minima, the work behind gmin's AVOID taboo list, duplicate checks and connect
// runs' distances. Pairs of three kinds per cluster size:
//   copy       a minimum against a moved, permuted copy of itself (distance ~0);
//   neighbour  a minimum against the minimum reached after displacing three of its atoms by up to
//              1.2 sigma per coordinate and quenching: the pairs AVOID mostly sees (distances below
//              its 4 sigma, often the same minimum again to the quench tolerance);
//   unrelated  two minima quenched from independent random starts.
// Each kind is timed with the AVX2 loops (where the processor has them) and with the baseline
// x86-64 loops (core/VectorDispatch.h), and the two must give the same distances bit for bit.
// The last column hashes every aligned structure's bits (FNV-1a): a change meant to leave the
// alignments as they are must leave it as it is.
//
// With --batched cpu|cuda a second table times the same pairs through the batched alignment
// (landscape/geometry/BatchedAlignment.h: the CPU twin or the GPU kernel, a block per pair), in
// calls of --batch pairs (the kind's pairs repeated), against alignStructures on one core, with
// the largest distance difference from it and how many permutations differ.
//
// Usage: bench_alignment [--atoms LIST] [--pairs N] [--seconds S] [--trials T]
//                        [--random-orientations R] [--batched cpu|cuda] [--batch B]
//                        [--threads T]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "backends/BatchedAlignmentFactory.h"
#include "landscape/core/Checksum.h"
#include "landscape/core/Random.h"
#include "landscape/core/ThreadPool.h"
#include "landscape/core/VectorDispatch.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/LennardJones.h"
#include "src/common/OptionTable.h"

namespace {

using namespace landscape;

struct Options {
  std::vector<std::size_t> atoms = {38, 75, 150};
  int pairs = 20;
  double seconds = 1.0;
  int trials = AlignmentParams{}.orientationTrials;
  int randomOrientations = AlignmentParams{}.randomOrientations;
  std::string batched;  // "", cpu or cuda
  int batch = 1024;
  int threads = 1;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_alignment");
  t.about =
      "usage: bench_alignment [--atoms LIST] [--pairs N] [--seconds S]\n"
      "Microseconds per alignment of Lennard-Jones minima (reduced units): copies, neighbouring\n"
      "minima (three atoms displaced and quenched) and unrelated minima, with the AVX2 loops and\n"
      "with the baseline x86-64 loops, which must agree bit for bit.\n";
  t.helpCommand();
  t.add("atoms", "LIST", "cluster sizes", fieldOf(&Options::atoms));
  t.add("pairs", "N", "pairs of each kind per size", fieldOf(&Options::pairs)).atLeast(1);
  t.add("seconds", "S", "least time per timed cell (the pairs are repeated)",
        fieldOf(&Options::seconds));
  t.add("trials", "T",
        "orientations refined per alignment (AlignmentParams::orientationTrials; DNEB's endpoint "
        "alignment takes 128)",
        fieldOf(&Options::trials))
      .atLeast(1);
  t.add("random-orientations", "R",
        "random candidate orientations per chirality (DNEB's endpoint alignment takes 256)",
        fieldOf(&Options::randomOrientations))
      .atLeast(0);
  t.add("batched", "BACKEND",
        "also time the batched alignment (cpu: the CPU twin; cuda: the GPU kernel)",
        fieldOf(&Options::batched))
      .choices({std::string("cpu"), std::string("cuda")});
  t.add("batch", "B", "pairs per batched call", fieldOf(&Options::batch)).atLeast(1);
  t.add("threads", "T",
        "the batched alignment's threads (cpu: the twin's; cuda: the host's share, the starts and "
        "results)",
        fieldOf(&Options::threads))
      .atLeast(1);
  return t;
}

std::vector<double> quenched(LennardJones& potential, std::vector<double> x) {
  LbfgsParams params;
  params.maxIterations = 5000;
  params.rmsTolerance = 1e-6;
  Lbfgs(params).minimize(potential, x);
  return x;
}

std::vector<double> movedCopy(const std::vector<double>& x, Random& random) {
  const double angle = 2.0 * M_PI * random.uniform();
  const double c = std::cos(angle), s = std::sin(angle);
  const std::size_t n = x.size() / 3;
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t from = (i * 7 + 3) % n;  // a permutation whenever n is not a multiple of 7
    const std::size_t source = n % 7 == 0 ? i : from;
    y[3 * i] = c * x[3 * source] - s * x[3 * source + 1] + 0.5;
    y[3 * i + 1] = s * x[3 * source] + c * x[3 * source + 1] - 0.25;
    y[3 * i + 2] = x[3 * source + 2] + 0.125;
  }
  return y;
}

// FNV-1a over the bits of every pair's aligned structure (the rotation, inversion, permutation
// and translation found, and so the distance).
std::uint64_t alignmentHash(
    const std::vector<std::pair<std::vector<double>, std::vector<double>>>& pairs,
    const AlignmentParams& params) {
  std::uint64_t hash = kFnv1aOffsetBasis;
  for (const auto& [a, b] : pairs) {
    const std::vector<double> aligned = alignStructures(a, b, params).alignedB;
    hash = fnv1a(aligned.data(), aligned.size() * sizeof(double), hash);
  }
  return hash;
}

struct Timing {
  double microseconds = 0.0;
  std::vector<double> distances;
};

Timing timeAlignments(const std::vector<std::pair<std::vector<double>, std::vector<double>>>& pairs,
                      double seconds, const AlignmentParams& params) {
  Timing t;
  for (const auto& [a, b] : pairs) t.distances.push_back(minimumDistance(a, b, params));
  long calls = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0.0;
  while (elapsed < seconds) {
    for (const auto& [a, b] : pairs) minimumDistance(a, b, params);
    calls += static_cast<long>(pairs.size());
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  t.microseconds = 1e6 * elapsed / static_cast<double>(calls);
  return t;
}

using Pairs = std::vector<std::pair<std::vector<double>, std::vector<double>>>;

// One row of the batched table: the kind's pairs repeated to `batch`, one call per repeat.
void timeBatched(const Options& o, const char* kind, int atoms, const Pairs& pairs,
                 const AlignmentParams& params, double hostMicroseconds) {
  const Backend backend = o.batched == "cuda" ? Backend::Cuda : Backend::Cpu;
  std::unique_ptr<BatchedAlignment> batched = makeBatchedAlignment(atoms, backend, o.threads);
  std::vector<AlignmentPair> call;
  for (int k = 0; k < o.batch; ++k) {
    const auto& [a, b] = pairs[static_cast<std::size_t>(k) % pairs.size()];
    call.push_back({&a, &b});
  }
  std::vector<AlignmentResult> out;
  batched->align(params, call, out);  // warm-up, and the results compared
  double worst = 0.0;
  int differing = 0;
  for (std::size_t k = 0; k < pairs.size() && k < out.size(); ++k) {
    const AlignmentResult host = alignStructures(pairs[k].first, pairs[k].second, params);
    worst = std::max(worst, std::abs(out[k].distance - host.distance));
    if (out[k].permutation != host.permutation) ++differing;
  }
  long calls = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0.0;
  while (elapsed < o.seconds) {
    batched->align(params, call, out);
    ++calls;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  const double perPair = 1e6 * elapsed / static_cast<double>(calls * o.batch);
  // The host's share of a call: checks, centring and the starts (AlignmentTeamBatch).
  ThreadPool pool(o.threads);
  const auto packing = std::chrono::steady_clock::now();
  const AlignmentTeamBatch packed(params, call, atoms, &pool);
  const double packingPerPair =
      1e6 * std::chrono::duration<double>(std::chrono::steady_clock::now() - packing).count() /
      static_cast<double>(o.batch);
  std::printf("| %d %s | %d | %.2f | %.2f | %.1f | %.2fx | %.1e | %d of %zu |\n", atoms, kind,
              o.batch, perPair, packingPerPair, 1e-3 * 1e6 * elapsed / static_cast<double>(calls),
              hostMicroseconds / perPair, worst, differing, std::min(pairs.size(), out.size()));
}

int run(const Options& o) {
  const bool avx2 = cpuHasAvx2();
  std::printf(
      "alignStructures, us per call (one thread), %d orientations refined of %d random; "
      "AVX2 %s\n\n",
      o.trials, o.randomOrientations,
      avx2 ? "available" : "not available: both columns run the baseline loops");
  std::printf(
      "| atoms | pairs | mean distance | AVX2 loops | baseline loops | speed-up | same bits | "
      "alignments' hash |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  std::vector<std::pair<int, std::vector<Pairs>>> kindsBySize;
  std::vector<double> hostMicroseconds;  // per row, AVX2
  for (const std::size_t size : o.atoms) {
    const int atoms = static_cast<int>(size);
    LennardJones potential(static_cast<std::size_t>(atoms));
    Random random(static_cast<std::uint64_t>(atoms));
    const double radius = std::cbrt(static_cast<double>(atoms)) * 0.9;
    const auto randomMinimum = [&]() {
      return quenched(potential,
                      randomCluster(static_cast<std::size_t>(atoms), radius, 0.7, random));
    };
    std::vector<std::pair<std::vector<double>, std::vector<double>>> kinds[3];
    for (int p = 0; p < o.pairs; ++p) {
      const std::vector<double> a = randomMinimum();
      kinds[0].emplace_back(a, movedCopy(a, random));
      std::vector<double> displaced = a;
      for (int moved = 0; moved < 3; ++moved) {
        const std::size_t atom = static_cast<std::size_t>(random.uniform() * atoms) % atoms;
        for (int k = 0; k < 3; ++k) displaced[3 * atom + k] += 1.2 * (2.0 * random.uniform() - 1.0);
      }
      kinds[1].emplace_back(a, movedCopy(quenched(potential, displaced), random));
      kinds[2].emplace_back(a, randomMinimum());
    }
    const char* names[3] = {"copy", "neighbour", "unrelated"};
    kindsBySize.push_back({atoms, {kinds[0], kinds[1], kinds[2]}});
    AlignmentParams params;
    params.orientationTrials = o.trials;
    params.randomOrientations = o.randomOrientations;
    for (int k = 0; k < 3; ++k) {
      useBaselineLoops(false);
      const Timing fast = timeAlignments(kinds[k], o.seconds, params);
      useBaselineLoops(true);
      const Timing baseline = timeAlignments(kinds[k], o.seconds, params);
      useBaselineLoops(false);
      double mean = 0.0;
      for (double d : fast.distances) mean += d / static_cast<double>(fast.distances.size());
      const bool same = std::memcmp(fast.distances.data(), baseline.distances.data(),
                                    fast.distances.size() * sizeof(double)) == 0;
      hostMicroseconds.push_back(fast.microseconds);
      std::printf("| %d %s | %zu | %.3f | %.1f | %.1f | %.2fx | %s | %016llx |\n", atoms, names[k],
                  kinds[k].size(), mean, fast.microseconds, baseline.microseconds,
                  baseline.microseconds / fast.microseconds, same ? "yes" : "NO",
                  static_cast<unsigned long long>(alignmentHash(kinds[k], params)));
      if (!same) return 1;
    }
  }
  if (o.batched.empty()) return 0;
  std::printf("\nbatched alignment on %s (%s), calls of %d pairs, %d host thread%s\n\n",
              o.batched.c_str(), o.batched == "cuda" ? "the GPU kernel" : "the CPU twin", o.batch,
              o.threads, o.threads == 1 ? "" : "s");
  std::printf(
      "| atoms | pairs per call | us per alignment | of which the host's packing | ms per call | "
      "x alignStructures (AVX2, one core) | largest distance difference | permutations "
      "differing |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  AlignmentParams params;
  params.orientationTrials = o.trials;
  params.randomOrientations = o.randomOrientations;
  const char* names[3] = {"copy", "neighbour", "unrelated"};
  std::size_t row = 0;
  for (const auto& [atoms, kinds] : kindsBySize)
    for (int k = 0; k < 3; ++k)
      timeBatched(o, names[k], atoms, kinds[k], params, hostMicroseconds[row++]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    return run(o);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_alignment: %s\n", error.what());
    return 1;
  }
}
