#pragma once
// Device side of the parallel random streams (the twin of landscape/RandomStreams): the state
// layout in global memory, the per-stream draw used inside integration kernels (seed 000: "an RNG
// should be incorporated into the main simulation kernel"), and the drivers for seeding and for
// drawing words into memory (tests). Included only from .cu files.
//
// State in global memory (seed 000 Table 1; our sizes):
//   LCG          uint32 per stream (4 B), coalesced;
//   Hybrid Taus  one 16-byte HybridTausState per stream, loaded and stored as a uint4;
//   Ran2         35 int32 per stream (140 B) as 35 arrays of `streams` entries (idum, idum2, iy,
//                then table entry j at (3 + j) streams + i). A step loads and stores the whole
//                state with coalesced accesses and works on the shuffle table in shared memory:
//                the entries a step touches depend on the stream's outputs, and gathering them
//                from global memory costs a DRAM burst each way per entry (1.5x the byte floor of
//                the whole state on an H200);
//   Lagged Fib.  the ring of l uint32 shared by all streams; thread i reads x_{n-l}, x_{n-s} and
//                writes x_n for its n = kM + j streams + i (consecutive threads, consecutive
//                slots);
//   Philox       nothing: the words are Philox4x32-10(counter = (step, stream), key = seed).
// Determinism: integer arithmetic only, each state word written by one thread per step; the words
// equal the CPU twin's bit for bit.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "potentials/RandomTerms.h"
#include "potentials/RngKind.h"

namespace landscape {

/// Everything a kernel needs to draw step `step` of every stream (plain data, passed by value).
struct RandomStreamsView {
  RngKind kind = RngKind::Philox;
  std::uint64_t seed = 0;
  std::uint64_t step = 0;  ///< steps drawn before this one (Philox counter)
  std::size_t streams = 0;
  std::uint32_t* d_lcg = nullptr;          ///< Lcg: streams words
  rng::HybridTausState* d_taus = nullptr;  ///< HybridTaus: streams states
  std::int32_t* d_ran2 = nullptr;          ///< Ran2: rng::kRan2StateWords x streams words
  std::uint32_t* d_ring = nullptr;         ///< LaggedFibonacci: longLag words
  std::uint32_t longLag = 0;               ///< LaggedFibonacci l
  std::uint32_t shortLag = 0;              ///< LaggedFibonacci s
  std::uint32_t ringBase = 0;              ///< LaggedFibonacci: slot of the step's first draw
};

/// Threads per block of every kernel that calls drawStreamStep (the Ran2 branch keeps one column of
/// a shared [32][kRandomBlockSize] table per thread).
constexpr int kRandomBlockSize = 256;

/// The four words of stream i for the view's step; updates that stream's state (its slice of the
/// ring for Lagged Fibonacci). Each stream must be drawn by exactly one thread per step, in blocks
/// of kRandomBlockSize threads.
template <RngKind K>
__device__ __forceinline__ void drawStreamStep(const RandomStreamsView& v, std::size_t i,
                                               std::uint32_t w[4]) {
  if constexpr (K == RngKind::Lcg) {
    std::uint32_t x = v.d_lcg[i];
    for (int j = 0; j < 4; ++j) w[j] = rng::lcgNext(x);
    v.d_lcg[i] = x;
  } else if constexpr (K == RngKind::HybridTaus) {
    const uint4 packed = reinterpret_cast<const uint4*>(v.d_taus)[i];
    rng::HybridTausState s{packed.x, packed.y, packed.z, packed.w};
    for (int j = 0; j < 4; ++j) w[j] = rng::hybridTausNext(s);
    reinterpret_cast<uint4*>(v.d_taus)[i] = make_uint4(s.z1, s.z2, s.z3, s.z4);
  } else if constexpr (K == RngKind::Ran2) {
    // Column threadIdx.x of [table entry][thread]: conflict-free whatever entry a thread picks.
    __shared__ std::int32_t tables[rng::kRan2TableSize * kRandomBlockSize];
    std::int32_t* table = tables + threadIdx.x;
    const std::size_t n = v.streams;
    for (int j = 0; j < rng::kRan2TableSize; ++j)
      table[j * kRandomBlockSize] = v.d_ran2[(3 + j) * n + i];
    std::int32_t idum = v.d_ran2[i], idum2 = v.d_ran2[n + i], iy = v.d_ran2[2 * n + i];
    for (int j = 0; j < 4; ++j)
      w[j] = rng::ran2Word(rng::ran2Step(idum, idum2, iy, table, kRandomBlockSize));
    v.d_ran2[i] = idum;
    v.d_ran2[n + i] = idum2;
    v.d_ran2[2 * n + i] = iy;
    for (int j = 0; j < rng::kRan2TableSize; ++j)
      v.d_ran2[(3 + j) * n + i] = table[j * kRandomBlockSize];
  } else if constexpr (K == RngKind::LaggedFibonacci) {
    const std::size_t l = v.longLag, gap = l - v.shortLag;
    for (int j = 0; j < 4; ++j) {
      std::size_t slot = v.ringBase + j * v.streams + i;
      if (slot >= l) slot -= l;
      std::size_t shortSlot = slot + gap;
      if (shortSlot >= l) shortSlot -= l;
      const std::uint32_t x = v.d_ring[slot] + v.d_ring[shortSlot];
      v.d_ring[slot] = x;
      w[j] = x;
    }
  } else {
    static_assert(K == RngKind::Philox, "drawStreamStep: unknown generator");
    rng::philoxBlock(v.seed, i, v.step, w);
  }
}

/// Calls f(std::integral_constant<RngKind, K>{}) for the run-time kind (host side), so that each
/// kernel is instantiated once per generator.
template <class F>
void dispatchRngKind(RngKind kind, F&& f) {
  switch (kind) {
    case RngKind::Lcg:
      f(std::integral_constant<RngKind, RngKind::Lcg>{});
      return;
    case RngKind::Ran2:
      f(std::integral_constant<RngKind, RngKind::Ran2>{});
      return;
    case RngKind::HybridTaus:
      f(std::integral_constant<RngKind, RngKind::HybridTaus>{});
      return;
    case RngKind::LaggedFibonacci:
      f(std::integral_constant<RngKind, RngKind::LaggedFibonacci>{});
      return;
    case RngKind::Philox:
      f(std::integral_constant<RngKind, RngKind::Philox>{});
      return;
  }
}

/// Writes the initial state of every stream (the ring, for Lagged Fibonacci) for view.seed.
void launchSeedRandomStreams(const RandomStreamsView& view, cudaStream_t stream);

/// Draws the view's step into d_words (4 x streams words, word j of stream i at j streams + i).
void launchDrawRandomWords(const RandomStreamsView& view, std::uint32_t* d_words,
                           cudaStream_t stream);

}  // namespace landscape
