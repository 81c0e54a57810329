#pragma once
// Hybrid eigenvector-following for one transition-state candidate, run whole by one team (the
// method and settings of landscape/paths/HybridEigenvectorFollowing.h: Munro and Wales, Phys.
// Rev. B 59, 3969 (1999); Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, section 2.2),
// written once for the GPU kernel (gpu/BatchedHybridEfKernels.cu: a block per search) and its CPU
// twin (landscape/paths/HybridEfTwin). Both minimisations of an iteration are lbfgsTeamMinimise
// over a derived objective of the base potential, as on the host they are Lbfgs over a derived
// Potential:
//   - the Rayleigh-Ritz ratio (eqs 11-14): lambda from the gradients at X + zeta xhat and
//     X - zeta xhat (two structures, on two warps where the block has them), xhat = P x / |P x|
//     with P the projector off the overall translations and rotations at X, the iterate
//     renormalised after every accepted step (the accepted hook);
//   - the tangent-space energy (eq 15): the gradient with its component along v removed.
// The uphill step, its trust radius, the overlap test and the convergence test are scalars that
// every thread of the team holds alike (each comes out of a team sum).
//
// A Team is the L-BFGS Team of landscape/minimisation/LbfgsTeamTerms.h over the n coordinates of
// one structure (without evaluate()), plus
//   owned()                   an Owned vector for the direction p (storage: st.direction);
//   forWarpItems(count, f)    f(i, warp) for items i in [0, count) of this thread's warp (every
//                             item once over the team), warp a team of one structure's n
//                             coordinates;
//   evaluateImage(warp, x, g) one structure's energy at x, gradient into g;
//   stopRequested()           the same answer on every thread (a stop ends the search with
//                             status Stopped between iterations, as the host search polls).
//
// Arithmetic is written as separate IEEE operations (the GPU file is compiled with -fmad=false,
// the twin with -ffp-contract=off), so kernel and twin give the same bits; against
// HybridEigenvectorFollowing, whose sums run over the components in order, a search agrees to
// round-off.
#include <math.h>

#include "landscape/core/HostDevice.h"
#include "landscape/core/TeamTerms.h"
#include "landscape/minimisation/LbfgsTeamTerms.h"
#include "landscape/paths/TransitionStateStatus.h"

namespace landscape {

/// The search's settings (HybridEigenvectorFollowingParams' and RayleighRitzParams' fields, units
/// as there).
struct HybridEfTeamSettings {
  int n;                      ///< coordinates of one structure (3N)
  int m;                      ///< L-BFGS history of both minimisations (the larger of the two)
  LbfgsTeamSettings ritz;     ///< the eigenvector search's L-BFGS (n, its own history)
  LbfgsTeamSettings tangent;  ///< the tangent-space L-BFGS; maxIterations is set per iteration
  double zeta;                ///< eq 14's displacement (length)
  double eigenvalueTolerance;
  int maxTightenings;
  int rigidBodyModes;  ///< 6: translations and rotations projected out; 3: translations; 0: none
  int tangentIterationsBefore, tangentIterationsAfter;
  double overlapConvergence;
  double initialUphillStep, minUphillStep, maxUphillStep;  ///< length
  double trustRatio;
  double rmsTolerance;   ///< energy / length
  double stepTolerance;  ///< length
  int maxIterations;
};

/// What one search ended with (the scalars of a TransitionStateResult).
struct HybridEfTeamOutcome {
  double energy;
  double eigenvalue;      ///< energy / length^2
  double rmsGradient;     ///< energy / length
  double lastUphillStep;  ///< |h| of the last iteration (length)
  long long gradientCalls;
  int iterations;
  TransitionStateStatus status;
};

/// One search's arrays. x and v are what goes in (the candidate and the eigenvector guess) and
/// comes out (the point reached and its eigenvector): the io block, 2 n doubles.
struct HybridEfTeamStorage {
  double* x;          ///< [n]
  double* v;          ///< [n]
  double* g;          ///< [n] gradient at x
  double* previous;   ///< [n] v of the last iteration
  double* axis;       ///< [n] the tangent space's unit normal
  double* modes;      ///< [6 n] orthonormal rigid-body modes at x (the first `modeCount`)
  double* unit;       ///< [n] xhat of the Rayleigh-Ritz objective
  double* displaced;  ///< [2 n] X + zeta xhat, X - zeta xhat
  double* gradients;  ///< [2 n] their gradients
  double* direction;  ///< [n] the L-BFGS direction p
  double* energies;   ///< [2] written by the warps' leaders
  LbfgsTeamStorage lbfgs;
};

LANDSCAPE_HD long hybridEfTeamIoDoubles(int n) { return 2L * n; }
LANDSCAPE_HD long hybridEfTeamWorkDoubles(int n, int m) {
  return (15 + 4 + 2L * m) * n + 2L * m + 2;
}

/// The arrays of one search over its io block and its work block.
LANDSCAPE_HD HybridEfTeamStorage hybridEfTeamLayout(double* io, double* work, int n, int m) {
  const long nn = n;
  HybridEfTeamStorage st;
  st.x = io;
  st.v = io + nn;
  st.g = work;
  st.previous = work + nn;
  st.axis = work + 2 * nn;
  st.modes = work + 3 * nn;
  st.unit = work + 9 * nn;
  st.displaced = work + 10 * nn;
  st.gradients = work + 12 * nn;
  st.direction = work + 14 * nn;
  st.energies = work + 15 * nn;
  st.lbfgs = lbfgsTeamLayout(work + 15 * nn + 2, n, m);
  return st;
}

/// A search under way: settings, arrays and the scalars every thread holds.
struct HybridEfTeamSearch {
  HybridEfTeamSettings set;
  HybridEfTeamStorage st;
  int modeCount;
  long long calls;  ///< gradient calls of the base potential
  // The eigenvector search's record of lambda at its accepted steps (the last three).
  double lambdas[3];
  int lambdaCount;
  bool unusable;  ///< an iterate had nothing left outside the rigid-body modes
};

namespace hybridef {

/// lbfgsTeamMinimise's Team over one objective: the search's team with evaluate() = objective.
template <class Team, class Objective>
class ObjectiveTeam {
 public:
  using Owned = typename Team::Owned;
  LANDSCAPE_HD ObjectiveTeam(Team& team, Objective& objective)
      : n(team.n), m_team(team), m_objective(objective) {}
  const int n;
  LANDSCAPE_HD void sync() { m_team.sync(); }
  LANDSCAPE_HD bool isLeader() const { return m_team.isLeader(); }
  LANDSCAPE_HD Owned owned() { return m_team.owned(); }
  template <class F>
  LANDSCAPE_HD void forOwned(F f) {
    m_team.forOwned(f);
  }
  template <int R, class F>
  LANDSCAPE_HD TeamSum<R> sumOwned(F f) {
    return m_team.template sumOwned<R>(f);
  }
  LANDSCAPE_HD double evaluate(const double* x, double* g) { return m_objective(x, g); }

 private:
  Team& m_team;
  Objective& m_objective;
};

template <class Team>
LANDSCAPE_HD double dot(Team& team, const double* a, const double* b) {
  return team
      .template sumOwned<1>([&](int c, int, TeamSum<1>& acc) { acc.v[0] = acc.v[0] + a[c] * b[c]; })
      .v[0];
}

/// The energy at x and its gradient into g, by the first warp; every thread returns it.
template <class Team>
LANDSCAPE_HD double evaluateOne(Team& team, HybridEfTeamSearch& s, const double* x, double* g) {
  team.sync();
  team.forWarpItems(1, [&](int, auto& warp) {
    const double e = team.evaluateImage(warp, x, g);
    if (warp.isLeader()) s.st.energies[0] = e;
  });
  team.sync();
  ++s.calls;
  return s.st.energies[0];
}

/// Column j of the rigid-body candidates at x, component c: unit translations along x, y, z and
/// the infinitesimal rotations e_k x (r_a - centre) (RigidBodyModes).
LANDSCAPE_HD double rigidBodyCandidate(int j, int c, const double* x, const double* centre) {
  const int k = c % 3;
  if (j < 3) return k == j ? 1.0 : 0.0;
  const int a = c - k;
  const double r[3] = {x[a] - centre[0], x[a + 1] - centre[1], x[a + 2] - centre[2]};
  switch (j - 3) {  // e_0 x r = (0, -r_z, r_y), e_1 x r = (r_z, 0, -r_x), e_2 x r = (-r_y, r_x, 0)
    case 0:
      return k == 0 ? 0.0 : (k == 1 ? -r[2] : r[1]);
    case 1:
      return k == 0 ? r[2] : (k == 1 ? 0.0 : -r[0]);
    default:
      return k == 0 ? -r[1] : (k == 1 ? r[0] : 0.0);
  }
}

/// The orthonormal rigid-body modes at st.x by modified Gram-Schmidt, dropping a candidate that
/// keeps less than 1e-8 of its norm (RigidBodyModes::orthonormalise: a linear molecule's axis).
template <class Team>
LANDSCAPE_HD void buildModes(Team& team, HybridEfTeamSearch& s) {
  s.modeCount = 0;
  if (s.set.rigidBodyModes == 0) return;
  const long n = s.set.n;
  const double* x = s.st.x;
  const TeamSum<3> sums = team.template sumOwned<3>(
      [&](int c, int, TeamSum<3>& acc) { acc.v[c % 3] = acc.v[c % 3] + x[c]; });
  const double atoms = static_cast<double>(n / 3);
  const double centre[3] = {sums.v[0] / atoms, sums.v[1] / atoms, sums.v[2] / atoms};
  for (int j = 0; j < s.set.rigidBodyModes; ++j) {
    double* w = s.st.modes + s.modeCount * n;
    const double original2 = team.template sumOwned<1>([&](int c, int, TeamSum<1>& acc) {
                                   w[c] = rigidBodyCandidate(j, c, x, centre);
                                   acc.v[0] = acc.v[0] + w[c] * w[c];
                                 })
                                 .v[0];
    if (original2 == 0.0) continue;
    for (int i = 0; i < s.modeCount; ++i) {
      const double* b = s.st.modes + i * n;
      const double d = dot(team, b, w);
      team.forOwned([&](int c, int) { w[c] = w[c] - d * b[c]; });
    }
    const double remaining = sqrt(dot(team, w, w));
    if (remaining <= 1e-8 * sqrt(original2)) continue;
    team.forOwned([&](int c, int) { w[c] = w[c] / remaining; });
    ++s.modeCount;
  }
}

/// v <- P v (the modes' components removed: all coefficients first, as RigidBodyModes does).
template <class Team>
LANDSCAPE_HD void projectOut(Team& team, const HybridEfTeamSearch& s, double* v) {
  if (s.modeCount == 0) return;
  const long n = s.set.n;
  const double* b = s.st.modes;
  const int k = s.modeCount;
  double coefficient[6];
  for (int first = 0; first < k; first += 3) {
    const TeamSum<3> d = team.template sumOwned<3>([&](int c, int, TeamSum<3>& acc) {
      for (int r = 0; r < 3 && first + r < k; ++r)
        acc.v[r] = acc.v[r] + b[(first + r) * n + c] * v[c];
    });
    for (int r = 0; r < 3 && first + r < k; ++r) coefficient[first + r] = d.v[r];
  }
  team.forOwned([&](int c, int) {
    double along = 0.0;
    for (int r = 0; r < k; ++r) along = along + b[r * n + c] * coefficient[r];
    v[c] = v[c] - along;
  });
}

/// v <- P v / |P v|; false (v unchanged beyond the projection) when nothing finite is left
/// outside the modes (RayleighRitzPotential::normalise).
template <class Team>
LANDSCAPE_HD bool normalise(Team& team, const HybridEfTeamSearch& s, double* v) {
  const double before = sqrt(dot(team, v, v));
  projectOut(team, s, v);
  const double norm = sqrt(dot(team, v, v));
  if (!(norm > 1e-10 * before) || !teamFinite(norm)) return false;
  team.forOwned([&](int c, int) { v[c] = v[c] / norm; });
  return true;
}

/// The Rayleigh-Ritz ratio at X = st.x as an objective of x (RayleighRitzPotential): lambda of
/// eq 14 at xhat = P x / |P x|, its gradient eq 13 at xhat, projected. NaN (and a zero gradient)
/// if P x = 0.
template <class Team>
struct RitzObjective {
  Team& team;
  HybridEfTeamSearch& s;
  LANDSCAPE_HD double operator()(const double* x, double* g) {
    const long n = s.set.n;
    double* unit = s.st.unit;
    const double zeta = s.set.zeta;
    team.sync();
    team.forOwned([&](int c, int) { unit[c] = x[c]; });
    projectOut(team, s, unit);
    const double norm = sqrt(dot(team, unit, unit));
    if (!(norm > 0.0) || !teamFinite(norm)) {
      team.forOwned([&](int c, int) { g[c] = 0.0; });
      team.sync();
      return static_cast<double>(NAN);
    }
    const double* X = s.st.x;
    double* plus = s.st.displaced;
    double* minus = s.st.displaced + n;
    team.forOwned([&](int c, int) {
      unit[c] = unit[c] / norm;
      plus[c] = X[c] + zeta * unit[c];
      minus[c] = X[c] - zeta * unit[c];
    });
    team.sync();
    team.forWarpItems(2, [&](int i, auto& warp) {
      const double e = team.evaluateImage(warp, s.st.displaced + i * n, s.st.gradients + i * n);
      if (warp.isLeader()) s.st.energies[i] = e;
    });
    team.sync();
    s.calls += 2;
    const double* gPlus = s.st.gradients;
    const double* gMinus = s.st.gradients + n;
    const double lambda = team.template sumOwned<1>([&](int c, int, TeamSum<1>& acc) {
                                acc.v[0] = acc.v[0] + (gPlus[c] - gMinus[c]) * unit[c];
                              })
                              .v[0] /
                          (2.0 * zeta);
    team.forOwned(
        [&](int c, int) { g[c] = (gPlus[c] - gMinus[c]) / zeta - 2.0 * lambda * unit[c]; });
    projectOut(team, s, g);
    team.sync();
    return lambda;
  }
};

/// The eigenvector search's changes to lbfgsTeamMinimise: lambda recorded at every accepted step
/// and the iterate renormalised there (Mantell et al. 2016, section 2.2).
struct RitzHooks {
  HybridEfTeamSearch* s;
  template <class Team, class Owned>
  LANDSCAPE_HD double stepNorm(Team&, const Owned&, double directionNorm) {
    return directionNorm;
  }
  template <class Team>
  LANDSCAPE_HD void accepted(Team& team, const LbfgsTeamStorage& st, double lambda) {
    s->lambdas[0] = s->lambdas[1];
    s->lambdas[1] = s->lambdas[2];
    s->lambdas[2] = lambda;
    ++s->lambdaCount;
    if (!normalise(team, *s, st.x)) s->unusable = true;
  }
  // The search polls the stop request between its iterations, not inside the eigenvector search.
  template <class Team>
  LANDSCAPE_HD bool stopped(Team&) {
    return false;
  }
};

/// The relative change of lambda below the tolerance on the last two accepted steps (or the RMS
/// criterion held at once).
LANDSCAPE_HD bool lambdaSettled(const HybridEfTeamSearch& s, int iterations) {
  if (iterations < 2) return true;
  if (s.lambdaCount < 3) return false;
  for (int j = 1; j < 3; ++j)
    if (fabs(s.lambdas[j] - s.lambdas[j - 1]) > s.set.eigenvalueTolerance * fabs(s.lambdas[j]))
      return false;
  return true;
}

/// The smallest non-zero eigenvalue at st.x from the guess in st.v (RayleighRitz::
/// smallestEigenvector); the eigenvector is left in st.v. Tightens the RMS tolerance tenfold while
/// lambda has not settled.
template <class Team>
LANDSCAPE_HD double smallestEigenvector(Team& team, HybridEfTeamSearch& s) {
  buildModes(team, s);
  if (!normalise(team, s, s.st.v)) {
    s.unusable = true;
    return static_cast<double>(NAN);
  }
  RitzObjective<Team> objective{team, s};
  ObjectiveTeam<Team, RitzObjective<Team>> ratio(team, objective);
  s.lambdaCount = 0;
  int iterations = 0;
  double lambda = 0.0;
  LbfgsTeamSettings set = s.set.ritz;
  for (int round = 0;; ++round) {
    set.maxIterations = s.set.ritz.maxIterations - iterations;
    LbfgsTeamStorage st = s.st.lbfgs;
    const double* v = s.st.v;
    double* x0 = st.x;
    team.forOwned([&](int c, int) { x0[c] = v[c]; });
    const LbfgsResult run = lbfgsTeamMinimise(ratio, st, set, RitzHooks{&s});
    const double* last = st.x;
    double* out = s.st.v;
    team.forOwned([&](int c, int) { out[c] = last[c]; });
    iterations += run.iterations;
    lambda = run.energy;
    if (!normalise(team, s, s.st.v)) s.unusable = true;
    if (s.unusable || !run.converged()) break;
    if (lambdaSettled(s, iterations) || round >= s.set.maxTightenings ||
        iterations >= s.set.ritz.maxIterations)
      break;
    set.rmsTolerance = set.rmsTolerance * 0.1;
  }
  return lambda;
}

/// The energy with the gradient projected off the unit axis (TangentSpacePotential, eq 15).
template <class Team>
struct TangentObjective {
  Team& team;
  HybridEfTeamSearch& s;
  LANDSCAPE_HD double operator()(const double* x, double* g) {
    const double e = evaluateOne(team, s, x, g);
    const double* axis = s.st.axis;
    const double along = dot(team, g, axis);
    team.forOwned([&](int c, int) { g[c] = g[c] - along * axis[c]; });
    team.sync();
    return e;
  }
};

}  // namespace hybridef

/// Refines the candidate in st.x from the eigenvector guess in st.v (any non-zero vector with a
/// part outside the rigid-body modes) to a transition state, as
/// HybridEigenvectorFollowing::findTransitionState does; the point reached is left in st.x and
/// its eigenvector in st.v.
template <class Team>
LANDSCAPE_HD HybridEfTeamOutcome hybridEfTeamSearch(Team& team, HybridEfTeamSearch& s) {
  using namespace hybridef;
  const HybridEfTeamSettings& set = s.set;
  double* x = s.st.x;
  double* v = s.st.v;
  double* g = s.st.g;
  s.calls = 0;
  s.unusable = false;
  HybridEfTeamOutcome out{};
  out.status = TransitionStateStatus::MaxIterations;
  double energy = evaluateOne(team, s, x, g);
  double maxUphill = set.initialUphillStep;
  double lambda = 0.0;
  bool hasPrevious = false;
  const double rmsScale = 1.0 / sqrt(static_cast<double>(set.n));
  TangentObjective<Team> tangent{team, s};
  ObjectiveTeam<Team, TangentObjective<Team>> tangentTeam(team, tangent);
  for (int it = 1; it <= set.maxIterations; ++it) {
    out.iterations = it;
    if (!teamFinite(energy) || s.unusable) {
      out.status = TransitionStateStatus::NonFiniteEnergy;
      break;
    }
    if (team.stopRequested()) {
      out.status = TransitionStateStatus::Stopped;
      break;
    }
    // 1. The smallest eigenpair, warm-started from the last; the overlap decides step 3's cap.
    lambda = smallestEigenvector(team, s);
    double overlap = 0.0;
    if (hasPrevious) {
      const double d = dot(team, v, s.st.previous);
      if (d < 0.0) team.forOwned([&](int c, int) { v[c] = -v[c]; });
      overlap = fabs(d);
    }
    hasPrevious = true;
    double* previous = s.st.previous;
    team.forOwned([&](int c, int) { previous[c] = v[c]; });
    // 2. The eigenvector-following step uphill along v, capped by the trust radius.
    const double force = dot(team, g, v);
    double h;
    if (lambda < 0.0) {
      const double ratio = force / lambda;
      h = 2.0 * force / (fabs(lambda) * (1.0 + sqrt(1.0 + 4.0 * ratio * ratio)));
    } else {
      h = (force >= 0.0 ? 1.0 : -1.0) * maxUphill;
    }
    if (fabs(h) > maxUphill) h = copysign(maxUphill, h);
    team.forOwned([&](int c, int) { x[c] = x[c] + h * v[c]; });
    energy = evaluateOne(team, s, x, g);
    if (lambda < 0.0 && h != 0.0) {
      const double forceNew = dot(team, g, v);
      const double a = fabs(1.0 - (forceNew - force) / (h * lambda));
      const double b = fabs(1.0 - (-forceNew - force) / (h * lambda));
      const double error = a < b ? a : b;
      if (error > set.trustRatio) {
        const double smaller = maxUphill / 1.1;
        maxUphill = smaller > set.minUphillStep ? smaller : set.minUphillStep;
      } else {
        const double larger = maxUphill * 1.1;
        maxUphill = larger < set.maxUphillStep ? larger : set.maxUphillStep;
      }
    }
    // 3. Minimisation orthogonal to v.
    const double vNorm = sqrt(dot(team, v, v));
    double* axis = s.st.axis;
    team.forOwned([&](int c, int) { axis[c] = v[c] / vNorm; });
    LbfgsTeamSettings tangentSet = set.tangent;
    tangentSet.maxIterations =
        overlap > set.overlapConvergence ? set.tangentIterationsAfter : set.tangentIterationsBefore;
    LbfgsTeamStorage st = s.st.lbfgs;
    double* x0 = st.x;
    team.forOwned([&](int c, int) { x0[c] = x[c]; });
    lbfgsTeamMinimise(tangentTeam, st, tangentSet);
    const double* reached = st.x;
    team.forOwned([&](int c, int) { x[c] = reached[c]; });
    energy = evaluateOne(team, s, x, g);
    const double rms = sqrt(dot(team, g, g)) * rmsScale;
    out.lastUphillStep = fabs(h);
    out.rmsGradient = rms;
    const bool converged = rms < set.rmsTolerance && fabs(h) < set.stepTolerance && lambda < 0.0;
    if (team.stopRequested()) {
      out.status = TransitionStateStatus::Stopped;
      break;
    }
    if (converged) {
      out.status = TransitionStateStatus::Converged;
      break;
    }
  }
  out.energy = energy;
  if (out.status == TransitionStateStatus::NonFiniteEnergy) {
    out.eigenvalue = lambda;
  } else {
    out.eigenvalue = smallestEigenvector(team, s);
    if (out.status == TransitionStateStatus::Converged && !(out.eigenvalue < 0.0))
      out.status = TransitionStateStatus::NotASaddle;
  }
  out.gradientCalls = s.calls;
  return out;
}

}  // namespace landscape
