// Compiled with -ffp-contract=off (CMakeLists.txt): the GPU kernel adds and multiplies separately.
#include "landscape/minimisation/BatchedLbfgsRoundsTwin.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "landscape/core/StopRequest.h"
#include "landscape/minimisation/BatchedTeamPlan.h"
#include "landscape/minimisation/HostTeam.h"
#include "landscape/minimisation/LbfgsRoundsCompactTerms.h"
#include "landscape/core/TeamTerms.h"

namespace landscape {
namespace {

// The host Team of landscape/minimisation/LbfgsRoundsTerms.h over slot storage.
class RoundsTwinTeam : public HostTeam {
 public:
  using HostTeam::HostTeam;
  // A view of a vector in slot storage: q = c.
  struct Owned {
    double* v;
    double& operator[](int q) const { return v[q]; }
  };
};

// The Rows of landscape/minimisation/LbfgsRoundsCompactTerms.h: the row team's partials, then its reduction.
struct CompactTwinRows {
  template <class F>
  double sum(int begin, int end, F term) const {
    double partials[kCompactRowThreads];
    for (int t = 0; t < kCompactRowThreads; ++t) {
      double acc = 0.0;
      for (int k = begin + t; k < end; k += kCompactRowThreads) acc = term(k, acc);
      partials[t] = acc;
    }
    return teamSumMirror(partials, kCompactRowThreads);
  }
  bool isLeader() const { return true; }
};

}  // namespace

void batchedRoundsCompactDirection(const LbfgsTeamStorage& st, const LbfgsCompactStorage& cs,
                                   double* p, LbfgsRoundsState& s, const LbfgsTeamSettings& set) {
  const int n = set.n, m = set.m;
  const LbfgsHistory& h = s.history;
  HostTeam pairTeam(n, kCompactPairThreads);
  for (int k = 0; k < h.length; ++k)
    lbfgsCompactPairDots(pairTeam, st, cs, h.slot(k, m), h, set);
  CompactTwinRows rows;
  for (int k = 0; k < h.length; ++k) lbfgsCompactInverseRow(rows, cs, h.slot(k, m), h, m);
  for (int k = 0; k < h.length; ++k) lbfgsCompactMiddleRow(rows, cs, h.slot(k, m), h, m);
  for (int k = 0; k < h.length; ++k) lbfgsCompactProjectRow(rows, cs, h.slot(k, m), h, m);
  const int chunks = lbfgsCompactChunks(h.length);
  for (int q = 0; q < chunks; ++q)
    for (int c = 0; c < n; ++c)
      cs.parts[static_cast<std::size_t>(q) * n + c] = lbfgsCompactChunkPart(st, cs, c, q, h, set);
  double partials[2][kCompactComponentThreads];
  for (int b = 0; b < lbfgsCompactBlocks(n); ++b) {
    for (int t = 0; t < kCompactComponentThreads; ++t) {
      const int c = b * kCompactComponentThreads + t;
      double pg = 0.0, pp = 0.0;
      if (c < n) {
        const double pc = lbfgsCompactComponent(st, cs, c, h, set);
        p[c] = pc;
        pg = fma(pc, st.g[c], pg);
        pp = fma(pc, pc, pp);
      }
      partials[0][t] = pg;
      partials[1][t] = pp;
    }
    cs.blockSums[2 * b] = teamSumMirror(partials[0], kCompactComponentThreads);
    cs.blockSums[2 * b + 1] = teamSumMirror(partials[1], kCompactComponentThreads);
  }
  const LbfgsTeamDirection d = lbfgsCompactTotals(cs, n);
  const LbfgsStepState decision = lbfgsCompactDecision(d, set);
  for (int c = 0; c < n; ++c) lbfgsCompactTrialComponent(st, p, c, decision);
  lbfgsCompactStartTrial(s, d, set);
}

BatchedLbfgsRoundsTwin::BatchedLbfgsRoundsTwin(BatchedPotential& potential,
                                               const LbfgsParams& params,
                                               const BatchedRoundsOptions& options, int threads)
    : m_potential(potential),
      m_params(params),
      m_options(options),
      m_gradientMetric(potential.hasGradientMetric()),
      m_pool(threads) {
  m_params.check();
  m_options.check();
  m_teamThreads = resolveRoundsTeamThreads(m_options.threadsPerStructure, dimension());
  std::vector<double> w;
  if (m_params.useDiagonalMetric && m_potential.diagonalMetric(w))
    m_metric = lbfgsDiagonalMetric(w, dimension(), m_potential.name());
  m_compact =
      roundsCompactDirections(m_options, dimension(), m_params.historySize, m_metric.on());
}

std::string BatchedLbfgsRoundsTwin::name() const {
  return "batched L-BFGS rounds (cpu twin of the rounds engine on cuda: " + std::to_string(m_teamThreads) +
         " threads per structure, " + (m_compact ? "compact directions, " : "") +
         std::to_string(m_pool.threads()) + " cpu threads) on " + m_potential.name();
}

BatchMemory BatchedLbfgsRoundsTwin::memory() const {
  const std::size_t n = dimension();
  BatchMemory memory;
  const std::size_t slot = roundsSlotBytes(n, m_params.historySize, m_compact) +
                           (m_gradientMetric ? sizeof(double) : 0);  // the RMS gradient
  memory.bytesPerStructure = roundsStructureBytes(n) + (m_options.residentStructures ? 0 : slot);
  memory.fixedBytes = m_options.residentStructures * slot;
  memory.availableBytes = halfThePhysicalMemory();
  memory.where = kHostBatchMemory;
  return memory;
}

LbfgsTeamStorage BatchedLbfgsRoundsTwin::slotStorage(std::size_t r) {
  const std::size_t n = dimension(), m = static_cast<std::size_t>(m_params.historySize);
  return {&m_x[r * n],     &m_g[r * n],     &m_xt[r * n],  &m_gt[r * n],
          &m_s[r * m * n], &m_y[r * m * n], &m_rho[r * m], &m_alpha[r * m]};
}

void BatchedLbfgsRoundsTwin::minimise(std::size_t batch, double* x, LbfgsResult* results) {
  requireBatchFits(batch, memory());
  if (batch == 0) return;
  const std::size_t n = dimension(), m = static_cast<std::size_t>(m_params.historySize);
  const std::size_t slots =
      m_options.residentStructures ? std::min(m_options.residentStructures, batch) : batch;
  if (batch > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("batched L-BFGS rounds: at most " +
                                std::to_string(std::numeric_limits<int>::max()) +
                                " structures per batch");
  for (auto* v : {&m_x, &m_g, &m_xt, &m_gt, &m_p}) v->assign(slots * n, 0.0);
  m_s.assign(slots * m * n, 0.0);
  m_y.assign(slots * m * n, 0.0);
  m_rho.assign(slots * m, 0.0);
  m_alpha.assign(slots * m, 0.0);
  m_energy.assign(slots, 0.0);
  m_rms.assign(slots, 0.0);
  m_active.assign(slots, 0);
  m_state.assign(slots, LbfgsRoundsState{});
  const LbfgsTeamSettings settings = lbfgsTeamSettings(m_params, n);
  LbfgsRoundsMetric metric;
  if (m_metric.on()) {
    metric.sqrtW = m_metric.sqrtW.data();
    metric.invSqrtW = m_metric.invSqrtW.data();
  }
  metric.gradientMetric = m_gradientMetric;
  const std::size_t compactDoubles =
      m_compact ? static_cast<std::size_t>(lbfgsCompactSlotDoubles(settings.n, settings.m)) : 0;
  m_compactStore.assign(slots * compactDoubles, 0.0);
  std::atomic<std::size_t> queue{0};

  // Ends slot r's finished run (its result and minimum out) and refills the slot from the queue.
  auto refill = [&](std::size_t r, RoundsTwinTeam& team, const LbfgsTeamStorage& st) {
    LbfgsRoundsState& s = m_state[r];
    if (s.phase == kRoundsFinished) {
      results[s.structure] = lbfgsStepResult(s.step);
      std::copy(st.x, st.x + n, x + static_cast<std::size_t>(s.structure) * n);
      s.phase = kRoundsEmpty;
    }
    if (s.phase == kRoundsEmpty) {
      const std::size_t b = queue.fetch_add(1);
      if (b < batch)
        lbfgsRoundsLoad(team, st, x + b * n, static_cast<int>(b), s);
      else
        s.phase = kRoundsIdle;
    }
    m_active[r] = lbfgsRoundsEvaluating(s.phase) ? 1 : 0;
  };
  auto advance = [&](std::size_t r) {
    RoundsTwinTeam team(static_cast<int>(n), m_teamThreads);
    const LbfgsTeamStorage st = slotStorage(r);
    RoundsTwinTeam::Owned p{&m_p[r * n]};
    if (lbfgsRoundsEvaluating(m_state[r].phase))
      lbfgsRoundsAdvance(team, st, p, m_state[r], m_energy[r], settings, m_compact, metric,
                         m_rms[r]);
    if (m_state[r].phase == kRoundsDirection)
      batchedRoundsCompactDirection(
          st, lbfgsCompactLayout(&m_compactStore[r * compactDoubles], settings.n, settings.m), p.v,
          m_state[r], settings);
    refill(r, team, st);
  };

  m_pool.forEach(slots, advance);
  while (std::find(m_active.begin(), m_active.end(), 1) != m_active.end()) {
    if (stopRequested()) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      for (std::size_t r = 0; r < slots; ++r) {
        lbfgsRoundsStop(m_state[r], nan);
        if (m_state[r].phase != kRoundsFinished) continue;
        results[m_state[r].structure] = lbfgsStepResult(m_state[r].step);
        const double* xr = &m_x[r * n];
        std::copy(xr, xr + n, x + static_cast<std::size_t>(m_state[r].structure) * n);
      }
      for (std::size_t b = std::min(queue.load(), batch); b < batch; ++b)
        results[b] = lbfgsStoppedResult(nan);
      return;
    }
    m_potential.energyGradient(slots, m_xt.data(), m_gt.data(), m_energy.data(), m_active.data());
    if (m_gradientMetric)
      m_potential.rmsGradients(slots, m_xt.data(), m_gt.data(), m_rms.data(), m_active.data());
    m_pool.forEach(slots, advance);
  }
}

}  // namespace landscape
