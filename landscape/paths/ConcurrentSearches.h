#pragma once
// Independent searches of one connect run side by side: the hybrid eigenvector-following
// refinements of a DNEB band's candidates depend on the band alone, and the DNEB bands of a
// cycle's missing links on their two minima alone (Connect), so they may run at once, each with a
// potential of its own. Over a shared batched potential (potentials/SharedBatchedPotential) each
// search is a member, so that the candidates' evaluations join the same batched calls as every
// other run's; the results are each search's own bits, whatever runs beside it.
#include <cstddef>
#include <functional>

#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"
#include "potentials/SharedBatchedPotential.h"

namespace landscape {

class DnebBands;
class SharedDnebBands;
class SharedTransitionStateSearches;
class TransitionStateSearches;

/// Team engines that run a whole DNEB band or a whole hybrid EF search in shared calls (on the
/// GPU a block per job), each optional: null, the band goes through its images and the search
/// evaluates through the shared batched potential one structure at a time.
struct SharedWholeSearches {
  SharedDnebBands* bands = nullptr;
  SharedTransitionStateSearches* transitionStates = nullptr;
};

/// What one search of a forEach works with: a potential of its own and a batched potential of
/// the same system (a DNEB band's images), both for its thread only, and optionally bands relaxed
/// whole (landscape/paths/DnebBands.h; null: through the images) and hybrid EF searches run whole
/// (landscape/paths/TransitionStateSearches.h; null: through the potential).
struct SearchEngine {
  Potential& potential;
  BatchedPotential& batched;
  DnebBands* bands = nullptr;
  TransitionStateSearches* transitionStates = nullptr;
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

/// Searches as fibres (landscape/core/Fibres), at most `searches` at once, each a member of
/// `owner`'s shared potential while it searches: on the owner's thread when it runs on a fibre
/// (the fibres of a thread's other runs go on meanwhile), else on the calling thread. `owner`
/// (the run's own membership, which only waits meanwhile) steps aside. With `whole`'s engines,
/// each search's DNEB bands and hybrid EF searches run whole in their shared calls.
class SharedConcurrentSearches : public ConcurrentSearches {
 public:
  /// searches >= 1; throws std::invalid_argument otherwise.
  SharedConcurrentSearches(SharedBatchedPotential::Member& owner, int searches,
                           SharedWholeSearches whole = {});
  void forEach(std::size_t count,
               const std::function<void(std::size_t, SearchEngine&)>& task) override;

 private:
  SharedBatchedPotential::Member& m_owner;
  int m_searches;
  SharedWholeSearches m_whole;
};

}  // namespace landscape
