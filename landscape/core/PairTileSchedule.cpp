#include "landscape/core/PairTileSchedule.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace landscape {
namespace {

PairSlot slot(PairSlotKind kind, int first, int second, PairSlotKind step) {
  return {kind, static_cast<std::int16_t>(first), static_cast<std::int16_t>(second),
          static_cast<std::int16_t>(step)};
}

// The cross tile pairs in the order the packer prefers: each cyclic shift class is a permutation
// of the tiles in both roles, so a class fills whole steps by itself.
std::vector<PairSlot> crossTasks(int tiles) {
  std::vector<PairSlot> tasks;
  for (int s = 1; 2 * s < tiles; ++s)
    for (int a = 0; a < tiles; ++a)
      tasks.push_back(slot(kPairSlotCross, a, (a + s) % tiles, kPairSlotCross));
  if (tiles % 2 == 0)
    for (int a = 0; 2 * a < tiles; ++a)
      tasks.push_back(slot(kPairSlotCross, a, a + tiles / 2, kPairSlotCross));
  return tasks;
}

std::vector<PairSlot> diagonalTasks(int tiles) {
  std::vector<PairSlot> tasks;
  for (int c = 0; c + 1 < tiles; c += 2)
    tasks.push_back(slot(kPairSlotDiagonalPair, c, c + 1, kPairSlotDiagonalPair));
  if (tiles % 2 == 1)
    tasks.push_back(slot(kPairSlotDiagonalSingle, tiles - 1, -1, kPairSlotDiagonalPair));
  return tasks;
}

// Greedy packing of `remaining` (tasks of one step kind) into steps appended to `schedule`.
void packSteps(std::vector<PairSlot> remaining, PairSlotKind step, PairTileSchedule& schedule) {
  std::vector<char> firstUsed(schedule.tiles()), secondUsed(schedule.tiles());
  while (!remaining.empty()) {
    std::fill(firstUsed.begin(), firstUsed.end(), 0);
    std::fill(secondUsed.begin(), secondUsed.end(), 0);
    std::vector<PairSlot> slots, later;
    for (const PairSlot& task : remaining) {
      const bool fits = static_cast<int>(slots.size()) < schedule.groups &&
                        !firstUsed[task.first] && (task.second < 0 || !secondUsed[task.second]);
      if (!fits) {
        later.push_back(task);
        continue;
      }
      firstUsed[task.first] = 1;
      if (task.second >= 0) secondUsed[task.second] = 1;
      slots.push_back(task);
    }
    bool secondTiles = false;
    for (const PairSlot& s : slots) secondTiles = secondTiles || s.second >= 0;
    const PairSlotKind kind =
        step == kPairSlotCross || secondTiles ? step : kPairSlotDiagonalSingle;
    for (PairSlot& s : slots) s.step = static_cast<std::int16_t>(kind);
    slots.resize(schedule.groups, slot(kPairSlotIdle, -1, -1, kind));
    schedule.slots.insert(schedule.slots.end(), slots.begin(), slots.end());
    ++schedule.steps;
    remaining.swap(later);
  }
}

void checkArguments(int atoms, int tileWidth, int teamThreads) {
  if (atoms < 2)
    throw std::invalid_argument("pair tile schedule: atoms must be >= 2, got " +
                                std::to_string(atoms));
  if (tileWidth != 4 && tileWidth != 8 && tileWidth != 16 && tileWidth != 32)
    throw std::invalid_argument("pair tile schedule: tile width must be 4, 8, 16 or 32, got " +
                                std::to_string(tileWidth));
  if (teamThreads < 32 || teamThreads > 1024 || teamThreads % 32 != 0)
    throw std::invalid_argument(
        "pair tile schedule: team threads must be a multiple of 32 in [32, 1024], got " +
        std::to_string(teamThreads));
  if ((atoms + tileWidth - 1) / tileWidth > 32767)
    throw std::invalid_argument("pair tile schedule: at most 32767 tiles, got " +
                                std::to_string((atoms + tileWidth - 1) / tileWidth));
}

}  // namespace

PairTileSchedule buildPairTileSchedule(int atoms, int tileWidth, int teamThreads) {
  checkArguments(atoms, tileWidth, teamThreads);
  PairTileSchedule schedule;
  schedule.atoms = atoms;
  schedule.tileWidth = tileWidth;
  schedule.groups = teamThreads / tileWidth;
  packSteps(crossTasks(schedule.tiles()), kPairSlotCross, schedule);
  packSteps(diagonalTasks(schedule.tiles()), kPairSlotDiagonalPair, schedule);
  return schedule;
}

int choosePairTileWidth(int atoms, int teamThreads) {
  int best = 0;
  long bestCost = 0;
  for (int w : {32, 16, 8, 4}) {  // the widest wins a tie: fewer steps, fewer barriers
    const PairTileSchedule s = buildPairTileSchedule(atoms, w, teamThreads);
    const long cost =
        static_cast<long>(s.rounds()) + static_cast<long>(s.steps) * kPairStepOverheadRounds;
    if (best == 0 || cost < bestCost) {
      best = w;
      bestCost = cost;
    }
  }
  return best;
}

}  // namespace landscape
