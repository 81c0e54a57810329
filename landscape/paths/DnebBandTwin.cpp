// Compiled with -ffp-contract=off (CMakeLists.txt): the GPU kernel adds and multiplies separately.
#include "landscape/paths/DnebBandTwin.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/StopRequest.h"
#include "landscape/core/TeamTerms.h"
#include "landscape/minimisation/HostTeam.h"
#include "landscape/paths/DnebTeamTerms.h"
#include "potentials/LennardJonesTeam.h"

namespace landscape {
namespace {

// The band's team: the block's threads over the band's components (HostTeam), its warps' images
// one after the other.
class DnebTwinTeam : public HostTeam {
 public:
  DnebTwinTeam(DnebTeamBand& band, int threads, LennardJonesTeam& image)
      : HostTeam(band.set.lbfgs.n, threads), m_band(band), m_image(image) {}

  struct Owned {
    double* v;
    double& operator[](int q) const { return v[q]; }
  };
  Owned owned() const { return {m_band.st.direction}; }

  template <class F>
  void forWarpItems(int count, F f) {
    HostWarpTeam warp(m_band.set.imageSize);
    for (int i = 0; i < count; ++i) f(i, warp);
  }
  double evaluateImage(HostWarpTeam&, const double* x, double* g) {
    return m_image.energyGradient(x, g);
  }
  double evaluate(const double* x, double* g) { return dnebTeamEvaluate(*this, m_band, x, g); }
  bool stopRequested() const { return landscape::stopRequested(); }

 private:
  DnebTeamBand& m_band;
  LennardJonesTeam& m_image;
};

}  // namespace

DnebBandTwin::DnebBandTwin(std::size_t atoms, int warps, int threads)
    : m_atoms(atoms), m_warps(warps), m_pool(threads) {
  if (atoms < 2)
    throw std::invalid_argument("DNEB band twin: at least 2 atoms, got " + std::to_string(atoms));
  if (warps < 1 || warps > 32)
    throw std::invalid_argument("DNEB band twin: 1 to 32 warps per band, got " +
                                std::to_string(warps));
  const int n = static_cast<int>(atoms);
  m_schedule = buildPairTileSchedule(n, choosePairTileWidth(n, kTeamWarpSize), kTeamWarpSize);
}

std::string DnebBandTwin::name() const {
  return "DNEB bands (cpu twin of the cuda kernel: " + std::to_string(m_warps) +
         " warps per band, " + std::to_string(m_pool.threads()) + " threads) on Lennard-Jones " +
         std::to_string(m_atoms) + " atoms";
}

void DnebBandTwin::relax(const DnebParams& params, const std::vector<DnebBandJob>& jobs,
                         std::vector<DnebRelaxedBand>& out) {
  checkDnebBandJobs(jobs);
  params.check();
  out.assign(jobs.size(), DnebRelaxedBand{});
  const int size = static_cast<int>(imageSize()), m = params.historySize;
  m_pool.forEach(jobs.size(), [&](std::size_t k) {
    const DnebBandJob& job = jobs[k];
    std::vector<double> io(static_cast<std::size_t>(dnebTeamIoDoubles(job.images, size)));
    std::vector<double> work(static_cast<std::size_t>(dnebTeamWorkDoubles(job.images, size, m)));
    std::copy(job.start, job.start + size, io.begin());
    std::copy(job.finish, job.finish + size, io.begin() + size);
    DnebTeamBand band{dnebTeamSettings(params, job.images, size, job.iterations),
                      dnebTeamLayout(io.data(), work.data(), job.images, size, m), 0.0, 0.0, 0};
    LennardJonesTeam image(m_schedule, kTeamWarpSize);
    DnebTwinTeam team(band, kTeamWarpSize * m_warps, image);
    DnebRelaxedBand& r = out[k];
    r.outcome = dnebTeamRelax(team, band);
    const std::size_t n = static_cast<std::size_t>(job.images) * size;
    const double* x = band.st.lbfgs.x;
    r.band.assign(x, x + n);
    r.tangents.assign(band.st.tangents, band.st.tangents + n);
    r.energies.assign(band.st.energies, band.st.energies + job.images + 2);
  });
}

}  // namespace landscape
