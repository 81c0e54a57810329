#include "src/SopRunConfig.h"

#include <boost/program_options.hpp>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "potentials/InputChecks.h"

#ifndef LANDSCAPE_VERSION
#define LANDSCAPE_VERSION "unknown"
#endif

namespace po = boost::program_options;

namespace landscape {

namespace {

std::array<double, 3> parseVector(const std::string& text) {
  std::array<double, 3> v{};
  std::string s = text;
  for (char& c : s)
    if (c == ',') c = ' ';
  std::istringstream in(s);
  for (double& x : v)
    if (!(in >> x))
      throw std::invalid_argument("expected three numbers x,y,z, found " + quoteInput(text));
  return v;
}

}  // namespace

SopRunConfig parseSopCommandLine(const std::vector<std::string>& arguments) {
  SopRunConfig c;
  SopDynamicsParams& d = c.dynamics;
  std::string backend = "cpu", precision = "double", frictionPreset, generator = "philox",
              direction = "0,0,-1", configFile;
  double friction = 0.0;
  po::options_description general("General");
  general.add_options()("help", "print this help and exit")("version", "print the version")(
      "config", po::value(&configFile), "INI file of these options (key = value)")(
      "pdb", po::value(&c.pdbFile), "PDB file of the protein (C-alpha beads; all-atom reduced)")(
      "backend", po::value(&backend)->default_value("cpu"), "cpu or cuda")(
      "precision", po::value(&precision)->default_value("double"),
      "CUDA arithmetic: double, or float (SOP-GPU's FP32); the CPU always runs double")(
      "replicas", po::value(&d.replicas)->default_value(1),
      "independent trajectories run at once (one random stream per bead of each)")(
      "output", po::value(&c.outputDir)->default_value("sop-out"), "output directory")(
      "quiet", po::bool_switch(&c.quiet), "print only the summary");
  po::options_description model("SOP model, seed 000 Appendix B (kcal/mol, Angstrom)");
  model.add_options()("fene-k", po::value(&c.sop.feneK)->default_value(c.sop.feneK),
                      "FENE spring k (kcal/mol/A^2; 20 = 14 N/m)")(
      "fene-r0", po::value(&c.sop.feneR0)->default_value(c.sop.feneR0), "FENE tolerance R0 (A)")(
      "eps-native", po::value(&c.sop.nativeEpsilon)->default_value(c.sop.nativeEpsilon),
      "native-contact depth eps_n (kcal/mol)")(
      "eps-repulsive", po::value(&c.sop.repulsiveEpsilon)->default_value(c.sop.repulsiveEpsilon),
      "repulsion strength eps_r (kcal/mol)")(
      "sigma", po::value(&c.sop.sigma)->default_value(c.sop.sigma), "repulsion range sigma (A)")(
      "native-cutoff", po::value(&c.sop.nativeCutoff)->default_value(c.sop.nativeCutoff),
      "native contacts: pairs with |i-j| > 2 closer than this in the PDB (A)")(
      "repulsive-cutoff", po::value(&c.sop.repulsiveCutoff)->default_value(c.sop.repulsiveCutoff),
      "the repulsion is cut and force-shifted here (A)")(
      "chain-break", po::value(&c.sop.chainBreakDistance)->default_value(c.sop.chainBreakDistance),
      "consecutive C-alpha atoms farther apart start a new chain (A)");
  po::options_description dyn("Overdamped Langevin dynamics, seed 000 eq 1 (ps, kcal/mol)");
  dyn.add_options()("steps", po::value(&c.steps)->default_value(c.steps), "steps to run")(
      "dt", po::value(&d.langevin.timeStep)->default_value(d.langevin.timeStep), "time step (ps)")(
      "kt", po::value(&d.langevin.kT)->default_value(d.langevin.kT), "kT (kcal/mol; 0.6 ~ 300 K)")(
      "friction", po::value(&friction),
      "friction xi (kcal ps/(mol A^2)); default the sop-gpu preset, 7.196")(
      "friction-preset", po::value(&frictionPreset),
      "sop-gpu (zeta = 50: xi = 7.196) or bulk-water (7.0e5 pN ps/nm: xi = 1007.5)")(
      "seed", po::value(&d.langevin.seed)->default_value(d.langevin.seed), "random seed")(
      "generator", po::value(&generator)->default_value("philox"),
      "philox, hybrid-taus, lagged-fibonacci, ran2, lcg (docs/rng.md)")(
      "skin", po::value(&d.skin)->default_value(d.skin),
      "Verlet-list skin (A): list radius = repulsive-cutoff + skin")(
      "rebuild-interval", po::value(&d.rebuildInterval)->default_value(0),
      "0: rebuild the list when a bead moved > skin/2; N: every N steps (SOP-GPU style)")(
      "max-neighbours", po::value(&d.maxNeighbours)->default_value(0),
      "Verlet-list capacity per bead (0: 1.5 x the largest at the start + 16)")(
      "cuda-graph-steps", po::value(&d.cudaGraphSteps)->default_value(0),
      "CUDA: replay this many steps (even) as one captured CUDA Graph (0: plain launches)");
  po::options_description pull("Pulling (force-extension)");
  pull.add_options()("pull", po::bool_switch(&d.pulling.enabled),
                     "pull one end at constant velocity, the other end fixed")(
      "pull-bead", po::value(&d.pulling.pulledBead)->default_value(-1),
      "pulled bead, 0-based (-1: the last)")("fixed-bead",
                                             po::value(&d.pulling.fixedBead)->default_value(0),
                                             "fixed bead, 0-based (-1: none)")(
      "pull-spring", po::value(&d.pulling.springK)->default_value(d.pulling.springK),
      "cantilever spring (kcal/mol/A^2; x 69.48 = pN/nm)")(
      "pull-speed", po::value(&d.pulling.speed)->default_value(d.pulling.speed),
      "cantilever speed (A/ps; x 1e8 = um/s)");
  po::options_description indent("Indentation (force-indentation, seed 000 section V)");
  indent.add_options()("indent", po::bool_switch(&d.indentation.enabled),
                       "press a spherical tip on a spring into the structure resting on a surface")(
      "tip-radius", po::value(&d.indentation.tipRadius)->default_value(d.indentation.tipRadius),
      "tip radius (A)")(
      "tip-epsilon", po::value(&d.indentation.tipEpsilon)->default_value(d.indentation.tipEpsilon),
      "tip repulsion (kcal/mol)")(
      "tip-sigma", po::value(&d.indentation.tipSigma)->default_value(d.indentation.tipSigma),
      "tip repulsion range (A)")(
      "tip-spring", po::value(&d.indentation.springK)->default_value(d.indentation.springK),
      "cantilever spring (kcal/mol/A^2)")(
      "tip-speed", po::value(&d.indentation.speed)->default_value(d.indentation.speed),
      "cantilever base speed (A/ps)")(
      "tip-friction",
      po::value(&d.indentation.tipFriction)->default_value(d.indentation.tipFriction),
      "tip friction (kcal ps/(mol A^2))")(
      "indent-direction", po::value(&direction)->default_value("0,0,-1"), "direction n (x,y,z)")(
      "tip-gap", po::value(&d.indentation.startGap)->default_value(d.indentation.startGap),
      "start gap between tip and structure (A)")(
      "fixed-layer", po::value(&d.indentation.fixedLayer)->default_value(d.indentation.fixedLayer),
      "beads this close to the bottom are fixed: the surface (A)");
  po::options_description out("Output");
  out.add_options()("output-interval",
                    po::value(&c.outputInterval)->default_value(c.outputInterval),
                    "steps between lines of force_curve_<r>.dat")(
      "frame-interval", po::value(&c.frameInterval)->default_value(0),
      "steps between trajectory frames (0: none)")(
      "trajectory-format", po::value(&c.trajectoryFormat)->default_value("pdb"),
      "pdb: trajectory_<r>.pdb, multi-model; dcd: trajectory_<r>.dcd plus topology.pdb (VMD)")(
      "q-tolerance", po::value(&c.qTolerance)->default_value(c.qTolerance),
      "a native contact counts as formed while r < r0 + this (A)");
  po::options_description all("sop: SOP Langevin dynamics, pulling and indentation (issue 8)");
  all.add(general).add(model).add(dyn).add(pull).add(indent).add(out);

  // Boost.Program_options replaces %value% (and its other %name% tokens) in its messages until
  // none is left, so a value holding "%value%" never ends (fuzz_sop_config): text with a %name%
  // is refused before Boost sees it.
  const auto refusePercent = [](const std::string& text, const std::string& where) {
    for (std::size_t p = text.find('%'); p != std::string::npos; p = text.find('%', p + 1)) {
      std::size_t q = p + 1;
      while (q < text.size() &&
             (std::islower(static_cast<unsigned char>(text[q])) || text[q] == '_'))
        ++q;
      if (q < text.size() && text[q] == '%')
        throw std::runtime_error(where + ": '%name%' is not allowed in options or values, found " +
                                 quoteInput(text));
    }
  };
  for (const std::string& argument : arguments) refusePercent(argument, "command line");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(arguments).options(all).run(), vm);
    if (vm.count("config")) {
      const std::string path = vm["config"].as<std::string>();
      std::ifstream in(path);
      std::string line;
      for (std::size_t number = 1; std::getline(in, line); ++number)
        refusePercent(line.substr(0, line.find('#')), path + ":" + std::to_string(number));
      po::store(po::parse_config_file<char>(path.c_str(), all), vm);
    }
    po::notify(vm);
  } catch (const po::error& e) {
    // Boost quotes the option or value as given, raw bytes of a --config file included.
    throw std::runtime_error("command line: " + printableInput(e.what(), 300));
  }
  if (vm.count("help")) {
    std::ostringstream text;
    text << all << "\nUnits: kcal/mol, Angstrom, ps; forces in kcal/mol/A (x 69.48 = pN).\n";
    c.action = SopRunConfig::Action::Help;
    c.helpText = text.str();
    return c;
  }
  if (vm.count("version")) {
    c.action = SopRunConfig::Action::Version;
    c.helpText = "sop (landscape " LANDSCAPE_VERSION ")\n";
    return c;
  }
  try {
    if (c.pdbFile.empty()) throw std::invalid_argument("--pdb FILE is required");
    c.backend = parseBackend(backend);
    d.precision = parseSopPrecision(precision);
    d.langevin.generator = parseRngKind(generator);
    if (vm.count("friction") && vm.count("friction-preset"))
      throw std::invalid_argument("give --friction or --friction-preset, not both");
    if (vm.count("friction")) d.langevin.friction = friction;
    if (vm.count("friction-preset")) d.langevin.friction = sopFrictionPreset(frictionPreset);
    d.indentation.direction = parseVector(direction);
    if (c.steps < 0) throw std::invalid_argument("--steps must be >= 0");
    if (c.outputInterval < 1) throw std::invalid_argument("--output-interval must be >= 1");
    if (c.frameInterval < 0) throw std::invalid_argument("--frame-interval must be >= 0");
    if (c.trajectoryFormat != "pdb" && c.trajectoryFormat != "dcd")
      throw std::invalid_argument("--trajectory-format must be pdb or dcd, got " +
                                  quoteInput(c.trajectoryFormat));
    if (!(c.qTolerance >= 0)) throw std::invalid_argument("--q-tolerance must be >= 0");
    c.sop.check();
    d.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("invalid parameters: ") + e.what());
  }
  return c;
}

SopRunConfig parseSopCommandLine(int argc, const char* const argv[]) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i] ? argv[i] : "");
  return parseSopCommandLine(arguments);
}

}  // namespace landscape
