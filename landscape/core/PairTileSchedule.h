#pragma once
// Which pairs each thread of a team evaluates, and when, so that every pair i < j is computed once
// per evaluation and every gradient entry is summed in one fixed order without atomics.
//
// The N atoms are cut into T = ceil(N / w) tiles of w atoms (w = 4, 8, 16 or 32). The team's
// threads form groups of w consecutive lanes of one warp. A group works on one slot at a time:
//   Cross (a, b)        all w x w pairs between tiles a and b: at round k = 0..w-1 lane l pairs
//                       atom a w + l with atom b w + (l + k) mod w, the partner's position and
//                       gradient accumulator moving one lane down per round (shuffles), so that
//                       after w rounds each accumulator is home;
//   DiagonalPair (c, d) the w (w - 1) / 2 pairs inside tile c, then those inside tile d (rounds
//                       k = 1..w/2, at k = w/2 only lanes l < w/2), w rounds in all;
//   DiagonalSingle (c)  tile c alone (the odd tile out); Idle: nothing.
// A step is one slot per group, then two flushes separated by team barriers: first every group
// adds its lanes' accumulators of tile `first` into the gradient, then those of tile `second`.
// The schedule guarantees that the `first` tiles of a step are distinct, and so are the `second`
// tiles, so no two lanes ever add into one gradient entry at once, and the order of additions
// into every entry is fixed by the schedule alone. Every step is of one kind: all its busy slots
// are Cross, or all are diagonal (DiagonalPair or DiagonalSingle), and PairSlot::step says which,
// idle slots included; so all lanes of a warp run the same rounds and shuffle with a full mask
// (an idle group runs them too, on no atoms: every pair of it is invalid). Cross steps come first.
// A diagonal step none of whose slots has a second tile (step = DiagonalSingle) runs w/2 rounds,
// every other step w.
#include <cstdint>
#include <vector>

namespace landscape {

enum PairSlotKind : std::int16_t {
  kPairSlotIdle = 0,
  kPairSlotCross = 1,
  kPairSlotDiagonalPair = 2,
  kPairSlotDiagonalSingle = 3,
};

/// One group's work in one step (8 bytes, copied to the device as is).
struct PairSlot {
  std::int16_t kind;    ///< PairSlotKind
  std::int16_t first;   ///< tile flushed in the first phase (Cross: a; diagonals: c)
  std::int16_t second;  ///< tile flushed in the second phase (Cross: b; DiagonalPair: d), else -1
  std::int16_t step;    ///< the step's kind: Cross, DiagonalPair (diagonals) or DiagonalSingle
                        ///< (diagonals of first tiles only)
};

struct PairTileSchedule {
  int atoms = 0;      ///< N >= 2
  int tileWidth = 0;  ///< w: 4, 8, 16 or 32 (lanes per group, atoms per tile)
  int groups = 0;     ///< G = team threads / w
  int steps = 0;
  std::vector<PairSlot> slots;  ///< [steps x groups]: group q's slot at step s is slots[s G + q]

  int tiles() const { return (atoms + tileWidth - 1) / tileWidth; }
  /// Pair rounds a lane runs per evaluation (the schedule's length).
  int rounds() const {
    int r = 0;
    for (int s = 0; s < steps; ++s)
      r += slots[s * groups].step == kPairSlotDiagonalSingle ? tileWidth / 2 : tileWidth;
    return r;
  }
};

/// Greedy packing of the tile pairs into steps, cross pairs by cyclic shift classes (tile a with
/// a + s mod T, s = 1.. T/2) into cross steps, then the diagonal tiles two by two into diagonal
/// steps. Throws std::invalid_argument
/// naming the bad argument (atoms >= 2, tileWidth in {4, 8, 16, 32}, teamThreads a multiple of
/// 32 in [32, 1024], at most 32767 tiles).
PairTileSchedule buildPairTileSchedule(int atoms, int tileWidth, int teamThreads);

/// The tile width whose schedule is shortest for `atoms` on `teamThreads` threads, counting each
/// step as its pair rounds plus kPairStepOverheadRounds for its loads, flushes and barriers.
int choosePairTileWidth(int atoms, int teamThreads);
constexpr int kPairStepOverheadRounds = 2;

}  // namespace landscape
