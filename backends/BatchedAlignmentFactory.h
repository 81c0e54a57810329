#pragma once
// Batched cluster alignments (landscape/geometry/BatchedAlignment.h) for a backend: on cpu the
// CPU twin over threads, on cuda the GPU kernel (gpu/BatchedAlignmentCuda, a block per pair).
#include <memory>

#include "landscape/geometry/BatchedAlignment.h"
#include "potentials/Potential.h"

namespace landscape {

/// Alignments of `atoms`-atom clusters on `backend` (threads: the twin's on cpu; on cuda the
/// host's share of a call, the starts and results). Throws
/// std::runtime_error when cuda is asked for and this build has no CUDA support or no device is
/// found.
std::unique_ptr<BatchedAlignment> makeBatchedAlignment(int atoms, Backend backend, int threads = 1);

}  // namespace landscape
