// Compiled with -ffp-contract=off (CMakeLists.txt): the GPU kernel adds and multiplies separately.
#include "landscape/paths/HybridEfTwin.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/StopRequest.h"
#include "landscape/core/TeamTerms.h"
#include "landscape/minimisation/HostTeam.h"
#include "landscape/paths/HybridEfTeamTerms.h"
#include "potentials/LennardJonesTeam.h"

namespace landscape {
namespace {

// The search's team: the block's threads over the structure's components (HostTeam), its warps'
// structures one after the other.
class HybridEfTwinTeam : public HostTeam {
 public:
  HybridEfTwinTeam(HybridEfTeamSearch& search, int threads, LennardJonesTeam& structure)
      : HostTeam(search.set.n, threads), m_search(search), m_structure(structure) {}

  struct Owned {
    double* v;
    double& operator[](int q) const { return v[q]; }
  };
  Owned owned() const { return {m_search.st.direction}; }

  template <class F>
  void forWarpItems(int count, F f) {
    HostWarpTeam warp(n);
    for (int i = 0; i < count; ++i) f(i, warp);
  }
  double evaluateImage(HostWarpTeam&, const double* x, double* g) {
    return m_structure.energyGradient(x, g);
  }
  bool stopRequested() const { return landscape::stopRequested(); }

 private:
  HybridEfTeamSearch& m_search;
  LennardJonesTeam& m_structure;
};

}  // namespace

HybridEfTwin::HybridEfTwin(std::size_t atoms, int warps, int threads)
    : m_atoms(atoms), m_warps(warps), m_pool(threads) {
  if (atoms < 2)
    throw std::invalid_argument("hybrid EF twin: at least 2 atoms, got " + std::to_string(atoms));
  if (warps < 1 || warps > 32)
    throw std::invalid_argument("hybrid EF twin: 1 to 32 warps per search, got " +
                                std::to_string(warps));
  const int n = static_cast<int>(atoms);
  m_schedule = buildPairTileSchedule(n, choosePairTileWidth(n, kTeamWarpSize), kTeamWarpSize);
}

std::string HybridEfTwin::name() const {
  return "hybrid EF searches (cpu twin of the cuda kernel: " + std::to_string(m_warps) +
         " warps per search, " + std::to_string(m_pool.threads()) + " threads) on Lennard-Jones " +
         std::to_string(m_atoms) + " atoms";
}

void HybridEfTwin::search(const HybridEigenvectorFollowingParams& params,
                          const std::vector<TransitionStateJob>& jobs,
                          std::vector<TransitionStateResult>& out) {
  checkTransitionStateJobs(params, jobs);
  out.assign(jobs.size(), TransitionStateResult{});
  const int n = static_cast<int>(dimension());
  const HybridEfTeamSettings settings = hybridEfTeamSettings(params, n);
  m_pool.forEach(jobs.size(), [&](std::size_t k) {
    std::vector<double> io(static_cast<std::size_t>(hybridEfTeamIoDoubles(n)));
    std::vector<double> work(static_cast<std::size_t>(hybridEfTeamWorkDoubles(n, settings.m)));
    fillTransitionStateIo(params, jobs[k], n, io.data());
    HybridEfTeamSearch search{};
    search.set = settings;
    search.st = hybridEfTeamLayout(io.data(), work.data(), n, settings.m);
    LennardJonesTeam structure(m_schedule, kTeamWarpSize);
    HybridEfTwinTeam team(search, kTeamWarpSize * m_warps, structure);
    const HybridEfTeamOutcome outcome = hybridEfTeamSearch(team, search);
    out[k] = transitionStateResult(io.data(), n, outcome);
  });
}

}  // namespace landscape
