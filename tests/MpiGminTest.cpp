// `mpirun -n K gmin` (docs/cluster.md): the walkers spread over K ranks give the run of
// one process, bit for bit -- `lowest`, minima.h5, the checkpoint, the BHPT exchanges, the walker
// that reaches the target -- for K = 1, 2 and 3; a rank that dies ends the job with a message and
// `--resume` completes it. The ranks run on the CPU, oversubscribed (CI has 2 cores), as root
// where CI runs as root. Skipped when the build has no MPI support.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/SameMinima.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

struct GminRun {
  int exitCode;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The line of `text` that starts with `prefix`, without its timing (" after ... s"); empty if none.
std::string lineStarting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) return line.substr(0, line.find(" after "));
  return "";
}

// A walkers progress line without its rate "(... /s)" and time "t= ...".
std::string withoutTimings(std::string line) {
  const std::size_t open = line.find(" ("), close = line.find("/s)");
  if (open != std::string::npos && close != std::string::npos)
    line.erase(open, close + 3 - open);
  return line.substr(0, line.find("  t="));
}

class MpiGmin : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef LANDSCAPE_MPIEXEC
    GTEST_SKIP() << "this build has no MPI support (LANDSCAPE_MPI)";
#endif
    static std::atomic<int> counter{0};
    m_dir = fs::temp_directory_path() /
            ("landscape-mpi-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(m_dir);
  }
  void TearDown() override {
    if (!m_dir.empty()) fs::remove_all(m_dir);
  }

  static std::string gminExecutable() {
    const char* env = std::getenv("LANDSCAPE_GMIN_EXECUTABLE");
    return env && *env ? env : LANDSCAPE_GMIN_EXECUTABLE;
  }
  // gmin with `args` in the test folder: on `ranks` MPI ranks, or without mpirun for ranks 0.
  // `environment` is prefixed to the command (e.g. the fault drill), `wrapper` runs it (a script
  // that signals a rank). A 120 s limit turns a hang into a failure.
  GminRun gmin(int ranks, const std::string& args, const std::string& environment = "",
               const std::string& wrapper = "") {
    std::string launcher;
#ifdef LANDSCAPE_MPIEXEC
    if (ranks > 0)
      launcher = std::string("'") + LANDSCAPE_MPIEXEC + "' --oversubscribe -n " +
                 std::to_string(ranks) + " ";
#endif
    const fs::path out = m_dir / "stdout.txt", err = m_dir / "stderr.txt";
    const std::string command =
        "cd '" + m_dir.string() + "' && env -u LANDSCAPE_FAULT_DRILL OMPI_ALLOW_RUN_AS_ROOT=1 " +
        "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + environment + " " + wrapper + " timeout 120 " + launcher + "'" +
        gminExecutable() + "' " + args + " > '" + out.string() + "' 2> '" + err.string() + "'";
    const int status = std::system(command.c_str());
    return {WEXITSTATUS(status), slurp(out), slurp(err)};
  }
  // The output folders `a` and `b` hold the same run: lowest, checkpoint and minima, bit for bit.
  void expectSameRun(const std::string& a, const std::string& b) {
    EXPECT_EQ(slurp(m_dir / a / "lowest"), slurp(m_dir / b / "lowest")) << a << " vs " << b;
    EXPECT_EQ(slurp(m_dir / a / "checkpoint"), slurp(m_dir / b / "checkpoint")) << a << " vs " << b;
    expectSameMinimaDatabases(m_dir / a / "minima.h5", m_dir / b / "minima.h5");
  }
  fs::path m_dir;
};

// NEWRESTART reseeds (a batch of only the reseeding walkers, split too), AVOID, ASTEP and step
// adaptation all in play; 7 walkers do not divide evenly over 2 or 3 ranks.
const std::string kWalkers =
    "--lj 13 --save 4 --step-adjust-interval 7 --new-restart 6 --avoid-distance 1 --avoid-max 3 "
    "--avoid-reseed yes --walkers 7 --dump-interval 20 --seed 4 ";

TEST_F(MpiGmin, LowestIsTheSameForOneTwoAndThreeRanks) {
  const GminRun solo = gmin(0, kWalkers + "--steps 60 --output solo");
  ASSERT_EQ(solo.exitCode, 0) << solo.err;
  const std::string last = withoutTimings(lineStarting(solo.out, "walkers: step       60"));
  EXPECT_NE(last.find("quenches        420  best E="), std::string::npos) << last;
  EXPECT_EQ(last.find("reseeds 0"), std::string::npos) << last;
  for (int k : {1, 2, 3}) {
    const std::string dir = "k" + std::to_string(k);
    const GminRun r = gmin(k, kWalkers + "--steps 60 --output " + dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    if (k > 1)
      EXPECT_NE(r.out.find("7 walkers over MPI, " + std::to_string(k) + " ranks"),
                std::string::npos) << r.out;
    expectSameRun("solo", dir);
    EXPECT_EQ(withoutTimings(lineStarting(r.out, "walkers: step       60")), last);
    EXPECT_EQ(lineStarting(r.out, "lowest energy"), lineStarting(solo.out, "lowest energy"));
  }
}

// BHPT with 5 replicas on 3 ranks (replicas 0-1, 2-3, 4): the pairs 1-2 and 3-4 exchange across
// ranks; the exchange counts and the minima are the single process's.
TEST_F(MpiGmin, ReplicaExchangesAcrossRanksMatchOneProcess) {
  const std::string args = "--lj 13 --walkers 5 --bhpt --bhpt-interval 3 --bhpt-min-temperature "
                           "0.5 --bhpt-max-temperature 4 --steps 60 --dump-interval 30 --seed 2 ";
  const GminRun solo = gmin(0, args + "--output solo");
  ASSERT_EQ(solo.exitCode, 0) << solo.err;
  const GminRun three = gmin(3, args + "--output k3");
  ASSERT_EQ(three.exitCode, 0) << three.err;
  for (const char* pair : {"bhpt: pair 0-1", "bhpt: pair 1-2", "bhpt: pair 2-3", "bhpt: pair 3-4"}) {
    EXPECT_NE(lineStarting(solo.out, pair), "") << solo.out;
    EXPECT_EQ(lineStarting(three.out, pair), lineStarting(solo.out, pair));
  }
  expectSameRun("solo", "k3");
}

// AMBER-GB walkers (ash): the molecular moves, the stereochemistry checks that reject quenched
// structures and the per-minimum PDB/rst7 files, on 2 ranks as in one process.
TEST_F(MpiGmin, MoleculeWalkersOverRanksMatchOneProcess) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found";
  const std::string args = "--prmtop '" + *prmtop + "' --inpcrd '" + *rst7 +
                           "' --step-size 0.5 --steps 12 --seed 4 --walkers 5 --quiet ";
  const GminRun solo = gmin(0, args + "--output solo");
  ASSERT_EQ(solo.exitCode, 0) << solo.err;
  const GminRun two = gmin(2, args + "--output k2");
  ASSERT_EQ(two.exitCode, 0) << two.err;
  expectSameRun("solo", "k2");
  EXPECT_EQ(slurp(m_dir / "solo/minimum_001.rst7"), slurp(m_dir / "k2/minimum_001.rst7"));
  EXPECT_FALSE(slurp(m_dir / "k2/minimum_001.rst7").empty());
}

// --target: every rank stops after the same round (otherwise the job would hang or fail), and the
// walker reported is the single process's: walker 2, which rank 1 of 3 quenches.
TEST_F(MpiGmin, TargetStopsEveryRankAtTheSameRoundWithTheSameWalker) {
  const std::string args = "--lj 13 --walkers 5 --steps 300 --seed 1 --target -44.3268 ";
  const GminRun solo = gmin(0, args + "--output solo");
  ASSERT_EQ(solo.exitCode, 0) << solo.err;
  const std::string goal = lineStarting(solo.out, "gmin: target reached by walker ");
  EXPECT_EQ(goal.rfind("gmin: target reached by walker 2 at its quench 5 ", 0), 0u) << goal;
  const GminRun three = gmin(3, args + "--output k3");
  ASSERT_EQ(three.exitCode, 0) << three.err;
  EXPECT_EQ(lineStarting(three.out, "gmin: target reached by walker "), goal);
  expectSameRun("solo", "k3");
}

// A rank killed (SIGKILL, the fault drill: rank 1 at the end of round 45, after the checkpoint of
// round 40) ends the whole job with the launcher's message; `--resume` on 3 ranks then completes
// the run as if it had never been interrupted. Resuming on another rank count works too.
TEST_F(MpiGmin, KilledRankEndsTheJobAndResumeCompletesIt) {
  const GminRun full = gmin(0, kWalkers + "--steps 90 --output full");
  ASSERT_EQ(full.exitCode, 0) << full.err;
  const GminRun killed = gmin(3, kWalkers + "--steps 90 --output part", "LANDSCAPE_FAULT_DRILL=1:45");
  EXPECT_NE(killed.exitCode, 0);
  EXPECT_NE(killed.exitCode, 124) << "the job hung after a rank died";
  EXPECT_NE(killed.err.find("exited on signal 9"), std::string::npos) << killed.err;
  ASSERT_EQ(slurp(m_dir / "part/checkpoint").find("quench 40\n") != std::string::npos, true);
  fs::copy(m_dir / "part", m_dir / "part2", fs::copy_options::recursive);
  const GminRun resumed = gmin(3, kWalkers + "--steps 90 --resume part");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("resuming from part/checkpoint after quench 40 of 90"),
            std::string::npos) << resumed.out;
  expectSameRun("full", "part");
  const GminRun two = gmin(2, kWalkers + "--steps 90 --resume part2");
  ASSERT_EQ(two.exitCode, 0) << two.err;
  expectSameRun("full", "part2");
}

// SIGTERM to rank 1 alone (once the first checkpoint exists): every rank stops after the same
// round, rank 0 writes the results and a checkpoint of that round and the job exits with 130
// (128 + SIGINT's number, rank 0's status, as for one process); no rank is left waiting.
TEST_F(MpiGmin, SignalToOneRankStopsEveryRankAfterTheSameRound) {
  const fs::path script = m_dir / "signal_rank_1.sh";
  std::ofstream(script) << "\"$@\" & top=$!\n"
                           "for i in $(seq 1 3000); do [ -f part/checkpoint ] && break; sleep 0.02; "
                           "done\n"
                           "for p in $(pgrep -P $top) $(pgrep -P \"$(pgrep -P $top)\"); do\n"
                           "  tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | "
                           "grep -qx OMPI_COMM_WORLD_RANK=1 && kill -TERM $p\n"
                           "done\n"
                           "wait $top\n";
  const GminRun r = gmin(3, "--lj 13 --walkers 6 --steps 100000000 --dump-interval 20 --seed 3 "
                            "--output part",
                         "", "sh '" + script.string() + "'");
  EXPECT_EQ(r.exitCode, 130) << "124: the job hung after a signal to one rank\n" << r.err;
  EXPECT_NE(r.err.find("gmin: stopped by a signal after quench "), std::string::npos) << r.err;
  const std::string after = "stopped by a signal after quench ";
  const std::size_t at = r.err.find(after);
  ASSERT_NE(at, std::string::npos) << r.err;
  // The quenches of all 6 walkers: whole rounds, the checkpoint's round.
  const long quenches = std::stol(r.err.substr(at + after.size()));
  EXPECT_EQ(quenches % 6, 0) << quenches;
  EXPECT_NE(slurp(m_dir / "part/checkpoint").find("quench " + std::to_string(quenches / 6) + "\n"),
            std::string::npos) << quenches;
  EXPECT_TRUE(fs::exists(m_dir / "part/lowest"));
}

// A rank that hangs without dying (the fault drill stops rank 2 with SIGSTOP at round 5: the
// launcher sees a live process) is noticed by the others within --rank-timeout, which end the job
// with a message instead of waiting forever.
TEST_F(MpiGmin, HungRankEndsTheJobAfterTheRankTimeout) {
  const GminRun r = gmin(3, "--lj 13 --walkers 6 --steps 100000000 --rank-timeout 1 --output part",
                         "LANDSCAPE_FAULT_DRILL=2:5:stop");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.exitCode, 124) << "the job hung with a stopped rank";
  EXPECT_NE(r.err.find("no answer from the other ranks for 1 s (--rank-timeout): a rank has hung"),
            std::string::npos) << r.err;
}

TEST_F(MpiGmin, OneChainOverSeveralRanksIsAnError) {
  const GminRun r = gmin(2, "--lj 13 --walkers 1 --steps 5 --output res");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("a single chain (--walkers 1 without --bhpt) cannot be spread over ranks"),
            std::string::npos) << r.err;
}

}  // namespace
}  // namespace landscape
