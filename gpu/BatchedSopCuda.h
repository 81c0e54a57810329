#pragma once
// B structures of one SOP system on a CUDA device: the batched twin of potentials/Sop (Zhmurov,
// Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, eq B1, double precision) for minimisation
// (gmin walkers, the round-based batched L-BFGS). The topology (bonds, native contacts) is uploaded
// once and shared; each structure has its own scratch (Pos4 coordinates, cell list, per-bead
// energies, components). Kernels and their order: gpu/BatchedSopKernels.cuh.
//
// Units: x in Angstrom, energies kcal/mol, gradients kcal/mol/A. Neighbours: a cell list built
// from each structure's own coordinates at every call (no Verlet list carried between calls,
// which would make the summation order depend on the structure's history), so a structure's
// energy and gradient are the same bits whatever the batch size, its position in the batch, the
// other structures, the active mask, the entry point and the stream. They agree with the CPU Sop
// to rounding (different summation order: the GPU sums per bead, the CPU per term list).
//
// The device entry point enqueues four kernels (per 65535 structures) on the given stream and never
// synchronises with the host, except when the batch is larger than any before it: then the scratch
// grows first (cudaMalloc/cudaFree, which synchronise); reserve() or the constructor's
// `reserveBatch` does that beforehand. A CUDA graph captured over the device entry point (the
// rounds engine's) holds the scratch pointers: reserve the largest batch before capturing, since
// growing frees the old arrays (and a growth inside a capture fails it: the engine then falls back
// to plain launches). gpu/SopCuda (one structure, a Verlet list with a skin reused
// across calls) stays separate: docs/batched.md says why. CUDA-free header (pimpl); exists only in
// CUDA builds. Not thread-safe.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "potentials/BatchedPotential.h"
#include "potentials/SopTopology.h"

namespace landscape {

class BatchedSopCuda : public BatchedPotential {
 public:
  /// Topologies of up to this many beads get an exclusion bitmask (N^2 / 8 bytes, shared: 32 MB
  /// at the limit; the repulsion then tests a candidate with one load); larger ones scan the
  /// bead's native list. The same bits either way.
  static constexpr std::size_t kExclusionMaskBeads = 16384;

  /// Uploads the topology and reserves scratch for `reserveBatch` (>= 1) structures;
  /// `exclusionMaskBeads` as kExclusionMaskBeads (0: never a mask). Throws
  /// std::invalid_argument for bad params, fewer than 2 beads or reserveBatch 0,
  /// std::runtime_error without a device or when the memory cannot be allocated.
  explicit BatchedSopCuda(const SopTopology& topology, std::size_t reserveBatch = 1,
                          std::size_t exclusionMaskBeads = kExclusionMaskBeads);
  ~BatchedSopCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  /// Host entry point (BatchedPotential): copies the active structures' rows in and out
  /// (synchronous, legacy default stream). Throws std::invalid_argument for batch 0 or a null
  /// array.
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override;
  /// The host entry point's own page-locked arrays (gpu/BatchedHostStaging.h).
  HostArrays hostArrays(std::size_t batch) override;
  void preferOnDevice() override;
  bool isDeviceResident() const override { return true; }
  /// Nothing of a call is kept per row: rows may move between calls (BatchedPotential).
  bool rowsMayMove() const override { return true; }
  /// Device entry point (BatchedPotential): d_x, d_g [batch x 3N], d_energy [batch], d_active
  /// [batch] or nullptr, all device memory; enqueued on `stream`, not synchronised. Throws
  /// std::invalid_argument for batch 0 or a null array.
  void energyGradientDevice(std::size_t batch, const double* d_x, double* d_g, double* d_energy,
                            const std::uint8_t* d_active, DeviceStream stream) override;

  /// Makes room for batches of up to `batch` structures (synchronous; BatchedPotential). Throws
  /// std::runtime_error naming the bytes per structure and the largest batch that fits when the
  /// device has too little free memory (gpu/DeviceMemoryPlan.h).
  void reserve(std::size_t batch) override;
  /// Structures the scratch holds now.
  std::size_t reserved() const;
  /// Device scratch per structure (bytes; BatchedPotential): coordinates, cell list, bead
  /// energies, components.
  std::size_t bytesPerStructure() const override;
  /// Whether the repulsion tests exclusions by the bitmask (else by the native lists).
  bool usesExclusionMask() const;
  /// FENE, NATIVE, REPULSIVE (kcal/mol) of structure b of the most recent evaluation (a
  /// synchronous copy). b < reserved().
  std::array<double, 3> components(std::size_t b) const;

 private:
  std::size_t m_beads;
  std::string m_description;
  struct DeviceState;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
