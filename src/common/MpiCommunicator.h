#pragma once
// The ranks of an MPI job as a Communicator (src/common/Communicator.h). src/common/MpiCommunicator.cpp is the
// only code that includes mpi.h, built when CMake finds MPI (LANDSCAPE_MPI). MPI errors keep
// MPI's default handler (MPI_ERRORS_ARE_FATAL): a failed call ends the whole job rather than
// leaving ranks waiting, and the launcher ends the job when a rank dies (docs/cluster.md, Faults).
// The collectives are non-blocking ones, completed within Communicator::setTimeout's seconds when
// one is set: a rank that hangs without dying cannot hold the others forever.
#include <memory>

#include "src/common/Communicator.h"

namespace landscape {

/// MPI_Init_thread (funneled: only the main thread calls MPI; minimiser threads do not); the
/// communicator's destructor calls MPI_Finalize.
std::unique_ptr<Communicator> startMpiCommunicator(int& argc, char**& argv);

}  // namespace landscape
