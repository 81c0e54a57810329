#pragma once
// The CPU twin of the GPU's whole-band DNEB kernel for Lennard-Jones clusters
// (gpu/BatchedDnebCuda): the same band program (landscape/paths/DnebTeamTerms.h) on a host team
// that plays a block of `warps` warps, adding every sum in the order the GPU adds it
// (landscape/core/TeamTerms.h), each image evaluated in the one-warp pair schedule
// (potentials/LennardJonesTeam). A band's images, energies, tangents, counts and status are the
// GPU's bit for bit; against Dneb::run with the CPU potential they agree to round-off. Bands spread
// over a thread pool.
#include <cstddef>

#include "landscape/core/PairTileSchedule.h"
#include "landscape/core/ThreadPool.h"
#include "landscape/paths/DnebBands.h"

namespace landscape {

/// Warps per band of the whole-band kernel and its twin: a band's latency is its images'
/// evaluations one after the other on each warp, so more warps end a band sooner, up to the
/// block's reductions (H200, LJ38: 20 images 26 / 17 / 19 / 18 ms with 4 / 8 / 16 / 32 warps,
/// 30 images 48 / 30 / 23 / 24 ms; docs/benchmarks.md).
constexpr int kDnebBandWarps = 16;

class DnebBandTwin : public DnebBands {
 public:
  /// Lennard-Jones clusters of `atoms` (>= 2) atoms; warps per band 1 to 32; threads >= 1.
  DnebBandTwin(std::size_t atoms, int warps = kDnebBandWarps, int threads = 1);

  std::size_t imageSize() const override { return 3 * m_atoms; }
  std::string name() const override;
  void relax(const DnebParams& params, const std::vector<DnebBandJob>& jobs,
             std::vector<DnebRelaxedBand>& out) override;

 private:
  std::size_t m_atoms;
  int m_warps;
  PairTileSchedule m_schedule;  // one image on one warp
  ThreadPool m_pool;
};

}  // namespace landscape
