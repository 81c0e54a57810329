#pragma once
// Overdamped Langevin dynamics on a CUDA device: the twin of LangevinCpu (landscape/dynamics/Langevin.h,
// which documents the equation, the units and the random streams). Coordinates, gradient and
// generator state stay on the device for a whole run; the deterministic force comes from the
// potential's device-resident entry point (energyGradientDevice), or, for host-only potentials,
// through its host entry point with a copy each way per step. The random force is drawn inside
// the integration kernel (gpu/LangevinKernels.cuh).
//
// The same LangevinParams give the same random numbers as LangevinCpu (bit for bit) and the same
// trajectory to rounding. Header free of CUDA types (pimpl); the class exists only in CUDA builds
// (use backends/LangevinFactory). Work runs on the legacy default stream; not thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "landscape/dynamics/Langevin.h"
#include "potentials/Potential.h"

namespace landscape {

class LangevinCuda : public LangevinIntegrator {
 public:
  /// As LangevinCpu; allocates on the current device. The potential must outlive the integrator.
  LangevinCuda(Potential& potential, const LangevinParams& params);
  ~LangevinCuda() override;

  std::size_t dimension() const override;
  const LangevinParams& params() const override;
  /// Copies x to the device, runs, copies the end point back.
  void run(double* x, long steps) override;
  using LangevinIntegrator::run;
  /// Runs on device coordinates d_x (dimension() doubles), nothing passing through the host except
  /// the potential's energy.
  void runDevice(double* d_x, long steps);
  long stepsDone() const override;
  void reseed(std::uint64_t seed) override;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
