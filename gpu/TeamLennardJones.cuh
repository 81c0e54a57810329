#pragma once
// Team evaluation of a Lennard-Jones cluster in shared memory, each pair once, in the pair
// schedule of landscape/core/PairTileSchedule.h: groups of w lanes work on tile slots, each lane
// reading its partner atom of the round from shared memory and the partner's gradient
// accumulator travelling one lane per round by shuffles within the group;
// accumulators are flushed into the gradient in two barrier-separated phases whose targets the
// schedule keeps distinct. The tile width is a template parameter, so that the rounds unroll into
// straight-line code (invalid pairs are computed and selected away, the reciprocal has no branch:
// potentials/LennardJonesTeamTerms.h) and the compiler can overlap consecutive pairs. No atomics:
// every gradient entry and the energy are summed in an order fixed by the schedule, which
// potentials/LennardJonesTeam reproduces on the CPU bit for bit. Included only from .cu files
// compiled with -fmad=false.
#include <cuda_runtime.h>

#include <type_traits>

#include "potentials/LennardJonesTeamTerms.h"
#include "landscape/core/PairTileSchedule.h"
#include "landscape/core/TeamTerms.h"

namespace landscape {

/// The schedule as the kernel reads it (slots in device memory).
struct TeamPairSchedule {
  const PairSlot* slots = nullptr;  ///< [steps x groups]
  int steps = 0;
  int groups = 0;
  int tileWidth = 0;
  int atoms = 0;
};

namespace teamlj {

// Position of atom `atom` of a tile, clamped to the last atom: a padding atom of a partial tile
// reads a real position (finite; its pairs are invalid), as the twin does.
__device__ __forceinline__ const double* atomAt(const double* x, int atom, int last) {
  return x + 3 * min(atom, last);
}

__device__ __forceinline__ void load3(const double* p, double* out) {
  for (int c = 0; c < 3; ++c) out[c] = p[c];
}

// Atoms of tile t that exist (0 for t < 0).
__device__ __forceinline__ int tileAtoms(int t, int w, int atoms) {
  return t >= 0 ? atoms - t * w : 0;
}

// Every lane of the group takes v from lane `source` (mod W) of its group. All 32 lanes of the
// warp execute it: the schedule's steps are of one kind, so every group runs the same rounds.
template <int W>
__device__ __forceinline__ void shuffle3(double* v, int source) {
  for (int c = 0; c < 3; ++c) v[c] = __shfl_sync(0xffffffffu, v[c], source, W);
}

// Tile a x tile b (W rounds, lane l meets atom (l + k) mod W of b at round k, read from shared
// memory; its gradient accumulator travels one lane per round); on return gradA holds this
// lane's atom of a, gradB its atom of b. a = b = -1: an idle group (all pairs invalid; it reads
// tile 0).
template <int W>
__device__ __forceinline__ void crossTiles(const double* x, int atoms, int lane, int a, int b,
                                           double* gradA, double* gradB, double& energy) {
  const int last = atoms - 1;
  const bool laneValid = lane < tileAtoms(a, W, atoms);
  const int partners = tileAtoms(b, W, atoms);
  const int bFirst = max(b, 0) * W;
  double xi[3];
  load3(atomAt(x, max(a, 0) * W + lane, last), xi);
#pragma unroll
  for (int k = 0; k < W; ++k) {
    const int q = (lane + k) & (W - 1);
    double xj[3];
    load3(atomAt(x, bFirst + q, last), xj);
    lennardJonesTeamPair(xi, xj, gradA, gradB, energy, laneValid && q < partners);
    shuffle3<W>(gradB, lane + 1);
  }
}

// The pairs inside tile c (W/2 rounds, lane l meets atom (l + k) mod W at round k; at k = W/2
// only lanes below W/2, which would otherwise meet their partners twice); grad = this lane's own
// plus travelling accumulator. c = -1: nothing (all pairs invalid; it reads tile 0).
template <int W>
__device__ __forceinline__ void diagonalTile(const double* x, int atoms, int lane, int c,
                                             double* grad, double& energy) {
  double own[3] = {0.0, 0.0, 0.0}, travelling[3] = {0.0, 0.0, 0.0};
  const int last = atoms - 1;
  const int count = tileAtoms(c, W, atoms);
  const bool laneValid = lane < count;
  const int first = max(c, 0) * W;
  double xi[3];
  load3(atomAt(x, first + lane, last), xi);
#pragma unroll
  for (int k = 1; k <= W / 2; ++k) {
    if (k > 1) shuffle3<W>(travelling, lane + 1);  // zeros before the first pair
    const int q = (lane + k) & (W - 1);
    double xj[3];
    load3(atomAt(x, first + q, last), xj);
    lennardJonesTeamPair(xi, xj, own, travelling, energy,
                         laneValid && q < count && (k < W / 2 || lane < W / 2));
  }
  shuffle3<W>(travelling, lane + W / 2);  // home: atom lane's accumulator
  for (int e = 0; e < 3; ++e) grad[e] = own[e] + travelling[e];
}

__device__ __forceinline__ void flush(double* g, int tile, int w, int lane, int atoms,
                                      const double* acc) {
  const int atom = tile * w + lane;
  if (tile < 0 || atom >= atoms) return;
  for (int c = 0; c < 3; ++c) g[3 * atom + c] = g[3 * atom + c] + acc[c];
}

__device__ __forceinline__ PairSlot loadSlot(const PairSlot* slot) {
  static_assert(sizeof(PairSlot) == sizeof(long long), "PairSlot is read as one 8-byte word");
  const long long word = __ldg(reinterpret_cast<const long long*>(slot));
  PairSlot s;
  memcpy(&s, &word, sizeof s);
  return s;
}

}  // namespace teamlj

/// Energy (epsilon) at x, gradient into g (both shared memory, 3N doubles), for a schedule of
/// tile width W; every thread of the team must call it and every thread receives the energy.
/// Starts with team.sync() and ends with the owners scaling their own gradient components, so
/// g[c] is ready for its owner thread (the rest of the team after the next sync).
template <int W, class Team>
__device__ double teamLennardJones(Team& team, const TeamPairSchedule& schedule, const double* x,
                                   double* g) {
  team.forEach([&](int c) { g[c] = 0.0; });
  team.sync();
  const int atoms = schedule.atoms;
  const int group = team.rank() / W, lane = team.rank() & (W - 1);
  double energy = 0.0;
  PairSlot next = teamlj::loadSlot(schedule.slots + group);
  for (int s = 0; s < schedule.steps; ++s) {
    const PairSlot slot = next;  // the next step's slot is read while this one runs
    if (s + 1 < schedule.steps)
      next = teamlj::loadSlot(schedule.slots + (s + 1) * schedule.groups + group);
    double first[3] = {0.0, 0.0, 0.0}, second[3] = {0.0, 0.0, 0.0};
    if (slot.step == kPairSlotCross) {  // the same branch in every group of the step
      teamlj::crossTiles<W>(x, atoms, lane, slot.first, slot.second, first, second, energy);
    } else {
      teamlj::diagonalTile<W>(x, atoms, lane, slot.first, first, energy);
      if (slot.step == kPairSlotDiagonalPair)
        teamlj::diagonalTile<W>(x, atoms, lane, slot.second, second, energy);
    }
    teamlj::flush(g, slot.first, W, lane, atoms, first);
    team.sync();
    teamlj::flush(g, slot.second, W, lane, atoms, second);
    team.sync();
  }
  team.forEach([&](int c) { g[c] = kLennardJonesTeamGradientScale * g[c]; });
  return kLennardJonesTeamEnergyScale * team.template reduce<1>(TeamSum<1>{{energy}}).v[0];
}

/// Calls f(std::integral_constant<int, W>{}) for the tile width w (4, 8, 16 or 32).
template <class F>
void withTileWidth(int w, F f) {
  switch (w) {
    case 4:
      f(std::integral_constant<int, 4>{});
      break;
    case 8:
      f(std::integral_constant<int, 8>{});
      break;
    case 16:
      f(std::integral_constant<int, 16>{});
      break;
    default:
      f(std::integral_constant<int, 32>{});
      break;
  }
}

}  // namespace landscape
