#pragma once
// B structures of one site model (potentials/SiteModel.h: the sites of rigid molecules, rigid
// TIP4P water first) on a CUDA device: the batched engine's potential (docs/batched.md) over
// 3 x sites Cartesians, which gpu/BatchedRigidBodyCuda turns into rigid-molecule coordinates. One
// block per structure, a thread per chunk of a site's interacting partners on other molecules
// (gpu/SitePartnerTable.h: pairs with no charge product and no Lennard-Jones are never visited;
// gpu/BatchedSiteKernels.cuh). The partner table and the pair coefficients are uploaded once at
// construction and nothing is kept per structure, so the device entry point never allocates or
// synchronises (a CUDA graph may capture it).
//
// Bits: a structure's energy and gradient are the same whatever the batch size, its position in
// the batch, the active mask, the other structures, the stream and the entry point, and from run
// to run (no atomics; the block size is fixed at construction). Against the CPU reference
// potentials/SitePotential they agree to rounding (each pair evaluated from both sites, the
// energy summed in another order): tests/SitePotentialCudaTest.cpp asks 1e-10 relative of the
// energy and 1e-10 of max |g| on every gradient entry. Double precision throughout.
//
// Units: the model's (TIP4P: kJ/mol and Angstrom). CUDA-free header (pimpl); the class exists
// only in CUDA builds (makeBatchedPotentialForSpec builds it). Not thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "potentials/BatchedPotential.h"
#include "potentials/SiteModel.h"

namespace landscape {

/// Whether a warp whose chunks have only Coulomb pairs skips the Lennard-Jones arithmetic
/// (gpu/BatchedSiteKernels.cu). The same bits either way; the full law everywhere exists for the
/// test that shows it and for benchmarks.
enum class SitePairLawPath { CoulombShortcut, FullLawEverywhere };

class BatchedSitePotentialCuda : public BatchedPotential {
 public:
  /// threadsPerStructure: the block size (a multiple of 32 up to 1024); 0 chooses the smallest
  /// multiple of 32 covering the partner table's chunks, at most 256. Throws std::invalid_argument
  /// for a bad model (SiteModel::check) or block size, or a model too large for one block's shared
  /// memory, std::runtime_error without a device.
  explicit BatchedSitePotentialCuda(const SiteModel& model, int threadsPerStructure = 0,
                                    SitePairLawPath path = SitePairLawPath::CoulombShortcut);
  ~BatchedSitePotentialCuda() override;

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

  const SiteModel& model() const;
  int threadsPerStructure() const;
  /// Site pairs i < j that the kernel visits (those that can interact).
  std::size_t interactingPairs() const;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
