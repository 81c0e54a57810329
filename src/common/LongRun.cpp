#include "src/common/LongRun.h"

#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>

#include "landscape/core/StopRequest.h"

namespace landscape {

namespace {

const char* g_program = "landscape";
// The first stop signal: its number, and who sent it (siginfo_t's si_code and si_pid).
volatile std::sig_atomic_t g_firstSignal = 0;
volatile std::sig_atomic_t g_firstCode = 0;
volatile std::sig_atomic_t g_firstSender = 0;
volatile std::sig_atomic_t g_deferred = 0;  // deferStopRequests(): record only

// Only async-signal-safe calls here: write(2), _exit(2) and the lock-free stop flag.
void writeLine(const char* a, const char* b) {
  ssize_t ignored = ::write(STDERR_FILENO, a, std::strlen(a));
  ignored = ::write(STDERR_FILENO, b, std::strlen(b));
  (void)ignored;
}

bool sentByAProcess(int code) { return code == SI_USER || code == SI_QUEUE; }

// The same request: the same signal number sent by the same process (kill(2) or sigqueue(3), same
// non-zero sender pid) as the first. GNU timeout (without --foreground) and Slurm signal the
// program and then its process group, so one request arrives twice; Ctrl-C comes from the kernel
// (si_pid 0), so pressing it twice is never the same request.
bool repeatsTheFirst(int signal, const siginfo_t* info) {
  return info != nullptr && signal == g_firstSignal && sentByAProcess(g_firstCode) &&
         sentByAProcess(info->si_code) && g_firstSender != 0 && info->si_pid == g_firstSender;
}

extern "C" void onStopSignal(int signal, siginfo_t* info, void*) {
  if (g_firstSignal != 0) {
    if (repeatsTheFirst(signal, info)) {
      writeLine(g_program,
                ": signal repeated by the same sender (process group): still stopping; another "
                "signal from elsewhere, Ctrl-C again, or kill -9 exits at once\n");
      return;
    }
    writeLine(g_program, ": second signal: exiting at once\n");
    ::_exit(128 + signal);
  }
  g_firstSignal = signal;
  g_firstCode = info != nullptr ? info->si_code : 0;
  g_firstSender = info != nullptr ? info->si_pid : 0;
  if (!g_deferred) requestStop();
  writeLine(g_program,
            ": stop requested: saving the state to resume from (a second signal exits at once)\n");
}

}  // namespace

void setUpLongRun(const char* program) {
  g_program = program;
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  std::setvbuf(stderr, nullptr, _IOLBF, BUFSIZ);
  struct sigaction action {};
  action.sa_sigaction = onStopSignal;
  // Both signals blocked while the handler runs, so that it records the first one whole before
  // it sees another.
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  // SA_RESTART: interrupted reads and writes go on; the loops poll the flag.
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

void deferStopRequests() { g_deferred = 1; }

bool stopSignalled() { return g_firstSignal != 0; }

int stopExitStatus() { return 128 + (g_firstSignal != 0 ? g_firstSignal : SIGINT); }

}  // namespace landscape
