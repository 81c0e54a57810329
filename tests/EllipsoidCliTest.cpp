// Gay-Berne ellipsoids in gmin (--ellipsoids; docs/gay-berne.md): the defaults, the seven-
// ellipsoid cluster's lowest minimum against physics (a monolayer of parallel ellipsoids side by
// side is a two-dimensional Lennard-Jones cluster of the centres scaled by the side-by-side well
// depth, 5/3 eps0 for Gay and Berne's 1981 set; its centred hexagon is computed here with
// potentials/LennardJones), the files written (`lowest` labels, ellipsoids.xyz's centres and
// orientations against the markers) and one-line errors for bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "landscape/formats/LowestFile.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/GayBerne.h"
#include "potentials/LennardJones.h"
#include "potentials/RigidBodyPotential.h"
#include "src/gmin/GminOptions.h"
#include "tests/BackgroundProgram.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

using cli_test::ProgramRun;
using cli_test::runProgram;

// The relaxed planar centred hexagon of 7 Lennard-Jones atoms (reduced units).
double centredHexagonEnergy() {
  std::vector<double> x(21, 0.0);
  for (int k = 0; k < 6; ++k) {
    x[3 * (k + 1)] = 1.12 * std::cos(k * M_PI / 3.0);
    x[3 * (k + 1) + 1] = 1.12 * std::sin(k * M_PI / 3.0);
  }
  LennardJones lj(7);
  LbfgsParams p;
  p.rmsTolerance = 1e-10;
  const LbfgsResult r = Lbfgs(p).minimize(lj, x);
  EXPECT_TRUE(r.converged());
  for (std::size_t i = 2; i < x.size(); i += 3) EXPECT_EQ(x[i], 0.0);  // stays planar
  return r.energy;
}

class EllipsoidCli : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    m_dir = fs::temp_directory_path() / ("landscape-ellipsoids-" + std::to_string(::getpid()) +
                                         "-" + std::to_string(counter++));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  ProgramRun gmin(const std::string& args) {
    return runProgram(
        m_dir, cli_test::program("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE), args);
  }
  void file(const std::string& name, const std::string& content) {
    std::ofstream(m_dir / name) << content;
  }
  void expectOneLineError(const ProgramRun& r, const std::string& where, const std::string& piece) {
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("gmin: error: " + where, 0), 0u) << r.err;
    EXPECT_NE(r.err.find(piece), std::string::npos) << "'" << piece << "' not in " << r.err;
  }
  fs::path m_dir;
};

TEST(EllipsoidOptions, DefaultsAndParameters) {
  const GminConfig c = parseGminCommandLine({"--ellipsoids", "9"});
  EXPECT_EQ(c.ellipsoids, 9u);
  EXPECT_EQ(c.gayBerne.kappa, 3.0);
  EXPECT_EQ(c.gayBerne.kappaPrime, 5.0);
  EXPECT_EQ(c.basinHopping.temperature, 1.0);  // eps0
  EXPECT_EQ(c.basinHopping.stepSize, 0.0);     // rigid-body moves only
  EXPECT_EQ(c.basinHopping.sloppyRms, 1e-4);
  EXPECT_EQ(c.basinHopping.tightRms, 1e-7);
  EXPECT_EQ(c.rigidMoves.translation, 0.5);
  EXPECT_EQ(c.rigidMoves.rotation, 0.6);
  EXPECT_FALSE(c.basinHopping.targetEnergy.has_value());  // not the LJ38 default job
  const GminConfig k = parseGminCommandLine({"--ellipsoids", "4", "--gay-berne-kappa", "4.4",
                                             "--gay-berne-kappa-prime", "20", "--gay-berne-mu", "1",
                                             "--gay-berne-nu", "3", "--gay-berne-cutoff", "6",
                                             "--rigid-rotation", "60"});
  EXPECT_EQ(k.gayBerne.kappa, 4.4);
  EXPECT_EQ(k.gayBerne.kappaPrime, 20.0);
  EXPECT_EQ(k.gayBerne.mu, 1.0);
  EXPECT_EQ(k.gayBerne.nu, 3.0);
  EXPECT_EQ(k.gayBerne.cutoff, 6.0);
  EXPECT_NEAR(k.rigidMoves.rotation, M_PI / 3.0, 1e-12);  // asked for (degrees): no defaults
  EXPECT_EQ(k.rigidMoves.translation, 0.0);
}

// Two walkers from the lattice on the CPU: the lowest minimum is the monolayer, 5/3 times the 2D
// Lennard-Jones hexagon; every minimum written is a stationary point of the CPU reference.
TEST_F(EllipsoidCli, SevenEllipsoidsFormTheScaledLennardJonesHexagon) {
  const ProgramRun r = gmin("--ellipsoids 7 --walkers 2 --steps 400 --seed 1 --output e7");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("lattice start"), std::string::npos) << r.out.substr(0, 300);
  std::vector<std::string> labels;
  const std::vector<StoredMinimum> lowest =
      readLowestFile((m_dir / "e7" / "lowest").string(), &labels);
  ASSERT_FALSE(lowest.empty());
  EXPECT_NEAR(lowest[0].energy, 5.0 / 3.0 * centredHexagonEnergy(), 1e-7);
  ASSERT_EQ(labels.size(), 28u);
  for (std::size_t i = 0; i < labels.size(); ++i) EXPECT_EQ(labels[i], i % 4 < 2 ? "E" : "X");
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 7);
  GayBerne markers(cluster.params, 7);
  RigidBodyPotential rigid(markers, cluster.rigidSystem());
  for (const StoredMinimum& m : lowest) {
    const std::vector<double> q = cluster.rigidSystem().fromAtoms(m.coordinates);
    std::vector<double> g(q.size());
    EXPECT_NEAR(rigid.energyGradient(q.data(), g.data()), m.energy, 1e-7);
    EXPECT_LT(rigid.rmsGradient(q.data(), g.data()), 1e-5);  // TIGHTCONV 1e-7, 10 decimals
  }
  // ellipsoids.xyz, first frame: each centre the markers' mean, each quaternion turning z onto
  // the marker axis, semi-axes 0.5, 0.5, 1.5.
  std::ifstream xyz(m_dir / "e7" / "ellipsoids.xyz");
  std::string line;
  std::getline(xyz, line);
  EXPECT_EQ(line, "7");
  std::getline(xyz, line);
  EXPECT_NE(line.find("orientation:R:4:aspherical_shape:R:3"), std::string::npos) << line;
  for (std::size_t k = 0; k < 7; ++k) {
    ASSERT_TRUE(std::getline(xyz, line));
    std::istringstream in(line);
    std::string label;
    double c[3], q[4], a[3];
    in >> label >> c[0] >> c[1] >> c[2] >> q[0] >> q[1] >> q[2] >> q[3] >> a[0] >> a[1] >> a[2];
    ASSERT_TRUE(static_cast<bool>(in)) << line;
    double centre[3], axis[3];
    GayBerne::centreAndAxis(lowest[0].coordinates.data(), k, centre, axis);
    // R(q) e_z = (2(xz + wy), 2(yz - wx), 1 - 2(x^2 + y^2)).
    const double rz[3] = {2 * (q[0] * q[2] + q[3] * q[1]), 2 * (q[1] * q[2] - q[3] * q[0]),
                          1 - 2 * (q[0] * q[0] + q[1] * q[1])};
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(c[d], centre[d], 1e-9) << line;
      EXPECT_NEAR(rz[d], axis[d], 1e-8) << line;
    }
    EXPECT_EQ(a[0], 0.5);
    EXPECT_EQ(a[2], 1.5);
  }
}

// The example input (inputs/gay-berne13.cfg) on the CPU: it stops at its target.
TEST_F(EllipsoidCli, TheExampleInputReachesItsTarget) {
  const fs::path config = fs::path(LANDSCAPE_SOURCE_DIR) / "inputs/gay-berne13.cfg";
  const ProgramRun r = gmin("--config " + config.string() + " --backend cpu --output g13");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("target reached"), std::string::npos) << r.out.substr(r.out.size() - 400);
  const std::vector<StoredMinimum> lowest = readLowestFile((m_dir / "g13" / "lowest").string());
  ASSERT_FALSE(lowest.empty());
  EXPECT_NEAR(lowest[0].energy, -46.340109, 1e-6);
}

TEST_F(EllipsoidCli, BadInputGivesOneLineErrorsNamingWhere) {
  expectOneLineError(gmin("--gay-berne-kappa 4"), "command line: --gay-berne-kappa",
                     "needs --ellipsoids");
  expectOneLineError(gmin("--ellipsoids 5 --water tip4p --molecules 5"),
                     "command line: --ellipsoids", "cannot be combined with --water");
  expectOneLineError(gmin("--ellipsoids 5 --lj 13"), "command line: --ellipsoids",
                     "cannot be combined with --lj");
  expectOneLineError(gmin("--ellipsoids 1"), "command line: --ellipsoids", "2");
  expectOneLineError(gmin("--ellipsoids 5 --gay-berne-kappa -2"), "command line: --gay-berne-kappa",
                     "-2");
  expectOneLineError(gmin("--ellipsoids 5 --gay-berne-cutoff 1"), "invalid parameters", "cutoff");
  expectOneLineError(gmin("--ellipsoids 5 --angular-threshold 0.5"),
                     "command line: --angular-threshold", "rigid-rotation");
  file("three", "0 0 0\n3 0 0\n0 3 0\n");
  expectOneLineError(gmin("--ellipsoids 2 --coords three"), "three", "4 lines");
}

}  // namespace
}  // namespace landscape
