#pragma once
// Team evaluation of a Lennard-Jones cluster in shared memory, each pair once, in the pair
// schedule of potentials/PairTileSchedule.h: groups of w lanes work on tile slots, the partner
// atom and its gradient accumulator travelling one lane per round by shuffles within the group;
// accumulators are flushed into the gradient in two barrier-separated phases whose targets the
// schedule keeps distinct. No atomics: every gradient entry and the energy are summed in an order
// fixed by the schedule, which potentials/LennardJonesTeam reproduces on the CPU bit for bit.
// Included only from .cu files compiled with -fmad=false.
#include <cuda_runtime.h>

#include "potentials/LennardJonesTeamTerms.h"
#include "potentials/PairTileSchedule.h"
#include "potentials/TeamTerms.h"

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

__device__ __forceinline__ void loadAtom(const double* x, int atom, int atoms, double* out) {
  for (int c = 0; c < 3; ++c) out[c] = atom < atoms ? x[3 * atom + c] : 0.0;
}

// Every lane of the group takes v from lane `source` of the group (width w).
__device__ __forceinline__ void shuffle3(double* v, unsigned mask, int source, int w) {
  for (int c = 0; c < 3; ++c) v[c] = __shfl_sync(mask, v[c], source, w);
}

// Tile a x tile b (w rounds); on return gradA holds this lane's atom of a, gradB its atom of b.
__device__ __forceinline__ void crossTiles(const double* x, int atoms, int w, int lane,
                                           unsigned mask, int a, int b, double* gradA,
                                           double* gradB, double& energy) {
  double xi[3], xj[3];
  const int i = a * w + lane;
  loadAtom(x, i, atoms, xi);
  loadAtom(x, b * w + lane, atoms, xj);
  const int next = (lane + 1) & (w - 1);
  for (int k = 0; k < w; ++k) {
    const int j = b * w + ((lane + k) & (w - 1));
    if (i < atoms && j < atoms) lennardJonesTeamPair(xi, xj, gradA, gradB, energy);
    shuffle3(xj, mask, next, w);
    shuffle3(gradB, mask, next, w);
  }
}

// The pairs inside tile c (w/2 rounds); grad = this lane's own plus travelling accumulator.
__device__ __forceinline__ void diagonalTile(const double* x, int atoms, int w, int lane,
                                             unsigned mask, int c, double* grad, double& energy) {
  double xi[3], xj[3], own[3] = {0.0, 0.0, 0.0}, travelling[3] = {0.0, 0.0, 0.0};
  const int i = c * w + lane, half = w / 2;
  loadAtom(x, i, atoms, xi);
  for (int e = 0; e < 3; ++e) xj[e] = xi[e];
  const int next = (lane + 1) & (w - 1);
  for (int k = 1; k <= half; ++k) {
    shuffle3(xj, mask, next, w);
    shuffle3(travelling, mask, next, w);
    const int j = c * w + ((lane + k) & (w - 1));
    if ((k < half || lane < half) && i < atoms && j < atoms)
      lennardJonesTeamPair(xi, xj, own, travelling, energy);
  }
  shuffle3(travelling, mask, (lane + half) & (w - 1), w);  // home: atom lane's accumulator
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

/// Energy (epsilon) at x, gradient into g (both shared memory, 3N doubles); every thread of the
/// team must call it and every thread receives the energy. Starts with team.sync() and ends with
/// the owners scaling their own gradient components, so g[c] is ready for its owner thread (the
/// rest of the team after the next sync).
template <class Team>
__device__ double teamLennardJones(Team& team, const TeamPairSchedule& schedule, const double* x,
                                   double* g) {
  team.forEach([&](int c) { g[c] = 0.0; });
  team.sync();
  const int w = schedule.tileWidth, atoms = schedule.atoms;
  const int group = threadIdx.x / w, lane = threadIdx.x & (w - 1);
  const int warpLane = threadIdx.x & (kTeamWarpSize - 1);
  const unsigned mask =
      w == kTeamWarpSize ? 0xffffffffu : ((1u << w) - 1u) << (warpLane & ~(w - 1));
  double energy = 0.0;
  for (int s = 0; s < schedule.steps; ++s) {
    const PairSlot slot = teamlj::loadSlot(schedule.slots + s * schedule.groups + group);
    double first[3] = {0.0, 0.0, 0.0}, second[3] = {0.0, 0.0, 0.0};
    if (slot.kind == kPairSlotCross) {
      teamlj::crossTiles(x, atoms, w, lane, mask, slot.first, slot.second, first, second, energy);
    } else if (slot.kind != kPairSlotIdle) {
      teamlj::diagonalTile(x, atoms, w, lane, mask, slot.first, first, energy);
      if (slot.kind == kPairSlotDiagonalPair)
        teamlj::diagonalTile(x, atoms, w, lane, mask, slot.second, second, energy);
    }
    const bool busy = slot.kind != kPairSlotIdle;
    if (busy) teamlj::flush(g, slot.first, w, lane, atoms, first);
    team.sync();
    if (busy) teamlj::flush(g, slot.second, w, lane, atoms, second);
    team.sync();
  }
  team.forEach([&](int c) { g[c] = kLennardJonesTeamGradientScale * g[c]; });
  return kLennardJonesTeamEnergyScale * team.template reduce<1>(TeamSum<1>{{energy}}).v[0];
}

}  // namespace landscape
