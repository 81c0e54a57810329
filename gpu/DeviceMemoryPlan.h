#pragma once
// The one memory plan of the device batched potentials and engines: the free device memory no
// batch takes (kDeviceHeadroomBytes), what a batch may take now, and the check every device
// potential's reserve() makes before its per-structure scratch grows (BatchedAmberGbCuda,
// BatchedSopCuda, BatchedRigidBodyCuda; their bytes per structure are
// BatchedPotential::bytesPerStructure()). The engines (gpu/BatchedLbfgsCuda,
// gpu/BatchedLbfgsRoundsCuda) count the same headroom in BatchMemory::fixedBytes, and gmin sizes
// its default walkers with it. CUDA-free header; requireScratchFits exists in CUDA builds only.
#include <cstddef>
#include <cstdint>
#include <string>

namespace landscape {

/// Free device memory that no batch takes, left for the other users of the device (the CUDA
/// context's own growth, library workspaces, other processes): 64 MiB.
inline constexpr std::size_t kDeviceHeadroomBytes = std::size_t{64} << 20;

/// The device bytes a batch may take: `freeBytes` (cudaMemGetInfo) plus `heldBytes` (the buffers
/// its owner frees before allocating anew), less kDeviceHeadroomBytes; 0 when that is negative.
constexpr std::size_t deviceBytesForBatches(std::size_t freeBytes, std::size_t heldBytes) {
  return freeBytes + heldBytes > kDeviceHeadroomBytes ? freeBytes + heldBytes - kDeviceHeadroomBytes
                                                      : 0;
}

/// Before a device potential's scratch grows to `batch` structures of `perStructure` bytes:
/// waits for the work queued on every stream (it may still use the old scratch), then throws
/// std::runtime_error "<what>: a batch of B structures needs P bytes of device scratch per
/// structure; A bytes are available, enough for at most K structures" unless the batch fits in
/// deviceBytesForBatches(free memory, heldBytes) and is at most `maxBatch` (K is at most
/// maxBatch too). `heldBytes`: the scratch held now, which the caller frees before allocating.
void requireScratchFits(const std::string& what, std::size_t batch, std::size_t perStructure,
                        std::size_t heldBytes, std::size_t maxBatch = SIZE_MAX);

}  // namespace landscape
