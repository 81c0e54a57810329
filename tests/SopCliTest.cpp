// The `sop` executable and `gmin --sop-pdb` end to end.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "landscape/formats/DcdFile.h"
#include "src/sop/SopOptions.h"
#include "tests/TempFile.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

// A path in the temporary directory that no other test process uses (CI and a second checkout may
// run the suite at once on one machine).
fs::path processTempPath(const std::string& name) {
  return fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The executables built beside the tests; $LANDSCAPE_SOP_EXECUTABLE and
// $LANDSCAPE_GMIN_EXECUTABLE override them when the build was copied elsewhere (GPU machine).
std::string executable(const char* variable, const char* built) {
  const char* env = std::getenv(variable);
  return env && *env ? env : built;
}

int runCommand(const std::string& command, const std::string& log) {
  const int status = std::system((command + " > " + log + " 2>&1").c_str());
  return status == -1 ? -1 : WEXITSTATUS(status);
}

TEST(SopCli, ParsesUnitsPresetsAndProtocol) {
  const SopConfig c = parseSopCommandLine(std::vector<std::string>{
      "--pdb", "x.pdb", "--friction-preset", "bulk-water", "--dt", "20", "--replicas", "16",
      "--pull", "--pull-speed", "1e-3", "--precision", "float", "--rebuild-interval", "1000"});
  EXPECT_DOUBLE_EQ(c.dynamics.langevin.friction, kBulkWaterFriction);
  EXPECT_DOUBLE_EQ(c.dynamics.langevin.timeStep, 20.0);
  EXPECT_EQ(c.dynamics.replicas, 16);
  EXPECT_TRUE(c.dynamics.pulling.enabled);
  EXPECT_EQ(c.dynamics.precision, Precision::Single);
  EXPECT_EQ(c.dynamics.rebuildInterval, 1000);
  EXPECT_THROW(parseSopCommandLine(std::vector<std::string>{"--steps", "5"}), std::runtime_error);
  EXPECT_THROW(parseSopCommandLine(std::vector<std::string>{"--pdb", "x", "--friction", "1",
                                                            "--friction-preset", "sop-gpu"}),
               std::runtime_error);
  EXPECT_THROW(parseSopCommandLine(std::vector<std::string>{"--pdb", "x", "--replicas", "0"}),
               std::runtime_error);
}

#ifdef LANDSCAPE_SOP_EXECUTABLE
TEST(SopCli, PullsTitinAndWritesCurveAndFrames) {
  const auto pdb = testDataPath("sop/1TIT.pdb");
  if (!pdb) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const fs::path dir = processTempPath("landscape-sop-cli-test");
  fs::remove_all(dir);
  const std::string command = executable("LANDSCAPE_SOP_EXECUTABLE", LANDSCAPE_SOP_EXECUTABLE) +
                              " --pdb " + *pdb +
                              " --pull --steps 400 --output-interval 100 --frame-interval 200 "
                              "--replicas 2 --output " +
                              dir.string();
  ASSERT_EQ(runCommand(command, processTempPath("sop-cli.log").string()), 0);
  const std::string curve = readAll((dir / "force_curve_1.dat").string());
  EXPECT_NE(curve.find("time_ps force_kcal_mol_A force_pN extension_A tip_A Q"), std::string::npos);
  int lines = 0;
  for (char ch : curve) lines += ch == '\n';
  EXPECT_EQ(lines, 2 + 5);  // header + steps 0, 100, ..., 400
  const std::string frames = readAll((dir / "trajectory_0.pdb").string());
  EXPECT_NE(frames.find("MODEL        3"), std::string::npos);
  // The same as DCD frames for VMD, with the PDB of the beads beside them.
  ASSERT_EQ(
      runCommand(command + " --trajectory-format dcd", processTempPath("sop-cli-dcd.log").string()),
      0);
  EXPECT_EQ(readDcd((dir / "trajectory_1.dcd").string()).size(), 3u);  // steps 0, 200, 400
  EXPECT_TRUE(fs::exists(dir / "topology.pdb"));
  fs::remove_all(dir);
  fs::remove(processTempPath("sop-cli.log"));
  fs::remove(processTempPath("sop-cli-dcd.log"));
}
#endif

TEST(SopCli, DcdFramesRoundTrip) {
  TempFile file("", ".dcd");
  const std::vector<double> a = {1.5, -2.25, 3.0, 400.125, 5.5, -6.0};
  const std::vector<double> b = {0.0, 0.5, 1.0, -1.0, 2.0, 3.25};
  {
    DcdWriter w(file.path(), 2, 0, 10, 0.05, "test");
    w.write(a.data());
    w.write(b.data());
    EXPECT_EQ(w.frames(), 2u);
  }
  const auto frames = readDcd(file.path());
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0], a);  // all values exact in float
  EXPECT_EQ(frames[1], b);
  std::ifstream in(file.path(), std::ios::binary);
  char header[12];
  in.read(header, 12);
  EXPECT_EQ(std::string(header + 4, 4), "CORD");
}

TEST(SopCli, GminEnergyOnlyPrintsTheComponents) {
  const auto pdb = testDataPath("sop/1TIT.pdb");
  if (!pdb) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const std::string log = processTempPath("gmin-sop.log").string();
  ASSERT_EQ(runCommand(executable("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE) +
                           " --sop-pdb " + *pdb + " --energy-only",
                       log),
            0);
  const std::string out = readAll(log);
  EXPECT_NE(out.find("NATIVE          -382.50000000"), std::string::npos) << out;  // 255 x -1.5
  EXPECT_NE(out.find("FENE"), std::string::npos);
  fs::remove(log);
}

}  // namespace
}  // namespace landscape

namespace landscape {
namespace {

// docs/sop-options.md must be exactly sopOptionsMarkdown(). To regenerate it after editing the
// table: LANDSCAPE_REGENERATE_DOCS=1 landscape_tests --gtest_filter=SopCli.DocMatchesTable
TEST(SopCli, DocMatchesTable) {
  const char* env = std::getenv("LANDSCAPE_SOURCE_DIR");
  const fs::path doc =
      fs::path(env && *env ? env : LANDSCAPE_SOURCE_DIR) / "docs" / "sop-options.md";
  const std::string rendered = sopOptionsMarkdown();
  if (const char* regenerate = std::getenv("LANDSCAPE_REGENERATE_DOCS");
      regenerate != nullptr && std::string(regenerate) == "1")
    std::ofstream(doc, std::ios::binary) << rendered;
  EXPECT_EQ(readAll(doc.string()), rendered)
      << doc << " differs from sop's option table in src/sop/SopOptions.cpp; regenerate it with "
      << "LANDSCAPE_REGENERATE_DOCS=1 landscape_tests --gtest_filter=SopCli.DocMatchesTable";
}

}  // namespace
}  // namespace landscape
