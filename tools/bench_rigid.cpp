// bench_rigid: Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, Tables 4-5, for your own
// system: L-BFGS minimisations of the same starting structures in rigid and in atomistic
// coordinates, for every history size m: average minimisation time, average L-BFGS steps and time
// per step, rigid against atomistic.
//
// Rigid bodies come from --rigid FILE (tools/utilities/make_rigid_bodies) or are built here:
//   --layout local  peptide bonds, aromatic rings and sp2 centres (Table 4);
//   --layout large  those between --atomistic-radius and --large-body-radius of --site-residues /
//                   --site-atoms, and everything beyond as one large body (Table 5).
// Starting structures: the input structure with uniform displacements of up to --perturb per
// coordinate, fitted body by body (RigidBodySystem::fromAtoms); the atomistic runs start from the
// atoms of those rigid starts, so both representations start from identical structures.
// Backends: --backend cpu|cuda for the atomistic potential (AMBER-GB; cuda once the CUDA GB
// exists), --lbfgs-backend cpu|gpu (gpu: the whole L-BFGS and the rigid transform on the device,
// implementation 1 of Mantell et al. 2016). Paper settings: max step 0.4 A, max rise 1e-4
// kcal/mol, RMS 1e-5 kcal/mol/A (angle-axis metric for rigid, Mantell et al. 2016, ref 31). Also
// reports the cost of the rigid transform per evaluation and its memory-traffic floor. Writes
// PREFIX.md and PREFIX.csv.
//
// Usage: bench_rigid --prmtop F --inpcrd F [--rigid FILE | --layout local|large
//          [--site-residues 1,2] [--site-atoms 5,6] [--atomistic-radius R] [--large-body-radius R]]
//          [--backend cpu|cuda] [--lbfgs-backend cpu|gpu] [--starts K] [--m 4,10,...] [--seed S]
//          [--perturb DX] [--max-iterations N] [--metric on|off] [--out PREFIX]
// --metric off runs the rigid L-BFGS without the diagonal metric of the rigid bodies (plain
// H0 = gamma I and the step capped on the raw rigid vector, as GMIN does; docs/rigid-bodies.md).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/RigidBodySet.h"
#include "src/common/SharedOptions.h"

namespace {

using namespace landscape;

struct Options {
  std::string prmtop, inpcrd, rigidFile, layout = "local";
  RigidBodyFinderParams finder;
  Backend backend = Backend::Cpu;
  LbfgsBackend lbfgsBackend = LbfgsBackend::Cpu;
  int starts = 5;
  std::vector<int> historySizes = {4, 10, 25, 50, 75, 100, 250, 500, 750, 1000};
  std::uint64_t seed = 1;
  double perturb = 0.1;  // Angstrom
  int maxIterations = 100000;
  bool metric = true;  // L-BFGS preconditioned by the rigid bodies' diagonal metric
  std::string out = "bench_rigid";
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_rigid");
  t.about =
      "usage: bench_rigid --prmtop F --inpcrd F [--rigid FILE | --layout local|large "
      "[--site-residues 1,2] [--site-atoms 5,6] [--atomistic-radius R] [--large-body-radius R]] "
      "[--backend cpu|cuda] [--lbfgs-backend cpu|gpu] [--starts K] [--m 4,10,...] [--seed S] "
      "[--perturb DX] [--max-iterations N] [--metric on|off] [--out PREFIX]\n";
  t.helpCommand();
  t.add("prmtop", "F", "AMBER topology", fieldOf(&Options::prmtop));
  t.add("inpcrd", "F", "AMBER coordinates", fieldOf(&Options::inpcrd));
  t.add("rigid", "FILE", "rigid bodies (GROUP blocks); otherwise the finder's --layout",
        fieldOf(&Options::rigidFile));
  t.add("layout", "", "the finder's layout", fieldOf(&Options::layout))
      .choices(std::vector<std::string>{"local", "large"});
  addRigidBodySiteOptions(t, fieldOf(&Options::finder));
  addBackendOption(t, fieldOf(&Options::backend));
  addLbfgsBackendOption(t, "where the L-BFGS vectors live", fieldOf(&Options::lbfgsBackend));
  t.add("starts", "K", "starting structures", fieldOf(&Options::starts)).atLeast(1);
  addLbfgsHistoryOption(t, "L-BFGS history sizes m, comma-separated",
                        fieldOf(&Options::historySizes))
      .alias("m");
  t.add("seed", "S", "random seed", fieldOf(&Options::seed)).atLeast(0);
  t.add("perturb", "DX", "largest random displacement per coordinate", fieldOf(&Options::perturb))
      .unit("Angstrom")
      .nonNegative();
  t.add("max-iterations", "N", "L-BFGS iteration cap", fieldOf(&Options::maxIterations)).atLeast(1);
  t.add("metric", "on|off", "L-BFGS preconditioned by the rigid bodies' diagonal metric",
        fieldOf(&Options::metric));
  t.add("out", "PREFIX", "PREFIX.md and PREFIX.csv", fieldOf(&Options::out));
  return t;
}

Options parse(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  if (o.prmtop.empty() || o.inpcrd.empty())
    throw std::runtime_error("--prmtop and --inpcrd are required (--help lists the options)");
  if (o.layout == "large" && o.finder.largeBodyRadius <= 0.0)
    throw std::runtime_error(
        "--layout large needs --large-body-radius R and a site "
        "(--site-residues or --site-atoms)");
  return o;
}

struct Cell {
  double seconds = 0.0, steps = 0.0;
  int runs = 0, unconverged = 0;
};

std::string shortNumber(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Mean time of one energy+gradient call (s) over `calls` calls at x.
double timeCalls(Potential& p, const std::vector<double>& x, int calls) {
  std::vector<double> g(x.size());
  p.energyGradient(x.data(), g.data());  // warm-up
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) p.energyGradient(x.data(), g.data());
  return seconds(t0) / calls;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    const auto shared = std::make_shared<const AmberTopology>(readAmberTopology(o.prmtop));
    const AmberTopology& topology = *shared;
    const std::vector<double> base = readAmberCoordinates(o.inpcrd, topology).positions;
    const std::size_t atoms = base.size() / 3;

    RigidBodySet set(atoms);
    std::string layout;
    if (!o.rigidFile.empty()) {
      set = readRigidBodies(o.rigidFile, atoms);
      layout = "bodies from " + o.rigidFile;
    } else {
      RigidBodyFinderParams finder = o.finder;
      if (o.layout == "local") finder.largeBodyRadius = 0.0;
      const RigidBodyFinderResult found = findRigidBodies(topology, base, finder);
      set = found.set;
      layout = o.layout == "local"
                   ? "local rigidification (peptide bonds, aromatic rings, sp2 centres)"
                   : "one large body beyond " + shortNumber(finder.largeBodyRadius) + " A (" +
                         std::to_string(found.largeBodyAtoms) + " atoms), local bodies from " +
                         shortNumber(finder.atomisticRadius) + " A";
    }
    const RigidBodySystem system(set, base);

    PotentialSpec spec;
    spec.kind = PotentialSpec::Kind::AmberGb;
    spec.amberTopology = shared;
    auto atomistic = makePotential(spec, o.backend);
    const Backend rigidBackend = o.lbfgsBackend == LbfgsBackend::Gpu ? Backend::Cuda : Backend::Cpu;
    auto rigid = makeRigidBodyPotential(*atomistic, system, rigidBackend);
    const std::string description = atomistic->name() + "; " + layout + ": " +
                                    describeRigidBodies(system) + "; rigid " +
                                    std::to_string(system.dimension()) + " vs atomistic " +
                                    std::to_string(3 * atoms) + " degrees of freedom";
    std::fprintf(stderr, "bench_rigid: %s\n", description.c_str());

    // Identical starting structures for both representations.
    Random random(o.seed);
    std::vector<std::vector<double>> rigidStarts, atomStarts;
    for (int k = 0; k < o.starts; ++k) {
      std::vector<double> x = base;
      for (double& v : x) v += o.perturb * random.symmetric();
      rigidStarts.push_back(system.fromAtoms(x));
      atomStarts.push_back(system.toAtoms(rigidStarts.back()));
    }

    // Cost of the rigid layer per evaluation: rigid call minus atomistic call at one structure.
    const int calls = 20;
    const double tAtom = timeCalls(*atomistic, atomStarts[0], calls);
    const double tRigid = timeCalls(*rigid, rigidStarts[0], calls);
    // Floor of the transform on the device: it reads q, rotations, reference offsets and the
    // atomistic gradient and writes the atoms and the rigid gradient (doubles), at ~3.2 TB/s.
    const double bytes = 8.0 * (2.0 * system.dimension() + 36.0 * 2.0 * system.bodyCount() +
                                3.0 * 2.0 * system.bodyAtoms().size() + 2.0 * 3.0 * atoms);
    const double floorSeconds = bytes / 3.2e12;
    // The host rigid layer on its own (the CPU reference: transform and projection).
    double tLayerHost = 0.0;
    {
      std::vector<double> x(3 * atoms), gAtoms(3 * atoms, 1.0), gRigid(system.dimension());
      const int reps = 200;
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < reps; ++i) {
        system.toAtoms(rigidStarts[0].data(), x.data());
        system.projectGradient(rigidStarts[0].data(), gAtoms.data(), gRigid.data());
      }
      tLayerHost = seconds(t0) / reps;
    }

    std::map<std::pair<int, int>, Cell> cells;  // (m, 0 rigid | 1 atomistic)
    for (int m : o.historySizes) {
      for (int kind = 0; kind < 2; ++kind) {
        Potential& potential = kind == 0 ? *rigid : *atomistic;
        auto ws = lbfgsWorkspaceFactory(o.lbfgsBackend)(potential, m);
        LbfgsParams p;
        p.historySize = m;
        p.maxStep = 0.4;
        p.maxRise = 1e-4;
        p.rmsTolerance = 1e-5;
        p.maxIterations = o.maxIterations;
        p.useDiagonalMetric = o.metric;
        const Lbfgs lbfgs(p);
        Cell& cell = cells[{m, kind}];
        for (int k = 0; k < o.starts; ++k) {
          ws->setCoordinates((kind == 0 ? rigidStarts : atomStarts)[k].data());
          const auto t0 = std::chrono::steady_clock::now();
          const LbfgsResult r = lbfgs.minimize(*ws);
          const double s = seconds(t0);
          cell.seconds += s;
          cell.steps += r.iterations;
          ++cell.runs;
          if (!r.converged()) ++cell.unconverged;
          std::fprintf(stderr,
                       "m %5d %-10s start %3d: %6d steps, %7ld energy calls, E %.6f, RMS %.2e, "
                       "%s, %.3f s\n",
                       m, kind == 0 ? "rigid" : "atomistic", k, r.iterations, r.functionCalls,
                       r.energy, r.rmsGradient, lbfgsStatusName(r.status).c_str(), s);
        }
      }
    }

    std::ofstream md(o.out + ".md"), csv(o.out + ".csv");
    if (!md || !csv) throw std::runtime_error("cannot write " + o.out + ".md/.csv");
    std::ostringstream head;
    head << "# Rigid vs atomistic L-BFGS (Tables 4-5 layout of Mantell et al. 2016): "
         << description << "\n\n"
         << o.starts << " starts (seed " << o.seed << ", perturbation " << o.perturb
         << " A), max step 0.4 A, max rise 1e-4 kcal/mol, RMS 1e-5 kcal/mol/A; rigid L-BFGS "
         << (o.metric ? "with" : "without") << " the rigid-body diagonal metric; potential on "
         << backendName(o.backend) << ", L-BFGS on " << lbfgsBackendName(o.lbfgsBackend)
         << ".\n\nGPU: " << gpuDescription() << "\n\n";
    char line[512];
    if (rigidBackend == Backend::Cuda) {
      std::snprintf(line, sizeof line,
                    "Energy+gradient call: atomistic %.4g ms, rigid %.4g ms; rigid layer %.4g ms "
                    "per call (device traffic floor %.3g us, ratio %.3g; launch latency "
                    "dominates)\n\n",
                    1e3 * tAtom, 1e3 * tRigid, 1e3 * (tRigid - tAtom), 1e6 * floorSeconds,
                    (tRigid - tAtom) / floorSeconds);
    } else {
      std::snprintf(line, sizeof line,
                    "Energy+gradient call: atomistic %.4g ms, rigid %.4g ms; host rigid layer "
                    "(transform + projection) %.4g ms per call\n\n",
                    1e3 * tAtom, 1e3 * tRigid, 1e3 * tLayerHost);
    }
    head << line;
    md << head.str();
    md << "| m | avg min. time rigid (s) | atomistic (s) | avg L-BFGS steps rigid | atomistic | "
          "time per step rigid (s) | atomistic (s) | unconverged rigid/atomistic |\n"
          "|---|---|---|---|---|---|---|---|\n";
    csv << "m,rigid_seconds,atomistic_seconds,rigid_steps,atomistic_steps,rigid_s_per_step,"
           "atomistic_s_per_step,rigid_unconverged,atomistic_unconverged\n";
    for (int m : o.historySizes) {
      const Cell& r = cells[{m, 0}];
      const Cell& a = cells[{m, 1}];
      std::snprintf(line, sizeof line, "| %d | %.4g | %.4g | %.0f | %.0f | %.3g | %.3g | %d/%d |\n",
                    m, r.seconds / r.runs, a.seconds / a.runs, r.steps / r.runs, a.steps / a.runs,
                    r.seconds / std::max(r.steps, 1.0), a.seconds / std::max(a.steps, 1.0),
                    r.unconverged, a.unconverged);
      md << line;
      std::snprintf(line, sizeof line, "%d,%.6g,%.6g,%.2f,%.2f,%.6g,%.6g,%d,%d\n", m,
                    r.seconds / r.runs, a.seconds / a.runs, r.steps / r.runs, a.steps / a.runs,
                    r.seconds / std::max(r.steps, 1.0), a.seconds / std::max(a.steps, 1.0),
                    r.unconverged, a.unconverged);
      csv << line;
    }
    md.close();
    csv.close();
    std::ifstream back(o.out + ".md");
    std::printf(
        "%s", std::string((std::istreambuf_iterator<char>(back)), std::istreambuf_iterator<char>())
                  .c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_rigid: error: %s\n", e.what());
    return 1;
  }
}
