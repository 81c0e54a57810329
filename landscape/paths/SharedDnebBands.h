#pragma once
// The DNEB bands of many connect runs relaxed whole in shared calls (landscape/paths/DnebBands.h:
// on the GPU one launch, a block per band; the calls as landscape/paths/SharedCallService makes
// them, on one service thread), and optionally their endpoints aligned in shared calls of a
// batched alignment (landscape/geometry/BatchedAlignment.h: on the GPU a block per pair, on a
// service thread of its own). Each run asks through a view of its own; while it waits for its
// band or alignment, its shared batched potential's calls for the other runs' searches go on (on
// the GPU beside the kernel, on another stream). A band's and an alignment's bits do not depend
// on the jobs beside them, so neither does the network on timing.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "landscape/geometry/BatchedAlignment.h"
#include "landscape/paths/DnebBands.h"
#include "landscape/paths/SharedCallService.h"
#include "potentials/SharedBatchedPotential.h"

namespace landscape {

class SharedDnebBands {
 public:
  /// `bands` and `alignment` (not owned; alignment may be null: the endpoints are aligned by
  /// alignStructures() on the run's thread) must outlive this object; their calls are made from
  /// the service threads only.
  explicit SharedDnebBands(DnebBands& bands, BatchedAlignment* alignment = nullptr);

  /// A view for one run: its relax() (and its endpoint alignment's align()) hands the jobs to the
  /// service and waits through `member` (SharedBatchedPotential::Member::waitFor). For the
  /// member's thread or fibre only.
  std::unique_ptr<DnebBands> view(SharedBatchedPotential::Member& member);
  /// A view of the shared alignment alone for one run (its connect cycles' distances:
  /// ConnectBatching::alignments), or null without an alignment. For the member's thread or
  /// fibre only.
  std::unique_ptr<BatchedAlignment> alignmentView(SharedBatchedPotential::Member& member);
  SharedCallStatistics statistics() const { return m_calls.statistics(); }
  /// The endpoint alignments' calls (none without an alignment).
  SharedCallStatistics alignmentStatistics() const;
  std::size_t imageSize() const { return m_bands.imageSize(); }
  std::string name() const { return m_bands.name() + ", shared"; }

 private:
  friend class SharedBandView;
  friend class SharedAlignmentView;
  using AlignmentCalls = SharedCallService<AlignmentParams, AlignmentPair, AlignmentResult>;
  DnebBands& m_bands;
  BatchedAlignment* m_alignment;
  SharedCallService<DnebParams, DnebBandJob, DnebRelaxedBand> m_calls;
  std::unique_ptr<AlignmentCalls> m_alignmentCalls;  // with an alignment
};

}  // namespace landscape
