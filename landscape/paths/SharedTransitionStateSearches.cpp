#include "landscape/paths/SharedTransitionStateSearches.h"

#include <stdexcept>

namespace landscape {

// A run's view: one request per search().
class SharedSearchView : public TransitionStateSearches {
 public:
  SharedSearchView(SharedTransitionStateSearches& shared, SharedBatchedPotential::Member& member)
      : m_shared(shared), m_member(member) {}
  std::size_t dimension() const override { return m_shared.dimension(); }
  std::string name() const override { return m_shared.name(); }
  void search(const HybridEigenvectorFollowingParams& params,
              const std::vector<TransitionStateJob>& jobs,
              std::vector<TransitionStateResult>& out) override {
    checkTransitionStateJobs(params, jobs);
    m_shared.m_calls->submit(params, jobs, out, m_member);
  }

 private:
  SharedTransitionStateSearches& m_shared;
  SharedBatchedPotential::Member& m_member;
};

SharedTransitionStateSearches::SharedTransitionStateSearches(
    std::vector<std::unique_ptr<TransitionStateSearches>> lanes)
    : m_lanes(std::move(lanes)) {
  if (m_lanes.empty())
    throw std::invalid_argument("shared transition-state searches: at least one lane");
  std::vector<Service::Call> calls;
  for (const std::unique_ptr<TransitionStateSearches>& lane : m_lanes) {
    if (!lane || lane->dimension() != m_lanes.front()->dimension())
      throw std::invalid_argument("shared transition-state searches: lanes of one system");
    TransitionStateSearches* searcher = lane.get();
    calls.push_back([searcher](const HybridEigenvectorFollowingParams& params,
                               const std::vector<TransitionStateJob>& jobs,
                               std::vector<TransitionStateResult>& out) {
      searcher->search(params, jobs, out);
    });
  }
  m_calls = std::make_unique<Service>(std::move(calls), &sameHybridEfSettings);
}

SharedTransitionStateSearches::~SharedTransitionStateSearches() { m_calls.reset(); }

std::unique_ptr<TransitionStateSearches> SharedTransitionStateSearches::view(
    SharedBatchedPotential::Member& member) {
  return std::make_unique<SharedSearchView>(*this, member);
}

SharedCallStatistics SharedTransitionStateSearches::statistics() const {
  return m_calls->statistics();
}

std::string SharedTransitionStateSearches::name() const {
  return m_lanes.front()->name() + ", shared over " + std::to_string(m_lanes.size()) + " lanes";
}

}  // namespace landscape
