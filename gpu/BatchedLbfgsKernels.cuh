#pragma once
// Driver of the batched L-BFGS kernel for Lennard-Jones clusters. One persistent kernel: each block
// is a team (landscape/minimisation/LbfgsTeamTerms.h) that takes the next waiting structure from a
// device queue (an integer atomic counter), copies it into shared memory (x, g, trial x and g,
// direction, m-pair history: lbfgsTeamStorageDoubles doubles), runs GMIN's whole L-BFGS there
// without returning to the host, writes the minimum and its outcome, and takes the next structure
// until the queue is empty. The host launches once per batch.
//
// Determinism: which block takes which structure varies, but a structure's arithmetic depends on
// its own coordinates only (no float atomics; sums in the fixed team order), so results are the
// same bits run to run and equal the CPU twin's (landscape/minimisation/BatchedLbfgsTwin).
// Compiled with -fmad=false. Included only from .cu files.
#include <cuda_runtime.h>

#include <cstddef>

#include "gpu/TeamLennardJones.cuh"
#include "landscape/minimisation/LbfgsTeamTerms.h"

namespace landscape {

struct BatchedLbfgsArgs {
  double* d_x = nullptr;                   ///< [batch x n] starts in, minima out (sigma)
  LbfgsResult* d_outcomes = nullptr;  ///< [batch], overwritten
  unsigned int* d_queue = nullptr;         ///< next structure; must be 0 at launch
  TeamPairSchedule schedule;               ///< device slots, built for warps x 32 threads
  LbfgsTeamSettings settings;              ///< n = 3 x schedule.atoms
  std::size_t batch = 0;                   ///< structures, at most INT_MAX
  int warps = 1;                           ///< warps per team (block)
};

/// Dynamic shared memory of one block (bytes).
std::size_t batchedLbfgsSharedBytes(const BatchedLbfgsArgs& args);

/// Opts the kernel in to its shared memory and returns its resident blocks per multiprocessor
/// (0 when it cannot run: too much shared memory or too many registers).
int batchedLbfgsBlocksPerSm(const BatchedLbfgsArgs& args);

/// Enqueues the kernel with `blocks` blocks (<= batch) on `stream`; returns without
/// synchronising. Throws std::invalid_argument for a bad argument, std::runtime_error when the
/// launch fails.
void launchBatchedLbfgs(const BatchedLbfgsArgs& args, int blocks, cudaStream_t stream);

}  // namespace landscape
