#pragma once
// The CPU twin of the GPU's whole-search hybrid eigenvector-following kernel for Lennard-Jones
// clusters (gpu/BatchedHybridEfCuda): the same search program (landscape/paths/HybridEfTeamTerms.h)
// on a host team that plays a block of `warps` warps, adding every sum in the order the GPU adds it
// (landscape/core/TeamTerms.h), each structure evaluated in the one-warp pair schedule
// (potentials/LennardJonesTeam). A search's point, eigenvector and scalars are the GPU's bit for
// bit; against HybridEigenvectorFollowing with the CPU potential they agree to round-off. Searches
// spread over a thread pool; each polls the stop request (landscape/core/StopRequest.h) between
// iterations, as the host search does.
#include <cstddef>

#include "landscape/core/PairTileSchedule.h"
#include "landscape/core/ThreadPool.h"
#include "landscape/paths/TransitionStateSearches.h"

namespace landscape {

/// Warps per search of the kernel and its twin: the Rayleigh-Ritz objective evaluates two
/// structures, one per warp.
constexpr int kHybridEfWarps = 2;

class HybridEfTwin : public TransitionStateSearches {
 public:
  /// Lennard-Jones clusters of `atoms` (>= 2) atoms; warps per search 1 to 32; threads >= 1.
  HybridEfTwin(std::size_t atoms, int warps = kHybridEfWarps, int threads = 1);

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  void search(const HybridEigenvectorFollowingParams& params,
              const std::vector<TransitionStateJob>& jobs,
              std::vector<TransitionStateResult>& out) override;

 private:
  std::size_t m_atoms;
  int m_warps;
  PairTileSchedule m_schedule;  // one structure on one warp
  ThreadPool m_pool;
};

}  // namespace landscape
