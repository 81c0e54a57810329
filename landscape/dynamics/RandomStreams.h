#pragma once
// Parallel random streams on the CPU: one stream per particle, four 32-bit words per stream and
// step (two Box-Muller pairs for the three components of a random force). The CUDA twin is
// gpu/RandomStreamsCuda; both call the generator math of landscape/dynamics/RandomTerms.h, so a (kind,
// seed, streams) triple gives the same words on both, bit for bit.
//
// How streams are formed (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, section
// III):
//   LCG          one generator per stream on the shared 2^32 cycle, stream i starting
//                floor(2^32 / streams) i steps after the seed (cycle division);
//   Ran2, Hybrid Taus  one generator per stream, its state drawn by SplitMix64 from (seed, i);
//                stream 0 of Ran2 with a seed below 2147483563 is Numerical Recipes' ran2 with
//                idum = -seed;
//   Lagged Fibonacci   one generator shared by all streams (one-RNG-for-all-threads): step k
//                draws x_{kM} ... x_{kM + M - 1}, M = 4 streams, word j of stream i being
//                x_{kM + j streams + i}; beyond 7,671,142 streams, groups of consecutive streams
//                with one such generator each (LaggedFibonacciLayout, landscape/dynamics/RngKind.h);
//   Philox       no state: word j of stream i at step k is word j of
//                Philox4x32-10(counter = (k, i), key = seed).
// With one stream, the words of successive steps are the generator's sequence in order.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "landscape/dynamics/RandomTerms.h"
#include "landscape/dynamics/RngKind.h"

namespace landscape {

/// Everything a RandomStreams (or its CUDA twin) needs to continue where it was: the step counter
/// (all Philox has) and the generator words, stream after stream: Lcg 1 word per stream, Hybrid
/// Taus 4 (z1 z2 z3 z4), Ran2 35 (idum idum2 iy iv[0..31], as int32 bit patterns), Lagged
/// Fibonacci the longLag words of each group's ring, group after group (one group up to
/// 7,671,142 streams), with ringBase, group 0's slot of the next draw (= (step M_0) mod l; the
/// other groups' follow from the step), Philox none. Written into sop checkpoints
/// (landscape/formats/SopCheckpointFile).
struct RandomStreamsState {
  std::uint64_t step = 0;
  std::uint64_t ringBase = 0;
  std::vector<std::uint32_t> words;
};

/// The number of words RandomStreamsState holds for `streams` streams of `kind` (Lagged Fibonacci:
/// layout.ringWords(), the groups times l).
std::size_t randomStreamsStateWords(RngKind kind, std::size_t streams,
                                    const LaggedFibonacciLayout& layout);

/// Throws std::invalid_argument unless `state` can belong to `streams` streams of `kind`: its word
/// count, ring offset (Lagged Fibonacci: the one its step implies) and, for Ran2, words in the
/// generator's ranges (its table index comes from them). Both backends check a state with it
/// before restoring it.
void requireRandomStreamsState(RngKind kind, std::size_t streams,
                               const LaggedFibonacciLayout& layout,
                               const RandomStreamsState& state);

class RandomStreams {
 public:
  /// streams >= 1 (std::invalid_argument otherwise). Lagged Fibonacci uses
  /// laggedFibonacciLayoutFor(streams): one group with the lags laggedFibonacciLagsFor(4 streams)
  /// up to 7,671,142 streams, balanced groups beyond.
  RandomStreams(RngKind kind, std::uint64_t seed, std::size_t streams);
  /// Lagged Fibonacci in one group with the given lags, which must allow 4 streams draws per
  /// step; other kinds ignore `lags`.
  RandomStreams(RngKind kind, std::uint64_t seed, std::size_t streams, LaggedFibonacciLags lags);
  /// Lagged Fibonacci with the given layout (requireLayoutServes; tests force small groups with
  /// laggedFibonacciLayoutFor(streams, maxGroupStreams)); other kinds ignore it.
  RandomStreams(RngKind kind, std::uint64_t seed, std::size_t streams,
                const LaggedFibonacciLayout& layout);

  RngKind kind() const { return m_kind; }
  std::uint64_t seed() const { return m_seed; }
  std::size_t streams() const { return m_streams; }
  /// Steps drawn since construction or the last reseed().
  std::uint64_t step() const { return m_step; }
  /// The Lagged Fibonacci lags (zero for other kinds).
  const LaggedFibonacciLags& lags() const { return m_layout.lags; }
  /// The Lagged Fibonacci groups and lags (empty for other kinds).
  const LaggedFibonacciLayout& layout() const { return m_layout; }
  std::size_t stateBytes() const;

  /// Draws one step: words[j * streams() + i] is word j (0..3) of stream i.
  void nextStep(std::uint32_t* words);

  /// Back to step 0 with a new seed (same kind, streams and lags).
  void reseed(std::uint64_t seed);

  /// The state after the steps drawn so far; restore() of it continues the same sequence.
  RandomStreamsState state() const;
  /// Continues from `state` (same kind, seed, streams and lags). Throws std::invalid_argument when
  /// its word count or ring offset cannot belong to these streams.
  void restore(const RandomStreamsState& state);

 private:
  RngKind m_kind;
  std::uint64_t m_seed;
  std::size_t m_streams;
  std::uint64_t m_step = 0;
  LaggedFibonacciLayout m_layout;
  std::vector<std::uint32_t> m_lcg;          // Lcg
  std::vector<rng::HybridTausState> m_taus;  // HybridTaus
  std::vector<rng::Ran2State> m_ran2;        // Ran2
  std::vector<std::uint32_t> m_ring;     // LaggedFibonacci: group g's x_{n - l} at g l + n mod l
  std::vector<std::size_t> m_ringBases;  // LaggedFibonacci: group g's slot of x_{k M_g}
};

}  // namespace landscape
