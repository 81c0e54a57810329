#pragma once
// Lennard-Jones cluster on a CUDA device: the twin of potentials/LennardJones (all pairs, no
// cutoff, reduced units). Double precision; agrees with the CPU reference to rounding (the test
// suite demands 1e-12 relative) and is bit-identical from run to run (see LennardJonesKernels.cuh).
//
// This header needs no CUDA headers (the device state is behind a pimpl), so g++-compiled code
// may include it; the class itself exists only in CUDA builds (LANDSCAPE_HAVE_CUDA), and
// makePotential() is the usual way to get one. Device buffers are allocated once, in the
// constructor, on the current device; work runs on the legacy default stream, so it is ordered
// with everything else the caller enqueues there. Not thread-safe (one instance, one thread).
#include <cstddef>
#include <memory>

#include "potentials/Potential.h"

namespace landscape {

class LennardJonesCuda : public Potential {
 public:
  /// Throws std::invalid_argument for atoms < 2 and std::runtime_error when device memory cannot
  /// be allocated (no device, out of memory).
  explicit LennardJonesCuda(std::size_t atoms);
  ~LennardJonesCuda() override;

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  /// Host entry points: copy x (host) to the device, and the gradient (host) back.
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  bool isDeviceResident() const override { return true; }
  /// d_x, d_g: non-overlapping device pointers of dimension() doubles; only the energy comes back
  /// to the host.
  double energyGradientDevice(const double* d_x, double* d_g) override;

 private:
  struct DeviceState;
  std::size_t m_atoms;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
