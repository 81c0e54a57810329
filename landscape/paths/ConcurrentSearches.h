#pragma once
// Independent searches of one connect run side by side: the hybrid eigenvector-following
// refinements of a DNEB band's candidates depend on the band alone, and the DNEB bands of a
// cycle's missing links on their two minima alone (Connect), so they may run at once, each with a
// potential of its own. Over a
// shared batched potential (potentials/SharedBatchedPotential) each search thread is a member, so
// that the candidates' evaluations join the same batched calls as every other run's; the results
// are each search's own bits, whatever runs beside it.
#include <cstddef>
#include <functional>

#include "landscape/core/ThreadPool.h"
#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"
#include "potentials/SharedBatchedPotential.h"

namespace landscape {

/// What one search of a forEach works with: a potential of its own and a batched potential of
/// the same system (a DNEB band's images), both for its thread only.
struct SearchEngine {
  Potential& potential;
  BatchedPotential& batched;
};

class ConcurrentSearches {
 public:
  virtual ~ConcurrentSearches() = default;
  /// Calls task(i, engine) for every i in [0, count), side by side where it can, each call with
  /// an engine of its own of the run's system. Returns when every call has returned; the first
  /// exception a call throws is rethrown here. Not reentrant: a task must not call forEach.
  virtual void forEach(std::size_t count,
                       const std::function<void(std::size_t, SearchEngine&)>& task) = 0;
};

/// Searches on `threads` threads, each a member of `owner`'s shared potential while it searches;
/// `owner` (the run's own membership, whose thread calls forEach and then only waits) steps
/// aside meanwhile.
class SharedConcurrentSearches : public ConcurrentSearches {
 public:
  /// threads >= 1; throws std::invalid_argument otherwise.
  SharedConcurrentSearches(SharedBatchedPotential::Member& owner, int threads);
  void forEach(std::size_t count,
               const std::function<void(std::size_t, SearchEngine&)>& task) override;

 private:
  SharedBatchedPotential::Member& m_owner;
  ThreadPool m_pool;
};

}  // namespace landscape
