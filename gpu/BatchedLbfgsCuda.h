#pragma once
// The batched L-BFGS on a CUDA device for Lennard-Jones clusters: one
// persistent kernel per batch (gpu/BatchedLbfgsKernels.cuh), a block per structure at a time with
// the whole structure in shared memory, no host round trip inside a minimisation. Results equal
// the CPU twin landscape/minimisation/BatchedLbfgsTwin with the same shape() bit for bit, and the
// CPU reference (= Lbfgs) to round-off.
//
// Memory: device buffers hold x and one 32-byte outcome per structure; the working set of a
// minimisation lives in shared memory, so the batch size is bounded by device memory only
// (memory(), requireBatchFits). CUDA-free header (pimpl); exists only in CUDA builds. Work runs
// on the legacy default stream unless minimiseDevice() is given another. Not thread-safe.
#include <cstddef>
#include <memory>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "potentials/BatchedPotential.h"
#include "landscape/minimisation/LbfgsTeamTerms.h"

namespace landscape {

class BatchedLbfgsCuda : public BatchedMinimiser {
 public:
  /// Lennard-Jones clusters of `atoms` atoms on the current device; zeros in `shape` are chosen
  /// from the device's shared memory (resolveTeamShape). Throws std::invalid_argument when
  /// params.check() fails or a structure does not fit in shared memory, std::runtime_error when
  /// there is no device.
  BatchedLbfgsCuda(std::size_t atoms, const LbfgsParams& params, BatchedTeamShape shape = {});
  ~BatchedLbfgsCuda() override;

  std::string name() const override;
  std::size_t dimension() const override;
  const LbfgsParams& params() const override;
  /// Device memory: 8 n + 32 bytes per structure; available = free device memory plus the batch
  /// buffers this object already holds, less kDeviceHeadroomBytes (gpu/DeviceMemoryPlan.h).
  BatchMemory memory() const override;
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override;

  /// Device entry point: d_x ([batch x n], device) minimised in place, d_outcomes[batch] written;
  /// enqueued on `stream` (a cudaStream_t) without synchronising.
  void minimiseDevice(std::size_t batch, double* d_x, LbfgsResult* d_outcomes,
                      DeviceStream stream);

  /// Warps per structure and pair tile width in use.
  const BatchedTeamShape& shape() const;
  /// Blocks resident on the whole device (blocks per multiprocessor x multiprocessors): the
  /// number of structures minimised at once.
  int residentTeams() const;
  /// residentTeams() of an engine for these arguments, from the device's properties and the
  /// kernel's occupancy without building one (nothing is allocated).
  static int residentTeamsFor(std::size_t atoms, const LbfgsParams& params,
                              BatchedTeamShape shape = {});
  /// Dynamic shared memory per block (bytes).
  std::size_t sharedBytesPerTeam() const;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
