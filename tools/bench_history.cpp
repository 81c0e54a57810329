// bench_history: the history-size benchmark (Tables 1-4) of Mantell, Pitt and Wales, J. Chem.
// Theory Comput. 2016 for your own system.
// K starting structures are each minimised for every history size m and every implementation. For
// molecules the starts come from high-temperature overdamped Langevin runs from the input structure
// (landscape/Langevin, seed S + k for start k, --langevin-steps steps of 1 fs at --langevin-kt, on
// the GPU when one is used); for Lennard-Jones (or with --langevin-steps 0) from uniform random
// displacements of up to --perturb per coordinate of a quenched random cluster. Implementations:
//   gpu1      = the whole L-BFGS on the GPU (--lbfgs-backend gpu, CUDA potential),
//   gpu2      = L-BFGS on the CPU with the CUDA potential,
//   gpu-batch = the batched GPU team kernel (gpu/BatchedLbfgsCuda: all K starts in one kernel
//               launch; Lennard-Jones only, and only where a structure's L-BFGS fits in shared
//               memory; skipped with a note otherwise),
//   gpu-rounds = the round-based batched GPU engine (gpu/BatchedLbfgsRoundsCuda) over the batched
//               CUDA potential (molecules: gpu/BatchedAmberGbCuda): all K starts at once, the whole
//               L-BFGS iteration on the device; with K = 1 the host-free single minimisation,
//   cpu       = everything on the CPU, the K starts spread over --threads threads.
// Every implementation minimises the K starts as one batch through a BatchedMinimiser:
// cpu, gpu1 and gpu2 through ParallelLbfgs, whose every start is the single-structure Lbfgs bit
// for bit (cpu: one potential per thread; gpu1/gpu2: the one CUDA potential, starts in turn).
// A row's time is the batch's wall time / K: the time per minimisation at --threads 1 (seed
// 001's tables), the throughput per start with more threads or gpu-batch.
// Paper settings by default: max step 0.4, max rise 1e-4, RMS gradient 1e-5 (kcal/mol and Angstrom
// for molecules; reduced units for Lennard-Jones). Writes PREFIX.md, PREFIX.csv and, when Python's
// matplotlib is available, PREFIX.png (python3 -m landscape.plots history). Progress goes to
// stderr.
//
// Usage: bench_history --lj N [--starts K] [--m 4,10,...] [--impl gpu1,gpu2,cpu] [--seed S]
//                      [--perturb DX] [--max-iterations N] [--threads T] [--out PREFIX]
//        bench_history --prmtop F --inpcrd F [...] [--langevin-steps N] [--langevin-kt KT]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "backends/LangevinFactory.h"
#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/ParallelLbfgs.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "src/common/SharedOptions.h"
#include "tools/PythonPlot.h"

namespace {

using namespace landscape;

struct Options {
  std::size_t ljAtoms = 0;
  std::string prmtop, inpcrd;  // AMBER-GB system (igb 2, 0.2 M salt, rgbmax 12: the paper's)
  int starts = 10;
  std::vector<int> historySizes = {4, 10, 50, 75, 100, 250, 500, 750, 1000};
  std::vector<std::string> implementations = {"gpu1", "gpu2", "cpu"};
  int threads = 1;  // CPU threads of the cpu rows
  std::uint64_t seed = 1;
  double perturb = -1.0;    // default: 0.3 sigma for LJ, 0.1 Angstrom for AMBER
  long langevinSteps = -1;  // default: 2000 for AMBER, 0 (perturbation) for LJ
  double langevinKt = 1.2;  // kcal/mol (about 600 K)
  int maxIterations = 100000;
  int roundsCompact = 0;  // BatchedRoundsOptions::compactFromHistory of the gpu-rounds rows
  int repeats = 3;        // timings of each cell's batch (the mean and its spread)
  std::string out = "bench_history";
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_history");
  t.about =
      "usage: bench_history --lj N | --prmtop F --inpcrd F [--starts K] [--m 4,10,...] "
      "[--impl gpu1,gpu2,gpu-batch,cpu] [--seed S] [--perturb DX] [--max-iterations N] "
      "[--threads T] [--rounds-compact K] [--repeats R] [--out PREFIX] "
      "[--langevin-steps N] [--langevin-kt KT]\n"
      "The history-size benchmark (Tables 1-4) of Mantell, Pitt and Wales, J. Chem. Theory\n"
      "Comput. 2016 for your own system.\n";
  t.helpCommand();
  t.add("lj", "N", "Lennard-Jones cluster of N atoms", fieldOf(&Options::ljAtoms));
  t.add("prmtop", "F", "AMBER topology (igb 2, 0.2 M salt, rgbmax 12)", fieldOf(&Options::prmtop));
  t.add("inpcrd", "F", "AMBER coordinates", fieldOf(&Options::inpcrd));
  t.add("starts", "K",
        "starting structures, minimised as one batch per cell (the bytes per start are printed; a "
        "K that does not fit is refused, naming the largest that does)",
        fieldOf(&Options::starts))
      .atLeast(1);
  addLbfgsHistoryOption(t, "L-BFGS history sizes m, comma-separated",
                        fieldOf(&Options::historySizes))
      .alias("m");
  t.add("impl", "LIST", "implementations, comma-separated", fieldOf(&Options::implementations))
      .choices(std::vector<std::string>{"gpu1", "gpu2", "gpu-batch", "gpu-rounds", "cpu"});
  t.add("threads", "T",
        "CPU threads of the cpu rows: the K starts are one batch over T potentials (results do "
        "not depend on T; the time is then the batch's wall time / K)",
        fieldOf(&Options::threads))
      .atLeast(1);
  t.add("seed", "S", "random seed (start k uses S + k)", fieldOf(&Options::seed)).atLeast(0);
  t.add("perturb", "DX",
        "largest random displacement per coordinate; default 0.3 sigma for LJ, 0.1 A for AMBER",
        fieldOf(&Options::perturb))
      .defaultText("");
  t.add("langevin-steps", "N", "Langevin steps of 1 fs per start; default 2000 for AMBER, 0 for LJ",
        fieldOf(&Options::langevinSteps))
      .defaultText("");
  t.add("langevin-kt", "KT", "temperature of those runs", fieldOf(&Options::langevinKt))
      .unit("kcal/mol")
      .nonNegative();
  t.add("max-iterations", "N", "L-BFGS iteration cap", fieldOf(&Options::maxIterations)).atLeast(1);
  t.add("rounds-compact", "K",
        "gpu-rounds: compact-form directions from history size K on (0: automatic, m >= 8, "
        "n >= 1024 and n >= 2 m; -1: always the two-loop recursion)",
        fieldOf(&Options::roundsCompact))
      .atLeast(-1);
  t.add("repeats", "R",
        "times each cell's batch is minimised from the same starts: the time is their mean, "
        "the error bar their standard deviation (the same iterates each time; only the timing "
        "differs)",
        fieldOf(&Options::repeats))
      .atLeast(1);
  t.add("out", "PREFIX", "PREFIX.md, PREFIX.csv and PREFIX.png", fieldOf(&Options::out));
  return t;
}

Options parse(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  if (o.ljAtoms < 2 && (o.prmtop.empty() || o.inpcrd.empty()))
    throw std::runtime_error("give the system: --lj N (N >= 2) or --prmtop F --inpcrd F");
  if (o.perturb < 0.0) o.perturb = o.prmtop.empty() ? 0.3 : 0.1;
  return o;
}

struct Cell {
  double seconds = 0.0;  // mean over the repeats of the batch's wall time
  double spread = 0.0;   // standard deviation of the batch's wall time over the repeats
  double steps = 0.0;
  int runs = 0;
  int unconverged = 0;
};

// The settings of Mantell et al. 2016 (max step 0.4, max rise 1e-4, RMS gradient 1e-5) at history
// size m.
LbfgsParams historyParams(int m, int maxIterations) {
  LbfgsParams p;
  p.historySize = m;
  p.maxStep = 0.4;
  p.maxRise = 1e-4;
  p.rmsTolerance = 1e-5;
  p.maxIterations = maxIterations;
  return p;
}

// What the implementations run on.
struct HistoryEngines {
  std::vector<Potential*> cpu;            // one CPU potential per --threads
  Potential* cuda = nullptr;              // the CUDA potential (gpu1, gpu2)
  BatchedPotential* cudaBatch = nullptr;  // the batched CUDA potential (gpu-rounds)
  int roundsCompact = 0;                  // its compactFromHistory
  std::size_t ljAtoms = 0;                // Lennard-Jones atoms; 0 for a molecule
};

// The batched minimiser of one implementation, or null with the reason in `why` when it cannot
// run this system (gpu-batch: molecules, or a history too large for shared memory).
std::unique_ptr<BatchedMinimiser> historyMinimiser(const std::string& impl, const LbfgsParams& p,
                                                   const HistoryEngines& e, std::string& why) {
  if (impl == "cpu") return std::make_unique<ParallelLbfgs>(e.cpu, p);
  if (impl == "gpu2") return std::make_unique<ParallelLbfgs>(std::vector<Potential*>{e.cuda}, p);
  if (impl == "gpu1")
    return std::make_unique<ParallelLbfgs>(std::vector<Potential*>{e.cuda}, p,
                                           lbfgsWorkspaceFactory(LbfgsBackend::Gpu));
  if (impl == "gpu-rounds") {
    BatchedEngineOptions options;
    options.engine = BatchedEngine::Rounds;
    options.rounds.compactFromHistory = e.roundsCompact;
    return makeBatchedMinimiserOver(*e.cudaBatch, p, Backend::Cuda, options);
  }
  if (e.ljAtoms == 0) {
    why =
        "the team kernel is for Lennard-Jones clusters (gpu-rounds is the batched GPU row for "
        "molecules)";
    return nullptr;
  }
  try {
    return makeBatchedMinimiser({e.ljAtoms}, p, Backend::Cuda, {BatchedEngine::Team});
  } catch (const std::invalid_argument& error) {  // the structure does not fit a block
    why = error.what();
    return nullptr;
  }
}

// The K starts minimised as one batch, `repeats` times: the batch's memory (refused, naming the
// largest batch that fits, when K does not), then one line per start of the first repeat.
Cell minimiseStarts(BatchedMinimiser& minimiser, const std::vector<std::vector<double>>& starts,
                    int m, const std::string& impl, int repeats) {
  const std::size_t n = minimiser.dimension(), k = starts.size();
  const BatchMemory memory = minimiser.memory();
  std::fprintf(stderr, "m %5d %-9s %s: %zu bytes of %s per start, largest batch %zu\n", m,
               impl.c_str(), minimiser.name().c_str(), memory.bytesPerStructure,
               memory.where.c_str(), memory.largestBatch());
  requireBatchFits(k, memory);
  std::vector<double> x(k * n), times;
  std::vector<LbfgsResult> results(k);
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t b = 0; b < k; ++b) std::copy(starts[b].begin(), starts[b].end(), &x[b * n]);
    const auto t0 = std::chrono::steady_clock::now();
    minimiser.minimise(k, x.data(), results.data());
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  Cell cell;
  for (double t : times) cell.seconds += t / repeats;
  for (double t : times) cell.spread += (t - cell.seconds) * (t - cell.seconds);
  cell.spread = repeats > 1 ? std::sqrt(cell.spread / (repeats - 1)) : 0.0;
  for (std::size_t b = 0; b < k; ++b) {
    const LbfgsResult& r = results[b];
    cell.steps += r.iterations;
    ++cell.runs;
    if (!r.converged()) ++cell.unconverged;
    std::fprintf(stderr, "m %5d %-9s start %3zu: %6d steps, E %.8f, %s\n", m, impl.c_str(), b,
                 r.iterations, r.energy, lbfgsStatusName(r.status).c_str());
  }
  std::fprintf(stderr, "m %5d %-9s batch of %zu starts: %.3f +- %.3f s over %d repeats\n", m,
               impl.c_str(), k, cell.seconds, cell.spread, repeats);
  return cell;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    PotentialSpec spec;
    std::vector<double> base;
    Random random(o.seed);
    std::string system;
    if (!o.prmtop.empty()) {
      spec.kind = PotentialSpec::Kind::AmberGb;
      spec.amberTopology = std::make_shared<const AmberTopology>(readAmberTopology(o.prmtop));
      base = readAmberCoordinates(o.inpcrd, *spec.amberTopology).positions;
      system = "AMBER-GB " + o.prmtop + " (" + std::to_string(base.size() / 3) + " atoms)";
    } else {
      spec.atoms = o.ljAtoms;
      base = randomCluster(o.ljAtoms, defaultContainerRadius(o.ljAtoms), 0.7, random);
      system = "Lennard-Jones " + std::to_string(o.ljAtoms) + " atoms";
    }
    auto cpuPotential = makePotential(spec, Backend::Cpu);
    std::unique_ptr<Potential> cudaPotential;
    bool needCuda = false;
    // The starts' Langevin runs use the CUDA potential whenever a row runs on the GPU.
    for (const std::string& impl : o.implementations)
      needCuda |= impl == "gpu1" || impl == "gpu2" || impl == "gpu-rounds";
    if (needCuda) cudaPotential = makePotential(spec, Backend::Cuda);
    std::unique_ptr<BatchedPotential> cudaBatch;
    if (std::find(o.implementations.begin(), o.implementations.end(), "gpu-rounds") !=
        o.implementations.end()) {
      BatchedPotentialOptions batchOptions;
      batchOptions.reserveBatch = static_cast<std::size_t>(o.starts);
      batchOptions.gbLayout =
          o.starts > 1 ? AmberGbCudaLayout::Throughput : AmberGbCudaLayout::Latency;
      cudaBatch = makeBatchedPotentialForSpec(spec, Backend::Cuda, batchOptions);
    }

    // Starting structures: the input structure (LJ: a quenched random cluster) with uniform
    // displacements of up to --perturb per coordinate (a stand-in for high-temperature MD).
    if (o.prmtop.empty()) {
      LbfgsParams quench;
      quench.rmsTolerance = 1e-3;
      quench.maxIterations = o.maxIterations;
      Lbfgs(quench).minimize(*cpuPotential, base);
    }
    std::vector<std::vector<double>> starts(o.starts, base);
    const long langevinSteps = o.langevinSteps >= 0 ? o.langevinSteps : o.prmtop.empty() ? 0 : 2000;
    if (langevinSteps > 0) {
      // Overdamped Langevin (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, eq 1)
      // at kT, dt 1 fs, friction 10 kcal ps/(mol A^2) (stable for AMBER bonds: dt/xi = 1e-4 A^2
      // mol/kcal, noise 0.016 A per step at 600 K): each start is an independent trajectory from
      // the input structure.
      Potential& dynamics = cudaPotential ? *cudaPotential : *cpuPotential;
      for (int k = 0; k < o.starts; ++k) {
        LangevinParams lp;
        lp.timeStep = 1e-3;
        lp.friction = 10.0;
        lp.kT = o.langevinKt;
        lp.steps = langevinSteps;
        lp.seed = o.seed + static_cast<std::uint64_t>(k);
        makeLangevinIntegrator(dynamics, lp)->run(starts[k].data(), langevinSteps);
        std::fprintf(stderr, "start %d: %ld Langevin steps at kT %.3g, E %.4f\n", k, langevinSteps,
                     o.langevinKt, dynamics.energy(starts[k].data()));
      }
    } else {
      for (auto& s : starts)
        for (double& v : s) v += o.perturb * random.symmetric();
    }

    HistoryEngines engines;
    engines.ljAtoms = o.prmtop.empty() ? o.ljAtoms : 0;
    engines.cpu.push_back(cpuPotential.get());
    std::vector<std::unique_ptr<Potential>> copies;  // one CPU potential per further thread
    for (int t = 1; t < o.threads; ++t) {
      copies.push_back(makePotential(spec, Backend::Cpu));
      engines.cpu.push_back(copies.back().get());
    }
    engines.cuda = cudaPotential.get();
    engines.cudaBatch = cudaBatch.get();
    engines.roundsCompact = o.roundsCompact;
    std::map<std::pair<int, std::string>, Cell> cells;
    std::vector<std::string> skipped;
    for (int m : o.historySizes) {
      for (const std::string& impl : o.implementations) {
        std::string why;
        auto minimiser = historyMinimiser(impl, historyParams(m, o.maxIterations), engines, why);
        if (!minimiser) {
          skipped.push_back("m " + std::to_string(m) + " " + impl + ": " + why);
          std::fprintf(stderr, "m %5d %-9s skipped: %s\n", m, impl.c_str(), why.c_str());
          continue;
        }
        cells[{m, impl}] = minimiseStarts(*minimiser, starts, m, impl, o.repeats);
      }
    }

    std::ofstream md(o.out + ".md"), csv(o.out + ".csv");
    if (!md || !csv) throw std::runtime_error("cannot write " + o.out + ".md/.csv");
    std::ostringstream head;
    head << "# L-BFGS history-size benchmark: " << system << ", " << o.starts << " starts (seed "
         << o.seed << ", "
         << (langevinSteps > 0 ? std::to_string(langevinSteps) + " Langevin steps at kT " +
                                     std::to_string(o.langevinKt)
                               : "perturbation " + std::to_string(o.perturb))
         << "), max step 0.4, max rise 1e-4, RMS 1e-5, at most " << o.maxIterations
         << " steps; the K starts of a row are one batch (cpu over " << o.threads
         << (o.threads == 1 ? " thread" : " threads")
         << "), time = batch wall time / K, mean +- standard deviation over " << o.repeats
         << (o.repeats == 1 ? " timing" : " timings") << "\n\nGPU: " << gpuDescription() << "\n\n";
    md << head.str();
    md << "| m | impl | avg minimization time (s) | +- | avg L-BFGS steps | time per step (ms) | "
          "CPU / impl | unconverged |\n|---|---|---|---|---|---|---|---|\n";
    csv << "m,impl,avg_seconds,avg_steps,ms_per_step,cpu_over_impl,unconverged,std_seconds\n";
    for (int m : o.historySizes) {
      const auto cpuIt = cells.find({m, "cpu"});
      for (const std::string& impl : o.implementations) {
        const auto found = cells.find({m, impl});
        if (found == cells.end()) continue;  // skipped: listed under the table
        const Cell& c = found->second;
        const double avg = c.seconds / c.runs, steps = c.steps / c.runs;
        const double ratio =
            cpuIt != cells.end() ? (cpuIt->second.seconds / cpuIt->second.runs) / avg : NAN;
        char line[256];
        const double spread = c.spread / c.runs;
        std::snprintf(line, sizeof line, "| %d | %s | %.4g | %.2g | %.1f | %.4g | %.3g | %d |\n", m,
                      impl.c_str(), avg, spread, steps, 1e3 * c.seconds / std::max(c.steps, 1.0),
                      ratio, c.unconverged);
        md << line;
        std::snprintf(line, sizeof line, "%d,%s,%.6g,%.2f,%.6g,%.4g,%d,%.6g\n", m, impl.c_str(),
                      avg, steps, 1e3 * c.seconds / std::max(c.steps, 1.0), ratio, c.unconverged,
                      spread);
        csv << line;
      }
    }
    if (!skipped.empty()) md << "\nSkipped:\n";
    for (const std::string& why : skipped) md << "- " << why << "\n";
    md.close();
    csv.close();
    std::printf("%s", head.str().c_str());
    std::ifstream back(o.out + ".md");
    std::string text((std::istreambuf_iterator<char>(back)), std::istreambuf_iterator<char>());
    std::printf("%s", text.substr(head.str().size()).c_str());
    // The plot: landscape.plots history (matplotlib, installed by tools/setup.sh).
    const std::string title = system + ", " + std::to_string(o.starts) + " starts, " +
                              std::to_string(o.repeats) + (o.repeats == 1 ? " timing" : " timings");
    if (landscape::runPythonPlot(
            "bench_history", {"history", o.out + ".csv", "-o", o.out + ".png", "--title", title}))
      std::fprintf(stderr, "bench_history: no plot (landscape.plots failed); tables written\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_history: error: %s\n", e.what());
    return 1;
  }
}
