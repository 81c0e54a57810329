// The optim executable end to end: the built-in LJ7 example, OPTIM input files, extending a
// database, and one-line errors with a non-zero exit on bad input. The LJ38 example of
// tests/data/lj38/optim runs in the slow suite.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "landscape/network/Database.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Characterisation.h"
#include "landscape/paths/RigidBodyNormalModes.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/GayBerne.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodyTerms.h"
#include "potentials/SitePotential.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/WaterCluster.h"
#include "src/optim/OptimConfig.h"
#include "src/optim/OptimSystem.h"
#include "tests/AshMinima.h"
#include "tests/Lj7Structures.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

struct OptimRun {
  int exitCode;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The three result lines at the end of stdout.
struct Summary {
  std::string connected;
  int transitionStates = -1;
  double highest = NAN;
};

Summary summary(const std::string& out) {
  const std::vector<std::string> l = lines(out);
  Summary s;
  if (l.size() < 3) return s;
  const std::string& c = l[l.size() - 3];
  const std::string& t = l[l.size() - 2];
  const std::string& h = l[l.size() - 1];
  if (c.rfind("connected: ", 0) == 0) s.connected = c.substr(11);
  if (t.rfind("transition states on the path: ", 0) == 0)
    s.transitionStates = std::stoi(t.substr(31));
  if (h.rfind("highest barrier: ", 0) == 0 && h.substr(17, 4) != "none")
    s.highest = std::stod(h.substr(17));
  return s;
}

class OptimCli : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    m_dir = fs::temp_directory_path() /
            ("landscape-optim-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  void expectThreadsChangeNothing(const std::string& args);

  // The executable built beside the tests; $LANDSCAPE_OPTIM_EXECUTABLE overrides it when the
  // build tree has moved.
  static std::string executable() {
    const char* env = std::getenv("LANDSCAPE_OPTIM_EXECUTABLE");
    return env && *env ? env : LANDSCAPE_OPTIM_EXECUTABLE;
  }
  OptimRun optim(const std::string& args) {
    const fs::path out = m_dir / "stdout.txt", err = m_dir / "stderr.txt";
    const std::string command = "cd '" + m_dir.string() + "' && '" + executable() + "' " + args +
                                " > '" + out.string() + "' 2> '" + err.string() + "'";
    const int status = std::system(command.c_str());
    return {WEXITSTATUS(status), slurp(out), slurp(err)};
  }
  fs::path file(const std::string& name, const std::string& content) {
    const fs::path p = m_dir / name;
    std::ofstream(p) << content;
    return p;
  }
  // An odata-style POINTS block of x (label LA).
  static std::string points(const std::vector<double>& x) {
    std::ostringstream out;
    out.precision(12);
    for (std::size_t i = 0; i < x.size(); i += 3) {
      out << "LA " << x[i] << " " << x[i + 1] << " " << x[i + 2] << "\n";
    }
    return out.str();
  }
  // A failing run: exit 1 and one line on stderr, "optim: error: " and then `piece` somewhere.
  void expectError(const std::string& args, const std::string& piece) {
    const OptimRun r = optim(args);
    EXPECT_EQ(r.exitCode, 1) << args << "\n" << r.out << r.err;
    const std::vector<std::string> l = lines(r.err);
    ASSERT_EQ(l.size(), 1u) << args << "\n" << r.err;
    EXPECT_EQ(l[0].rfind("optim: error: ", 0), 0u) << l[0];
    EXPECT_NE(l[0].find(piece), std::string::npos) << "'" << piece << "' not in: " << l[0];
  }
  fs::path m_dir;
};

TEST_F(OptimCli, DefaultRunConnectsTheBuiltInLj7Minima) {
  const OptimRun r = optim("");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Summary s = summary(r.out);
  EXPECT_EQ(s.connected, "yes");
  EXPECT_GE(s.transitionStates, 1);
  EXPECT_GT(s.highest, -16.0);  // above both minima (-16.505384, -15.935043)
  EXPECT_LT(s.highest, -15.0);
  EXPECT_NE(r.out.find("CONNECT CYCLE 1"), std::string::npos);
  EXPECT_NE(r.out.find("point group D5h, order 20"), std::string::npos);

  DatabaseMetadata meta;
  const StoredTransitionNetwork net =
      TransitionNetworkDatabase::read((m_dir / "optim-out/network.h5").string(), &meta);
  EXPECT_EQ(meta.atoms, 7u);
  EXPECT_EQ(meta.program, "optim");
  ASSERT_GE(net.minima.size(), 2u);
  ASSERT_GE(net.transitionStates.size(), 1u);
  EXPECT_NEAR(net.minima[0].energy, -16.505384, 1e-6);
  EXPECT_NEAR(net.minima[1].energy, -15.935043, 1e-6);
  EXPECT_EQ(net.minima[0].properties.pointGroupOrder, 20);
  EXPECT_EQ(net.minima[1].properties.pointGroupOrder, 6);
  for (const StoredTransitionState& ts : net.transitionStates) {
    EXPECT_LT(ts.eigenvalue, 0.0);
    EXPECT_TRUE(std::isfinite(ts.properties.logProductOfPositiveEigenvalues));
    ASSERT_EQ(ts.properties.hessianEigenvalues.size(), 21u);
    EXPECT_LT(ts.properties.hessianEigenvalues.front(), -1e-3);  // one negative eigenvalue
    EXPECT_GT(ts.properties.hessianEigenvalues[1], -1e-3);
  }
  // path.info: every transition state found, as min-ts-min triples with Hessian eigenvalues.
  const std::vector<PathInfoPoint> info = readPathInfo((m_dir / "optim-out/path.info").string(), 7);
  EXPECT_EQ(info.size(), 3 * net.transitionStates.size());
  EXPECT_EQ(info[0].hessianEigenvalues.size(), 21u);
}

TEST_F(OptimCli, OdataPointsAndFinishFileWithADatabaseThatLaterRunsExtend) {
  // The LJ7 endpoints as OPTIM input: odata with POINTS (start) and a bare `finish` file.
  file("odata",
       "NEWCONNECT 20 1 20.0 20.0 30 0.0 0.025\nNEBK 10.0\nPERMDIST\nDIJKSTRA 1\n"
       "EDIFFTOL 1.0D-6\nGEOMDIFFTOL 0.2\nBFGSMIN 1.0D-6\nREOPTIMISEENDPOINTS\n"
       "BFGSTS 50 3 25 0.0001\nPOINTS\n" +
           points(lj7PentagonalBipyramid()));
  std::string finish;
  const std::vector<double> co = lj7CappedOctahedron();
  for (std::size_t i = 0; i < co.size(); i += 3) {
    finish += std::to_string(co[i]) + " " + std::to_string(co[i + 1]) + " " +
              std::to_string(co[i + 2]) + "\n";
  }
  file("finish", finish);
  const OptimRun first = optim("--odata odata --finish finish --database net.h5 --output one");
  ASSERT_EQ(first.exitCode, 0) << first.out << first.err;
  EXPECT_EQ(summary(first.out).connected, "yes");
  const StoredTransitionNetwork before =
      TransitionNetworkDatabase::read((m_dir / "net.h5").string());
  EXPECT_FALSE(fs::exists(m_dir / "one/network.h5"));  // --database replaces DIR/network.h5

  // Second run: the database already joins the endpoints, so no cycle is needed.
  const OptimRun second = optim("--odata odata --finish finish --database net.h5 --output two");
  ASSERT_EQ(second.exitCode, 0) << second.out << second.err;
  EXPECT_NE(second.out.find("Number of cycles               =      0"), std::string::npos)
      << second.out;
  EXPECT_EQ(summary(second.out).transitionStates, summary(first.out).transitionStates);
  EXPECT_DOUBLE_EQ(summary(second.out).highest, summary(first.out).highest);
  const StoredTransitionNetwork after =
      TransitionNetworkDatabase::read((m_dir / "net.h5").string());
  EXPECT_EQ(after.minima.size(), before.minima.size());
  EXPECT_EQ(after.transitionStates.size(), before.transitionStates.size());
  EXPECT_TRUE(readPathInfo((m_dir / "two/path.info").string(), 7).empty());  // nothing new
}

TEST_F(OptimCli, ExtendsAGminMinimaDatabase) {
  // A minima.h5 as gmin writes it (no transition states, no Hessian fields).
  DatabaseMetadata meta;
  meta.potential = "Lennard-Jones 7 atoms (cpu)";
  meta.energyUnit = "reduced (epsilon)";
  meta.lengthUnit = "reduced (sigma)";
  meta.atoms = 7;
  meta.program = "gmin";
  StoredMinimum a, b;
  a.coordinates = lj7PentagonalBipyramid();
  a.energy = -16.505384;
  b.coordinates = lj7CappedOctahedron();
  b.energy = -15.935043;
  a.firstFoundStep = 3;
  MinimaDatabase::write((m_dir / "minima.h5").string(), meta, {a, b});
  writeXyz((m_dir / "a.xyz").string(), a.coordinates, "start");
  writeXyz((m_dir / "b.xyz").string(), b.coordinates, "finish");
  const OptimRun r = optim("--start a.xyz --finish b.xyz --database minima.h5 --quiet");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_EQ(lines(r.out).size(), 3u) << r.out;  // --quiet: the result lines only
  EXPECT_EQ(summary(r.out).connected, "yes");
  DatabaseMetadata after;
  const StoredTransitionNetwork net =
      TransitionNetworkDatabase::read((m_dir / "minima.h5").string(), &after);
  EXPECT_EQ(after.program, "gmin");  // the file keeps its origin
  EXPECT_GE(net.transitionStates.size(), 1u);
  EXPECT_EQ(net.minima[0].firstFoundStep, 3);
  EXPECT_EQ(MinimaDatabase::read((m_dir / "minima.h5").string()).size(), net.minima.size());
  for (const StoredNetworkMinimum& m : net.minima) {  // gmin's minima characterised too
    EXPECT_TRUE(std::isfinite(m.properties.logProductOfPositiveEigenvalues));
    EXPECT_GT(m.properties.pointGroupOrder, 0);
  }
}

// DNEB and hybrid EF in rigid coordinates (atoms 1-3 of LJ7 as one body); the database
// holds atoms.
// stdout without what may differ between equal runs: the batch line (thread count), the elapsed
// time and the time= of each DNEB run.
std::string withoutTimeAndBatch(const std::string& out) {
  std::string kept;
  for (const std::string& line : lines(out)) {
    if (line.rfind(" batch> ", 0) == 0 || line.find("Elapsed time=") != std::string::npos) continue;
    kept += line.substr(0, line.find(" time=")) + "\n";
  }
  return kept;
}

// --threads 1 is the unbatched code path; 2 and 3 batch the DNEB images, the descents and the
// endpoint minimisations over copies of the potential: path.info and stdout are the same bytes.
void OptimCli::expectThreadsChangeNothing(const std::string& args) {
  std::string info1, out1;
  for (int threads : {1, 2, 3}) {
    const std::string dir = "t" + std::to_string(threads);
    const OptimRun r = optim(args + "--threads " + std::to_string(threads) + " --output run");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    fs::rename(m_dir / "run", m_dir / dir);  // the output names the folder: the same for all
    EXPECT_NE(r.out.find(threads == 1 ? " batch> one structure at a time (1 thread)"
                                      : " batch> DNEB images through batch of"),
              std::string::npos)
        << r.out;
    const std::string info = slurp(m_dir / dir / "path.info");
    ASSERT_FALSE(info.empty());
    if (threads == 1) {
      info1 = info;
      out1 = withoutTimeAndBatch(r.out);
      continue;
    }
    EXPECT_EQ(info, info1) << threads << " threads";
    EXPECT_EQ(withoutTimeAndBatch(r.out), out1) << threads << " threads";
  }
}

TEST_F(OptimCli, ThreadsChangeNothingInPathInfoOrOutput) { expectThreadsChangeNothing(""); }

// --searches-in-flight: a band's candidates refined side by side, every structure through
// shared batched calls of CPU potentials: path.info and stdout are the one-search-at-a-time run's
// bytes, for 1 and 2 threads; the batch line says so. So too with --rigid (the shared calls of
// the batched rigid potential).
TEST_F(OptimCli, SearchesInFlightChangeNothingInPathInfoOrOutput) {
  const OptimRun plain = optim("--threads 1 --output plain");
  ASSERT_EQ(plain.exitCode, 0) << plain.out << plain.err;
  fs::rename(m_dir / "plain", m_dir / "p");
  for (int threads : {1, 2}) {
    const OptimRun r =
        optim("--threads " + std::to_string(threads) + " --searches-in-flight 3 --output plain");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("a band's candidates 3 side by side, every structure in shared calls"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(slurp(m_dir / "plain" / "path.info"), slurp(m_dir / "p" / "path.info")) << threads;
    EXPECT_EQ(withoutTimeAndBatch(r.out), withoutTimeAndBatch(plain.out)) << threads;
    fs::remove_all(m_dir / "plain");
  }
  file("body.rigid", "GROUP 3\n1\n2\n3\n");
  const OptimRun alone = optim("--rigid body.rigid --threads 1 --output r");
  ASSERT_EQ(alone.exitCode, 0) << alone.out << alone.err;
  fs::rename(m_dir / "r", m_dir / "a");
  const OptimRun rigid = optim("--rigid body.rigid --threads 2 --searches-in-flight 2 --output r");
  ASSERT_EQ(rigid.exitCode, 0) << rigid.out << rigid.err;
  EXPECT_NE(rigid.out.find("side by side, every structure in shared calls"), std::string::npos)
      << rigid.out;
  EXPECT_EQ(slurp(m_dir / "r" / "path.info"), slurp(m_dir / "a" / "path.info"));
  EXPECT_EQ(withoutTimeAndBatch(rigid.out), withoutTimeAndBatch(alone.out));
}

// Rigid bodies on the CPU threads: each thread gets the rigid potential over its
// own atomistic copy, so the built-in LJ7 example with atoms 1-3 rigid batches its images,
// descents and endpoints over 2 and 3 threads and writes the 1-thread run's path.info and output.
TEST_F(OptimCli, RigidThreadsChangeNothingInPathInfoOrOutput) {
  file("body.rigid", "GROUP 3\n1\n2\n3\n");
  expectThreadsChangeNothing("--rigid body.rigid ");
}

TEST_F(OptimCli, RigidBodiesConnectTheBuiltInLj7Minima) {
  file("body.rigid", "GROUP 3\n1\n2\n3\n");
  const OptimRun r = optim("--rigid body.rigid");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Summary s = summary(r.out);
  EXPECT_EQ(s.connected, "yes");
  EXPECT_GE(s.transitionStates, 1);
  DatabaseMetadata meta;
  const StoredTransitionNetwork net =
      TransitionNetworkDatabase::read((m_dir / "optim-out/network.h5").string(), &meta);
  EXPECT_EQ(meta.atoms, 7u);
  ASSERT_FALSE(net.transitionStates.empty());
  EXPECT_EQ(net.transitionStates[0].coordinates.size(), 21u);
  for (const StoredTransitionState& ts : net.transitionStates)
    EXPECT_GT(
        ts.energy,
        std::min(net.minima[ts.plusMinimum].energy, net.minima[ts.minusMinimum].energy) + 1e-6);
}

// Connect runs and rigid bodies together: a molecule on AMBER-GB with its peptide bonds as rigid
// bodies (the finder's bodies for the start). The run connects the two chi1 rotamers of Ace-Ash-Nme
// in rigid coordinates, and every stored structure keeps each body's shape: its interatomic
// distances are those of the start to round-off (Angstrom), which a Cartesian search would not
// preserve.
TEST_F(OptimCli, AmberMoleculeWithRigidPeptideBonds) {
  const std::optional<AshMinima> ash = makeAshMinima(1e-4);
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  writeAmberRestart((m_dir / "a.rst7").string(), ash->first, "ash minimum");
  writeXyz((m_dir / "b.xyz").string(), ash->second, "ash chi1 rotamer");
  RigidBodyFinderParams params;
  params.aromaticRings = false;
  params.sp2Centres = false;
  const RigidBodySet bodies = findRigidBodies(ash->topology, ash->first, params).set;
  ASSERT_GE(bodies.bodies().size(), 2u);  // Ace-Ash and Ash-Nme peptide bonds
  writeRigidBodies((m_dir / "peptides.rigid").string(), bodies);
  const OptimRun r = optim("--prmtop '" + ash->prmtop +
                           "' --start a.rst7 --finish b.xyz --rigid peptides.rigid "
                           "--database net.h5 --output rigid");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Summary s = summary(r.out);
  EXPECT_EQ(s.connected, "yes");
  EXPECT_GE(s.transitionStates, 1);
  EXPECT_TRUE(r.err.empty()) << r.err;

  const StoredTransitionNetwork net = TransitionNetworkDatabase::read((m_dir / "net.h5").string());
  ASSERT_GE(net.minima.size(), 2u);
  ASSERT_GE(net.transitionStates.size(), 1u);
  std::vector<std::vector<double>> structures;
  for (const auto& m : net.minima) structures.push_back(m.coordinates);
  for (const auto& ts : net.transitionStates) {
    structures.push_back(ts.coordinates);
    EXPECT_GT(ts.energy,
              std::max(net.minima[ts.plusMinimum].energy, net.minima[ts.minusMinimum].energy));
  }
  const auto distance = [](const std::vector<double>& x, std::size_t i, std::size_t j) {
    return std::hypot(x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1],
                      x[3 * i + 2] - x[3 * j + 2]);
  };
  double worst = 0.0;
  for (const std::vector<double>& x : structures)
    for (const std::vector<std::size_t>& body : bodies.bodies())
      for (std::size_t a = 0; a < body.size(); ++a)
        for (std::size_t b = a + 1; b < body.size(); ++b)
          worst = std::max(worst, std::abs(distance(x, body[a], body[b]) -
                                           distance(ash->first, body[a], body[b])));
  EXPECT_LT(worst, 1e-6) << "largest change of a distance inside a rigid body (Angstrom)";
}

TEST_F(OptimCli, NotConnectedExitsWithStatus2) {
  // One eigenvector-following step cannot converge a transition state.
  const OptimRun r = optim("--ts-steps 1 --max-cycles 2 --quiet");
  EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
  const Summary s = summary(r.out);
  EXPECT_EQ(s.connected.rfind("no (", 0), 0u) << r.out;
  EXPECT_EQ(s.transitionStates, 0);
  EXPECT_TRUE(std::isnan(s.highest));
}

TEST_F(OptimCli, HelpAndVersion) {
  const OptimRun help = optim("--help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("reduced Lennard-Jones units"), std::string::npos);
  EXPECT_NE(help.out.find("--odata FILE"), std::string::npos);
  EXPECT_NE(help.out.find("(default: 0.025)"), std::string::npos);
  EXPECT_NE(help.out.find("--prmtop FILE"), std::string::npos);
  EXPECT_NE(help.out.find("--perm-allow FILE"), std::string::npos);
  EXPECT_NE(help.out.find("no inversion"), std::string::npos);
  const OptimRun version = optim("--version");
  EXPECT_EQ(version.exitCode, 0);
  EXPECT_EQ(version.out.rfind("optim (landscape) ", 0), 0u);
}

TEST_F(OptimCli, BadInputsGiveOneLineErrors) {
  expectError("--frobnicate", "unknown option '--frobnicate'");
  expectError("--start nofile.xyz --finish nofile.xyz", "no such file 'nofile.xyz'");
  file("a.xyz", "7\nstart\n" + points(lj7PentagonalBipyramid()));
  file("four.xyz", "4\nsquare\nLA 0 0 0\nLA 1.2 0 0\nLA 0 1.2 0\nLA 1.2 1.2 0\n");
  expectError("--start a.xyz", "--start needs --finish");
  expectError("--start a.xyz --finish four.xyz", "four.xyz has 4 atoms");
  expectError("--start a.xyz --finish a.xyz", "are the same minimum");
  expectError("--lj 8 --start a.xyz --finish a.xyz", "--lj 8 disagrees");
  expectError("--lj 13", "--lj 13 needs --start and --finish");
  expectError("--max-cycles 0", "--max-cycles: expected an integer >= 1");
  expectError("--backend gpu", "gpu");
  file("bad.xyz", "7\nstart\n" + points(lj7PentagonalBipyramid()) + "LA 1 2\n");
  expectError("--start bad.xyz --finish a.xyz", "bad.xyz");
  // Not a minimum and no REOPTIMISEENDPOINTS.
  file("square.xyz", "4\nsquare\nLA 0 0 0\nLA 1.2 0 0\nLA 0 1.2 0\nLA 1.2 1.2 0\n");
  expectError("--start square.xyz --finish four.xyz --reoptimise-endpoints no",
              "not a minimum: RMS gradient");
  file("notes.h5", "not HDF5");
  expectError("--database notes.h5", "is not an HDF5 file");
}

TEST_F(OptimCli, OdataErrorsNameKeywordAndLine) {
  file("odata", "! a comment\nNEBK 10.0\nFROBNICATE 3\n");
  expectError("--odata odata --finish odata", "odata:3: unknown OPTIM keyword 'FROBNICATE'");
  file("odata2", "NEBK 10.0\nNEWCONNECT 10 1\n");
  expectError("--odata odata2", "odata2:2: NEWCONNECT expects");
  // Warnings for ignored keywords go to stderr and the run goes on.
  file("odata3",
       "PAIRCOLOUR 100\nREOPTIMISEENDPOINTS\nPOINTS\n" + points(lj7PentagonalBipyramid()));
  file("b.xyz", "7\nfinish\n" + points(lj7CappedOctahedron()));
  const OptimRun r = optim("--odata odata3 --finish b.xyz --quiet");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("optim: warning: odata3:1: OPTIM keyword PAIRCOLOUR ignored"),
            std::string::npos)
      << r.err;
}

// A molecule: two chi1 rotamers of Ace-Ash-Nme on AMBER-GB, one as rst7 and one as XYZ, with the
// two methyl groups interchangeable (perm.allow). The database and path.info are in kcal/mol and
// Angstrom, every transition state has one negative Hessian eigenvalue, and a second run from
// --inpcrd extends the database.
TEST_F(OptimCli, AmberMoleculeFromRst7AndXyzEndpoints) {
  const std::optional<AshMinima> ash = makeAshMinima(1e-4);  // optim reoptimises them
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  writeAmberRestart((m_dir / "a.rst7").string(), ash->first, "ash minimum");
  writeXyz((m_dir / "b.xyz").string(), ash->second, "ash chi1 rotamer");
  file("perm.allow", "2\n3 0\n1 3 4\n3 0\n23 24 25\n");
  const std::string system = "--prmtop '" + ash->prmtop + "' ";
  const OptimRun r = optim(system + "--start a.rst7 --finish b.xyz --perm-allow perm.allow " +
                           "--database net.h5 --output one");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Summary s = summary(r.out);
  EXPECT_EQ(s.connected, "yes");
  EXPECT_GE(s.transitionStates, 1);
  EXPECT_GT(s.highest, std::max(ash->firstEnergy, ash->secondEnergy));
  EXPECT_NE(r.out.find("energy kcal/mol, length Angstrom"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no inversion; permutations within 2 groups of perm.allow"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;

  DatabaseMetadata meta;
  const StoredTransitionNetwork net =
      TransitionNetworkDatabase::read((m_dir / "net.h5").string(), &meta);
  EXPECT_EQ(meta.atoms, 25u);
  EXPECT_EQ(meta.energyUnit, "kcal/mol");
  EXPECT_EQ(meta.lengthUnit, "Angstrom");
  EXPECT_EQ(meta.hessianMasses, kAtomicMassesAmu);  // mass-weighted with the prmtop's masses
  EXPECT_EQ(meta.program, "optim");
  ASSERT_GE(net.minima.size(), 2u);
  EXPECT_NEAR(net.minima[0].energy, ash->firstEnergy, 1e-3);
  EXPECT_NEAR(net.minima[1].energy, ash->secondEnergy, 1e-3);
  AlignmentParams chiral;
  chiral.inversion = false;
  chiral.permutations = false;
  EXPECT_LT(minimumDistance(net.minima[0].coordinates, ash->first, chiral), 0.05);  // Angstrom
  EXPECT_LT(minimumDistance(net.minima[1].coordinates, ash->second, chiral), 0.05);
  ASSERT_GE(net.transitionStates.size(), 1u);
  for (const StoredTransitionState& ts : net.transitionStates) {
    EXPECT_LT(ts.eigenvalue, 0.0);
    EXPECT_EQ(ts.properties.pointGroupOrder, 1);  // C1: a protein fragment
    ASSERT_EQ(ts.properties.hessianEigenvalues.size(), 75u);
    EXPECT_LT(ts.properties.hessianEigenvalues.front(), -1e-2);  // kcal/mol/(amu A^2)
    EXPECT_TRUE(std::isfinite(ts.properties.logProductOfPositiveEigenvalues));
  }
  const std::vector<PathInfoPoint> info = readPathInfo((m_dir / "one/path.info").string(), 25);
  EXPECT_EQ(info.size(), 3 * net.transitionStates.size());

  // The start from --inpcrd (no --start); the database already joins the endpoints. Stored as
  // a database from before molecules were mass-weighted (unit masses, other log products): the
  // run computes the mass-weighted properties again.
  DatabaseMetadata old = meta;
  old.hessianMasses = kUnitMasses;
  StoredTransitionNetwork stale = net;
  for (StoredNetworkMinimum& m : stale.minima) m.properties.logProductOfPositiveEigenvalues = 1.0;
  TransitionNetworkDatabase::write((m_dir / "net.h5").string(), old, stale);
  const OptimRun again = optim(system + "--inpcrd a.rst7 --finish b.xyz --perm-allow perm.allow " +
                               "--database net.h5 --output two --quiet");
  ASSERT_EQ(again.exitCode, 0) << again.out << again.err;
  EXPECT_EQ(summary(again.out).transitionStates, s.transitionStates);
  EXPECT_DOUBLE_EQ(summary(again.out).highest, s.highest);
  DatabaseMetadata meta2;
  const StoredTransitionNetwork net2 =
      TransitionNetworkDatabase::read((m_dir / "net.h5").string(), &meta2);
  EXPECT_EQ(meta2.hessianMasses, kAtomicMassesAmu);
  ASSERT_GE(net2.minima.size(), net.minima.size());
  for (std::size_t i = 0; i < net.minima.size(); ++i) {
    EXPECT_NEAR(net2.minima[i].properties.logProductOfPositiveEigenvalues,
                net.minima[i].properties.logProductOfPositiveEigenvalues, 1e-9)
        << "minimum " << i;
  }
}

// The same connect with the potential on the GPU (double precision) finds the same endpoints
// and a connected path; skipped without a CUDA device.
TEST_F(OptimCli, AmberMoleculeOnTheCudaBackend) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  const std::optional<AshMinima> ash = makeAshMinima(1e-4);
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  writeAmberRestart((m_dir / "a.rst7").string(), ash->first, "ash minimum");
  writeAmberRestart((m_dir / "b.rst7").string(), ash->second, "ash chi1 rotamer");
  const std::string args = "--prmtop '" + ash->prmtop + "' --start a.rst7 --finish b.rst7 ";
  // Also with the band's candidates side by side through shared calls of the batched device
  // potential (--searches-in-flight): its round-off, the same checks.
  for (const std::string way : {"", "--searches-in-flight 4 "}) {
    fs::remove_all(m_dir / "cuda");
    const OptimRun cuda = optim(args + way + "--backend cuda --precision double --output cuda");
    ASSERT_EQ(cuda.exitCode, 0) << cuda.out << cuda.err;
    EXPECT_EQ(summary(cuda.out).connected, "yes") << way;
    if (!way.empty())
      EXPECT_NE(
          cuda.out.find("4 side by side, every structure in shared calls of batched AMBER GB"),
          std::string::npos)
          << cuda.out;
    const StoredTransitionNetwork net =
        TransitionNetworkDatabase::read((m_dir / "cuda/network.h5").string());
    ASSERT_GE(net.minima.size(), 2u);
    EXPECT_NEAR(net.minima[0].energy, ash->firstEnergy, 1e-4);
    EXPECT_NEAR(net.minima[1].energy, ash->secondEnergy, 1e-4);
    // The Hessians came from the device (gpu/HessianLogProductCuda): the CPU path agrees.
    AmberGb cpu(ash->topology);
    CharacterisationParams onCpu;
    onCpu.masses = ash->topology.masses;
    for (const StoredTransitionState& ts : net.transitionStates) {
      ASSERT_EQ(ts.properties.hessianEigenvalues.size(), 75u);
      EXPECT_LT(ts.properties.hessianEigenvalues.front(), -1e-2);
      const double f = characterise(cpu, ts.coordinates, onCpu).logProductOfPositiveEigenvalues;
      EXPECT_NEAR(ts.properties.logProductOfPositiveEigenvalues, f, 1e-8 * std::abs(f));
    }
    for (const StoredNetworkMinimum& m : net.minima) {
      const double f = characterise(cpu, m.coordinates, onCpu).logProductOfPositiveEigenvalues;
      EXPECT_NEAR(m.properties.logProductOfPositiveEigenvalues, f, 1e-8 * std::abs(f));
    }
  }
}

// Rigid bodies on --backend cuda: the built-in LJ7 example with atoms 1-3 rigid
// sends its DNEB images through the batched rigid GPU potential (gpu/BatchedRigidBodyCuda over
// BatchedLennardJonesCuda) and connects, with the same endpoints as the CPU run; skipped without a
// CUDA device.
TEST_F(OptimCli, RigidImagesOnTheCudaBackend) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  file("body.rigid", "GROUP 3\n1\n2\n3\n");
  const OptimRun cpu = optim("--rigid body.rigid --threads 1 --output cpu");
  const OptimRun cuda = optim("--rigid body.rigid --backend cuda --output cuda");
  ASSERT_EQ(cpu.exitCode, 0) << cpu.out << cpu.err;
  ASSERT_EQ(cuda.exitCode, 0) << cuda.out << cuda.err;
  EXPECT_NE(cuda.out.find(" batch> DNEB images through batched Lennard-Jones 7 atoms (cuda"),
            std::string::npos)
      << cuda.out;
  EXPECT_NE(cuda.out.find("rigid bodies"), std::string::npos) << cuda.out;
  EXPECT_EQ(summary(cuda.out).connected, "yes");
  const StoredTransitionNetwork a =
      TransitionNetworkDatabase::read((m_dir / "cpu/network.h5").string());
  const StoredTransitionNetwork b =
      TransitionNetworkDatabase::read((m_dir / "cuda/network.h5").string());
  ASSERT_GE(b.minima.size(), 2u);
  EXPECT_NEAR(b.minima[0].energy, a.minima[0].energy, 1e-8);
  EXPECT_NEAR(b.minima[1].energy, a.minima[1].energy, 1e-8);
}

// --lbfgs-backend gpu: the ash rotamers connect with the CUDA potential and every L-BFGS but the
// band's on the device (the descents and endpoints on the batched round-based engine), to the CPU
// run's minima; without a device the run stops with one sentence.
TEST_F(OptimCli, LbfgsOnTheDeviceOrAClearError) {
  const std::optional<AshMinima> ash = makeAshMinima(1e-4);
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  writeAmberRestart((m_dir / "a.rst7").string(), ash->first, "ash minimum");
  writeAmberRestart((m_dir / "b.rst7").string(), ash->second, "ash chi1 rotamer");
  const std::string args = "--prmtop '" + ash->prmtop + "' --start a.rst7 --finish b.rst7 ";
  if (!gpuAvailable()) {
    // A CUDA build on a machine without a device and a build without CUDA each name their case.
#ifdef LANDSCAPE_HAVE_CUDA
    expectError(args + "--lbfgs-backend gpu", "--lbfgs-backend gpu: no CUDA device found");
#else
    expectError(args + "--lbfgs-backend gpu", "this build has no CUDA support");
#endif
    return;
  }
  const OptimRun r = optim(args + "--backend cuda --lbfgs-backend gpu --output gpu");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  // The images on the batched GB kernels, the descents and endpoints on the round-based engine.
  EXPECT_NE(r.out.find("DNEB images through batched AMBER GB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("descents"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bytes of device memory per structure"), std::string::npos) << r.out;
  EXPECT_EQ(summary(r.out).connected, "yes");
  const StoredTransitionNetwork net =
      TransitionNetworkDatabase::read((m_dir / "gpu/network.h5").string());
  ASSERT_GE(net.minima.size(), 2u);
  EXPECT_NEAR(net.minima[0].energy, ash->firstEnergy, 1e-4);
  EXPECT_NEAR(net.minima[1].energy, ash->secondEnergy, 1e-4);
  for (const StoredTransitionState& ts : net.transitionStates) EXPECT_LT(ts.eigenvalue, 0.0);
}

TEST_F(OptimCli, AmberInputErrorsNameFileAndLine) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found";
  const std::string system = "--prmtop '" + *prmtop + "' ";
  const std::string start = "--start '" + *rst7 + "' ";
  file("perm.allow", "2\n3 0\n1 3 4\n3 0\n23 24 26\n");
  expectError(system + start + "--finish '" + *rst7 + "' --perm-allow perm.allow",
              "perm.allow:5: group 2: expected an atom index from 1 to 25, found '26'");
  file("overlap.allow", "2\n3 0\n1 3 4\n2 0\n4 5\n");
  expectError(system + start + "--finish '" + *rst7 + "' --perm-allow overlap.allow",
              "overlap.allow:5: group 2: atom 4 is already in group 1 (line 3)");
  expectError("--perm-allow perm.allow", "--perm-allow applies to molecules and needs --prmtop");
  expectError(system + start, "--prmtop needs --finish FILE");
  expectError(system + "--finish '" + *rst7 + "'", "--prmtop needs --start FILE or --inpcrd");
  expectError(system + start + "--finish '" + *rst7 + "' --lj 25",
              "--lj cannot be combined with --prmtop");
  expectError(system + start + "--finish '" + *rst7 + "' --permutations yes",
              "permutations of a molecule's atoms need their groups, --perm-allow FILE");
  expectError(system + start + "--finish '" + *rst7 + "' --igb 3", "--igb: expected 1, 2 or 5");
  file("seven.xyz", "7\nLJ7\n" + points(lj7PentagonalBipyramid()));
  expectError(system + start + "--finish seven.xyz", "seven.xyz has 7 atoms, but");
  expectError(system + start + "--finish '" + *rst7 + "'", "are the same minimum");
  // A Lennard-Jones database cannot take a molecule's minima.
  const OptimRun lj = optim("--database lj.h5 --quiet");
  ASSERT_EQ(lj.exitCode, 0) << lj.err;
  file("b.xyz", "");
  writeXyz((m_dir / "b.xyz").string(), readAmberCoordinates(*rst7).positions, "ash");
  expectError(system + start + "--finish b.xyz --database lj.h5",
              "not 'kcal/mol' and 'Angstrom' as this run");
}

// OPTIM's LJ38 example (tests/data/lj38/optim) through the command line: OPTIM needed 5 connect
// cycles and found 8 transition states on the path, the highest at -168.7591078.
// ---- rigid TIP4P water (--water) ----------------------------------------------------------------

// GMIN's TIP4P octamer input (tests/data/water/gmin-tip4p/coords: 8 oxygens, then 8 angle-axis
// vectors), with the angle-axis x component of the first `turned` molecules increased by 2 rad.
std::vector<double> tip4pOctamerInput(int turned) {
  std::vector<double> x =
      readCoordinates((fs::path(LANDSCAPE_SOURCE_DIR) / "tests/data/water/gmin-tip4p/coords").string());
  for (int m = 0; m < turned; ++m) x[24 + 3 * static_cast<std::size_t>(m)] += 2.0;
  return x;
}

std::string gminLines(const std::vector<double>& x) {
  std::ostringstream out;
  out << std::setprecision(17);
  for (std::size_t i = 0; i < x.size(); i += 3) out << x[i] << " " << x[i + 1] << " " << x[i + 2] << "\n";
  return out.str();
}

// The finite-difference Hessian (central differences of the gradient, symmetrised) of `potential`
// at q.
Eigen::MatrixXd finiteDifferenceHessian(Potential& potential, const std::vector<double>& q) {
  const std::size_t n = q.size();
  const double h = 1e-5;
  Eigen::MatrixXd hessian(n, n);
  std::vector<double> x = q, gp(n), gm(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = q[i] + h;
    potential.energyGradient(x.data(), gp.data());
    x[i] = q[i] - h;
    potential.energyGradient(x.data(), gm.data());
    x[i] = q[i];
    for (std::size_t j = 0; j < n; ++j) hessian(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = (gp[j] - gm[j]) / (2 * h);
  }
  return 0.5 * (hessian + hessian.transpose());
}

// Its eigenvalues below -threshold.
int negativeEigenvalues(Potential& potential, const std::vector<double>& q, double threshold,
                        double* lowest) {
  const Eigen::MatrixXd symmetric = finiteDifferenceHessian(potential, q);
  const Eigen::VectorXd values = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(symmetric).eigenvalues();
  *lowest = values(0);
  int negative = 0;
  for (Eigen::Index i = 0; i < values.size(); ++i) negative += values(i) < -threshold;
  return negative;
}

// The molecules' normal modes at rigid coordinates q from our own finite-difference Hessian H of
// the rigid potential and the kinetic metric G = L L^T: the eigenvalues of L^-1 H L^-T without the
// six overall motions (those of smallest magnitude). Returns how many are negative and sets
// *logProduct to the sum of the logs of the positive ones.
int negativeNormalModes(Potential& rigid, const RigidBodySystem& bodies,
                        const RigidBodyMasses& masses, const std::vector<double>& q,
                        double* logProduct, std::size_t zeroModes = 6) {
  const Eigen::LLT<Eigen::MatrixXd> llt(kineticMetric(bodies, masses, q));
  const Eigen::MatrixXd half = llt.matrixL().solve(finiteDifferenceHessian(rigid, q));
  const Eigen::MatrixXd K = llt.matrixL().solve(half.transpose());
  Eigen::VectorXd values =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(0.5 * (K + K.transpose())).eigenvalues();
  std::vector<double> v(values.data(), values.data() + values.size());
  std::sort(v.begin(), v.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
  EXPECT_LT(std::abs(v[zeroModes - 1]), 1e-3 * std::abs(v[zeroModes]));
  int negative = 0;
  *logProduct = 0.0;
  for (std::size_t k = zeroModes; k < v.size(); ++k) {
    if (v[k] < 0)
      ++negative;
    else
      *logProduct += std::log(v[k]);
  }
  return negative;
}

// The network of a water connect run in `folder`: every stored transition state, checked on our
// own finite-difference Hessian of the rigid CPU potential, is a stationary point with exactly one
// negative eigenvalue and lies above both its minima; the minima have none; energies in `unit`.
// The molecules' normal modes (`masses`) give each transition state one imaginary frequency and
// each minimum none, and their log products are the stored ones.
void expectRigidNetworkOfStationaryPoints(const fs::path& folder, Potential& atomistic,
                                          const RigidBodySystem& bodies,
                                          const RigidBodyMasses& masses, const std::string& unit,
                                          const std::string& massUnit = "amu") {
  // Zero modes: the overall motions and the spins of bodies with a spin axis (ellipsoids).
  const std::size_t zeroModes = 6 + bodies.spinAxisCount();
  DatabaseMetadata meta;
  const StoredTransitionNetwork net =
      TransitionNetworkDatabase::read((folder / "network.h5").string(), &meta);
  EXPECT_EQ(meta.atoms, bodies.atomCount());
  EXPECT_EQ(meta.energyUnit, unit);
  EXPECT_EQ(meta.hessianMasses, massUnit);
  ASSERT_FALSE(net.transitionStates.empty());
  RigidBodyPotential rigid(atomistic, bodies);
  for (std::size_t k = 0; k < net.transitionStates.size(); ++k) {
    const StoredTransitionState& ts = net.transitionStates[k];
    const std::vector<double> q = bodies.fromAtoms(ts.coordinates);
    std::vector<double> g(q.size());
    const double e = rigid.energyGradient(q.data(), g.data());
    EXPECT_NEAR(e, ts.energy, 1e-6) << "ts " << k;
    EXPECT_LT(rigid.rmsGradient(q.data(), g.data()), 1e-3) << "ts " << k;
    double lowest = 0;
    EXPECT_EQ(negativeEigenvalues(rigid, q, 1e-2, &lowest), 1) << "ts " << k << " lowest " << lowest;
    double logProduct = 0;
    EXPECT_EQ(negativeNormalModes(rigid, bodies, masses, q, &logProduct, zeroModes), 1)
        << "ts " << k;
    EXPECT_NEAR(ts.properties.logProductOfPositiveEigenvalues, logProduct, 1e-4) << "ts " << k;
    EXPECT_GT(ts.energy, std::max(net.minima[ts.plusMinimum].energy,
                                  net.minima[ts.minusMinimum].energy))
        << "ts " << k;
  }
  for (std::size_t k = 0; k < net.minima.size(); ++k) {
    const std::vector<double> q = bodies.fromAtoms(net.minima[k].coordinates);
    double lowest = 0;
    EXPECT_EQ(negativeEigenvalues(rigid, q, 1e-2, &lowest), 0) << "minimum " << k;
    double logProduct = 0;
    EXPECT_EQ(negativeNormalModes(rigid, bodies, masses, q, &logProduct, zeroModes), 0)
        << "minimum " << k;
    EXPECT_NEAR(net.minima[k].properties.logProductOfPositiveEigenvalues, logProduct, 1e-4)
        << "minimum " << k;
  }
}

// The TIP4P octamer's network (8 molecules of 4 sites, kJ/mol).
void expectWaterNetworkOfStationaryPoints(const fs::path& folder) {
  const WaterCluster water = tip4pCluster(8);
  SitePotential sites(water.model);
  expectRigidNetworkOfStationaryPoints(folder, sites, water.rigidSystem(), water.masses(),
                                       "kJ/mol");
}

// Two minima of the TIP4P octamer (GMIN's input, and it with two molecules turned, each minimised
// first) connected in angle-axis coordinates.
TEST_F(OptimCli, WaterOctamerMinimaConnectInAngleAxisCoordinates) {
  file("start.coords", gminLines(tip4pOctamerInput(0)));
  file("finish.coords", gminLines(tip4pOctamerInput(2)));
  const OptimRun r = optim("--water tip4p --start start.coords --finish finish.coords");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(energy kJ/mol, length Angstrom)"), std::string::npos) << r.out;
  const Summary s = summary(r.out);
  EXPECT_EQ(s.connected, "yes");
  EXPECT_GE(s.transitionStates, 1);
  expectWaterNetworkOfStationaryPoints(m_dir / "optim-out");
}

// The same on --backend cuda: the device site potential under the device rigid layer, the DNEB
// images through the batched rigid potential; the stationary points checked on the CPU.
TEST_F(OptimCli, WaterOctamerOnTheCudaBackend) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  file("start.coords", gminLines(tip4pOctamerInput(0)));
  file("finish.coords", gminLines(tip4pOctamerInput(2)));
  const OptimRun r =
      optim("--water tip4p --backend cuda --start start.coords --finish finish.coords");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(cuda"), std::string::npos) << r.out;
  EXPECT_EQ(summary(r.out).connected, "yes");
  expectWaterNetworkOfStationaryPoints(m_dir / "optim-out");
}

// The start's minimum written as sites (XYZ) with two molecules swapped, one molecule's hydrogens
// swapped, turned about z and moved: the same minimum, found over the molecules' and hydrogens'
// permutations (a connect run is refused with the reason).
TEST_F(OptimCli, WaterPermutedCopyIsTheSameMinimum) {
  file("start.coords", gminLines(tip4pOctamerInput(0)));
  const WaterCluster water = tip4pCluster(8);
  std::vector<double> x = water.gminToSites(tip4pOctamerInput(0));
  auto site = [&x](int molecule, int s) { return &x[static_cast<std::size_t>(12 * molecule + 3 * s)]; };
  for (int s = 0; s < 4; ++s) std::swap_ranges(site(1, s), site(1, s) + 3, site(2, s));
  std::swap_ranges(site(0, 1), site(0, 1) + 3, site(0, 2));
  std::ostringstream xyz;
  xyz << "32\npermuted\n" << std::setprecision(17);
  const char* label[4] = {"O", "H", "H", "X"};
  for (int i = 0; i < 32; ++i) {
    const double* p = &x[3 * static_cast<std::size_t>(i)];
    xyz << label[i % 4] << " " << -p[1] + 3.0 << " " << p[0] - 1.0 << " " << p[2] + 0.5 << "\n";
  }
  file("finish.xyz", xyz.str());
  expectError("--water tip4p --start start.coords --finish finish.xyz", "are the same minimum");
}

TEST_F(OptimCli, WaterBadInputGivesOneLineErrors) {
  file("start.coords", gminLines(tip4pOctamerInput(0)));
  std::vector<double> odd = tip4pOctamerInput(0);
  odd.resize(odd.size() - 3);
  file("odd.coords", gminLines(odd));
  file("short.xyz", "3\nthree sites\nO 0 0 0\nH 1 0 0\nH 0 1 0\n");
  expectError("--water tip4p --start start.coords --finish odd.coords",
              "odd.coords: rigid water needs GMIN's layout");
  expectError("--water tip4p --start start.coords --finish short.xyz",
              "4 sites per molecule (O H H M), found 3 atoms");
  expectError("--water tip4p --start start.coords", "--water needs --start FILE and --finish FILE");
  expectError("--water tip4p --lj 8 --start start.coords --finish start.coords",
              "--water cannot be combined with");
  expectError("--water tip5p --start start.coords --finish start.coords", "tip5p");
}

// ---- TIP4P water with ions (--ions) ----------------------------------------------------------

// Two minima of Cl-(H2O)4 (tests/data/water/cl4_*.xyz, gmin's sites with the ion last) connected in
// rigid coordinates with the ion a free atom; every stationary point checked on the CPU, the
// molecules' and the ion's masses in the normal modes.
TEST_F(OptimCli, WaterWithAnIonConnectsThroughStationaryPoints) {
  const auto a = testDataPath("water/cl4_a.xyz");
  const auto b = testDataPath("water/cl4_b.xyz");
  if (!a || !b) GTEST_SKIP() << "tests/data/water/cl4_*.xyz not found";
  fs::copy_file(*a, m_dir / "a.xyz");
  fs::copy_file(*b, m_dir / "b.xyz");
  const OptimRun r = optim("--water tip4p --ions Cl- --start a.xyz --finish b.xyz");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("TIP4P water x 4 + Cl- x 1"), std::string::npos) << r.out;
  EXPECT_EQ(summary(r.out).connected, "yes");
  const WaterCluster water = tip4pCluster(4, tip4pIonsFromList("Cl-"));
  SitePotential sites(water.model);
  expectRigidNetworkOfStationaryPoints(m_dir / "optim-out", sites, water.rigidSystem(),
                                       water.masses(), "kJ/mol");
}

// A minimum of (NaCl)2(H2O)6 (tests/data/water/nacl2_w6.xyz) and its copy with the two Na+ and
// the two Cl- swapped, turned and moved: the same minimum over permutations of like ions.
TEST_F(OptimCli, WaterWithIonsPermutedCopyIsTheSameMinimum) {
  const auto path = testDataPath("water/nacl2_w6.xyz");
  if (!path) GTEST_SKIP() << "tests/data/water/nacl2_w6.xyz not found";
  fs::copy_file(*path, m_dir / "start.xyz");
  std::vector<std::string> labels;
  std::vector<double> x = readCoordinates(*path, &labels);
  ASSERT_EQ(labels.size(), 28u);
  std::swap_ranges(&x[3 * 24], &x[3 * 25], &x[3 * 25]);
  std::swap_ranges(&x[3 * 26], &x[3 * 27], &x[3 * 27]);
  std::ostringstream xyz;
  xyz << "28\npermuted\n" << std::setprecision(17);
  for (std::size_t i = 0; i < 28; ++i)
    xyz << labels[i] << " " << -x[3 * i + 1] + 3.0 << " " << x[3 * i] - 1.0 << " "
        << x[3 * i + 2] + 0.5 << "\n";
  file("finish.xyz", xyz.str());
  expectError("--water tip4p --ions Na+:2,Cl-:2 --start start.xyz --finish finish.xyz",
              "are the same minimum");
}

TEST_F(OptimCli, WaterWithIonsBadInputGivesOneLineErrors) {
  const auto a = testDataPath("water/cl4_a.xyz");
  if (!a) GTEST_SKIP() << "tests/data/water/cl4_a.xyz not found";
  fs::copy_file(*a, m_dir / "a.xyz");
  expectError("--water tip4p --ions Na+ --start a.xyz --finish a.xyz",
              "a.xyz: atom 17 is 'Cl' where --ions puts Na+ (Na)");
  expectError("--water tip4p --ions Cl-:2 --start a.xyz --finish a.xyz",
              "4 sites per molecule (O H H M), then one line per ion (2), found 17 atoms");
  expectError("--water tip4p --start a.xyz --finish a.xyz", "found 17 atoms");
  expectError("--water ssd --ions Cl- --start a.xyz --finish a.xyz",
              "--ions: ions are for TIP4P water");
  expectError("--ions Cl- --start a.xyz --finish a.xyz", "--ions: ions are for TIP4P water");
  expectError("--water tip4p --ions I- --start a.xyz --finish a.xyz", "known: Na+, Cl-");
}

// ---- SSD water (--water ssd)
// ---------------------------------------------------------------------

// Two low minima of SSD (H2O)8 (tests/data/water/ssd8_*.xyz, gmin's markers) connected in
// angle-axis coordinates; the stationary points checked on the CPU rigid potential (kcal/mol).
TEST_F(OptimCli, SsdWaterOctamerMinimaConnect) {
  const auto a = testDataPath("water/ssd8_a.xyz");
  const auto b = testDataPath("water/ssd8_b.xyz");
  if (!a || !b) GTEST_SKIP() << "tests/data/water/ssd8_*.xyz not found";
  fs::copy_file(*a, m_dir / "a.xyz");
  fs::copy_file(*b, m_dir / "b.xyz");
  const OptimRun r = optim("--water ssd --start a.xyz --finish b.xyz");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(energy kcal/mol, length Angstrom)"), std::string::npos) << r.out;
  EXPECT_EQ(summary(r.out).connected, "yes");
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), 8);
  SoftStickyDipole ssd(cluster.params, 8);
  expectRigidNetworkOfStationaryPoints(m_dir / "optim-out", ssd, cluster.rigidSystem(),
                                       cluster.masses(), "kcal/mol");
}

// The same on --backend cuda: the device marker potential under the device rigid layer.
TEST_F(OptimCli, SsdWaterOctamerOnTheCudaBackend) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  const auto a = testDataPath("water/ssd8_a.xyz");
  const auto b = testDataPath("water/ssd8_b.xyz");
  if (!a || !b) GTEST_SKIP() << "tests/data/water/ssd8_*.xyz not found";
  fs::copy_file(*a, m_dir / "a.xyz");
  fs::copy_file(*b, m_dir / "b.xyz");
  const OptimRun r = optim("--water ssd --backend cuda --start a.xyz --finish b.xyz");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(cuda"), std::string::npos) << r.out;
  EXPECT_EQ(summary(r.out).connected, "yes");
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), 8);
  SoftStickyDipole ssd(cluster.params, 8);
  expectRigidNetworkOfStationaryPoints(m_dir / "optim-out", ssd, cluster.rigidSystem(),
                                       cluster.masses(), "kcal/mol");
}

// The first minimum with two molecules swapped, one molecule turned by pi about its dipole (its
// side markers swapped), the whole turned about z and moved: the same minimum, found over the
// molecules' and side markers' permutations. The run is refused with the reason.
TEST_F(OptimCli, SsdWaterPermutedCopyIsTheSameMinimum) {
  const auto a = testDataPath("water/ssd8_a.xyz");
  if (!a) GTEST_SKIP() << "tests/data/water/ssd8_a.xyz not found";
  fs::copy_file(*a, m_dir / "a.xyz");
  std::vector<double> x = readCoordinates(*a);
  auto marker = [&x](int molecule, int s) {
    return &x[static_cast<std::size_t>(12 * molecule + 3 * s)];
  };
  for (int s = 0; s < 4; ++s) std::swap_ranges(marker(1, s), marker(1, s) + 3, marker(2, s));
  std::swap_ranges(marker(0, 2), marker(0, 2) + 3, marker(0, 3));
  std::ostringstream xyz;
  xyz << "32\npermuted\n" << std::setprecision(17);
  const char* label[4] = {"D", "D", "X", "X"};
  for (int i = 0; i < 32; ++i) {
    const double* p = &x[3 * static_cast<std::size_t>(i)];
    xyz << label[i % 4] << " " << -p[1] + 3.0 << " " << p[0] - 1.0 << " " << p[2] + 0.5 << "\n";
  }
  file("b.xyz", xyz.str());
  expectError("--water ssd --start a.xyz --finish b.xyz", "are the same minimum");
  file("short.xyz", "3\nthree markers\nD 0 0 0\nD 1 0 0\nX 0 1 0\n");
  expectError("--water ssd --start a.xyz --finish short.xyz",
              "4 markers per molecule (D D X X), found 3 atoms");
}

// ---- Gay-Berne ellipsoids (--ellipsoids)
// ----------------------------------------------------------

// Two minima of 6 ellipsoids (tests/data/gay-berne, gmin's markers) connected in angle-axis
// coordinates with the spins projected out; every stationary point checked on the CPU rigid
// potential: one negative Hessian eigenvalue at the transition state and none at the minima
// beside the 6 + 6 zero modes (overall motions, spins), and the stored log products those of the
// normal modes of unit-mass solid ellipsoids.
TEST_F(OptimCli, EllipsoidMinimaConnect) {
  const auto a = testDataPath("gay-berne/gb6_a.xyz");
  const auto b = testDataPath("gay-berne/gb6_b.xyz");
  if (!a || !b) GTEST_SKIP() << "tests/data/gay-berne/gb6_*.xyz not found";
  fs::copy_file(*a, m_dir / "a.xyz");
  fs::copy_file(*b, m_dir / "b.xyz");
  const OptimRun r = optim("--ellipsoids --start a.xyz --finish b.xyz");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(energy reduced (eps0), length reduced (sigma0))"), std::string::npos)
      << r.out;
  EXPECT_EQ(summary(r.out).connected, "yes");
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 6);
  GayBerne gb(cluster.params, 6);
  expectRigidNetworkOfStationaryPoints(m_dir / "optim-out", gb, cluster.rigidSystem(),
                                       cluster.masses(), "reduced (eps0)", "unit");
}

// The first minimum with two ellipsoids swapped, one turned head to tail, every one spun about
// its axis, the whole turned about z and moved: the same minimum, told apart from nothing by the
// centres and axis tips. The run is refused with the reason; bad files give one-line errors.
TEST_F(OptimCli, EllipsoidCopyTurnedAndSpunIsTheSameMinimum) {
  const auto a = testDataPath("gay-berne/gb6_a.xyz");
  if (!a) GTEST_SKIP() << "tests/data/gay-berne/gb6_a.xyz not found";
  fs::copy_file(*a, m_dir / "a.xyz");
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 6);
  const RigidBodySystem system = cluster.rigidSystem();
  std::vector<double> q = system.fromAtoms(readCoordinates(*a));
  for (std::size_t b = 0; b < 6; ++b) {  // a spin: p -> the rotation R(p) R_z(0.4 + 0.3 b)
    double R[9], S[9], p[3];
    rotationMatrix(&q[18 + 3 * b], R);
    const double angle = 0.4 + 0.3 * static_cast<double>(b), z[3] = {0.0, 0.0, angle};
    rotationMatrix(z, S);
    double RS[9];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        RS[3 * i + j] = 0.0;
        for (int k = 0; k < 3; ++k) RS[3 * i + j] += R[3 * i + k] * S[3 * k + j];
      }
    rotationVectorOf(RS, p);
    std::copy(p, p + 3, &q[18 + 3 * b]);
  }
  std::vector<double> x = system.toAtoms(q);
  auto marker = [&x](int body, int m) { return &x[static_cast<std::size_t>(12 * body + 3 * m)]; };
  for (int m = 0; m < 4; ++m) std::swap_ranges(marker(1, m), marker(1, m) + 3, marker(4, m));
  std::swap_ranges(marker(2, 0), marker(2, 0) + 3, marker(2, 1));  // head to tail: a turn by pi
  std::swap_ranges(marker(2, 2), marker(2, 2) + 3, marker(2, 3));  // about the side axis y
  std::ostringstream xyz;
  xyz << "24\nturned\n" << std::setprecision(17);
  const char* label[4] = {"E", "E", "X", "X"};
  for (int i = 0; i < 24; ++i) {
    const double* p = &x[3 * static_cast<std::size_t>(i)];
    xyz << label[i % 4] << " " << -p[1] + 3.0 << " " << p[0] - 1.0 << " " << p[2] + 0.5 << "\n";
  }
  file("b.xyz", xyz.str());
  expectError("--ellipsoids --start a.xyz --finish b.xyz", "are the same minimum");
  file("short.xyz", "3\nthree markers\nE 0 0 0\nE 1 0 0\nX 0 1 0\n");
  expectError("--ellipsoids --start a.xyz --finish short.xyz",
              "ellipsoids need 4 markers each (E E X X)");
  expectError("--ellipsoids --start a.xyz", "--ellipsoids needs --start FILE and --finish FILE");
  expectError("--ellipsoids --water tip4p --start a.xyz --finish a.xyz",
              "--water cannot be combined with --ellipsoids");
  expectError("--ellipsoids --gay-berne-kappa 0 --start a.xyz --finish a.xyz", "kappa");
}

// The network of an ellipsoid run tells minima apart by their centres and axis tips alone: the
// minimum with every ellipsoid spun about its axis (its side markers moved) is found again, the
// minimum with one ellipsoid moved by 0.5 sigma0 is not.
TEST(OptimEllipsoids, NetworkIgnoresTheSpins) {
  const auto a = testDataPath("gay-berne/gb6_a.xyz");
  if (!a) GTEST_SKIP() << "tests/data/gay-berne/gb6_a.xyz not found";
  OptimConfig config;
  config.ellipsoids = true;
  OptimSettings settings = config.settings;
  OptimSystem system = makeOptimSystem(config, nullptr, 24, settings);
  useRigidEllipsoids(config, system, settings);
  const std::vector<double> q = system.rigid->fromAtoms(readCoordinates(*a));
  TransitionNetwork network(settings.network);
  network.addMinimum(q, -15.59712392);
  std::vector<double> spun = q;
  std::vector<double> modes;
  system.rigid->overallMotionModes(q.data(), modes);
  const std::size_t n = q.size();
  for (std::size_t b = 0; b < 6; ++b)
    for (std::size_t i = 0; i < n; ++i) spun[i] += 0.3 * modes[(6 + b) * n + i];
  const std::vector<double> before = system.rigid->toAtoms(q), after = system.rigid->toAtoms(spun);
  double sideShift = 0.0;
  for (std::size_t i = 0; i < before.size(); ++i)
    if ((i / 3) % 4 >= 2) sideShift = std::max(sideShift, std::abs(after[i] - before[i]));
  ASSERT_GT(sideShift, 0.1);  // the side markers moved
  EXPECT_EQ(network.findMinimum(spun, -15.59712392), 0);
  std::vector<double> moved = q;
  moved[0] += 0.5;
  EXPECT_EQ(network.findMinimum(moved, -15.59712392), -1);
}

class SlowOptimCli : public OptimCli {};

TEST_F(SlowOptimCli, Lj38ExampleFromOptimsInputFiles) {
  const auto odata = testDataPath("lj38/optim/odata");
  const auto finish = testDataPath("lj38/optim/finish");
  if (!odata || !finish) GTEST_SKIP() << "tests/data/lj38/optim not found";
  const OptimRun r = optim("--odata '" + *odata + "' --finish '" + *finish + "' --output lj38");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Summary s = summary(r.out);
  EXPECT_EQ(s.connected, "yes");
  EXPECT_GE(s.transitionStates, 1);
  EXPECT_LT(s.highest, -168.0);
  std::string cycles = "?";
  for (const std::string& line : lines(r.out)) {
    if (line.rfind(" Number of cycles", 0) == 0) cycles = line.substr(line.rfind(' ') + 1);
  }
  std::cout << "optim LJ38 example: " << cycles << " cycles, " << s.transitionStates
            << " transition states on the path, highest " << std::fixed << std::setprecision(7)
            << s.highest << " (OPTIM: 5 cycles, 8, -168.7591078)\n";
  const StoredTransitionNetwork net =
      TransitionNetworkDatabase::read((m_dir / "lj38/network.h5").string());
  EXPECT_EQ(net.minima[0].properties.pointGroupOrder, 48);  // Oh global minimum
  EXPECT_EQ(net.minima[1].properties.pointGroupOrder, 10);  // C5v second-lowest
  EXPECT_NEAR(net.minima[0].properties.logProductOfPositiveEigenvalues, 538.668903, 1e-4);
}

// The LJ38 example with its endpoints, bands, descents batched over 2 threads: path.info is the
// unbatched run's (--threads 1) byte for byte.
TEST_F(SlowOptimCli, Lj38ExamplePathInfoDoesNotDependOnThreads) {
  const auto odata = testDataPath("lj38/optim/odata");
  const auto finish = testDataPath("lj38/optim/finish");
  if (!odata || !finish) GTEST_SKIP() << "tests/data/lj38/optim not found";
  std::string first;
  for (int threads : {1, 2}) {
    const std::string dir = "lj38-t" + std::to_string(threads);
    const OptimRun r = optim("--odata '" + *odata + "' --finish '" + *finish + "' --threads " +
                             std::to_string(threads) + " --output " + dir);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string info = slurp(m_dir / dir / "path.info");
    ASSERT_FALSE(info.empty());
    if (threads == 1)
      first = info;
    else
      EXPECT_EQ(info, first);
  }
}

}  // namespace
}  // namespace landscape
