#pragma once
// GMIN's L-BFGS (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, Algorithms 1-3; the
// step control of LbfgsStep.h, the history order of LbfgsHistory.h) for one structure, written
// once for a "team" of threads: the batched GPU kernel
// (gpu/BatchedLbfgsKernels.cu, a block owning a structure in shared memory) and its CPU twin
// (landscape/minimisation/BatchedLbfgsTwin) instantiate it with their own Team. Every scalar is
// per structure; all threads of a team hold the same copy of it, because every scalar comes out
// of a team reduction that hands all threads the same bits.
//
// A Team provides
//   n                                   degrees of freedom;
//   sync()                              barrier + shared-memory fence (a no-op on the CPU);
//   isLeader()                          the one thread that writes team-shared scalars;
//   Owned                               a vector of which each thread holds the components it owns
//                                       (registers on the GPU, element q of the thread's);
//   forOwned(f)                         f(c, q) for the components c this thread owns, q = where
//                                       an Owned vector keeps c;
//   sumOwned<R>(f)                      the R sums over c of the thread partials that
//                                       f(c, q, TeamSum<R>& partial) accumulates, each thread over
//                                       its components in order, reduced in the team order of
//                                       landscape/core/TeamTerms.h;
//   evaluate(x, g)                      energy at x, gradient into g (both team storage).
// Element c of every vector is only touched by its owner thread, except inside evaluate(), which
// starts with a sync() and hands each gradient component back to its owner before it returns;
// so the vector updates below need no barriers of their own.
//
// Arithmetic is written as separate IEEE operations and explicit fma() in a fixed order (dot
// products accumulate by fma, the updates of p and the trial point are one fma per component);
// the GPU file is compiled with -fmad=false and the twin with -ffp-contract=off so that both
// round identically. Against Lbfgs, which multiplies and adds separately, the iterates agree to
// round-off.
#include <cmath>

#include "landscape/core/HostDevice.h"
#include "landscape/core/TeamTerms.h"
#include "landscape/minimisation/LbfgsHistory.h"
#include "landscape/minimisation/LbfgsStep.h"

namespace landscape {

/// LbfgsParams in device-friendly form (units as there).
struct LbfgsTeamSettings {
  int n;                // degrees of freedom
  int m;                // history size >= 1
  double initialGuess;  // H0 on an empty history (length^2 / energy)
  double maxStep;       // cap on |c p| (length)
  double maxRise;       // largest accepted energy rise (energy)
  int maxBacktracks;
  int maxIterations;
  double rmsTolerance;  // converged when sqrt(|g|^2 / n) < rmsTolerance (energy / length)

  LANDSCAPE_HD LbfgsStepLimits limits() const {
    return {maxStep, maxRise, rmsTolerance, maxBacktracks, maxIterations};
  }
};

/// Team storage of one structure: four vectors of n and the m-pair history, s and y as [m x n]
/// (slot k at s + k n), rho and alpha as [m]; x/xt and g/gt swap on every accepted step. The
/// direction p is an Owned vector of the team (registers on the GPU).
struct LbfgsTeamStorage {
  double* x;
  double* g;
  double* xt;
  double* gt;
  double* s;
  double* y;
  double* rho;
  double* alpha;
};

/// Doubles of team storage for one structure: the vectors and history of LbfgsTeamStorage, then
/// 2 x warps x 3 doubles of reduction scratch (two alternating buffers of 3 sums per warp).
LANDSCAPE_HD long lbfgsTeamStorageDoubles(int n, int m, int warps) {
  return static_cast<long>(4 + 2 * m) * n + 2 * m + 6 * warps;
}

/// Carves LbfgsTeamStorage out of `base` (lbfgsTeamStorageDoubles doubles); the reduction scratch
/// starts at lbfgsTeamScratch(base, n, m).
LANDSCAPE_HD LbfgsTeamStorage lbfgsTeamLayout(double* base, int n, int m) {
  const long nn = n;
  return {base,
          base + nn,
          base + 2 * nn,
          base + 3 * nn,
          base + 4 * nn,
          base + (4 + static_cast<long>(m)) * nn,
          base + (4 + 2 * static_cast<long>(m)) * nn,
          base + (4 + 2 * static_cast<long>(m)) * nn + m};
}
LANDSCAPE_HD double* lbfgsTeamScratch(double* base, int n, int m) {
  return base + (4 + 2 * static_cast<long>(m)) * n + 2 * m;
}

struct LbfgsTeamDirection {
  double directionDotGradient;  // p.g (> 0: uphill)
  double directionNorm;         // |p|
};

/// Algorithm 2: p = -H g by the two-loop recursion, H0 = initialGuess on an empty history, else
/// gamma. Each pass over the components ends one update of p and starts the next dot product
/// (same operations, one pass instead of two); alpha goes through team storage (written by the
/// leader) because m is a run-time size. With a diagonal metric (invSqrtW: n entries 1 / sqrt(w),
/// LbfgsDiagonalMetric; null: none) the recursion runs in u = sqrt(w) x on the gradient
/// g / sqrt(w) and a history of such pairs (lbfgsRoundsAccept), p.g and |p| are taken there and
/// p is then scaled back to x (LbfgsCpuWorkspace::computeDirection).
template <class Team>
LANDSCAPE_HD LbfgsTeamDirection lbfgsTeamDirection(Team& team, const LbfgsTeamStorage& st,
                                                   typename Team::Owned& p,
                                                   const LbfgsHistory& h,
                                                   const LbfgsTeamSettings& set,
                                                   const double* invSqrtW = nullptr) {
  team.sync();  // rho written by the leader in lbfgsTeamAccept
  const long n = set.n;
  const double* g = st.g;
  const double* w = invSqrtW;
  // The gradient in the coordinates the recursion runs in.
  auto gradient = [&](int c) { return w ? g[c] * w[c] : g[c]; };
  const double h0 = h.length == 0 ? set.initialGuess : h.gamma;
  // First loop, newest pair first: alpha_k = rho_k s_k.p, p -= alpha_k y_k.
  TeamSum<1> dot{};
  if (h.length > 0) {
    const double* s = st.s + h.slot(h.length - 1, set.m) * n;
    dot = team.template sumOwned<1>([&](int c, int q, TeamSum<1>& acc) {
      p[q] = gradient(c);
      acc.v[0] = fma(s[c], p[q], acc.v[0]);
    });
  } else {
    team.forOwned([&](int c, int q) { p[q] = gradient(c) * h0; });
  }
  for (int k = h.length - 1; k >= 0; --k) {
    const int slot = h.slot(k, set.m);
    const double a = st.rho[slot] * dot.v[0];
    if (team.isLeader()) st.alpha[slot] = a;
    const double* y = st.y + slot * n;
    if (k > 0) {
      const double* sNext = st.s + h.slot(k - 1, set.m) * n;
      dot = team.template sumOwned<1>([&](int c, int q, TeamSum<1>& acc) {
        p[q] = fma(-a, y[c], p[q]);
        acc.v[0] = fma(sNext[c], p[q], acc.v[0]);
      });
    } else {  // then p *= H0 and the second loop's first dot, y_0.p
      const double* y0 = st.y + h.slot(0, set.m) * n;
      dot = team.template sumOwned<1>([&](int c, int q, TeamSum<1>& acc) {
        p[q] = fma(-a, y[c], p[q]) * h0;
        acc.v[0] = fma(y0[c], p[q], acc.v[0]);
      });
    }
  }
  team.sync();  // alpha
  // Second loop, oldest pair first: beta = rho_k y_k.p, p += (alpha_k - beta) s_k; then p = -p
  // and the sums p.g, p.p.
  TeamSum<2> d{};
  for (int k = 0; k < h.length; ++k) {
    const int slot = h.slot(k, set.m);
    const double beta = st.rho[slot] * dot.v[0];
    const double coefficient = st.alpha[slot] - beta;
    const double* s = st.s + slot * n;
    if (k + 1 < h.length) {
      const double* yNext = st.y + h.slot(k + 1, set.m) * n;
      dot = team.template sumOwned<1>([&](int c, int q, TeamSum<1>& acc) {
        p[q] = fma(coefficient, s[c], p[q]);
        acc.v[0] = fma(yNext[c], p[q], acc.v[0]);
      });
    } else {
      d = team.template sumOwned<2>([&](int c, int q, TeamSum<2>& acc) {
        p[q] = -fma(coefficient, s[c], p[q]);
        acc.v[0] = fma(p[q], gradient(c), acc.v[0]);
        acc.v[1] = fma(p[q], p[q], acc.v[1]);
        if (w) p[q] = p[q] * w[c];
      });
    }
  }
  if (h.length == 0)
    d = team.template sumOwned<2>([&](int c, int q, TeamSum<2>& acc) {
      p[q] = -p[q];
      acc.v[0] = fma(p[q], gradient(c), acc.v[0]);
      acc.v[1] = fma(p[q], p[q], acc.v[1]);
      if (w) p[q] = p[q] * w[c];
    });
  return {d.v[0], sqrt(d.v[1])};
}

/// xt = x + c p, one fma per component.
template <class Team>
LANDSCAPE_HD void lbfgsTeamSetTrial(Team& team, const LbfgsTeamStorage& st,
                                    const typename Team::Owned& p, double scale) {
  const double* x = st.x;
  double* xt = st.xt;
  team.forOwned([&](int c, int q) { xt[c] = fma(scale, p[q], x[c]); });
}

/// Algorithm 1, lines 7-9: store s = xt - x and y = gt - g (dropping the oldest pair beyond m),
/// rho = 1 / y.s and gamma = y.s / y.y (a zero product replaced by 1, as GMIN does), move to the
/// trial point; returns |g|^2 there.
template <class Team>
LANDSCAPE_HD double lbfgsTeamAccept(Team& team, LbfgsTeamStorage& st, LbfgsHistory& h,
                                    const LbfgsTeamSettings& set) {
  const int slot = h.push(set.m);
  double* s = st.s + static_cast<long>(slot) * set.n;
  double* y = st.y + static_cast<long>(slot) * set.n;
  const double *x = st.x, *xt = st.xt, *g = st.g, *gt = st.gt;
  const TeamSum<3> r = team.template sumOwned<3>([&](int c, int, TeamSum<3>& acc) {
    const double sc = xt[c] - x[c], yc = gt[c] - g[c];
    s[c] = sc;
    y[c] = yc;
    acc.v[0] = fma(yc, sc, acc.v[0]);
    acc.v[1] = fma(yc, yc, acc.v[1]);
    acc.v[2] = fma(gt[c], gt[c], acc.v[2]);
  });
  const LbfgsPairScalars scalars = lbfgsPairScalars(r.v[0], r.v[1]);
  if (team.isLeader()) st.rho[slot] = scalars.rho;
  h.gamma = scalars.gamma;
  double* swap = st.x;
  st.x = st.xt;
  st.xt = swap;
  swap = st.g;
  st.g = st.gt;
  st.gt = swap;
  return r.v[2];
}

template <class Team>
LANDSCAPE_HD double lbfgsTeamRms(Team& team, double gradientNormSquared) {
  return sqrt(gradientNormSquared / static_cast<double>(team.n));
}

/// What a minimisation of several structures as one vector changes in lbfgsTeamMinimise (a
/// DNEB band: landscape/paths/DnebTeamTerms.h) or over a derived objective: stepNorm() the length
/// that maxStep caps (here |p|), accepted() what happens at each accepted point, given its energy,
/// before the RMS test (here nothing; a Rayleigh-Ritz search renormalises its iterate there,
/// landscape/paths/HybridEfTeamTerms.h), stopped() whether a stop request ends the run before its
/// next iteration (here never; a whole DNEB band asks the team, which asks the host).
struct LbfgsTeamPlainHooks {
  template <class Team, class Owned>
  LANDSCAPE_HD double stepNorm(Team&, const Owned&, double directionNorm) {
    return directionNorm;
  }
  template <class Team>
  LANDSCAPE_HD void accepted(Team&, const LbfgsTeamStorage&, double) {}
  template <class Team>
  LANDSCAPE_HD bool stopped(Team&) {
    return false;
  }
};

/// Minimises from st.x (the result is left in st.x, which may have swapped with st.xt), the
/// potential evaluated inline by the team.
template <class Team, class Hooks = LbfgsTeamPlainHooks>
LANDSCAPE_HD LbfgsResult lbfgsTeamMinimise(Team& team, LbfgsTeamStorage& st,
                                           const LbfgsTeamSettings& set, Hooks hooks = Hooks{}) {
  const LbfgsStepLimits limits = set.limits();
  LbfgsStepState s = lbfgsStepFresh();
  const double energy = team.evaluate(st.x, st.g);
  const double* g = st.g;
  const double rms = lbfgsTeamRms(team, team.template sumOwned<1>([&](int c, int, TeamSum<1>& acc) {
                                          acc.v[0] = fma(g[c], g[c], acc.v[0]);
                                        })
                                        .v[0]);
  LbfgsHistory h;
  LbfgsNext next = lbfgsStepStart(s, energy, rms, limits);
  if (next == LbfgsNext::Finish) return lbfgsStepResult(s);
  typename Team::Owned p = team.owned();
  // The step control's requests as structured loops (Direction and ClearAndDirection are always
  // followed by trials until one is accepted or the step gives up), which keeps the kernel's
  // control flow simple.
  while (next != LbfgsNext::Finish) {
    if (hooks.stopped(team)) {  // status Stopped at the last accepted point, as Lbfgs::minimize
      lbfgsStepStop(s, true, 0.0);
      break;
    }
    if (next == LbfgsNext::ClearAndDirection) h.clear();
    const LbfgsTeamDirection d = lbfgsTeamDirection(team, st, p, h, set);
    next = lbfgsStepDirection(s, d.directionDotGradient, hooks.stepNorm(team, p, d.directionNorm),
                              limits);
    if (s.reversed) team.forOwned([&](int, int q) { p[q] = -p[q]; });
    while (next == LbfgsNext::Trial) {
      lbfgsTeamSetTrial(team, st, p, s.scale);
      next = lbfgsStepTrial(s, team.evaluate(st.xt, st.gt), limits);
    }
    if (next == LbfgsNext::Accept) {
      const double rms = lbfgsTeamRms(team, lbfgsTeamAccept(team, st, h, set));
      hooks.accepted(team, st, s.energy);
      next = lbfgsStepAccepted(s, rms, limits);
    }
  }
  return lbfgsStepResult(s);
}

}  // namespace landscape
