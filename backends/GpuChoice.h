#pragma once
// Which GPU a process of a multi-process run uses (MPI, docs/cluster.md): the ranks of a
// node take the node's visible devices in turn, local rank r device r mod count, so that
// `mpirun -n 4` on a 4-GPU node puts one rank on each GPU and more ranks than GPUs share them.
// Called once at start-up, before any thread pool exists: the CUDA runtime keeps the current
// device per host thread, so the choice is made on this thread and on every pool worker started
// later (ThreadPool::setWorkerStart).
#include <string>

namespace landscape {

/// Makes device localRank mod count current; returns a line naming the choice ("GPU 1 of 4"),
/// or why none was chosen (no CUDA support, no device). Throws std::runtime_error when the
/// runtime refuses the device.
std::string useLocalGpu(int localRank);

}  // namespace landscape
