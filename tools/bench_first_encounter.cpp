// Benchmark (not a test): wall time, quenches and energy+gradient calls to the first encounter of
// the global minimum of LJ38, LJ75 and LJ98 (Cambridge Cluster Database energies) by gmin's walkers
// (issue 18), against the number of walkers W, with and without BHPT, over several seeds. Each run
// is exactly `gmin --lj N --walkers W [--bhpt] --seed s --target E_gm --max-time S` with GMIN's
// LJ38 example settings (no symmetry moves), built through gmin's own code (src/gmin/GminWalkers), so
// the CPU rows use ParallelLbfgs and the cuda rows the batched GPU engine. Runs that miss within
// --max-time are counted and shown with their best energy; the statistics are over the hits.
//
// Usage: bench_first_encounter [--sizes 38,75,98] [--walkers 1,2,4,...] [--seeds N] [--bhpt both]
//                              [--max-time S] [--backend cpu|cuda] [--bhpt-min-temperature T] ...
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "landscape/search/WalkerEnsemble.h"
#include "src/gmin/GminSystem.h"
#include "src/gmin/GminWalkers.h"
#include "src/gmin/GminOptions.h"
#include "src/common/SharedOptions.h"
#include "tools/BenchStats.h"

namespace {

using namespace landscape;

// Global minima, reduced units (Cambridge Cluster Database).
const std::map<std::size_t, double> kGlobalMinima = {
    {38, -173.928427}, {75, -397.492331}, {98, -543.665361}};

struct Options {
  std::vector<std::size_t> sizes = {38, 75, 98};
  std::vector<std::size_t> walkers = {1, 2, 4, 16, 64, 256, 1024, 4096};
  long seeds = 10;
  std::string bhpt = "both";
  double maxTime = 60.0;
  double minTemperature = 0.8, maxTemperature = 2.0;
  long interval = 10;
  Backend backend = Backend::Cpu;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_first_encounter");
  t.about =
      "usage: bench_first_encounter [--sizes 38,75,98] [--walkers 1,2,4,...] [--seeds N]\n"
      "                             [--bhpt off|on|both] [--max-time S] [--backend cpu|cuda]\n"
      "Time, quenches and energy+gradient calls of gmin's walkers to the first encounter of the\n"
      "global minimum (GMIN's LJ38 example settings, seeds 1..N), median and mean with standard\n"
      "errors per cluster, W and BHPT setting; runs that miss within --max-time are counted.\n";
  t.helpCommand();
  t.add("sizes", "LIST", "cluster sizes (38, 75, 98)", fieldOf(&Options::sizes)).atLeast(38);
  t.add("walkers", "LIST", "walker counts W", fieldOf(&Options::walkers)).atLeast(1);
  t.add("seeds", "N", "runs per row (seeds 1..N)", fieldOf(&Options::seeds)).atLeast(1);
  t.add("bhpt", "off|on|both", "rows without and/or with parallel tempering",
        fieldOf(&Options::bhpt));
  t.add("max-time", "S", "wall-clock limit per run", fieldOf(&Options::maxTime))
      .unit("seconds")
      .positive();
  t.add("bhpt-min-temperature", "KT", "BHPT coldest replica", fieldOf(&Options::minTemperature))
      .positive();
  t.add("bhpt-max-temperature", "KT", "BHPT hottest replica", fieldOf(&Options::maxTemperature))
      .positive();
  t.add("bhpt-interval", "N", "BHPT exchange interval", fieldOf(&Options::interval)).atLeast(1);
  addBackendOption(t, fieldOf(&Options::backend));
  return t;
}

// Stops a run at its wall-clock limit.
class Deadline : public WalkerObserver {
 public:
  explicit Deadline(double seconds) : m_seconds(seconds) {}
  bool stopRequested() override { return elapsed() >= m_seconds; }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  }

 private:
  double m_seconds;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

struct Outcome {
  bool hit;
  double seconds, quenches, calls, best;
};

Outcome runOnce(const Options& o, std::size_t atoms, std::size_t walkers, bool bhpt, long seed) {
  std::vector<std::string> args = {"--lj", std::to_string(atoms), "--walkers",
                                   std::to_string(walkers), "--seed", std::to_string(seed),
                                   "--backend", backendName(o.backend), "--dump-interval", "0",
                                   "--steps", "100000000", "--target",
                                   std::to_string(kGlobalMinima.at(atoms))};
  if (bhpt)
    for (const std::string& a :
         {std::string("--bhpt"), std::string("--bhpt-min-temperature"),
          std::to_string(o.minTemperature), std::string("--bhpt-max-temperature"),
          std::to_string(o.maxTemperature), std::string("--bhpt-interval"),
          std::to_string(o.interval)})
      args.push_back(a);
  const GminConfig config = parseGminCommandLine(args);
  GminSystem system = loadGminSystem(config);
  const std::unique_ptr<Potential> host = walkerHostPotential(config, system);
  const int w = static_cast<int>(walkers);
  WalkerEnsemble search(host ? *host : system.searched(), config.basinHopping, w,
                        config.tempering, walkerMinimiserMaker(config, system, w), system.hooks);
  Deadline deadline(o.maxTime);
  const WalkerEnsembleResult r = search.run({}, &deadline);
  return {r.targetWalker >= 0, deadline.elapsed(), static_cast<double>(r.targetRoundQuenches),
          static_cast<double>(r.total.targetFunctionCalls),
          r.total.lowest.empty() ? 0.0 : r.total.lowest.front().energy};
}

void printRow(std::size_t atoms, std::size_t walkers, bool bhpt, const std::vector<Outcome>& runs) {
  std::vector<double> t, q, c;
  double bestMiss = 0.0;
  long misses = 0;
  for (const Outcome& r : runs) {
    if (!r.hit) {
      ++misses;
      bestMiss = std::min(bestMiss, r.best);
      continue;
    }
    t.push_back(r.seconds);
    q.push_back(r.quenches);
    c.push_back(r.calls);
  }
  const Stats st = stats(t), sq = stats(q), sc = stats(c);
  std::printf(
      "| LJ%zu | %zu | %s | %zu/%zu | %.3f | %.3f +/- %.3f | %.0f | %.0f +/- %.0f | %.3g | %.3g "
      "+/- %.2g |",
      atoms, walkers, bhpt ? "on" : "off", t.size(), runs.size(), st.median, st.mean,
      st.stderrOfMean, sq.median, sq.mean, sq.stderrOfMean, sc.median, sc.mean, sc.stderrOfMean);
  if (misses > 0)
    std::printf(" %ld missed, best %.6f |\n", misses, bestMiss);
  else
    std::printf(" |\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    std::vector<bool> modes;
    if (o.bhpt != "on") modes.push_back(false);
    if (o.bhpt != "off") modes.push_back(true);
    std::printf(
        "first encounter of the global minimum, GMIN LJ38 example settings, %s backend, seeds "
        "1..%ld, at most %.0f s per run; BHPT kT %.3g..%.3g every %ld steps\n\n",
        backendName(o.backend).c_str(), o.seeds, o.maxTime, o.minTemperature, o.maxTemperature,
        o.interval);
    std::printf(
        "| cluster | W | BHPT | hits | median s | mean s +/- s.e. | median quenches | mean "
        "quenches +/- s.e. | median calls | mean calls +/- s.e. | misses |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t atoms : o.sizes) {
      if (!kGlobalMinima.count(atoms))
        throw std::runtime_error("--sizes: no known global minimum for LJ" +
                                 std::to_string(atoms) + " (38, 75 or 98)");
      for (std::size_t walkers : o.walkers)
        for (bool bhpt : modes) {
          std::vector<Outcome> runs;
          for (long seed = 1; seed <= o.seeds; ++seed) {
            runs.push_back(runOnce(o, atoms, walkers, bhpt, seed));
            std::fprintf(stderr, "LJ%zu W %zu bhpt %d seed %ld: %s %.3f s, best %.6f\n", atoms,
                         walkers, bhpt ? 1 : 0, seed, runs.back().hit ? "hit" : "miss",
                         runs.back().seconds, runs.back().best);
          }
          printRow(atoms, walkers, bhpt, runs);
        }
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_first_encounter: error: %s\n", e.what());
    return 1;
  }
}
