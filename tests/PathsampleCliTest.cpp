// The pathsample program (src/pathsample/pathsample_main.cpp, src/pathsample/PathsampleOptions, src/pathsample/PathsampleCommands):
// options and the PATHSAMPLE pathdata reader, the generated docs, and import -> rates ->
// committors -> regroup -> export on the wales-group LJ38 UNTRAP example.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "landscape/formats/PathsampleExport.h"
#include "landscape/network/Database.h"
#include "src/pathsample/PathsampleOptions.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string sourceDir() {
  const char* env = std::getenv("LANDSCAPE_SOURCE_DIR");
  return env && *env ? env : LANDSCAPE_SOURCE_DIR;
}

TEST(PathsampleCli, ReadsOptionsAndPathdataKeywords) {
  const PathsampleConfig c = parsePathsampleCommandLine(
      {"rates", "--temperature", "0.1,0.2", "--database", "x.h5", "--units", "molecular"});
  EXPECT_EQ(c.mode, PathsampleMode::Rates);
  EXPECT_EQ(c.temperatures, (std::vector<double>{0.1, 0.2}));
  EXPECT_EQ(c.database, "x.h5");
  EXPECT_EQ(c.units, PathsampleUnits::Molecular);
  EXPECT_THROW(parsePathsampleCommandLine({"--temperature", "0.1"}), std::runtime_error);
  EXPECT_THROW(parsePathsampleCommandLine({"rates", "--temperature", "-1"}), std::runtime_error);
  EXPECT_THROW(parsePathsampleCommandLine({"grow-forever"}), std::runtime_error);

  // The example's pathdata (CYCLES 0, DIJKSTRA 0) reads, with warnings for ignored keywords.
  // TEMPERATURE is PATHSAMPLE's kT; --units molecular takes Kelvin, so it is converted.
  const std::string pathdata = testDataRoot() + "/lj38/pathsample/pathdata";
  const PathsampleConfig p = parsePathsampleCommandLine({"rates", "--pathdata", pathdata});
  EXPECT_EQ(p.temperatures, std::vector<double>{0.1});
  EXPECT_FALSE(p.warnings.empty());
  const PathsampleConfig molecularKT =
      parsePathsampleCommandLine({"rates", "--pathdata", pathdata, "--units", "molecular"});
  ASSERT_EQ(molecularKT.temperatures.size(), 1u);
  EXPECT_NEAR(molecularKT.temperatures[0], 0.1 / (8.314462618 / 4184.0), 1e-9);  // kT / kB in K
  // The command line wins over the file.
  EXPECT_EQ(parsePathsampleCommandLine({"rates", "--pathdata", pathdata, "--temperature", "0.3"})
                .temperatures,
            std::vector<double>{0.3});
  // The UNTRAP example's pathdata: growth settings (UNTRAP einc ethresh, CYCLES, CPUS, SEED).
  const std::string untrap = testDataRoot() + "/lj38/pathsample-untrap/input/pathdata";
  const PathsampleConfig u = parsePathsampleCommandLine({"grow", "--pathdata", untrap});
  EXPECT_EQ(u.pairSelection, PairSelection::Untrap);
  EXPECT_EQ(u.untrap.energyIncrement, 0.035);
  EXPECT_EQ(u.untrap.energyThreshold, 3.0);
  EXPECT_EQ(u.cycles, 50);
  EXPECT_EQ(u.pairsPerCycle, 1);
  // SHORTCUT n BARRIER and DIJKSTRA p select their pairs; STARTFROMPATH is refused with its line.
  const fs::path keywords =
      fs::temp_directory_path() / ("pathdata-growth-" + std::to_string(getpid()));
  std::ofstream(keywords) << "SHORTCUT 3 BARRIER\nCYCLES 2\n";
  const PathsampleConfig sc = parsePathsampleCommandLine({"grow", "--pathdata", keywords.string()});
  EXPECT_EQ(sc.pairSelection, PairSelection::Shortcut);
  EXPECT_EQ(sc.shortcutSteps, 3);
  EXPECT_EQ(sc.shortcutBy, ShortcutBy::Barrier);
  std::ofstream(keywords) << "DIJPAIR 1\n";
  const PathsampleConfig dj = parsePathsampleCommandLine(
      {"grow", "--pathdata", keywords.string(), "--dijkstra-power", "2"});
  EXPECT_EQ(dj.pairSelection, PairSelection::Dijkstra);
  EXPECT_EQ(dj.dijkstraPower, 2.0);
  // STARTFROMPATH file m1 m2: import of path.info (the command line's mode wins).
  std::ofstream(keywords) << "CYCLES 0\nSTARTFROMPATH path.info 1 2\nNATOMS 38\n";
  const PathsampleConfig sfp = parsePathsampleCommandLine({"--pathdata", keywords.string()});
  EXPECT_EQ(sfp.mode, PathsampleMode::Import);
  EXPECT_EQ(sfp.pathInfoFile, "path.info");
  EXPECT_EQ(sfp.pathInfoSetA, 1);
  EXPECT_EQ(sfp.pathInfoSetB, 2);
  std::ofstream(keywords) << "WAITPDF\n";
  try {
    parsePathsampleCommandLine({"rates", "--pathdata", keywords.string()});
    ADD_FAILURE() << "WAITPDF accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(keywords.string() + ":1:"), std::string::npos) << e.what();
  }
  fs::remove(keywords);
  const fs::path unknown = fs::temp_directory_path() / ("pathdata-unknown-" + std::to_string(getpid()));
  std::ofstream(unknown) << "TEMPERATURE 0.2\nFROBNICATE 3\n";
  try {
    parsePathsampleCommandLine({"rates", "--pathdata", unknown.string()});
    ADD_FAILURE() << "unknown keyword accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(":2:"), std::string::npos) << e.what();
  }
  fs::remove(unknown);
}

// Every pathdata file of wales-group/examples (tests/data/pathdata-examples) reads: each keyword is
// implemented, ignored with a warning that says why, or refused as not implemented with a reason,
// naming the file and line; none is unknown.
TEST(PathsampleCli, EveryPathdataOfTheExamplesIsKnown) {
  const fs::path folder = fs::path(testDataRoot()) / "pathdata-examples";
  if (!fs::exists(folder)) GTEST_SKIP() << folder << " missing";
  int read = 0, refused = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string path = entry.path().string();
    try {
      const PathsampleConfig c = parsePathsampleCommandLine({"rates", "--pathdata", path});
      for (const std::string& w : c.warnings) {
        EXPECT_NE(w.find(path + ":"), std::string::npos) << w;
        EXPECT_NE(w.find(" ignored ("), std::string::npos) << w;
      }
      ++read;
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find("unknown"), std::string::npos) << what;
      EXPECT_NE(what.find(path + ":"), std::string::npos) << what;
      EXPECT_NE(what.find("is not implemented ("), std::string::npos) << what;
      ++refused;
    }
  }
  EXPECT_EQ(read + refused, 14);
  // Read: LJ38 and tetra-ALA 04 (STARTFROMPATH) and 05, trypzip, MFPT, FPT_KMC and the plain
  // PGT_DIJ one; refused: WAITPDF, NGTKEEPLIST, FREEENERGY (the other Kinetics ones).
  EXPECT_EQ(read, 8);

  // The MFPT example: NGT with its arguments is mode rates, RATESCYCLE the temperatures, NOPOINTS
  // a kinetics-only network, NATOMS 1 a dummy.
  const std::string mfpt = (folder / "Kinetics_MFPT_9_comm_output_files_pathdata").string();
  const PathsampleConfig m = parsePathsampleCommandLine({"--pathdata", mfpt});
  EXPECT_EQ(m.mode, PathsampleMode::Rates);
  EXPECT_EQ(m.temperatures, std::vector<double>{1.0});
  EXPECT_TRUE(m.noPoints);
  EXPECT_EQ(m.pathdataAtoms, 1u);
  EXPECT_TRUE(m.warnings.empty());
  // The command line's mode wins over NGT's.
  EXPECT_EQ(parsePathsampleCommandLine({"committors", "--pathdata", mfpt}).mode,
            PathsampleMode::Committors);
  // trypzip: MAXTSENERGY, AMBER12 (molecular units: TEMPERATURE 0.592 kcal/mol is 297.9 K).
  const PathsampleConfig t = parsePathsampleCommandLine(
      {"rates", "--pathdata", (folder / "trypzip_input_pathdata").string()});
  EXPECT_EQ(t.maxTsEnergy, -390.0);
  EXPECT_EQ(t.units, PathsampleUnits::Molecular);
  ASSERT_EQ(t.temperatures.size(), 1u);
  EXPECT_NEAR(t.temperatures[0], 0.592 / (8.314462618 / 4184.0), 1e-9);
  EXPECT_EQ(t.planck, 9.536e-14);
  // Keywords that would change the result and are not implemented, with their reason.
  const fs::path bad = fs::temp_directory_path() / ("pathdata-bad-" + std::to_string(getpid()));
  for (const char* line : {"NGT 2 T", "NGT 0 maybe", "KMC 100 0.5 0", "KMC 100 1.0 2", "WAITPDF", "FREEENERGY",
                           "NGTKEEPLIST", "NATOMS 0", "RATESCYCLE -1"}) {
    std::ofstream(bad) << "TEMPERATURE 1.0\n" << line << "\n";
    try {
      parsePathsampleCommandLine({"rates", "--pathdata", bad.string()});
      ADD_FAILURE() << line << " accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(bad.string() + ":2: "), std::string::npos) << e.what();
    }
  }
  fs::remove(bad);
}

// docs/pathsample-options.md is generated from the table: LANDSCAPE_REGENERATE_DOCS=1
// landscape_tests --gtest_filter=PathsampleCli.DocMatchesTable
TEST(PathsampleCli, DocMatchesTable) {
  const fs::path doc = fs::path(sourceDir()) / "docs" / "pathsample-options.md";
  const std::string rendered = pathsampleOptionsMarkdown();
  if (const char* regenerate = std::getenv("LANDSCAPE_REGENERATE_DOCS");
      regenerate != nullptr && std::string(regenerate) == "1")
    std::ofstream(doc, std::ios::binary) << rendered;
  EXPECT_EQ(readAll(doc.string()), rendered)
      << doc << " differs from the table in src/pathsample/PathsampleOptions.cpp; regenerate it"
      << " with LANDSCAPE_REGENERATE_DOCS=1 landscape_tests"
      << " --gtest_filter=PathsampleCli.DocMatchesTable";
}

#ifdef LANDSCAPE_PATHSAMPLE_EXECUTABLE
// Runs pathsample with `arguments` (in `cwd` when given); its output goes to `log`.
int run(const std::string& arguments, const fs::path& log, const fs::path& cwd = {}) {
  const char* env = std::getenv("LANDSCAPE_PATHSAMPLE_EXECUTABLE");
  const std::string program =
      fs::absolute(env && *env ? env : LANDSCAPE_PATHSAMPLE_EXECUTABLE).string();
  const std::string in = cwd.empty() ? "" : "cd '" + cwd.string() + "' && ";
  const int status = std::system(
      (in + program + " " + arguments + " > '" + fs::absolute(log).string() + "' 2>&1").c_str());
  return status == -1 ? -1 : WEXITSTATUS(status);
}

// The wales-group Kinetics/MFPT example run as PATHSAMPLE runs it: its folder (min.data, ts.data,
// min.A, min.B, pathdata with NGT 0 T 1.1D0 1 100.1D0, RATESCYCLE 1.0, NOPOINTS) and no options.
// PATHSAMPLE's own NGT.rates files (expected_output) are reproduced to 1e-6 relative, kNSS, kSS
// and k in both directions and the mean first-passage times, in PATHSAMPLE's layout.
std::vector<double> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<double> out;
  for (double v; in >> v;) out.push_back(v);
  return out;
}

// PATHSAMPLE's STARTFROMPATH on the wales-group LJ38 example (LJ38/04_Creating_PATHSAMPLE_database):
// its pathdata and OPTIM's path.info.initial, run in their folder, give PATHSAMPLE's own min.data
// and ts.data (expected_output): the same 12 minima and 11 transition states in the same order,
// energies, log products of the listed eigenvalues, point-group orders, moments of inertia and the
// transition states' minima; A and B the first and second minima. ADDPATH of the same path adds
// nothing (every point a duplicate).
TEST(PathsampleCli, StartFromPathReproducesPathsamplesDatabase) {
  const fs::path example = fs::path(testDataRoot()) / "lj38" / "startfrompath";
  if (!fs::exists(example / "path.info.initial")) GTEST_SKIP() << example << " missing";
  const fs::path work = fs::temp_directory_path() / ("pathsample-sfp-" + std::to_string(getpid()));
  fs::create_directories(work);
  for (const char* name : {"path.info.initial", "pathdata"})
    fs::copy_file(example / name, work / name, fs::copy_options::overwrite_existing);
  const fs::path log = work / "log";
  ASSERT_EQ(run("--pathdata pathdata", log, work), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("imported 12 minima, 11 transition states, 38 atoms, sets A/B of 1/1 "
                              "minima from path.info.initial into network.h5"),
            std::string::npos) << readAll(log);
  ASSERT_EQ(run("export --database network.h5 --directory out", log, work), 0) << readAll(log);
  for (const char* name : {"min.data", "ts.data"}) {
    const std::vector<double> ours = numbers(readAll((work / "out" / name).string()));
    const std::vector<double> theirs =
        numbers(readAll((example / "expected_output" / name).string()));
    ASSERT_EQ(ours.size(), theirs.size()) << name;
    for (std::size_t i = 0; i < ours.size(); ++i)  // 15-digit energies, 16-digit log products
      EXPECT_NEAR(ours[i], theirs[i], 1e-12 * std::max(1.0, std::fabs(theirs[i])))
          << name << " value " << i + 1;
  }
  EXPECT_EQ(numbers(readAll((work / "out" / "min.A").string())), (std::vector<double>{1, 1}));
  EXPECT_EQ(numbers(readAll((work / "out" / "min.B").string())), (std::vector<double>{1, 2}));
  std::ofstream(work / "addpath") << "ADDPATH path.info.initial\nNATOMS 38\n";
  ASSERT_EQ(run("--pathdata addpath", log, work), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("0 minima and 0 transition states are new"), std::string::npos)
      << readAll(log);
  // Without the number of atoms, and with an m1 beyond the path's minima: errors that say so.
  EXPECT_EQ(run("import --path-info path.info.initial --database other.h5", log, work), 1);
  EXPECT_NE(readAll(log).find("give the number of atoms (--atoms N, or NATOMS in pathdata)"),
            std::string::npos) << readAll(log);
  EXPECT_EQ(run("import --path-info path.info.initial --atoms 38 --path-set-a 13 --path-set-b 1 "
                "--database other.h5",
                log, work),
            1);
  EXPECT_NE(readAll(log).find("has 12 distinct minima: --path-set-a (STARTFROMPATH) 13"),
            std::string::npos) << readAll(log);
  EXPECT_FALSE(fs::exists(work / "other.h5"));
  fs::remove_all(work);
}

// PATHSAMPLE's LJ38 UNTRAP example run as PATHSAMPLE runs it: in its folder, its pathdata (UNTRAP,
// CYCLES) and odata.connect, no options but fewer cycles. The folder's files are imported into
// pathsample-out/network.h5, grown, and written back as PATHSAMPLE files there: the same network as
// `import` then `grow --database --odata`, and the input's minima first, unchanged.
TEST(PathsampleCli, GrowsInAPathsampleFolderFromItsPathdata) {
  const fs::path example = fs::path(testDataRoot()) / "lj38" / "pathsample-untrap" / "input";
  if (!fs::exists(example / "min.data")) GTEST_SKIP() << example << " missing";
  const fs::path work = fs::temp_directory_path() / ("pathsample-folder-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy(example, work / "folder");
  const fs::path log = work / "log";
  ASSERT_EQ(run("--pathdata pathdata --cycles 4", log, work / "folder"), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("grew to"), std::string::npos) << readAll(log);
  const std::string grown = readAll((work / "folder" / "pathsample-out" / "min.data").string());
  const std::string input = readAll((example / "min.data").string());
  EXPECT_EQ(grown.substr(0, input.size()), input);
  EXPECT_GT(grown.size(), input.size());
  // The same growth through a database.
  ASSERT_EQ(run("import --directory " + example.string() + " --database " +
                    (work / "net.h5").string(),
                log), 0) << readAll(log);
  ASSERT_EQ(run("grow --database " + (work / "net.h5").string() + " --pathdata " +
                    (example / "pathdata").string() + " --odata " +
                    (example / "odata.connect").string() + " --cycles 4 --output " +
                    (work / "db-grow").string(),
                log), 0) << readAll(log);
  ASSERT_EQ(run("export --database " + (work / "db-grow" / "network.h5").string() +
                    " --directory " + (work / "db-files").string(),
                log), 0) << readAll(log);
  for (const char* name : {"min.data", "ts.data", "points.min", "points.ts"})
    EXPECT_TRUE(readAll((work / "db-files" / name).string()) ==
                readAll((work / "folder" / "pathsample-out" / name).string())) << name;
  // A second run there would replace the grown network: refused, naming the way to continue.
  EXPECT_EQ(run("--pathdata pathdata --cycles 4", log, work / "folder"), 1);
  EXPECT_NE(readAll(log).find("grown from the PATHSAMPLE files of ."), std::string::npos)
      << readAll(log);
  fs::remove_all(work);
}

TEST(PathsampleCli, ReproducesPathsampleNgtOnTheNineCommunityNetwork) {
  const fs::path example = fs::path(testDataRoot()) / "kinetics" / "9comm";
  if (!fs::exists(example / "min.data")) GTEST_SKIP() << example << " missing";
  const fs::path work = fs::temp_directory_path() / ("pathsample-9comm-" + std::to_string(getpid()));
  fs::create_directories(work);
  for (const char* name : {"min.data", "ts.data", "min.A", "min.B", "pathdata"})
    fs::copy_file(example / name, work / name, fs::copy_options::overwrite_existing);
  const fs::path log = work / "log";
  ASSERT_EQ(run("--pathdata pathdata --directory " + work.string(), log, work), 0) << readAll(log);
  EXPECT_FALSE(fs::exists(work / "network.h5"));  // no database needed
  for (const char* name : {"NGT.rates.kNSS", "NGT.rates.kSS", "NGT.rates.new"}) {
    const std::string ours = readAll((work / name).string());
    const std::string theirs = readAll((example / "expected_output" / name).string());
    EXPECT_EQ(ours.size(), theirs.size()) << name << ":\n" << ours << theirs;  // G20.10E4 columns
    const std::vector<double> a = numbers(ours), b = numbers(theirs);
    ASSERT_EQ(a.size(), b.size()) << name;
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(a[i], b[i], 1e-6 * std::fabs(b[i])) << name << " column " << i + 1;
  }
  // The numbers of PATHSAMPLE's log (expected_output/output), written out.
  const std::vector<double> kss = numbers(readAll((work / "NGT.rates.kSS").string()));
  const std::vector<double> knss = numbers(readAll((work / "NGT.rates.kNSS").string()));
  ASSERT_EQ(kss.size(), 3u);
  ASSERT_EQ(knss.size(), 3u);
  EXPECT_NEAR(knss[1], 0.1329748539E-11, 1e-6 * 0.1329748539E-11);  // kNSS(A<-B)
  EXPECT_NEAR(knss[2], 0.3229297774E-11, 1e-6 * 0.3229297774E-11);  // kNSS(B<-A)
  EXPECT_NEAR(kss[1], 0.7360803384E-02, 1e-6 * 0.7360803384E-02);    // kSS(A<-B)
  EXPECT_NEAR(kss[2], 0.9331537817E-10, 1e-6 * 0.9331537817E-10);    // kSS(B<-A)

  // MAXTSENERGY leaves out the transition states above it: the same rates as a ts.data without
  // those lines.
  const fs::path cut = work / "cut";
  fs::create_directories(cut);
  int count = 0;  // lines of the cut ts.data
  for (const char* name : {"min.data", "min.A", "min.B", "pathdata"})
    fs::copy_file(example / name, cut / name, fs::copy_options::overwrite_existing);
  {
    std::ifstream in(example / "ts.data");
    std::ofstream out(cut / "ts.data");
    for (std::string line; std::getline(in, line);)
      if (std::stod(line) <= 28.0) out << line << "\n", ++count;
  }
  std::ofstream(work / "pathdata", std::ios::app) << "MAXTSENERGY 28.0\n";
  ASSERT_EQ(run("--pathdata pathdata", log, work), 0) << readAll(log);
  ASSERT_EQ(run("--pathdata pathdata", log, cut), 0) << readAll(log);
  const std::string filtered = readAll((cut / "NGT.rates.new").string());
  EXPECT_EQ(readAll((work / "NGT.rates.new").string()), filtered);
  EXPECT_NE(filtered, readAll((example / "expected_output" / "NGT.rates.new").string()));

  // min.A equal to min.B: the message names the files and the minimum as in min.data.
  fs::copy_file(example / "min.A", cut / "min.B", fs::copy_options::overwrite_existing);
  EXPECT_EQ(run("--pathdata pathdata", log, cut), 1);
  EXPECT_NE(readAll(log).find("min.A and min.B of .: minimum 144 (1-based, as in min.data) is in "
                              "both A and B"),
            std::string::npos)
      << readAll(log);
  // A ts.data line naming a minimum beyond min.data: file and line.
  fs::copy_file(example / "min.B", cut / "min.B", fs::copy_options::overwrite_existing);
  std::ofstream(cut / "ts.data", std::ios::app)
      << "30.0 1.0 1 1 995 1.0 1.0 1.0\n";
  EXPECT_EQ(run("--pathdata pathdata", log, cut), 1);
  EXPECT_NE(readAll(log).find("ts.data:" + std::to_string(count + 1) +
                              ": minimum 995 is beyond min.data's 994 minima"),
            std::string::npos)
      << readAll(log);
  // Sets that no transition state joins: the message names the files and the temperature.
  std::ofstream(cut / "ts.data") << "30.0 1.0 1 1 2 1.0 1.0 1.0\n";
  EXPECT_EQ(run("--pathdata pathdata", log, cut), 1);
  EXPECT_NE(readAll(log).find("./min.data at T= 1: "), std::string::npos) << readAll(log);
  fs::remove_all(work);
}

// A kinetics-only network (NOPOINTS): import makes a database without coordinates; rates,
// committors and regroup on it give what they give on its files; export writes min.data, ts.data,
// min.A and min.B back, without points files; grow refuses it with a sentence.
TEST(PathsampleCli, KineticsOnlyNetworkImportsAndGivesItsKinetics) {
  const fs::path example = fs::path(testDataRoot()) / "kinetics" / "9comm";
  if (!fs::exists(example / "min.data")) GTEST_SKIP() << example << " missing";
  const fs::path work = fs::temp_directory_path() / ("pathsample-nopoints-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work / "files");
  for (const char* name : {"min.data", "ts.data", "min.A", "min.B", "pathdata"})
    fs::copy_file(example / name, work / "files" / name);
  const fs::path log = work / "log";
  const std::string db = (work / "net.h5").string();
  ASSERT_EQ(run("import --pathdata pathdata --database " + db, log, work / "files"), 0)
      << readAll(log);
  EXPECT_NE(readAll(log).find("imported 994 minima, 4320 transition states, no coordinates"),
            std::string::npos) << readAll(log);
  ASSERT_EQ(run("rates --database " + db + " --temperature 1 --directory " +
                    (work / "db").string(), log), 0) << readAll(log);
  ASSERT_EQ(run("--pathdata pathdata", log, work / "files"), 0) << readAll(log);
  for (const char* name : {"NGT.rates.new", "NGT.rates.kSS", "NGT.rates.kNSS"})
    EXPECT_EQ(readAll((work / "db" / name).string()), readAll((work / "files" / name).string()))
        << name;
  // Molecular units: the files' frequencies are PATHSAMPLE's rad/s, in the database as in the
  // files, so both give the same rates (s^-1) at 500 K.
  const std::string molecularDb = (work / "molecular.h5").string();
  ASSERT_EQ(run("import --no-points --units molecular --directory " + (work / "files").string() +
                    " --database " + molecularDb, log), 0) << readAll(log);
  ASSERT_EQ(run("rates --units molecular --temperature 500 --database " + molecularDb +
                    " --directory " + (work / "mdb").string(), log), 0) << readAll(log);
  fs::create_directories(work / "mfiles");
  for (const char* name : {"min.data", "ts.data", "min.A", "min.B", "pathdata"})
    fs::copy_file(example / name, work / "mfiles" / name);
  ASSERT_EQ(run("--pathdata pathdata --units molecular --temperature 500", log, work / "mfiles"), 0)
      << readAll(log);
  EXPECT_EQ(readAll((work / "mdb" / "NGT.rates.new").string()),
            readAll((work / "mfiles" / "NGT.rates.new").string()));
  ASSERT_EQ(run("committors --database " + db + " --temperature 1 --directory " +
                    (work / "db").string(), log), 0) << readAll(log);
  const std::vector<double> q = numbers(readAll((work / "db" / "commit.data").string()));
  ASSERT_EQ(q.size(), 994u);
  EXPECT_EQ(q[143], 1.0);  // minimum 144 is A
  EXPECT_EQ(q[3], 0.0);    // minimum 4 is B
  ASSERT_EQ(run("regroup --database " + db + " --temperature 1 --regroup-threshold 1 --directory " +
                    (work / "db").string(), log), 0) << readAll(log);
  EXPECT_TRUE(fs::exists(work / "db" / "minima_groups"));
  ASSERT_EQ(run("export --database " + db + " --directory " + (work / "out").string(), log), 0)
      << readAll(log);
  EXPECT_FALSE(fs::exists(work / "out" / "points.min"));
  // PATHSAMPLE's columns again (I10 for min.A and min.B), the same numbers.
  for (const char* name : {"min.data", "ts.data", "min.A", "min.B"})
    EXPECT_EQ(numbers(readAll((work / "out" / name).string())),
              numbers(readAll((example / name).string()))) << name;
  EXPECT_EQ(run("grow --database " + db + " --cycles 1 --output " + (work / "grow").string(), log),
            1);
  EXPECT_NE(readAll(log).find("holds a kinetics-only network"), std::string::npos) << readAll(log);
  fs::remove_all(work);
}

// import into an existing database adds what is new and keeps what is there (its minima byte for
// byte); another system is refused and the file left as it was.
TEST(PathsampleCli, ImportMergesIntoAnExistingDatabaseOrRefuses) {
  const std::string input = testDataRoot() + "/lj38/pathsample-untrap/input";
  const std::string grown = testDataRoot() + "/lj38/pathsample-untrap/expected_output";
  if (!fs::exists(grown + "/min.data")) GTEST_SKIP() << grown << " missing";
  const fs::path work = fs::temp_directory_path() / ("pathsample-merge-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  const fs::path log = work / "log";
  const std::string db = (work / "net.h5").string();
  ASSERT_EQ(run("import --directory " + input + " --database " + db, log), 0) << readAll(log);
  ASSERT_EQ(run("export --database " + db + " --directory " + (work / "before").string(), log), 0);
  // The same files again: nothing new, the file's network unchanged.
  ASSERT_EQ(run("import --directory " + input + " --database " + db, log), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("0 minima and 0 transition states are new, 12 and 11 were known; "
                              "now 12 minima, 11 transition states"),
            std::string::npos) << readAll(log);
  // The grown database (64 minima, 70 TS) holds the 12 and 11: the counts add up.
  ASSERT_EQ(run("import --directory " + grown + " --database " + db, log), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("which held 12 minima and 11 transition states: 52 minima and 59 "
                              "transition states are new, 12 and 11 were known; now 64 minima, 70 "
                              "transition states"),
            std::string::npos) << readAll(log);
  ASSERT_EQ(run("export --database " + db + " --directory " + (work / "after").string(), log), 0);
  // The earlier minima keep their rows: the first 12 lines and records are the earlier ones.
  auto head = [](const std::string& text, std::size_t bytes) { return text.substr(0, bytes); };
  const std::string minBefore = readAll((work / "before" / "min.data").string());
  const std::string pointsBefore = readAll((work / "before" / "points.min").string());
  const std::string tsBefore = readAll((work / "before" / "ts.data").string());
  EXPECT_EQ(head(readAll((work / "after" / "min.data").string()), minBefore.size()), minBefore);
  EXPECT_EQ(head(readAll((work / "after" / "points.min").string()), pointsBefore.size()),
            pointsBefore);
  EXPECT_EQ(head(readAll((work / "after" / "ts.data").string()), tsBefore.size()), tsBefore);
  EXPECT_EQ(readAll((work / "after" / "min.A").string()), readAll(input + "/min.A"));
  // Another system (molecular units; a kinetics-only network): refused, the file unchanged.
  const std::string bytes = readAll(db);
  EXPECT_EQ(run("import --directory " + input + " --database " + db + " --units molecular", log), 1);
  EXPECT_NE(readAll(log).find("holds another system (energy unit reduced (epsilon)"),
            std::string::npos) << readAll(log);
  EXPECT_EQ(run("import --no-points --directory " + testDataRoot() + "/kinetics/9comm --database " +
                    db, log), 1);
  EXPECT_NE(readAll(log).find("duplicates cannot be recognised without structures"),
            std::string::npos) << readAll(log);
  EXPECT_EQ(readAll(db), bytes);
  // A gmin minima.h5 (minima only, with their basin-hopping steps) gets the transition states and
  // keeps its minima and their steps.
  const StoredTransitionNetwork files = readPathsampleFiles(input, 38);
  std::vector<StoredMinimum> minima;
  for (std::size_t i = 0; i < files.minima.size(); ++i)
    minima.push_back({files.minima[i].energy, files.minima[i].coordinates, 100 + long(i), 7});
  DatabaseMetadata gmin;
  gmin.atoms = 38;
  gmin.energyUnit = "reduced (epsilon)";
  gmin.lengthUnit = "reduced (sigma)";
  gmin.potential = "lj";
  gmin.program = "gmin";
  const std::string minimaH5 = (work / "minima.h5").string();
  MinimaDatabase::write(minimaH5, gmin, {minima.rbegin(), minima.rend()});  // another order
  ASSERT_EQ(run("import --directory " + input + " --database " + minimaH5, log), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("0 minima and 11 transition states are new"), std::string::npos)
      << readAll(log);
  DatabaseMetadata merged;
  const StoredTransitionNetwork grownGmin = TransitionNetworkDatabase::read(minimaH5, &merged);
  ASSERT_EQ(grownGmin.minima.size(), 12u);
  EXPECT_EQ(grownGmin.transitionStates.size(), 11u);
  EXPECT_EQ(merged.program, "gmin");
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(grownGmin.minima[i].coordinates, minima[11 - i].coordinates);
    EXPECT_EQ(grownGmin.minima[i].firstFoundStep, minima[11 - i].firstFoundStep);
  }
  // NATOMS of a pathdata is checked against points.min.
  std::ofstream(work / "pathdata") << "NATOMS 13\n";
  EXPECT_EQ(run("import --directory " + input + " --database " + (work / "other.h5").string() +
                    " --pathdata " + (work / "pathdata").string(), log), 1);
  EXPECT_NE(readAll(log).find((work / "pathdata").string() + ":1: NATOMS 13, but"),
            std::string::npos) << readAll(log);
  fs::remove_all(work);
}

// Kinetic Monte Carlo (the wales-group Kinetics/FPT_KMC example: the 9-community network at
// T = 5): the mean first-passage time A<-B agrees with the graph transformation's MFPT and with
// PATHSAMPLE's own KMC run of that example, within the sampling errors; a seed gives its times.
TEST(PathsampleCli, KineticMonteCarloAgreesWithNgtAndPathsample) {
  const fs::path example = fs::path(testDataRoot()) / "kinetics" / "9comm";
  const fs::path pathdata = fs::path(testDataRoot()) / "pathdata-examples" /
                            "Kinetics_FPT_KMC_9_comm_output_files_pathdata";
  if (!fs::exists(example / "min.data") || !fs::exists(pathdata)) GTEST_SKIP() << "data missing";
  const fs::path work = fs::temp_directory_path() / ("pathsample-kmc-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  for (const char* name : {"min.data", "ts.data", "min.A", "min.B"})
    fs::copy_file(example / name, work / name);
  fs::copy_file(pathdata, work / "pathdata");  // TEMPERATURE 5.0, NOPOINTS, DEBUG, KMC 50000 1.0 0
  const fs::path log = work / "log";
  ASSERT_EQ(run("--pathdata pathdata --kmc-runs 4000 --seed 7", log, work), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("KMC> A<-B at T= 5: 4000 runs"), std::string::npos) << readAll(log);
  const std::string times = readAll((work / "KMC.data").string());
  const std::vector<double> columns = numbers(times);
  ASSERT_EQ(columns.size(), 3u * 4000u);
  double sum = 0.0, squares = 0.0;
  for (std::size_t i = 1; i < columns.size(); i += 3) sum += columns[i], squares += columns[i] * columns[i];
  const double mean = sum / 4000.0;
  const double error = std::sqrt((squares / 4000.0 - mean * mean) / 4000.0);
  ASSERT_EQ(run("rates --pathdata pathdata", log, work), 0) << readAll(log);
  const std::vector<double> ngt = numbers(readAll((work / "NGT.rates.new").string()));
  ASSERT_EQ(ngt.size(), 5u);
  EXPECT_NEAR(mean, ngt[3], 4.0 * error) << "MFPT(A<-B) by NGT " << ngt[3];
  // PATHSAMPLE's KMC.data of the example (50000 runs): mean 11627.7, standard error 132.8.
  EXPECT_NEAR(mean, 11627.7, 4.0 * std::hypot(error, 132.8));
  ASSERT_EQ(run("--pathdata pathdata --kmc-runs 4000 --seed 7", log, work), 0) << readAll(log);
  EXPECT_EQ(readAll((work / "KMC.data").string()), times);
  fs::remove_all(work);
}

TEST(PathsampleCli, ImportRatesCommittorsRegroupExportOnLj38) {
  const std::string input = testDataRoot() + "/lj38/pathsample-untrap/input";
  if (!fs::exists(input + "/min.data")) GTEST_SKIP() << input << " missing";
  const fs::path work = fs::temp_directory_path() / ("pathsample-cli-" + std::to_string(getpid()));
  fs::create_directories(work);
  const std::string db = (work / "network.h5").string();
  const fs::path log = work / "log";
  ASSERT_EQ(run("import --directory " + input + " --database " + db, log), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("imported 12 minima, 11 transition states, 38 atoms"),
            std::string::npos) << readAll(log);
  ASSERT_EQ(run("rates --database " + db + " --directory " + work.string() +
                    " --temperature 0.1,0.2",
                log), 0) << readAll(log);
  const std::string rates = readAll((work / "NGT.rates.new").string());
  EXPECT_EQ(std::count(rates.begin(), rates.end(), '\n'), 2) << rates;
  EXPECT_EQ(rates.size(), 2u * 101u) << rates;  // 5G20.10E4 per line: T, k, k, MFPT, MFPT
  EXPECT_TRUE(fs::exists(work / "NGT.rates.kSS"));
  EXPECT_TRUE(fs::exists(work / "NGT.rates.kNSS"));
  ASSERT_EQ(run("committors --database " + db + " --directory " + work.string(), log), 0);
  const std::string commit = readAll((work / "commit.data").string());
  EXPECT_EQ(std::count(commit.begin(), commit.end(), '\n'), 12);
  std::istringstream lines(commit);
  std::vector<double> q;
  for (double v; lines >> v;) q.push_back(v);
  ASSERT_EQ(q.size(), 12u);
  EXPECT_EQ(q[1], 1.0);  // minimum 2 is A
  EXPECT_EQ(q[7], 0.0);  // minimum 8 is B
  // DIRECTION BA (pathdata keyword): committors to B, the complement of those to A on every
  // minimum connected to both sets (0 on minima left out either way).
  std::ofstream(work / "pathdata") << "DIRECTION BA\nTEMPERATURE 0.1\n";
  ASSERT_EQ(run("committors --database " + db + " --directory " + (work / "ba").string() +
                    " --pathdata " + (work / "pathdata").string(),
                log), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("committors to B"), std::string::npos) << readAll(log);
  std::istringstream linesBA(readAll((work / "ba" / "commit.data").string()));
  std::vector<double> qBA;
  for (double v; linesBA >> v;) qBA.push_back(v);
  ASSERT_EQ(qBA.size(), 12u);
  EXPECT_EQ(qBA[1], 0.0);
  EXPECT_EQ(qBA[7], 1.0);
  for (std::size_t m = 0; m < 12; ++m) {
    if (q[m] == 0.0 && qBA[m] == 0.0) continue;  // not connected to both sets
    EXPECT_NEAR(q[m] + qBA[m], 1.0, 2e-9) << "minimum " << m + 1;  // printed G20.10
  }
  ASSERT_EQ(run("rates --database " + db + " --directory " + (work / "ba").string() +
                    " --direction BA --temperature 0.1",
                log), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("NGT> DIRECTION BA (B the product): k(B<-A)= "), std::string::npos)
      << readAll(log);
  EXPECT_EQ(run("rates --database " + db + " --direction CA", log), 1);
  // Rates between free-energy groups (PATHSAMPLE's NGT after REGROUPFREE): fewer nodes; a
  // threshold that merges A and B is refused.
  ASSERT_EQ(run("rates --database " + db + " --directory " + (work / "ba").string() +
                    " --regrouped --regroup-threshold 1.0 --temperature 0.1",
                log), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("NGT> regrouped at T= 0.1: 8 free-energy groups from 12 minima"),
            std::string::npos) << readAll(log);
  EXPECT_EQ(run("rates --database " + db + " --regrouped --regroup-threshold 100", log), 1);
  EXPECT_NE(readAll(log).find("puts minima of A and B into one group"), std::string::npos)
      << readAll(log);
  ASSERT_EQ(run("regroup --database " + db + " --directory " + work.string() +
                    " --regroup-threshold 1.0",
                log), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("no --planck"), std::string::npos) << readAll(log);
  EXPECT_TRUE(fs::exists(work / "minima_groups"));
  ASSERT_EQ(run("export --database " + db + " --directory " + (work / "out").string(), log), 0);
  for (const char* name : {"min.data", "ts.data", "points.min", "points.ts", "min.A", "min.B"}) {
    EXPECT_TRUE(readAll(input + "/" + name) == readAll((work / "out" / name).string())) << name;
  }
  // Bad input: a clear error, non-zero exit.
  EXPECT_EQ(run("rates --database " + (work / "missing.h5").string(), log), 1);
  EXPECT_NE(readAll(log).find("pathsample: error:"), std::string::npos);
  fs::remove_all(work);
}

// At kT = 0.002 the LJ38 rates are about exp(-2235): `pathsample rates` printed k = -nan and
// wrote it to the NGT.rates files (0.005 gave k = 0, MFPT = inf). Now the logarithms are printed
// and written to NGT.rates.log, equal to the arbitrary-precision reference
// (tests/data/kinetics/lj38_low_temperature.tsv, tools/checks/ngt_reference.py), and the run ends
// with an error naming the temperatures; the files of PATHSAMPLE's layout keep the others.
TEST(PathsampleCli, LowTemperatureRatesAreLogarithmsNeverNan) {
  const std::string input = testDataRoot() + "/lj38/pathsample-untrap/input";
  if (!fs::exists(input + "/min.data")) GTEST_SKIP() << input << " missing";
  const fs::path work =
      fs::temp_directory_path() / ("pathsample-cold-" + std::to_string(getpid()));
  fs::create_directories(work);
  const std::string db = (work / "network.h5").string();
  const fs::path log = work / "log";
  ASSERT_EQ(run("import --directory " + input + " --database " + db, log), 0) << readAll(log);
  EXPECT_EQ(run("rates --database " + db + " --directory " + work.string() +
                    " --temperature 0.002,0.005,0.1",
                log), 1);
  const std::string out = readAll(log);
  EXPECT_EQ(out.find("nan"), std::string::npos) << out;
  EXPECT_NE(out.find("NGT> ln k(A<-B)= -2235.012119   ln k(B<-A)= -2569.329083"), std::string::npos)
      << out;
  EXPECT_NE(out.find("pathsample: error: the rates at T= 0.002 (ln k(A<-B)= -2235.012119), T= "
                     "0.005 (ln k(A<-B)= -887.0309218) lie beyond double precision"),
            std::string::npos) << out;
  // Every temperature in NGT.rates.log; the arbitrary-precision values to 1e-9.
  std::istringstream logs(readAll((work / "NGT.rates.log").string()));
  std::string header;
  std::getline(logs, header);
  const double reference[3][2] = {{-2235.0121186189730176, -2569.3290830105938112},
                                  {-887.03092178904720967, -1018.5334336871465499},
                                  {-34.099543190863687539, -36.653578558835957424}};
  for (int row = 0; row < 3; ++row) {
    double t = 0.0, lnkAB = 0.0, lnkBA = 0.0;
    ASSERT_TRUE(logs >> t >> lnkAB >> lnkBA) << "row " << row;
    EXPECT_NEAR(lnkAB, reference[row][0], 1e-9 * std::fabs(reference[row][0])) << "T= " << t;
    EXPECT_NEAR(lnkBA, reference[row][1], 1e-9 * std::fabs(reference[row][1])) << "T= " << t;
    std::string rest;
    std::getline(logs, rest);
  }
  const std::string rates = readAll((work / "NGT.rates.new").string());
  EXPECT_EQ(std::count(rates.begin(), rates.end(), '\n'), 1) << rates;  // T = 0.1 only
  EXPECT_EQ(rates.find("Infinity"), std::string::npos) << rates;
  fs::remove_all(work);
}
#endif

}  // namespace
}  // namespace landscape
