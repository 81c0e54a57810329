// GMIN `data` keyword files (src/gmin/GminDataFile.h): GMIN's LJ38 example gives the `gmin` defaults,
// every implemented keyword sets its field, errors name file, line and keyword, and
// docs/gmin-keywords.md is the rendering of the keyword table.
#include <gtest/gtest.h>

#include "tests/TempFile.h"

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "src/gmin/GminDataFile.h"
#include "src/gmin/GminOptions.h"
#include "tests/TestData.h"

namespace {

using namespace landscape;

// Every field of BasinHoppingParams and its LbfgsParams.
void expectSameParams(const BasinHoppingParams& a, const BasinHoppingParams& b) {
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.temperature, b.temperature);
  EXPECT_EQ(a.stepSize, b.stepSize);
  EXPECT_EQ(a.angularThreshold, b.angularThreshold);
  EXPECT_EQ(a.stepAdjustInterval, b.stepAdjustInterval);
  EXPECT_EQ(a.targetAcceptance, b.targetAcceptance);
  EXPECT_EQ(a.stepAdjustFactor, b.stepAdjustFactor);
  EXPECT_EQ(a.saveCount, b.saveCount);
  EXPECT_EQ(a.energyDifference, b.energyDifference);
  EXPECT_EQ(a.sloppyRms, b.sloppyRms);
  EXPECT_EQ(a.sloppyMaxIterations, b.sloppyMaxIterations);
  EXPECT_EQ(a.tightRms, b.tightRms);
  EXPECT_EQ(a.tightMaxIterations, b.tightMaxIterations);
  EXPECT_EQ(a.centre, b.centre);
  EXPECT_EQ(a.containerRadius, b.containerRadius);
  EXPECT_EQ(a.newRestartSteps, b.newRestartSteps);
  EXPECT_EQ(a.avoidDistance, b.avoidDistance);
  EXPECT_EQ(a.avoidMaxSaved, b.avoidMaxSaved);
  EXPECT_EQ(a.avoidReseeds, b.avoidReseeds);
  EXPECT_EQ(a.targetEnergy, b.targetEnergy);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.dumpInterval, b.dumpInterval);
  EXPECT_EQ(a.lbfgs.historySize, b.lbfgs.historySize);
  EXPECT_EQ(a.lbfgs.initialGuess, b.lbfgs.initialGuess);
  EXPECT_EQ(a.lbfgs.maxStep, b.lbfgs.maxStep);
  EXPECT_EQ(a.lbfgs.maxRise, b.lbfgs.maxRise);
  EXPECT_EQ(a.lbfgs.maxBacktracks, b.lbfgs.maxBacktracks);
  EXPECT_EQ(a.lbfgs.maxIterations, b.lbfgs.maxIterations);
  EXPECT_EQ(a.lbfgs.rmsTolerance, b.lbfgs.rmsTolerance);
}

GminConfig applyText(const std::string& text) {
  GminConfig config = gminKeywordDefaults();
  std::istringstream in(text);
  applyGminKeywords(in, "data", config);
  return config;
}

// Expects applyText(text) to throw a one-line message that contains every piece of `pieces`.
void expectError(const std::string& text, const std::vector<std::string>& pieces) {
  try {
    applyText(text);
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    for (const auto& piece : pieces)
      EXPECT_NE(message.find(piece), std::string::npos) << "'" << piece << "' not in: " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

std::string sourceDir() {
  if (const char* env = std::getenv("LANDSCAPE_SOURCE_DIR"); env != nullptr && *env != '\0')
    return env;
  return LANDSCAPE_SOURCE_DIR;
}

bool containsWarning(const std::vector<std::string>& warnings, const std::string& piece) {
  for (const auto& w : warnings)
    if (w.find(piece) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(GminDataFile, Lj38ExampleGivesTheGminDefaults) {
  const auto path = testDataPath("lj38/gmin/data");
  if (!path) GTEST_SKIP() << "lj38/gmin/data not found under " << testDataRoot();

  const GminConfig fromFile = readGminDataFile(*path);
  expectSameParams(fromFile.basinHopping, GminConfig{}.basinHopping);
  // `gmin` without arguments adds the default job's goal: the LJ38 global minimum as
  // target and a step cap that lets every seed reach it; otherwise the example's settings.
  BasinHoppingParams noArguments = parseGminCommandLine({}).basinHopping;
  EXPECT_EQ(noArguments.targetEnergy, -173.928427);
  noArguments.targetEnergy.reset();
  noArguments.steps = 5000;
  expectSameParams(fromFile.basinHopping, noArguments);
  // Through the command line too (a data file is a complete job: no default goal).
  const GminConfig viaOption = parseGminCommandLine({"--gmin-data", *path});
  expectSameParams(viaOption.basinHopping, noArguments);
  EXPECT_EQ(viaOption.ljAtoms, 38u);

  // SORT (line 9), TRACKDATA (10) and MONITOR (11) are ignored; DUMPINT is implemented, so no
  // warning; AVOID's third field F (line 25) is implemented (avoidReseeds = false).
  const auto& w = fromFile.warnings;
  EXPECT_TRUE(containsWarning(w, *path + ":9: GMIN keyword SORT ignored"))
      << ::testing::PrintToString(w);
  EXPECT_TRUE(containsWarning(w, *path + ":10: GMIN keyword TRACKDATA ignored"));
  EXPECT_TRUE(containsWarning(w, *path + ":11: GMIN keyword MONITOR ignored"));
  EXPECT_FALSE(containsWarning(w, "DUMPINT"));
  EXPECT_FALSE(containsWarning(w, "AVOID"));
  EXPECT_FALSE(fromFile.basinHopping.avoidReseeds);
  EXPECT_EQ(w.size(), 3u) << ::testing::PrintToString(w);
  EXPECT_EQ(viaOption.warnings, w);
}

// BHPT with PTTMIN/PTTMAX: parallel tempering over the walkers.
TEST(GminDataFile, BhptKeywordsSetParallelTempering) {
  const GminConfig c = applyText("BHPT 7\nPTTMIN 0.6\nPTTMAX 2.4\n");
  EXPECT_TRUE(c.tempering.enabled);
  EXPECT_EQ(c.tempering.interval, 7);
  EXPECT_EQ(c.tempering.minTemperature, 0.6);
  EXPECT_EQ(c.tempering.maxTemperature, 2.4);
  const GminConfig plain = applyText("BHPT\n");
  EXPECT_TRUE(plain.tempering.enabled);
  EXPECT_EQ(plain.tempering.interval, 10);
  EXPECT_FALSE(applyText("SAVE 3\n").tempering.enabled);
  try {  // an inverted ladder is caught with the other parameter checks
    parseGminCommandLine({"--bhpt", "--bhpt-min-temperature", "2", "--bhpt-max-temperature", "1"});
    ADD_FAILURE() << "no error for an inverted temperature ladder";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("minimum temperature <= maximum"), std::string::npos);
  }
}

TEST(GminDataFile, EveryImplementedKeywordSetsItsField) {
  const GminConfig c = applyText(
      "! comment line\n"
      "# another\n"
      "sloppyconv 2.0D-3   ! lower case keyword, inline comment\n"
      "TightConv 1.0d-6\n"
      "EDIFF 0.01\n"
      "MAXIT 700, 800\n"
      "SAVE 7\n"
      "CENTRE\n"
      "TEMPERATURE 0.8\n"
      "STEPS 1234 1.0D0\n"
      "STEP 0.35 0.6\n"
      "NEWRESTART 25 0\n"
      "AVOID 3.5 15 T\n"
      "RANSEED 42\n"
      "TARGET -173.928427\n"
      "RADIUS 3.3\n"
      "ACCEPTRATIO 0.4\n"
      "CHANGEACCEPT 30\n"
      "UPDATES 8\n"
      "MAXBFGS 0.2\n"
      "MAXERISE 1.0D-6\n"
      "DGUESS 0.05\n"
      "DUMPINT 100\n"
      "NOTE free text 1 2 3\n"
      "COMMENT more free text\n");
  const BasinHoppingParams& p = c.basinHopping;
  EXPECT_EQ(p.sloppyRms, 2.0e-3);
  EXPECT_EQ(p.tightRms, 1.0e-6);
  EXPECT_EQ(p.energyDifference, 0.01);
  EXPECT_EQ(p.sloppyMaxIterations, 700);
  EXPECT_EQ(p.tightMaxIterations, 800);
  EXPECT_EQ(p.saveCount, 7);
  EXPECT_TRUE(p.centre);
  EXPECT_EQ(p.temperature, 0.8);
  EXPECT_EQ(p.steps, 1234);
  EXPECT_EQ(p.stepSize, 0.35);
  EXPECT_EQ(p.angularThreshold, 0.6);
  EXPECT_EQ(p.newRestartSteps, 25);
  EXPECT_EQ(p.avoidDistance, 3.5);
  EXPECT_EQ(p.avoidMaxSaved, 15);
  EXPECT_TRUE(p.avoidReseeds);
  EXPECT_EQ(p.seed, 42u);
  EXPECT_EQ(p.targetEnergy, -173.928427);
  EXPECT_EQ(p.containerRadius, 3.3);
  EXPECT_EQ(p.targetAcceptance, 0.4);
  EXPECT_EQ(p.stepAdjustInterval, 30);
  EXPECT_EQ(p.lbfgs.historySize, 8);
  EXPECT_EQ(p.lbfgs.maxStep, 0.2);
  EXPECT_EQ(p.lbfgs.maxRise, 1.0e-6);
  EXPECT_EQ(p.lbfgs.initialGuess, 0.05);
  EXPECT_EQ(p.dumpInterval, 100);
  EXPECT_TRUE(c.warnings.empty()) << ::testing::PrintToString(c.warnings);
  EXPECT_NO_THROW(p.check());

  // Optional fields keep what was there; a later line overrides an earlier one.
  const GminConfig d = applyText("MAXIT 10\nSTEP 0.2\nSTEPS 5\nSTEPS 6\n");
  EXPECT_EQ(d.basinHopping.sloppyMaxIterations, 10);
  EXPECT_EQ(d.basinHopping.tightMaxIterations, BasinHoppingParams{}.tightMaxIterations);
  EXPECT_EQ(d.basinHopping.angularThreshold, BasinHoppingParams{}.angularThreshold);
  EXPECT_EQ(d.basinHopping.steps, 6);
}

TEST(GminDataFile, AbsentKeywordsTakeGminDefaultsWithSwitchesOff) {
  const GminConfig c = applyText("\n! nothing but comments\n");
  BasinHoppingParams expected;
  expected.centre = false;
  expected.newRestartSteps = 0;
  expected.avoidDistance = 0.0;
  expected.avoidMaxSaved = 0;
  expectSameParams(c.basinHopping, expected);
  EXPECT_EQ(c.ljAtoms, 38u);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(GminDataFile, StopEndsTheKeywords) {
  const GminConfig c = applyText("SAVE 3\nSTOP\nSAVE 4\nNOT A KEYWORD AT ALL\n");
  EXPECT_EQ(c.basinHopping.saveCount, 3);
}

TEST(GminDataFile, IgnoredKeywordsWarnWithTheirLine) {
  const GminConfig c = applyText("SAVE 3\nsort\nDEBUG\nMONITOR 100\n");
  ASSERT_EQ(c.warnings.size(), 3u);
  EXPECT_EQ(c.warnings[0].rfind("data:2: GMIN keyword SORT ignored", 0), 0u) << c.warnings[0];
  EXPECT_EQ(c.warnings[1].rfind("data:3: GMIN keyword DEBUG ignored", 0), 0u) << c.warnings[1];
  EXPECT_EQ(c.warnings[2].rfind("data:4: GMIN keyword MONITOR ignored", 0), 0u) << c.warnings[2];
}

TEST(GminDataFile, UnknownKeywordIsAnErrorWithItsLine) {
  expectError("SLOPPYCONV 1e-3\n\nXYZ 3\n", {"data:3: unknown GMIN keyword 'XYZ'"});
  expectError("ljx 38\n", {"data:1: unknown GMIN keyword 'LJX'"});
}

TEST(GminDataFile, FieldCountAndNumberErrors) {
  expectError("MAXIT 1 2 3\n", {"data:1: MAXIT expects 'n [n2]' (1 to 2 fields), found 3 fields"});
  expectError("EDIFF\n", {"data:1: EDIFF expects 'dE' (1 field), found 0 fields"});
  expectError("EDIFF abc\n", {"data:1: EDIFF expects a number", "'abc'"});
  expectError("SAVE 2.5\n", {"data:1: SAVE expects an integer", "'2.5'"});
  expectError("SAVE 0\n", {"data:1: SAVE expects", ">= 1"});
  // A keyword with a set of allowed integers names them.
  expectError("GUPTA 3\n", {"data:1: GUPTA expects 1, 2, 4, 7 or 8 for the metal type", "'3'"});
  expectError("CENTRE 1\n", {"data:1: CENTRE expects no fields, found 1 field"});
  expectError("\nSTEP 0.4 0.5 0.3 0.1\n", {"data:2: STEP expects 'step [astep [ostep]]'"});
  expectError("TEMPERATURE 1.0 2.0\n", {"data:1: TEMPERATURE expects 'kT' (1 field)"});
  expectError("TEMPERATURE -1\n", {"data:1: TEMPERATURE expects kT > 0, found -1"});
  expectError("AVOID 4.0 20 X\n", {"data:1: AVOID expects a logical (T or F)", "'X'"});
  expectError("AVOID 4.0\n", {"data:1: AVOID expects 'dist max [reseed]' (2 to 3 fields)"});
  expectError("RANSEED -1\n", {"data:1: RANSEED expects the seed >= 0, found -1"});
  expectError("ACCEPTRATIO 1.5\n", {"data:1: ACCEPTRATIO expects the acceptance ratio < 1"});
}

TEST(GminDataFile, NotImplementedFeaturesAreErrors) {
  expectError("STEPS 5000 0.99\n", {"data:1: STEPS temperature factor 0.99", "not implemented"});
  expectError("NEWRESTART 40 5\n", {"data:1: NEWRESTART hard-sphere", "not implemented"});
  expectError("SEED\n", {"data:1: GMIN keyword SEED is not implemented", "RANSEED"});
  expectError("RANDOMSEED\n", {"data:1: GMIN keyword RANDOMSEED is not implemented"});
  expectError("FIXSTEP\n", {"data:1: GMIN keyword FIXSTEP is not implemented"});
  expectError("BHPT 0\n", {"data:1: BHPT", "exchange interval"});
}

TEST(GminDataFile, FileErrorsNameTheFile) {
  const std::string missing =
      (std::filesystem::temp_directory_path() / "landscape-no-such-data-5e1d").string();
  try {
    readGminDataFile(missing);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }

  TempFile bad("SAVE 2\nBOGUS\n");
  try {
    readGminDataFile(bad.path());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.path() + ":2: unknown GMIN keyword 'BOGUS'"),
              std::string::npos)
        << e.what();
  }

  // Fields that pass one by one but fail BasinHoppingParams::check() together.
  TempFile inconsistent("AVOID 1.0 0\n");
  try {
    readGminDataFile(inconsistent.path());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(inconsistent.path() + ": ", 0), 0u) << message;
    EXPECT_NE(message.find("AVOID"), std::string::npos) << message;
  }
}

TEST(GminDataFile, KeywordTableIsWellFormed) {
  std::set<std::string> seen;
  const std::string markdown = gminKeywordsMarkdown();
  for (const auto& row : gminKeywordTable()) {
    EXPECT_TRUE(seen.insert(row.keyword).second) << "duplicate " << row.keyword;
    for (char ch : row.keyword)
      EXPECT_FALSE(std::islower(static_cast<unsigned char>(ch))) << row.keyword;
    EXPECT_FALSE(row.description.empty()) << row.keyword;
    EXPECT_EQ(row.description.find('\n'), std::string::npos) << row.keyword;
    EXPECT_NE(markdown.find("| `" + row.keyword + "` |"), std::string::npos) << row.keyword;
  }
  for (const char* implemented :
       {"SLOPPYCONV",  "TIGHTCONV",    "EDIFF",      "MAXIT",   "SAVE",     "CENTRE", "TEMPERATURE",
        "STEPS",       "STEP",         "NEWRESTART", "AVOID",   "RANSEED",  "TARGET", "RADIUS",
        "ACCEPTRATIO", "CHANGEACCEPT", "UPDATES",    "MAXBFGS", "MAXERISE", "DGUESS", "DUMPINT"}) {
    bool found = false;
    for (const auto& row : gminKeywordTable())
      if (row.keyword == implemented) {
        found = true;
        EXPECT_EQ(row.status, GminKeywordStatus::Implemented) << implemented;
      }
    EXPECT_TRUE(found) << implemented;
  }
  for (const char* ignored : {"SORT", "TRACKDATA", "MONITOR", "DEBUG"}) {
    bool found = false;
    for (const auto& row : gminKeywordTable())
      if (row.keyword == ignored) {
        found = true;
        EXPECT_EQ(row.status, GminKeywordStatus::Ignored) << ignored;
      }
    EXPECT_TRUE(found) << ignored;
  }
  EXPECT_NE(markdown.find("| `SORT` |  | ignored (warning) |"), std::string::npos);
  EXPECT_NE(markdown.find("| `MONITOR` | `[n]` | ignored (warning) |"), std::string::npos);
}

// docs/gmin-keywords.md must be exactly gminKeywordsMarkdown(). To regenerate it after editing the
// table: LANDSCAPE_REGENERATE_DOCS=1 landscape_tests --gtest_filter=GminDataFile.DocMatchesTable
TEST(GminDataFile, DocMatchesTable) {
  const std::filesystem::path doc =
      std::filesystem::path(sourceDir()) / "docs" / "gmin-keywords.md";
  const std::string rendered = gminKeywordsMarkdown();
  if (const char* regenerate = std::getenv("LANDSCAPE_REGENERATE_DOCS");
      regenerate != nullptr && std::string(regenerate) == "1") {
    std::ofstream(doc, std::ios::binary) << rendered;
  }
  std::ifstream in(doc, std::ios::binary);
  ASSERT_TRUE(in) << doc << " is missing; regenerate it with LANDSCAPE_REGENERATE_DOCS=1";
  std::ostringstream contents;
  contents << in.rdbuf();
  EXPECT_EQ(contents.str(), rendered)
      << doc << " differs from the keyword table in src/gmin/GminDataFile.cpp; regenerate it with "
      << "LANDSCAPE_REGENERATE_DOCS=1 landscape_tests --gtest_filter=GminDataFile.DocMatchesTable";
}
