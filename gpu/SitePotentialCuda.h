#pragma once
// A site model (potentials/SiteModel.h: rigid TIP4P water first) on a CUDA device: the twin of
// potentials/SitePotential (same energy, same units, 3 x sites Cartesians) as a batch of one of
// gpu/BatchedSitePotentialCuda (one code path for one structure and many), so its energies and
// gradients are BatchedSitePotentialCuda's bits for the same coordinates. A host caller moves
// coordinates in and the gradient out; a device caller (energyGradientDevice: GPU L-BFGS, the
// rigid layer of gpu/RigidBodyCuda) moves nothing but the energy back. The components (LJ,
// COULOMB) come from the CPU reference (built on first use): they are for output, not the inner
// loop.
//
// CUDA-free header (pimpl); the class exists only in CUDA builds, and makePotential()
// (backends/PotentialFactory.h) is the usual way to get one. Work runs on the legacy default
// stream; not thread-safe.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "potentials/Potential.h"
#include "potentials/SiteModel.h"
#include "potentials/SitePotential.h"

namespace landscape {

class SitePotentialCuda : public Potential {
 public:
  /// Throws as BatchedSitePotentialCuda's constructor does.
  explicit SitePotentialCuda(const SiteModel& model);
  ~SitePotentialCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  std::vector<EnergyComponent> energyComponents(const double* x) override;

  bool isDeviceResident() const override { return true; }
  double energyGradientDevice(const double* d_x, double* d_g) override;

 private:
  SitePotential& reference();

  std::unique_ptr<SitePotential> m_reference;
  struct DeviceState;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
