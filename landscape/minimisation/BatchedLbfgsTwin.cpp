// Compiled with -ffp-contract=off (CMakeLists.txt): the GPU kernel adds and multiplies separately.
#include "landscape/minimisation/BatchedLbfgsTwin.h"

#include <algorithm>
#include <vector>

#include "landscape/minimisation/BatchedTeamPlan.h"
#include "landscape/minimisation/HostTeam.h"
#include "landscape/minimisation/LbfgsTeamTerms.h"
#include "potentials/LennardJonesTeam.h"
#include "landscape/core/TeamTerms.h"

namespace landscape {
namespace {

// The host Team of landscape/minimisation/LbfgsTeamTerms.h: one thread plays the whole team, with the pairs
// in the team kernel's order (LennardJonesTeam).
class TwinTeam : public HostTeam {
 public:
  TwinTeam(int dimension, LennardJonesTeam& potential)
      : HostTeam(dimension, potential.teamThreads()), m_potential(potential) {}

  // An owned vector is the whole vector: the twin plays every thread, q = c.
  using Owned = std::vector<double>;
  Owned owned() const { return Owned(static_cast<std::size_t>(n)); }
  double evaluate(const double* x, double* g) { return m_potential.energyGradient(x, g); }

 private:
  LennardJonesTeam& m_potential;
};

}  // namespace

BatchedLbfgsTwin::BatchedLbfgsTwin(std::size_t atoms, const LbfgsParams& params,
                                   BatchedTeamShape shape, int threads)
    : m_atoms(atoms), m_params(params), m_pool(threads) {
  m_params.check();
  m_shape = resolveTeamShape(shape, atoms, m_params.historySize, SharedMemoryLimits{});
  m_schedule =
      buildPairTileSchedule(static_cast<int>(atoms), m_shape.tileWidth, 32 * m_shape.warps);
}

std::string BatchedLbfgsTwin::name() const {
  return "batched L-BFGS (cpu twin of the cuda kernel: " + std::to_string(m_shape.warps) +
         " warps per structure, tile width " + std::to_string(m_shape.tileWidth) + ", " +
         std::to_string(m_pool.threads()) + " threads) on Lennard-Jones " +
         std::to_string(m_atoms) + " atoms";
}

BatchMemory BatchedLbfgsTwin::memory() const {
  BatchMemory memory;
  memory.bytesPerStructure = sizeof(LbfgsResult);
  memory.fixedBytes = static_cast<std::size_t>(m_pool.threads()) *
                      lbfgsTeamSharedBytes(dimension(), m_params.historySize, m_shape.warps);
  memory.availableBytes = halfThePhysicalMemory();
  memory.where = kHostBatchMemory;
  return memory;
}

void BatchedLbfgsTwin::minimise(std::size_t batch, double* x, LbfgsResult* results) {
  requireBatchFits(batch, memory());
  const int n = static_cast<int>(dimension()), m = m_params.historySize;
  const LbfgsTeamSettings settings = lbfgsTeamSettings(m_params, dimension());
  m_pool.forEach(batch, [&](std::size_t b) {
    LennardJonesTeam potential(m_schedule, 32 * m_shape.warps);
    TwinTeam team(n, potential);
    std::vector<double> storage(
        static_cast<std::size_t>(lbfgsTeamStorageDoubles(n, m, m_shape.warps)));
    LbfgsTeamStorage st = lbfgsTeamLayout(storage.data(), n, m);
    double* xb = x + b * dimension();
    std::copy(xb, xb + n, st.x);
    results[b] = lbfgsTeamMinimise(team, st, settings);
    std::copy(st.x, st.x + n, xb);
  });
}

}  // namespace landscape
