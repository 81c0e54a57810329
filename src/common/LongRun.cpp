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
volatile std::sig_atomic_t g_firstSignal = 0;
volatile std::sig_atomic_t g_deferred = 0;  // deferStopRequests(): record only

// Only async-signal-safe calls here: write(2), _exit(2) and the lock-free stop flag.
void writeLine(const char* a, const char* b) {
  ssize_t ignored = ::write(STDERR_FILENO, a, std::strlen(a));
  ignored = ::write(STDERR_FILENO, b, std::strlen(b));
  (void)ignored;
}

extern "C" void onStopSignal(int signal) {
  if (g_firstSignal != 0) {
    writeLine(g_program, ": second signal: exiting at once\n");
    ::_exit(128 + signal);
  }
  g_firstSignal = signal;
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
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // interrupted reads and writes go on; the loops poll the flag
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

void deferStopRequests() { g_deferred = 1; }

bool stopSignalled() { return g_firstSignal != 0; }

int stopExitStatus() { return 128 + (g_firstSignal != 0 ? g_firstSignal : SIGINT); }

}  // namespace landscape
