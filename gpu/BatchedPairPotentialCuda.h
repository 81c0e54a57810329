#pragma once
// B structures of one pair model (potentials/PairModel.h: binary Lennard-Jones and Morse
// clusters, Kob-Andersen boxes, tabulated pairs) on a CUDA device: the batched engine's potential
// (docs/batched.md) for clusters of tens to hundreds of atoms and periodic boxes of up to a few
// thousand. One block per structure with every pair under the minimum image
// (gpu/BatchedPairKernels.cuh); the model's constants are uploaded once and nothing is kept per
// structure, so the device entry point never allocates or synchronises (a CUDA graph may capture
// it: the rounds engine's).
//
// Bits: a structure's energy and gradient are the same whatever the batch size, its position in
// the batch, the active mask, the other structures, the stream and the entry point, and from run
// to run (no atomics; the block shape is fixed at construction). Against the CPU reference
// potentials/PairPotential they agree to rounding (a different summation order and the image and
// r of gpu/PairDevice.cuh): tests/PairPotentialCudaTest.cpp asks 1e-12 of the sum of |pair
// energies| on the energy and 1e-10 of max |g| on every gradient entry.
//
// Units: the model's (reduced for the named systems). CUDA-free header (pimpl); the class exists
// only in CUDA builds (makeBatchedPotentialForSpec builds it). Not thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "potentials/BatchedPotential.h"
#include "potentials/PairModel.h"

namespace landscape {

class BatchedPairPotentialCuda : public BatchedPotential {
 public:
  /// threadsPerStructure: the block size (a multiple of 32 up to 1024); 0 chooses 128 up to 128
  /// atoms and 256 above. Throws std::invalid_argument for a bad model (PairModel::check) or
  /// block size, or a structure too large for one block's shared memory (then gpu/PairPotentialCuda
  /// is the class to use), std::runtime_error without a device.
  explicit BatchedPairPotentialCuda(PairModel model, int threadsPerStructure = 0);
  ~BatchedPairPotentialCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  /// Host entry point (BatchedPotential): the active structures' rows in and out (synchronous,
  /// legacy default stream). Throws std::invalid_argument for a null array.
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override;
  bool isDeviceResident() const override { return true; }
  /// Device entry point (BatchedPotential): one launch on `stream`, not synchronised. Throws
  /// std::invalid_argument for a null array or more than INT_MAX structures.
  void energyGradientDevice(std::size_t batch, const double* d_x, double* d_g, double* d_energy,
                            const std::uint8_t* d_active, DeviceStream stream) override;

  /// 0: nothing is kept per structure on the device (the engine's arrays are the only ones).
  std::size_t bytesPerStructure() const override { return 0; }
  /// Nothing to allocate (BatchedPotential): any batch runs without growing anything.
  void reserve(std::size_t batch) override { (void)batch; }

  const PairModel& model() const;
  int threadsPerStructure() const;
  /// Lanes that share an atom (gpu/BatchedPairKernels.cuh).
  int lanesPerAtom() const;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
