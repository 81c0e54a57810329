// sop --resume end to end (docs/reliability.md): a run killed with kill -9 after a checkpoint, or
// stopped by SIGTERM between two steps, and resumed, leaves the folder of the run never
// interrupted: the same force curves and trajectories byte for byte and the same final checkpoint
// (coordinates, tips and random streams as hexadecimal floats, so bit for bit). A resume with
// another physics option is refused; a finished run resumed with a larger --steps is the longer
// run. The signal is sent once the checkpoint file shows the step it is meant for (polled): no
// timing races.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "tests/BackgroundProgram.h"
#include "tests/TestData.h"

#ifdef LANDSCAPE_SOP_EXECUTABLE

namespace landscape {
namespace {

namespace fs = std::filesystem;
using namespace cli_test;

// The step a checkpoint file was saved at (-1 while there is none).
long checkpointStep(const fs::path& file) {
  const std::string text = slurp(file);
  const std::size_t at = text.find("\nstep ");
  return at == std::string::npos ? -1 : std::atol(text.c_str() + at + 6);
}

std::vector<std::string> split(const std::string& args) {
  std::vector<std::string> words;
  std::size_t at = 0;
  while (at < args.size()) {
    const std::size_t end = std::min(args.find(' ', at), args.size());
    if (end > at) words.push_back(args.substr(at, end - at));
    at = end + 1;
  }
  return words;
}

class SopResumeCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto pdb = testDataPath("sop/1TIT.pdb");
    if (!pdb) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
    m_pdb = *pdb;
    m_dir = fs::temp_directory_path() /
            ("landscape-sop-resume-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override {
    if (!m_dir.empty()) fs::remove_all(m_dir);
  }
  static std::string sop() {
    return program("LANDSCAPE_SOP_EXECUTABLE", LANDSCAPE_SOP_EXECUTABLE);
  }
  ProgramRun run(const std::string& args) {
    return runProgram(m_dir, sop(), "--pdb '" + m_pdb + "' " + args);
  }
  // Starts `args --output part` and sends `signal` once part/sop.checkpoint is at `step` or
  // later; the exit status.
  int interrupt(const std::string& args, long step, int signal) {
    std::vector<std::string> words = split(args);
    words.insert(words.begin(), {"--pdb", m_pdb});
    words.insert(words.end(), {"--output", "part"});
    Background job(m_dir, sop(), words, "part");
    const fs::path checkpoint = m_dir / "part/sop.checkpoint";
    EXPECT_TRUE(job.waitUntil([&] { return checkpointStep(checkpoint) >= step; })) << job.err();
    const int status = job.stopWith(signal).first;
    m_stopMessage = job.err();
    return status;
  }
  // Every file of full/ is in part/ with the same bytes (and no other file besides the logs).
  void expectSameFolder(const std::string& a, const std::string& b) {
    int compared = 0;
    for (const auto& entry : fs::directory_iterator(m_dir / a)) {
      const std::string name = entry.path().filename().string();
      if (name == ".lock") continue;
      ++compared;
      EXPECT_EQ(slurp(entry.path()), slurp(m_dir / b / name)) << name << " differs";
    }
    EXPECT_GE(compared, 3);  // curves, trajectories and the checkpoint
  }
  std::string m_pdb, m_stopMessage;
  fs::path m_dir;
};

// Pulling titin, 2 replicas, PDB trajectories: about 0.5 s on one core for the whole run.
const std::string kPullBase = "--pull --pull-speed 0.01 --replicas 2 --seed 7 --quiet";
const std::string kPull =
    kPullBase + " --steps 12000 --output-interval 250 --frame-interval 500";

TEST_F(SopResumeCli, KilledRunResumesToTheUninterruptedFilesBitForBit) {
  ASSERT_EQ(run(kPull + " --output full").exitCode, 0);
  const int status = interrupt(kPull, 1500, SIGKILL);
  if (status == 0) GTEST_SKIP() << "the run ended before the signal (a very fast machine)";
  ASSERT_EQ(status, 128 + SIGKILL);
  const ProgramRun resumed = run(kPull + " --resume part");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  expectSameFolder("full", "part");
}

TEST_F(SopResumeCli, StoppedRunRefusesOtherPhysicsThenResumesBitForBit) {
  ASSERT_EQ(run(kPull + " --output full").exitCode, 0);
  const int status = interrupt(kPull, 1000, SIGTERM);
  if (status == 0) GTEST_SKIP() << "the run ended before the signal (a very fast machine)";
  ASSERT_EQ(status, 128 + SIGTERM) << m_stopMessage;
  EXPECT_NE(m_stopMessage.find("checkpoint saved"), std::string::npos) << m_stopMessage;
  const std::string checkpoint = slurp(m_dir / "part/sop.checkpoint");
  const ProgramRun hotter = run(kPull + " --kt 0.7 --resume part");
  EXPECT_EQ(hotter.exitCode, 1);
  EXPECT_NE(hotter.err.find("part/sop.checkpoint: the checkpoint was made with kt = "
                            "'0.59999999999999998', this run has kt = '0.69999999999999996'"),
            std::string::npos)
      << hotter.err;
  const ProgramRun shorter =
      run(kPullBase + " --steps 10 --output-interval 250 --frame-interval 500 --resume part");
  EXPECT_EQ(shorter.exitCode, 1);
  EXPECT_NE(shorter.err.find("beyond --steps 10"), std::string::npos) << shorter.err;
  EXPECT_EQ(slurp(m_dir / "part/sop.checkpoint"), checkpoint);  // refusals change nothing
  const ProgramRun resumed = run(kPull + " --resume part");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  expectSameFolder("full", "part");
}

// Indentation with DCD trajectories; the first run ends off the output grid (its last curve line
// is not on the longer run's grid), then goes on to the longer run's end.
TEST_F(SopResumeCli, FinishedRunResumedWithMoreStepsIsTheLongerRun) {
  const std::string args =
      "--indent --tip-speed 0.02 --tip-gap 1 --output-interval 200 --frame-interval 400 "
      "--trajectory-format dcd --seed 3 --quiet";
  ASSERT_EQ(run(args + " --steps 3000 --output longer").exitCode, 0);
  ASSERT_EQ(run(args + " --steps 1100 --output part").exitCode, 0);
  const ProgramRun resumed = run(args + " --steps 3000 --resume part");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  expectSameFolder("longer", "part");
}

// The CUDA backend (the lead runs it on a GPU machine): the same kill -9 and resume.
TEST_F(SopResumeCli, CudaKilledRunResumesToTheUninterruptedFilesBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  const std::string args = kPullBase +
                           " --backend cuda --skin 1 --steps 200000 --output-interval 2000 "
                           "--frame-interval 10000";
  ASSERT_EQ(run(args + " --output full").exitCode, 0);
  const int status = interrupt(args, 50000, SIGKILL);
  if (status == 0) GTEST_SKIP() << "the run ended before the signal (a very fast machine)";
  ASSERT_EQ(status, 128 + SIGKILL);
  const ProgramRun resumed = run(args + " --resume part");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  expectSameFolder("full", "part");
}

}  // namespace
}  // namespace landscape

#endif
