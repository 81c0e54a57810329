#pragma once
// A program started in the background, as a batch job runs it (stdout and stderr to files), for
// the CLI tests that stop, kill and resume runs (StopResumeCliTest, SopResumeCliTest): polling for
// a line or a file, then a signal, and the exit status and time it took to stop.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace landscape::cli_test {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Stopping takes one L-BFGS iteration, a DNEB iteration or a dynamics step (milliseconds); the
// bound leaves room for a loaded machine and the sanitizer build.
constexpr double kStopBoundSeconds = 15.0;

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string program(const char* variable, const char* built) {
  const char* env = std::getenv(variable);
  return env && *env ? env : built;
}

// A program started in the background with stdout and stderr going to files, as a batch job's.
class Background {
 public:
  Background(const fs::path& dir, const std::string& executable, std::vector<std::string> args,
             const std::string& name)
      : m_out(dir / (name + ".out")), m_err(dir / (name + ".err")) {
    args.insert(args.begin(), executable);
    m_pid = ::fork();
    if (m_pid == 0) {
      if (::chdir(dir.c_str()) != 0) ::_exit(126);
      const int out = ::open(m_out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open(m_err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(out, 1);
      ::dup2(err, 2);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ~Background() {
    if (m_pid > 0 && !m_done) {
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, nullptr, 0);
    }
  }
  pid_t pid() const { return m_pid; }
  // Polls (every 20 ms, up to `seconds`) until `ready` holds; false when the program ended first.
  bool waitUntil(const std::function<bool()>& ready, double seconds = 120.0) {
    const auto end = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < end) {
      if (ready()) return true;
      if (!running()) return ready();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  bool waitForOutput(const std::string& text) {
    return waitUntil([&] { return out().find(text) != std::string::npos; });
  }
  // Sends `signal` and waits for the exit (killing the program after kStopBoundSeconds): the exit
  // status, and the seconds the program took.
  std::pair<int, double> stopWith(int signal) {
    const auto t0 = Clock::now();
    ::kill(m_pid, signal);
    int status = 0;
    while (::waitpid(m_pid, &status, WNOHANG) == 0) {
      if (Clock::now() - t0 > std::chrono::duration<double>(kStopBoundSeconds)) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    m_done = true;
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), seconds};
  }
  std::string out() const { return slurp(m_out); }
  std::string err() const { return slurp(m_err); }

 private:
  bool running() {
    int status;
    if (m_done) return false;
    if (::waitpid(m_pid, &status, WNOHANG) == m_pid) m_done = true;
    return !m_done;
  }
  fs::path m_out, m_err;
  pid_t m_pid = -1;
  bool m_done = false;
};

struct ProgramRun {
  int exitCode;
  std::string out, err;
};

// Runs `executable args` (args as shell words) in `dir` to the end; stdout and stderr as text.
inline ProgramRun runProgram(const fs::path& dir, const std::string& executable,
                             const std::string& args) {
  const fs::path out = dir / "run.out", err = dir / "run.err";
  const std::string command = "cd '" + dir.string() + "' && '" + executable + "' " + args + " > '" +
                              out.string() + "' 2> '" + err.string() + "'";
  const int status = std::system(command.c_str());
  return {WEXITSTATUS(status), slurp(out), slurp(err)};
}

}  // namespace landscape::cli_test
