// Benchmark (not a test): quenches per second of gmin's walkers on a molecule,
// AMBER-GB trp-cage with gmin's default quench arithmetic (or, with --water N, a cluster of N rigid
// TIP4P molecules from random starts: `gmin --water tip4p --molecules N`; with --ellipsoids N, N
// Gay-Berne ellipsoids from gmin's lattice start: `gmin --ellipsoids N`), against the number of
// walkers W, on the CPU (ParallelLbfgs over a copy of the potential per core) and on the GPU (the
// round-based batched L-BFGS over the batched AMBER-GB, gpu/BatchedLbfgsRoundsCuda). Each row is
// exactly `gmin --prmtop P --inpcrd I --backend B --walkers W --steps S` with gmin's AMBER defaults
// (side-chain rotations, chirality and cis/trans checks), built through gmin's own code
// (src/gmin/GminWalkers). The rate counts the quenches of the steps after the first (all walkers
// wait for the round's slowest quench, as in a real run) over their wall time; quench 0 (every
// walker from the same start) and the final tight re-quench are left out. After the table, each
// row's walker step by phase (WalkerEnsemble's WalkerPhaseSeconds, every round): the quench call
// against the host's work around it (proposals, the quenches' tests, the completions, the rest).
//
// Usage: bench_molecule_walkers [--prmtop F --inpcrd F | --water N [--water-model ssd] |
// --ellipsoids N]
//                               [--walkers 1,8,32,128,512]
//                               [--backends cpu,cuda] [--steps S] [--cpu-seconds T]
//                               [--cpu-steps S] [--cpu-repeats K] [--pack F]
// One core against the GPU (rigid water's 500x): --water 20 --walkers 1,16896 --backends cpu,cuda
// --steps 200 --cpu-steps 2000 --cpu-repeats 3 (the W = 16896 CPU row is skipped by --cpu-seconds,
// so the GPU row's ratio is to the CPU's best, one walker on one core).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/search/WalkerEnsemble.h"
#include "src/gmin/GminSystem.h"
#include "src/gmin/GminWalkers.h"
#include "src/common/OptionTable.h"
#include "src/gmin/GminOptions.h"

namespace {

using namespace landscape;

struct Options {
  std::string prmtop = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb/trpcage/prmtop";
  std::string inpcrd = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb/trpcage/inpcrd";
  std::string precision = "mixed";  ///< gmin --quench-precision
  std::vector<std::size_t> walkers = {1, 8, 32, 128, 512};
  std::vector<std::string> backends = {"cpu", "cuda"};
  long steps = 4;
  double cpuSeconds = 300.0;
  long seed = 1;
  long water = 0;                    ///< > 0: rigid water molecules instead of the AMBER molecule
  std::string waterModel = "tip4p";  ///< gmin --water's model: tip4p or ssd
  long ellipsoids = 0;  ///< > 0: Gay-Berne ellipsoids instead of the AMBER molecule
  long pack = 4;        ///< gmin --walker-pack
  long cpuSteps = 0;    ///< steps of the CPU rows; 0: --steps
  long cpuRepeats = 1;  ///< runs of each CPU row, the fastest kept
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_molecule_walkers");
  t.about =
      "usage: bench_molecule_walkers [--prmtop F --inpcrd F] [--walkers 1,8,32,128,512]\n"
      "                              [--backends cpu,cuda] [--steps S] [--cpu-seconds T]\n"
      "                              [--cpu-steps S] [--cpu-repeats K] [--pack F]\n"
      "Quenches per second of gmin's walkers on an AMBER-GB molecule (default trp-cage)\n"
      "against W on the CPU and the GPU, with the ratio to W = 1 and to the CPU.\n";
  t.helpCommand();
  t.add("prmtop", "FILE", "AMBER topology", fieldOf(&Options::prmtop));
  t.add("inpcrd", "FILE", "start coordinates (every walker's quench 0)",
        fieldOf(&Options::inpcrd));
  t.add("precision", "P",
        "arithmetic of the walkers' quenches on the GPU (gmin --quench-precision: mixed, "
        "gmin's default, or double)",
        fieldOf(&Options::precision));
  t.add("walkers", "LIST", "walker counts W", fieldOf(&Options::walkers)).atLeast(1);
  t.add("backends", "LIST", "cpu, cuda or both (the CPU first, for the ratio)",
        fieldOf(&Options::backends));
  t.add("steps", "S", "basin-hopping steps per walker; the rate is over steps 2..S",
        fieldOf(&Options::steps))
      .atLeast(2);
  t.add("cpu-seconds", "T",
        "skip a CPU row whose time, predicted from the last CPU row, exceeds T",
        fieldOf(&Options::cpuSeconds))
      .unit("seconds")
      .positive();
  t.add("seed", "N", "random seed of the runs", fieldOf(&Options::seed)).atLeast(1);
  t.add("water", "N",
        "a cluster of N rigid water molecules (gmin --water MODEL, random starts) instead of "
        "--prmtop; 0 = the AMBER molecule",
        fieldOf(&Options::water))
      .atLeast(0);
  t.add("water-model", "MODEL",
        "the water of --water: tip4p (kJ/mol) or ssd (soft-sticky dipoles, kcal/mol)",
        fieldOf(&Options::waterModel))
      .choices(std::vector<std::string>{"tip4p", "ssd"});
  t.add("ellipsoids", "N",
        "a cluster of N Gay-Berne ellipsoids (gmin --ellipsoids, Gay and Berne's 1981 set, "
        "reduced units) instead of --prmtop; 0 = the AMBER molecule",
        fieldOf(&Options::ellipsoids))
      .atLeast(0);
  t.add("cpu-steps", "S",
        "steps of the CPU rows (0: --steps): one core's 200 steps of (H2O)20 last about half a "
        "second, too short for a steady rate on a shared host",
        fieldOf(&Options::cpuSteps))
      .atLeast(0);
  t.add("cpu-repeats", "K",
        "runs of each CPU row, the fastest kept (a loaded host only slows a run down), so that "
        "the GPU's ratio is to the core at its best",
        fieldOf(&Options::cpuRepeats))
      .atLeast(1);
  t.add("pack", "F",
        "gmin --walker-pack: the GPU engine packs a quench's tail into fewer rows once at most 1/F "
        "of the walkers are still quenching; 0 = never",
        fieldOf(&Options::pack))
      .atLeast(0);
  return t;
}

// Times the rounds after the first: wall time and quenches from the end of round 1 on.
class RoundClock : public WalkerObserver {
 public:
  bool wantsWalkerReports() const override { return false; }  // as gmin without --verbose
  void onRound(const WalkerRoundReport& r) override {
    const auto now = std::chrono::steady_clock::now();
    if (r.round == 1) {
      m_start = now;
      m_firstQuenches = r.quenches;
      m_firstCalls = r.functionCalls;
    } else {
      seconds = std::chrono::duration<double>(now - m_start).count();
      quenches = r.quenches - m_firstQuenches;
      calls = r.functionCalls - m_firstCalls;
    }
  }
  double seconds = 0.0;
  long quenches = 0, calls = 0;

 private:
  std::chrono::steady_clock::time_point m_start;
  long m_firstQuenches = 0, m_firstCalls = 0;
};

struct Row {
  double seconds, rate, callsPerQuench;
  long quenches;
  int threads;
  std::string engine;
  WalkerPhaseSeconds phases;  // of every round
};

Row runOnce(const Options& o, const std::string& backend, std::size_t walkers) {
  std::vector<std::string> molecule = {"--prmtop",           o.prmtop,   "--inpcrd", o.inpcrd,
                                       "--quench-precision", o.precision};
  if (o.water > 0) molecule = {"--water", o.waterModel, "--molecules", std::to_string(o.water)};
  if (o.ellipsoids > 0) molecule = {"--ellipsoids", std::to_string(o.ellipsoids)};
  std::vector<std::string> arguments = {
      "--backend", backend, "--walkers", std::to_string(walkers), "--steps",
      std::to_string(o.steps), "--seed", std::to_string(o.seed), "--dump-interval", "0",
      "--quiet",
      // the final tight re-quench is not timed: one iteration keeps it short
      "--tight-max-iterations", "1", "--walker-pack", std::to_string(o.pack)};
  arguments.insert(arguments.begin(), molecule.begin(), molecule.end());
  const GminConfig config = parseGminCommandLine(arguments);
  GminSystem system = loadGminSystem(config);
  addMolecularMoves(config, system);
  const GminWalkerPlan plan = planGminWalkers(config, system, 0, {}, {}, true);
  const std::unique_ptr<Potential> host = walkerHostPotential(plan, system);
  WalkerEnsemble search(host ? *host : system.searched(), config.basinHopping, plan.walkers,
                        config.tempering, walkerMinimiserMaker(plan, config, system),
                        system.hooks);
  RoundClock clock;
  search.run(system.start, &clock);
  return {clock.seconds,
          clock.seconds > 0 ? clock.quenches / clock.seconds : 0.0,
          clock.quenches > 0 ? static_cast<double>(clock.calls) / clock.quenches : 0.0,
          clock.quenches,
          plan.threads,
          walkerQuenchDescription(plan, config),
          search.phaseSeconds()};
}

// A row's walker step by phase: milliseconds per round and the host's share (everything but the
// quench call).
std::string phaseLine(const std::string& backend, std::size_t walkers,
                      const WalkerPhaseSeconds& p) {
  const double n = p.rounds > 0 ? static_cast<double>(p.rounds) : 1.0;
  const double host = p.atomEnergies + p.propose + p.prepare + p.complete + p.finish;
  const double all = host + p.quench;
  char line[400];
  std::snprintf(line, sizeof line,
                "| %s | %zu | %ld | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f%% | %.2f |\n",
                backend.c_str(), walkers, p.rounds, 1e3 * p.quench / n, 1e3 * p.atomEnergies / n,
                1e3 * p.propose / n, 1e3 * p.prepare / n, 1e3 * p.complete / n, 1e3 * p.finish / n,
                all > 0.0 ? 100.0 * host / all : 0.0,
                walkers > 0 ? 1e6 * host / n / static_cast<double>(walkers) : 0.0);
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    if (o.water > 0)
      std::printf(
          "walker quenches per second, (H2O)%ld rigid %s from random starts, steps "
          "2..%ld of each walker, seed %ld\n",
          o.water, o.waterModel == "ssd" ? "SSD" : "TIP4P", o.steps, o.seed);
    else if (o.ellipsoids > 0)
      std::printf("walker quenches per second, %ld Gay-Berne ellipsoids from gmin's lattice start, "
                  "steps 2..%ld of each walker, seed %ld\n",
                  o.ellipsoids, o.steps, o.seed);
    else
      std::printf(
          "walker quenches per second, %s (GB %s), steps 2..%ld of each walker, seed %ld\n",
          o.prmtop.c_str(), o.precision.c_str(), o.steps, o.seed);
    if (o.cpuSteps > 0 || o.cpuRepeats > 1)
      std::printf("CPU rows: steps 2..%ld, the fastest of %ld runs\n",
                  o.cpuSteps > 0 ? o.cpuSteps : o.steps, o.cpuRepeats);
    std::printf("device: %s\n\n", gpuDescription().c_str());
    std::printf(
        "| backend | W | CPU threads | quenches | seconds | quenches/s | calls/quench | vs W = 1 "
        "| vs CPU |\n|---|---|---|---|---|---|---|---|---|\n");
    std::map<std::size_t, double> cpuRate;  // by W, for the GPU rows' ratio
    double cpuBest = 0.0;
    std::vector<std::string> engines;
    std::string phases;  // the rows' steps by phase, printed after the table
    for (const std::string& backend : o.backends) {
      if (backend != "cpu" && backend != "cuda")
        throw std::runtime_error("--backends: 'cpu' or 'cuda', not '" + backend + "'");
      if (backend == "cuda" && !gpuAvailable()) {
        std::printf("| cuda | - | - | - | - | skipped: %s | | | |\n", gpuDescription().c_str());
        continue;
      }
      double first = 0.0, lastRate = 0.0;
      for (std::size_t w : o.walkers) {
        const long rowSteps = backend == "cpu" && o.cpuSteps > 0 ? o.cpuSteps : o.steps;
        const long runs = backend == "cpu" ? o.cpuRepeats : 1;
        const double predicted =
            lastRate > 0.0 ? static_cast<double>(w * (rowSteps - 1) * runs) / lastRate : 0.0;
        if (backend == "cpu" && predicted > o.cpuSeconds) {
          std::printf("| cpu | %zu | | | | skipped (predicted %.0f s > --cpu-seconds) | | | |\n", w,
                      predicted);
          continue;
        }
        Row r{};
        if (backend == "cpu") {
          Options cpu = o;
          if (o.cpuSteps > 0) cpu.steps = o.cpuSteps;
          for (long k = 0; k < o.cpuRepeats; ++k) {
            const Row run = runOnce(cpu, backend, w);
            if (k == 0 || run.rate > r.rate) r = run;
          }
        } else {
          r = runOnce(o, backend, w);
        }
        std::fprintf(stderr, "%s W %zu: %.3f s, %ld quenches\n", backend.c_str(), w, r.seconds,
                     r.quenches);
        if (std::find(engines.begin(), engines.end(), r.engine) == engines.end())
          engines.push_back(r.engine);
        if (first == 0.0) first = r.rate;
        lastRate = r.rate;
        if (backend == "cpu") {
          cpuRate[w] = r.rate;
          cpuBest = std::max(cpuBest, r.rate);
        }
        std::string vsCpu = "";
        char text[64];
        if (backend == "cuda" && cpuRate.count(w)) {
          std::snprintf(text, sizeof text, "%.2f (same W)", r.rate / cpuRate[w]);
          vsCpu = text;
        } else if (backend == "cuda" && cpuBest > 0.0) {
          std::snprintf(text, sizeof text, "%.2f (CPU's best)", r.rate / cpuBest);
          vsCpu = text;
        }
        phases += phaseLine(backend, w, r.phases);
        std::printf("| %s | %zu | %d | %ld | %.3f | %.3g | %.0f | %.2f | %s |\n", backend.c_str(),
                    w, r.threads, r.quenches, r.seconds, r.rate, r.callsPerQuench,
                    first > 0.0 ? r.rate / first : 0.0, vsCpu.c_str());
        std::fflush(stdout);
      }
    }
    std::printf(
        "\nA walker step by phase (ms per round, all rounds; host: all but the quench call; "
        "WalkerPhaseSeconds):\n\n| backend | W | rounds | quench | atom energies | propose | "
        "prepare | complete | finish | host share | host us per walker |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n%s\n",
        phases.c_str());
    for (const std::string& e : engines) std::printf("engine: %s\n", e.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_molecule_walkers: error: %s\n", e.what());
    return 1;
  }
}
