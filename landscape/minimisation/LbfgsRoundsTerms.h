#pragma once
// GMIN's L-BFGS (seed 001, Algorithms 1-3) for one structure cut open at every energy evaluation,
// written once for host and device: the round-based batched engine (gpu/BatchedLbfgsRoundsCuda,
// a block per structure over global memory, the potential's device entry point once per round)
// and its CPU twin (landscape/minimisation/BatchedLbfgsRoundsTwin) run it. The decisions are
// LbfgsStructureRun's (= Lbfgs::minimize) step for step: start, trial, maxRise test, division of c
// by 10, history reset after maxBacktracks divisions, line-search failure, RMS test and cap; the
// vector work is landscape/minimisation/LbfgsTeamTerms.h's (same fma order, same team reductions).
//
// One round of a structure: the potential evaluates xt into gt and energy, then
// lbfgsRoundsAdvance moves the state machine to the next point to evaluate (the start, a trial
// point, a backtracked trial point, or a new direction's trial point) or ends the run. Every
// scalar of the state is per structure and identical in all threads of a team (it comes out of
// team reductions), so the control flow of a team is uniform.
//
// The Team is LbfgsTeamTerms.h's, with Owned a view of a vector in storage (q = c): the direction
// p persists across rounds (a backtrack reuses it), so it lives in global memory, not registers.
#include "landscape/minimisation/LbfgsTeamTerms.h"

namespace landscape {

/// LbfgsStatus::Stopped as an int (the other statuses are LbfgsTeamStatus).
constexpr int kLbfgsRoundsStopped = 4;

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

/// The scalars of one structure's run (LbfgsStructureRun's loop state): 4 doubles, a long long
/// and 10 ints, 80 bytes.
struct LbfgsRoundsState {
  double energy;    ///< at x (potential's energy unit)
  double rms;       ///< sqrt(|g|^2 / n) at x
  double scale;     ///< c of Algorithm 3
  double gamma;     ///< s.y / y.y of the newest pair
  long long calls;  ///< energy + gradient evaluations
  int structure;    ///< index in the batch (phases Start, Trial, Finished)
  int phase;        ///< LbfgsRoundsPhase
  int iteration;    ///< Lbfgs::minimize's loop counter
  int iterations;   ///< completed iterations (the result)
  int attempt;      ///< divisions of c so far in this step
  int cleared;      ///< the history was cleared in this iteration
  int oldest, length;
  int status;  ///< LbfgsTeamStatus or kLbfgsRoundsStopped
  int unused;
};

static_assert(sizeof(LbfgsRoundsState) == 80, "the memory estimate counts 80 bytes of state");

LANDSCAPE_HD bool lbfgsRoundsEvaluating(int phase) {
  return phase == kRoundsStart || phase == kRoundsTrial;
}

/// The result of a finished (or stopped) run.
LANDSCAPE_HD LbfgsTeamOutcome lbfgsRoundsOutcome(const LbfgsRoundsState& s) {
  return {s.energy, s.rms, s.calls, s.iterations, s.status};
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
  s.structure = structure;
  s.phase = kRoundsStart;
  s.calls = 1;
  s.gamma = 1.0;
  s.status = kLbfgsTeamMaxIterations;
}

/// xt = x + c p, one fma per component.
template <class Team>
LANDSCAPE_HD void lbfgsRoundsSetTrial(Team& team, const LbfgsTeamStorage& st,
                                      typename Team::Owned& p, LbfgsRoundsState& s) {
  const double scale = s.scale;
  team.forOwned([&](int c, int q) { st.xt[c] = fma(scale, p[q], st.x[c]); });
  s.phase = kRoundsTrial;
}

/// Algorithm 3's first c: 1, or maxStep / |p| when |p| exceeds maxStep (length / length).
LANDSCAPE_HD double lbfgsRoundsFirstScale(const LbfgsTeamDirection& d,
                                          const LbfgsTeamSettings& set) {
  return d.directionNorm > set.maxStep ? set.maxStep / d.directionNorm : 1.0;
}

/// Algorithms 2-3 up to the first trial: direction, uphill reversal, cap |c p| at maxStep. With
/// `compact` and a non-empty history the direction is left to the compact form (phase Direction:
/// LbfgsRoundsCompactTerms.h computes p, reverses an uphill one, scales and sets the trial the
/// same way); an empty history (the first iteration, a reset) always takes the two-loop path,
/// p = -H0 g, so both paths start and restart alike.
template <class Team>
LANDSCAPE_HD void lbfgsRoundsBeginStep(Team& team, const LbfgsTeamStorage& st,
                                       typename Team::Owned& p, LbfgsRoundsState& s,
                                       const LbfgsTeamSettings& set, bool compact) {
  if (compact && s.length > 0) {
    s.phase = kRoundsDirection;
    return;
  }
  const LbfgsTeamHistory h{s.oldest, s.length, s.gamma};
  const LbfgsTeamDirection d = lbfgsTeamDirection(team, st, p, h, set);
  if (d.directionDotGradient > 0.0) team.forOwned([&](int, int q) { p[q] = -p[q]; });
  s.scale = lbfgsRoundsFirstScale(d, set);
  s.attempt = 0;
  lbfgsRoundsSetTrial(team, st, p, s);
}

/// The loop condition of Lbfgs::minimize, then the iteration's first step.
template <class Team>
LANDSCAPE_HD void lbfgsRoundsBeginIteration(Team& team, const LbfgsTeamStorage& st,
                                            typename Team::Owned& p, LbfgsRoundsState& s,
                                            const LbfgsTeamSettings& set, bool compact) {
  if (!(s.rms >= set.rmsTolerance && s.iteration <= set.maxIterations)) {
    if (s.rms < set.rmsTolerance) s.status = kLbfgsTeamConverged;
    s.phase = kRoundsFinished;
    return;
  }
  s.cleared = 0;
  lbfgsRoundsBeginStep(team, st, p, s, set, compact);
}

/// Algorithm 1, lines 7-9, as lbfgsTeamAccept (same sums, same guards) but moving x = xt and
/// g = gt by copies, since a slot's rows keep their place in the batch arrays; returns |g|^2.
template <class Team>
LANDSCAPE_HD double lbfgsRoundsAccept(Team& team, const LbfgsTeamStorage& st, LbfgsRoundsState& s,
                                      const LbfgsTeamSettings& set) {
  LbfgsTeamHistory h{s.oldest, s.length, s.gamma};
  int slot;
  if (h.length < set.m) {
    slot = lbfgsTeamSlot(h, h.length, set.m);
    ++h.length;
  } else {
    slot = h.oldest;
    h.oldest = lbfgsTeamSlot(h, 1, set.m);
  }
  double* sv = st.s + static_cast<long>(slot) * set.n;
  double* yv = st.y + static_cast<long>(slot) * set.n;
  double *x = st.x, *g = st.g;
  const double *xt = st.xt, *gt = st.gt;
  const TeamSum<3> r = team.template sumOwned<3>([&](int c, int, TeamSum<3>& acc) {
    const double sc = xt[c] - x[c], yc = gt[c] - g[c];
    sv[c] = sc;
    yv[c] = yc;
    acc.v[0] = fma(yc, sc, acc.v[0]);
    acc.v[1] = fma(yc, yc, acc.v[1]);
    acc.v[2] = fma(gt[c], gt[c], acc.v[2]);
    x[c] = xt[c];
    g[c] = gt[c];
  });
  const double ys = r.v[0] == 0.0 ? 1.0 : r.v[0];
  const double yy = r.v[1] == 0.0 ? 1.0 : r.v[1];
  if (team.isLeader()) st.rho[slot] = 1.0 / ys;
  h.gamma = ys / yy;
  s.oldest = h.oldest;
  s.length = h.length;
  s.gamma = h.gamma;
  return r.v[2];
}

/// One round's decision for a structure whose point the potential has just evaluated (energy at
/// xt, gradient in gt). Leaves the next point in xt (phase Trial), ends the run (Finished) or,
/// with `compact`, leaves a new direction to the compact form (Direction; see BeginStep).
template <class Team>
LANDSCAPE_HD void lbfgsRoundsAdvance(Team& team, const LbfgsTeamStorage& st,
                                     typename Team::Owned& p, LbfgsRoundsState& s, double energy,
                                     const LbfgsTeamSettings& set, bool compact = false) {
  if (s.phase == kRoundsStart) {  // Lbfgs::minimize up to its loop
    s.energy = energy;
    double* g = st.g;
    const double* gt = st.gt;
    const TeamSum<1> gg = team.template sumOwned<1>([&](int c, int, TeamSum<1>& acc) {
      g[c] = gt[c];
      acc.v[0] = fma(gt[c], gt[c], acc.v[0]);
    });
    s.rms = lbfgsTeamRms(team, gg.v[0]);
    s.oldest = s.length = 0;
    if (!teamFinite(s.energy) || !teamFinite(s.rms)) {
      s.status = kLbfgsTeamNonFiniteEnergy;
      s.phase = kRoundsFinished;
      return;
    }
    s.status = kLbfgsTeamMaxIterations;
    s.iteration = 1;
    lbfgsRoundsBeginIteration(team, st, p, s, set, compact);
    return;
  }
  // The rest of scaledStep and of the iteration (a NaN energy counts as a rise).
  ++s.calls;
  if (energy - s.energy < set.maxRise) {
    s.energy = energy;
    s.rms = lbfgsTeamRms(team, lbfgsRoundsAccept(team, st, s, set));
    s.iterations = s.iteration;
    ++s.iteration;
    lbfgsRoundsBeginIteration(team, st, p, s, set, compact);
  } else if (s.attempt < set.maxBacktracks) {
    s.scale /= 10.0;
    ++s.attempt;
    lbfgsRoundsSetTrial(team, st, p, s);
  } else if (!s.cleared) {
    s.oldest = s.length = 0;
    s.cleared = 1;
    lbfgsRoundsBeginStep(team, st, p, s, set, compact);
  } else {
    s.iterations = s.iteration - 1;
    s.status = kLbfgsTeamLineSearchFailed;
    s.phase = kRoundsFinished;
  }
}

/// Ends an unfinished run now, as LbfgsStructureRun::stop: status Stopped at the last accepted
/// point (energy and RMS NaN when the start was never evaluated). `nan` is a quiet NaN.
LANDSCAPE_HD void lbfgsRoundsStop(LbfgsRoundsState& s, double nan) {
  if (!lbfgsRoundsEvaluating(s.phase)) return;
  if (s.phase == kRoundsStart) s.energy = s.rms = nan;
  s.status = kLbfgsRoundsStopped;
  s.phase = kRoundsFinished;
}

}  // namespace landscape
