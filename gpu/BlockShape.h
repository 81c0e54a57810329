#pragma once
// The block size a batched potential's kernels run with, checked once for all of them (a block
// per structure: gpu/BatchedPairPotentialCuda, gpu/BatchedGuptaCuda). CUDA-free header.
#include <stdexcept>
#include <string>

namespace landscape {

/// Throws std::invalid_argument, naming `who`, unless `threads` is 0 (chosen by the potential) or
/// a multiple of 32 from 32 to 1024 (whole warps, CUDA's largest block).
inline void requireThreadsPerStructure(const std::string& who, int threads) {
  if (threads != 0 && (threads < 32 || threads > 1024 || threads % 32 != 0))
    throw std::invalid_argument(who +
                                ": threads per structure must be a multiple of 32 from 32 to 1024 "
                                "(or 0: chosen), got " +
                                std::to_string(threads));
}

}  // namespace landscape
