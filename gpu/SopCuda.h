#pragma once
// The SOP model (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, eq B1) on a CUDA
// device: the twin of potentials/Sop for energy and gradient (double precision, agreeing with the
// CPU to rounding), with a cell list and a Verlet list built on the device (gpu/SopKernels.cuh) and
// rebuilt when a bead has moved more than half the skin since the last build. Device-resident, so
// GPU L-BFGS and basin-hopping keep coordinates on the device. Header free of CUDA types (pimpl);
// exists only in CUDA builds (use makePotential). Work runs on the legacy default stream; not
// thread-safe.
#include <memory>

#include "potentials/Potential.h"
#include "potentials/SopTopology.h"

namespace landscape {

class SopCuda : public Potential {
 public:
  /// skin (A): the Verlet list holds pairs within repulsiveCutoff + skin. Throws
  /// std::invalid_argument for bad params, std::runtime_error without a device.
  explicit SopCuda(const SopTopology& topology, double skin = 2.0);
  ~SopCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// FENE, NATIVE, REPULSIVE (kcal/mol), as the CPU twin.
  std::vector<EnergyComponent> energyComponents(const double* x) override;
  /// Each bead's terms summed over its partners (sums to 2E), as the CPU twin.
  bool perAtomEnergies(const double* x, double* atomEnergies) override;
  bool isDeviceResident() const override { return true; }
  double energyGradientDevice(const double* d_x, double* d_g) override;
  /// Neighbour-list rebuilds so far.
  long rebuilds() const;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
