#pragma once
// B structures of one AMBER-GB system on a CUDA device: the batched twin of
// potentials/AmberGb, through the kernels of gpu/AmberGbKernels.cuh with a structure index in
// every grid. The topology and parameter tables are uploaded once and shared by all structures;
// each structure has its own scratch arena (Born radii, pair slots, energy components, ticket
// counters). gpu/AmberGbCuda is the B = 1 user of this class, so both share one code path.
//
// Units: x in Angstrom, energies kcal/mol, gradients kcal/mol/A. Precision: Double (FP64
// everywhere, the CPU reference to rounding) or Mixed (FP32 pair arithmetic, FP64 sums), as
// AmberGbCuda. A structure's energy and gradient are the same bits whatever the batch size, its
// index in the batch, the other structures and the active mask (no sum crosses structures; the
// layouts depend on the atom count and the AmberGbCudaLayout only), and with the Latency layout
// equal AmberGbCuda's on the same coordinates.
//
// The device entry point enqueues six kernels per 65535 structures on the given stream and never
// synchronises with the host, except when the batch is larger than any before it: then the scratch
// grows first (cudaMalloc/cudaFree, which synchronise); reserve() or the constructor's
// `reserveBatch` does that beforehand. The six launches go out as one CUDA graph launch when the
// same arrays and batch size (B <= 65535) come a second time: the object keeps the executable
// graphs of up to 8 such argument sets (captured on a stream of its own, dropped when the scratch
// grows); a stream that is itself being captured (the round engine's graph) gets plain launches,
// and a capture that fails turns graphs off for the object (graphLaunches() then says false).
// Graph and plain launches run the same kernels on the same arguments: the same bits. On compute
// capability 9.0+ the kernels after the first are programmatic dependent launches (each starts
// while its predecessor finishes and waits for it before touching memory).
// CUDA-free header (pimpl); exists only in CUDA builds. Not thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "potentials/BatchedPotential.h"
#include "landscape/core/Precision.h"

namespace landscape {

/// How one structure's work is cut into blocks. The summation order follows the cut, so a
/// structure's bits depend on the layout (fixed per object), never on the batch.
enum class AmberGbCudaLayout {
  /// AmberGbCuda's: tuned so that one structure fills 132 SMs (small systems split each tile pair
  /// over up to 8 blocks and each tile's Born radii over several blocks).
  Latency,
  /// Each tile pair in one block, each tile's Born radii in one block: 1/S of the pair and chain
  /// slots to write and read, for batches that fill the device by their number; small systems
  /// take fewer row tiles per pair block (GbPairLayout::rows) so that few warps wait.
  Throughput,
};

std::string amberGbCudaLayoutName(AmberGbCudaLayout layout);

class BatchedAmberGbCuda : public BatchedPotential {
 public:
  /// Uploads the tables and reserves scratch for `reserveBatch` structures (>= 1). Throws
  /// std::invalid_argument as buildAmberGbTables() does (and for a topology without atoms or
  /// reserveBatch 0), std::runtime_error without a device or when the memory cannot be allocated.
  BatchedAmberGbCuda(const AmberTopology& topology, const AmberGbParams& params = {},
                     Precision precision = Precision::Double, std::size_t reserveBatch = 1,
                     AmberGbCudaLayout layout = AmberGbCudaLayout::Latency);
  ~BatchedAmberGbCuda() override;

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
  /// Device entry point (BatchedPotential): d_x, d_g [batch x 3N], d_energy [batch],
  /// d_active [batch] or nullptr, all device memory; enqueued on `stream`, not synchronised.
  /// Throws std::invalid_argument for batch 0 or a null array.
  void energyGradientDevice(std::size_t batch, const double* d_x, double* d_g, double* d_energy,
                            const std::uint8_t* d_active, DeviceStream stream) override;

  /// Makes room for batches of up to `batch` structures (synchronous; BatchedPotential). Throws
  /// std::runtime_error naming the bytes per structure and the largest batch that fits when the
  /// device has too little free memory (gpu/DeviceMemoryPlan.h).
  void reserve(std::size_t batch) override;
  /// Structures the scratch holds now.
  std::size_t reserved() const;
  /// Device scratch per structure (bytes; BatchedPotential): Born radii, pair slots, energies,
  /// counters.
  std::size_t bytesPerStructure() const override;

  /// Components of structure b of the most recent evaluation (a synchronous copy; call after it
  /// has run). b < reserved().
  AmberEnergyBreakdown breakdown(std::size_t b) const;
  /// Effective Born radii (A) of structure b of the most recent evaluation (synchronous).
  std::vector<double> bornRadii(std::size_t b) const;

  Precision precision() const { return m_precision; }
  const AmberGbParams& params() const { return m_params; }
  std::size_t atoms() const { return m_atoms; }
  AmberGbCudaLayout layout() const { return m_layout; }
  /// Column tiles per block of the pair kernel (part of the fixed summation order).
  int pairChunk() const;

  /// Graph launches of repeated argument sets on (default) or off (every call launches the six
  /// kernels; turning off drops the graphs held).
  void setGraphLaunches(bool on);
  bool graphLaunches() const;
  /// Graphs captured over the object's life (for tests and benchmarks).
  std::size_t graphsCaptured() const;
  /// Programmatic dependent launches of kernels 2-6 (each may start while the one before it
  /// finishes; gpu/AmberGbKernels.cuh): on by default on devices of compute capability 9.0 and
  /// later (elsewhere it stays off). Same bits either way; turning it on or off drops the graphs.
  void setProgrammaticLaunches(bool on);
  bool programmaticLaunches() const;

 private:
  AmberGbParams m_params;
  Precision m_precision;
  AmberGbCudaLayout m_layout;
  std::size_t m_atoms;
  struct DeviceState;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
