// gmin, optim and sop as a user stops them (docs/reliability.md): SIGINT/SIGTERM end every program
// within a generous bound in whatever phase it is, with 128 + the signal as exit status and a
// folder that --resume accepts; kill -9 after a saved cycle and optim --resume gives the
// uninterrupted run's network; one run per output folder (a lock that dies with its holder);
// unwritable outputs fail at the start; progress reaches a file line by line while the run goes on.
// No timing races: a signal is sent once a line or a file shows the phase it is meant for (polled),
// and the only clock is the bound on how long the program may take to stop.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "landscape/network/Database.h"
#include "src/common/LongRun.h"
#include "tests/BackgroundProgram.h"
#include "tests/SlowFirstBandOdata.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;
using namespace cli_test;

class StopResumeCli : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            ("landscape-stop-cli-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  ProgramRun run(const std::string& executable, const std::string& args) {
    return runProgram(m_dir, executable, args);
  }
  static std::string gmin() {
    return program("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE);
  }
  fs::path m_dir;
};

std::string lastLines(const std::string& text, int n) {
  std::size_t at = text.size();
  while (at > 0 && text[at - 1] == '\n') --at;
  for (int i = 0; i < n && at != std::string::npos && at > 0; ++i) at = text.rfind('\n', at - 1);
  return at == std::string::npos ? text : text.substr(at + 1);
}

// Quench 0 of 3000 random LJ atoms takes thousands of L-BFGS iterations; SIGTERM inside it ends
// the run at once. No checkpoint exists yet, and --resume on the folder starts afresh.
TEST_F(StopResumeCli, GminSigtermInsideTheFirstQuenchStopsAtOnce) {
  Background job(m_dir, gmin(), {"--lj", "3000", "--steps", "5", "--output", "big"}, "big");
  // The header is printed before quench 0 and reaches the file at once (line-buffered stdout).
  ASSERT_TRUE(job.waitForOutput("gmin: Lennard-Jones 3000 atoms")) << job.out() << job.err();
  const auto [status, seconds] = job.stopWith(SIGTERM);
  EXPECT_EQ(status, 128 + SIGTERM) << job.err();
  EXPECT_LT(seconds, kStopBoundSeconds);
  EXPECT_NE(job.err().find("gmin: stopped by a signal before the first quench ended"),
            std::string::npos)
      << job.err();
  EXPECT_FALSE(fs::exists(m_dir / "big/checkpoint"));
  // The folder is accepted by --resume: without a checkpoint the run starts afresh there (a small
  // system here, so the test stays short; nothing is compared with the stopped run).
  const ProgramRun again = run(gmin(), "--lj 13 --steps 3 --quiet --resume big");
  EXPECT_EQ(again.exitCode, 0) << again.err;
  EXPECT_NE(again.err.find("big has no checkpoint"), std::string::npos) << again.err;
  EXPECT_TRUE(fs::exists(m_dir / "big/checkpoint"));
}

// SIGINT long before the first --dump-interval checkpoint: the run saves its state on the way out
// and --resume ends with the uninterrupted run's minima.
TEST_F(StopResumeCli, GminSigintBeforeTheFirstCheckpointResumesToTheSameMinima) {
  // One chain (--walkers 1): its per-quench lines tell when to send the signal.
  const std::string args = "--lj 13 --seed 4 --save 4 --steps 3000 --walkers 1 ";
  const ProgramRun full = run(gmin(), args + "--quiet --output full");
  ASSERT_EQ(full.exitCode, 0) << full.err;
  std::vector<std::string> argv = {"--lj",    "13",   "--seed",          "4", "--save",
                                   "4",       "--steps", "3000",         "--walkers", "1",
                                   "--dump-interval", "0", "--output", "part"};
  Background job(m_dir, gmin(), argv, "part");
  ASSERT_TRUE(job.waitForOutput("\nQu       20 ")) << job.out() << job.err();
  const auto [status, seconds] = job.stopWith(SIGINT);
  if (status == 0) GTEST_SKIP() << "the run ended before the signal (a very fast machine)";
  EXPECT_EQ(status, 128 + SIGINT) << job.err();
  EXPECT_LT(seconds, kStopBoundSeconds);
  ASSERT_TRUE(fs::exists(m_dir / "part/checkpoint"));
  const ProgramRun resumed = run(gmin(), args + "--quiet --resume part");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_EQ(slurp(m_dir / "part/lowest"), slurp(m_dir / "full/lowest"));
  EXPECT_EQ(lastLines(resumed.out, 1), lastLines(full.out, 1));
}

// One run per output folder; the lock of a killed run does not block the next one.
TEST_F(StopResumeCli, GminRefusesABusyOutputFolderButNotAStaleLock) {
  Background job(m_dir, gmin(), {"--lj", "3000", "--steps", "5", "--output", "shared"}, "first");
  ASSERT_TRUE(job.waitForOutput("gmin: Lennard-Jones 3000 atoms")) << job.err();
  const ProgramRun second = run(gmin(), "--lj 13 --steps 3 --quiet --output shared");
  EXPECT_EQ(second.exitCode, 1);
  EXPECT_NE(second.err.find("shared is in use by gmin (process " + std::to_string(job.pid()) +
                            " on host "),
            std::string::npos)
      << second.err;
  EXPECT_FALSE(fs::exists(m_dir / "shared/lowest")) << "refused before any work";
  job.stopWith(SIGKILL);  // the lock file stays; the kernel dropped the lock
  EXPECT_TRUE(fs::exists(m_dir / "shared/.lock"));
  const ProgramRun third = run(gmin(), "--lj 13 --steps 3 --quiet --output shared");
  EXPECT_EQ(third.exitCode, 0) << third.err;
}

#ifdef LANDSCAPE_OPTIM_EXECUTABLE
std::string optim() { return program("LANDSCAPE_OPTIM_EXECUTABLE", LANDSCAPE_OPTIM_EXECUTABLE); }

TEST_F(StopResumeCli, OptimUnwritableDatabaseFailsBeforeTheFirstCycle) {
  const ProgramRun r = run(optim(), "--database '" + (m_dir / "missing/dir/net.h5").string() + "'");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("cannot write the transition-network database"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("CONNECT CYCLE"), std::string::npos) << "no cycle ran";
}

// The network of two runs, entry by entry: every minimum and transition state, bit for bit.
void expectSameNetwork(const fs::path& a, const fs::path& b) {
  const StoredTransitionNetwork x = TransitionNetworkDatabase::read(a.string());
  const StoredTransitionNetwork y = TransitionNetworkDatabase::read(b.string());
  ASSERT_EQ(x.minima.size(), y.minima.size());
  ASSERT_EQ(x.transitionStates.size(), y.transitionStates.size());
  for (std::size_t i = 0; i < x.minima.size(); ++i) {
    EXPECT_EQ(x.minima[i].energy, y.minima[i].energy) << "minimum " << i;
    EXPECT_EQ(x.minima[i].coordinates, y.minima[i].coordinates) << "minimum " << i;
  }
  for (std::size_t i = 0; i < x.transitionStates.size(); ++i) {
    EXPECT_EQ(x.transitionStates[i].energy, y.transitionStates[i].energy) << "ts " << i;
    EXPECT_EQ(x.transitionStates[i].plusMinimum, y.transitionStates[i].plusMinimum);
    EXPECT_EQ(x.transitionStates[i].minusMinimum, y.transitionStates[i].minusMinimum);
  }
}

// The LJ38 example connects in 5 cycles (1.6 s). kill -9 once the checkpoint has 2, SIGTERM in
// the next cycle of the resumed run, --resume again: the same network (every energy and
// coordinate bit for bit), path.info and summary as the run never interrupted (the algorithm is
// deterministic: alignments and eigenvector guesses are seeded).
TEST_F(StopResumeCli, OptimKilledAndStoppedResumesToTheUninterruptedNetwork) {
  const auto odata = testDataPath("lj38/optim/odata");
  const auto finish = testDataPath("lj38/optim/finish");
  if (!odata || !finish) GTEST_SKIP() << "tests/data/lj38/optim not found";
  const std::string args = "--odata '" + *odata + "' --finish '" + *finish + "' ";
  const ProgramRun full = run(optim(), args + "--output full");
  ASSERT_EQ(full.exitCode, 0) << full.err;
  const std::vector<std::string> argv = {"--odata", *odata, "--finish", *finish};
  const auto checkpointHas = [&](int cycles) {
    const std::string text = slurp(m_dir / "part/connect.checkpoint");
    const std::size_t at = text.find("\ncycles ");
    return at != std::string::npos && std::atoi(text.c_str() + at + 8) >= cycles;
  };
  {
    std::vector<std::string> a = argv;
    a.insert(a.end(), {"--output", "part"});
    Background job(m_dir, optim(), a, "killed");
    ASSERT_TRUE(job.waitUntil([&] { return checkpointHas(2); })) << job.out() << job.err();
    job.stopWith(SIGKILL);
  }
  {
    std::vector<std::string> a = argv;
    a.insert(a.end(), {"--resume", "part"});
    Background job(m_dir, optim(), a, "stopped");
    // SIGTERM inside the first cycle the resumed run does (none when the kill came after the
    // last one).
    const bool cycling = job.waitUntil([&] {
      const std::string out = job.out();
      const std::size_t resuming = out.find("resuming from part/connect.checkpoint");
      return resuming != std::string::npos &&
             out.find("CONNECT CYCLE", resuming) != std::string::npos;
    });
    const auto [status, seconds] = job.stopWith(SIGTERM);
    if (cycling && status != 0) {  // else it connected before the signal came
      EXPECT_EQ(status, 128 + SIGTERM) << job.err();
      EXPECT_LT(seconds, kStopBoundSeconds);
      EXPECT_NE(job.err().find("optim: stopped by a signal in connect cycle"), std::string::npos)
          << job.err();
    }
  }
  const ProgramRun resumed = run(optim(), args + "--resume part");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_EQ(lastLines(resumed.out, 3), lastLines(full.out, 3));
  expectSameNetwork(m_dir / "part/network.h5", m_dir / "full/network.h5");
  EXPECT_EQ(slurp(m_dir / "part/path.info"), slurp(m_dir / "full/path.info"));
}

#ifdef LANDSCAPE_PATHSAMPLE_EXECUTABLE
std::string pathsample() {
  return program("LANDSCAPE_PATHSAMPLE_EXECUTABLE", LANDSCAPE_PATHSAMPLE_EXECUTABLE);
}

// pathsample grow stops inside a connect run: the network of one optim cycle on the LJ38 example
// (9 minima, 5 transition states, A and B its endpoints) grows by Dijkstra pairs; SIGTERM once the
// first cycle's pair is announced ends the run in flight with 143 within the bound. network.h5
// holds the input network with no cycle counted and the pair first on the list; --resume runs it
// from scratch and ends with the network of a run never interrupted, bit for bit.
TEST_F(StopResumeCli, PathsampleGrowSigtermStopsTheConnectRunInFlight) {
  const auto odata = testDataPath("lj38/optim/odata");
  const auto finish = testDataPath("lj38/optim/finish");
  if (!odata || !finish) GTEST_SKIP() << "tests/data/lj38/optim not found";
  const ProgramRun start = run(optim(), "--odata '" + *odata + "' --finish '" + *finish +
                                            "' --max-cycles 1 --output start");
  ASSERT_EQ(start.exitCode, 2) << "one cycle does not connect the example\n" << start.err;
  const StoredTransitionNetwork input =
      TransitionNetworkDatabase::read((m_dir / "start/network.h5").string());
  std::ofstream(m_dir / "odata.grow") << slowFirstBandOdata();
  const std::string grow = "grow --database start/network.h5 --odata odata.grow "
                           "--pair-selection dijkstra --cycles 1 ";
  const ProgramRun whole = run(pathsample(), grow + "--output whole");
  ASSERT_EQ(whole.exitCode, 0) << whole.err;
  ASSERT_NE(whole.out.find("cycle 1  pairs 1 "), std::string::npos) << whole.out;
  {
    Background job(m_dir, pathsample(),
                   {"grow", "--database", "start/network.h5", "--odata", "odata.grow",
                    "--pair-selection", "dijkstra", "--cycles", "1", "--output", "part"},
                   "grow");
    ASSERT_TRUE(job.waitForOutput("candidate pairs (dijkstra)")) << job.out() << job.err();
    const auto [status, seconds] = job.stopWith(SIGTERM);
    EXPECT_EQ(status, 128 + SIGTERM) << job.out() << job.err();
    EXPECT_LT(seconds, kStopBoundSeconds);
    std::printf("pathsample grow stopped %.3f s after SIGTERM\n", seconds);
    EXPECT_NE(job.err().find("pathsample: stop requested"), std::string::npos) << job.err();
    EXPECT_NE(job.out().find("stopped on request; continue with --resume part"),
              std::string::npos)
        << job.out();
  }
  // The run in flight was dropped, not merged: no cycle, the input network, its pair first.
  const StoredTransitionNetwork stopped =
      TransitionNetworkDatabase::read((m_dir / "part/network.h5").string());
  const StoredTransitionNetwork grown =
      TransitionNetworkDatabase::read((m_dir / "whole/network.h5").string());
  EXPECT_EQ(stopped.growth.cycles, 0);
  EXPECT_TRUE(stopped.growth.triedPairs.empty());
  ASSERT_FALSE(stopped.growth.pendingPairs.empty());
  ASSERT_EQ(grown.growth.triedPairs.size(), 1u);
  EXPECT_EQ(stopped.growth.pendingPairs.front(), grown.growth.triedPairs.front());
  EXPECT_EQ(stopped.minima.size(), input.minima.size());
  EXPECT_EQ(stopped.transitionStates.size(), input.transitionStates.size());
  const ProgramRun resumed = run(pathsample(), grow + "--resume part");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  expectSameNetwork(m_dir / "part/network.h5", m_dir / "whole/network.h5");
  const StoredTransitionNetwork again =
      TransitionNetworkDatabase::read((m_dir / "part/network.h5").string());
  EXPECT_EQ(again.growth.cycles, 1);
  EXPECT_EQ(again.growth.triedPairs, grown.growth.triedPairs);
  EXPECT_EQ(again.growth.pendingPairs, grown.growth.pendingPairs);
}
#endif
#endif

// Sends `signal` to `pid` from a process of its own (a child of this test that exits at once), as
// a second `kill` from another shell would.
void killFromAnotherProcess(pid_t pid, int signal) {
  const pid_t sender = ::fork();
  if (sender == 0) ::_exit(::kill(pid, signal) == 0 ? 0 : 1);
  if (sender > 0) ::waitpid(sender, nullptr, 0);
}

// A child process of this test with the programs' handlers (src/common/LongRun), busy in a loop
// that never looks at the stop flag (a phase that does not poll), leading a process group of its
// own; its stderr goes to `log`.
class BusyChild {
 public:
  explicit BusyChild(const fs::path& log) : m_log(log) {
    m_pid = ::fork();
    if (m_pid == 0) {
      ::setpgid(0, 0);
      const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(err, 2);
      setUpLongRun("child");
      const ssize_t ready = ::write(2, "child: busy\n", 12);
      (void)ready;
      for (volatile unsigned long spin = 0;; spin = spin + 1) {
      }
    }
    if (m_pid > 0) ::setpgid(m_pid, m_pid);  // either call makes it the group's leader first
  }
  ~BusyChild() {
    if (m_pid > 0 && !m_ended) {
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, nullptr, 0);
    }
  }
  pid_t pid() const { return m_pid; }
  std::string log() const { return slurp(m_log); }
  // Polls the log for `text` (60 s at most, a bound for failures only).
  bool waitFor(const std::string& text) const {
    const auto end = Clock::now() + std::chrono::seconds(60);
    while (Clock::now() < end && log().find(text) == std::string::npos)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return log().find(text) != std::string::npos;
  }
  bool running() {
    int status = 0;
    if (!m_ended && ::waitpid(m_pid, &status, WNOHANG) == m_pid) {
      m_ended = true;
      m_status = status;
    }
    return !m_ended;
  }
  // Waits for the exit (killing it after `seconds`): the wait status and the seconds from `t0`.
  std::pair<int, double> waitForExit(Clock::time_point t0, double seconds) {
    while (running() && Clock::now() - t0 < std::chrono::duration<double>(seconds))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const double took = std::chrono::duration<double>(Clock::now() - t0).count();
    if (running()) {
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, &m_status, 0);
      m_ended = true;
    }
    return {m_status, took};
  }

 private:
  fs::path m_log;
  pid_t m_pid = -1;
  bool m_ended = false;
  int m_status = 0;
};

// The second signal (src/common/LongRun): the busy child gets SIGINT, prints its "stop requested"
// line and goes on; SIGINT again, from another process once that line is in its stderr file, ends
// it at once with 130 and the "second signal" line.
TEST_F(StopResumeCli, SecondSignalExitsAtOnceFromAPhaseThatDoesNotPoll) {
  BusyChild child(m_dir / "child.err");
  ASSERT_GT(child.pid(), 0);
  bool ok = child.waitFor("child: busy");
  if (ok) {
    ::kill(child.pid(), SIGINT);
    ok = child.waitFor("child: stop requested");
  }
  EXPECT_TRUE(child.running()) << "the first signal ended it: the loop never polls";
  const auto t0 = Clock::now();
  killFromAnotherProcess(child.pid(), SIGINT);
  const auto [status, seconds] = child.waitForExit(t0, ok ? kStopBoundSeconds : 0.0);
  ASSERT_TRUE(ok) << child.log();
  ASSERT_TRUE(WIFEXITED(status)) << child.log();
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGINT);
  EXPECT_LT(seconds, 2.0);
  EXPECT_NE(child.log().find("child: second signal: exiting at once"), std::string::npos)
      << child.log();
}

// What GNU timeout (without --foreground) and Slurm do: SIGTERM to the program, then the same
// SIGTERM to its process group, both from one process. That is one request: the busy child prints
// the "repeated" line and goes on. A SIGTERM from another process is the second signal: exit 143
// at once.
TEST_F(StopResumeCli, SignalRepeatedToTheProcessGroupIsOneRequest) {
  BusyChild child(m_dir / "child.err");
  ASSERT_GT(child.pid(), 0);
  ASSERT_TRUE(child.waitFor("child: busy")) << child.log();
  ::kill(child.pid(), SIGTERM);
  ASSERT_TRUE(child.waitFor("child: stop requested")) << child.log();
  ASSERT_EQ(::killpg(child.pid(), SIGTERM), 0) << std::strerror(errno);
  ASSERT_TRUE(child.waitFor("child: signal repeated by the same sender (process group): still "
                            "stopping"))
      << child.log();
  EXPECT_TRUE(child.running()) << "the repeated signal ended it\n" << child.log();
  EXPECT_EQ(child.log().find("second signal: exiting"), std::string::npos) << child.log();
  const auto t0 = Clock::now();
  killFromAnotherProcess(child.pid(), SIGTERM);
  const auto [status, seconds] = child.waitForExit(t0, kStopBoundSeconds);
  ASSERT_TRUE(WIFEXITED(status)) << child.log();
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_LT(seconds, 2.0);
  EXPECT_NE(child.log().find("child: second signal: exiting at once"), std::string::npos)
      << child.log();
}

#ifdef LANDSCAPE_SOP_EXECUTABLE
TEST_F(StopResumeCli, SopSigtermEndsTheDynamicsAtOnce) {
  const auto pdb = testDataPath("sop/1TIT.pdb");
  if (!pdb) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const std::string sop = program("LANDSCAPE_SOP_EXECUTABLE", LANDSCAPE_SOP_EXECUTABLE);
  Background job(m_dir, sop,
                 {"--pdb", *pdb, "--pull", "--steps", "100000000", "--output-interval", "1000000",
                  "--output", "pull"},
                 "sop");
  ASSERT_TRUE(job.waitForOutput("sop: ")) << job.err();
  const auto [status, seconds] = job.stopWith(SIGTERM);
  EXPECT_EQ(status, 128 + SIGTERM) << job.err();
  EXPECT_LT(seconds, kStopBoundSeconds);
  EXPECT_NE(job.err().find("sop: stopped by a signal at step"), std::string::npos) << job.err();
  // The second run on the folder is not blocked by the first one's lock.
  const ProgramRun again = run(sop, "--pdb '" + *pdb + "' --steps 10 --output pull");
  EXPECT_EQ(again.exitCode, 0) << again.err;
}
#endif

}  // namespace
}  // namespace landscape
