#pragma once
// The L-BFGS direction of the round-based batched engine for long histories, in the compact form
// of Byrd, Nocedal and Schnabel (Math. Prog. 63, 129 (1994), eq 3.1; as
// landscape/minimisation/LbfgsHostHistory and gpu/LbfgsCudaWorkspace), written once for host and
// device: gpu/BatchedLbfgsRoundsCompactKernels.cu spreads each step over many blocks, the CPU twin
// (landscape/minimisation/BatchedLbfgsRoundsTwin) runs the same functions in the same order of
// every sum, so both give the same bits.
//
// With the L pairs of the history (oldest first), a = S^T g, b = Y^T g, R the upper triangle of
// S^T Y (diagonal D = s_i.y_i, a zero replaced by 1 as GMIN's rho guard does) and gamma = s.y/y.y
// of the newest pair (the state's, from the accept: the two-loop path's H0):
//   p = -H g = -gamma g + S (-R^-T v) + Y (gamma u),  u = R^-1 a,  v = D u + gamma Y^T Y u - gamma
//   b.
// Instead of triangular solves (L sequential steps each) the engine keeps R^-1 itself, by history
// slot: a new pair appends the column [-R^-1 c / d; 1 / d] (c_i = s_i.y_new, d = D_new), and
// dropping the oldest pair drops its row and column (the inverse of a trailing block of a
// triangular matrix is that block of the inverse). Every product with R^-1, R^-T and Y^T Y is then
// a matrix-vector product whose rows are independent: one block of kCompactRowThreads per row.
//
// One compact direction (phase kRoundsDirection, always right after an accept, so the newest pair
// is new; an empty history never comes here, see lbfgsRoundsProceed), in five passes whose
// order within a pass does not matter:
//   1. pair dots, one team (kCompactPairThreads threads, the team order of landscape/core/TeamTerms.h)
//      per pair i over the n components: s_i.g, s_i.y_new, y_i.g, y_i.y_new -> sg, sy, yg and the
//      new row and column of Y^T Y (and D_new);
//   2. inverse rows, a row team per pair i: the new column of R^-1 and u_i = (R^-1 a)_i;
//   3. middle rows: v_i and the coefficient of y_i, gamma u_i;
//   4. projection rows: (R^-T v)_i and the coefficient of s_i, -(R^-T v)_i;
//   5. combination, per component c: kCompactPairsPerChunk pairs per partial sum, then
//      p_c = -gamma g_c + the partials in chunk order, with p.g and p.p summed per block of
//      kCompactComponentThreads components (team order) and the blocks in order; then the
//      two-loop path's uphill reversal, first step and trial point (lbfgsCompactStep).
// A row team's sum (passes 2-4): thread t of kCompactRowThreads adds the terms k = begin + t,
// begin + t + kCompactRowThreads, ... left to right by fma from 0, then the team order of
// landscape/core/TeamTerms.h (teamSumMirror on the host). Against the two-loop recursion the direction
// differs by round-off.
#include "landscape/minimisation/LbfgsRoundsTerms.h"

namespace landscape {

/// Threads of a pass-1 team (one pair over all n components).
constexpr int kCompactPairThreads = 256;
/// Threads of a pass 2-4 row team (one history row).
constexpr int kCompactRowThreads = 128;
/// Pairs per partial sum of the combination (pass 5).
constexpr int kCompactPairsPerChunk = 64;
/// Components per block of pass 5 (one thread each).
constexpr int kCompactComponentThreads = 256;

/// Partial sums of the combination for a history of m pairs.
LANDSCAPE_HD int lbfgsCompactChunks(int m) {
  return (m + kCompactPairsPerChunk - 1) / kCompactPairsPerChunk;
}
/// Blocks of kCompactComponentThreads components over n.
LANDSCAPE_HD int lbfgsCompactBlocks(int n) {
  return (n + kCompactComponentThreads - 1) / kCompactComponentThreads;
}

/// The compact form's storage of one slot, indexed by history slot (not by age).
struct LbfgsCompactStorage {
  double* rinv;       ///< [m x m] rinv[i m + j] = (R^-1)_ij, pair i older than or pair j
  double* rinvT;      ///< [m x m] rinvT[j m + i] = (R^-1)_ij (the transpose, for row access)
  double* yy;         ///< [m x m] y_i.y_j (symmetric)
  double* sg;         ///< [m] s_i.g
  double* yg;         ///< [m] y_i.g
  double* sy;         ///< [m] s_i.y_new
  double* d;          ///< [m] D_i = s_i.y_i (0 -> 1)
  double* u;          ///< [m] (R^-1 a)_i
  double* v;          ///< [m] v_i
  double* coefS;      ///< [m] -(R^-T v)_i
  double* coefY;      ///< [m] gamma u_i
  double* parts;      ///< [chunks x n] partial sums of the combination
  double* blockSums;  ///< [blocks x 2] p.g and p.p per block of components
};

/// Doubles of LbfgsCompactStorage for one slot.
LANDSCAPE_HD long long lbfgsCompactSlotDoubles(int n, int m) {
  const long long mm = m;
  return 3 * mm * mm + 8 * mm + static_cast<long long>(lbfgsCompactChunks(m)) * n +
         2LL * lbfgsCompactBlocks(n);
}

/// Carves LbfgsCompactStorage out of `base` (lbfgsCompactSlotDoubles doubles).
LANDSCAPE_HD LbfgsCompactStorage lbfgsCompactLayout(double* base, int n, int m) {
  const long long mm = m;
  LbfgsCompactStorage c;
  c.rinv = base;
  c.rinvT = c.rinv + mm * mm;
  c.yy = c.rinvT + mm * mm;
  c.sg = c.yy + mm * mm;
  c.yg = c.sg + mm;
  c.sy = c.yg + mm;
  c.d = c.sy + mm;
  c.u = c.d + mm;
  c.v = c.u + mm;
  c.coefS = c.v + mm;
  c.coefY = c.coefS + mm;
  c.parts = c.coefY + mm;
  c.blockSums = c.parts + static_cast<long long>(lbfgsCompactChunks(m)) * n;
  return c;
}

/// Pass 1 for the pair in history slot `slot`: its four dot products with g and the newest y.
/// Team: landscape/minimisation/LbfgsTeamTerms.h's (sumOwned over n in the team order, isLeader()).
template <class Team>
LANDSCAPE_HD void lbfgsCompactPairDots(Team& team, const LbfgsTeamStorage& st,
                                       const LbfgsCompactStorage& cs, int slot,
                                       const LbfgsHistory& h, const LbfgsTeamSettings& set) {
  const long long n = set.n;
  const int m = set.m, newest = h.slot(h.length - 1, m);
  const double* s = st.s + slot * n;
  const double* y = st.y + slot * n;
  const double* yn = st.y + newest * n;
  const double* g = st.g;
  const TeamSum<2> sd = team.template sumOwned<2>([&](int c, int, TeamSum<2>& acc) {
    acc.v[0] = fma(s[c], g[c], acc.v[0]);
    acc.v[1] = fma(s[c], yn[c], acc.v[1]);
  });
  const TeamSum<2> yd = team.template sumOwned<2>([&](int c, int, TeamSum<2>& acc) {
    acc.v[0] = fma(y[c], g[c], acc.v[0]);
    acc.v[1] = fma(y[c], yn[c], acc.v[1]);
  });
  if (team.isLeader()) {
    cs.sg[slot] = sd.v[0];
    cs.sy[slot] = sd.v[1];
    cs.yg[slot] = yd.v[0];
    cs.yy[static_cast<long long>(slot) * m + newest] = yd.v[1];
    cs.yy[static_cast<long long>(newest) * m + slot] = yd.v[1];
    if (slot == newest) cs.d[slot] = sd.v[1] == 0.0 ? 1.0 : sd.v[1];
  }
}

/// Pass 2 for the pair in slot `row`: the new column's entry (R^-1)_{row,new} (1 / d for the new
/// pair itself) and u_row. Rows: sum(begin, end, term), the same bits in every thread, and
/// isLeader() (see the file comment).
template <class Rows>
LANDSCAPE_HD void lbfgsCompactInverseRow(Rows& rows, const LbfgsCompactStorage& cs, int row,
                                         const LbfgsHistory& h, int m) {
  const int age = h.age(row, m), last = h.length - 1;
  const int newest = h.slot(last, m);
  const double d = cs.d[newest];
  const double* r = cs.rinv + static_cast<long long>(row) * m;
  double x;
  if (age == last) {
    x = 1.0 / d;
  } else {
    const double rc = rows.sum(age, last, [&](int k, double acc) {
      const int j = h.slot(k, m);
      return fma(r[j], cs.sy[j], acc);
    });
    x = -rc / d;
  }
  const double u = rows.sum(age, h.length, [&](int k, double acc) {
    const int j = h.slot(k, m);
    return fma(k == last ? x : r[j], cs.sg[j], acc);
  });
  if (rows.isLeader()) {
    cs.rinv[static_cast<long long>(row) * m + newest] = x;
    cs.rinvT[static_cast<long long>(newest) * m + row] = x;
    cs.u[row] = u;
  }
}

/// Pass 3 for the pair in slot `row`: v_row = D u + gamma (Y^T Y u)_row - gamma b_row, and the
/// coefficient of y_row, gamma u_row.
template <class Rows>
LANDSCAPE_HD void lbfgsCompactMiddleRow(Rows& rows, const LbfgsCompactStorage& cs, int row,
                                        const LbfgsHistory& h, int m) {
  const double* yyRow = cs.yy + static_cast<long long>(row) * m;
  const double t = rows.sum(0, h.length, [&](int k, double acc) {
    const int j = h.slot(k, m);
    return fma(yyRow[j], cs.u[j], acc);
  });
  if (rows.isLeader()) {
    const double gamma = h.gamma;
    cs.v[row] = cs.d[row] * cs.u[row] + gamma * t - gamma * cs.yg[row];
    cs.coefY[row] = gamma * cs.u[row];
  }
}

/// Pass 4 for the pair in slot `row`: (R^-T v)_row over the pairs up to it; the coefficient of
/// s_row is its negative.
template <class Rows>
LANDSCAPE_HD void lbfgsCompactProjectRow(Rows& rows, const LbfgsCompactStorage& cs, int row,
                                         const LbfgsHistory& h, int m) {
  const double* rt = cs.rinvT + static_cast<long long>(row) * m;
  const double p1 = rows.sum(0, h.age(row, m) + 1, [&](int k, double acc) {
    const int i = h.slot(k, m);
    return fma(rt[i], cs.v[i], acc);
  });
  if (rows.isLeader()) cs.coefS[row] = -p1;
}

/// Pass 5a: the partial sum of chunk `chunk` for component c, sum over its pairs (by age) of
/// s_i[c] coefS_i + y_i[c] coefY_i.
LANDSCAPE_HD double lbfgsCompactChunkPart(const LbfgsTeamStorage& st, const LbfgsCompactStorage& cs,
                                          int c, int chunk, const LbfgsHistory& h,
                                          const LbfgsTeamSettings& set) {
  const long long n = set.n;
  const int begin = chunk * kCompactPairsPerChunk;
  const int end =
      begin + kCompactPairsPerChunk < h.length ? begin + kCompactPairsPerChunk : h.length;
  double acc = 0.0;
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
  for (int k = begin; k < end; ++k) {
    const long long j = h.slot(k, set.m);
    acc = fma(st.s[j * n + c], cs.coefS[j], acc);
    acc = fma(st.y[j * n + c], cs.coefY[j], acc);
  }
  return acc;
}

/// Pass 5b: component c of the direction, -gamma g_c plus the chunks' partial sums in order.
LANDSCAPE_HD double lbfgsCompactComponent(const LbfgsTeamStorage& st, const LbfgsCompactStorage& cs,
                                          int c, const LbfgsHistory& h,
                                          const LbfgsTeamSettings& set) {
  double pc = -(h.gamma * st.g[c]);
  const int chunks = lbfgsCompactChunks(h.length);
  for (int q = 0; q < chunks; ++q) pc = pc + cs.parts[static_cast<long long>(q) * set.n + c];
  return pc;
}

/// Pass 5c: p.g and |p| from the per-block sums, the blocks in order.
LANDSCAPE_HD LbfgsTeamDirection lbfgsCompactTotals(const LbfgsCompactStorage& cs, int n) {
  const int blocks = lbfgsCompactBlocks(n);
  double pg = cs.blockSums[0], pp = cs.blockSums[1];
  for (int b = 1; b < blocks; ++b) {
    pg = pg + cs.blockSums[2 * b];
    pp = pp + cs.blockSums[2 * b + 1];
  }
  return {pg, sqrt(pp)};
}

/// Pass 5d's decision on the direction (uphill reversal, first c) as the two-loop path takes it.
/// lbfgsStepDirection reads nothing of the run's state, so every thread forms it alone.
LANDSCAPE_HD LbfgsStepState lbfgsCompactDecision(const LbfgsTeamDirection& d,
                                                 const LbfgsTeamSettings& set) {
  LbfgsStepState decision{};
  lbfgsStepDirection(decision, d.directionDotGradient, d.directionNorm, set.limits());
  return decision;
}

/// Pass 5d for component c: the uphill reversal and the trial point xt = x + c p.
LANDSCAPE_HD void lbfgsCompactTrialComponent(const LbfgsTeamStorage& st, double* p, int c,
                                             const LbfgsStepState& decision) {
  double pc = p[c];
  if (decision.reversed) {
    pc = -pc;
    p[c] = pc;
  }
  st.xt[c] = fma(decision.scale, pc, st.x[c]);
}

/// Pass 5d's end (one thread): the run takes the decision and leaves phase Direction for the
/// first trial of the step.
LANDSCAPE_HD void lbfgsCompactStartTrial(LbfgsRoundsState& s, const LbfgsTeamDirection& d,
                                         const LbfgsTeamSettings& set) {
  lbfgsStepDirection(s.step, d.directionDotGradient, d.directionNorm, set.limits());
  s.phase = kRoundsTrial;
}

}  // namespace landscape
