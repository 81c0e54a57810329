#pragma once
// Batched Lennard-Jones clusters on a CUDA device: the CUDA twin of potentials/BatchedLennardJones
// with a device entry point (gpu/BatchedLennardJonesKernels.cuh: a block per structure, each pair
// once, no atomics). Energies and gradients equal potentials/LennardJonesTeam's with the same
// schedule bit for bit, and the CPU reference to round-off. CUDA-free header (pimpl); exists only
// in CUDA builds. The host entry point runs on the legacy default stream. Not thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "potentials/BatchedPotential.h"
#include "landscape/core/PairTileSchedule.h"

namespace landscape {

class BatchedLennardJonesCuda : public BatchedPotential {
 public:
  /// atoms >= 2; zeros in `shape`: 1 warp up to 64 atoms, 2 up to 128, else 4, and
  /// choosePairTileWidth's tile. Throws std::runtime_error without a device.
  explicit BatchedLennardJonesCuda(std::size_t atoms, BatchedTeamShape shape = {});
  ~BatchedLennardJonesCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override;
  /// The host entry point's own page-locked arrays (gpu/BatchedHostStaging.h).
  HostArrays hostArrays(std::size_t batch) override;
  void preferOnDevice() override;
  bool isDeviceResident() const override { return true; }
  /// Nothing of a call is kept per row: rows may move between calls (BatchedPotential).
  bool rowsMayMove() const override { return true; }
  void energyGradientDevice(std::size_t batch, const double* d_x, double* d_g, double* d_energy,
                            const std::uint8_t* d_active, DeviceStream stream) override;

  const BatchedTeamShape& shape() const;
  const PairTileSchedule& schedule() const;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
