#pragma once
// The CPU twin of the team Lennard-Jones evaluation of the batched GPU kernels
// (gpu/TeamLennardJones.cuh): the same pairs in the same schedule (landscape/core/PairTileSchedule.h),
// each lane's accumulators and energy partial added in the order the lane adds them, and the
// energy reduced as the team reduces it (landscape/core/TeamTerms.h). With FMA contraction off on
// both sides (-ffp-contract=off here, -fmad=false there) a structure's energy and gradient are
// the GPU's bit for bit; against LennardJones (one serial loop) they agree to round-off only.
#include <vector>

#include "landscape/core/PairTileSchedule.h"

namespace landscape {

class LennardJonesTeam {
 public:
  /// A team of teamThreads threads (a multiple of 32) on `schedule`, built for that many threads.
  LennardJonesTeam(PairTileSchedule schedule, int teamThreads);

  const PairTileSchedule& schedule() const { return m_schedule; }
  int teamThreads() const { return m_threads; }

  /// Energy (epsilon) at x (3N, sigma); the gradient overwrites g (3N, epsilon / sigma).
  double energyGradient(const double* x, double* g);

 private:
  void evaluateSlot(const PairSlot& slot, const double* x, int group);
  void flush(const PairSlot& slot, int group, bool firstPhase, double* g) const;

  PairTileSchedule m_schedule;
  int m_threads;
  std::vector<double> m_laneEnergy;  // [threads]
  // Per group and lane: the accumulators of the lane's atom in tile `first` and in tile `second`.
  std::vector<double> m_first, m_second;  // [groups x w x 3]
};

}  // namespace landscape
