#include "src/gmin/GminConfig.h"

#include <fstream>
#include <stdexcept>

#include "src/gmin/GminDataFile.h"
#include "src/gmin/GminOptions.h"

namespace landscape {

BasinHoppingParams gminLj38ExampleParams() {
  BasinHoppingParams p;         // keywords the example leaves out keep these defaults
  p.sloppyRms = 5.0e-3;         // SLOPPYCONV 5.0D-3
  p.tightRms = 1.0e-3;          // TIGHTCONV 1.0D-3
  p.energyDifference = 0.003;   // EDIFF 0.003
  p.sloppyMaxIterations = 600;  // MAXIT 600 500
  p.tightMaxIterations = 500;
  p.saveCount = 2;        // SAVE 2
  p.centre = true;        // CENTRE
  p.dumpInterval = 6000;  // DUMPINT 6000
  p.temperature = 1.0;    // TEMPERATURE 1.0
  p.steps = 5000;         // STEPS 5000 1.0
  p.stepSize = 0.40;      // STEP 0.40 0.51
  p.angularThreshold = 0.51;
  p.newRestartSteps = 40;  // NEWRESTART 40
  p.avoidDistance = 4.0;   // AVOID 4.0 20 F
  p.avoidMaxSaved = 20;
  p.avoidReseeds = false;  // the F of AVOID 4.0 20 F
  return p;
}

BasinHoppingParams gminAmberDefaultParams() {
  BasinHoppingParams p;
  p.steps = 100;
  p.temperature = 0.6;
  p.stepSize = 0.3;
  p.angularThreshold = 0.0;
  p.saveCount = 10;
  p.energyDifference = 0.01;
  p.sloppyRms = 1e-2;
  p.sloppyMaxIterations = 20000;
  p.tightRms = 1e-4;
  p.tightMaxIterations = 50000;
  p.container = false;
  p.centre = true;
  return p;
}

namespace {

// The default job's goal (issue 18): LJ38's global minimum (Cambridge Cluster Database), and a
// step cap that lets every seed reach it (docs/benchmarks.md: walkers to the first hit).
constexpr double kLj38GlobalMinimum = -173.928427;
constexpr long kLj38DefaultJobSteps = 200000;

// LJ38 from a random start with the built-in settings: stop at its global minimum.
void setDefaultJobGoal(const GivenOptions& given, GminConfig& config) {
  const bool lj38 = config.prmtopFile.empty() && config.sopPdbFile.empty() &&
                    config.coordsFile.empty() && config.ljAtoms == 38;
  if (!lj38 || given.has("gmin-data") || given.has("target")) return;
  config.basinHopping.targetEnergy = kLj38GlobalMinimum;
  if (!given.has("steps")) config.basinHopping.steps = kLj38DefaultJobSteps;
}

// --centre and --no-centre: the higher-precedence source wins; both in one source is an error.
void resolveCentre(GivenOptions& given) {
  if (!given.has("centre") || !given.has("no-centre")) return;
  const bool centreOnCommandLine = given.origin("centre").rfind("command line", 0) == 0;
  const bool noCentreOnCommandLine = given.origin("no-centre").rfind("command line", 0) == 0;
  if (centreOnCommandLine == noCentreOnCommandLine)
    throw std::runtime_error(given.origin("no-centre") +
                             ": contradicts centre given in the same place");
  given.remove(centreOnCommandLine ? "no-centre" : "centre");
}

// The parameters together, and the options that go (or do not go) together.
void checkGminConfig(const GminConfig& config) {
  try {
    config.basinHopping.check();
    if (!config.prmtopFile.empty()) config.amber.check();
    if (!config.sopPdbFile.empty()) config.sop.check();
    if (config.langevin.steps > 0) config.langevin.check();
    config.rigidMoves.check();
    if (config.tempering.enabled) config.tempering.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("invalid parameters: ") + e.what());
  }
  if (config.prmtopFile.empty() != config.inpcrdFile.empty())
    throw std::runtime_error("command line: --prmtop and --inpcrd go together");
  if (config.energyOnly && config.prmtopFile.empty() && config.sopPdbFile.empty())
    throw std::runtime_error(
        "command line: --energy-only needs --prmtop and --inpcrd, or --sop-pdb");
  if (!config.sopPdbFile.empty() &&
      (!config.prmtopFile.empty() || !config.coordsFile.empty() || config.ljAtomsGiven))
    throw std::runtime_error(
        "command line: --sop-pdb cannot be combined with --prmtop, --lj or --coords");
  if (!config.prmtopFile.empty() && (!config.coordsFile.empty() || config.ljAtomsGiven))
    throw std::runtime_error("command line: --prmtop cannot be combined with --lj or --coords");
  if (!config.rigidFile.empty() && config.prmtopFile.empty() && config.coordsFile.empty())
    throw std::runtime_error(
        "command line: --rigid needs a starting structure (--prmtop/--inpcrd or --coords) that "
        "fixes the shapes of the bodies");
}

}  // namespace

std::vector<std::string> gminOptionNames() { return gminOptionTable().names(); }

GminConfig parseGminCommandLine(const std::vector<std::string>& arguments) {
  const OptionTable<GminConfig>& table = gminOptionTable();
  GminConfig config;
  GivenOptions given;
  if (!table.read(arguments, given, config, gminKeywordsMarkdown)) return config;

  // The GMIN data file replaces the built-in defaults. Not readGminDataFile(): its check() would
  // run before --config and the command line had their say; the merged parameters are checked
  // once, below.
  if (given.has("gmin-data")) {
    const std::string path = table.checkedSource(given, "gmin-data");
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open GMIN data file");
    config = gminKeywordDefaults();
    applyGminKeywords(in, path, config);  // its messages name the file and line
  }
  // A molecule without a data file starts from the molecular defaults, not LJ38's.
  if ((given.has("prmtop") || given.has("sop-pdb")) && !given.has("gmin-data"))
    config.basinHopping = gminAmberDefaultParams();

  resolveCentre(given);
  table.apply(given, config);
  setDefaultJobGoal(given, config);
  checkGminConfig(config);
  return config;
}

GminConfig parseGminCommandLine(int argc, const char* const argv[]) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i] ? argv[i] : "");
  return parseGminCommandLine(arguments);
}

CheckpointFingerprint gminCheckpointFingerprint(const GminConfig& config,
                                                const GminRunFacts& facts) {
  const BasinHoppingParams& p = config.basinHopping;
  CheckpointFingerprint fingerprint = {
      {"atoms", std::to_string(facts.atoms)},
      {"potential", facts.potential},
      {"dimension", std::to_string(facts.dimension)},
      {"container-radius-used", exactText(facts.containerRadiusUsed)},
      // Basin-hopping settings that no option sets.
      {"step-adjust-factor", exactText(p.stepAdjustFactor)},
      {"container", p.container ? "on" : "off"},
  };
  for (auto& entry : gminOptionTable().fingerprint(config)) fingerprint.push_back(entry);
  return fingerprint;
}

void checkGminCheckpoint(const std::string& path, const CheckpointFingerprint& saved,
                         const CheckpointFingerprint& current, const GminConfig& config) {
  CheckpointFingerprint upgraded =
      gminOptionTable().upgradeFingerprint(saved, config, GminConfig{});
  // The first checkpoints wrote an empty --coords as "random".
  for (auto& [key, value] : upgraded)
    if (key == "coords" && value == "random") value = "none";
  checkFingerprint(path, upgraded, current);
}

}  // namespace landscape
