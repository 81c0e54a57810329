// SIGTERM to one rank of `mpirun -n 2 pathsample grow` while both run a connect run
// (docs/cluster.md, docs/reliability.md): the signalled rank stops its run at once and drops it,
// the other finishes its own, and the ranks agree to stop at the top of the next cycle. network.h5
// then holds no new cycle and both pairs first on the list; the finished run is kept in
// run/ended-runs, so that --resume runs only the stopped one. The signal is sent once rank 0 has
// announced the cycle's pairs (a line in its output), never after a fixed time. Skipped without
// MPI support.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "landscape/network/Database.h"
#include "tests/SlowFirstBandOdata.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The processes whose parent is `parent` and whose environment says OMPI_COMM_WORLD_RANK=`rank`
// (Open MPI's launcher starts the local ranks as its children); 0 when there is none.
pid_t rankProcess(pid_t parent, int rank) {
  const std::string wanted = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = slurp(entry.path() / "stat");
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 1));
    std::string state;
    long ppid = 0;
    fields >> state >> ppid;
    if (ppid != parent) continue;
    const std::string environment = slurp(entry.path() / "environ");
    std::size_t at = 0;
    while (at < environment.size()) {
      const std::size_t end = environment.find('\0', at);
      if (environment.compare(at, end - at, wanted) == 0) return std::stoi(name);
      if (end == std::string::npos) break;
      at = end + 1;
    }
  }
  return 0;
}

TEST(MpiPathsampleStop, SigtermToOneRankStopsItsRunAndTheOtherRankFinishesItsOwn) {
#if !defined(LANDSCAPE_MPIEXEC) || !defined(LANDSCAPE_PATHSAMPLE_EXECUTABLE)
  GTEST_SKIP() << "this build has no MPI support (LANDSCAPE_MPI) or no pathsample";
#else
  const char* env = std::getenv("LANDSCAPE_PATHSAMPLE_EXECUTABLE");
  const std::string pathsample = env && *env ? env : LANDSCAPE_PATHSAMPLE_EXECUTABLE;
  const fs::path dir =
      fs::temp_directory_path() / ("landscape-mpi-stop-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string input = testDataRoot() + "/lj38/pathsample-untrap/input";
  ASSERT_EQ(std::system(("cd '" + dir.string() + "' && '" + pathsample + "' import --directory " +
                         input + " --database in.h5 > import.log 2>&1")
                            .c_str()),
            0);
  std::ofstream(dir / "odata.slow") << slowFirstBandOdata();
  // UNTRAP's first two pairs, 8-2 on rank 0 and 10-2 on rank 1, each a run of seconds.
  std::vector<std::string> args = {LANDSCAPE_MPIEXEC, "--oversubscribe", "-n", "2", pathsample,
                                   "grow", "--database", "in.h5", "--pathdata",
                                   input + "/pathdata", "--odata", "odata.slow",
                                   "--pairs-per-cycle", "2", "--cycles", "2", "--output", "run"};
  const pid_t launcher = ::fork();
  ASSERT_GE(launcher, 0);
  if (launcher == 0) {
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    ::unsetenv("LANDSCAPE_FAULT_DRILL");
    if (!std::freopen("out.txt", "w", stdout) || !std::freopen("err.txt", "w", stderr))
      ::_exit(126);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  // Rank 0 prints the candidate list as the first cycle starts; then rank 1's process is found.
  int status = 0;
  bool ended = false;
  pid_t rank1 = 0;
  const auto end = Clock::now() + std::chrono::seconds(60);  // a bound for failures only
  while (Clock::now() < end && !ended && rank1 == 0) {
    if (::waitpid(launcher, &status, WNOHANG) == launcher) ended = true;
    if (slurp(dir / "out.txt").find("candidate pairs") != std::string::npos)
      rank1 = rankProcess(launcher, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (rank1 != 0) ::kill(rank1, SIGTERM);
  if (!ended) {
    while (Clock::now() < end + std::chrono::seconds(60) &&
           ::waitpid(launcher, &status, WNOHANG) == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (::waitpid(launcher, &status, WNOHANG) == 0) {
      ::kill(launcher, SIGKILL);
      ::waitpid(launcher, &status, 0);
    }
  }
  const std::string out = slurp(dir / "out.txt"), err = slurp(dir / "err.txt");
  ASSERT_NE(rank1, 0) << "rank 1 not found\n" << out << err;
  ASSERT_TRUE(WIFEXITED(status)) << out << err;
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << out << err;  // rank 1's status, via mpirun
  EXPECT_NE(err.find("pathsample: stop requested"), std::string::npos) << err;
  EXPECT_NE(out.find("stopped on request; continue with --resume run"), std::string::npos) << out;
  const StoredTransitionNetwork saved =
      TransitionNetworkDatabase::read((dir / "run/network.h5").string());
  EXPECT_EQ(saved.growth.cycles, 0);
  // Rank 0's run of 8-2 finished, rank 1's 10-2 was stopped: the cycle is not merged and both
  // pairs are first on the list again, in their order.
  EXPECT_TRUE(saved.growth.triedPairs.empty());
  ASSERT_GE(saved.growth.pendingPairs.size(), 2u);
  EXPECT_EQ(saved.growth.pendingPairs[0], (std::array<int, 2>{7, 1}));
  EXPECT_EQ(saved.growth.pendingPairs[1], (std::array<int, 2>{9, 1}));
  // Rank 0's ended run is kept for --resume, which runs only 10-2 again.
  EXPECT_NE(out.find("1 of those runs had ended and are kept"), std::string::npos) << out;
  ASSERT_TRUE(fs::exists(dir / "run/ended-runs"));
  std::string resume =
      "cd '" + dir.string() + "' && OMPI_ALLOW_RUN_AS_ROOT=1 " + "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
  for (std::size_t i = 0; i + 2 < args.size(); ++i) resume += " '" + args[i] + "'";
  resume += " --resume run > resume.txt 2>&1";
  EXPECT_EQ(std::system(resume.c_str()), 0) << slurp(dir / "resume.txt");
  const std::string resumed = slurp(dir / "resume.txt");
  EXPECT_NE(
      resumed.find("cycle 1: 1 of its 2 runs ended before the run was interrupted and are kept"),
      std::string::npos)
      << resumed;
  EXPECT_EQ(TransitionNetworkDatabase::read((dir / "run/network.h5").string()).growth.cycles, 2);
  EXPECT_FALSE(fs::exists(dir / "run/ended-runs"));
  fs::remove_all(dir);
#endif
}

}  // namespace
}  // namespace landscape
