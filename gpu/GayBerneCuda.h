#pragma once
// Gay-Berne ellipsoids over marker sites (potentials/GayBerne.h) on a CUDA device: the twin of
// potentials/GayBerne (same energy, reduced units, 12 n marker Cartesians) as a batch of one of
// gpu/BatchedGayBerneCuda (one code path for one structure and many), so its energies and
// gradients are BatchedGayBerneCuda's bits for the same coordinates. A device caller
// (energyGradientDevice: GPU L-BFGS, the rigid layer of gpu/RigidBodyCuda) moves nothing but the
// energy back. Per-ellipsoid energies come from the CPU reference (built on first use): they are
// for moves and output, not the inner loop.
//
// CUDA-free header (pimpl); the class exists only in CUDA builds, and makePotential()
// (backends/PotentialFactory.h) is the usual way to get one. Work runs on the legacy default
// stream; not thread-safe.
#include <cstddef>
#include <memory>
#include <string>

#include "potentials/GayBerne.h"
#include "potentials/Potential.h"

namespace landscape {

class GayBerneCuda : public Potential {
 public:
  /// Throws as BatchedGayBerneCuda's constructor does.
  GayBerneCuda(const GayBerneParams& params, std::size_t ellipsoids);
  ~GayBerneCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  bool isDeviceResident() const override { return true; }
  double energyGradientDevice(const double* d_x, double* d_g) override;

 private:
  std::unique_ptr<GayBerne> m_reference;
  struct DeviceState;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
