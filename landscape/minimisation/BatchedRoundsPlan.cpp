#include "landscape/minimisation/BatchedRoundsPlan.h"

#include <stdexcept>

#include "landscape/minimisation/LbfgsRoundsCompactTerms.h"

namespace landscape {

void BatchedRoundsOptions::check() const {
  if (threadsPerStructure < 0 || threadsPerStructure > 1024 || threadsPerStructure % 32 != 0)
    throw std::invalid_argument(
        "batched L-BFGS rounds: threadsPerStructure must be 0 (automatic) or a multiple of 32 up "
        "to 1024, not " +
        std::to_string(threadsPerStructure));
  if (roundsPerPoll < 1)
    throw std::invalid_argument("batched L-BFGS rounds: roundsPerPoll must be at least 1, not " +
                                std::to_string(roundsPerPoll));
  if (packFactor != 0 && packFactor < 2)
    throw std::invalid_argument(
        "batched L-BFGS rounds: packFactor must be 0 (never pack) or at least 2, not " +
        std::to_string(packFactor));
  if (compactFromHistory < -1)
    throw std::invalid_argument(
        "batched L-BFGS rounds: compactFromHistory must be -1 (never), 0 (automatic) or a history "
        "size >= 1, not " +
        std::to_string(compactFromHistory));
}

std::size_t roundsPackedSlots(std::size_t slots, std::size_t live, int packFactor) {
  if (packFactor < 2) return slots;
  const std::size_t factor = static_cast<std::size_t>(packFactor);
  std::size_t rows = slots;
  while (rows / factor >= kRoundsPackedSlotsAtLeast && live <= rows / factor) rows /= factor;
  return rows;
}

bool roundsCompactDirections(const BatchedRoundsOptions& options, std::size_t n, int m) {
  if (options.compactFromHistory < 0) return false;
  if (options.compactFromHistory > 0) return m >= options.compactFromHistory;
  return m >= kRoundsCompactAutoHistory && n >= kRoundsCompactAutoDimension &&
         n >= 2 * static_cast<std::size_t>(m);
}

bool roundsCompactDirections(const BatchedRoundsOptions& options, std::size_t n, int m,
                             bool diagonalMetric) {
  if (!diagonalMetric) return roundsCompactDirections(options, n, m);
  if (options.compactFromHistory > 0 && m >= options.compactFromHistory)
    throw std::invalid_argument(
        "batched L-BFGS rounds: compact directions (compactFromHistory " +
        std::to_string(options.compactFromHistory) +
        ") have no diagonal metric and the potential has one; leave compactFromHistory at 0 "
        "(automatic: two-loop directions under a metric), set it to -1, or switch the metric off "
        "(LbfgsParams::useDiagonalMetric)");
  return false;
}

int roundsTeamThreads(std::size_t n) {
  const std::size_t threads = (n + 7) / 8;
  const std::size_t rounded = (threads + 31) / 32 * 32;
  return static_cast<int>(rounded < 32 ? 32 : rounded > 1024 ? 1024 : rounded);
}

int resolveRoundsTeamThreads(int requested, std::size_t n) {
  BatchedRoundsOptions probe;
  probe.threadsPerStructure = requested;
  probe.check();
  return requested != 0 ? requested : roundsTeamThreads(n);
}

std::size_t roundsSlotBytes(std::size_t n, int m, bool compact) {
  const std::size_t mm = static_cast<std::size_t>(m);
  const std::size_t base =
      sizeof(double) * ((5 + 2 * mm) * n + 2 * mm + 1) + 1 + sizeof(LbfgsRoundsState);
  if (!compact) return base;
  const std::size_t chunks = (mm + kCompactPairsPerChunk - 1) / kCompactPairsPerChunk;
  const std::size_t blocks = (n + kCompactComponentThreads - 1) / kCompactComponentThreads;
  return base + sizeof(double) * (3 * mm * mm + 8 * mm + chunks * n + 2 * blocks) + 1;
}

std::size_t roundsPackBytes(std::size_t n, int m, bool compact, int packFactor) {
  if (packFactor < 2) return 0;
  const std::size_t history = sizeof(double) * static_cast<std::size_t>(m) * n;
  std::size_t widest = history > sizeof(LbfgsRoundsState) ? history : sizeof(LbfgsRoundsState);
  if (compact) {
    // The compact storage: what roundsSlotBytes adds for it, less the pending flag.
    const std::size_t storage = roundsSlotBytes(n, m, true) - roundsSlotBytes(n, m, false) - 1;
    if (storage > widest) widest = storage;
  }
  return widest / static_cast<std::size_t>(packFactor) + 1 + sizeof(int);
}

std::size_t roundsStructureBytes(std::size_t n) {
  return sizeof(double) * n + sizeof(LbfgsResult);
}

}  // namespace landscape
