#pragma once
// Alignments of clusters searched on the GPU (gpu/BatchedAlignmentKernels.cuh): one launch per
// align() call, a block per pair; the host makes each pair's starts (AlignmentStarts.h), copies
// them in and the best fits back. Bit for bit the CPU twin's (landscape/geometry/AlignmentTwin)
// for any warps per block.
#include <memory>
#include <string>
#include <vector>

#include "landscape/geometry/BatchedAlignment.h"

namespace landscape {

/// Warps per pair: a pair's starts are bounded and refined a warp each, so more warps end a pair
/// sooner, up to the shared memory of a block.
constexpr int kAlignmentWarps = 8;

class BatchedAlignmentCuda : public BatchedAlignment {
 public:
  /// Clusters of `atoms` (>= 1) atoms; warps per pair 1 to 16 (fewer where the block's shared
  /// memory cannot hold them: 144 bytes per atom and warp); the host's share of a call (the
  /// starts, the results) on `threads` (>= 1) threads. Throws std::runtime_error without a CUDA
  /// device.
  explicit BatchedAlignmentCuda(int atoms, int warps = kAlignmentWarps, int threads = 1);
  ~BatchedAlignmentCuda() override;

  std::string name() const override;
  void align(const AlignmentParams& params, const std::vector<AlignmentPair>& pairs,
             std::vector<AlignmentResult>& out) override;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
