#pragma once
// The batched engine's minimiser: B structures of one system, each minimised alone by GMIN's
// L-BFGS (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, Algorithms 1-3; the step control
// of LbfgsStep.h) with every scalar -- history, gamma, step cap, uphill reversal, step division,
// history reset, RMS test, iteration cap, status -- kept per structure. Implementations: BatchedLbfgs (CPU reference: each structure
// bit for bit today's Lbfgs), BatchedLbfgsTwin (CPU twin of the GPU kernel's order) and
// gpu/BatchedLbfgsCuda (one persistent kernel); backends/BatchedMinimiserFactory picks one.
// Under a potential's metric (BatchedPotential::diagonalMetric, hasGradientMetric: rigid bodies)
// the reference and the rounds engine precondition and converge as Lbfgs does (docs/lbfgs.md).
#include <cstddef>
#include <string>

#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/LbfgsParams.h"

namespace landscape {

/// Memory of a batched minimiser: B structures take fixedBytes + B bytesPerStructure.
struct BatchMemory {
  std::size_t bytesPerStructure = 0;  ///< bytes that every structure of a batch adds
  std::size_t fixedBytes = 0;         ///< bytes independent of the batch size
  std::size_t availableBytes = 0;     ///< bytes the batch may use (free device memory, ...)
  std::string where;                  ///< "device memory", "host memory"

  /// The largest B with fixedBytes + B bytesPerStructure <= availableBytes (0 if none).
  std::size_t largestBatch() const;
};

/// Throws std::invalid_argument when `batch` structures do not fit in `memory`, with a message
/// that names the bytes needed, the bytes available and the largest batch that fits.
void requireBatchFits(std::size_t batch, const BatchMemory& memory);

/// What a batch on the CPU may use: half the physical memory (0 when the system does not say).
/// BatchMemory::where for it is kHostBatchMemory.
std::size_t halfThePhysicalMemory();
inline constexpr const char* kHostBatchMemory = "host memory (half the physical memory)";

/// How the GPU kernel (and its CPU twin) lays a structure over threads; 0 = chosen automatically.
struct BatchedTeamShape {
  int warps = 0;      ///< warps per structure (1, 2, 4 or 8); 0: from shared memory occupancy
  int tileWidth = 0;  ///< pair tile width (4, 8, 16 or 32); 0: choosePairTileWidth
};

class BatchedMinimiser {
 public:
  virtual ~BatchedMinimiser() = default;

  virtual std::string name() const = 0;
  /// Degrees of freedom of one structure, n.
  virtual std::size_t dimension() const = 0;
  virtual const LbfgsParams& params() const = 0;
  /// Memory per structure and what is available now.
  virtual BatchMemory memory() const = 0;
  /// The largest batch that fits now (memory().largestBatch()).
  std::size_t maxBatch() const { return memory().largestBatch(); }
  /// The batch to use when the caller has no preference: the largest that fits, at most
  /// kDefaultBatchCap structures.
  std::size_t defaultBatch() const;
  static constexpr std::size_t kDefaultBatchCap = std::size_t{1} << 20;

  /// Minimises structures 0..batch-1 of x (host, [batch x n], overwritten with the minima) and
  /// writes results[0..batch-1]. A structure's result depends on its own coordinates only, never
  /// on the rest of the batch. Throws std::invalid_argument (requireBatchFits) before touching
  /// anything when the batch does not fit.
  virtual void minimise(std::size_t batch, double* x, LbfgsResult* results) = 0;
  /// A host array of batch x n that the caller may fill and pass to minimise as x, where the
  /// minimiser has one that is cheaper to use than the caller's memory (page-locked, so that the
  /// copies to and from a device are one DMA each); valid until the next hostBatch call or the
  /// minimiser's end. nullptr where it has none (the CPU engines).
  virtual double* hostBatch(std::size_t batch) {
    (void)batch;
    return nullptr;
  }
};

}  // namespace landscape
