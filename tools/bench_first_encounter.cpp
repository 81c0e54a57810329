// Benchmark (not a test): wall time, quenches and energy+gradient calls to the first encounter of
// the global minimum of LJ38, LJ75, LJ76, LJ77 and LJ98 (Cambridge Cluster Database energies) with
// GMIN's LJ38 example settings (STEP 0.40 0.51, TEMPERATURE 1.0, NEWRESTART 40, AVOID 4.0 20,
// SLOPPYCONV 5e-3, ...), each run from its own random start (seeds 1..N) to its first hit.
//
// Walkers (the default): gmin's walkers against the number of walkers W, with and without BHPT.
// Each run is exactly `gmin --lj N --walkers W [--bhpt] --seed s --target E_gm --max-time S` (with
// gmin's default symmetry moves unless --symmetrise or --gmin-options set them), built through
// gmin's own code (src/GminWalkers), so the CPU rows use
// ParallelLbfgs and the cuda rows the batched GPU engine. Runs that miss within --max-time are
// counted and shown with their best energy; the statistics are over the hits.
//
// --chain: single basin-hopping chains (landscape/search/BasinHopping, what gmin runs without
// walkers), --threads of them at once, each to its first hit within --max-steps; the mean,
// standard deviation, standard error and median of quenches, calls and seconds, and for LJ38
// GMIN's published quenches over 100 random starts (2825 +/- 3093 for the basic input, 738 +/- 703
// with SYMMETRISE, 37 +/- 43 with SYMMETRISECSM; --symmetrise picks the input). Exit status 2 if a
// run missed.
//
// Usage: bench_first_encounter [--sizes 38,75,98] [--walkers 0,1,2,4,...] [--seeds N] [--bhpt both]
//                              [--crowd-limit K]
//                              [--max-time S] [--backend cpu|cuda] [--bhpt-min-temperature T] ...
//        bench_first_encounter --chain [--sizes 38] [--runs N] [--threads T] [--max-steps S]
//                              [--backend cpu|cuda]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "backends/PotentialFactory.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/WalkerEnsemble.h"
#include "src/common/SharedOptions.h"
#include "src/gmin/GminOptions.h"
#include "src/gmin/GminSystem.h"
#include "src/gmin/GminWalkers.h"
#include "tools/BenchStats.h"

namespace {

using namespace landscape;

// Global minima, reduced units (Cambridge Cluster Database).
const std::map<std::size_t, double> kGlobalMinima = {
    {38, -173.928427}, {75, -397.492331}, {76, -402.894866}, {77, -409.083517}, {98, -543.665361}};

/// GMIN's LJ38 first encounter, quenches over 100 random starts (wales-group/examples,
/// LJ38/02_Calculating_MFET, expected_output/*/pdf): mean and standard deviation for the basic
/// input, the SYMMETRISE input and the SYMMETRISECSM input.
struct GminMfet {
  double meanQuenches, stdQuenches;
};
GminMfet gminMfet(const std::string& scheme) {
  if (scheme == "core") return {737.86, 702.99};
  if (scheme == "csm") return {37.32, 43.03};
  return {2824.70, 3092.98};
}

/// gmin's options for the example's input with `scheme`: the basic input is gmin's default for
/// clusters; SYMMETRISE 1 0.02 0.040 0.09 0.1 0.5 18 0.32 2.0 with TEMPERATURE 3.3; SYMMETRISECSM
/// 1 CI 1.0D-6 30 1 50 with TEMPERATURE 3.0 (LJ38/02_Calculating_MFET/input_SYMMETRISE*/data).
std::vector<std::string> schemeArguments(const std::string& scheme) {
  if (scheme == "core")
    return {"--symmetrise", "core", "--temperature", "3.3", "--symmetrise-interval", "1",
            "--symmetrise-orbit-tolerance", "0.02", "--symmetrise-symmetry-tolerance", "0.04",
            "--symmetrise-occupied-tolerance", "0.09", "--symmetrise-merge-tolerance", "0.1",
            "--symmetrise-overlap", "0.5", "--symmetrise-candidates", "18",
            "--symmetrise-centre-decay", "2.0"};
  if (scheme == "csm")
    return {"--symmetrise", "csm", "--temperature", "3.0", "--symmetrise-interval", "1",
            "--csm-group", "CI", "--csm-epsilon", "1e-6", "--csm-steps", "30", "--csm-quenches",
            "1", "--csm-max-iterations", "50"};
  if (scheme == "off") return {"--symmetrise", "off"};
  return {};
}

/// schemeArguments(o.symmetrise), then o.gminOptions split at blanks.
std::vector<std::string> extraArguments(const std::string& scheme, const std::string& more) {
  std::vector<std::string> args = schemeArguments(scheme);
  std::istringstream words(more);
  for (std::string w; words >> w;) args.push_back(w);
  return args;
}

struct Options {
  bool chain = false;
  std::vector<std::size_t> sizes;  ///< empty: 38,75,98 (walkers), 38 (--chain)
  std::vector<std::size_t> walkers = {1, 2, 4, 16, 64, 256, 1024, 4096};
  long seeds = 0;  ///< 0: 10 (walkers), 50 (--chain)
  long firstSeed = 1;  ///< walkers: seeds firstSeed .. firstSeed + seeds - 1
  std::string bhpt = "both";
  int crowdLimit = 0;  ///< gmin --crowd-limit
  std::string symmetrise = "default";  ///< default, off, core or csm: GMIN's example inputs
  std::string gminOptions;         ///< more gmin options, after the scheme's
  double maxTime = 60.0;
  double minTemperature = 0.8, maxTemperature = 2.0;
  long interval = 10;
  long threads = std::max(1u, std::thread::hardware_concurrency());
  long maxSteps = 200000;
  Backend backend = Backend::Cpu;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_first_encounter");
  t.about =
      "usage: bench_first_encounter [--sizes 38,75,98] [--walkers 1,2,4,...] [--seeds N]\n"
      "                             [--bhpt off|on|both] [--max-time S] [--backend cpu|cuda]\n"
      "       bench_first_encounter --chain [--sizes 38] [--runs N] [--threads T] [--max-steps S]\n"
      "Time, quenches and energy+gradient calls to the first encounter of the global minimum\n"
      "(GMIN's LJ38 example settings, seeds 1..N). Walkers: gmin's walkers, median and mean with\n"
      "standard errors per cluster, W and BHPT setting; runs that miss within --max-time are\n"
      "counted. --chain: single basin-hopping chains on --threads threads, mean, standard\n"
      "deviation, standard error and median, compared for LJ38 with GMIN's published 2825 +/-\n"
      "3093 quenches; exit status 2 if any run missed within --max-steps.\n";
  t.helpCommand();
  t.flag("chain", "single basin-hopping chains instead of walkers", fieldOf(&Options::chain));
  t.add("sizes", "LIST", "cluster sizes (38, 75, 76, 77, 98)", fieldOf(&Options::sizes))
      .atLeast(38)
      .defaultText("38,75,98; 38 with --chain");
  t.add("seeds", "N", "runs per row (seeds 1..N)", fieldOf(&Options::seeds))
      .atLeast(1)
      .alias("runs")
      .defaultText("10; 50 with --chain");
  addBackendOption(t, fieldOf(&Options::backend));
  t.add("symmetrise", "",
        "default: gmin's defaults (GMIN's basic LJ38 example input; Lennard-Jones walkers on the "
        "GPU under 50 atoms add SYMMETRISECSM every 10 quenches); off: the basic input with no symmetry moves; "
        "core: the example's SYMMETRISE input; csm: its SYMMETRISECSM input (each with the "
        "example's temperature)",
        fieldOf(&Options::symmetrise))
      .choices(std::vector<std::string>{"default", "off", "core", "csm"});
  t.add("gmin-options", "TEXT",
        "more gmin options for every run, after --symmetrise's (e.g. \"--symmetrise csm "
        "--symmetrise-interval 5\" for gmin's defaults with SYMMETRISECSM every 5 quenches)",
        fieldOf(&Options::gminOptions));
  t.section("walkers (without --chain)");
  t.add("first-seed", "S", "the first seed (a long table in several calls)",
        fieldOf(&Options::firstSeed))
      .atLeast(1);
  t.add("walkers", "LIST", "walker counts W (0: gmin's default for the cluster)",
        fieldOf(&Options::walkers))
      .atLeast(0);
  t.add("crowd-limit", "K", "gmin --crowd-limit K (0: off)", fieldOf(&Options::crowdLimit))
      .atLeast(0);
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
  t.section("with --chain");
  t.add("threads", "T", "chains run at once", fieldOf(&Options::threads))
      .atLeast(1)
      .defaultText("the hardware concurrency");
  t.add("max-steps", "S", "basin-hopping steps allowed per run", fieldOf(&Options::maxSteps))
      .atLeast(1);
  return t;
}

// Stops a run at its wall-clock limit.
class Deadline : public WalkerObserver {
 public:
  explicit Deadline(double seconds) : m_seconds(seconds) {}
  bool wantsWalkerReports() const override { return false; }  // as gmin without --verbose
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

// W = 0: gmin's default, which the plan decides (stored in defaultWalkers for the table).
Outcome runOnce(const Options& o, std::size_t atoms, std::size_t walkers, bool bhpt, long seed,
                int& defaultWalkers) {
  std::vector<std::string> args = {"--lj",
                                   std::to_string(atoms),
                                   "--walkers",
                                   std::to_string(walkers),
                                   "--seed",
                                   std::to_string(seed),
                                   "--backend",
                                   backendName(o.backend),
                                   "--dump-interval",
                                   "0",
                                   "--steps",
                                   "100000000",
                                   "--target",
                                   std::to_string(kGlobalMinima.at(atoms)),
                                   "--crowd-limit",
                                   std::to_string(o.crowdLimit)};
  for (const std::string& a : extraArguments(o.symmetrise, o.gminOptions)) args.push_back(a);
  if (bhpt)
    for (const std::string& a :
         {std::string("--bhpt"), std::string("--bhpt-min-temperature"),
          std::to_string(o.minTemperature), std::string("--bhpt-max-temperature"),
          std::to_string(o.maxTemperature), std::string("--bhpt-interval"),
          std::to_string(o.interval)})
      args.push_back(a);
  GminConfig config = parseGminCommandLine(args);
  GminSystem system = loadGminSystem(config);
  const GminWalkerPlan plan = planGminWalkers(config, system, 0, {}, {}, true);
  useDefaultSymmetrisation(config, plan, nullptr);  // as gmin: SYMMETRISECSM on GPU walkers
  const std::unique_ptr<Potential> host = walkerHostPotential(plan, system);
  WalkerEnsemble search(host ? *host : system.searched(), config.basinHopping, plan.walkers,
                        config.tempering, walkerMinimiserMaker(plan, config, system), system.hooks);
  Deadline deadline(o.maxTime);
  const WalkerEnsembleResult r = search.run({}, &deadline);
  defaultWalkers = plan.walkers;
  return {r.targetWalker >= 0, deadline.elapsed(), static_cast<double>(r.targetRoundQuenches),
          static_cast<double>(r.total.targetFunctionCalls),
          r.total.lowest.empty() ? 0.0 : r.total.lowest.front().energy};
}

void printRow(std::size_t atoms, const std::string& walkers, bool bhpt,
              const std::vector<Outcome>& runs) {
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
      "| LJ%zu | %s | %s | %zu/%zu | %.3f | %.3f +/- %.3f | %.0f | %.0f +/- %.0f | %.3g | %.3g "
      "+/- %.2g |",
      atoms, walkers.c_str(), bhpt ? "on" : "off", t.size(), runs.size(), st.median, st.mean,
      st.stderrOfMean, sq.median, sq.mean, sq.stderrOfMean, sc.median, sc.mean, sc.stderrOfMean);
  if (misses > 0)
    std::printf(" %ld missed, best %.6f |\n", misses, bestMiss);
  else
    std::printf(" |\n");
  std::fflush(stdout);
}

/// --chain: single basin-hopping chains of one cluster, o.threads at once; the table against
/// GMIN's published LJ38 figures. True when every run hit.
bool runChains(const Options& o, std::size_t atoms) {
  const double globalMinimum = kGlobalMinima.at(atoms);
  std::vector<std::string> args = {"--lj", std::to_string(atoms)};
  for (const std::string& a : extraArguments(o.symmetrise, o.gminOptions)) args.push_back(a);
  BasinHoppingParams base = parseGminCommandLine(args).basinHopping;
  base.steps = o.maxSteps;
  base.targetEnergy = globalMinimum;

  struct RunOutcome {
    bool hit;
    long quenches, functionCalls;
    double seconds;
  };
  std::vector<RunOutcome> outcomes(o.seeds);
  std::atomic<long> next{0};
  std::mutex printMutex;
  auto worker = [&] {
    PotentialSpec spec;
    spec.atoms = atoms;
    auto potential = makePotential(spec, o.backend);
    for (long r = next++; r < o.seeds; r = next++) {
      BasinHoppingParams p = base;
      p.seed = static_cast<std::uint64_t>(r + 1);
      const auto t0 = std::chrono::steady_clock::now();
      const BasinHoppingResult res = BasinHopping(*potential, p).run({});
      const double sec =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      outcomes[r] = {res.targetReached, res.targetQuench, res.targetFunctionCalls, sec};
      std::lock_guard<std::mutex> lock(printMutex);
      std::fprintf(stderr, "LJ%zu run %3ld seed %3llu: %s at quench %7ld, %10ld calls, %8.2f s\n",
                   atoms, r, static_cast<unsigned long long>(p.seed),
                   res.targetReached ? "hit" : "MISS", res.targetQuench, res.targetFunctionCalls,
                   sec);
    }
  };
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (long t = 0; t < std::min(o.threads, o.seeds); ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::vector<double> quenches, calls, seconds;
  long misses = 0;
  for (const RunOutcome& r : outcomes) {
    if (!r.hit) {
      ++misses;
      continue;
    }
    quenches.push_back(static_cast<double>(r.quenches));
    calls.push_back(static_cast<double>(r.functionCalls));
    seconds.push_back(r.seconds);
  }
  const Stats q = stats(quenches), c = stats(calls), s = stats(seconds);
  std::printf(
      "LJ%zu first encounter of %.6f, GMIN example settings (symmetrise %s), %s backend, %ld "
      "runs (%ld threads, %.1f s wall), %ld runs missed within %ld steps\n\n",
      atoms, globalMinimum, o.symmetrise.c_str(), backendName(o.backend).c_str(), o.seeds,
      o.threads, wall, misses, o.maxSteps);
  std::printf("| quantity | mean | std. dev. | std. error | median |\n|---|---|---|---|---|\n");
  std::printf("| quenches | %.0f | %.0f | %.0f | %.0f |\n", q.mean, q.stddev, q.stderrOfMean,
              q.median);
  std::printf("| energy+gradient calls | %.0f | %.0f | %.0f | %.0f |\n", c.mean, c.stddev,
              c.stderrOfMean, c.median);
  std::printf("| seconds (one core) | %.3f | %.3f | %.3f | %.3f |\n", s.mean, s.stddev,
              s.stderrOfMean, s.median);
  if (atoms == 38) {
    const GminMfet g = gminMfet(o.symmetrise);
    std::printf("| GMIN published quenches | %.0f | %.0f | %.0f | |\n", g.meanQuenches,
                g.stdQuenches, g.stdQuenches / 10.0);
    std::printf(
        "\nratio of mean quenches to GMIN's: %.2f (difference %.1f combined standard "
        "errors)\n",
        q.mean / g.meanQuenches,
        (q.mean - g.meanQuenches) /
            std::sqrt(q.stderrOfMean * q.stderrOfMean + g.stdQuenches * g.stdQuenches / 100.0));
  }
  std::fflush(stdout);
  return misses == 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    if (o.sizes.empty())
      o.sizes = o.chain ? std::vector<std::size_t>{38} : std::vector<std::size_t>{38, 75, 98};
    if (o.seeds == 0) o.seeds = o.chain ? 50 : 10;
    for (std::size_t atoms : o.sizes)
      if (!kGlobalMinima.count(atoms))
        throw std::runtime_error("--sizes: no known global minimum for LJ" + std::to_string(atoms) +
                                 " (38, 75, 76, 77 or 98)");
    if (o.chain) {
      bool allHit = true;
      for (std::size_t i = 0; i < o.sizes.size(); ++i) {
        if (i > 0) std::printf("\n");
        allHit = runChains(o, o.sizes[i]) && allHit;
      }
      return allHit ? 0 : 2;
    }
    std::vector<bool> modes;
    if (o.bhpt != "on") modes.push_back(false);
    if (o.bhpt != "off") modes.push_back(true);
    std::printf(
        "first encounter of the global minimum, GMIN LJ38 example settings (symmetrise %s; gmin "
        "options '%s'), %s backend, seeds %ld..%ld, at most %.0f s per run; BHPT kT %.3g..%.3g "
        "every %ld steps; crowd limit %d\n\n",
        o.symmetrise.c_str(), o.gminOptions.c_str(), backendName(o.backend).c_str(), o.firstSeed,
        o.firstSeed + o.seeds - 1, o.maxTime, o.minTemperature, o.maxTemperature, o.interval, o.crowdLimit);
    std::printf(
        "| cluster | W | BHPT | hits | median s | mean s +/- s.e. | median quenches | mean "
        "quenches +/- s.e. | median calls | mean calls +/- s.e. | misses |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t atoms : o.sizes)
      for (std::size_t walkers : o.walkers)
        for (bool bhpt : modes) {
          std::vector<Outcome> runs;
          int planned = 0;
          for (long seed = o.firstSeed; seed < o.firstSeed + o.seeds; ++seed) {
            runs.push_back(runOnce(o, atoms, walkers, bhpt, seed, planned));
            std::fprintf(stderr, "LJ%zu W %zu bhpt %d seed %ld: %s %.3f s, best %.6f\n", atoms,
                         walkers, bhpt ? 1 : 0, seed, runs.back().hit ? "hit" : "miss",
                         runs.back().seconds, runs.back().best);
          }
          printRow(atoms,
                   walkers == 0 ? std::to_string(planned) + " (default)" : std::to_string(walkers),
                   bhpt, runs);
        }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_first_encounter: error: %s\n", e.what());
    return 1;
  }
}
