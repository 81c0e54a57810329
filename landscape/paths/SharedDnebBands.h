#pragma once
// The DNEB bands of many connect runs relaxed whole in shared calls (landscape/paths/DnebBands.h:
// on the GPU one launch, a block per band; the calls as landscape/paths/SharedCallService makes
// them, on one service thread). Each run asks through a view of its own; while it waits for its
// band, its shared batched potential's calls for the other runs' searches go on (on the GPU
// beside the band kernel, on another stream). A band's bits do not depend on the bands beside
// it, so neither does the network on timing.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "landscape/paths/DnebBands.h"
#include "landscape/paths/SharedCallService.h"
#include "potentials/SharedBatchedPotential.h"

namespace landscape {

class SharedDnebBands {
 public:
  /// `bands` (not owned) must outlive this object; its relax() is called from the service thread
  /// only.
  explicit SharedDnebBands(DnebBands& bands);

  /// A view for one run: its relax() hands the jobs to the service and waits through `member`
  /// (SharedBatchedPotential::Member::waitFor). For the member's thread or fibre only.
  std::unique_ptr<DnebBands> view(SharedBatchedPotential::Member& member);
  SharedCallStatistics statistics() const { return m_calls.statistics(); }
  std::size_t imageSize() const { return m_bands.imageSize(); }
  std::string name() const { return m_bands.name() + ", shared"; }

 private:
  friend class SharedBandView;
  DnebBands& m_bands;
  SharedCallService<DnebParams, DnebBandJob, DnebRelaxedBand> m_calls;
};

}  // namespace landscape
