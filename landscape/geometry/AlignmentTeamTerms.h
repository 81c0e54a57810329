#pragma once
// The alignment search of alignStructures() (Alignment.h) for clusters (every atom interchangeable
// with every other), written once for the GPU kernel (gpu/BatchedAlignmentKernels.cu: a block per
// pair, a warp per start at a time) and its CPU twin (landscape/geometry/AlignmentTwin). The host
// hands over each pair centred and in the search's direction, with its candidate starts
// (landscape/geometry/AlignmentStarts.h); the team then does what the host search does with them:
//   1. the fit in the given atom order of each chirality (so the result is never worse);
//   2. every start's nearest-neighbour bound sum_i min_j |a_i - R b_j|^2;
//   3. the starts whose bound is ~0 refined in their order (a copy: the search ends there);
//   4. the starts ranked by bound (ties in their order) and the best orientationTrials distinct
//      ones refined, each by alternating the optimal permutation for the rotation (the shortest
//      augmenting path assignment of Jonker and Volgenant, Computing 38, 325 (1987), its costs
//      computed from the coordinates as needed) with the optimal proper rotation for the
//      permutation (the unit quaternion of Horn, J. Opt. Soc. Am. A 4, 629 (1987): the rotation
//      of the host's Kabsch SVD up to round-off);
//   5. the first strictly best fit in that order, up to the first exact one.
// So a pair's result is the host search's up to round-off (the quaternion's rotation, sums in the
// warp's order) and, where several assignments tie, which of them the solver returns.
//
// A Block offers
//   forWarpItems(count, f)  f(i, warp) for items i in [0, count), each on one warp, then a barrier;
//   withLeaderWarp(f)       f(warp) on the first warp only, then a barrier;
//   forThreads(count, f)    f(k) for k in [0, count) over the block's threads, then a barrier;
// and a Warp (32 lanes, every scalar held alike by all of them):
//   forLanes(count, f)      f(c) for c in [0, count), lane l taking c = l, l + 32, ... (no
//   barrier); sync()                  the warp's barrier and memory fence; isLeader() lane 0;
//   sum<R>(count, term)     the TeamSum<R> of term(c): lane l adds its c in order, then the xor
//                           butterfly (landscape/core/TeamTerms.h);
//   least(count, key)       the c of least key(c) (AlignmentKey order, then c), on every lane;
//   any(count, pred)        whether pred(c) holds for some c, on every lane;
//   work()                  its AlignmentWarpWork.
// Arithmetic is written as separate IEEE operations (the kernel is compiled with -fmad=false, the
// twin with -ffp-contract=off), so kernel and twin give the same bits.
#include <cmath>

#include "landscape/core/HostDevice.h"
#include "landscape/core/TeamTerms.h"

namespace landscape {

/// The settings of every pair of a call.
struct AlignmentTeamSettings {
  int atoms;              ///< n >= 1
  int chiralities;        ///< 1, or 2 when inversion is allowed
  int permutations;       ///< 0: the fits in the given order only
  int orientationTrials;  ///< starts refined after ranking (K >= 1)
  int maxIterations;      ///< alternations per start >= 1
  double convergence;     ///< length, as AlignmentParams::convergence
};

/// A pair's result: the best fit moves moved atom permutation[i] onto fixed atom i by
/// s * rotation (s = -1 if inverted).
struct AlignmentTeamOutcome {
  double squared;      ///< its sum of squared deviations
  double rotation[9];  ///< row-major, proper
  int inverted;
  int nowRefined;  ///< starts refined because their bound was ~0 (step 3)
  int trials;      ///< starts refined after ranking (step 4)
  int unused;
};

/// One pair's arrays. The structures are centred, stored by component (x[n], y[n], z[n]).
struct AlignmentTeamJob {
  const double* fixed;           ///< [3n] the structure aligned onto
  const double* moved;           ///< [3n] the structure rotated and permuted
  const double* startRotations;  ///< the call's own start rotations, 9 each, row-major
  const double* randomRotations;  ///< the call's shared random start rotations, 9 each
  const int* startFlags;          ///< [M] alignmentStartFlags()
  int starts;                     ///< M
  double* scores;                ///< [M] the starts' bounds
  int* order;                    ///< [M] the starts by bound
  int* started;                  ///< [M] the refined starts: step 3's, then step 4's
  double* fits;          ///< [10 (K + 1)] per refinement: squared, rotation (slot K: step 3)
  int* fitPermutations;  ///< [n (K + 1)]
  double* inOrder;       ///< [18] the rotations of the fits in the given order
  AlignmentTeamOutcome* outcome;
  int* permutation;  ///< [n] the best fit's
};

/// A call's arrays, every pair's parts one after the other: per pair 6n coordinates (fixed x, y,
/// z, then moved x, y, z), 10 (K + 1) fit doubles, n (K + 1) fit ints, 18 in-order doubles, an
/// outcome and n permutation entries; per start (pair k's from firstStart[k] to
/// firstStart[k + 1]) a flag, a score, an order and a started entry. The rotations the flags
/// name: startRotations (every pair's own starts, 9 doubles each) and randomRotations (the random
/// starts every pair shares).
struct AlignmentTeamArrays {
  const double* coordinates;
  const double* startRotations;
  const double* randomRotations;
  const int* startFlags;
  const long long* firstStart;  ///< [pairs + 1]
  double* scores;
  int* order;
  int* started;
  double* fits;
  int* fitPermutations;
  double* inOrder;
  AlignmentTeamOutcome* outcomes;
  int* permutations;
};

/// Pair k's view of the call's arrays.
LANDSCAPE_HD AlignmentTeamJob alignmentTeamJob(const AlignmentTeamArrays& a,
                                               const AlignmentTeamSettings& set, int k) {
  const long n = set.atoms, slots = set.orientationTrials + 1;
  const long long first = a.firstStart[k];
  AlignmentTeamJob job;
  job.fixed = a.coordinates + 6 * n * k;
  job.moved = job.fixed + 3 * n;
  job.startRotations = a.startRotations;
  job.randomRotations = a.randomRotations;
  job.startFlags = a.startFlags + first;
  job.starts = static_cast<int>(a.firstStart[k + 1] - first);
  job.scores = a.scores + first;
  job.order = a.order + first;
  job.started = a.started + first;
  job.fits = a.fits + 10 * slots * k;
  job.fitPermutations = a.fitPermutations + n * slots * k;
  job.inOrder = a.inOrder + 18L * k;
  job.outcome = a.outcomes + k;
  job.permutation = a.permutations + n * k;
  return job;
}

/// A warp's work space: the moved structure in the current rotation and the assignment's state.
struct AlignmentWarpWork {
  double *bx, *by, *bz;  ///< [n] the moved structure, rotated
  double *u, *v;         ///< [n] row and column potentials
  double* distance;      ///< [n] shortest-path lengths to the columns
  int *columnOfRow, *rowOfColumn, *predecessor, *scanned, *previous, *pending;  ///< [n]
};
LANDSCAPE_HD int alignmentWarpDoubles(int atoms) { return 6 * atoms; }
LANDSCAPE_HD int alignmentWarpInts(int atoms) { return 6 * atoms; }
LANDSCAPE_HD AlignmentWarpWork alignmentWarpWork(double* d, int* i, int n) {
  return {d, d + n, d + 2 * n, d + 3 * n, d + 4 * n, d + 5 * n,
          i, i + n, i + 2 * n, i + 3 * n, i + 4 * n, i + 5 * n};
}

/// The order of least(): by value, then tie, then index.
struct AlignmentKey {
  double value;
  int tie;
};
LANDSCAPE_HD bool alignmentBefore(AlignmentKey x, int cx, AlignmentKey y, int cy) {
  if (x.value < y.value) return true;
  if (y.value < x.value) return false;
  if (x.tie != y.tie) return x.tie < y.tie;
  return cx < cy;
}

LANDSCAPE_HD double alignmentInfinity() { return __builtin_huge_val(); }

/// The proper rotation R (row-major) that maximises sum_i a_i . R b_i, from the correlation
/// s[3x + y] = sum_i (b_i)_x (a_i)_y: the unit quaternion of the largest eigenvalue of Horn's
/// symmetric 4 x 4 matrix (Horn 1987, eq. 40 ff.), its eigenvectors by cyclic Jacobi rotations.
LANDSCAPE_HD void alignmentRotationFromCorrelation(const double* s, double* r) {
  const double sxx = s[0], sxy = s[1], sxz = s[2], syx = s[3], syy = s[4], syz = s[5];
  const double szx = s[6], szy = s[7], szz = s[8];
  double m[4][4] = {{sxx + syy + szz, syz - szy, szx - sxz, sxy - syx},
                    {syz - szy, sxx - syy - szz, sxy + syx, szx + sxz},
                    {szx - sxz, sxy + syx, syy - sxx - szz, syz + szy},
                    {sxy - syx, szx + sxz, syz + szy, szz - sxx - syy}};
  double v[4][4] = {
      {1.0, 0.0, 0.0, 0.0}, {0.0, 1.0, 0.0, 0.0}, {0.0, 0.0, 1.0, 0.0}, {0.0, 0.0, 0.0, 1.0}};
  for (int sweep = 0; sweep < 50; ++sweep) {
    double off = 0.0, diagonal = 0.0;
    for (int p = 0; p < 4; ++p) {
      diagonal = diagonal + m[p][p] * m[p][p];
      for (int q = p + 1; q < 4; ++q) off = off + m[p][q] * m[p][q];
    }
    if (!(off > 1e-34 * diagonal)) break;  // off-diagonal below 1e-17 of the diagonal
    for (int p = 0; p < 3; ++p) {
      for (int q = p + 1; q < 4; ++q) {
        const double apq = m[p][q];
        if (apq == 0.0) continue;
        // The rotation that zeroes m[p][q] (the smaller angle).
        const double theta = (m[q][q] - m[p][p]) / (2.0 * apq);
        const double t = fabs(theta) > 1e150 ? 0.5 / theta
                                             : (theta >= 0.0 ? 1.0 : -1.0) /
                                                   (fabs(theta) + sqrt(theta * theta + 1.0));
        const double c = 1.0 / sqrt(t * t + 1.0), sn = t * c;
        m[p][p] = m[p][p] - t * apq;
        m[q][q] = m[q][q] + t * apq;
        m[p][q] = 0.0;
        m[q][p] = 0.0;
        for (int k = 0; k < 4; ++k) {
          if (k != p && k != q) {
            const double kp = m[k][p], kq = m[k][q];
            m[k][p] = c * kp - sn * kq;
            m[p][k] = m[k][p];
            m[k][q] = sn * kp + c * kq;
            m[q][k] = m[k][q];
          }
          const double vp = v[k][p], vq = v[k][q];
          v[k][p] = c * vp - sn * vq;
          v[k][q] = sn * vp + c * vq;
        }
      }
    }
  }
  int top = 0;
  for (int k = 1; k < 4; ++k)
    if (m[k][k] > m[top][top]) top = k;
  const double norm = sqrt(v[0][top] * v[0][top] + v[1][top] * v[1][top] + v[2][top] * v[2][top] +
                           v[3][top] * v[3][top]);
  const double w = v[0][top] / norm, x = v[1][top] / norm, y = v[2][top] / norm,
               z = v[3][top] / norm;
  r[0] = w * w + x * x - y * y - z * z;
  r[1] = 2.0 * (x * y - w * z);
  r[2] = 2.0 * (x * z + w * y);
  r[3] = 2.0 * (x * y + w * z);
  r[4] = w * w - x * x + y * y - z * z;
  r[5] = 2.0 * (y * z - w * x);
  r[6] = 2.0 * (x * z - w * y);
  r[7] = 2.0 * (y * z + w * x);
  r[8] = w * w - x * x - y * y + z * z;
}

/// Where a start's rotation lies: its own in startRotations, the fit in the given order of a
/// chirality (computed by the program), or a shared random one.
enum AlignmentStartSource { kOwnStart = 0, kInOrderStart = 1, kRandomStart = 2 };

/// A start's flag: bit 0 inverted, bits 1-2 the source, the rest the index within the source.
LANDSCAPE_HD int alignmentStartFlags(bool inverted, AlignmentStartSource source, int index) {
  return (inverted ? 1 : 0) | (static_cast<int>(source) << 1) | (index << 3);
}

/// The rotation a start names.
LANDSCAPE_HD const double* alignmentStartRotation(const AlignmentTeamJob& job, int k) {
  const int flags = job.startFlags[k];
  const long index = flags >> 3;
  switch ((flags >> 1) & 3) {
    case kInOrderStart:
      return job.inOrder + 9 * index;
    case kRandomStart:
      return job.randomRotations + 9 * index;
    default:
      return job.startRotations + 9 * index;
  }
}
LANDSCAPE_HD bool alignmentStartInverted(const AlignmentTeamJob& job, int k) {
  return (job.startFlags[k] & 1) != 0;
}

/// |fixed_i - b_j|^2 for the warp's rotated b.
LANDSCAPE_HD double alignmentCost(const double* fixed, int n, const AlignmentWarpWork& w, int i,
                                  int j) {
  const double dx = fixed[i] - w.bx[j], dy = fixed[n + i] - w.by[j],
               dz = fixed[2 * n + i] - w.bz[j];
  return dx * dx + dy * dy + dz * dz;
}

/// The warp's b := R (s moved), s = -1 if inverted.
template <class Warp>
LANDSCAPE_HD void alignmentRotateMoved(Warp& warp, const AlignmentTeamJob& job, int n,
                                       const double* r, bool inverted) {
  AlignmentWarpWork& w = warp.work();
  const double s = inverted ? -1.0 : 1.0;
  warp.forLanes(n, [&](int j) {
    const double x = s * job.moved[j], y = s * job.moved[n + j], z = s * job.moved[2 * n + j];
    w.bx[j] = r[0] * x + r[1] * y + r[2] * z;
    w.by[j] = r[3] * x + r[4] * y + r[5] * z;
    w.bz[j] = r[6] * x + r[7] * y + r[8] * z;
  });
  warp.sync();
}

/// sum_i min_j |a_i - b_j|^2 for the warp's rotated b: a lower bound on the squared distance in
/// this orientation.
template <class Warp>
LANDSCAPE_HD double alignmentBound(Warp& warp, const AlignmentTeamJob& job, int n) {
  const AlignmentWarpWork& w = warp.work();
  const double bound = warp.template sum<1>(n,
                                            [&](int i) {
                                              double nearest = alignmentInfinity();
                                              for (int j = 0; j < n; ++j) {
                                                const double c =
                                                    alignmentCost(job.fixed, n, w, i, j);
                                                nearest = c < nearest ? c : nearest;
                                              }
                                              return TeamSum<1>{{nearest}};
                                            })
                           .v[0];
  warp.sync();
  return bound;
}

/// The optimal proper rotation r for fixed atom i matched to moved atom perm[i] (perm null: the
/// given order), the moved structure inverted first when `inverted`.
template <class Warp>
LANDSCAPE_HD void alignmentKabsch(Warp& warp, const AlignmentTeamJob& job, int n, const int* perm,
                                  bool inverted, double* r) {
  const double s = inverted ? -1.0 : 1.0;
  const TeamSum<9> m = warp.template sum<9>(n, [&](int i) {
    const int j = perm ? perm[i] : i;
    const double bx = s * job.moved[j], by = s * job.moved[n + j], bz = s * job.moved[2 * n + j];
    const double ax = job.fixed[i], ay = job.fixed[n + i], az = job.fixed[2 * n + i];
    return TeamSum<9>{
        {bx * ax, bx * ay, bx * az, by * ax, by * ay, by * az, bz * ax, bz * ay, bz * az}};
  });
  alignmentRotationFromCorrelation(m.v, r);
}

/// sum_i |a_i - r (s b_perm[i])|^2.
template <class Warp>
LANDSCAPE_HD double alignmentDeviation(Warp& warp, const AlignmentTeamJob& job, int n,
                                       const int* perm, bool inverted, const double* r) {
  const double s = inverted ? -1.0 : 1.0;
  return warp
      .template sum<1>(n,
                       [&](int i) {
                         const int j = perm ? perm[i] : i;
                         const double x = s * job.moved[j], y = s * job.moved[n + j],
                                      z = s * job.moved[2 * n + j];
                         const double dx = job.fixed[i] - (r[0] * x + r[1] * y + r[2] * z);
                         const double dy = job.fixed[n + i] - (r[3] * x + r[4] * y + r[5] * z);
                         const double dz = job.fixed[2 * n + i] - (r[6] * x + r[7] * y + r[8] * z);
                         return TeamSum<1>{{dx * dx + dy * dy + dz * dz}};
                       })
      .v[0];
}

/// The shortest augmenting path from unassigned row `start` (Dijkstra over alternating paths in
/// reduced costs), then the potentials' shift and the path's flip, as the host solver
/// (landscape/geometry/Hungarian.cpp) does. Among columns at the least distance a free one is
/// taken first (it ends the search), then the lowest index.
template <class Warp>
LANDSCAPE_HD void alignmentAugment(Warp& warp, const double* fixed, int n, int start) {
  AlignmentWarpWork& w = warp.work();
  warp.forLanes(n, [&](int j) {
    w.distance[j] = alignmentInfinity();
    w.predecessor[j] = -1;
    w.scanned[j] = 0;
  });
  warp.sync();
  double reached = 0.0;
  int i = start, sink = -1;
  while (sink < 0) {
    const double base = reached - w.u[i];
    warp.forLanes(n, [&](int j) {
      if (w.scanned[j]) return;
      const double path = base + alignmentCost(fixed, n, w, i, j) - w.v[j];
      if (path < w.distance[j]) {
        w.distance[j] = path;
        w.predecessor[j] = i;
      }
    });
    warp.sync();
    const int j = warp.least(n, [&](int c) {
      return w.scanned[c] ? AlignmentKey{alignmentInfinity(), 2}
                          : AlignmentKey{w.distance[c], w.rowOfColumn[c] < 0 ? 0 : 1};
    });
    reached = w.distance[j];
    const int row = w.rowOfColumn[j];
    warp.sync();
    if (warp.isLeader()) w.scanned[j] = 1;
    warp.sync();
    if (row < 0)
      sink = j;
    else
      i = row;
  }
  // The scanned rows other than start are those of the scanned columns other than the sink.
  warp.forLanes(n, [&](int j) {
    if (!w.scanned[j] || j == sink) return;
    const double shift = reached - w.distance[j];
    w.u[w.rowOfColumn[j]] += shift;
    w.v[j] -= shift;
  });
  warp.sync();
  if (warp.isLeader()) {
    w.u[start] += reached;
    for (int j = sink;;) {
      const int r = w.predecessor[j];
      w.rowOfColumn[j] = r;
      const int previous = w.columnOfRow[r];
      w.columnOfRow[r] = j;
      if (r == start) break;
      j = previous;
    }
  }
  warp.sync();
}

/// w.columnOfRow := the assignment of least total cost |a_i - b_j|^2 for the warp's rotated b,
/// from the column potentials in w.v (kept for the next solve): Jonker and Volgenant's row
/// reduction, then an augmenting path for each row it left over.
template <class Warp>
LANDSCAPE_HD void alignmentAssign(Warp& warp, const double* fixed, int n) {
  AlignmentWarpWork& w = warp.work();
  warp.forLanes(n, [&](int c) {
    w.columnOfRow[c] = -1;
    w.rowOfColumn[c] = -1;
  });
  warp.sync();
  int pending = 0;
  for (int i = 0; i < n; ++i) {
    const int best = warp.least(n, [&](int j) {
      return AlignmentKey{alignmentCost(fixed, n, w, i, j) - w.v[j], 0};
    });
    const double u = alignmentCost(fixed, n, w, i, best) - w.v[best];
    const bool taken = w.rowOfColumn[best] >= 0;
    warp.sync();  // every lane has read the column's row before the leader writes it
    if (warp.isLeader()) {
      w.u[i] = u;
      if (taken) {
        w.pending[pending] = i;
      } else {
        w.rowOfColumn[best] = i;
        w.columnOfRow[i] = best;
      }
    }
    if (taken) ++pending;
    warp.sync();
  }
  for (int p = 0; p < pending; ++p) alignmentAugment(warp, fixed, n, w.pending[p]);
}

/// Refines a start into fit slot `slot` by the host search's alternation (AlignmentSearch's
/// descend): the optimal permutation for the rotation, then the optimal rotation for that
/// permutation, until the permutation repeats, the distance stops falling by `convergence`, or
/// maxIterations. The slot's squared is infinity if no step was taken.
template <class Warp>
LANDSCAPE_HD void alignmentDescend(Warp& warp, const AlignmentTeamSettings& set,
                                   const AlignmentTeamJob& job, const double* start, bool inverted,
                                   int slot) {
  const int n = set.atoms;
  AlignmentWarpWork& w = warp.work();
  double* fit = job.fits + 10 * slot;
  int* fitPermutation = job.fitPermutations + static_cast<long>(n) * slot;
  double rotation[9];
  for (int k = 0; k < 9; ++k) rotation[k] = start[k];
  alignmentRotateMoved(warp, job, n, rotation, inverted);
  // The first assignment starts from each column's least cost, as the host's refine() does.
  warp.forLanes(n, [&](int j) {
    double least = alignmentInfinity();
    for (int i = 0; i < n; ++i) {
      const double c = alignmentCost(job.fixed, n, w, i, j);
      least = c < least ? c : least;
    }
    w.v[j] = least;
  });
  warp.sync();
  if (warp.isLeader()) fit[0] = alignmentInfinity();
  double best = alignmentInfinity();
  for (int iteration = 0; iteration < set.maxIterations; ++iteration) {
    alignmentAssign(warp, job.fixed, n);
    if (iteration > 0 && !warp.any(n, [&](int i) { return w.columnOfRow[i] != w.previous[i]; }))
      break;
    double next[9];
    alignmentKabsch(warp, job, n, w.columnOfRow, inverted, next);
    const double squared = alignmentDeviation(warp, job, n, w.columnOfRow, inverted, next);
    if (!(squared < best)) break;
    const double gain = sqrt(best) - sqrt(squared);
    best = squared;
    warp.forLanes(n, [&](int i) {
      fitPermutation[i] = w.columnOfRow[i];
      w.previous[i] = w.columnOfRow[i];
    });
    if (warp.isLeader()) {
      fit[0] = squared;
      for (int k = 0; k < 9; ++k) fit[1 + k] = next[k];
    }
    warp.sync();
    if (gain < set.convergence || sqrt(squared) < set.convergence) break;
    for (int k = 0; k < 9; ++k) rotation[k] = next[k];
    alignmentRotateMoved(warp, job, n, rotation, inverted);
  }
}

/// The outcome takes the fit if it is strictly better (perm null: the given order).
template <class Warp>
LANDSCAPE_HD void alignmentConsider(Warp& warp, const AlignmentTeamJob& job, int n, double squared,
                                    const double* rotation, bool inverted, const int* perm) {
  const bool better = squared < job.outcome->squared;
  warp.sync();
  if (!better) return;
  warp.forLanes(n, [&](int i) { job.permutation[i] = perm ? perm[i] : i; });
  if (warp.isLeader()) {
    job.outcome->squared = squared;
    for (int k = 0; k < 9; ++k) job.outcome->rotation[k] = rotation[k];
    job.outcome->inverted = inverted ? 1 : 0;
  }
  warp.sync();
}

/// Fit slot `slot` offered to the outcome.
template <class Warp>
LANDSCAPE_HD void alignmentConsiderSlot(Warp& warp, const AlignmentTeamSettings& set,
                                        const AlignmentTeamJob& job, int slot, bool inverted) {
  const double* fit = job.fits + 10 * slot;
  alignmentConsider(warp, job, set.atoms, fit[0], fit + 1, inverted,
                    job.fitPermutations + static_cast<long>(set.atoms) * slot);
}

/// Whether two starts are the same orientation for the search (kDistinctRotation of
/// AlignmentStarts.h, passed in: Frobenius distance of their rotations below it, same chirality).
LANDSCAPE_HD bool alignmentSameStart(const AlignmentTeamJob& job, int x, int y, double distinct) {
  if (alignmentStartInverted(job, x) != alignmentStartInverted(job, y)) return false;
  const double* rx = alignmentStartRotation(job, x);
  const double* ry = alignmentStartRotation(job, y);
  double squared = 0.0;
  for (int k = 0; k < 9; ++k) {
    const double d = rx[k] - ry[k];
    squared = squared + d * d;
  }
  return sqrt(squared) < distinct;
}

/// The whole search of one pair (steps 1-5 above). `distinct`: kDistinctRotation.
template <class Block>
LANDSCAPE_HD void alignmentTeamRun(Block& block, const AlignmentTeamSettings& set,
                                   const AlignmentTeamJob& job, double distinct) {
  const int n = set.atoms, starts = job.starts, trialsAllowed = set.orientationTrials;
  const double exact = set.convergence * set.convergence;
  // 1. The fits in the given order.
  block.withLeaderWarp([&](auto& warp) {
    if (warp.isLeader()) {
      job.outcome->squared = alignmentInfinity();
      for (int k = 0; k < 9; ++k) job.outcome->rotation[k] = k % 4 == 0 ? 1.0 : 0.0;
      job.outcome->inverted = 0;
      job.outcome->nowRefined = 0;
      job.outcome->trials = 0;
    }
    warp.forLanes(n, [&](int i) { job.permutation[i] = i; });
    warp.sync();
    for (int c = 0; c < set.chiralities; ++c) {
      double r[9];
      alignmentKabsch(warp, job, n, nullptr, c == 1, r);
      const double squared = alignmentDeviation(warp, job, n, nullptr, c == 1, r);
      if (warp.isLeader())
        for (int k = 0; k < 9; ++k) job.inOrder[9 * c + k] = r[k];
      alignmentConsider(warp, job, n, squared, r, c == 1, nullptr);
    }
  });
  if (!set.permutations || job.outcome->squared < exact) return;

  // 2. Every start's bound.
  block.forWarpItems(starts, [&](int k, auto& warp) {
    alignmentRotateMoved(warp, job, n, alignmentStartRotation(job, k),
                         alignmentStartInverted(job, k));
    const double bound = alignmentBound(warp, job, n);
    if (warp.isLeader()) job.scores[k] = bound;
    warp.sync();
  });

  // 3. Starts already at ~0 refined in their order, until one is exact.
  block.withLeaderWarp([&](auto& warp) {
    int now = 0;
    for (int k = 0; k < starts && !(job.outcome->squared < exact); ++k) {
      if (!(job.scores[k] <= exact)) continue;
      const bool inverted = alignmentStartInverted(job, k);
      alignmentDescend(warp, set, job, alignmentStartRotation(job, k), inverted, trialsAllowed);
      alignmentConsiderSlot(warp, set, job, trialsAllowed, inverted);
      if (warp.isLeader()) job.started[now] = k;
      ++now;
      warp.sync();
    }
    if (warp.isLeader()) job.outcome->nowRefined = now;
    warp.sync();
  });
  if (job.outcome->squared < exact) return;

  // 4. The starts ranked by bound (a stable order: ties by index), then the best distinct ones.
  block.forThreads(starts, [&](int k) {
    const double score = job.scores[k];
    int rank = 0;
    for (int j = 0; j < starts; ++j) {
      const double other = job.scores[j];
      if (other < score || (other == score && j < k)) ++rank;
    }
    job.order[rank] = k;
  });
  block.withLeaderWarp([&](auto& warp) {
    int started = job.outcome->nowRefined, trials = 0;
    for (int r = 0; r < starts && trials < trialsAllowed; ++r) {
      const int k = job.order[r];
      if (job.scores[k] <= exact) continue;  // refined in step 3
      if (warp.any(started,
                   [&](int s) { return alignmentSameStart(job, job.started[s], k, distinct); }))
        continue;
      if (warp.isLeader()) job.started[started] = k;
      ++started;
      ++trials;
      warp.sync();
    }
    if (warp.isLeader()) job.outcome->trials = trials;
    warp.sync();
  });

  // 5. The chosen starts refined side by side, then taken in rank order up to an exact fit.
  const int first = job.outcome->nowRefined, trials = job.outcome->trials;
  block.forWarpItems(trials, [&](int t, auto& warp) {
    const int k = job.started[first + t];
    alignmentDescend(warp, set, job, alignmentStartRotation(job, k), alignmentStartInverted(job, k),
                     t);
  });
  block.withLeaderWarp([&](auto& warp) {
    for (int t = 0; t < trials && !(job.outcome->squared < exact); ++t)
      alignmentConsiderSlot(warp, set, job, t, alignmentStartInverted(job, job.started[first + t]));
  });
}

}  // namespace landscape
