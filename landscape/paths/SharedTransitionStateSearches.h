#pragma once
// The hybrid EF searches of many connect runs, each run whole in shared calls
// (landscape/paths/TransitionStateSearches.h: on the GPU one launch, a block per search; the calls
// as landscape/paths/SharedCallService makes them). A launch lasts as long as its longest search,
// so the service keeps several lanes, each with a searcher of its own (on the GPU its own stream),
// and a run's searches never wait for an unrelated long one to finish. While a run waits, its
// shared batched potential's calls for the other runs go on. A search's bits do not depend on the
// searches beside it, so neither does the network on timing or on the lanes.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "landscape/paths/SharedCallService.h"
#include "landscape/paths/TransitionStateSearches.h"
#include "potentials/SharedBatchedPotential.h"

namespace landscape {

class SharedTransitionStateSearches {
 public:
  /// One lane per searcher (at least one, all of one system); owned here.
  explicit SharedTransitionStateSearches(
      std::vector<std::unique_ptr<TransitionStateSearches>> lanes);
  ~SharedTransitionStateSearches();

  /// A view for one run: its search() hands the jobs to the service and waits through `member`
  /// (SharedBatchedPotential::Member::waitFor). For the member's thread or fibre only.
  std::unique_ptr<TransitionStateSearches> view(SharedBatchedPotential::Member& member);
  SharedCallStatistics statistics() const;
  std::size_t dimension() const { return m_lanes.front()->dimension(); }
  std::string name() const;

 private:
  friend class SharedSearchView;
  using Service = SharedCallService<HybridEigenvectorFollowingParams, TransitionStateJob,
                                    TransitionStateResult>;
  std::vector<std::unique_ptr<TransitionStateSearches>> m_lanes;
  std::unique_ptr<Service> m_calls;  // after the lanes: stops before they go
};

}  // namespace landscape
