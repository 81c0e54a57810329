#pragma once
// B Gupta clusters (potentials/GuptaPotential.h) on a CUDA device: the batched engine's potential
// (docs/batched.md) for metal clusters of tens to a few thousand atoms. One block per structure,
// two passes (the densities, then the energy's gradient; gpu/BatchedGuptaKernels.cuh); the
// constants travel in the launch's arguments and nothing is kept per structure, so the device
// entry point never allocates or synchronises (a CUDA graph may capture it: the rounds engine's).
//
// Bits: a structure's energy and gradient are the same whatever the batch size, its position in
// the batch, the active mask, the other structures, the stream and the entry point, and from run
// to run (no atomics; the block size is fixed at construction). Against the CPU reference
// potentials/GuptaPotential they agree to rounding (another summation order):
// tests/GuptaCudaTest.cpp asks 1e-12 relative of the energy and 1e-10 of max(1, max |g|) on every
// gradient entry. Double precision throughout.
//
// Units: those of the parameters (eV and r0 for the named metals). CUDA-free header (pimpl); the
// class exists only in CUDA builds (makeBatchedPotentialForSpec builds it). Not thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "potentials/BatchedPotential.h"
#include "potentials/GuptaPotential.h"

namespace landscape {

class BatchedGuptaCuda : public BatchedPotential {
 public:
  /// threadsPerStructure: the block size (a multiple of 32 up to 1024); 0 chooses the smallest
  /// multiple of 32 covering the atoms, at most 256. Throws std::invalid_argument for fewer than 2
  /// atoms, bad parameters (GuptaParams::check) or block size, or a cluster too large for one
  /// block's shared memory, std::runtime_error without a device.
  BatchedGuptaCuda(std::size_t atoms, const GuptaParams& params, int threadsPerStructure = 0);
  ~BatchedGuptaCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  /// Host entry point (BatchedPotential): the active structures' rows in and out (synchronous,
  /// legacy default stream). Throws std::invalid_argument for a null array.
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

  const GuptaParams& params() const;
  int threadsPerStructure() const;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
