#pragma once
// B structures of one system evaluated together: the potential side of the batched engine
// (docs/batched.md). Coordinates are [B x n] (structure b at x + b n, n = dimension()), gradients
// [B x n] and energies [B], in the units of the single-structure Potential of the same system. An
// active mask lets a minimiser stop paying for structures that have finished.
//
// The header is CUDA-free: the device entry point takes its stream as a DeviceStream, a
// cudaStream_t cast to void*, so that algorithms can hold batched potentials without CUDA.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "potentials/Potential.h"

namespace landscape {

/// A CUDA stream through CUDA-free headers: a cudaStream_t cast to void*; nullptr is the legacy
/// default stream.
using DeviceStream = void*;

class BatchedPotential {
 public:
  virtual ~BatchedPotential() = default;
  BatchedPotential() = default;
  BatchedPotential(const BatchedPotential&) = delete;
  BatchedPotential& operator=(const BatchedPotential&) = delete;

  /// Degrees of freedom of one structure, n (3 x atoms).
  virtual std::size_t dimension() const = 0;
  /// Short description for logs, e.g. "batched Lennard-Jones 38 atoms (cpu, 2 threads)".
  virtual std::string name() const = 0;
  virtual Backend backend() const { return Backend::Cpu; }

  /// Host entry point. x and g hold batch x n doubles, energy batch doubles. For every b with
  /// active[b] != 0 (every b when active is nullptr) energy[b] and g[b n .. b n + n) are
  /// overwritten; inactive structures are neither read nor written and cost nothing.
  virtual void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                              const std::uint8_t* active) = 0;

  /// Host arrays for host-entry calls of up to `batch` structures (x and g of batch x n doubles,
  /// energy of batch): a caller that assembles its batch there and passes them to
  /// energyGradient() saves a host copy each way (a device potential's page-locked staging).
  /// Valid until the next hostArrays() call with a larger batch or the potential's end; for one
  /// caller at a time. All nullptr (the default): plain host memory is as good.
  struct HostArrays {
    double* x = nullptr;
    double* g = nullptr;
    double* energy = nullptr;
  };
  virtual HostArrays hostArrays(std::size_t batch) {
    (void)batch;
    return {};
  }
  /// Device potentials: the host entry point's work runs at the device's greatest stream
  /// priority from now on, so that its kernels start before other streams' waiting work (network
  /// growth's shared calls, whose searches wait on each, beside the Hessians of the runs that have
  /// ended). A no-op by default.
  virtual void preferOnDevice() {}
  /// True when energyGradientDevice() may be called (CUDA backends).
  virtual bool isDeviceResident() const { return false; }
  /// Device entry point: as energyGradient() on device arrays (d_active may be nullptr), enqueued
  /// on `stream` and not synchronised. The default throws std::logic_error.
  virtual void energyGradientDevice(std::size_t batch, const double* d_x, double* d_g,
                                    double* d_energy, const std::uint8_t* d_active,
                                    DeviceStream stream);
  /// True when a row's energy and gradient are the bits of its coordinates in that call, whatever
  /// the row held in earlier calls (no per-structure potential object, nothing kept per row that a
  /// different structure would not refresh), so that a caller may move a structure to another row
  /// between two calls: the rounds engine then packs the structures still minimising into the
  /// first rows once most have finished (BatchedRoundsOptions::packFactor). False by default
  /// (moving is never assumed to be safe).
  virtual bool rowsMayMove() const { return false; }

  /// The memory plan of a batch (gpu/DeviceMemoryPlan.h): bytes of device memory that each
  /// structure of a batch adds to this potential's own buffers (its scratch, and that of a
  /// potential it runs over), which BatchedMinimiser::memory() leaves out. 0 (the default) for a
  /// potential that keeps nothing per structure on the device (the CPU potentials, Lennard-Jones
  /// on cuda), so that callers sizing batches from free memory (gmin's walkers) count every
  /// device potential's scratch without knowing its class.
  virtual std::size_t bytesPerStructure() const { return 0; }
  /// Allocates now the scratch of batches of up to `batch` structures (synchronous), so that no
  /// later call grows it (a growth inside a captured CUDA graph would fail the capture). A no-op
  /// by default. Device potentials throw std::runtime_error naming the bytes per structure and
  /// the largest batch that fits when the device has too little free memory.
  virtual void reserve(std::size_t batch) { (void)batch; }

  /// The metric of coordinates that are not plain Cartesians (rigid bodies), as the
  /// single-structure Potential of the same system has it: the same for every structure.
  /// Constant diagonal metric w (dimension() positive entries, Potential::diagonalMetric): false
  /// (the default) for plain Cartesians. Batched minimisers precondition with it when
  /// LbfgsParams::useDiagonalMetric is set (docs/lbfgs.md).
  virtual bool diagonalMetric(std::vector<double>& w) const;
  /// True when convergence tests use rmsGradients() instead of sqrt(|g|^2 / n)
  /// (Potential::hasGradientMetric; rigid bodies: the angle-axis metric of Ruehle, Kusumaatmaja,
  /// Chakrabarti and Wales, J. Chem. Theory Comput. 2013).
  virtual bool hasGradientMetric() const { return false; }
  /// Host: rms[b] = the RMS gradient (energy / length) of g[b] at x[b] in the potential's metric
  /// (Potential::rmsGradient) for every active b (every b when active is nullptr); inactive
  /// entries are neither read nor written. The default is sqrt(|g|^2 / n).
  virtual void rmsGradients(std::size_t batch, const double* x, const double* g, double* rms,
                            const std::uint8_t* active);
  /// Device: as rmsGradients() on device arrays (d_active may be nullptr), enqueued on `stream`
  /// and not synchronised; no allocation, so that a CUDA graph may capture it. The default throws
  /// std::logic_error.
  virtual void rmsGradientsDevice(std::size_t batch, const double* d_x, const double* d_g,
                                  double* d_rms, const std::uint8_t* d_active,
                                  DeviceStream stream);
};

/// The host entry point on vectors, with its sizes checked: x holds B >= 1 structures of
/// potential.dimension() coordinates, g as many values as x, energy B values and `active` B flags
/// or none (all active). Throws std::invalid_argument with a sentence naming the sizes otherwise.
/// Returns B. Rows of inactive structures in g and energy keep their values.
std::size_t evaluateBatch(BatchedPotential& potential, const std::vector<double>& x,
                          std::vector<double>& g, std::vector<double>& energy,
                          const std::vector<std::uint8_t>& active = {});

}  // namespace landscape
