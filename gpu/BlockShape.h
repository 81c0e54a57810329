#pragma once
// The block size a batched potential's kernels run with, checked once for all of them (a block
// per structure: gpu/BatchedPairPotentialCuda, gpu/BatchedGuptaCuda, gpu/BatchedSitePotentialCuda),
// and the shared-memory check their launches share. CUDA-free header.
#include <cstddef>
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

/// The default block of a block-per-structure kernel with a thread per particle: whole warps
/// covering `particles`, at least 32 and at most 256.
inline int warpsCovering(int particles) {
  const int covering = (particles + 31) / 32 * 32;
  return covering < 32 ? 32 : covering > 256 ? 256 : covering;
}

/// The device's largest dynamic shared memory per block with opt-in (bytes); defined in
/// gpu/GpuDevice.cpp.
int sharedMemoryOptIn();

/// Whether a block-per-structure kernel needs the opt-in to launch with `bytes` of dynamic shared
/// memory: false up to CUDA's default 48 KiB, true above when the device allows it; otherwise
/// throws std::invalid_argument "<what>: <count> need <bytes> bytes of shared memory per structure,
/// the device gives <opt-in><hint>".
inline bool needsSharedMemoryOptIn(std::size_t bytes, const std::string& what,
                                   const std::string& count, const std::string& hint = "") {
  if (bytes <= 48 * 1024) return false;
  const int optIn = sharedMemoryOptIn();
  if (bytes > static_cast<std::size_t>(optIn))
    throw std::invalid_argument(what + ": " + count + " need " + std::to_string(bytes) +
                                " bytes of shared memory per structure, the device gives " +
                                std::to_string(optIn) + hint);
  return true;
}

}  // namespace landscape
