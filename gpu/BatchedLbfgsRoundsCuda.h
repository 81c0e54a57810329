#pragma once
// The round-based batched L-BFGS on a CUDA device over ANY device-resident BatchedPotential:
// GMIN's L-BFGS per structure (landscape/minimisation/LbfgsRoundsTerms.h) with every decision made
// in device code and the state of the resident structures in global memory ([slots x n] x, g, trial
// x and g, p; [slots x m x n] history; per-slot scalars). One round = the potential's device entry
// point on every active slot + one advance kernel (a block per slot); the rounds between two polls
// are captured in a CUDA graph. The host looks at the number of active slots only every
// roundsPerPoll rounds (a count kernel into mapped host memory, one poll kept in flight), never
// inside a round; finished slots take the next waiting structure from a device queue, so the batch
// stays full when it exceeds residentStructures. B = 1 runs the same code. Once the queue is empty
// and at most 1/packFactor of the slots are still minimising, those are packed into the first rows
// and the rounds (a graph per row count, kept) launch over fewer rows (BatchedRoundsOptions).
//
// Results equal the CPU twin (landscape/minimisation/BatchedLbfgsRoundsTwin) over a potential
// whose host entry point gives the device entry point's bits, bit for bit for the same
// threadsPerStructure, whatever the batch, the slots or roundsPerPoll; the CPU reference
// (BatchedLbfgs, = Lbfgs) to round-off. CUDA-free header (pimpl); exists only in CUDA builds. A
// stop request (landscape/core/StopRequest.h), polled with the count, ends the unfinished
// structures with status Stopped. Not thread-safe.
//
// The potential's metric (LbfgsRoundsMetric, as its twin): its diagonal metric, uploaded once and
// the same for every structure, when LbfgsParams::useDiagonalMetric is set (two-loop directions
// only: roundsCompactDirections); under a gradient metric its rmsGradientsDevice after every
// round's energies, one RMS per slot, for the convergence test (gpu/BatchedRigidBodyCuda: the
// angle-axis RMS, computed on the device).
#include <cstddef>
#include <memory>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/BatchedRoundsPlan.h"
#include "potentials/BatchedPotential.h"
#include "landscape/minimisation/LbfgsTeamTerms.h"

namespace landscape {

/// What the last minimisation of a BatchedLbfgsRoundsCuda did.
struct BatchedRoundsStats {
  long rounds = 0;     ///< rounds enqueued (potential calls on the resident batch)
  long polls = 0;      ///< host reads of the active count
  bool graph = false;  ///< the rounds ran as a captured CUDA graph
  long packs = 0;      ///< times the structures still minimising were packed into fewer rows
  std::size_t lastSlots = 0;  ///< rows in use at the end (the resident batch, or fewer if packed)
};

class BatchedLbfgsRoundsCuda : public BatchedMinimiser {
 public:
  /// `potential` must be device resident (isDeviceResident()) and outlive this object. Throws
  /// std::invalid_argument for bad params/options or a host-only potential, std::runtime_error
  /// without a device.
  BatchedLbfgsRoundsCuda(BatchedPotential& potential, const LbfgsParams& params,
                         const BatchedRoundsOptions& options = {});
  ~BatchedLbfgsRoundsCuda() override;

  std::string name() const override;
  std::size_t dimension() const override;
  const LbfgsParams& params() const override;
  /// Device memory: roundsSlotBytes per resident structure (per structure when
  /// residentStructures is 0) plus roundsStructureBytes per structure; available = free device
  /// memory plus the buffers this object holds, less kDeviceHeadroomBytes (gpu/DeviceMemoryPlan.h).
  /// The potential's own buffers are not counted (BatchedPotential::bytesPerStructure()).
  BatchMemory memory() const override;
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override;
  /// Page-locked (BatchedMinimiser::hostBatch): minimise's copies of it are DMAs, not pageable
  /// copies through the driver's staging (16 MB each way for 16,896 TIP4P (H2O)20 walkers).
  double* hostBatch(std::size_t batch) override;

  /// Device entry point: d_x ([batch x n], device) minimised in place, d_outcomes[batch] written.
  /// Work runs on this object's stream after the work already enqueued on `stream` (a
  /// cudaStream_t); returns when it has finished (the host polls).
  void minimiseDevice(std::size_t batch, double* d_x, LbfgsResult* d_outcomes,
                      DeviceStream stream);

  /// Threads per structure (the block size and the reduction order).
  int teamThreads() const;
  const BatchedRoundsOptions& options() const;
  const BatchedRoundsStats& lastStats() const;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
