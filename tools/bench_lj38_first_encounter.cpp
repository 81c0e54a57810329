// Benchmark (not a test): mean first-encounter time of the LJ38 global minimum (-173.928427) by
// basin-hopping with the settings of GMIN's LJ38 example (STEP 0.40 0.51, TEMPERATURE 1.0,
// NEWRESTART 40, AVOID 4.0 20, SLOPPYCONV 5e-3, ...), each run from its own random start to its
// first hit. Compared with GMIN's published 2825 +/- 3093 quenches over 100 random starts.
//
// Usage: bench_lj38_first_encounter [--runs N] [--threads T] [--max-steps S] [--backend cpu|cuda]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "backends/PotentialFactory.h"
#include "landscape/search/BasinHopping.h"
#include "src/gmin/GminConfig.h"
#include "src/common/SharedOptions.h"
#include "tools/BenchStats.h"

namespace {

using namespace landscape;

constexpr double kLj38GlobalMinimum = -173.928427;
constexpr double kGminMeanQuenches = 2825.0, kGminStdQuenches = 3093.0;

struct RunOutcome {
  std::uint64_t seed;
  bool hit;
  long quenches;
  long functionCalls;
  double seconds;
};

struct Options {
  long runs = 50;
  long threads = std::max(1u, std::thread::hardware_concurrency());
  long maxSteps = 200000;
  Backend backend = Backend::Cpu;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_lj38_first_encounter");
  t.about =
      "usage: bench_lj38_first_encounter [--runs N] [--threads T] [--max-steps S]\n"
      "                                  [--backend cpu|cuda]\n"
      "Mean first-encounter time of the LJ38 global minimum (-173.928427) by basin-hopping with\n"
      "the settings of GMIN's LJ38 example, each run from its own random start (seed = run + 1) "
      "to\n"
      "its first hit, in quenches, energy+gradient calls and seconds; compared with GMIN's\n"
      "published 2825 +/- 3093 quenches. Exit status 2 if any run missed within --max-steps.\n";
  t.helpCommand();
  t.add("runs", "N", "independent runs", fieldOf(&Options::runs)).atLeast(1);
  t.add("threads", "T", "worker threads", fieldOf(&Options::threads))
      .atLeast(1)
      .defaultText("the hardware concurrency");
  t.add("max-steps", "S", "basin-hopping steps allowed per run", fieldOf(&Options::maxSteps))
      .atLeast(1);
  addBackendOption(t, fieldOf(&Options::backend));
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    const long runs = o.runs, threads = o.threads, maxSteps = o.maxSteps;
    const Backend backend = o.backend;

    BasinHoppingParams base = gminLj38ExampleParams();
    base.steps = maxSteps;
    base.targetEnergy = kLj38GlobalMinimum;

    std::vector<RunOutcome> outcomes(runs);
    std::atomic<long> next{0};
    std::mutex printMutex;
    auto worker = [&] {
      PotentialSpec spec;
      spec.atoms = 38;
      auto potential = makePotential(spec, backend);
      for (long r = next++; r < runs; r = next++) {
        BasinHoppingParams p = base;
        p.seed = static_cast<std::uint64_t>(r + 1);
        const auto t0 = std::chrono::steady_clock::now();
        const BasinHoppingResult res = BasinHopping(*potential, p).run({});
        const double sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        outcomes[r] = {p.seed, res.targetReached, res.targetQuench, res.targetFunctionCalls, sec};
        std::lock_guard<std::mutex> lock(printMutex);
        std::fprintf(stderr, "run %3ld seed %3llu: %s at quench %7ld, %10ld calls, %8.2f s\n", r,
                     static_cast<unsigned long long>(p.seed), res.targetReached ? "hit" : "MISS",
                     res.targetQuench, res.targetFunctionCalls, sec);
      }
    };
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (long t = 0; t < std::min(threads, runs); ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::vector<double> quenches, calls, seconds;
    long misses = 0;
    for (const RunOutcome& o : outcomes) {
      if (!o.hit) {
        ++misses;
        continue;
      }
      quenches.push_back(static_cast<double>(o.quenches));
      calls.push_back(static_cast<double>(o.functionCalls));
      seconds.push_back(o.seconds);
    }
    const Stats q = stats(quenches), c = stats(calls), s = stats(seconds);
    std::printf(
        "LJ38 first encounter of %.6f, GMIN example settings, %s backend, %ld runs "
        "(%ld threads, %.1f s wall), %ld runs missed within %ld steps\n\n",
        kLj38GlobalMinimum, backendName(backend).c_str(), runs, threads, wall, misses, maxSteps);
    std::printf("| quantity | mean | std. dev. | std. error | median |\n|---|---|---|---|---|\n");
    std::printf("| quenches | %.0f | %.0f | %.0f | %.0f |\n", q.mean, q.stddev, q.stderrOfMean,
                q.median);
    std::printf("| energy+gradient calls | %.0f | %.0f | %.0f | %.0f |\n", c.mean, c.stddev,
                c.stderrOfMean, c.median);
    std::printf("| seconds (one core) | %.3f | %.3f | %.3f | %.3f |\n", s.mean, s.stddev,
                s.stderrOfMean, s.median);
    std::printf("| GMIN published quenches | %.0f | %.0f | %.0f | |\n", kGminMeanQuenches,
                kGminStdQuenches, kGminStdQuenches / 10.0);
    std::printf(
        "\nratio of mean quenches to GMIN's: %.2f (difference %.1f combined standard "
        "errors)\n",
        q.mean / kGminMeanQuenches,
        (q.mean - kGminMeanQuenches) / std::sqrt(q.stderrOfMean * q.stderrOfMean +
                                                 kGminStdQuenches * kGminStdQuenches / 100.0));
    return misses == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_lj38_first_encounter: error: %s\n", e.what());
    return 1;
  }
}
