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

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "landscape/network/Database.h"
#include "src/common/LongRun.h"
#include "tests/BackgroundProgram.h"
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
#endif

// The second signal (src/common/LongRun): a program in a phase that does not poll the stop request (a
// child process of this test with the programs' handlers, busy in a loop that never looks at the
// flag) gets SIGINT, prints its "stop requested" line and goes on; SIGINT again, sent once that
// line is in its stderr file, ends it at once with 130 and the "second signal" line.
TEST_F(StopResumeCli, SecondSignalExitsAtOnceFromAPhaseThatDoesNotPoll) {
  const fs::path log = m_dir / "child.err";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(err, 2);
    setUpLongRun("child");
    const ssize_t ready = ::write(2, "child: busy\n", 12);
    (void)ready;
    for (volatile unsigned long spin = 0;; spin = spin + 1) {
    }
  }
  const auto waitFor = [&](const std::string& text) {
    const auto end = Clock::now() + std::chrono::seconds(60);
    while (Clock::now() < end && slurp(log).find(text) == std::string::npos)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return slurp(log).find(text) != std::string::npos;
  };
  bool ok = waitFor("child: busy");
  if (ok) {
    ::kill(child, SIGINT);
    ok = waitFor("child: stop requested");
  }
  int status = 0;
  pid_t exited = ::waitpid(child, &status, WNOHANG);
  EXPECT_EQ(exited, 0) << "the first signal ended it: the loop never polls";
  const auto t0 = Clock::now();
  ::kill(child, SIGINT);
  while (ok && exited == 0 &&
         Clock::now() - t0 < std::chrono::duration<double>(kStopBoundSeconds)) {
    exited = ::waitpid(child, &status, WNOHANG);
    if (exited == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (exited == 0) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
  }
  ASSERT_TRUE(ok) << slurp(log);
  ASSERT_TRUE(WIFEXITED(status)) << slurp(log);
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGINT);
  EXPECT_LT(seconds, 2.0);
  EXPECT_NE(slurp(log).find("child: second signal: exiting at once"), std::string::npos)
      << slurp(log);
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
