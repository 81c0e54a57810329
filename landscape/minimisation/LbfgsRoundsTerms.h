#pragma once
// GMIN's L-BFGS (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, Algorithms 1-3) for one
// structure cut open at every energy evaluation, written once for host and device: the
// round-based batched engine (gpu/BatchedLbfgsRoundsCuda, a block per structure over global
// memory, the potential's device entry point once per round) and its CPU twin
// (landscape/minimisation/BatchedLbfgsRoundsTwin) run it. The decisions are LbfgsStep.h's, the
// history order LbfgsHistory.h's and the vector work LbfgsTeamTerms.h's (same fma order, same
// team reductions).
//
// One round of a structure: the potential evaluates xt into gt and energy, then
// lbfgsRoundsAdvance moves the state machine to the next point to evaluate (the start, a trial
// point, a backtracked trial point, or a new direction's trial point) or ends the run. Every
// scalar of the state is per structure and identical in all threads of a team (it comes out of
// team reductions), so the control flow of a team is uniform.
//
// The Team is LbfgsTeamTerms.h's. The direction p persists across rounds (a backtrack reuses it),
// so it is kept in storage between them; within a round Owned is either a view of that row (q = c)
// or registers loaded from it and stored back (the device kernel for teams owning 3 or 4
// components per thread: the same components, the same sums, the same bits).
#include "landscape/minimisation/LbfgsTeamTerms.h"

namespace landscape {

/// The potential's metric in a rounds run, the same for every structure (LbfgsCpuWorkspace's, in
/// team order): a diagonal metric w (LbfgsDiagonalMetric's n scales sqrt(w) and 1 / sqrt(w); both
/// null: none) runs L-BFGS in u = sqrt(w) x, so H0 = gamma W^-1 and |p|_W caps the step; a
/// gradient metric takes the potential's RMS gradient of the point just evaluated
/// (BatchedPotential::rmsGradients, lbfgsRoundsAdvance's metricRms) instead of sqrt(|g|^2 / n).
struct LbfgsRoundsMetric {
  const double* sqrtW = nullptr;
  const double* invSqrtW = nullptr;
  bool gradientMetric = false;
};

/// Where a slot of the resident batch stands.
enum LbfgsRoundsPhase : int {
  kRoundsEmpty = 0,      ///< no structure: take the next one from the queue
  kRoundsStart = 1,      ///< the potential evaluates the start (xt = x)
  kRoundsTrial = 2,      ///< the potential evaluates a trial point
  kRoundsIdle = 3,       ///< the queue is exhausted: nothing more to do
  kRoundsFinished = 4,   ///< transient: the run ended this round, its results not yet written
  kRoundsDirection = 5,  ///< transient: the compact form (LbfgsRoundsCompactTerms.h) computes
                         ///< this round's direction with the history, then the trial follows
};

/// One structure's run: the step control's scalars, the history order, where it stands (80 bytes).
struct LbfgsRoundsState {
  LbfgsStepState step;
  LbfgsHistory history;
  int structure;  ///< index in the batch (phases Start, Trial, Finished)
  int phase;      ///< LbfgsRoundsPhase
};

static_assert(sizeof(LbfgsRoundsState) == 80, "the memory estimate counts 80 bytes of state");

LANDSCAPE_HD bool lbfgsRoundsEvaluating(int phase) {
  return phase == kRoundsStart || phase == kRoundsTrial;
}

/// Takes structure `structure` with start x0 (n doubles): x = xt = x0, the next round evaluates
/// it (one call).
template <class Team>
LANDSCAPE_HD void lbfgsRoundsLoad(Team& team, const LbfgsTeamStorage& st, const double* x0,
                                  int structure, LbfgsRoundsState& s) {
  team.forOwned([&](int c, int) {
    st.x[c] = x0[c];
    st.xt[c] = x0[c];
  });
  s = LbfgsRoundsState{};
  s.step = lbfgsStepFresh();
  s.history = LbfgsHistory{};
  s.structure = structure;
  s.phase = kRoundsStart;
}

/// Algorithm 1, lines 7-9, as lbfgsTeamAccept (same sums, same guards) but moving x = xt and
/// g = gt by copies, since a slot's rows keep their place in the batch arrays; returns |g|^2.
/// Under a diagonal metric the pair is that of u = sqrt(w) x: s sqrt(w) and y / sqrt(w).
template <class Team>
LANDSCAPE_HD double lbfgsRoundsAccept(Team& team, const LbfgsTeamStorage& st, LbfgsHistory& h,
                                      const LbfgsTeamSettings& set,
                                      const LbfgsRoundsMetric& metric = {}) {
  const double *sqrtW = metric.sqrtW, *invSqrtW = metric.invSqrtW;
  const int slot = h.push(set.m);
  double* sv = st.s + static_cast<long>(slot) * set.n;
  double* yv = st.y + static_cast<long>(slot) * set.n;
  double *x = st.x, *g = st.g;
  const double *xt = st.xt, *gt = st.gt;
  const TeamSum<3> r = team.template sumOwned<3>([&](int c, int, TeamSum<3>& acc) {
    double sc = xt[c] - x[c], yc = gt[c] - g[c];
    if (sqrtW) {
      sc = sc * sqrtW[c];
      yc = yc * invSqrtW[c];
    }
    sv[c] = sc;
    yv[c] = yc;
    acc.v[0] = fma(yc, sc, acc.v[0]);
    acc.v[1] = fma(yc, yc, acc.v[1]);
    acc.v[2] = fma(gt[c], gt[c], acc.v[2]);
    x[c] = xt[c];
    g[c] = gt[c];
  });
  const LbfgsPairScalars scalars = lbfgsPairScalars(r.v[0], r.v[1]);
  if (team.isLeader()) st.rho[slot] = scalars.rho;
  h.gamma = scalars.gamma;
  return r.v[2];
}

/// Carries out the step control's requests until the structure needs the potential (phase Trial),
/// has ended (Finished) or, with `compact` and a non-empty history, leaves its direction to the
/// compact form (Direction: LbfgsRoundsCompactTerms.h computes p, reverses an uphill one, scales
/// and sets the trial the same way). An empty history (the first iteration, a reset) always takes
/// the two-loop path, p = -H0 g, so both paths start and restart alike.
/// A metric (LbfgsRoundsMetric) goes with two-loop directions only: the compact form has none.
template <class Team>
LANDSCAPE_HD void lbfgsRoundsProceed(Team& team, const LbfgsTeamStorage& st,
                                     typename Team::Owned& p, LbfgsRoundsState& s, LbfgsNext next,
                                     const LbfgsTeamSettings& set, bool compact,
                                     const LbfgsRoundsMetric& metric = {},
                                     double metricRms = 0.0) {
  // Within a round the requests come in this order only: an accept leads to a direction or the
  // end, a direction always to a trial.
  const LbfgsStepLimits limits = set.limits();
  if (next == LbfgsNext::Accept) {
    const double gg = lbfgsRoundsAccept(team, st, s.history, set, metric);
    next = lbfgsStepAccepted(s.step, metric.gradientMetric ? metricRms : lbfgsTeamRms(team, gg),
                             limits);
  }
  if (next == LbfgsNext::Direction || next == LbfgsNext::ClearAndDirection) {
    if (next == LbfgsNext::ClearAndDirection) s.history.clear();
    if (compact && s.history.length > 0) {
      s.phase = kRoundsDirection;
      return;
    }
    const LbfgsTeamDirection d =
        lbfgsTeamDirection(team, st, p, s.history, set, metric.invSqrtW);
    next = lbfgsStepDirection(s.step, d.directionDotGradient, d.directionNorm, limits);
    if (s.step.reversed) team.forOwned([&](int, int q) { p[q] = -p[q]; });
  }
  if (next == LbfgsNext::Trial) {
    lbfgsTeamSetTrial(team, st, p, s.step.scale);
    s.phase = kRoundsTrial;
  } else {
    s.phase = kRoundsFinished;
  }
}

/// One round's decision for a structure whose point the potential has just evaluated (energy at
/// xt, gradient in gt, under a gradient metric the potential's RMS gradient there in metricRms):
/// see lbfgsRoundsProceed.
template <class Team>
LANDSCAPE_HD void lbfgsRoundsAdvance(Team& team, const LbfgsTeamStorage& st,
                                     typename Team::Owned& p, LbfgsRoundsState& s, double energy,
                                     const LbfgsTeamSettings& set, bool compact = false,
                                     const LbfgsRoundsMetric& metric = {},
                                     double metricRms = 0.0) {
  LbfgsNext next;
  if (s.phase == kRoundsStart) {
    double* g = st.g;
    const double* gt = st.gt;
    const TeamSum<1> gg = team.template sumOwned<1>([&](int c, int, TeamSum<1>& acc) {
      g[c] = gt[c];
      acc.v[0] = fma(gt[c], gt[c], acc.v[0]);
    });
    s.history.clear();
    next = lbfgsStepStart(s.step, energy,
                          metric.gradientMetric ? metricRms : lbfgsTeamRms(team, gg.v[0]),
                          set.limits());
  } else {
    next = lbfgsStepTrial(s.step, energy, set.limits());
  }
  lbfgsRoundsProceed(team, st, p, s, next, set, compact, metric, metricRms);
}

/// Ends an unfinished run now, as LbfgsStructureRun::stop: status Stopped at the last accepted
/// point (energy and RMS NaN when the start was never evaluated). `nan` is a quiet NaN.
LANDSCAPE_HD void lbfgsRoundsStop(LbfgsRoundsState& s, double nan) {
  if (!lbfgsRoundsEvaluating(s.phase)) return;
  lbfgsStepStop(s.step, s.phase != kRoundsStart, nan);
  s.phase = kRoundsFinished;
}

}  // namespace landscape
