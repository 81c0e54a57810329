#include "landscape/paths/ConcurrentSearches.h"

#include <memory>

namespace landscape {

SharedConcurrentSearches::SharedConcurrentSearches(SharedBatchedPotential::Member& owner,
                                                   int threads)
    : m_owner(owner), m_pool(threads) {}

void SharedConcurrentSearches::forEach(
    std::size_t count, const std::function<void(std::size_t, SearchEngine&)>& task) {
  const SharedBatchedPotential::Member::Aside aside(m_owner);
  m_pool.forEach(count, [&](std::size_t i) {
    SharedBatchedPotential::Member member(m_owner.shared());
    const std::unique_ptr<Potential> potential = member.potential();
    const std::unique_ptr<BatchedPotential> batched = member.batched();
    SearchEngine engine{*potential, *batched};
    task(i, engine);
  });
}

}  // namespace landscape
