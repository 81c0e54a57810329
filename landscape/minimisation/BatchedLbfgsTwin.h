#pragma once
// The CPU twin of the GPU's batched L-BFGS for Lennard-Jones clusters (gpu/BatchedLbfgsCuda):
// the same per-structure program (landscape/minimisation/LbfgsTeamTerms.h) on a host Team that adds every sum
// in the order the GPU team adds it (landscape/core/TeamTerms.h) and evaluates the potential in the
// GPU's pair schedule (potentials/LennardJonesTeam). For the same team shape a structure's
// iterates, energies, counts and status are the GPU's bit for bit; against the CPU reference
// (BatchedLbfgs, = Lbfgs) they differ by round-off, which the chaotic descent from a random start
// can amplify into a different minimum. Structures spread over a thread pool.
#include <cstddef>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/core/PairTileSchedule.h"
#include "landscape/core/ThreadPool.h"

namespace landscape {

class BatchedLbfgsTwin : public BatchedMinimiser {
 public:
  /// Lennard-Jones clusters of `atoms` (>= 2) atoms; `shape` as the GPU would resolve it on an
  /// H100/H200 (resolveTeamShape with default limits) where left 0; threads >= 1.
  BatchedLbfgsTwin(std::size_t atoms, const LbfgsParams& params, BatchedTeamShape shape,
                   int threads);

  std::string name() const override;
  std::size_t dimension() const override { return 3 * m_atoms; }
  const LbfgsParams& params() const override { return m_params; }
  /// Host memory: one team's storage per thread; a structure adds only its results.
  BatchMemory memory() const override;
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override;

  const BatchedTeamShape& shape() const { return m_shape; }

 private:
  std::size_t m_atoms;
  LbfgsParams m_params;
  BatchedTeamShape m_shape;
  PairTileSchedule m_schedule;
  ThreadPool m_pool;
};

}  // namespace landscape
