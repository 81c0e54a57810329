#pragma once
// A Gupta cluster on a CUDA device: the twin of potentials/GuptaPotential (same energy, same
// units) as a batch of one of gpu/BatchedGuptaCuda (one code path for one structure and many), so
// its energies and gradients are BatchedGuptaCuda's bits for the same coordinates. A host caller
// moves coordinates in and the gradient out; a device caller (energyGradientDevice: GPU L-BFGS)
// moves nothing but the energy back. The components and per-atom energies come from the CPU
// reference (built on first use): they are for output and move selection, not the inner loop.
//
// CUDA-free header (pimpl); the class exists only in CUDA builds, and makePotential()
// (backends/PotentialFactory.h) is the usual way to get one. Work runs on the legacy default
// stream; not thread-safe.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "potentials/GuptaPotential.h"

namespace landscape {

class GuptaCuda : public Potential {
 public:
  /// Throws as BatchedGuptaCuda's constructor does.
  GuptaCuda(std::size_t atoms, const GuptaParams& params);
  ~GuptaCuda() override;

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  std::vector<EnergyComponent> energyComponents(const double* x) override;
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  bool isDeviceResident() const override { return true; }
  double energyGradientDevice(const double* d_x, double* d_g) override;

 private:
  GuptaPotential& reference();

  std::size_t m_atoms;
  GuptaParams m_params;
  std::unique_ptr<GuptaPotential> m_reference;
  struct DeviceState;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
