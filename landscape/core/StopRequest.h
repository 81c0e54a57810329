#pragma once
// A request to stop, shared by a program and the algorithms it runs: SIGINT/SIGTERM set it (the
// handler lives in src/common/LongRun), and every long loop polls it (L-BFGS iterations, hybrid
// eigenvector-following, basin-hopping steps, connect cycles, dynamics chunks) so that a program
// stops within about a second in every phase and still leaves a state that --resume continues.
// A loop that sees the request ends with a "stopped" status; what it computed so far is neither
// converged nor saved as a result. One flag per process: the algorithms need no extra argument,
// and a signal handler may only touch a lock-free atomic.
namespace landscape {

/// True once requestStop() was called (and clearStopRequest() was not called since).
bool stopRequested();
/// Sets the flag. Async-signal-safe (a lock-free atomic store), so a signal handler may call it.
void requestStop();
/// Clears the flag (tests that request a stop, and a program that handled one).
void clearStopRequest();

}  // namespace landscape
