#include "landscape/paths/ConcurrentSearches.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/Fibres.h"
#include "landscape/paths/SharedDnebBands.h"
#include "landscape/paths/SharedTransitionStateSearches.h"

namespace landscape {

SharedConcurrentSearches::SharedConcurrentSearches(SharedBatchedPotential::Member& owner,
                                                   int searches, SharedWholeSearches whole)
    : m_owner(owner), m_searches(searches), m_whole(whole) {
  if (searches < 1)
    throw std::invalid_argument("SharedConcurrentSearches: searches must be at least 1, not " +
                                std::to_string(searches));
}

void SharedConcurrentSearches::forEach(
    std::size_t count, const std::function<void(std::size_t, SearchEngine&)>& task) {
  const SharedBatchedPotential::Member::Aside aside(m_owner);
  std::size_t next = 0;  // the fibres share one thread: no two take an item at once
  const FibreScheduler::Task search = [&] {
    for (std::size_t i; (i = next++) < count;) {
      SharedBatchedPotential::Member member(m_owner.shared());
      const std::unique_ptr<Potential> potential = member.potential();
      const std::unique_ptr<BatchedPotential> batched = member.batched();
      const std::unique_ptr<DnebBands> bands =
          m_whole.bands ? m_whole.bands->view(member) : nullptr;
      const std::unique_ptr<TransitionStateSearches> transitionStates =
          m_whole.transitionStates ? m_whole.transitionStates->view(member) : nullptr;
      SearchEngine engine{*potential, *batched, bands.get(), transitionStates.get()};
      task(i, engine);
    }
  };
  FibreScheduler::run(std::vector<FibreScheduler::Task>(
      std::min(count, static_cast<std::size_t>(m_searches)), search));
}

}  // namespace landscape
