// `mpirun -n K pathsample grow` (docs/cluster.md): each cycle's connect runs
// spread over K ranks give the network of one process -- network.h5 identical for K = 1, 2 and 3
// on the LJ38 UNTRAP example -- that holds every stationary point the connect runs reported and
// no stationary point twice; a rank killed with SIGKILL ends the job, and `--resume` completes
// it as if it had never been interrupted; a hung rank ends it after --rank-timeout. The ranks run
// on the CPU, oversubscribed, as root where CI runs as root. Skipped without MPI support.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "landscape/formats/PathsampleExport.h"
#include "landscape/network/Database.h"
#include "landscape/paths/ConnectJobs.h"
#include "potentials/LennardJones.h"
#include "src/pathsample/PathsampleGrowth.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

const std::string kUntrapInput = "/lj38/pathsample-untrap/input";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

void expectSameProperties(const StationaryPointProperties& a, const StationaryPointProperties& b,
                          const std::string& what) {
  EXPECT_TRUE(sameBits(a.logProductOfPositiveEigenvalues, b.logProductOfPositiveEigenvalues))
      << what;
  EXPECT_TRUE(sameBits(a.hessianEigenvalues, b.hessianEigenvalues)) << what;
  EXPECT_EQ(a.pointGroupOrder, b.pointGroupOrder) << what;
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(sameBits(a.principalMoments[i], b.principalMoments[i])) << what;
}

// Two network.h5 files hold the same network, bit for bit: every stored field.
void expectSameNetworkFiles(const fs::path& x, const fs::path& y) {
  const StoredTransitionNetwork a = TransitionNetworkDatabase::read(x.string());
  const StoredTransitionNetwork b = TransitionNetworkDatabase::read(y.string());
  ASSERT_EQ(a.minima.size(), b.minima.size()) << x << " vs " << y;
  ASSERT_EQ(a.transitionStates.size(), b.transitionStates.size()) << x << " vs " << y;
  for (std::size_t i = 0; i < a.minima.size(); ++i) {
    const std::string what = "minimum " + std::to_string(i);
    EXPECT_TRUE(sameBits(a.minima[i].energy, b.minima[i].energy)) << what;
    EXPECT_TRUE(sameBits(a.minima[i].coordinates, b.minima[i].coordinates)) << what;
    EXPECT_EQ(a.minima[i].firstFoundStep, b.minima[i].firstFoundStep) << what;
    EXPECT_EQ(a.minima[i].functionCalls, b.minima[i].functionCalls) << what;
    expectSameProperties(a.minima[i].properties, b.minima[i].properties, what);
  }
  for (std::size_t i = 0; i < a.transitionStates.size(); ++i) {
    const StoredTransitionState &s = a.transitionStates[i], &t = b.transitionStates[i];
    const std::string what = "transition state " + std::to_string(i);
    EXPECT_TRUE(sameBits(s.energy, t.energy)) << what;
    EXPECT_TRUE(sameBits(s.coordinates, t.coordinates)) << what;
    EXPECT_TRUE(sameBits(s.eigenvalue, t.eigenvalue)) << what;
    EXPECT_EQ(s.plusMinimum, t.plusMinimum) << what;
    EXPECT_EQ(s.minusMinimum, t.minusMinimum) << what;
    expectSameProperties(s.properties, t.properties, what);
  }
  EXPECT_EQ(a.setA, b.setA);
  EXPECT_EQ(a.setB, b.setB);
  EXPECT_EQ(a.growth.cycles, b.growth.cycles);
  EXPECT_EQ(a.growth.settings, b.growth.settings);
  EXPECT_EQ(a.growth.triedPairs, b.growth.triedPairs);
  EXPECT_EQ(a.growth.pendingPairs, b.growth.pendingPairs);
}

struct ProgramRun {
  int exitCode;
  std::string out, err;
};

class MpiPathsample : public ::testing::Test {
 protected:
  void SetUp() override {
#if !defined(LANDSCAPE_MPIEXEC) || !defined(LANDSCAPE_PATHSAMPLE_EXECUTABLE)
    GTEST_SKIP() << "this build has no MPI support (LANDSCAPE_MPI) or no pathsample";
#else
    static std::atomic<int> counter{0};
    m_dir = fs::temp_directory_path() / ("landscape-mpi-pathsample-" +
                                         std::to_string(::getpid()) + "-" +
                                         std::to_string(counter++));
    fs::create_directories(m_dir);
    m_input = testDataRoot() + kUntrapInput;
    ASSERT_EQ(pathsample(0, "import --directory " + m_input + " --database in.h5").exitCode, 0);
#endif
  }
  void TearDown() override {
    if (!m_dir.empty()) fs::remove_all(m_dir);
  }

  // pathsample with `args` in the test folder, on `ranks` MPI ranks (0: without mpirun).
  // `environment` is prefixed (the fault drill); a 120 s limit turns a hang into a failure.
  ProgramRun pathsample(int ranks, const std::string& args, const std::string& environment = "") {
    std::string launcher, program;
#if defined(LANDSCAPE_MPIEXEC) && defined(LANDSCAPE_PATHSAMPLE_EXECUTABLE)
    if (ranks > 0)
      launcher = std::string("'") + LANDSCAPE_MPIEXEC + "' --oversubscribe -n " +
                 std::to_string(ranks) + " ";
    const char* env = std::getenv("LANDSCAPE_PATHSAMPLE_EXECUTABLE");
    program = env && *env ? env : LANDSCAPE_PATHSAMPLE_EXECUTABLE;
#endif
    const fs::path out = m_dir / "stdout.txt", err = m_dir / "stderr.txt";
    const std::string command =
        "cd '" + m_dir.string() + "' && env -u LANDSCAPE_FAULT_DRILL OMPI_ALLOW_RUN_AS_ROOT=1 " +
        "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + environment + " timeout 120 " + launcher + "'" +
        program + "' " + args + " > '" + out.string() + "' 2> '" + err.string() + "'";
    const int status = std::system(command.c_str());
    return {WEXITSTATUS(status), slurp(out), slurp(err)};
  }
  // The example's growth: UNTRAP from its pathdata, its odata.connect, 3 connect runs per cycle.
  std::string grow(int cycles) const {
    return "grow --database in.h5 --pathdata " + m_input + "/pathdata --odata " + m_input +
           "/odata.connect --pairs-per-cycle 3 --cycles " + std::to_string(cycles) + " ";
  }
  fs::path m_dir;
  std::string m_input;
};

// Replays the growth recorded in `grown` in one process, as the ranks ran it: the connect runs of
// each cycle's pairs (3 per cycle, in the order tried) on the example's network, merged in pair
// order. Every stationary point a run reported must be in `grown` and every entry of `grown` must
// be an input entry or reported by a run; no two entries are the same stationary point.
void expectDatabaseIsTheUnionOfTheReports(const StoredTransitionNetwork& grown,
                                          const std::string& input) {
  PathsampleConfig config;
  config.odataFile = input + "/odata.connect";
  const OptimConfig optim = growthConnectSettings(config, [](const std::string&) {});
  const Connect connect(optim.settings.connect);
  const PotentialMaker lj = [] { return std::make_unique<LennardJones>(38); };
  const StoredTransitionNetwork start = readPathsampleFiles(input, pathsampleAtomCount(input));
  TransitionNetwork network(optim.settings.network);
  for (const StoredNetworkMinimum& m : start.minima) network.addMinimum(m.coordinates, m.energy);
  for (const StoredTransitionState& t : start.transitionStates)
    network.addTransitionState(t.coordinates, t.energy, -1.0, t.plusMinimum, t.minusMinimum);
  // The database as a network with the same tolerances (duplicate detection finds each entry).
  TransitionNetwork database(optim.settings.network);
  for (const StoredNetworkMinimum& m : grown.minima) {
    const TransitionNetwork::Added added = database.addMinimum(m.coordinates, m.energy);
    EXPECT_TRUE(added.isNew) << "minimum " << added.index << " is stored twice";
  }
  for (const StoredTransitionState& t : grown.transitionStates) {
    const TransitionNetwork::Added added = database.addTransitionState(
        t.coordinates, t.energy, t.eigenvalue, t.plusMinimum, t.minusMinimum);
    EXPECT_TRUE(added.isNew) << "transition state " << added.index << " is stored twice";
  }
  std::vector<bool> reported(grown.transitionStates.size(), false);
  for (std::size_t t = 0; t < start.transitionStates.size(); ++t) reported[t] = true;
  ThreadPool pool(1);
  const std::vector<std::array<int, 2>>& tried = grown.growth.triedPairs;
  ASSERT_EQ(tried.size(), 3u * static_cast<std::size_t>(grown.growth.cycles));
  for (std::size_t first = 0; first < tried.size(); first += 3) {
    const std::vector<std::array<int, 2>> pairs(tried.begin() + first, tried.begin() + first + 3);
    for (const ConnectJobResult& job : runConnectJobs(connect, lj, network, pairs, pool)) {
      for (const NetworkTransitionState& t : job.transitionStates) {
        if (t.plusMinimum == t.minusMinimum) continue;  // not stored (one minimum both sides)
        const int at = database.findTransitionState(t.coordinates, t.energy);
        EXPECT_GE(at, 0) << "a reported transition state (E = " << t.energy
                         << ") is not in the database";
        if (at >= 0) reported[static_cast<std::size_t>(at)] = true;
        for (int m : {t.plusMinimum, t.minusMinimum})
          EXPECT_GE(database.findMinimum(job.minima[m].coordinates, job.minima[m].energy), 0);
      }
      mergeConnectJob(network, job);
    }
  }
  for (std::size_t t = 0; t < reported.size(); ++t)
    EXPECT_TRUE(reported[t]) << "transition state " << t << " was reported by no connect run";
  EXPECT_EQ(network.minima().size(), grown.minima.size());
  EXPECT_EQ(network.transitionStates().size(), grown.transitionStates.size());
}

TEST_F(MpiPathsample, NetworkIsTheSameForOneTwoAndThreeRanks) {
  for (int k : {1, 2, 3}) {
    const std::string dir = "k" + std::to_string(k);
    const ProgramRun r = pathsample(k, grow(2) + "--output " + dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    if (k == 3) {  // pair i on rank i mod 3: the first UNTRAP pairs, as PATHSAMPLE lists them
      EXPECT_NE(r.out.find("on MPI, 3 ranks"), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("pairs: 8-2 (rank 0) 10-2 (rank 1) 6-4 (rank 2)"), std::string::npos)
          << r.out;
    }
    if (k > 1) expectSameNetworkFiles(m_dir / "k1/network.h5", m_dir / dir / "network.h5");
  }
  const StoredTransitionNetwork grown =
      TransitionNetworkDatabase::read((m_dir / "k3/network.h5").string());
  EXPECT_EQ(grown.growth.cycles, 2);
  EXPECT_GT(grown.transitionStates.size(), 11u);  // the example's 11 and new ones
  expectDatabaseIsTheUnionOfTheReports(grown, m_input);
}

// --cycles-in-flight 2 over ranks: each rank runs its share of both cycles in flight, and every
// rank receives and merges them in cycle and pair order: the one-process network, bit for bit.
TEST_F(MpiPathsample, CyclesInFlightGiveTheOneProcessNetworkOnTwoRanks) {
  const std::string overlap = grow(4) + "--pair-list-size 4 --cycles-in-flight 2 --output ";
  for (int k : {0, 2}) {
    const ProgramRun r = pathsample(k, overlap + "k" + std::to_string(k));
    ASSERT_EQ(r.exitCode, 0) << r.err;
  }
  expectSameNetworkFiles(m_dir / "k0/network.h5", m_dir / "k2/network.h5");
  EXPECT_EQ(TransitionNetworkDatabase::read((m_dir / "k2/network.h5").string()).growth.cycles, 4);
}

// The fault drill kills rank 1 of 3 (SIGKILL) as cycle 2 starts, once cycle 1 is saved: the
// launcher ends the job with its message, network.h5 holds cycle 1, and `--resume` (on 2 ranks)
// completes the run with the network of a run never interrupted.
TEST_F(MpiPathsample, KilledRankEndsTheJobAndResumeCompletesIt) {
  const ProgramRun whole = pathsample(0, grow(3) + "--output whole");
  ASSERT_EQ(whole.exitCode, 0) << whole.err;
  const ProgramRun killed = pathsample(3, grow(3) + "--output part", "LANDSCAPE_FAULT_DRILL=1:2");
  EXPECT_NE(killed.exitCode, 0);
  EXPECT_NE(killed.exitCode, 124) << "the job hung after a rank died";
  EXPECT_NE(killed.err.find("exited on signal 9"), std::string::npos) << killed.err;
  EXPECT_EQ(TransitionNetworkDatabase::read((m_dir / "part/network.h5").string()).growth.cycles, 1);
  const ProgramRun resumed = pathsample(2, grow(3) + "--resume part");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("cycle 1 of 3"), std::string::npos) << resumed.out;
  expectSameNetworkFiles(m_dir / "whole/network.h5", m_dir / "part/network.h5");
}

// Rank 2 stops (SIGSTOP: alive, so the launcher does not notice) as cycle 2 starts; the others
// end the job within --rank-timeout with a message instead of waiting forever.
TEST_F(MpiPathsample, HungRankEndsTheJobAfterTheRankTimeout) {
  const ProgramRun r = pathsample(3, grow(3) + "--rank-timeout 1 --output part",
                           "LANDSCAPE_FAULT_DRILL=2:2:stop");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.exitCode, 124) << "the job hung with a stopped rank";
  EXPECT_NE(r.err.find("no answer from the other ranks for 1 s (--rank-timeout)"),
            std::string::npos) << r.err;
}

TEST_F(MpiPathsample, OnlyGrowthRunsOverRanks) {
  const ProgramRun r = pathsample(2, "rates --database in.h5");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("only `pathsample grow` runs over ranks"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace landscape
