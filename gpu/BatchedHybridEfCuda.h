#pragma once
// Hybrid eigenvector-following searches of Lennard-Jones clusters run whole on the GPU
// (gpu/BatchedHybridEfKernels.cuh): one launch per search() call, a block per search; the host
// copies the candidates and guesses in and the points, eigenvectors and outcomes back, and while
// the launch runs passes a stop request (landscape/core/StopRequest.h) on to it, so that every
// search ends with status Stopped before its next iteration. Bit for bit the CPU twin's
// (landscape/paths/HybridEfTwin) for the same warps per search.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "landscape/paths/HybridEfTwin.h"
#include "landscape/paths/TransitionStateSearches.h"

namespace landscape {

class HybridEfSearchesCuda : public TransitionStateSearches {
 public:
  /// Lennard-Jones clusters of `atoms` (>= 2) atoms; warps per search 1 to 32; inShared: a
  /// search's arrays in the block's shared memory where they fit (false: global memory, for
  /// comparison). Throws std::runtime_error without a CUDA device.
  explicit HybridEfSearchesCuda(std::size_t atoms, int warps = kHybridEfWarps,
                                bool inShared = true);
  ~HybridEfSearchesCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  void search(const HybridEigenvectorFollowingParams& params,
              const std::vector<TransitionStateJob>& jobs,
              std::vector<TransitionStateResult>& out) override;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
