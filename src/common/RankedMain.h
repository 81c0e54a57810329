#pragma once
// The `main` of a program that may run under mpirun (gmin, pathsample; docs/cluster.md): starts
// the communicator (src/common/Communicator.h), discards the standard output of ranks other than 0 (rank
// 0 prints the run; errors still show on standard error), and ends every rank when one meets an
// error, since the others would wait for it in their next collective step.
#include <functional>

#include "src/common/Communicator.h"

namespace landscape {

/// Runs `run` on this process's ranks and returns its exit status. An exception is printed as
/// "PROGRAM: error: ..." (one process: exit status 1) or "PROGRAM: error (rank r of K): ..."
/// followed by MPI_Abort of the whole job; ranks other than 0 wait 2 s first, so that an error
/// every rank meets (bad input) is reported once, by rank 0, whose abort ends them.
int runRankedProgram(const char* program, int argc, char** argv,
                     const std::function<int(int, char**, Communicator&)>& run);

/// Under mpirun with a CUDA run: makes this rank's GPU its node's device (local rank mod devices),
/// before anything touches the device, and on rank 0 (unless `quiet`) prints
/// "PROGRAM: rank 0 on GPU i of n (the ranks of a node take its GPUs in turn)". Nothing for one
/// process or another backend.
void useRankGpu(const char* program, bool cuda, bool quiet, Communicator& ranks);

}  // namespace landscape
