// Compiled with -ffp-contract=off (CMakeLists.txt): the GPU kernel adds and multiplies separately.
#include "landscape/minimisation/BatchedLbfgsTwin.h"

#include <unistd.h>

#include <algorithm>
#include <vector>

#include "landscape/minimisation/BatchedTeamPlan.h"
#include "potentials/LbfgsTeamTerms.h"
#include "potentials/LennardJonesTeam.h"
#include "potentials/TeamTerms.h"

namespace landscape {
namespace {

// The host Team of potentials/LbfgsTeamTerms.h: one thread plays the whole team. Element-wise
// work needs no order; sums emulate each thread's partial over its components c = t, t + T, ...
// and the device reduction.
class TwinTeam {
 public:
  TwinTeam(int dimension, LennardJonesTeam& potential)
      : n(dimension), m_potential(potential), m_threads(potential.teamThreads()) {
    m_partials.resize(3 * static_cast<std::size_t>(m_threads));
  }
  const int n;

  void sync() const {}
  bool isLeader() const { return true; }

  // An owned vector is the whole vector: the twin plays every thread, q = c.
  using Owned = std::vector<double>;
  Owned owned() const { return Owned(static_cast<std::size_t>(n)); }
  template <class F>
  void forOwned(F f) const {
    for (int c = 0; c < n; ++c) f(c, c);
  }
  template <int R, class F>
  TeamSum<R> sumOwned(F f) {
    static_assert(R <= 3, "the twin keeps scratch for 3 sums");
    for (int t = 0; t < m_threads; ++t) {
      TeamSum<R> partial;
      for (int r = 0; r < R; ++r) partial.v[r] = 0.0;
      for (int c = t; c < n; c += m_threads) f(c, c, partial);
      for (int r = 0; r < R; ++r) m_partials[r * m_threads + t] = partial.v[r];
    }
    TeamSum<R> out;
    for (int r = 0; r < R; ++r) out.v[r] = teamSumMirror(&m_partials[r * m_threads], m_threads);
    return out;
  }
  double evaluate(const double* x, double* g) { return m_potential.energyGradient(x, g); }

 private:
  LennardJonesTeam& m_potential;
  int m_threads;
  std::vector<double> m_partials;  // [3 x threads]
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
  memory.bytesPerStructure = sizeof(BatchedLbfgsResult);
  memory.fixedBytes = static_cast<std::size_t>(m_pool.threads()) *
                      lbfgsTeamSharedBytes(dimension(), m_params.historySize, m_shape.warps);
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  memory.availableBytes =
      pages > 0 && pageSize > 0 ? static_cast<std::size_t>(pages) * pageSize / 2 : 0;
  memory.where = "host memory (half the physical memory)";
  return memory;
}

void BatchedLbfgsTwin::minimise(std::size_t batch, double* x, BatchedLbfgsResult* results) {
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
    const LbfgsTeamOutcome outcome = lbfgsTeamMinimise(team, st, settings);
    std::copy(st.x, st.x + n, xb);
    results[b] = batchedResult(outcome);
  });
}

}  // namespace landscape
