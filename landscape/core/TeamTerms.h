#pragma once
// Reductions of a "team" -- the threads that own one structure in the batched GPU kernels
// (gpu/TeamDevice.cuh) -- and their CPU mirror, so that the CPU twin of a kernel adds in the
// order the GPU adds and both give the same bits.
//
// The order: thread t of a team of T threads (T a multiple of 32) adds its terms c = t, t + T, ...
// left to right starting from 0.0; each warp then combines its 32 partials by the xor butterfly
// v += shfl_xor(v, o) for o = 16, 8, 4, 2, 1 (every lane ends with the same bits because IEEE
// addition commutes); finally the warp totals are added left to right, warp 0 first.
#include "landscape/core/HostDevice.h"

namespace landscape {

/// R sums reduced together (one barrier for several dot products).
template <int R>
struct TeamSum {
  double v[R];
};

/// Threads in a warp, the unit of the butterfly.
constexpr int kTeamWarpSize = 32;

/// x is finite (neither NaN nor +-inf): x - x is 0 exactly then and NaN otherwise. Written out so
/// that host and device code need no isfinite overload.
LANDSCAPE_HD bool teamFinite(double x) { return x - x == 0.0; }

/// The butterfly of one warp's 32 partials as lane 0 computes it. Only lanes below o feed lane 0
/// at step o, so the other additions (equal by commutativity) are skipped. Overwrites `lanes`.
inline double warpButterflyMirror(double* lanes) {
  for (int o = kTeamWarpSize / 2; o >= 1; o /= 2)
    for (int l = 0; l < o; ++l) lanes[l] = lanes[l] + lanes[l + o];
  return lanes[0];
}

/// The sum of term(c) over c in [0, count) (a TeamSum<R>) as one GPU warp forms it: lane l adds
/// its terms c = l, l + 32, ... in order from 0.0, then the lanes combine by the butterfly.
template <int R, class F>
TeamSum<R> warpSumMirror(int count, F term) {
  double lanes[R][kTeamWarpSize];
  for (int l = 0; l < kTeamWarpSize; ++l) {
    TeamSum<R> s;
    for (int r = 0; r < R; ++r) s.v[r] = 0.0;
    for (int c = l; c < count; c += kTeamWarpSize) {
      const TeamSum<R> v = term(c);
      for (int r = 0; r < R; ++r) s.v[r] = s.v[r] + v.v[r];
    }
    for (int r = 0; r < R; ++r) lanes[r][l] = s.v[r];
  }
  TeamSum<R> out;
  for (int r = 0; r < R; ++r) out.v[r] = warpButterflyMirror(lanes[r]);
  return out;
}

/// The team total of `threads` per-thread partials (threads a multiple of 32), in the order of
/// the device reduction. Overwrites `partials`.
inline double teamSumMirror(double* partials, int threads) {
  double total = 0.0;
  for (int w = 0; w * kTeamWarpSize < threads; ++w) {
    const double warpTotal = warpButterflyMirror(partials + w * kTeamWarpSize);
    total = (w == 0) ? warpTotal : total + warpTotal;
  }
  return total;
}

}  // namespace landscape
