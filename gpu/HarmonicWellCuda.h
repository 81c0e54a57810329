#pragma once
// The harmonic well on a CUDA device: the twin of potentials/HarmonicWell, device-resident (so a
// GPU Langevin run never copies coordinates through the host). Double precision; agrees with the
// CPU reference to rounding. Header free of CUDA types (pimpl); the class exists only in CUDA
// builds. Work runs on the legacy default stream.
#include <cstddef>
#include <memory>

#include "potentials/Potential.h"

namespace landscape {

class HarmonicWellCuda : public Potential {
 public:
  /// As HarmonicWell; allocates device buffers on the current device.
  HarmonicWellCuda(std::size_t atoms, double springConstant);
  ~HarmonicWellCuda() override;

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  bool isDeviceResident() const override { return true; }
  double energyGradientDevice(const double* d_x, double* d_g) override;

 private:
  struct DeviceState;
  std::size_t m_atoms;
  double m_springConstant;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
