// Gupta metal clusters in the programs (docs/gupta.md): gmin finds the Gupta13 (platinum) global
// minimum from a seed (pele's -64.91633912 is a loosely quenched copy of it) through --gupta,
// --gupta-params and GMIN's GUPTA keyword alike; optim connects two of its minima and pathsample
// grow runs on the network; bad input gives one-line errors naming where. Every energy written is
// checked against the CPU reference potentials/GuptaPotential.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "landscape/formats/LowestFile.h"
#include "landscape/network/Database.h"
#include "potentials/GuptaPotential.h"
#include "src/gmin/GminOptions.h"
#include "src/optim/OptimOptions.h"
#include "tests/BackgroundProgram.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

using cli_test::ProgramRun;
using cli_test::runProgram;

constexpr double kGupta13 = -64.9163;  // pele's -64.91633912 to the 4 decimals asked of gmin

std::size_t lineCount(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

std::string lastLine(const std::string& text) {
  std::string s = text;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s.substr(s.rfind('\n') + 1);
}

double rmsGradient(Potential& potential, const std::vector<double>& x, double* energy) {
  std::vector<double> g(x.size());
  *energy = potential.energyGradient(x.data(), g.data());
  double sum = 0.0;
  for (double v : g) sum += v * v;
  return std::sqrt(sum / static_cast<double>(g.size()));
}

class GuptaCli : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    m_dir = fs::temp_directory_path() /
            ("landscape-gupta-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  ProgramRun gmin(const std::string& args) {
    return runProgram(
        m_dir, cli_test::program("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE), args);
  }
  ProgramRun optim(const std::string& args) {
    return runProgram(
        m_dir, cli_test::program("LANDSCAPE_OPTIM_EXECUTABLE", LANDSCAPE_OPTIM_EXECUTABLE), args);
  }
  ProgramRun pathsample(const std::string& args) {
    return runProgram(
        m_dir,
        cli_test::program("LANDSCAPE_PATHSAMPLE_EXECUTABLE", LANDSCAPE_PATHSAMPLE_EXECUTABLE),
        args);
  }
  void file(const std::string& name, const std::string& content) {
    std::ofstream(m_dir / name) << content;
  }
  // The lowest minima of a gmin run, each checked against the CPU potential.
  std::vector<StoredMinimum> checkedLowest(const std::string& output, const GuptaParams& params) {
    const std::vector<StoredMinimum> lowest = readLowestFile((m_dir / output / "lowest").string());
    for (const StoredMinimum& m : lowest) {
      GuptaPotential potential(m.coordinates.size() / 3, params);
      double e = 0.0;
      EXPECT_LE(rmsGradient(potential, m.coordinates, &e), 1e-5);
      EXPECT_NEAR(e, m.energy, 1e-8);  // the lowest file's 8 decimals
    }
    return lowest;
  }
  void expectOneLineError(const ProgramRun& r, const std::string& program, const std::string& where,
                          const std::string& piece) {
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind(program + ": error: " + where, 0), 0u) << r.err;
    EXPECT_NE(r.err.find(piece), std::string::npos) << "'" << piece << "' not in " << r.err;
  }
  fs::path m_dir;
};

TEST(GuptaOptions, TheMetalTheNumbersAndGminsKeywordFillOneConfig) {
  const GminConfig byName = parseGminCommandLine({"--gupta", "Pt", "--lj", "13"});
  ASSERT_TRUE(byName.gupta.active());
  EXPECT_EQ(*byName.gupta.metal, GuptaMetal::Platinum);
  EXPECT_FALSE(byName.basinHopping.targetEnergy.has_value());  // not the LJ38 default job
  const GminConfig byNumbers =
      parseGminCommandLine({"--gupta-params", "10.612,4.004,0.2975,2.695", "--lj", "13"});
  const GuptaParams p = guptaParamsOf(byNumbers.gupta), pt = guptaParamsOf(byName.gupta);
  EXPECT_EQ(p.p, pt.p);
  EXPECT_EQ(p.q, pt.q);
  EXPECT_EQ(p.a, pt.a);
  EXPECT_EQ(p.xi, pt.xi);
  EXPECT_EQ(p.r0, 1.0);
  EXPECT_THROW(parseGminCommandLine({"--gupta", "Rh"}), std::runtime_error);
  EXPECT_THROW(parseGminCommandLine({"--gupta", "Pt", "--gupta-params", "1,1,1,1"}),
               std::runtime_error);
  EXPECT_THROW(parseGminCommandLine({"--gupta-params", "0,4,0.3,2.7"}), std::runtime_error);
  // optim's built-in example is LJ7: a Gupta run needs its endpoints.
  EXPECT_THROW(parseOptimCommandLine({"--gupta", "Au"}), std::runtime_error);
}

// Platinum Gupta13 from seed 1 on the CPU: the icosahedron, within a few seconds.
TEST_F(GuptaCli, GminFindsTheGupta13GlobalMinimumFromASeed) {
  const auto t0 = std::chrono::steady_clock::now();
  const ProgramRun r = gmin(
      "--gupta Pt --lj 13 --seed 1 --target -64.9163 --max-time 60 --tight-rms 1e-6 "
      "--output pt13");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("gmin: target reached"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Gupta 13 atoms (p 10.612, q 4.004, A 0.2975, xi 2.695, r0 1)"),
            std::string::npos)
      << r.out.substr(0, 400);
  const std::string line = lastLine(r.out);
  ASSERT_EQ(line.rfind("lowest energy: ", 0), 0u) << line;
  EXPECT_LE(std::stod(line.substr(15)), kGupta13);
  EXPECT_LT(seconds, 10.0);
  const std::vector<StoredMinimum> lowest =
      checkedLowest("pt13", guptaMetalParams(GuptaMetal::Platinum));
  ASSERT_FALSE(lowest.empty());
  EXPECT_NEAR(lowest[0].energy, -64.91633912, 1e-8);  // pele's
  std::printf("[ Gupta13 ] lowest %.8f in %.2f s\n", lowest[0].energy, seconds);
}

TEST_F(GuptaCli, GminsGuptaKeywordAndTheNumbersGiveThePlatinumRun) {
  file("data", "GUPTA 7\nSTEPS 60\nRANSEED 3\nSAVE 2\n");
  const ProgramRun keyword =
      gmin("--gmin-data data --lj 13 --walkers 1 --tight-rms 1e-6 --output keyword");
  ASSERT_EQ(keyword.exitCode, 0) << keyword.err;
  const ProgramRun numbers = gmin(
      "--gmin-data data --gupta-params 10.612,4.004,0.2975,2.695 --lj 13 --walkers 1 "
      "--tight-rms 1e-6 --output numbers");
  ASSERT_EQ(numbers.exitCode, 0) << numbers.err;
  EXPECT_EQ(lastLine(keyword.out), lastLine(numbers.out));
  const auto a = checkedLowest("keyword", guptaMetalParams(GuptaMetal::Platinum));
  const auto b = checkedLowest("numbers", guptaMetalParams(GuptaMetal::Platinum));
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].energy, b[i].energy);
}

TEST_F(GuptaCli, BadInputGivesOneLineErrorsNamingWhere) {
  file("data", "STEPS 10\nGUPTA 3\n");
  expectOneLineError(gmin("--gmin-data data --lj 13"), "gmin", "data:2", "GUPTA");
  expectOneLineError(gmin("--gupta Pt --morse 6 --lj 13"), "gmin", "command line: --gupta",
                     "cannot be combined with");
  expectOneLineError(gmin("--gupta-params 10,-4,0.3,2 --lj 13"), "gmin", "command line",
                     "gupta-params");
  expectOneLineError(optim("--gupta Pt"), "optim", "command line: --gupta", "endpoints");
}

// Two Gupta13 minima from gmin, connected by optim; pathsample grow then runs on the network.
TEST_F(GuptaCli, OptimConnectsTwoMinimaAndPathsampleGrowsTheNetwork) {
  ASSERT_EQ(gmin("--gupta Pt --lj 13 --seed 1 --steps 150 --walkers 1 --save 4 --tight-rms 1e-6 "
                 "--output bh")
                .exitCode,
            0);
  const GuptaParams pt = guptaMetalParams(GuptaMetal::Platinum);
  const std::vector<StoredMinimum> lowest = checkedLowest("bh", pt);
  ASSERT_GE(lowest.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    std::ofstream out(m_dir / ("min" + std::to_string(k) + ".xyz"));
    out << "13\nGupta13 minimum\n";
    const std::vector<double>& x = lowest[k].coordinates;
    char row[128];
    for (std::size_t i = 0; i < 13; ++i) {
      std::snprintf(row, sizeof row, "Pt %.12f %.12f %.12f\n", x[3 * i], x[3 * i + 1],
                    x[3 * i + 2]);
      out << row;
    }
  }
  const ProgramRun r = optim("--gupta Pt --start min0.xyz --finish min1.xyz --output connect");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("connected: yes"), std::string::npos) << r.out;
  const StoredTransitionNetwork network =
      TransitionNetworkDatabase::read((m_dir / "connect/network.h5").string());
  ASSERT_GE(network.transitionStates.size(), 1u);
  GuptaPotential potential(13, pt);
  for (const auto& ts : network.transitionStates) {
    double e = 0.0;
    EXPECT_LE(rmsGradient(potential, ts.coordinates, &e), 1e-5);
    EXPECT_NEAR(e, ts.energy, 1e-9 * std::fabs(e));
    EXPECT_GT(e, lowest[0].energy);
  }
  const ProgramRun grow = pathsample(
      "grow --database connect/network.h5 --gupta Pt --cycles 1 --untrap-increment 0.1 "
      "--untrap-threshold 5 --output grow");
  ASSERT_EQ(grow.exitCode, 0) << grow.out << grow.err;
  EXPECT_NE(grow.out.find("grew to"), std::string::npos) << grow.out;
}

}  // namespace
}  // namespace landscape
