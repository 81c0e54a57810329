// Compiled with -ffp-contract=off (CMakeLists.txt): the GPU twin adds and multiplies separately.
#include "potentials/LennardJonesTeam.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "potentials/LennardJonesTeamTerms.h"
#include "landscape/core/TeamTerms.h"

namespace landscape {
namespace {

// The position the kernel reads for `atom` of a tile: a padding atom reads the last atom
// (gpu/TeamLennardJones.cuh).
const double* atomAt(const double* x, int atom, int atoms) {
  return x + 3 * std::min(atom, atoms - 1);
}

// Tile a x tile b, rounds k = 0..w-1: lane l with partner (l + k) mod w, the partner's
// accumulator travelling with it (gpu/TeamLennardJones.cuh rotates it one lane per round). Pairs
// with a padding atom are computed as the kernel computes them, and selected away.
void crossTiles(const double* x, int atoms, int w, int a, int b, double* laneEnergy, double* gradA,
                double* gradB) {
  for (int k = 0; k < w; ++k) {
    for (int l = 0; l < w; ++l) {
      const int q = (l + k) & (w - 1), i = a * w + l, j = b * w + q;
      lennardJonesTeamPair(atomAt(x, i, atoms), atomAt(x, j, atoms), gradA + 3 * l, gradB + 3 * q,
                           laneEnergy[l], i < atoms && j < atoms);
    }
  }
}

// The pairs inside tile c, rounds k = 1..w/2 (the last valid only for lanes l < w/2, which would
// otherwise meet their partners twice); a lane's own and travelling accumulators are then added.
void diagonalTile(const double* x, int atoms, int w, int c, double* laneEnergy, double* grad) {
  double own[32 * 3] = {}, travelling[32 * 3] = {};
  for (int k = 1; k <= w / 2; ++k) {
    for (int l = 0; l < w; ++l) {
      const int q = (l + k) & (w - 1), i = c * w + l, j = c * w + q;
      lennardJonesTeamPair(atomAt(x, i, atoms), atomAt(x, j, atoms), own + 3 * l,
                           travelling + 3 * q, laneEnergy[l],
                           (k < w / 2 || l < w / 2) && i < atoms && j < atoms);
    }
  }
  for (int e = 0; e < 3 * w; ++e) grad[e] = own[e] + travelling[e];
}

}  // namespace

LennardJonesTeam::LennardJonesTeam(PairTileSchedule schedule, int teamThreads)
    : m_schedule(std::move(schedule)), m_threads(teamThreads) {
  if (m_schedule.groups * m_schedule.tileWidth != teamThreads)
    throw std::invalid_argument("LennardJonesTeam: the schedule was built for " +
                                std::to_string(m_schedule.groups * m_schedule.tileWidth) +
                                " threads, not " + std::to_string(teamThreads));
  m_laneEnergy.assign(teamThreads, 0.0);
  m_first.assign(3 * teamThreads, 0.0);
  m_second.assign(3 * teamThreads, 0.0);
}

// An idle group, and the empty second half of a diagonal step for a DiagonalSingle slot, compute
// only invalid pairs in the kernel: energy partials keep their bits and their accumulators are
// never flushed, so the twin skips them.
void LennardJonesTeam::evaluateSlot(const PairSlot& slot, const double* x, int group) {
  const int w = m_schedule.tileWidth, atoms = m_schedule.atoms;
  double* energy = m_laneEnergy.data() + group * w;
  double* first = m_first.data() + 3 * group * w;
  double* second = m_second.data() + 3 * group * w;
  std::fill(first, first + 3 * w, 0.0);
  std::fill(second, second + 3 * w, 0.0);
  if (slot.kind == kPairSlotCross) {
    crossTiles(x, atoms, w, slot.first, slot.second, energy, first, second);
  } else if (slot.kind == kPairSlotDiagonalPair || slot.kind == kPairSlotDiagonalSingle) {
    diagonalTile(x, atoms, w, slot.first, energy, first);
    if (slot.kind == kPairSlotDiagonalPair) diagonalTile(x, atoms, w, slot.second, energy, second);
  }
}

void LennardJonesTeam::flush(const PairSlot& slot, int group, bool firstPhase, double* g) const {
  const int w = m_schedule.tileWidth;
  const int tile = firstPhase ? slot.first : slot.second;
  if (slot.kind == kPairSlotIdle || tile < 0) return;
  const double* acc = (firstPhase ? m_first.data() : m_second.data()) + 3 * group * w;
  for (int l = 0; l < w; ++l) {
    const int atom = tile * w + l;
    if (atom >= m_schedule.atoms) continue;
    for (int c = 0; c < 3; ++c) g[3 * atom + c] = g[3 * atom + c] + acc[3 * l + c];
  }
}

double LennardJonesTeam::energyGradient(const double* x, double* g) {
  std::fill(g, g + 3 * m_schedule.atoms, 0.0);
  std::fill(m_laneEnergy.begin(), m_laneEnergy.end(), 0.0);
  for (int s = 0; s < m_schedule.steps; ++s) {
    const PairSlot* step = m_schedule.slots.data() + s * m_schedule.groups;
    for (int q = 0; q < m_schedule.groups; ++q) evaluateSlot(step[q], x, q);
    // Within a phase the tiles are distinct, so the group order here does not matter.
    for (int q = 0; q < m_schedule.groups; ++q) flush(step[q], q, true, g);
    for (int q = 0; q < m_schedule.groups; ++q) flush(step[q], q, false, g);
  }
  for (int c = 0; c < 3 * m_schedule.atoms; ++c) g[c] = kLennardJonesTeamGradientScale * g[c];
  return kLennardJonesTeamEnergyScale * teamSumMirror(m_laneEnergy.data(), m_threads);
}

}  // namespace landscape
