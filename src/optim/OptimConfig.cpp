#include "src/optim/OptimConfig.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "src/optim/OptimOdataFile.h"
#include "src/optim/OptimOptions.h"

namespace landscape {

void OptimSettings::applySeed() {
  network.alignment.seed = seed;
  connect.dneb.alignment.seed = seed;
  connect.transitionStateSearch.seed = seed;
}

void OptimSettings::check() const {
  connect.check();
  try {
    network.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("network: ") + e.what());
  }
  try {
    endpointMinimiser.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("endpoint minimiser: ") + e.what());
  }
  characterisation.check();
}

void raiseDnebRandomOrientations(DnebParams& dneb, int n) {
  dneb.alignment.randomOrientations =
      std::max(n, DnebParams::thoroughAlignment().randomOrientations);
}

OptimSettings optimKeywordDefaults() {
  OptimSettings s;
  // OPTIM's switches are off unless their keyword is present.
  s.network.alignment.permutations = false;
  s.connect.dneb.alignment.permutations = false;
  s.reoptimiseEndpoints = false;
  s.endpointMinimiser = s.connect.descent.minimiser;
  s.applySeed();
  return s;
}

OptimSettings optimLj38ExampleSettings() {
  OptimSettings s;
  ConnectParams& c = s.connect;
  c.maxCycles = 100;  // NEWCONNECT 100 1 20.0 20.0 30 0.0 0.025
  c.maxTriesPerPair = 1;
  c.dneb.imageDensity = 20.0;
  c.dneb.iterationDensity = 20.0;
  c.dneb.maxImages = 30;
  c.dneb.rmsTolerance = 0.025;
  c.firstImages = 50;  // NEWNEB 50 500 0.025
  c.firstIterations = 500;
  c.dneb.springConstant = 10.0;             // NEBK 10.0
  c.distancePower = 1.0;                    // DIJKSTRA 1
  s.network.alignment.permutations = true;  // PERMDIST 0.01D0
  c.dneb.alignment.permutations = true;
  // RANROT 5; the DNEB keeps its thorough endpoint alignment (DnebParams::thoroughAlignment).
  s.network.alignment.randomOrientations = 5;
  s.network.energyTolerance = 1e-6;   // EDIFFTOL 1.0D-6
  s.network.geometryTolerance = 0.2;  // GEOMDIFFTOL 0.2
  LbfgsParams& m = c.descent.minimiser;
  m.rmsTolerance = 1e-6;   // BFGSMIN 1.0D-6
  m.historySize = 10;      // UPDATES 10 10
  m.maxIterations = 5000;  // BFGSSTEPS 5000
  m.maxStep = 0.2;         // MAXBFGS 0.2 0.2
  c.transitionStateSearch.tangentSpace.historySize = 10;
  c.transitionStateSearch.tangentSpace.maxStep = 0.2;
  c.descent.pushoff = 0.02;      // PUSHOFF 0.02
  s.reoptimiseEndpoints = true;  // REOPTIMISEENDPOINTS
  s.endpointMinimiser = m;
  c.transitionStateSearch.maxIterations = 200;                    // STEPS 200
  c.transitionStateSearch.rayleighRitz.lbfgs.maxIterations = 50;  // BFGSTS 50 3 25 0.0001
  c.transitionStateSearch.tangentIterationsBefore = 3;
  c.transitionStateSearch.tangentIterationsAfter = 25;
  c.transitionStateSearch.rayleighRitz.lbfgs.rmsTolerance = 1e-4;
  c.transitionStateSearch.initialUphillStep = 0.1;  // MAXSTEP 0.1
  c.transitionStateSearch.maxUphillStep = 0.2;      // MAXMAX 0.2
  c.transitionStateSearch.trustRatio = 0.2;         // TRAD 0.2
  s.applySeed();
  return s;
}

OptimSettings optimAmberDefaultSettings() {
  OptimSettings s;  // hybrid EF, Rayleigh-Ritz and L-BFGS: the library defaults of seed 001 3.3
  ConnectParams& c = s.connect;
  c.maxCycles = 50;  // NEWCONNECT 50 3 4.0 30.0 30
  c.maxTriesPerPair = 3;
  c.dneb.imageDensity = 4.0;  // images per Angstrom of aligned endpoint distance
  c.dneb.iterationDensity = 30.0;
  c.dneb.maxImages = 30;
  c.firstImages = 10;  // seed 001 section 3.3: 10 images, 300 iterations, m = 4
  c.firstIterations = 300;
  c.dneb.rmsTolerance = 0.01;    // kcal/mol/A
  c.dneb.springConstant = 10.0;  // kcal/mol/A^2
  // An image 100 kcal/mol below both endpoints is a hydroxyl hydrogen falling onto an oxygen
  // (no Lennard-Jones repulsion on AMBER's HO), not an intermediate minimum.
  c.dneb.coldFusionDrop = 100.0;
  // Chiral molecules: no inversion; permutations only within perm.allow groups (optim_main).
  for (AlignmentParams* a : {&s.network.alignment, &c.dneb.alignment}) {
    a->inversion = false;
    a->permutations = false;
  }
  s.network.energyTolerance = 1e-4;   // EDIFFTOL, kcal/mol
  s.network.geometryTolerance = 0.1;  // GEOMDIFFTOL, Angstrom
  LbfgsParams& m = c.descent.minimiser;
  m.rmsTolerance = 1e-5;  // BFGSMIN, kcal/mol/A
  m.historySize = 10;
  m.maxIterations = 20000;
  m.maxStep = 0.4;           // Angstrom
  c.descent.pushoff = 0.05;  // Angstrom
  s.reoptimiseEndpoints = true;
  s.endpointMinimiser = m;
  // The Hessian of a stationary point is a finite-difference one (NumericalHessian), mass-weighted
  // with the prmtop's masses (OptimSystem): 6N gradient calls and one Cholesky factorisation for
  // the log product at any size; all 3N eigenvalues (path.info) up to the spectrum cap.
  s.characterisation.pointGroup.distanceTolerance = 1e-2;  // Angstrom
  s.applySeed();
  return s;
}

namespace {

// The molecule's options together: a start (--start, odata POINTS or --inpcrd) and --finish, no
// --lj, and permutations only with the groups of a perm.allow file.
void checkMoleculeOptions(OptimConfig& config, const GivenOptions& given) {
  if (given.has("lj"))
    throw std::runtime_error(given.origin("lj") +
                             " cannot be combined with --prmtop (the topology gives the atoms)");
  if (config.finishFile.empty())
    throw std::runtime_error("command line: --prmtop needs --finish FILE for the second endpoint");
  if (config.startFile.empty() && config.odataPoints.empty() && config.inpcrdFile.empty())
    throw std::runtime_error(
        "command line: --prmtop needs --start FILE or --inpcrd FILE for the first endpoint");
  try {
    config.amber.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("command line: AMBER-GB parameters: ") + e.what());
  }
  // Proteins are chiral: a mirror image is another molecule, never the same minimum.
  AlignmentParams& network = config.settings.network.alignment;
  AlignmentParams& dneb = config.settings.connect.dneb.alignment;
  network.inversion = dneb.inversion = false;
  if (!config.permAllowFile.empty()) {
    // A perm.allow file asks for permutations, unless --permutations no says otherwise.
    if (!given.has("permutations")) network.permutations = dneb.permutations = true;
  } else if (network.permutations) {
    const std::string where =
        given.has("permutations") ? given.origin("permutations") : config.odataFile + ": PERMDIST";
    throw std::runtime_error(where +
                             ": permutations of a molecule's atoms need their groups, "
                             "--perm-allow FILE (OPTIM's perm.allow)");
  }
}

// The endpoints of a Lennard-Jones run and the options that need a molecule.
void checkClusterOptions(const OptimConfig& config, const GivenOptions& given) {
  for (const char* name : {"inpcrd", "igb", "saltcon", "rgbmax", "perm-allow"})
    if (given.has(name))
      throw std::runtime_error(given.origin(name) + " applies to molecules and needs --prmtop");
  if (config.startFile.empty() != config.finishFile.empty() && config.odataPoints.empty())
    throw std::runtime_error(config.startFile.empty()
                                 ? "command line: --finish needs --start (or an odata POINTS "
                                   "block) for the first endpoint"
                                 : "command line: --start needs --finish for the second endpoint");
  if (!config.odataPoints.empty() && config.finishFile.empty())
    throw std::runtime_error(config.odataFile +
                             ": its POINTS block is the first endpoint; give the second with "
                             "--finish FILE");
  if (config.builtInExample() && config.ljAtoms != 0 && config.ljAtoms != 7)
    throw std::runtime_error("command line: --lj " + std::to_string(config.ljAtoms) +
                             " needs --start and --finish (the built-in example is LJ7)");
}

}  // namespace

std::vector<std::string> optimOptionNames() { return optimOptionTable().names(); }

OptimConfig parseOptimCommandLine(const std::vector<std::string>& arguments) {
  const OptionTable<OptimConfig>& table = optimOptionTable();
  OptimConfig config;
  GivenOptions given;
  if (!table.read(arguments, given, config, odataKeywordsMarkdown)) return config;

  // Molecules start from their own defaults (unless an odata file gives its keywords).
  if (given.has("prmtop") && !given.has("odata")) config.settings = optimAmberDefaultSettings();
  // The odata file replaces the built-in defaults. Not readOdataFile(): its check() would run
  // before --config and the command line had their say; the merged parameters are checked once,
  // below.
  if (given.has("odata")) {
    const std::string path = table.checkedSource(given, "odata");
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open OPTIM odata file");
    config.settings = optimKeywordDefaults();
    config.odataFile = path;
    applyOdataKeywords(in, path, config);  // its messages name the file and line
  }
  table.apply(given, config);

  if (config.isMolecule())
    checkMoleculeOptions(config, given);
  else
    checkClusterOptions(config, given);
  config.settings.applySeed();
  try {
    config.settings.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("invalid parameters: ") + e.what());
  }
  return config;
}

OptimConfig parseOptimCommandLine(int argc, const char* const argv[]) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i] ? argv[i] : "");
  return parseOptimCommandLine(arguments);
}

}  // namespace landscape
