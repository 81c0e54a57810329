#pragma once
// Driver of the batched alignment kernel for clusters: a block per pair running the search program
// of landscape/geometry/AlignmentTeamTerms.h, its warps taking the pair's starts in turn (each
// warp's rotated structure and assignment state in shared memory). Determinism: a pair's
// arithmetic depends on its own structures and starts only (no float atomics, sums in the warp's
// fixed order, least() by a total order), so its bits equal the CPU twin's
// (landscape/geometry/AlignmentTwin) whatever the other pairs and the block's warps. Compiled
// with -fmad=false. Included only from .cu files.
#include <cuda_runtime.h>

#include "landscape/geometry/AlignmentTeamTerms.h"

namespace landscape {

struct BatchedAlignmentArgs {
  AlignmentTeamArrays arrays;  ///< device pointers, laid out as AlignmentTeamArrays says
  AlignmentTeamSettings settings;
  double distinct = 0.0;  ///< kDistinctRotation
  int pairs = 0;
  int warps = 0;  ///< warps per pair (block), 1 to kMaxAlignmentWarps
};

constexpr int kMaxAlignmentWarps = 16;

/// Shared memory of a block of `warps` warps for clusters of `atoms` atoms (bytes).
std::size_t batchedAlignmentSharedBytes(int atoms, int warps);

/// Enqueues the kernel, a block per pair, on `stream`; returns without synchronising. Throws
/// std::invalid_argument for a bad argument (more shared memory than the device's block may
/// have among them), std::runtime_error when the launch fails.
void launchBatchedAlignment(const BatchedAlignmentArgs& args, cudaStream_t stream);

}  // namespace landscape
