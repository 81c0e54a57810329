#pragma once
// What the round-based batched L-BFGS (gpu/BatchedLbfgsRoundsCuda) and its CPU twin
// (BatchedLbfgsRoundsTwin) share on the host: their options, the team size per structure (which
// fixes the order of every reduction, so both sides must agree on it) and the bytes of a slot.
#include <cstddef>
#include <string>

#include "landscape/minimisation/LbfgsParams.h"

namespace landscape {

struct BatchedRoundsOptions {
  /// Threads that own one structure (a multiple of 32, at most 1024): the GPU's block size and
  /// the twin's reduction order. 0: roundsTeamThreads(n).
  int threadsPerStructure = 0;
  /// Rounds (potential call + advance) between two looks of the host at the number of active
  /// structures (>= 1). Changes the time only, never a bit of a result.
  int roundsPerPoll = 32;
  /// Structures minimised at once (slots); finished ones are replaced from the waiting ones by a
  /// device queue. 0: the whole batch. Changes the time only, never a bit of a result.
  std::size_t residentStructures = 0;
  /// Capture the rounds between two polls in a CUDA graph (falls back to plain launches when the
  /// potential cannot be captured).
  bool useGraph = true;
  /// Packing of a batch's tail: at a poll at which at most 1/packFactor of the resident slots are
  /// still minimising (so no structure waits any more), those move to the first rows and the
  /// rounds go on over the first slots/packFactor^j rows only, j as large as fits them (never
  /// fewer than kRoundsPackedSlotsAtLeast rows). A round's kernels then launch over the rows still
  /// in use instead of every row of the batch: in a walker step's quench the slowest structures
  /// take about five times the mean number of calls, and those late rounds cost the launch of the
  /// whole batch. Only over a potential whose rows may move (BatchedPotential::rowsMayMove); 0:
  /// never. Changes the time only, never a bit of a result.
  int packFactor = 4;
  /// History size m from which a structure's direction is computed in the compact form
  /// (landscape/minimisation/LbfgsRoundsCompactTerms.h: the history work spread over the device in seven
  /// kernels) instead of the two-loop recursion in the structure's own block. 0: automatic
  /// (roundsCompactDirections); -1: never. The two paths differ by round-off; the GPU engine and
  /// its twin take the same one.
  int compactFromHistory = 0;

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

/// The fewest rows that BatchedRoundsOptions::packFactor packs a batch into: below a few blocks'
/// worth the launches cost the same whatever the rows.
inline constexpr std::size_t kRoundsPackedSlotsAtLeast = 32;

/// The rows that `live` structures still minimising over `slots` resident rows are packed into:
/// slots / packFactor^j for the largest j with live <= slots / packFactor^j and
/// slots / packFactor^j >= kRoundsPackedSlotsAtLeast; `slots` itself (no packing) when there is
/// no such j >= 1 or packFactor is 0.
std::size_t roundsPackedSlots(std::size_t slots, std::size_t live, int packFactor);

/// The automatic choice (BatchedRoundsOptions::compactFromHistory = 0): compact directions when
/// m >= kRoundsCompactAutoHistory, n >= kRoundsCompactAutoDimension and n >= 2 m. Why: the
/// two-loop recursion chains 2L + 1 reductions of the structure's block per direction; for a small
/// structure each is a warp's (~150 cycles) and a batch keeps the device busy, but for a protein
/// each reads n / T components per thread through one multiprocessor (myoglobin at m = 1000: ~14
/// us per pair, 24x the m = 4 step), while the compact form costs seven short launches per round
/// plus 4 L n + O(L^2) parallel work and 3 m^2 doubles per slot (bounded by n >= 2 m to at most
/// 3/4 of the history's bytes). Measured on an H100 (myoglobin, B = 1, ms per step, two-loop
/// against compact): m = 4 0.322 / 0.312, m = 16 0.426 / 0.310, m = 32 0.584 / 0.318, m = 64
/// 0.897 / 0.322, m = 1000 1.99 (two-loop, short run) / 0.375; so compact from m = 8 (m = 8 not
/// measured: between the two), and GMIN's default m = 4 keeps the two-loop recursion, whose
/// arithmetic is the reference's. docs/batched.md has the measurements.
constexpr int kRoundsCompactAutoHistory = 8;
constexpr std::size_t kRoundsCompactAutoDimension = 1024;

/// Whether the engine computes directions in the compact form for n degrees of freedom and a
/// history of m pairs under `options`.
bool roundsCompactDirections(const BatchedRoundsOptions& options, std::size_t n, int m);
/// As above for a potential that is minimised under its diagonal metric when `diagonalMetric`
/// (LbfgsRoundsMetric): the compact form has no metric, so the automatic choice falls back to
/// two-loop directions and a compactFromHistory that asks for compact ones is refused with
/// std::invalid_argument.
bool roundsCompactDirections(const BatchedRoundsOptions& options, std::size_t n, int m,
                             bool diagonalMetric);

/// The team size for n degrees of freedom: about 8 components per thread, a multiple of 32 in
/// [32, 1024].
int roundsTeamThreads(std::size_t n);
/// `requested` when non-zero (checked), else roundsTeamThreads(n).
int resolveRoundsTeamThreads(int requested, std::size_t n);

/// Bytes of one slot: x, g, trial x and g, p, the m pairs s and y ((5 + 2m) n doubles), rho and
/// alpha (2m), the energy, the active flag and the 80-byte state; with `compact` also the compact
/// form's storage (lbfgsCompactSlotDoubles: 3 m^2 + 8 m + ceil(m / 64) n + 2 ceil(n / 256)
/// doubles) and a pending flag.
std::size_t roundsSlotBytes(std::size_t n, int m, bool compact = false);
/// Bytes of one structure of the batch outside the slots: its coordinates (in, minimum out) and
/// its 32-byte outcome.
std::size_t roundsStructureBytes(std::size_t n);

/// Bytes per slot of packing's scratch (BatchedRoundsOptions::packFactor >= 2; 0 otherwise): the
/// widest slot row (the history's m n doubles, the state, or the compact storage) over packFactor,
/// since a packed tail holds at most that share of the rows, plus the map's int and a byte.
std::size_t roundsPackBytes(std::size_t n, int m, bool compact, int packFactor);

}  // namespace landscape
