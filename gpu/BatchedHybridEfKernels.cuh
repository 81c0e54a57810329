#pragma once
// Driver of the whole-search hybrid eigenvector-following kernel for Lennard-Jones clusters: a
// block per search (landscape/paths/HybridEfTeamTerms.h), its warps taking the Rayleigh-Ritz
// objective's two displaced structures (each structure's energy and gradient by
// gpu/TeamLennardJones.cuh on one warp), both L-BFGS runs over the block; the search stays on the
// device from its candidate to its final eigenpair. A mapped host flag asks the searches to stop
// between iterations (SIGINT/SIGTERM). Determinism: a search's arithmetic depends on its own
// candidate and guess only (no float atomics, sums in fixed team orders), so its bits equal the
// CPU twin's (landscape/paths/HybridEfTwin) whatever the other searches of the launch. Compiled
// with -fmad=false. Included only from .cu files.
#include <cuda_runtime.h>

#include <cstddef>

#include "gpu/TeamLennardJones.cuh"
#include "landscape/paths/HybridEfTeamTerms.h"

namespace landscape {

struct BatchedHybridEfArgs {
  double* d_io = nullptr;                     ///< [searches x 2n]: candidate and guess in, point
                                              ///< and eigenvector out
  double* d_work = nullptr;                   ///< [searches x hybridEfTeamWorkDoubles]
  HybridEfTeamOutcome* d_outcomes = nullptr;  ///< [searches], overwritten
  const volatile int* d_stop = nullptr;       ///< non-zero: end every search before its next
                                              ///< iteration (mapped host memory)
  TeamPairSchedule schedule;                  ///< device slots, built for one warp
  HybridEfTeamSettings settings;
  int searches = 0;
  int warps = 0;  ///< warps per search (block), 1 to 32
  /// Dynamic shared memory a block may take (bytes): a search whose arrays fit
  /// (hybridEfTeamSharedBytes) keeps them there, others in d_io and d_work.
  std::size_t sharedBytesLimit = 0;
};

/// Bytes of a search's io and work arrays in shared memory.
inline std::size_t hybridEfTeamSharedBytes(int n, int m) {
  return static_cast<std::size_t>(hybridEfTeamIoDoubles(n) + hybridEfTeamWorkDoubles(n, m)) *
         sizeof(double);
}

/// Enqueues the kernel, a block per search, on `stream`; returns without synchronising. Throws
/// std::invalid_argument for a bad argument, std::runtime_error when the launch fails.
void launchBatchedHybridEf(const BatchedHybridEfArgs& args, cudaStream_t stream);

}  // namespace landscape
