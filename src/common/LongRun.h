#pragma once
// What every long-running program (gmin, optim, sop) sets up before its run:
//  - SIGINT and SIGTERM request a stop (landscape/core/StopRequest.h): the algorithms poll it and
//    the program saves a state that --resume continues, then exits with 128 + the signal number.
//    A second signal exits at once (_exit) without saving: what was last saved atomically stays.
//    The same signal number sent again by the same process (kill or sigqueue, same sender pid) is
//    the same request, not a second one: GNU timeout (without --foreground) and Slurm signal the
//    program and then its process group. Ctrl-C twice (from the kernel, no sender pid), a signal
//    from another process or of the other number is the second signal.
//  - stdout and stderr are line-buffered whatever they are (a terminal, a file, a pipe), so that a
//    log shows every progress line as it is printed.
// docs/reliability.md lists where each program stops.
namespace landscape {

/// Installs the handlers and the buffering; `program` prefixes the one line the handler writes.
void setUpLongRun(const char* program);
/// 128 + the number of the first stop signal received (130 = SIGINT when none was).
int stopExitStatus();

/// For programs whose processes must agree on when to stop (the ranks of `mpirun -n K gmin`,
/// src/gmin/GminRanks.h): from now on a stop signal is only recorded (stopSignalled()), not passed to
/// requestStop(), so that no loop of one rank ends on its own; the program requests the stop
/// itself once the ranks agree.
void deferStopRequests();
/// True once a stop signal was received.
bool stopSignalled();

}  // namespace landscape
