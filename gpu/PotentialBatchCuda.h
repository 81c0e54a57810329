#pragma once
// A single-structure Potential seen as a BatchedPotential with a device entry point: the
// structures of a batch are evaluated one after another by the potential's own device entry
// point (Potential::energyGradientDevice, on the legacy default stream), or, for a host-only
// potential, through its host entry point with the coordinates and the gradient staged through
// the host. Energies and gradients are the potential's bits. The device entry point synchronises
// (the single-structure interface returns its energy to the host), so it cannot be captured in a
// CUDA graph; it is what lets gpu/RigidBodyCuda be the B = 1 user of gpu/BatchedRigidBodyCuda
// over any atomistic Potential. CUDA-free header (pimpl); exists only in CUDA builds. Not
// thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"

namespace landscape {

class PotentialBatchCuda : public BatchedPotential {
 public:
  /// `potential` must outlive this object. Throws std::runtime_error without a device.
  explicit PotentialBatchCuda(Potential& potential);
  ~PotentialBatchCuda() override;

  std::size_t dimension() const override { return m_potential.dimension(); }
  std::string name() const override { return m_potential.name(); }
  Backend backend() const override { return m_potential.backend(); }
  /// Host entry point: the potential's host entry point per active structure.
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override;
  bool isDeviceResident() const override { return true; }
  /// Waits for `stream` (unless it is the legacy one), evaluates each active structure (reading
  /// d_active back first) and writes d_energy by a one-thread kernel on `stream`.
  void energyGradientDevice(std::size_t batch, const double* d_x, double* d_g, double* d_energy,
                            const std::uint8_t* d_active, DeviceStream stream) override;

  /// Energy of structure b of the last device evaluation (host copy; b < that batch).
  double lastEnergy(std::size_t b) const { return m_energies.at(b); }

 private:
  struct Staging;
  Potential& m_potential;
  std::vector<double> m_energies;
  std::vector<std::uint8_t> m_active;
  std::unique_ptr<Staging> m_staging;
};

}  // namespace landscape
