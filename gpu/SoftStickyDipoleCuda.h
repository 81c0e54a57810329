#pragma once
// Soft-sticky-dipole (SSD) water over marker sites (potentials/SoftStickyDipole.h) on a CUDA
// device: the twin of potentials/SoftStickyDipole (same energy, kcal/mol and Angstrom, 12 n marker
// Cartesians) as a batch of one of gpu/BatchedSoftStickyDipoleCuda (one code path for one
// structure and many), so its energies and gradients are BatchedSoftStickyDipoleCuda's bits for
// the same coordinates. A device caller (energyGradientDevice: GPU L-BFGS, the rigid layer of
// gpu/RigidBodyCuda) moves nothing but the energy back. Per-marker energies come from the CPU
// reference (built on first use): they are for moves and output, not the inner loop.
//
// CUDA-free header (pimpl); the class exists only in CUDA builds. Work runs on the legacy default
// stream; not thread-safe.
#include <cstddef>
#include <memory>
#include <string>

#include "potentials/Potential.h"
#include "potentials/SoftStickyDipole.h"

namespace landscape {

class SoftStickyDipoleCuda : public Potential {
 public:
  /// Throws as BatchedSoftStickyDipoleCuda's constructor does.
  SoftStickyDipoleCuda(const SoftStickyDipoleParams& params, std::size_t molecules);
  ~SoftStickyDipoleCuda() override;

  std::size_t dimension() const override;
  /// "SSD water x N, 4N markers (cuda)".
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// The CPU reference's (SoftStickyDipole::perAtomEnergies).
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  bool isDeviceResident() const override { return true; }
  double energyGradientDevice(const double* d_x, double* d_g) override;

 private:
  std::unique_ptr<SoftStickyDipole> m_reference;
  struct DeviceState;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
