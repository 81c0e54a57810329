#pragma once
// B structures of n soft-sticky-dipole (SSD) water molecules (potentials/SoftStickyDipole.h: Liu
// and Ichiye, J. Phys. Chem. 1996; each molecule 4 marker sites, kcal/mol and Angstrom) on a CUDA
// device: the batched engine's potential (docs/batched.md) over 12 n marker Cartesians, which
// gpu/BatchedRigidBodyCuda turns into molecule centres and angle-axis vectors. One block per
// structure, a thread per molecule (gpu/BatchedSoftStickyDipoleKernels.cuh). Nothing is kept per
// structure, so the device entry point never allocates or synchronises (a CUDA graph may capture
// it).
//
// Bits: a structure's energy and gradient are the same whatever the batch size, its position in
// the batch, the active mask, the other structures, the stream and the entry point, and from run
// to run (no atomics; the block size is fixed at construction). Against the CPU reference
// potentials/SoftStickyDipole they agree to rounding (each pair evaluated from both molecules, the
// sums in another order): tests/SoftStickyDipoleCudaTest.cpp asks 1e-10 of max(|E|, 1) for the
// energy and 1e-10 of max |g| on every gradient entry. Double precision throughout.
//
// CUDA-free header (pimpl); the class exists only in CUDA builds. Not thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "potentials/BatchedPotential.h"
#include "potentials/SoftStickyDipole.h"

namespace landscape {

class BatchedSoftStickyDipoleCuda : public BatchedPotential {
 public:
  /// threadsPerStructure: the block size (a multiple of 32 up to 1024); 0 chooses the smallest
  /// multiple of 32 covering the molecules, at most 256. Throws std::invalid_argument for bad
  /// parameters (SoftStickyDipoleParams::check), fewer than 2 molecules or a bad block size (all
  /// checked before the device is looked for), std::runtime_error without a device, and
  /// std::invalid_argument for a block larger than the kernel's registers allow (the kernel's
  /// maxThreadsPerBlock: 384 with CUDA 13 on sm_90; the default block always fits).
  BatchedSoftStickyDipoleCuda(const SoftStickyDipoleParams& params, std::size_t molecules,
                              int threadsPerStructure = 0);
  ~BatchedSoftStickyDipoleCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  /// Host entry point (BatchedPotential): the active structures' rows in and out (synchronous).
  /// Throws std::invalid_argument for a null array.
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override;
  /// The host entry point's own page-locked arrays (gpu/BatchedHostStaging.h).
  HostArrays hostArrays(std::size_t batch) override;
  void preferOnDevice() override;
  bool isDeviceResident() const override { return true; }
  /// Nothing of a call is kept per row: rows may move between calls (BatchedPotential).
  bool rowsMayMove() const override { return true; }
  /// Device entry point (BatchedPotential): one launch on `stream`, not synchronised. Throws
  /// std::invalid_argument for a null array or more than INT_MAX structures.
  void energyGradientDevice(std::size_t batch, const double* d_x, double* d_g, double* d_energy,
                            const std::uint8_t* d_active, DeviceStream stream) override;

  /// 0: nothing is kept per structure on the device (the engine's arrays are the only ones).
  std::size_t bytesPerStructure() const override { return 0; }
  /// Nothing to allocate (BatchedPotential): any batch runs without growing anything.
  void reserve(std::size_t batch) override { (void)batch; }

  const SoftStickyDipoleParams& params() const;
  std::size_t moleculeCount() const;
  int threadsPerStructure() const;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
