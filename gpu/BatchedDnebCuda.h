#pragma once
// DNEB bands of Lennard-Jones clusters relaxed whole on the GPU (gpu/BatchedDnebKernels.cuh): one
// launch per relax() call, a block per band; the host copies the endpoints in and the bands,
// energies, tangents and outcomes back. Bit for bit the CPU twin's (landscape/paths/DnebBandTwin)
// for the same warps per band.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "landscape/paths/DnebBandTwin.h"
#include "landscape/paths/DnebBands.h"

namespace landscape {

class DnebBandsCuda : public DnebBands {
 public:
  /// Lennard-Jones clusters of `atoms` (>= 2) atoms; warps per band 1 to 32. Throws
  /// std::runtime_error without a CUDA device.
  explicit DnebBandsCuda(std::size_t atoms, int warps = kDnebBandWarps);
  ~DnebBandsCuda() override;

  std::size_t imageSize() const override;
  std::string name() const override;
  void relax(const DnebParams& params, const std::vector<DnebBandJob>& jobs,
             std::vector<DnebRelaxedBand>& out) override;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
