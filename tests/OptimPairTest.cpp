// optim and pathsample grow on pair systems (docs/pair-potentials.md, "In the programs"): two
// neighbouring minima of a periodic Kob-Andersen box, stored with their atoms across the box from
// each other (tests/data/ka64-connect), connected by DNEB and hybrid eigenvector-following after
// the minimum-image alignment; the stationary points checked against the CPU potential and their
// Hessians (three translational zero modes in a box); the same run from OPTIM's keywords
// (BLJCLUSTER, BULK); pathsample grow on the result; and one-line errors naming file and line.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/network/Database.h"
#include "potentials/PairPotential.h"
#include "tests/BackgroundProgram.h"
#include "tests/TestData.h"

#if defined(LANDSCAPE_OPTIM_EXECUTABLE) && defined(LANDSCAPE_PATHSAMPLE_EXECUTABLE)

namespace landscape {
namespace {

namespace fs = std::filesystem;

using cli_test::ProgramRun;
using cli_test::runProgram;
using cli_test::slurp;

std::size_t lineCount(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// tests/data/ka64-connect/README.md: 64 atoms (51 A, 13 B), box 3.7644, cut at 1.8 sigma_ab.
constexpr const char* kKa64 =
    "--kob-andersen --box 3.7644 --cutoff 1.8 --cutoff-convention quadratic-smoothed";

PairModel ka64Model() {
  PeriodicBox box;
  box.length[0] = box.length[1] = box.length[2] = 3.7644;
  return kobAndersenModel(64, 1.8, PairCutoff::QuadraticSmoothed, box);
}

double rmsGradient(Potential& potential, const std::vector<double>& x) {
  std::vector<double> g(x.size());
  potential.energyGradient(x.data(), g.data());
  double sum = 0.0;
  for (double v : g) sum += v * v;
  return std::sqrt(sum / static_cast<double>(g.size()));
}

// The Hessian's eigenvalues of a stationary point in the box: three zero (the translations), and
// `negative` below zero.
void expectBoxSpectrum(const StationaryPointProperties& p, int negative, const std::string& what) {
  ASSERT_EQ(p.hessianEigenvalues.size(), 3u * 64) << what;
  int zero = 0, below = 0;
  for (double lambda : p.hessianEigenvalues) {
    if (std::abs(lambda) < 1e-3)
      ++zero;
    else if (lambda < 0.0)
      ++below;
  }
  EXPECT_EQ(zero, 3) << what;
  EXPECT_EQ(below, negative) << what;
  EXPECT_EQ(p.pointGroupOrder, 1) << what;
  EXPECT_TRUE(std::isfinite(p.logProductOfPositiveEigenvalues)) << what;
}

class OptimPair : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto start = testDataPath("ka64-connect/start.xyz");
    const auto finish = testDataPath("ka64-connect/finish.xyz");
    if (!start || !finish) GTEST_SKIP() << "tests/data/ka64-connect not found";
    m_start = *start;
    m_finish = *finish;
    static std::atomic<int> counter{0};
    m_dir = fs::temp_directory_path() / ("landscape-optim-pair-" + std::to_string(::getpid()) +
                                         "-" + std::to_string(counter++));
    fs::create_directories(m_dir);
  }
  void TearDown() override {
    if (!m_dir.empty()) fs::remove_all(m_dir);
  }
  ProgramRun program(const char* executable, const std::string& args) {
    return runProgram(m_dir, executable, args);
  }
  ProgramRun optim(const std::string& args) { return program(LANDSCAPE_OPTIM_EXECUTABLE, args); }
  ProgramRun pathsample(const std::string& args) {
    return program(LANDSCAPE_PATHSAMPLE_EXECUTABLE, args);
  }
  fs::path file(const std::string& name, const std::string& content) {
    const fs::path p = m_dir / name;
    std::ofstream(p) << content;
    return p;
  }
  std::string endpoints() const { return "--start " + m_start + " --finish " + m_finish; }
  void expectOneLineError(const ProgramRun& r, const std::string& start,
                          const std::vector<std::string>& pieces) {
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind(start, 0), 0u) << r.err;
    for (const std::string& piece : pieces)
      EXPECT_NE(r.err.find(piece), std::string::npos) << "'" << piece << "' not in " << r.err;
  }

  std::string m_start, m_finish;
  fs::path m_dir;
};

TEST_F(OptimPair, ConnectsTwoKobAndersenMinimaAcrossTheBox) {
  // The files' atoms lie across the box from each other: the straight line between them is long.
  const std::vector<double> a = readCoordinates(m_start), b = readCoordinates(m_finish);
  double raw = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) raw += (a[k] - b[k]) * (a[k] - b[k]);
  ASSERT_GT(std::sqrt(raw), 20.0);

  const ProgramRun r = optim(std::string(kKa64) + " " + endpoints() + " --threads 1 --output o");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("connected: yes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" symmetry> periodic box"), std::string::npos);
  // After the alignment over translations modulo the box the endpoints are neighbours: DNEB's
  // interpolation runs along minimum-image displacements.
  const std::size_t at = r.out.find("finish is minimum 2, distance ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const double aligned = std::stod(r.out.substr(at + 30));
  EXPECT_LT(aligned, 2.0);
  EXPECT_GT(aligned, 0.5);
  // The first band, interpolated between the start and the finish aligned onto it, converges
  // (RMS below NEWCONNECT's 0.025) well before its 500 iterations; a band interpolated without
  // the box's alignment (cluster alignment: rotations, no images) ends its 500 iterations at
  // RMS 6 on these files, its straight lines pulled through other atoms.
  const std::size_t band =
      r.out.find("500-iteration DNEB run for minima 1 and 2 using 50 images: ");
  ASSERT_NE(band, std::string::npos) << r.out;
  const std::string line = r.out.substr(band, r.out.find('\n', band) - band);
  const int iterations = std::stoi(line.substr(line.find("images: ") + 8));
  const double bandRms = std::stod(line.substr(line.find("RMS=") + 4));
  EXPECT_LT(iterations, 500) << line;
  EXPECT_LT(bandRms, 0.025) << line;
  EXPECT_NE(r.out.find("Number of cycles               =      1"), std::string::npos) << r.out;

  PairPotential potential(ka64Model());
  DatabaseMetadata meta;
  const StoredTransitionNetwork net =
      TransitionNetworkDatabase::read((m_dir / "o/network.h5").string(), &meta);
  EXPECT_NE(meta.potential.find("box 3.7644 x 3.7644 x 3.7644"), std::string::npos);
  ASSERT_GE(net.minima.size(), 2u);
  ASSERT_GE(net.transitionStates.size(), 1u);
  for (std::size_t i = 0; i < net.minima.size(); ++i) {
    const StoredNetworkMinimum& m = net.minima[i];
    EXPECT_LE(rmsGradient(potential, m.coordinates), 1e-5) << "minimum " << i + 1;
    EXPECT_NEAR(potential.energy(m.coordinates.data()), m.energy, 1e-9 * std::abs(m.energy));
    expectBoxSpectrum(m.properties, 0, "minimum " + std::to_string(i + 1));
  }
  for (std::size_t t = 0; t < net.transitionStates.size(); ++t) {
    const StoredTransitionState& ts = net.transitionStates[t];
    EXPECT_LE(rmsGradient(potential, ts.coordinates), 1e-4) << "ts " << t + 1;
    EXPECT_LT(ts.eigenvalue, 0.0);
    expectBoxSpectrum(ts.properties, 1, "ts " + std::to_string(t + 1));
  }
  EXPECT_NEAR(net.minima[0].energy, -271.1475411517, 1e-6);
  EXPECT_NEAR(net.minima[1].energy, -272.4725477108, 1e-6);

  // pathsample grow reads the network with the same system (nothing is missing on this path),
  // and refuses it for another.
  const ProgramRun grow = pathsample("grow --database o/network.h5 " + std::string(kKa64) +
                                     " --pair-selection dijkstra --cycles 1 --output g");
  EXPECT_EQ(grow.exitCode, 0) << grow.out << grow.err;
  EXPECT_NE(grow.out.find("grew to"), std::string::npos) << grow.out;
  const ProgramRun other = pathsample(
      "grow --database o/network.h5 --morse 6 --box 3.7644 "
      "--cutoff 1.8 --cycles 1 --output g2");
  EXPECT_EQ(other.exitCode, 1);
  EXPECT_NE(other.err.find("is another system's"), std::string::npos) << other.err;
}

TEST_F(OptimPair, OptimKeywordsDescribeTheSameSystem) {
  // OPTIM's BLJCLUSTER and BULK: the Kob-Andersen parameters with GMIN's quadratic smoothing.
  file("odata",
       "BLJCLUSTER 51 1.5 0.5 0.8 0.88 1.8\n"
       "BULK 3.7644 3.7644 3.7644\n"
       "PERMDIST\n"
       "NEWCONNECT 10 1 20.0 20.0 30\n"
       "BFGSMIN 1.0D-6\n");
  const ProgramRun r = optim("--odata odata " + endpoints() + " --threads 1 --output o");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("optim: Lennard-Jones 64 atoms (51 A + 13 B), quadratic-smoothed at 1.8 "
                       "(first pair), box 3.7644 x 3.7644 x 3.7644"),
            std::string::npos)
      << r.out.substr(0, 300);
  EXPECT_NE(r.out.find("connected: yes"), std::string::npos) << r.out;
}

TEST_F(OptimPair, BadInputIsOneLineNamingTheFileAndLine) {
  file("bad-bulk", "BLJCLUSTER 51 1.5 0.5 0.8 0.88 1.8\nBULK 3.7644 x 3.7644\n");
  expectOneLineError(optim("--odata bad-bulk " + endpoints()), "optim: error: bad-bulk:2:",
                     {"BULK expects a number for the box length y", "'x'"});
  file("small-bulk", "BLJCLUSTER 51 1.5 0.5 0.8 0.88 1.8\nBULK 3.0\n");
  expectOneLineError(optim("--odata small-bulk " + endpoints()),
                     "optim: error: small-bulk:1: BLJCLUSTER:",
                     {"exceeds half the box edge 3 (small-bulk:2: BULK)"});
  file("short", "BLJCLUSTER 51 1.5 0.5\n");
  expectOneLineError(optim("--odata short " + endpoints()), "optim: error: short:1:",
                     {"BLJCLUSTER expects", "(6 fields), found 3 fields"});
  // An endpoint whose labels name the species must list the A atoms first.
  std::string swapped = slurp(m_finish);
  const std::size_t first = swapped.find("\nA ", swapped.find('\n') + 1);
  ASSERT_NE(first, std::string::npos);
  swapped[first + 1] = 'B';
  file("swapped.xyz", swapped);
  expectOneLineError(optim(std::string(kKa64) + " --start " + m_start + " --finish swapped.xyz"),
                     "optim: error: swapped.xyz:3: atom 1 is labelled 'B'",
                     {"of species A", "command line: --kob-andersen"});
  expectOneLineError(optim("--morse 6"),
                     "optim: error: command line: --morse:", {"needs its endpoints"});
}

}  // namespace
}  // namespace landscape

#endif
