#pragma once
// Local rigid bodies on a CUDA device: the twin of potentials/RigidBodyPotential over any
// atomistic potential (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, section 2.1).
// Device-resident: with a device-resident atomistic potential one evaluation is rotations -> atoms
// -> atomistic energyGradientDevice -> projected gradient, all on the device, so the GPU L-BFGS
// (LbfgsCudaWorkspace) runs in rigid coordinates without host round trips; only the energy (and,
// for the convergence test, the angle-axis RMS) come back. An atomistic potential without a device
// entry point is evaluated through its host entry point (atoms and gradient copied; useful until
// the CUDA AMBER-GB lands).
//
// This is the batch of one of gpu/BatchedRigidBodyCuda over the atomistic potential seen as a
// batch (gpu/PotentialBatchCuda): one code path. Kernels and reductions:
// gpu/RigidBodyKernels.cuh (warp shuffles for bodies of <= 32 atoms, block reductions, multi-pass
// across blocks for bodies larger than a block; deterministic).
// Double precision; agrees with the CPU twin to rounding. Header free of CUDA types (pimpl); the
// class exists only in CUDA builds. Work runs on the legacy default stream. Not thread-safe.
#include <memory>

#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {

class RigidBodyCuda : public Potential {
 public:
  /// `atomistic` must outlive this object and have 3 x system.atomCount() coordinates. Allocates
  /// device memory on the current device (std::runtime_error without one).
  RigidBodyCuda(Potential& atomistic, RigidBodySystem system);
  ~RigidBodyCuda() override;

  const RigidBodySystem& system() const { return m_system; }

  std::size_t dimension() const override { return m_system.dimension(); }
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }
  double energy(const double* q) override;
  double energyGradient(const double* q, double* g) override;
  std::vector<EnergyComponent> energyComponents(const double* q) override;

  bool isDeviceResident() const override { return true; }
  double energyGradientDevice(const double* d_q, double* d_g) override;

  bool hasGradientMetric() const override { return true; }
  double rmsGradient(const double* q, const double* g) override;
  double rmsGradientDevice(const double* d_q, const double* d_g) override;
  bool overallMotionModes(const double* q, std::vector<double>& modes) const override {
    m_system.overallMotionModes(q, modes);
    return true;
  }
  bool diagonalMetric(std::vector<double>& w) const override {
    w = m_system.diagonalMetric();
    return true;
  }

  /// Atoms (3N, device) from rigid coordinates (device); for callers that stay on the device.
  void toAtomsDevice(const double* d_q, double* d_x);

 private:
  struct DeviceState;
  Potential& m_atomistic;
  RigidBodySystem m_system;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
