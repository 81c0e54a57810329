// SSD water clusters in gmin (--water ssd, docs/water.md): the defaults, the lowest minima of 2 to
// 5 molecules against an independent numpy evaluation and search
// (tools/utilities/make_ssd_references.py), the files written, and one-line errors for bad input.
// Every minimum written is checked against the CPU reference (SoftStickyDipole under the rigid
// layer): a stationary point at the energy the lowest file states.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "landscape/formats/LowestFile.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/SoftStickyDipole.h"
#include "src/gmin/GminOptions.h"
#include "tests/BackgroundProgram.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

using cli_test::ProgramRun;
using cli_test::runProgram;

std::size_t lineCount(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

class SsdWaterCli : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    m_dir = fs::temp_directory_path() /
            ("landscape-ssd-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  ProgramRun gmin(const std::string& args) {
    return runProgram(
        m_dir, cli_test::program("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE), args);
  }
  // The lowest minima of a run: markers D D X X per molecule, each minimum a stationary point of
  // the CPU reference in rigid coordinates at the energy written.
  std::vector<StoredMinimum> checkedLowest(const std::string& output, std::size_t molecules) {
    std::vector<std::string> labels;
    const std::vector<StoredMinimum> lowest =
        readLowestFile((m_dir / output / "lowest").string(), &labels);
    const SoftStickyDipoleCluster cluster =
        softStickyDipoleCluster(SoftStickyDipoleParams(), molecules);
    SoftStickyDipole ssd(cluster.params, molecules);
    RigidBodyPotential rigid(ssd, cluster.rigidSystem());
    EXPECT_EQ(labels.size(), 4 * molecules);
    for (std::size_t i = 0; i < labels.size(); ++i)
      EXPECT_EQ(labels[i], (i % 4 < 2 ? "D" : "X")) << i;
    for (const StoredMinimum& m : lowest) {
      EXPECT_EQ(m.coordinates.size(), 12 * molecules);
      const std::vector<double> q = cluster.rigidSystem().fromAtoms(m.coordinates);
      std::vector<double> g(q.size());
      const double e = rigid.energyGradient(q.data(), g.data());
      EXPECT_NEAR(e, m.energy, 1e-6);  // the lowest file's coordinates to 10 decimals
      EXPECT_LT(rigid.rmsGradient(q.data(), g.data()), 1e-3);  // TIGHTCONV 1e-4, rounded
    }
    return lowest;
  }
  void expectOneLineError(const ProgramRun& r, const std::string& where, const std::string& piece) {
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("gmin: error: " + where, 0), 0u) << r.err;
    EXPECT_NE(r.err.find(piece), std::string::npos) << "'" << piece << "' not in " << r.err;
  }
  fs::path m_dir;
};

TEST(SsdWaterOptions, Defaults) {
  const GminConfig c = parseGminCommandLine({"--water", "ssd", "--molecules", "6"});
  EXPECT_EQ(c.waterModel, "ssd");
  EXPECT_EQ(c.waterMolecules, 6u);
  EXPECT_EQ(c.basinHopping.temperature, 1.0);  // kcal/mol
  EXPECT_EQ(c.rigidMoves.translation, 0.5);    // rigid water's moves
  const GminConfig t =
      parseGminCommandLine({"--water", "ssd", "--molecules", "6", "--temperature", "0.5"});
  EXPECT_EQ(t.basinHopping.temperature, 0.5);
}

// The dimer: -7.636642 kcal/mol, the centres 2.754521 A apart (make_ssd_references.py dimer).
TEST_F(SsdWaterCli, GminFindsTheDimerAndDrawsIt) {
  const ProgramRun r = gmin("--water ssd --molecules 2 --walkers 2 --steps 50 --seed 1 --output d");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("SSD water x 2"), std::string::npos) << r.out.substr(0, 300);
  EXPECT_NE(r.out.find("(kcal/mol, Angstrom)"), std::string::npos) << r.out.substr(0, 300);
  const std::vector<StoredMinimum> lowest = checkedLowest("d", 2);
  ASSERT_FALSE(lowest.empty());
  EXPECT_NEAR(lowest[0].energy, -7.636642, 1e-5);
  // water.xyz: O H H per molecule, r_OH 0.9572 A, the oxygens 2.7545 A apart.
  std::ifstream xyz(m_dir / "d" / "water.xyz");
  std::string count, comment;
  ASSERT_TRUE(std::getline(xyz, count));
  EXPECT_EQ(count, "6");
  ASSERT_TRUE(std::getline(xyz, comment));
  EXPECT_NE(comment.find("units=\"kcal/mol, Angstrom\""), std::string::npos) << comment;
  std::vector<std::string> symbols(6);
  std::vector<double> x(18);
  for (int a = 0; a < 6; ++a) xyz >> symbols[a] >> x[3 * a] >> x[3 * a + 1] >> x[3 * a + 2];
  EXPECT_EQ(symbols[0], "O");
  EXPECT_EQ(symbols[1], "H");
  EXPECT_EQ(symbols[3], "O");
  const auto distance = [&x](int a, int b) {
    return std::sqrt(std::pow(x[3 * a] - x[3 * b], 2) + std::pow(x[3 * a + 1] - x[3 * b + 1], 2) +
                     std::pow(x[3 * a + 2] - x[3 * b + 2], 2));
  };
  EXPECT_NEAR(distance(0, 1), 0.9572, 1e-8);
  EXPECT_NEAR(distance(3, 5), 0.9572, 1e-8);
  EXPECT_NEAR(distance(0, 3), 2.754521, 1e-4);
}

// Three to five molecules: the lowest minima of 200 BFGS minimisations from random starts each of
// make_ssd_references.py (cluster N 200), an independent numpy evaluation and search.
TEST_F(SsdWaterCli, GminFindsTheSmallClustersOfAnIndependentSearch) {
  const double reference[3] = {-15.839487, -28.608616, -39.699048};
  for (std::size_t n = 3; n <= 5; ++n) {
    const std::string out = "c" + std::to_string(n);
    const ProgramRun r = gmin("--water ssd --molecules " + std::to_string(n) +
                              " --walkers 2 --steps 1000 --seed 1 --output " + out);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<StoredMinimum> lowest = checkedLowest(out, n);
    ASSERT_FALSE(lowest.empty());
    EXPECT_NEAR(lowest[0].energy, reference[n - 3], 1e-5) << n << " molecules";
  }
}

// inputs/ssd20.cfg reads and runs (its cuda backend replaced by the CPU's, a few steps).
TEST_F(SsdWaterCli, ExampleInputRuns) {
  const fs::path input = fs::path(LANDSCAPE_SOURCE_DIR) / "inputs/ssd20.cfg";
  const ProgramRun r = gmin("--config " + input.string() + " --backend cpu --steps 3 --output e20");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("target -211.026461 not reached"), std::string::npos) << r.out;
  checkedLowest("e20", 20);
}

TEST_F(SsdWaterCli, BadInputGivesOneLineErrorsNamingWhere) {
  std::ofstream(m_dir / "odd") << "0 0 0\n3 0 0\n0 3 0\n";
  expectOneLineError(gmin("--water ssd --coords odd"), "odd", "N centres then N angle-axis");
  std::ofstream(m_dir / "four") << "0 0 0\n3 0 0\n0 0 0\n0 0 0\n";
  expectOneLineError(gmin("--water ssd --molecules 3 --coords four"), "--molecules 3",
                     "holds 2 molecules");
  expectOneLineError(gmin("--water ssd"), "command line: --water", "--molecules");
}

}  // namespace
}  // namespace landscape
