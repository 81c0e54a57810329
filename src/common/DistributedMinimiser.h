#pragma once
// A batched minimiser whose batch is split over the ranks of a Communicator
// (docs/cluster.md): rank r quenches its contiguous slice of the structures with its own
// minimiser (its GPU, or its CPU threads), then every rank receives every slice, so that each
// rank holds the whole batch's minima and results as if it had quenched them all itself.
// Since a structure's result depends on its own coordinates only (BatchedMinimiser's contract),
// the output is the same, bit for bit, for any number of ranks. This is how the walkers of
// `mpirun -n K gmin` spread: every rank runs the same WalkerEnsemble -- every walker's Markov
// chain, the shared lowest list, the replica exchanges -- on the same quench results, and only
// the quenches, where the time goes, are divided. Each rank also sends a fingerprint of the batch
// as it holds it before quenching; ranks whose copies differ (diverged walkers: another build, or
// hardware whose maths rounds otherwise) stop the run with an error rather than mix them.
#include <cstddef>
#include <memory>
#include <string>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "src/common/Communicator.h"

namespace landscape {

/// Structures [first, last) of a batch of `batch` that rank `rank` of `size` quenches:
/// contiguous blocks in rank order, the first batch % size ranks one structure more.
struct BatchSlice {
  std::size_t first = 0, last = 0;
  std::size_t count() const { return last - first; }
};
BatchSlice batchSlice(std::size_t batch, int rank, int size);

class DistributedMinimiser : public BatchedMinimiser {
 public:
  /// `local` quenches this rank's slices; `ranks` must outlive the minimiser. Collective: every
  /// rank calls minimise() with the same batch, in the same order.
  DistributedMinimiser(std::unique_ptr<BatchedMinimiser> local, Communicator& ranks);

  std::string name() const override;
  std::size_t dimension() const override { return m_local->dimension(); }
  const LbfgsParams& params() const override { return m_local->params(); }
  /// The local minimiser's memory (a rank holds the whole batch's coordinates, but quenches
  /// only its slice: the local figure is the conservative one).
  BatchMemory memory() const override { return m_local->memory(); }
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override;

 private:
  std::unique_ptr<BatchedMinimiser> m_local;
  Communicator& m_ranks;
};

}  // namespace landscape
