// bench_optim: the transition-state benchmarks of Mantell, Pitt and Wales (J. Chem. Theory
// Comput. 2016) for an AMBER-GB system, printed as Markdown
// in the layout of its Tables 6-8:
//   Table 6  hybrid eigenvector-following with history size m = 4, average time per search;
//   Table 7  the same with m = 1000;
//   Table 8  DNEB with m = 4: 10 images, 300 iterations, RMS tolerance 0.01 kcal/mol/A.
// Each table has the columns System | Number of atoms | GPU time/s | CPU time/s | CPU/GPU, then a
// details table (searches converged, iterations, potential calls, time per call) and the floor:
// calls x the measured time of one energy+gradient call on that backend (the fastest of five
// batches, taken before each table's runs at a DNEB structure), the time the search would take
// if everything but the potential were free; measured/floor shows the rest. Energy-only calls
// count as full calls, so the floor is an upper bound of the potential's share; on a shared
// machine other work can still push measured/floor below 1.
//
// Procedure (Mantell et al. 2016, section 3.3, scaled down):
//   1. minimise --inpcrd (endpoint A) and a second minimum B: --finish FILE minimised, or A with
//      about two of its side-chain groups turned at random (seeded; the stereocentres must
//      survive) and minimised (the paper used a short basin-hopping run);
//   (steps 1 and 2 in double precision on the GPU when cuda is among the backends, else the CPU)
//   2. DNEB structures: the band maxima of DNEB runs between A and B (10, 15, 20, ...
//      images) until --starts K starting points are collected (the paper: the first 100 DNEB
//      structures of a connect attempt that converged to transition states);
//   3. hybrid EF from each start on each backend and history size, with the paper's settings:
//   L-BFGS
//      step 0.4 A, rise 1e-4 kcal/mol; Rayleigh-Ritz 1000 iterations to RMS 0.01 kcal/mol/A^3
//      and 1% eigenvalue change; 20 / 200 tangent-space iterations before / after the eigenvector
//      settles (overlap 0.9999); trust radius 0.5 A within [0.01, 0.5] A; 1000 iterations;
//      converged at RMS 1e-5 kcal/mol/A and step 0.02 A; one seeded random first eigenvector for
//      every start. Averages are over the searches that converged on that backend;
//   4. DNEB A -> B, --dneb-runs times on each backend (the paper averaged the first three DNEB
//      runs of a connect attempt).
// The GPU column is landscape's CUDA potential with the L-BFGS vectors on the host (the paper's
// Table 6 had the whole Rayleigh-Ritz and tangent-space L-BFGS on the GPU; Table 8, like here,
// only the potential). Progress goes to stderr, the tables to stdout.
//
// Usage: bench_optim --prmtop FILE --inpcrd FILE [--finish FILE] [--backend cpu|cuda|cpu,cuda]
//                    [--precision double|mixed] [--igb 1|2|5] [--saltcon M] [--rgbmax A]
//                    [--starts K] [--dneb-runs R] [--m 4,1000] [--seed S] [--system LABEL]
//                    [--lbfgs-backend cpu|gpu] [--trace]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"
#include "landscape/search/ProteinMoves.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "src/common/SharedOptions.h"

namespace {

using namespace landscape;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string prmtop, inpcrd, finish, system;
  std::vector<std::string> backends;
  Precision precision = Precision::Double;
  AmberGbParams amber;  // igb 2, 0.2 M, rgbmax 12 by default (the paper: ff99SB, igb = 2)
  int starts = 5;
  int dnebRuns = 3;
  std::vector<int> historySizes = {4, 1000};
  std::uint64_t seed = 1;
  LbfgsBackend gpuLbfgs = LbfgsBackend::Cpu;  // where the cuda column's hybrid EF keeps its vectors
  bool trace = false;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_optim");
  t.about =
      "usage: bench_optim --prmtop FILE --inpcrd FILE [--finish FILE] [--backend "
      "cpu|cuda|cpu,cuda]\n"
      "                   [--precision double|mixed] [--igb 1|2|5] [--saltcon M] [--rgbmax A]\n"
      "                   [--starts K] [--dneb-runs R] [--m 4,1000] [--seed S] [--system LABEL]\n"
      "                   [--lbfgs-backend cpu|gpu] [--trace]\n"
      "Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, Tables 6-8 (hybrid EF m = 4 and\n"
      "1000, DNEB m = 4) as Markdown on stdout.\n"
      "Units: kcal/mol, Angstrom.\n";
  t.helpCommand();
  t.add("prmtop", "FILE", "AMBER topology", fieldOf(&Options::prmtop));
  t.add("inpcrd", "FILE", "AMBER coordinates", fieldOf(&Options::inpcrd));
  t.add("finish", "FILE", "second endpoint of the DNEB runs", fieldOf(&Options::finish));
  t.add("backend", "LIST", "backends, comma-separated (default cpu,cuda with a GPU, else cpu)",
        fieldOf(&Options::backends))
      .choices(std::vector<std::string>{"cpu", "cuda"});
  addPrecisionOption(t, "", fieldOf(&Options::precision));
  addAmberGbOptions(t, fieldOf(&Options::amber));
  t.add("starts", "K", "starting structures", fieldOf(&Options::starts)).atLeast(1);
  t.add("dneb-runs", "R", "DNEB runs", fieldOf(&Options::dnebRuns)).atLeast(1);
  addLbfgsHistoryOption(t, "L-BFGS history sizes m of hybrid EF, comma-separated",
                        fieldOf(&Options::historySizes))
      .alias("m");
  t.add("seed", "S", "random seed", fieldOf(&Options::seed)).atLeast(0);
  t.add("system", "LABEL", "name in the tables (default: the topology's folder)",
        fieldOf(&Options::system));
  addLbfgsBackendOption(t,
                        "gpu: the cuda column's eigenvector search and tangent-space L-BFGS keep "
                        "their vectors on the device (implementation 1 of Mantell et al. 2016)",
                        fieldOf(&Options::gpuLbfgs));
  t.flag("trace",
         "print every hybrid EF iteration to stderr (energy, RMS gradient, eigenvalue, overlap, "
         "uphill step, Rayleigh-Ritz and tangent-space iterations)",
         fieldOf(&Options::trace));
  return t;
}

Options parse(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  if (o.prmtop.empty() || o.inpcrd.empty())
    throw std::runtime_error(
        "give the system: --prmtop FILE --inpcrd FILE (--help lists the options)");
  if (o.backends.empty())
    o.backends =
        gpuAvailable() ? std::vector<std::string>{"cpu", "cuda"} : std::vector<std::string>{"cpu"};
  if (o.system.empty()) {
    const auto slash = o.prmtop.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : o.prmtop.substr(0, slash);
    const auto dirSlash = dir.find_last_of('/');
    o.system = dirSlash == std::string::npos ? dir : dir.substr(dirSlash + 1);
  }
  return o;
}

double seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

double rms(const std::vector<double>& g) {
  double s = 0.0;
  for (double v : g) s += v * v;
  return std::sqrt(s / static_cast<double>(g.size()));
}

// The paper's hybrid EF settings (Mantell et al. 2016, section 3.3) with history size m in both
// L-BFGS runs.
HybridEigenvectorFollowingParams paperSearch(int m, std::uint64_t seed) {
  HybridEigenvectorFollowingParams p;
  p.rayleighRitz.lbfgs.historySize = m;
  p.rayleighRitz.lbfgs.maxIterations = 1000;
  p.rayleighRitz.lbfgs.rmsTolerance = 0.01;
  p.rayleighRitz.eigenvalueTolerance = 0.01;
  p.tangentSpace.historySize = m;
  p.tangentSpace.maxStep = 0.4;
  p.tangentSpace.maxRise = 1e-4;
  p.tangentIterationsBefore = 20;
  p.tangentIterationsAfter = 200;
  p.overlapConvergence = 0.9999;
  p.initialUphillStep = 0.5;
  p.minUphillStep = 0.01;
  p.maxUphillStep = 0.5;
  p.trustRatio = 0.5;
  p.maxIterations = 1000;
  p.rmsTolerance = 1e-5;
  p.stepTolerance = 0.02;
  p.seed = seed;
  return p;
}

// Mantell et al. 2016, Table 8: 10 images, 300 iterations, m = 4, RMS 0.01 kcal/mol/A.
DnebParams paperDneb(int images) {
  DnebParams p;
  p.images = images;
  p.iterations = 300;
  p.historySize = 4;
  p.rmsTolerance = 0.01;
  p.alignment.inversion = false;  // chiral molecules: translation and rotation only
  p.alignment.permutations = false;
  return p;
}

LbfgsParams endpointMinimiser() {
  LbfgsParams p;
  p.rmsTolerance = 1e-5;
  p.maxIterations = 50000;
  p.maxStep = 0.4;
  p.historySize = 10;
  return p;
}

struct Cell {  // one backend of one table row
  bool measured = false;
  int runs = 0, converged = 0;
  double seconds = 0.0, iterations = 0.0, calls = 0.0;
  // Hybrid EF only: Rayleigh-Ritz and tangent-space L-BFGS iterations over the converged searches
  // (each Rayleigh-Ritz iteration costs two gradient calls, eq 14).
  double eigenIterations = 0.0, tangentIterations = 0.0;
  double secondsPerCall = 0.0;  // one energy+gradient call on this backend
  double average() const { return converged > 0 ? seconds / converged : NAN; }
  double floor() const { return converged > 0 ? calls / converged * secondsPerCall : NAN; }
};

std::string fixed(double v, int digits = 2) {
  if (!std::isfinite(v)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

std::string general(double v) {
  if (!std::isfinite(v)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

void printTable(const std::string& title, const std::string& m, const Options& o, int atoms,
                const Cell& gpu, const Cell& cpu, const std::string& what) {
  std::printf("\n%s\n\n", title.c_str());
  std::printf(
      "| System | Number of atoms | Average time for GPU Implementation (%s)/s | Average time "
      "for CPU Implementation (%s)/s | Time for CPU Implementation/GPU Implementation (%s) |\n",
      m.c_str(), m.c_str(), m.c_str());
  std::printf("|---|---:|---:|---:|---:|\n");
  std::printf("| %s | %d | %s | %s | %s |\n", o.system.c_str(), atoms, fixed(gpu.average()).c_str(),
              fixed(cpu.average()).c_str(), fixed(cpu.average() / gpu.average(), 1).c_str());
  std::printf(
      "\n| backend | %s converged | mean iterations | mean potential calls | "
      "Rayleigh-Ritz iterations per iteration | calls in Rayleigh-Ritz | tangent-space "
      "iterations per iteration | time per call/ms | floor (calls x time per call)/s | "
      "measured/floor |\n",
      what.c_str());
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& [name, c] : {std::pair<const char*, const Cell&>{"GPU (cuda)", gpu},
                                std::pair<const char*, const Cell&>{"CPU", cpu}}) {
    if (!c.measured) {
      std::printf("| %s | not run | | | | | | | | |\n", name);
      continue;
    }
    const double n = c.converged > 0 ? c.converged : NAN;
    const bool search = c.eigenIterations > 0.0;  // DNEB rows have none
    std::printf("| %s | %d/%d | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, c.converged,
                c.runs, general(c.iterations / n).c_str(), general(c.calls / n).c_str(),
                search ? general(c.eigenIterations / c.iterations).c_str() : "-",
                search ? (fixed(100.0 * 2.0 * c.eigenIterations / c.calls, 0) + "%").c_str() : "-",
                search ? general(c.tangentIterations / c.iterations).c_str() : "-",
                fixed(1e3 * c.secondsPerCall, 4).c_str(), fixed(c.floor(), 3).c_str(),
                fixed(c.average() / c.floor(), 2).c_str());
  }
}

// Mantell et al.'s own rows (Titan Black GPU against one CPU core; ff99SB, igb = 2), for
// comparison.
void printPaperRows() {
  std::printf(
      "\nMantell et al.'s rows (systems B-H, 581 to 22811 atoms; GPU / CPU seconds and ratio):\n\n"
      "| System | Atoms | Table 6 (m = 4) | Table 7 (m = 1000) | Table 8 DNEB (m = 4) |\n"
      "|---|---:|---|---|---|\n"
      "| B PUMA | 581 | 14.8 / 192.1 = 13.0 | 113.3 / 142.7 = 1.3 | 2.8 / 90.1 = 32.5 |\n"
      "| C myoglobin | 2492 | 20.2 / 2102.4 = 104.2 | 215.1 / 1650.3 = 7.7 | 10.5 / 1203.8 = "
      "114.2 |\n"
      "| D HA monomer (truncated) | 3522 | 25.7 / 3529.1 = 137.4 | 186.3 / 3160.9 = 17.0 | 18.6 "
      "/ 2275.3 = 122.2 |\n"
      "| E aldose reductase + NADP+ | 5113 | 51.4 / 7399.4 = 143.8 | 238.3 / 6576.0 = 27.6 | "
      "30.9 / 4593.6 = 148.5 |\n"
      "| F HA monomer | 7585 | 197.1 / 36779.8 = 186.6 | 669.6 / 32046.2 = 47.9 | 59.5 / "
      "9569.0 = 160.8 |\n"
      "| G epoxide hydrolase | 10053 | 195.9 / 33549.2 = 171.3 | 449.9 / 30073.3 = 66.8 | 100.1 "
      "/ 16535.6 = 165.2 |\n"
      "| H HA trimer | 22811 | 1047.6 / 176550.7 = 168.5 | 1225.4 / 169234.0 = 138.1 | 452.9 / "
      "80680.2 = 178.1 |\n");
}

// Time of one energy+gradient call at x: the fastest of five batches of at least 0.05 s each
// (after one warm-up call), so that other work on a shared machine inflates it least.
double timePerCall(Potential& potential, const std::vector<double>& x) {
  std::vector<double> g(x.size());
  potential.energyGradient(x.data(), g.data());
  double best = std::numeric_limits<double>::infinity();
  for (int batch = 0; batch < 5; ++batch) {
    int calls = 0;
    const auto t0 = Clock::now();
    do {
      potential.energyGradient(x.data(), g.data());
      ++calls;
    } while (seconds(t0) < 0.05 || calls < 2);
    best = std::min(best, seconds(t0) / calls);
  }
  return best;
}

// Counts energy+gradient calls of the potential it wraps.
class Counting : public Potential {
 public:
  explicit Counting(Potential& inner) : m_inner(inner) {}
  std::size_t dimension() const override { return m_inner.dimension(); }
  std::string name() const override { return m_inner.name(); }
  double energy(const double* x) override {
    ++m_calls;
    return m_inner.energy(x);
  }
  double energyGradient(const double* x, double* g) override {
    ++m_calls;
    return m_inner.energyGradient(x, g);
  }
  long calls() const { return m_calls; }

 private:
  Potential& m_inner;
  long m_calls = 0;
};

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    const auto shared = std::make_shared<const AmberTopology>(readAmberTopology(o.prmtop));
    const AmberTopology& topology = *shared;
    const int atoms = topology.atomCount;
    PotentialSpec spec;
    spec.kind = PotentialSpec::Kind::AmberGb;
    spec.amberTopology = shared;
    spec.amber = o.amber;
    spec.precision = o.precision;
    spec.atoms = static_cast<std::size_t>(atoms);
    std::map<std::string, std::unique_ptr<Potential>> potentials;
    for (const std::string& b : o.backends) potentials[b] = makePotential(spec, parseBackend(b));
    // Endpoints and DNEB starts are prepared with double-precision gradients, on the GPU when it
    // is among the backends (a CPU minimisation of a protein takes minutes to hours).
    PotentialSpec preparationSpec = spec;
    preparationSpec.precision = Precision::Double;
    const bool onGpu = potentials.count("cuda") > 0;
    auto preparation = makePotential(preparationSpec, onGpu ? Backend::Cuda : Backend::Cpu);

    // 1. Endpoints.
    std::vector<double> a = readAmberCoordinates(o.inpcrd, topology).positions;
    const LbfgsParams minimiser = endpointMinimiser();
    auto t0 = Clock::now();
    Lbfgs(minimiser).minimize(*preparation, a);
    std::vector<double> g(a.size());
    const double energyA = preparation->energyGradient(a.data(), g.data());
    std::fprintf(stderr, "bench_optim: A: E = %.6f kcal/mol, RMS gradient %.2e (%.1f s)\n", energyA,
                 rms(g), seconds(t0));
    const StereoChecks stereo(topology, a);
    AlignmentParams chiral;
    chiral.inversion = false;
    chiral.permutations = false;
    std::vector<double> b;
    if (!o.finish.empty()) {
      b = readAmberCoordinates(o.finish, topology).positions;
      Lbfgs(minimiser).minimize(*preparation, b);
    } else {
      const std::vector<RotatableGroup> groups = findSideChainGroups(topology);
      if (groups.empty()) throw std::runtime_error(o.prmtop + " has no side-chain groups to turn");
      Random random(o.seed);
      for (int attempt = 1;; ++attempt) {
        b = a;
        // About two side chains per attempt: a neighbouring minimum, as a short basin-hopping
        // run would give, rather than a distant one.
        const double probability = std::min(1.0, 2.0 / static_cast<double>(groups.size()));
        rotateGroups(groups, b, probability, 3.14159265358979323846, random);
        Lbfgs(minimiser).minimize(*preparation, b);
        const double d = minimumDistance(a, b, chiral);
        if (stereo.violation(b).empty() && d > 0.5) break;
        if (attempt == 50) throw std::runtime_error("no distinct second minimum in 50 attempts");
      }
    }
    const double energyB = preparation->energyGradient(b.data(), g.data());
    std::fprintf(stderr, "bench_optim: B: E = %.6f kcal/mol, RMS gradient %.2e, %.3f A from A\n",
                 energyB, rms(g), minimumDistance(a, b, chiral));

    // 2. DNEB structures (on the preparation potential).
    std::vector<std::vector<double>> starts;
    for (int images = 10; static_cast<int>(starts.size()) < o.starts && images <= 60; images += 5) {
      const DnebResult band = Dneb(paperDneb(images)).run(*preparation, a, b);
      for (int c : band.candidates) {
        if (static_cast<int>(starts.size()) < o.starts) starts.push_back(band.images[c]);
      }
      std::fprintf(stderr, "bench_optim: DNEB with %d images: %zu maxima, %zu starts so far\n",
                   images, band.candidates.size(), starts.size());
    }
    if (starts.empty()) throw std::runtime_error("the DNEB bands between A and B have no maxima");

    std::map<std::pair<int, std::string>, Cell> searches;  // (m, backend)
    std::map<std::string, Cell> dnebs;
    for (const std::string& backend : o.backends) {
      Potential& potential = *potentials[backend];
      // 3. Hybrid EF.
      for (int m : o.historySizes) {
        Cell& cell = searches[{m, backend}];
        cell.measured = true;
        cell.secondsPerCall = timePerCall(potential, starts.front());
        HybridEigenvectorFollowingParams params = paperSearch(m, o.seed);
        if (backend == "cuda" && o.gpuLbfgs == LbfgsBackend::Gpu) {
          params.tangentWorkspace = lbfgsWorkspaceFactory(LbfgsBackend::Gpu);
          params.rayleighRitz.workspace = params.tangentWorkspace;
        }
        const HybridEigenvectorFollowing search(params);
        for (std::size_t s = 0; s < starts.size(); ++s) {
          Counting counting(potential);
          double eigen = 0.0, tangent = 0.0;
          const auto count = [&](const HefIteration& it) {
            eigen += it.eigenvectorIterations;
            tangent += it.tangentIterations;
            if (o.trace)
              std::fprintf(stderr,
                           "bench_optim:   iteration %d: E = %.6f, RMS %.3e, lambda %.4f, overlap "
                           "%.6f, h %.4f (max %.3f), Rayleigh-Ritz %d, tangent space %d\n",
                           it.iteration, it.energy, it.rmsGradient, it.eigenvalue, it.overlap,
                           it.uphillStep, it.maxUphillStep, it.eigenvectorIterations,
                           it.tangentIterations);
          };
          const auto t = Clock::now();
          const TransitionStateResult r =
              search.findTransitionState(counting, starts[s], {}, count);
          const double elapsed = seconds(t);
          ++cell.runs;
          std::fprintf(stderr,
                       "bench_optim: %s m=%d start %zu: %s after %d iterations, E = %.6f, "
                       "lambda = %.4g, %.2f s; %ld calls, Rayleigh-Ritz iterations %.0f, "
                       "tangent-space iterations %.0f\n",
                       backend.c_str(), m, s + 1, transitionStateStatusName(r.status).c_str(),
                       r.iterations, r.energy, r.eigenvalue, elapsed, counting.calls(), eigen,
                       tangent);
          if (!r.converged()) continue;
          ++cell.converged;
          cell.eigenIterations += eigen;
          cell.tangentIterations += tangent;
          cell.seconds += elapsed;
          cell.iterations += r.iterations;
          cell.calls += static_cast<double>(counting.calls());
        }
      }
      // 4. DNEB.
      Cell& cell = dnebs[backend];
      cell.measured = true;
      cell.secondsPerCall = timePerCall(potential, starts.front());
      for (int run = 0; run < o.dnebRuns; ++run) {
        const auto t = Clock::now();
        const DnebResult r = Dneb(paperDneb(10)).run(potential, a, b);
        const double elapsed = seconds(t);
        ++cell.runs;
        ++cell.converged;  // a fixed iteration budget: every run counts
        cell.seconds += elapsed;
        cell.iterations += r.iterations;
        cell.calls += static_cast<double>(r.functionCalls);
        std::fprintf(stderr, "bench_optim: %s DNEB run %d: %d iterations, RMS %.4g, %.2f s\n",
                     backend.c_str(), run + 1, r.iterations, r.rmsGradient, elapsed);
      }
    }

    std::printf("# bench_optim: %s, %d atoms (%s)\n\n", o.system.c_str(), atoms, o.prmtop.c_str());
    std::printf(
        "AMBER-GB igb = %d, saltcon %.3g M, rgbmax %.3g A; CUDA precision %s; %s. Endpoints: A "
        "(minimised %s, E = %.4f kcal/mol) and B (E = %.4f kcal/mol). %zu DNEB structures. "
        "GPU column: CUDA potential, hybrid EF L-BFGS vectors on the %s. Averages over converged "
        "searches.\n",
        o.amber.igb, o.amber.saltcon, o.amber.rgbmax, precisionName(o.precision).c_str(),
        gpuAvailable() ? gpuDescription().c_str() : "no GPU", o.inpcrd.c_str(), energyA, energyB,
        starts.size(), o.gpuLbfgs == LbfgsBackend::Gpu ? "device" : "host");
    const Cell none;
    int table = 6;
    for (int m : o.historySizes) {
      const auto find = [&](const std::string& b) {
        const auto it = searches.find({m, b});
        return it == searches.end() ? none : it->second;
      };
      const std::string title = table <= 7 ? "Table " + std::to_string(table) + ". " : "";
      printTable(title + "Hybrid EF Benchmarking (m = " + std::to_string(m) + ") for GPU and CPU",
                 "m = " + std::to_string(m), o, atoms, find("cuda"), find("cpu"), "searches");
      ++table;
    }
    const auto dneb = [&](const std::string& b) {
      const auto it = dnebs.find(b);
      return it == dnebs.end() ? none : it->second;
    };
    printTable("Table 8. DNEB Benchmarking (m = 4) for GPU and CPU (10 images, 300 iterations)",
               "m = 4", o, atoms, dneb("cuda"), dneb("cpu"), "runs");
    printPaperRows();
    return 0;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "bench_optim: error: %s\n", e.what());
    return 1;
  }
}
