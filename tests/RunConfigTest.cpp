// parseGminCommandLine (src/gmin/GminOptions.h): the no-argument defaults are GMIN's LJ38 example;
// command line > --config > --gmin-data > defaults; --help documents every option; bad input is a
// one-line std::runtime_error naming the option, or the file and line.
#include <gtest/gtest.h>

#include "tests/TempFile.h"

#include <cstdlib>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "src/gmin/GminOptions.h"
#include "tests/TestData.h"

namespace {

using namespace landscape;
using Args = std::vector<std::string>;

// Expects parseGminCommandLine(args) to throw std::runtime_error with a one-line message that
// contains every one of `pieces`.
void expectError(const Args& args, const std::vector<std::string>& pieces) {
  try {
    parseGminCommandLine(args);
    ADD_FAILURE() << "no error for " << ::testing::PrintToString(args);
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    for (const auto& piece : pieces)
      EXPECT_NE(message.find(piece), std::string::npos)
          << "'" << piece << "' not in: " << message << "  (args " << ::testing::PrintToString(args)
          << ")";
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

// The options the brief of the gmin command promises (a copy, so that dropping one fails here).
const std::vector<std::string> kPromisedOptions = {"lj",
                                                   "coords",
                                                   "steps",
                                                   "temperature",
                                                   "step-size",
                                                   "angular-threshold",
                                                   "save",
                                                   "ediff",
                                                   "target",
                                                   "seed",
                                                   "output",
                                                   "backend",
                                                   "lbfgs-m",
                                                   "max-step",
                                                   "max-rise",
                                                   "sloppy-rms",
                                                   "tight-rms",
                                                   "max-iterations",
                                                   "tight-max-iterations",
                                                   "new-restart",
                                                   "avoid-distance",
                                                   "avoid-max",
                                                   "avoid-reseed",
                                                   "lbfgs-backend",
                                                   "langevin-steps",
                                                   "no-centre",
                                                   "container-radius",
                                                   "dump-interval",
                                                   "resume",
                                                   "quiet",
                                                   "help",
                                                   "version",
                                                   "config",
                                                   "gmin-data"};

// True when the help text has a line that starts with "  --name" as a whole word.
bool listsOption(const std::string& help, const std::string& name) {
  const std::string start = "\n  --" + name;
  for (auto at = help.find(start); at != std::string::npos; at = help.find(start, at + 1)) {
    const char next = at + start.size() < help.size() ? help[at + start.size()] : '\n';
    if (next == ' ' || next == ',' || next == '\n') return true;
  }
  return false;
}

}  // namespace

TEST(RunConfig, NoArgumentsGiveGminsLj38Example) {
  const GminConfig c = parseGminCommandLine(Args{});
  EXPECT_EQ(c.action, GminConfig::Action::Run);
  EXPECT_EQ(c.ljAtoms, 38u);
  EXPECT_FALSE(c.ljAtomsGiven);
  EXPECT_TRUE(c.coordsFile.empty());  // random start
  EXPECT_EQ(c.backend, Backend::Cpu);
  EXPECT_EQ(c.outputDir, "gmin-out");
  EXPECT_FALSE(c.quiet);
  EXPECT_TRUE(c.warnings.empty());

  const BasinHoppingParams& p = c.basinHopping;
  EXPECT_EQ(p.sloppyRms, 5.0e-3);         // SLOPPYCONV 5.0D-3
  EXPECT_EQ(p.tightRms, 1.0e-3);          // TIGHTCONV 1.0D-3
  EXPECT_EQ(p.energyDifference, 0.003);   // EDIFF 0.003
  EXPECT_EQ(p.sloppyMaxIterations, 600);  // MAXIT 600 500
  EXPECT_EQ(p.tightMaxIterations, 500);
  EXPECT_EQ(p.saveCount, 2);        // SAVE 2
  EXPECT_TRUE(p.centre);            // CENTRE
  EXPECT_EQ(p.dumpInterval, 6000);  // DUMPINT 6000
  EXPECT_EQ(p.temperature, 1.0);    // TEMPERATURE 1.0
  // STEPS 5000 1.0 of the example; the default job caps each walker at 200000 steps instead and
  // stops at the LJ38 global minimum (Cambridge Cluster Database).
  EXPECT_EQ(p.steps, 200000);
  EXPECT_EQ(p.stepSize, 0.40);      // STEP 0.40 0.51
  EXPECT_EQ(p.angularThreshold, 0.51);
  EXPECT_EQ(p.newRestartSteps, 40);  // NEWRESTART 40
  EXPECT_EQ(p.avoidDistance, 4.0);   // AVOID 4.0 20 F
  EXPECT_EQ(p.avoidMaxSaved, 20);
  EXPECT_FALSE(p.avoidReseeds);
  EXPECT_EQ(p.targetEnergy, -173.928427);
  EXPECT_EQ(c.walkers, 0);  // automatic: one per core on the CPU
  // Another cluster, a start file or a target of one's own: no default goal.
  EXPECT_FALSE(parseGminCommandLine({"--lj", "13"}).basinHopping.targetEnergy.has_value());
  EXPECT_EQ(parseGminCommandLine({"--lj", "13"}).basinHopping.steps, 5000);
  EXPECT_EQ(parseGminCommandLine({"--target", "-170"}).basinHopping.steps, 5000);
  EXPECT_EQ(parseGminCommandLine({"--steps", "10"}).basinHopping.targetEnergy, -173.928427);
  // Keywords the example leaves out keep the BasinHoppingParams defaults.
  const BasinHoppingParams library;
  EXPECT_EQ(p.seed, library.seed);
  EXPECT_EQ(p.targetAcceptance, library.targetAcceptance);
  EXPECT_EQ(p.stepAdjustInterval, library.stepAdjustInterval);
  EXPECT_EQ(p.containerRadius, library.containerRadius);
  EXPECT_EQ(p.lbfgs.historySize, library.lbfgs.historySize);
  EXPECT_EQ(p.lbfgs.maxStep, library.lbfgs.maxStep);
  EXPECT_EQ(p.lbfgs.maxRise, library.lbfgs.maxRise);
  // ...and the library defaults themselves are not the example's.
  EXPECT_NE(library.saveCount, 2);
  EXPECT_NE(library.sloppyRms, 5.0e-3);

  // argc/argv gives the same.
  const char* argv[] = {"gmin"};
  const GminConfig fromArgv = parseGminCommandLine(1, argv);
  EXPECT_EQ(fromArgv.basinHopping.saveCount, 2);
  EXPECT_EQ(fromArgv.basinHopping.sloppyRms, 5.0e-3);
}

TEST(RunConfig, CommandLineOverridesEveryField) {
  TempFile coords("1 2 3\n4 5 6\n", ".coords");
  const GminConfig c = parseGminCommandLine(Args{"--lj",
                                                 "13",
                                                 "--coords",
                                                 coords.path(),
                                                 "--backend",
                                                 "cuda",
                                                 "--steps",
                                                 "100",
                                                 "--temperature",
                                                 "0.8",
                                                 "--step-size=0.3",
                                                 "--angular-threshold",
                                                 "0",
                                                 "--acceptance",
                                                 "0.4",
                                                 "--step-adjust-interval",
                                                 "20",
                                                 "--save",
                                                 "5",
                                                 "--ediff",
                                                 "1D-4",
                                                 "--target",
                                                 "-44.326801",
                                                 "--seed",
                                                 "77",
                                                 "--new-restart",
                                                 "0",
                                                 "--avoid-distance",
                                                 "0",
                                                 "--avoid-max",
                                                 "0",
                                                 "--avoid-reseed",
                                                 "yes",
                                                 "--no-centre",
                                                 "--container-radius",
                                                 "3.5",
                                                 "--sloppy-rms",
                                                 "2.5D-3",
                                                 "--tight-rms",
                                                 "1e-6",
                                                 "--max-iterations",
                                                 "300",
                                                 "--tight-max-iterations",
                                                 "900",
                                                 "--lbfgs-m",
                                                 "7",
                                                 "--max-step",
                                                 "0.2",
                                                 "--max-rise",
                                                 "1e-5",
                                                 "--initial-guess",
                                                 "0.05",
                                                 "--output",
                                                 "out/lj13",
                                                 "--dump-interval",
                                                 "50",
                                                 "--quiet"});
  EXPECT_EQ(c.ljAtoms, 13u);
  EXPECT_TRUE(c.ljAtomsGiven);
  EXPECT_EQ(c.coordsFile, coords.path());
  EXPECT_EQ(c.backend, Backend::Cuda);
  const BasinHoppingParams& p = c.basinHopping;
  EXPECT_EQ(p.steps, 100);
  EXPECT_EQ(p.temperature, 0.8);
  EXPECT_EQ(p.stepSize, 0.3);
  EXPECT_EQ(p.angularThreshold, 0.0);
  EXPECT_EQ(p.targetAcceptance, 0.4);
  EXPECT_EQ(p.stepAdjustInterval, 20);
  EXPECT_EQ(p.saveCount, 5);
  EXPECT_EQ(p.energyDifference, 1e-4);
  EXPECT_EQ(p.targetEnergy, -44.326801);  // a negative value after a space
  EXPECT_EQ(p.seed, 77u);
  EXPECT_EQ(p.newRestartSteps, 0);
  EXPECT_EQ(p.avoidDistance, 0.0);
  EXPECT_EQ(p.avoidMaxSaved, 0);
  EXPECT_TRUE(p.avoidReseeds);
  EXPECT_FALSE(p.centre);
  EXPECT_EQ(p.containerRadius, 3.5);
  EXPECT_EQ(p.sloppyRms, 2.5e-3);
  EXPECT_EQ(p.tightRms, 1e-6);
  EXPECT_EQ(p.sloppyMaxIterations, 300);
  EXPECT_EQ(p.tightMaxIterations, 900);
  EXPECT_EQ(p.lbfgs.historySize, 7);
  EXPECT_EQ(p.lbfgs.maxStep, 0.2);
  EXPECT_EQ(p.lbfgs.maxRise, 1e-5);
  EXPECT_EQ(p.lbfgs.initialGuess, 0.05);
  EXPECT_EQ(c.outputDir, "out/lj13");
  EXPECT_EQ(p.dumpInterval, 50);
  EXPECT_TRUE(c.quiet);

  EXPECT_EQ(parseGminCommandLine(Args{"--target=-173.9"}).basinHopping.targetEnergy, -173.9);
}

TEST(RunConfig, ConfigFileIsBelowTheCommandLine) {
  TempFile ini(
      "# a gmin config\n"
      "\n"
      "steps = 100      # trailing comment\n"
      "temperature=0.7\n"
      "  save =  4  \n"
      "quiet = true\n"
      "no-centre = yes\n"
      "backend = cuda\n");
  const GminConfig c =
      parseGminCommandLine(Args{"--config", ini.path(), "--steps", "250", "--backend", "cpu"});
  EXPECT_EQ(c.basinHopping.steps, 250);        // command line wins
  EXPECT_EQ(c.backend, Backend::Cpu);          // command line wins
  EXPECT_EQ(c.basinHopping.temperature, 0.7);  // from the file
  EXPECT_EQ(c.basinHopping.saveCount, 4);      // from the file
  EXPECT_TRUE(c.quiet);
  EXPECT_FALSE(c.basinHopping.centre);
  // Everything else keeps the LJ38 defaults.
  EXPECT_EQ(c.basinHopping.sloppyRms, 5.0e-3);
  EXPECT_EQ(c.basinHopping.newRestartSteps, 40);

  // The order of --config among the options does not matter.
  const GminConfig d = parseGminCommandLine(Args{"--steps", "250", "--config", ini.path()});
  EXPECT_EQ(d.basinHopping.steps, 250);

  // A higher source may switch centring back on.
  EXPECT_TRUE(parseGminCommandLine(Args{"--config", ini.path(), "--centre"}).basinHopping.centre);
  EXPECT_FALSE(parseGminCommandLine(Args{"--no-centre"}).basinHopping.centre);
}

TEST(RunConfig, GminDataIsBelowConfigAndCommandLine) {
  TempFile data("STEPS 300\nTEMPERATURE 0.5\nSAVE 3\nSORT\nEDIFF 0.01\n", ".data");
  TempFile ini("temperature = 0.9\nsave = 6\n");
  const GminConfig c =
      parseGminCommandLine(Args{"--gmin-data", data.path(), "--config", ini.path(), "--save", "8"});
  EXPECT_EQ(c.basinHopping.steps, 300);  // data file
  EXPECT_EQ(c.basinHopping.energyDifference, 0.01);
  EXPECT_EQ(c.basinHopping.temperature, 0.9);  // config over data file
  EXPECT_EQ(c.basinHopping.saveCount, 8);      // command line over both
  // The data file replaces the LJ38-example defaults: switches it does not name are off.
  EXPECT_FALSE(c.basinHopping.centre);
  EXPECT_EQ(c.basinHopping.newRestartSteps, 0);
  EXPECT_EQ(c.basinHopping.avoidDistance, 0.0);
  EXPECT_EQ(c.basinHopping.sloppyRms, BasinHoppingParams{}.sloppyRms);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find(data.path() + ":4: GMIN keyword SORT ignored"), std::string::npos)
      << c.warnings[0];

  // gmin-data may also be named in the config file.
  TempFile iniWithData("gmin-data = " + data.path() + "\n");
  EXPECT_EQ(parseGminCommandLine(Args{"--config", iniWithData.path()}).basinHopping.steps, 300);
}

TEST(RunConfig, HelpListsEveryOptionWithUnitsAndDefaults) {
  const GminConfig c = parseGminCommandLine(Args{"--help"});
  EXPECT_EQ(c.action, GminConfig::Action::Help);
  const std::string& help = c.helpText;
  for (const auto& name : kPromisedOptions)
    EXPECT_TRUE(listsOption(help, name)) << "--" << name << " missing";
  for (const auto& name : gminOptionNames())
    EXPECT_TRUE(listsOption(help, name)) << "--" << name << " missing";
  for (const auto& name : kPromisedOptions) {
    bool listed = false;
    for (const auto& known : gminOptionNames()) listed = listed || known == name;
    EXPECT_TRUE(listed) << name;
  }
  // Units and defaults.
  for (const char* piece : {"reduced Lennard-Jones units",
                            "epsilon",
                            "sigma",
                            "./gmin-out",
                            "LJ38",
                            "(default: 5000; 200000 for LJ38",
                            "(default: 38)",
                            "(default: 0.005)",
                            "(default: 0.001)",
                            "(default: 0.003)",
                            "(default: 0.4)",
                            "(default: 0.51)",
                            "(default: 600)",
                            "(default: 500)",
                            "(default: 40)",
                            "(default: 6000)",
                            "(default: cpu)",
                            "(default: none)",
                            "(default: ./gmin-out)",
                            "kT (epsilon)",
                            "(sigma)",
                            "(epsilon/sigma)"})
    EXPECT_NE(help.find(piece), std::string::npos) << "'" << piece << "' not in help:\n" << help;

  EXPECT_EQ(parseGminCommandLine(Args{"-h"}).action, GminConfig::Action::Help);
  // --help wins over everything else, even options that would fail.
  EXPECT_EQ(parseGminCommandLine(Args{"--steps", "abc", "--help"}).action,
            GminConfig::Action::Help);

  const GminConfig v = parseGminCommandLine(Args{"--version"});
  EXPECT_EQ(v.action, GminConfig::Action::Version);
  EXPECT_NE(v.helpText.find("landscape"), std::string::npos);
}

TEST(RunConfig, BadCommandLineValuesNameTheOption) {
  expectError({"--steps", "abc"}, {"command line: --steps", "'abc'"});
  expectError({"--steps", "-5"}, {"command line: --steps", "'-5'"});
  expectError({"--steps"}, {"--steps"});  // missing value
  expectError({"--temperature", "-1"}, {"command line: --temperature", "> 0", "'-1'"});
  expectError({"--temperature", "0"}, {"command line: --temperature"});
  expectError({"--temperature", "nan"}, {"command line: --temperature", "'nan'"});
  expectError({"--backend", "gpu"}, {"command line: --backend", "'gpu'"});
  expectError({"--lj", "1"}, {"command line: --lj", ">= 2"});
  expectError({"--lj", "38.5"}, {"command line: --lj", "'38.5'"});
  expectError({"--seed", "-1"}, {"command line: --seed", "'-1'"});
  expectError({"--acceptance", "1.5"}, {"command line: --acceptance", "(0, 1)"});
  expectError({"--save", "0"}, {"command line: --save"});
  expectError({"--lbfgs-m", "0"}, {"command line: --lbfgs-m"});
  expectError({"--output", ""}, {"command line: --output"});
  expectError({"--steps", "10", "--steps", "20"}, {"--steps"});
  expectError({"--frobnicate"}, {"command line: unknown option", "--frobnicate"});
  expectError({"--temp", "1"}, {"unknown option", "--temp"});  // no abbreviations
  expectError({"--steps", "10", "stray"}, {"command line: unexpected argument 'stray'"});
  expectError({"--quiet=yes"}, {"--quiet"});
  expectError({"--centre", "--no-centre"}, {"no-centre", "contradicts"});
}

TEST(RunConfig, MissingFilesNameOptionAndFile) {
  const std::string missing =
      (std::filesystem::temp_directory_path() / "landscape-no-such-file-3b7e").string();
  expectError({"--coords", missing}, {"command line: --coords", missing});
  expectError({"--config", missing}, {"command line: --config", missing});
  expectError({"--gmin-data", missing}, {"command line: --gmin-data", missing});
  const std::string directory = std::filesystem::temp_directory_path().string();
  expectError({"--coords", directory}, {"command line: --coords", "not a regular file"});
}

TEST(RunConfig, ConfigFileErrorsNameFileAndLine) {
  {
    TempFile ini("steps = 10\n\nsteps 100\n");
    expectError({"--config", ini.path()}, {ini.path() + ":3: expected 'key = value'"});
  }
  {
    TempFile ini("# ok\ntempreature = 1.0\n");
    expectError({"--config", ini.path()}, {ini.path() + ":2: unknown option 'tempreature'"});
  }
  {
    TempFile ini("steps = 10\ntemperature = -2\n");
    expectError({"--config", ini.path()}, {ini.path() + ":2: temperature", "'-2'"});
  }
  {
    TempFile ini("steps = 10\nsteps = 20\n");
    expectError({"--config", ini.path()}, {ini.path() + ":2: 'steps' is already set on line 1"});
  }
  {
    TempFile ini("[gmin]\nsteps = 10\n");
    expectError({"--config", ini.path()}, {ini.path() + ":1: sections are not supported"});
  }
  {
    TempFile ini("help = true\n");
    expectError({"--config", ini.path()},
                {ini.path() + ":1: unknown option 'help'", "command line only"});
  }
  {
    TempFile ini("steps =\n");
    expectError({"--config", ini.path()}, {ini.path() + ":1: steps: expected a value"});
  }
  {
    TempFile ini("quiet = maybe\n");
    expectError({"--config", ini.path()}, {ini.path() + ":1: quiet", "'maybe'"});
  }
  {
    TempFile ini("centre = true\nno-centre = true\n");
    expectError({"--config", ini.path()}, {ini.path() + ":2: no-centre", "contradicts"});
  }
  {
    // A bad value in the file that the command line overrides is never used.
    TempFile ini("steps = abc\n");
    EXPECT_EQ(parseGminCommandLine(Args{"--config", ini.path(), "--steps", "7"}).basinHopping.steps,
              7);
  }
}

TEST(RunConfig, GminDataErrorsKeepTheirLine) {
  TempFile data("SAVE 2\nTEMPERATURE 1.0\nWIBBLE 3\n", ".data");
  expectError({"--gmin-data", data.path()}, {data.path() + ":3: unknown GMIN keyword 'WIBBLE'"});
}

TEST(RunConfig, ParameterCheckFailuresAreOneLine) {
  // Each value passes on its own; together they fail BasinHoppingParams::check().
  expectError({"--avoid-distance", "1.0", "--avoid-max", "0"}, {"invalid parameters", "AVOID"});
}

// The ready-to-run examples in inputs/ describe the same run as `gmin` with no arguments.
TEST(RunConfig, InputsExamplesMatchTheDefaults) {
  const char* env = std::getenv("LANDSCAPE_SOURCE_DIR");
  const std::string inputs = std::string(env && *env ? env : LANDSCAPE_SOURCE_DIR) + "/inputs/";
  const BasinHoppingParams d = parseGminCommandLine(Args{}).basinHopping;
  for (const Args& args : {Args{"--config", inputs + "lj38.cfg"}, Args{"--gmin-data", inputs + "lj38.data"}}) {
    const GminConfig c = parseGminCommandLine(args);
    const BasinHoppingParams& p = c.basinHopping;
    EXPECT_EQ(c.ljAtoms, 38u);
    EXPECT_TRUE(c.warnings.empty()) << ::testing::PrintToString(c.warnings);
    EXPECT_EQ(p.steps, d.steps);
    EXPECT_EQ(p.temperature, d.temperature);
    EXPECT_EQ(p.stepSize, d.stepSize);
    EXPECT_EQ(p.angularThreshold, d.angularThreshold);
    EXPECT_EQ(p.saveCount, d.saveCount);
    EXPECT_EQ(p.energyDifference, d.energyDifference);
    EXPECT_EQ(p.sloppyRms, d.sloppyRms);
    EXPECT_EQ(p.tightRms, d.tightRms);
    EXPECT_EQ(p.sloppyMaxIterations, d.sloppyMaxIterations);
    EXPECT_EQ(p.tightMaxIterations, d.tightMaxIterations);
    EXPECT_EQ(p.centre, d.centre);
    EXPECT_EQ(p.newRestartSteps, d.newRestartSteps);
    EXPECT_EQ(p.avoidDistance, d.avoidDistance);
    EXPECT_EQ(p.avoidMaxSaved, d.avoidMaxSaved);
    EXPECT_EQ(p.avoidReseeds, d.avoidReseeds);
    EXPECT_EQ(p.seed, d.seed);
  }
}

// The checkpoint fingerprint comes from the option table; a checkpoint written before (with the
// hand-made list of the first version, its own key names) still resumes.
TEST(RunConfig, CheckpointFingerprintFromTheTableReadsFirstVersionCheckpoints) {
  const GminConfig c = parseGminCommandLine(Args{"--lj", "13", "--seed", "4"});
  const GminRunFacts facts{13, "Lennard-Jones 13 atoms (cpu)", 39, 3.25};
  const CheckpointFingerprint current = gminCheckpointFingerprint(c, facts);
  EXPECT_NO_THROW(checkGminCheckpoint("cp", current, current, c));
  bool hasLbfgsM = false, hasIgb = false;
  for (const auto& [key, value] : current) {
    hasLbfgsM = hasLbfgsM || (key == "lbfgs-m" && value == "4");
    hasIgb = hasIgb || key == "igb";
  }
  EXPECT_TRUE(hasLbfgsM);
  EXPECT_FALSE(hasIgb);  // AMBER's options are not in effect for a cluster

  // What gmin wrote for the same run before the fingerprint came from the table.
  CheckpointFingerprint first = {
      {"atoms", "13"}, {"potential", facts.potential}, {"dimension", "39"}, {"backend", "cpu"},
      {"lbfgs-backend", "cpu"}, {"coords", "random"}, {"prmtop", "none"}, {"inpcrd", "none"},
      {"sop-pdb", "none"}, {"rigid", "none"}, {"container-radius-used", "3.25"},
      {"langevin-steps", "0"}, {"langevin-kT", "1"}, {"langevin-time-step", "0.001"},
      {"langevin-friction", "1"}, {"group-rotation", "0"}, {"group-rotation-angle", "0"},
      {"stereo-checks", "off"}, {"rigid-translation", "0"}, {"rigid-rotation", "0"},
      {"rigid-probability", "1"}};
  for (const auto& entry : basinHoppingFingerprint(c.basinHopping)) first.push_back(entry);
  EXPECT_NO_THROW(checkGminCheckpoint("cp", first, current, c));

  // A different option is still a difference, named by today's option.
  const GminConfig other =
      parseGminCommandLine(Args{"--lj", "13", "--seed", "4", "--lbfgs-m", "5"});
  try {
    checkGminCheckpoint("cp", first, gminCheckpointFingerprint(other, facts), other);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("lbfgs-m = '4', this run has lbfgs-m = '5'"),
              std::string::npos)
        << e.what();
  }
}
