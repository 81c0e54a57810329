// `pathsample grow --water`: transition networks of rigid water clusters grown from an optim
// connect run, in angle-axis coordinates, the stationary points characterised by the molecules'
// normal modes (landscape/paths/RigidBodyNormalModes). SSD networks (kcal/mol) feed the kinetics;
// TIP4P networks (kJ/mol) grow, and their kinetics take kJ/mol's constants.
// `pathsample grow --ellipsoids` grows networks of Gay-Berne ellipsoids the same way.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/network/Database.h"
#include "potentials/GayBerne.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/SitePotential.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/WaterCluster.h"
#include "tests/BackgroundProgram.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

#if defined(LANDSCAPE_PATHSAMPLE_EXECUTABLE) && defined(LANDSCAPE_OPTIM_EXECUTABLE)

using cli_test::program;
using cli_test::slurp;

// Runs a program in `dir` with its output in dir/log; returns its exit status.
int run(const fs::path& dir, const std::string& program, const std::string& arguments) {
  const std::string command =
      "cd " + dir.string() + " && " + program + " " + arguments + " > log 2>&1";
  const int status = std::system(command.c_str());
  return status == -1 ? -1 : WEXITSTATUS(status);
}

struct Work {
  fs::path dir;
  explicit Work(const std::string& name)
      : dir(fs::temp_directory_path() / (name + "-" + std::to_string(getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Work() { fs::remove_all(dir); }
  int optim(const std::string& a) const {
    return run(dir, program("LANDSCAPE_OPTIM_EXECUTABLE", LANDSCAPE_OPTIM_EXECUTABLE), a);
  }
  int pathsample(const std::string& a) const {
    return run(dir, program("LANDSCAPE_PATHSAMPLE_EXECUTABLE", LANDSCAPE_PATHSAMPLE_EXECUTABLE), a);
  }
  int gmin(const std::string& a) const {
    return run(dir, program("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE), a);
  }
  std::string log() const { return slurp(dir / "log"); }
};

// Every transition state of a grown network is a stationary point of the rigid CPU potential
// above both its minima; every point has a finite log product of its normal modes (amu).
void expectCharacterisedStationaryPoints(const fs::path& file, Potential& atomistic,
                                         const RigidBodySystem& bodies,
                                         const std::string& masses = "amu") {
  DatabaseMetadata meta;
  const StoredTransitionNetwork net = TransitionNetworkDatabase::read(file.string(), &meta);
  EXPECT_EQ(meta.hessianMasses, masses);
  RigidBodyPotential rigid(atomistic, bodies);
  for (std::size_t k = 0; k < net.transitionStates.size(); ++k) {
    const StoredTransitionState& ts = net.transitionStates[k];
    const std::vector<double> q = bodies.fromAtoms(ts.coordinates);
    std::vector<double> g(q.size());
    EXPECT_NEAR(rigid.energyGradient(q.data(), g.data()), ts.energy, 1e-6) << "ts " << k;
    EXPECT_LT(rigid.rmsGradient(q.data(), g.data()), 1e-3) << "ts " << k;
    EXPECT_GT(ts.energy,
              std::max(net.minima[ts.plusMinimum].energy, net.minima[ts.minusMinimum].energy));
    EXPECT_TRUE(std::isfinite(ts.properties.logProductOfPositiveEigenvalues)) << "ts " << k;
  }
  for (std::size_t k = 0; k < net.minima.size(); ++k)
    EXPECT_TRUE(std::isfinite(net.minima[k].properties.logProductOfPositiveEigenvalues))
        << "minimum " << k;
}

// k(A<-B) of pathsample rates' first NGT line in `log`; NaN when there is none.
double rateAtoB(const std::string& log) {
  const std::size_t at = log.find("NGT> k(A<-B)= ");
  if (at == std::string::npos) return std::nan("");
  return std::stod(log.substr(at + 14));
}

std::size_t transitionStatesOf(const fs::path& file) {
  return TransitionNetworkDatabase::read(file.string()).transitionStates.size();
}

// Two grown networks hold the same points, bit for bit, in one order.
void expectSameNetworks(const fs::path& a, const fs::path& b) {
  const StoredTransitionNetwork x = TransitionNetworkDatabase::read(a.string());
  const StoredTransitionNetwork y = TransitionNetworkDatabase::read(b.string());
  ASSERT_EQ(x.minima.size(), y.minima.size());
  ASSERT_EQ(x.transitionStates.size(), y.transitionStates.size());
  for (std::size_t i = 0; i < x.minima.size(); ++i) {
    EXPECT_EQ(x.minima[i].coordinates, y.minima[i].coordinates) << i;
    EXPECT_EQ(x.minima[i].properties.logProductOfPositiveEigenvalues,
              y.minima[i].properties.logProductOfPositiveEigenvalues)
        << i;
  }
  for (std::size_t i = 0; i < x.transitionStates.size(); ++i) {
    EXPECT_EQ(x.transitionStates[i].coordinates, y.transitionStates[i].coordinates) << i;
    EXPECT_EQ(x.transitionStates[i].plusMinimum, y.transitionStates[i].plusMinimum) << i;
  }
}

// The start of an SSD (H2O)8 growth: optim connects two low minima (tests/data/water/ssd8_*.xyz)
// into w.dir/optim-out/network.h5. False when the data are missing.
bool startSsdNetwork(const Work& w) {
  const auto a = testDataPath("water/ssd8_a.xyz");
  const auto b = testDataPath("water/ssd8_b.xyz");
  if (!a || !b) return false;
  fs::copy_file(*a, w.dir / "a.xyz");
  fs::copy_file(*b, w.dir / "b.xyz");
  EXPECT_EQ(w.optim("--water ssd --start a.xyz --finish b.xyz"), 0) << w.log();
  return true;
}

// SSD (H2O)8: optim connects two minima; two DIJPAIR cycles at 298 K grow the network alike with
// one run per thread (each its own potential) and with the runs in flight sharing batched calls
// of the rigid potential; the kinetics read the grown network in kcal/mol and s^-1; a resume
// without --water is refused.
TEST(WaterGrowth, SsdNetworkGrowsAlikeWithAndWithoutSharedCalls) {
  const Work w("water-growth-ssd");
  if (!startSsdNetwork(w)) GTEST_SKIP() << "tests/data/water/ssd8_*.xyz not found";
  const std::string grow =
      "grow --water ssd --database optim-out/network.h5 --cycles 2 --pairs-per-cycle 3 "
      "--pair-selection dijkstra --temperature 298 ";
  ASSERT_EQ(w.pathsample(grow + "--threads 1 --output one"), 0) << w.log();
  ASSERT_EQ(w.pathsample(grow + "--threads 2 --jobs-in-flight 3 --output shared"), 0) << w.log();
  EXPECT_NE(w.log().find("batch fill"), std::string::npos) << w.log();
  expectSameNetworks(w.dir / "one" / "network.h5", w.dir / "shared" / "network.h5");
  EXPECT_GT(transitionStatesOf(w.dir / "one" / "network.h5"),
            transitionStatesOf(w.dir / "optim-out" / "network.h5"));
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), 8);
  SoftStickyDipole ssd(cluster.params, 8);
  expectCharacterisedStationaryPoints(w.dir / "one" / "network.h5", ssd, cluster.rigidSystem());

  ASSERT_EQ(w.pathsample("rates --database one/network.h5 --units molecular --temperature 298"), 0)
      << w.log();
  EXPECT_NE(w.log().find("MFPT(A<-B)="), std::string::npos) << w.log();

  EXPECT_EQ(w.pathsample("grow --database optim-out/network.h5 --cycles 3 --pairs-per-cycle 3 "
                         "--pair-selection dijkstra --temperature 298 --resume one"),
            1);
}

// gmin's 5 lowest minima of 6 Gay-Berne ellipsoids (CPU, 2 walkers whatever the cores, seed 5)
// in gmin/minima.h5 and frames a.xyz and c.xyz of the first and third; then one optim cycle
// between them on `backend` (exit 2: not connected within the one cycle). False after a failed
// assertion.
bool startEllipsoidNetwork(const Work& w, const std::string& backend = "cpu") {
  EXPECT_EQ(w.gmin("--ellipsoids 6 --walkers 2 --steps 300 --save 5 --seed 5 --backend cpu "
                   "--output gmin"),
            0)
      << w.log();
  // `lowest` holds one XYZ frame per minimum (26 lines: count, comment, 24 markers).
  std::vector<std::string> lines;
  {
    std::ifstream in(w.dir / "gmin" / "lowest");
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  EXPECT_GE(lines.size(), 5u * 26u);
  if (lines.size() < 5u * 26u) return false;
  auto frame = [&](std::size_t k, const std::string& name) {
    std::ofstream out(w.dir / name);
    for (std::size_t i = 26 * k; i < 26 * (k + 1); ++i) out << lines[i] << "\n";
  };
  frame(0, "a.xyz");
  frame(2, "c.xyz");
  const int optim = w.optim("--ellipsoids --backend " + backend +
                            " --start a.xyz --finish c.xyz --database gmin/minima.h5 "
                            "--max-cycles 1");
  EXPECT_EQ(optim, 2) << w.log();  // 2: not connected within the one cycle
  return optim == 2;
}

// Gay-Berne ellipsoids: gmin's 5 lowest minima of 6 ellipsoids (CPU, 2 walkers, seed 5), one optim
// cycle between the first and third (sets A and B, not joined), then one DIJPAIR cycle at kT 0.2
// eps0 grows the network alike with one run per thread and with the runs in flight sharing batched
// calls; every point found is a stationary point of the CPU rigid potential, characterised.
TEST(WaterGrowth, EllipsoidNetworkGrowsAlikeWithAndWithoutSharedCalls) {
  const Work w("ellipsoid-growth");
  if (!startEllipsoidNetwork(w)) return;
  const std::string grow =
      "grow --ellipsoids --database gmin/minima.h5 --cycles 1 --pairs-per-cycle 3 "
      "--pair-selection dijkstra --temperature 0.2 ";
  ASSERT_EQ(w.pathsample(grow + "--threads 1 --output one"), 0) << w.log();
  ASSERT_EQ(w.pathsample(grow + "--threads 2 --jobs-in-flight 3 --output shared"), 0) << w.log();
  EXPECT_NE(w.log().find("batch fill"), std::string::npos) << w.log();
  expectSameNetworks(w.dir / "one" / "network.h5", w.dir / "shared" / "network.h5");
  EXPECT_GT(transitionStatesOf(w.dir / "one" / "network.h5"),
            transitionStatesOf(w.dir / "gmin" / "minima.h5"));
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 6);
  GayBerne gb(cluster.params, 6);
  expectCharacterisedStationaryPoints(w.dir / "one" / "network.h5", gb, cluster.rigidSystem(),
                                      "unit");
  EXPECT_EQ(w.pathsample("grow --database gmin/minima.h5 --cycles 2 --pairs-per-cycle 3 "
                         "--pair-selection dijkstra --temperature 0.2 --resume one"),
            1);  // without --ellipsoids: another run's settings
}

// The same growth on --backend cuda: the runs in flight share batched calls of the device's rigid
// SSD potential; one run in flight and all of them grow the same network, whose stationary points
// hold on the CPU potential.
TEST(WaterGrowth, CudaSsdNetworkGrowsAlikeForAnyRunsInFlight) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  const Work w("water-growth-ssd-cuda");
  if (!startSsdNetwork(w)) GTEST_SKIP() << "tests/data/water/ssd8_*.xyz not found";
  const std::string grow =
      "grow --water ssd --backend cuda --database optim-out/network.h5 --cycles 2 "
      "--pairs-per-cycle 3 --pair-selection dijkstra --temperature 298 ";
  ASSERT_EQ(w.pathsample(grow + "--jobs-in-flight 1 --output one"), 0) << w.log();
  ASSERT_EQ(w.pathsample(grow + "--threads 2 --output all"), 0) << w.log();
  expectSameNetworks(w.dir / "one" / "network.h5", w.dir / "all" / "network.h5");
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), 8);
  SoftStickyDipole ssd(cluster.params, 8);
  expectCharacterisedStationaryPoints(w.dir / "all" / "network.h5", ssd, cluster.rigidSystem());
}

// The ellipsoids on --backend cuda: optim's cycle and then the growth with one run in flight and
// with all of them sharing batched calls of the device's rigid Gay-Berne potential grow the same
// network, whose stationary points hold on the CPU potential.
TEST(WaterGrowth, CudaEllipsoidNetworkGrowsAlikeForAnyRunsInFlight) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  const Work w("ellipsoid-growth-cuda");
  if (!startEllipsoidNetwork(w, "cuda")) return;
  const std::string grow =
      "grow --ellipsoids --backend cuda --database gmin/minima.h5 --cycles 1 --pairs-per-cycle 3 "
      "--pair-selection dijkstra --temperature 0.2 ";
  ASSERT_EQ(w.pathsample(grow + "--jobs-in-flight 1 --output one"), 0) << w.log();
  ASSERT_EQ(w.pathsample(grow + "--threads 2 --output all"), 0) << w.log();
  expectSameNetworks(w.dir / "one" / "network.h5", w.dir / "all" / "network.h5");
  EXPECT_GT(transitionStatesOf(w.dir / "all" / "network.h5"),
            transitionStatesOf(w.dir / "gmin" / "minima.h5"));
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 6);
  GayBerne gb(cluster.params, 6);
  expectCharacterisedStationaryPoints(w.dir / "all" / "network.h5", gb, cluster.rigidSystem(),
                                      "unit");
}

// TIP4P (H2O)8 (GMIN's input, and it with two molecules turned): a grown network in kJ/mol with
// its normal modes; `pathsample rates` refuses it, naming the unit.
TEST(WaterGrowth, Tip4pNetworkGrowsAndItsRatesDoNotDependOnTheEnergyUnit) {
  const auto coords = testDataPath("water/gmin-tip4p/coords");
  if (!coords) GTEST_SKIP() << "tests/data/water/gmin-tip4p/coords not found";
  const Work w("water-growth-tip4p");
  std::vector<double> x = readCoordinates(*coords);
  std::ostringstream start, finish;
  start << std::setprecision(17);
  finish << std::setprecision(17);
  for (std::size_t i = 0; i < x.size(); i += 3) {
    start << x[i] << " " << x[i + 1] << " " << x[i + 2] << "\n";
    const double turn = i == 24 || i == 27 ? 2.0 : 0.0;  // the first two angle-axis vectors
    finish << x[i] + turn << " " << x[i + 1] << " " << x[i + 2] << "\n";
  }
  std::ofstream(w.dir / "start.coords") << start.str();
  std::ofstream(w.dir / "finish.coords") << finish.str();
  ASSERT_EQ(w.optim("--water tip4p --start start.coords --finish finish.coords"), 0) << w.log();
  ASSERT_EQ(w.pathsample("grow --water tip4p --database optim-out/network.h5 --cycles 1 "
                         "--pairs-per-cycle 2 --pair-selection dijkstra --temperature 200 "
                         "--threads 2 --jobs-in-flight 2 --output grown"),
            0)
      << w.log();
  const WaterCluster water = tip4pCluster(8);
  SitePotential sites(water.model);
  expectCharacterisedStationaryPoints(w.dir / "grown" / "network.h5", sites, water.rigidSystem());
  // The kinetics in kJ/mol's constants give the rates of the same network written in kcal/mol
  // (energies / 4.184; each log product of n positive squared frequencies less n ln 4.184: 6N - 6
  // molecular modes at a minimum, one fewer at a transition state): a rate does not depend on
  // the energy unit. Reduced units would misread kJ/mol: refused.
  ASSERT_EQ(w.pathsample("rates --database grown/network.h5 --units molecular --temperature 200 "
                         "--directory kj"),
            0)
      << w.log();
  const double kj = rateAtoB(w.log());
  DatabaseMetadata meta;
  StoredTransitionNetwork net =
      TransitionNetworkDatabase::read((w.dir / "grown" / "network.h5").string(), &meta);
  ASSERT_EQ(meta.energyUnit, "kJ/mol");
  const double lnUnit = std::log(4.184), modes = 6.0 * 8 - 6.0;
  for (StoredNetworkMinimum& m : net.minima) {
    m.energy /= 4.184;
    m.properties.logProductOfPositiveEigenvalues -= modes * lnUnit;
  }
  for (StoredTransitionState& t : net.transitionStates) {
    t.energy /= 4.184;
    t.properties.logProductOfPositiveEigenvalues -= (modes - 1.0) * lnUnit;
  }
  meta.energyUnit = "kcal/mol";
  TransitionNetworkDatabase::write((w.dir / "kcal.h5").string(), meta, net);
  ASSERT_EQ(w.pathsample("rates --database kcal.h5 --units molecular --temperature 200 "
                         "--directory kcal"),
            0)
      << w.log();
  const double kcal = rateAtoB(w.log());
  EXPECT_GT(kj, 0.0);
  EXPECT_NEAR(kj / kcal, 1.0, 1e-8) << kj << " " << kcal;
  EXPECT_EQ(w.pathsample("rates --database grown/network.h5 --temperature 200"), 1);
  EXPECT_NE(w.log().find("its kinetics need --units molecular"), std::string::npos) << w.log();
  // PATHSAMPLE's TEMPERATURE is kT, read as kcal/mol: for a kJ/mol network, K are asked for.
  std::ofstream(w.dir / "pathdata") << "TEMPERATURE 1.66\n";
  EXPECT_EQ(w.pathsample("rates --pathdata pathdata --database grown/network.h5 --units "
                         "molecular"),
            1);
  EXPECT_NE(w.log().find("give --temperature in K"), std::string::npos) << w.log();
}

// Cl-(H2O)4 with the ion a free atom: optim connects two minima (tests/data/water/cl4_*.xyz), two
// SHORTCUT cycles grow the network with the runs in flight sharing batched calls, every point
// characterised; a resume that forgets --ions is refused with the reason.
TEST(WaterGrowth, Tip4pNetworkWithAnIonGrows) {
  const auto a = testDataPath("water/cl4_a.xyz");
  const auto b = testDataPath("water/cl4_b.xyz");
  if (!a || !b) GTEST_SKIP() << "tests/data/water/cl4_*.xyz not found";
  const Work w("water-growth-ion");
  fs::copy_file(*a, w.dir / "a.xyz");
  fs::copy_file(*b, w.dir / "b.xyz");
  ASSERT_EQ(w.optim("--water tip4p --ions Cl- --start a.xyz --finish b.xyz"), 0) << w.log();
  const std::string grow =
      "grow --water tip4p --database optim-out/network.h5 --cycles 2 "
      "--pairs-per-cycle 2 --pair-selection shortcut --temperature 200 "
      "--threads 2 --jobs-in-flight 2 ";
  ASSERT_EQ(w.pathsample(grow + "--ions Cl- --output grown"), 0) << w.log();
  const std::size_t before = transitionStatesOf(w.dir / "optim-out" / "network.h5");
  EXPECT_GT(transitionStatesOf(w.dir / "grown" / "network.h5"), before);
  const WaterCluster water = tip4pCluster(4, tip4pIonsFromList("Cl-"));
  SitePotential sites(water.model);
  expectCharacterisedStationaryPoints(w.dir / "grown" / "network.h5", sites, water.rigidSystem());
  EXPECT_EQ(w.pathsample(grow + "--resume grown"), 1);
  EXPECT_NE(w.log().find("ions among them need --ions"), std::string::npos) << w.log();
}

#endif

}  // namespace
}  // namespace landscape
