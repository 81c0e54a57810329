#pragma once
// Kernels of the round-based batched L-BFGS (gpu/BatchedLbfgsRoundsCuda): one block per slot of the
// resident batch runs landscape/minimisation/LbfgsRoundsTerms.h's state machine over the slot's
// rows in global memory; a device queue (an integer atomic counter) hands a finished slot the next
// waiting structure. Sums run in the team order of landscape/core/TeamTerms.h over blockDim.x
// threads (thread t over components t, t + T, ...), no float atomics, so a structure's bits do not
// depend on its slot, the batch, the number of slots or when the host polls; they equal the CPU
// twin's (landscape/minimisation/BatchedLbfgsRoundsTwin). Compiled with -fmad=false. Included only
// from .cu files.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "landscape/minimisation/LbfgsRoundsTerms.h"

namespace landscape {

/// The resident batch on the device: `slots` rows of every array.
struct BatchedRoundsSlots {
  double* x = nullptr;                ///< [slots x n] accepted point
  double* g = nullptr;                ///< [slots x n] gradient there
  double* xt = nullptr;               ///< [slots x n] point the potential evaluates next
  double* gt = nullptr;               ///< [slots x n] gradient the potential writes
  double* p = nullptr;                ///< [slots x n] direction
  double* s = nullptr;                ///< [slots x m x n] history
  double* y = nullptr;                ///< [slots x m x n]
  double* rho = nullptr;              ///< [slots x m]
  double* alpha = nullptr;            ///< [slots x m]
  double* energy = nullptr;           ///< [slots] the potential writes
  std::uint8_t* active = nullptr;     ///< [slots] the potential's mask
  LbfgsRoundsState* state = nullptr;  ///< [slots]
  std::size_t slots = 0;
};

/// The batch being minimised; kept in device memory so that a captured graph of rounds does not
/// depend on it.
struct BatchedRoundsJob {
  double* x;                   ///< [batch x n] starts in, minima out
  LbfgsResult* outcomes;  ///< [batch]
  unsigned long long batch;    ///< structures (at most INT_MAX)
};

struct BatchedRoundsArgs {
  BatchedRoundsSlots slots;
  const BatchedRoundsJob* d_job = nullptr;
  unsigned int* d_queue = nullptr;  ///< next structure to take; 0 before the first advance
  LbfgsTeamSettings settings;
  int threads = 32;  ///< per block: a multiple of 32 in [32, 1024]
  /// Compact directions (landscape/minimisation/LbfgsRoundsCompactTerms.h): [slots x
  /// lbfgsCompactSlotDoubles(n, m)] storage and [slots] flags that the advance sets for the slots
  /// whose direction the compact kernels compute this round; both null: two-loop directions.
  double* compact = nullptr;
  std::uint8_t* pending = nullptr;
  /// The potential's metric (LbfgsRoundsMetric: the diagonal metric's [n] scales in device
  /// memory, uploaded once, or null) and, under a gradient metric, [slots] RMS gradients that the
  /// potential writes each round after the energies (rms null otherwise).
  LbfgsRoundsMetric metric;
  const double* rms = nullptr;
};

/// One advance of every slot (a block each): the decision after the potential's evaluation,
/// then results out and refill for the slots whose run ended; slots with state zeroed
/// (kRoundsEmpty) take their first structure. Enqueued on `stream`, checked.
void launchBatchedRoundsAdvance(const BatchedRoundsArgs& args, cudaStream_t stream);

/// The compact direction of every slot whose pending flag the advance set (args.compact and
/// args.pending set): seven kernels (gpu/BatchedLbfgsRoundsCompactKernels.cu) that leave the
/// slot's first trial point in xt, its state in phase Trial and its active flag set. Enqueued on
/// `stream` right after launchBatchedRoundsAdvance, checked; no host synchronisation (capturable).
void launchBatchedRoundsCompactDirection(const BatchedRoundsArgs& args, cudaStream_t stream);

/// *d_count = number of non-zero active flags (one block; written with a volatile store so that
/// mapped host memory may be the target).
void launchBatchedRoundsCount(const std::uint8_t* active, std::size_t slots, int* d_count,
                              cudaStream_t stream);

/// Ends every unfinished run with status Stopped (LbfgsStructureRun::stop): its outcome and last
/// accepted point out, the slot idle. Then structures [from, batch) that never started get
/// {NaN, NaN, 0 calls, 0 iterations, Stopped} (their coordinates are left as they are).
void launchBatchedRoundsStop(const BatchedRoundsArgs& args, std::size_t from, std::size_t batch,
                             cudaStream_t stream);

/// Packing a batch's tail (BatchedRoundsOptions::packFactor), step 1: d_map[j] = the j-th of the
/// first `slots` slots, in slot order, whose phase is not kRoundsIdle (its structure is still
/// minimising), and *d_live = their number (a volatile store: mapped host memory may be the
/// target). One block; enqueued on `stream`, checked.
void launchBatchedRoundsPackMap(const LbfgsRoundsState* state, std::size_t slots, int* d_map,
                                int* d_live, cudaStream_t stream);

/// Step 2, for each slot array: dst row j = src row d_map[j] for j < rows, rowBytes each (dst
/// must not overlap src). Enqueued on `stream`, checked.
void launchBatchedRoundsGatherRows(const void* src, void* dst, const int* d_map, std::size_t rows,
                                   std::size_t rowBytes, cudaStream_t stream);

/// Step 3: slots [from, to) idle (phase kRoundsIdle, active flag 0, pending flag 0 where
/// `pending` is set). Enqueued on `stream`, checked.
void launchBatchedRoundsIdleRows(LbfgsRoundsState* state, std::uint8_t* active,
                                 std::uint8_t* pending, std::size_t from, std::size_t to,
                                 cudaStream_t stream);

}  // namespace landscape
