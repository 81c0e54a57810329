// The OPTIM odata reader (src/optim/OptimOdataFile) and optim's command line (src/optim/OptimOptions): keyword
// table and docs/optim-keywords.md kept equal, the wales-group LJ38 odata mapped onto the
// parameter structs, and one-line errors naming the file, line and keyword or option.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "src/optim/OptimOdataFile.h"
#include "src/optim/OptimOptions.h"
#include "tests/TempFile.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

std::string sourceDir() {
  if (const char* env = std::getenv("LANDSCAPE_SOURCE_DIR"); env != nullptr && *env != '\0')
    return env;
  return LANDSCAPE_SOURCE_DIR;
}

OptimConfig applied(const std::string& text) {
  OptimConfig config;
  config.settings = optimKeywordDefaults();
  std::istringstream in(text);
  applyOdataKeywords(in, "odata", config);
  return config;
}

// The message of the std::runtime_error that `f` throws; fails the test if none is thrown.
template <typename F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected std::runtime_error";
  return "";
}

void expectOneLineContaining(const std::string& message, const std::vector<std::string>& pieces) {
  for (const auto& piece : pieces)
    EXPECT_NE(message.find(piece), std::string::npos) << "'" << piece << "' not in: " << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// Regenerate docs/optim-keywords.md after editing the table:
// LANDSCAPE_REGENERATE_DOCS=1 landscape_tests --gtest_filter=OdataFile.DocMatchesTable
TEST(OdataFile, DocMatchesTable) {
  const std::filesystem::path doc =
      std::filesystem::path(sourceDir()) / "docs" / "optim-keywords.md";
  const std::string rendered = odataKeywordsMarkdown();
  if (const char* regenerate = std::getenv("LANDSCAPE_REGENERATE_DOCS");
      regenerate != nullptr && std::string(regenerate) == "1") {
    std::ofstream(doc, std::ios::binary) << rendered;
  }
  std::ifstream in(doc, std::ios::binary);
  ASSERT_TRUE(in) << doc << " is missing; regenerate it with LANDSCAPE_REGENERATE_DOCS=1";
  std::ostringstream contents;
  contents << in.rdbuf();
  EXPECT_EQ(contents.str(), rendered)
      << doc << " differs from the keyword table in src/optim/OptimOdataFile.cpp; regenerate it"
      << " with LANDSCAPE_REGENERATE_DOCS=1 landscape_tests"
      << " --gtest_filter=OdataFile.DocMatchesTable";
}

TEST(OdataFile, TableCoversEveryKeywordOfTheLj38Example) {
  std::vector<std::string> known;
  for (const auto& row : odataKeywordTable()) known.push_back(row.keyword);
  for (const char* keyword : {"NEWCONNECT",   "NEWNEB",  "NEBK",       "DIJKSTRA",
                              "PERMDIST",     "RANROT",  "EDIFFTOL",   "GEOMDIFFTOL",
                              "BFGSMIN",      "UPDATES", "PUSHOFF",    "REOPTIMISEENDPOINTS",
                              "BFGSSTEPS",    "MAXBFGS", "STEPS",      "BFGSTS",
                              "MAXSTEP",      "MAXMAX",  "TRAD",       "NOHESS",
                              "DUMPALLPATHS", "PATH",    "PAIRCOLOUR", "RADIUS",
                              "POINTS"}) {
    EXPECT_NE(std::find(known.begin(), known.end(), keyword), known.end()) << keyword;
  }
}

TEST(OdataFile, TheLj38ExampleGivesTheBuiltInExampleSettings) {
  const auto path = testDataPath("lj38/optim/odata");
  if (!path) GTEST_SKIP() << "tests/data/lj38/optim not found";
  const OptimConfig config = readOdataFile(*path);
  const OptimSettings& s = config.settings;
  const OptimSettings example = optimLj38ExampleSettings();
  EXPECT_EQ(config.odataPoints.size(), 114u);  // POINTS: the LJ38 global minimum
  EXPECT_DOUBLE_EQ(config.odataPoints[0], 0.6299851998);
  EXPECT_EQ(s.connect.maxCycles, 100);
  EXPECT_EQ(s.connect.maxTriesPerPair, 1);
  EXPECT_EQ(s.connect.dneb.imageDensity, 20.0);
  EXPECT_EQ(s.connect.dneb.iterationDensity, 20.0);
  EXPECT_EQ(s.connect.dneb.maxImages, 30);
  EXPECT_EQ(s.connect.dneb.rmsTolerance, 0.025);
  EXPECT_EQ(s.connect.firstImages, 50);
  EXPECT_EQ(s.connect.firstIterations, 500);
  EXPECT_EQ(s.connect.dneb.springConstant, 10.0);
  EXPECT_EQ(s.connect.distancePower, 1.0);
  EXPECT_TRUE(s.network.alignment.permutations);
  EXPECT_TRUE(s.connect.dneb.alignment.permutations);
  EXPECT_EQ(s.network.alignment.randomOrientations, 5);
  EXPECT_EQ(s.network.energyTolerance, 1e-6);
  EXPECT_EQ(s.network.geometryTolerance, 0.2);
  EXPECT_EQ(s.connect.descent.minimiser.rmsTolerance, 1e-6);
  EXPECT_EQ(s.endpointMinimiser.rmsTolerance, 1e-6);
  EXPECT_EQ(s.connect.descent.minimiser.historySize, 10);
  EXPECT_EQ(s.connect.transitionStateSearch.tangentSpace.historySize, 10);
  EXPECT_EQ(s.connect.descent.pushoff, 0.02);
  EXPECT_TRUE(s.reoptimiseEndpoints);
  EXPECT_EQ(s.connect.descent.minimiser.maxIterations, 5000);
  EXPECT_EQ(s.connect.descent.minimiser.maxStep, 0.2);
  EXPECT_EQ(s.connect.transitionStateSearch.maxIterations, 200);
  EXPECT_EQ(s.connect.transitionStateSearch.rayleighRitz.lbfgs.maxIterations, 50);
  EXPECT_EQ(s.connect.transitionStateSearch.tangentIterationsBefore, 3);
  EXPECT_EQ(s.connect.transitionStateSearch.tangentIterationsAfter, 25);
  EXPECT_EQ(s.connect.transitionStateSearch.rayleighRitz.lbfgs.rmsTolerance, 1e-4);
  EXPECT_EQ(s.connect.transitionStateSearch.initialUphillStep, 0.1);
  EXPECT_EQ(s.connect.transitionStateSearch.maxUphillStep, 0.2);
  EXPECT_EQ(s.connect.transitionStateSearch.trustRatio, 0.2);
  // The same numbers as the built-in defaults of `optim` (which never reads the file).
  EXPECT_EQ(s.connect.transitionStateSearch.tangentIterationsAfter,
            example.connect.transitionStateSearch.tangentIterationsAfter);
  EXPECT_EQ(s.connect.dneb.alignment.randomOrientations,
            example.connect.dneb.alignment.randomOrientations);
  EXPECT_EQ(s.connect.descent.minimiser.historySize, example.connect.descent.minimiser.historySize);
  EXPECT_EQ(s.endpointMinimiser.maxStep, example.endpointMinimiser.maxStep);
  // PATH, PAIRCOLOUR and RADIUS are accepted with a warning naming their line.
  ASSERT_EQ(config.warnings.size(), 3u);
  EXPECT_NE(config.warnings[0].find("odata:31: OPTIM keyword PATH ignored"), std::string::npos)
      << config.warnings[0];
}

TEST(OdataFile, KeywordDefaultsLeaveOptimsSwitchesOff) {
  const OptimConfig config = applied("NEBK 5.0\n");
  EXPECT_FALSE(config.settings.network.alignment.permutations);
  EXPECT_FALSE(config.settings.reoptimiseEndpoints);
  EXPECT_EQ(config.settings.connect.dneb.springConstant, 5.0);
  EXPECT_TRUE(config.odataPoints.empty());
}

TEST(OdataFile, SyntaxCommentsCaseCommasAndStop) {
  const OptimConfig config = applied(
      "! comment\n"
      "nebk 7.5   # trailing comment\n"
      "NOTE anything at all\n"
      "BFGSTS 30,2,20,1.0D-3\n"
      "NOFRQS\n"
      "STOP\n"
      "UNKNOWNKEYWORD after STOP is never read\n");
  EXPECT_EQ(config.settings.connect.dneb.springConstant, 7.5);
  EXPECT_EQ(config.settings.connect.transitionStateSearch.rayleighRitz.lbfgs.maxIterations, 30);
  EXPECT_EQ(config.settings.connect.transitionStateSearch.rayleighRitz.lbfgs.rmsTolerance, 1e-3);
  EXPECT_EQ(config.settings.characterisation.maxHessianAtoms, 0u);
}

TEST(OdataFile, PointsBlock) {
  const OptimConfig config = applied("NEBK 5\nPOINTS\nLA 0 0 0\n\nLA 1.1 0 0\nLA 0 1.1D0 0\n");
  ASSERT_EQ(config.odataPoints.size(), 9u);
  EXPECT_EQ(config.odataPoints[7], 1.1);
  expectOneLineContaining(errorOf([] { applied("POINTS\nLA 0 0 0\nNEBK 5\n"); }),
                          {"odata:3:", "POINTS expects 'LABEL x y z'"});
  expectOneLineContaining(errorOf([] { applied("POINTS\nLA 0 x 0\n"); }),
                          {"odata:2:", "coordinate 2", "'x'"});
  expectOneLineContaining(errorOf([] { applied("POINTS\n"); }), {"no 'LABEL x y z' lines"});
}

TEST(OdataFile, RmsTolerancesOfNewconnectAndNewneb) {
  EXPECT_EQ(applied("NEWNEB 10 100 0.05\n").settings.connect.dneb.rmsTolerance, 0.05);
  const OptimConfig both = applied("NEWNEB 10 100 0.05\nNEWCONNECT 10 2 10.0 10.0 20 0.0 0.01\n");
  EXPECT_EQ(both.settings.connect.dneb.rmsTolerance, 0.01);
  ASSERT_EQ(both.warnings.size(), 1u);
  EXPECT_NE(both.warnings[0].find("odata:1: NEWNEB RMS tolerance 0.05 not used"), std::string::npos)
      << both.warnings[0];
  EXPECT_EQ(both.settings.connect.maxTriesPerPair, 2);
}

TEST(OdataFile, ErrorsNameLineAndKeyword) {
  expectOneLineContaining(errorOf([] { applied("NEBK 10\n\nFROBNICATE 3\n"); }),
                          {"odata:3:", "unknown OPTIM keyword 'FROBNICATE'"});
  expectOneLineContaining(errorOf([] { applied("NEBK\n"); }),
                          {"odata:1:", "NEBK expects 'k' (1 field), found 0 fields"});
  expectOneLineContaining(errorOf([] { applied("NEBK ten\n"); }),
                          {"odata:1:", "NEBK expects a number", "'ten'"});
  expectOneLineContaining(errorOf([] { applied("NEWCONNECT 10 2 20 20 30 0.5\n"); }),
                          {"odata:1:", "image increment", "not implemented"});
  // One attempt per pair: no pair is retried, so the increment has no effect (PATHSAMPLE's
  // odata.connect of the LJ38 UNTRAP example).
  EXPECT_EQ(applied("NEWCONNECT 4 1 20.0 20.0 5 5.0 0.025\n").settings.connect.dneb.maxImages, 5);
  expectOneLineContaining(errorOf([] { applied("TWOD\n"); }),
                          {"odata:1:", "TWOD is not implemented"});
  expectOneLineContaining(errorOf([] { applied("DIJKSTRA 0\n"); }), {"DIJKSTRA expects", "> 0"});
  expectOneLineContaining(errorOf([] { applied("REOPTIMISEENDPOINTS 1\n"); }),
                          {"REOPTIMISEENDPOINTS expects no fields"});
  expectOneLineContaining(errorOf([] { readOdataFile("/nonexistent/odata"); }),
                          {"/nonexistent/odata", "cannot open"});
  const TempFile bad("BFGSMIN 1.0D-6\nSTEPS 0\n");
  expectOneLineContaining(errorOf([&] { readOdataFile(bad.path()); }),
                          {":2:", "STEPS expects the number of steps >= 1"});
}

// ---- the command line ----

TEST(OptimConfig, DefaultsAreTheLj38ExampleAndTheBuiltInLj7Endpoints) {
  const OptimConfig config = parseOptimCommandLine(std::vector<std::string>{});
  EXPECT_EQ(config.action, OptimConfig::Action::Run);
  EXPECT_TRUE(config.builtInExample());
  EXPECT_EQ(config.outputDir, "optim-out");
  EXPECT_TRUE(config.settings.reoptimiseEndpoints);
  EXPECT_EQ(config.settings.connect.transitionStateSearch.tangentIterationsBefore, 3);
  EXPECT_EQ(config.settings.network.alignment.seed, config.settings.seed);
}

TEST(OptimConfig, HelpListsEveryOptionWithUnitsAndDefaults) {
  const OptimConfig config = parseOptimCommandLine(std::vector<std::string>{"--help"});
  ASSERT_EQ(config.action, OptimConfig::Action::Help);
  for (const std::string& name : optimOptionNames()) {
    EXPECT_NE(config.helpText.find("--" + name), std::string::npos) << name;
  }
  EXPECT_NE(config.helpText.find("epsilon/sigma"), std::string::npos);
  EXPECT_NE(config.helpText.find("(default: 100)"), std::string::npos);
  EXPECT_NE(config.helpText.find("[NEWCONNECT 1st]"), std::string::npos);
  EXPECT_EQ(parseOptimCommandLine(std::vector<std::string>{"--version"}).action,
            OptimConfig::Action::Version);
}

TEST(OptimConfig, PrecedenceCommandLineOverConfigOverOdata) {
  const TempFile odata("NEBK 3.0\nEDIFFTOL 1.0D-5\nGEOMDIFFTOL 0.3\n");
  const TempFile ini("geomdifftol = 0.25\nspring-constant = 4.0\n# comment\n", ".cfg");
  const OptimConfig config = parseOptimCommandLine(
      std::vector<std::string>{"--odata", odata.path(), "--config", ini.path(), "--spring-constant",
                               "5.0", "--seed", "9", "--permutations", "no"});
  EXPECT_EQ(config.settings.connect.dneb.springConstant, 5.0);  // command line
  EXPECT_EQ(config.settings.network.geometryTolerance, 0.25);   // config file
  EXPECT_EQ(config.settings.network.energyTolerance, 1e-5);     // odata
  EXPECT_FALSE(config.settings.network.alignment.permutations);
  EXPECT_EQ(config.settings.connect.transitionStateSearch.seed, 9u);
  EXPECT_EQ(config.settings.connect.dneb.alignment.seed, 9u);
}

TEST(OptimConfig, BadInputGivesOneLineNamingTheOption) {
  auto parse = [](std::vector<std::string> args) {
    return [args] { parseOptimCommandLine(args); };
  };
  expectOneLineContaining(errorOf(parse({"--frobnicate"})), {"unknown option", "--frobnicate"});
  expectOneLineContaining(errorOf(parse({"--max-cycles", "0"})),
                          {"--max-cycles", "an integer >= 1", "'0'"});
  expectOneLineContaining(errorOf(parse({"--start", "/nonexistent.xyz"})),
                          {"--start", "no such file"});
  const TempFile xyz("1\nx\nLA 0 0 0\n", ".xyz");
  expectOneLineContaining(errorOf(parse({"--start", xyz.path()})), {"--start needs --finish"});
  expectOneLineContaining(errorOf(parse({"--finish", xyz.path()})), {"--finish needs --start"});
  expectOneLineContaining(errorOf(parse({"--lj", "13"})), {"--lj 13 needs --start and --finish"});
  expectOneLineContaining(errorOf(parse({"stray"})), {"unexpected argument 'stray'"});
  expectOneLineContaining(errorOf(parse({"--permutations", "maybe"})),
                          {"--permutations", "yes or no"});
  const TempFile points("POINTS\nLA 0 0 0\nLA 1 0 0\n");
  expectOneLineContaining(errorOf(parse({"--odata", points.path()})),
                          {"POINTS block is the first endpoint", "--finish"});
  const TempFile ini("nonsense = 3\n", ".cfg");
  expectOneLineContaining(errorOf(parse({"--config", ini.path()})),
                          {":1:", "unknown option 'nonsense'"});
  expectOneLineContaining(errorOf(parse({"--min-step", "0.3", "--max-max", "0.2"})),
                          {"invalid parameters"});
}

}  // namespace
}  // namespace landscape
