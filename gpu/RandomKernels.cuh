#pragma once
// Device side of the parallel random streams (the twin of landscape/RandomStreams): the state
// layout in global memory, the per-stream draw used inside integration kernels (Zhmurov, Rybnikov,
// Kholodov and Barsegov, J. Phys. Chem. B 2011: "an RNG should be incorporated into the main
// simulation kernel"), and the drivers for seeding and for drawing words into memory (tests).
// Included only from .cu files.
//
// State in global memory (Zhmurov et al. 2011, Table 1; our sizes):
//   LCG          uint32 per stream (4 B), coalesced;
//   Hybrid Taus  one 16-byte HybridTausState per stream, loaded and stored as a uint4;
//   Ran2         35 int32 per stream (140 B) as 35 arrays of `streams` entries (idum, idum2, iy,
//                then table entry j at (3 + j) streams + i). A step loads and stores the whole
//                state with coalesced accesses and works on the shuffle table in shared memory:
//                the entries a step touches depend on the stream's outputs, and gathering them
//                from global memory costs a DRAM burst each way per entry (1.5x the byte floor of
//                the whole state on an H200);
//   Lagged Fib.  one ring of l uint32 per group of consecutive streams (one group up to
//                7,671,142 streams; LaggedFibonacciLayout), group g's at g l; thread i, local
//                stream i' of its group, reads x_{n-l}, x_{n-s} and writes x_n for its
//                n = k M_g + j n_g + i' (consecutive threads, consecutive slots); how it touches
//                memory is a LaggedFibonacciAccess (gpu/LaggedFibonacciAccess.h);
//   Philox       nothing: the words are Philox4x32-10(counter = (step, stream), key = seed).
// Determinism: integer arithmetic only, each state word written by one thread per step; the words
// equal the CPU twin's bit for bit.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpu/LaggedFibonacciAccess.h"
#include "landscape/dynamics/RandomTerms.h"
#include "landscape/dynamics/RngKind.h"

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
  std::uint32_t* d_ring = nullptr;         ///< LaggedFibonacci: groups x longLag words
  std::uint32_t longLag = 0;               ///< LaggedFibonacci l
  std::uint32_t shortLag = 0;              ///< LaggedFibonacci s
  std::uint32_t groups = 1;                ///< LaggedFibonacci groups (streams < 2^32)
  std::uint32_t groupStreams = 0;          ///< LaggedFibonacci: streams of every group but the last
  std::uint32_t lastGroupStreams = 0;      ///< LaggedFibonacci: streams of the last group
  std::uint32_t ringBase = 0;      ///< LaggedFibonacci: slot of the step's first draw, full groups
  std::uint32_t lastRingBase = 0;  ///< LaggedFibonacci: the same for the last group
};

/// Threads per block of every kernel that calls drawStreamStep (the Ran2 branch keeps one column of
/// a shared [32][kRandomBlockSize] table per thread).
constexpr int kRandomBlockSize = 256;

/// Lagged Fibonacci: the four words of stream i (see the layout above); A changes the memory
/// traffic only, never the words.
template <LaggedFibonacciAccess A>
__device__ __forceinline__ void drawLaggedFibonacci(const RandomStreamsView& v, std::size_t i,
                                                    std::uint32_t w[4]) {
  // The group of stream i and the stream's place in it (one division only with several groups).
  std::uint32_t group = 0, local = static_cast<std::uint32_t>(i);
  if (v.groups > 1) {
    group = local / v.groupStreams;
    local -= group * v.groupStreams;
  }
  const bool last = group + 1 == v.groups;
  const std::uint32_t n = last ? v.lastGroupStreams : v.groupStreams;
  const std::uint32_t base = last ? v.lastRingBase : v.ringBase;
  std::uint32_t* ring = v.d_ring + static_cast<std::size_t>(group) * v.longLag;
  if constexpr (A == LaggedFibonacciAccess::Sequential) {
    const std::size_t l = v.longLag, gap = l - v.shortLag;
    for (int j = 0; j < 4; ++j) {
      std::size_t slot = base + j * static_cast<std::size_t>(n) + local;
      if (slot >= l) slot -= l;
      std::size_t shortSlot = slot + gap;
      if (shortSlot >= l) shortSlot -= l;
      const std::uint32_t x = ring[slot] + ring[shortSlot];
      ring[slot] = x;
      w[j] = x;
    }
  } else {
    // base < l and local + j n < 4 n <= min(s, l - s), so each sum is below 2 l < 2^32 and one
    // subtraction wraps it.
    const std::uint32_t l = v.longLag, gap = l - v.shortLag;
    std::uint32_t slot[4], longWord[4], shortWord[4];
    for (int j = 0; j < 4; ++j) {
      std::uint32_t s = base + local + j * n;
      slot[j] = s >= l ? s - l : s;
      std::uint32_t t = slot[j] + gap;
      t = t >= l ? t - l : t;
      if constexpr (A == LaggedFibonacciAccess::Batched) {
        longWord[j] = ring[slot[j]];
        shortWord[j] = ring[t];
      } else {
        longWord[j] = __ldcs(ring + slot[j]);
        shortWord[j] = __ldcs(ring + t);
      }
    }
    for (int j = 0; j < 4; ++j) {
      w[j] = longWord[j] + shortWord[j];
      if constexpr (A == LaggedFibonacciAccess::Batched)
        ring[slot[j]] = w[j];
      else
        __stcs(ring + slot[j], w[j]);
    }
  }
}

/// The four words of stream i for the view's step; updates that stream's state (its slice of the
/// ring for Lagged Fibonacci, touched as A says). Each stream must be drawn by exactly one thread
/// per step, in blocks of kRandomBlockSize threads.
template <RngKind K, LaggedFibonacciAccess A = kDefaultLaggedFibonacciAccess>
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
    drawLaggedFibonacci<A>(v, i, w);
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

/// Writes the initial state of every stream (every group's ring, for Lagged Fibonacci) for
/// view.seed.
void launchSeedRandomStreams(const RandomStreamsView& view, cudaStream_t stream);

/// Draws the view's step into d_words (4 x streams words, word j of stream i at j streams + i),
/// Lagged Fibonacci with the given access.
void launchDrawRandomWords(const RandomStreamsView& view, std::uint32_t* d_words,
                           cudaStream_t stream,
                           LaggedFibonacciAccess access = kDefaultLaggedFibonacciAccess);

}  // namespace landscape
