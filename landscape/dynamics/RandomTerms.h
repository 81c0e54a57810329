#pragma once
// Generator math written once (docs/architecture.md: "physics written once, loops written twice"):
// the CPU streams (landscape/RandomStreams) and the CUDA kernels (gpu/RandomKernels.cuh) both call
// these functions, so their integer streams are identical bit for bit. No CUDA headers; any
// compiler.
//
// Generators (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, Appendix A;
// docs/rng.md gives state sizes and known-answer sources):
//   LCG          x' = 1664525 x + 1013904223 mod 2^32 (Numerical Recipes' ranqd1, 2nd ed. p 284)
//   Ran2         Numerical Recipes ran2: L'Ecuyer's two LCGs with a 32-entry Bays-Durham shuffle
//   Hybrid Taus  taus88 (L'Ecuyer, Math. Comp. 65 (1996) 203) xor the LCG (GPU Gems 3, ch. 37)
//   Lagged Fib.  x_n = x_{n-s} + x_{n-l} mod 2^32 (the step loop is in the callers)
//   Philox4x32-10 (Salmon, Moraes, Dror & Shaw, SC11 2011), counter-based
// Gaussians by Box-Muller (Zhmurov et al. 2011, section II) from uniforms in (0, 1) built from the
// words.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "landscape/core/HostDevice.h"

namespace landscape {
namespace rng {

// ---- seeding ------------------------------------------------------------------------------------

/// SplitMix64's output function (Steele, Lea & Flood, OOPSLA 2014): a bijective 64-bit mixer.
LANDSCAPE_HD std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// The k-th 64-bit seeding word of stream `stream` for `seed` (k = 0, 1, ...): SplitMix64 outputs
/// from a starting point that depends on both, so that every stream's state comes from an
/// independent sequence (Zhmurov et al. 2011, section III.B) and not from the generator being
/// seeded.
LANDSCAPE_HD std::uint64_t seedWord(std::uint64_t seed, std::uint64_t stream, std::uint64_t k) {
  const std::uint64_t kGamma = 0x9e3779b97f4a7c15ull;
  const std::uint64_t start = mix64(seed ^ mix64(stream * kGamma + 0x6a09e667f3bcc909ull));
  return mix64(start + (k + 1) * kGamma);
}

// ---- LCG ----------------------------------------------------------------------------------------

constexpr std::uint32_t kLcgMultiplier = 1664525u;
constexpr std::uint32_t kLcgIncrement = 1013904223u;

/// One step; returns the new state, which is also the output word.
LANDSCAPE_HD std::uint32_t lcgNext(std::uint32_t& x) {
  x = kLcgMultiplier * x + kLcgIncrement;
  return x;
}

/// The state k steps after x, in O(log k) (Brown, Trans. Am. Nucl. Soc. 71 (1994) 202: the map
/// x -> a x + c composed with itself k times is x -> A x + C).
LANDSCAPE_HD std::uint32_t lcgJump(std::uint32_t x, std::uint64_t k) {
  std::uint32_t accMul = 1u, accAdd = 0u, curMul = kLcgMultiplier, curAdd = kLcgIncrement;
  while (k > 0) {
    if (k & 1u) {
      accMul *= curMul;
      accAdd = accAdd * curMul + curAdd;
    }
    curAdd = (curMul + 1u) * curAdd;
    curMul *= curMul;
    k >>= 1;
  }
  return accMul * x + accAdd;
}

/// Cycle division (Zhmurov et al. 2011, section III.A): all streams share the one cycle of 2^32
/// states; stream i starts floor(2^32 / streams) i steps after the seed's low 32 bits, so that
/// streams overlap only once the ensemble has drawn the whole period.
LANDSCAPE_HD std::uint32_t lcgStreamStart(std::uint64_t seed, std::uint64_t stream,
                                          std::uint64_t streams) {
  const std::uint64_t spacing = (std::uint64_t(1) << 32) / (streams > 0 ? streams : 1);
  return lcgJump(static_cast<std::uint32_t>(seed), stream * spacing);
}

// ---- Tausworthe / Hybrid Taus -------------------------------------------------------------------

/// One Tausworthe step of taus88 (L'Ecuyer 1996; GPU Gems 3 ch. 37, TausStep).
LANDSCAPE_HD std::uint32_t tausStep(std::uint32_t& z, int s1, int s2, int s3, std::uint32_t m) {
  const std::uint32_t b = ((z << s1) ^ z) >> s2;
  z = ((z & m) << s3) ^ b;
  return z;
}

/// taus88: the xor of three Tausworthe generators of periods 2^31 - 1, 2^29 - 1 and 2^28 - 1.
/// The components need z1 >= 2, z2 >= 8, z3 >= 16.
LANDSCAPE_HD std::uint32_t taus88Next(std::uint32_t& z1, std::uint32_t& z2, std::uint32_t& z3) {
  return tausStep(z1, 13, 19, 12, 4294967294u) ^ tausStep(z2, 2, 25, 4, 4294967288u) ^
         tausStep(z3, 3, 11, 17, 4294967280u);
}

/// 16 bytes; 16-byte aligned so that a CUDA thread loads it as one uint4.
struct alignas(16) HybridTausState {
  std::uint32_t z1, z2, z3, z4;  ///< taus88 components and the LCG
};

/// Hybrid Taus (Zhmurov et al. 2011, Appendix A, GPU Gems 3 ch. 37): taus88 xor the LCG; period
/// ~2^120 (lcm of 2^88 and 2^32; Zhmurov et al. 2011 quotes 2^121).
LANDSCAPE_HD std::uint32_t hybridTausNext(HybridTausState& s) {
  return taus88Next(s.z1, s.z2, s.z3) ^ lcgNext(s.z4);
}

/// Stream `stream` of `seed`: four independent SplitMix64 words, raised where taus88 needs it.
LANDSCAPE_HD HybridTausState hybridTausStreamState(std::uint64_t seed, std::uint64_t stream) {
  const std::uint64_t a = seedWord(seed, stream, 0), b = seedWord(seed, stream, 1);
  HybridTausState s;
  s.z1 = static_cast<std::uint32_t>(a);
  s.z2 = static_cast<std::uint32_t>(a >> 32);
  s.z3 = static_cast<std::uint32_t>(b);
  s.z4 = static_cast<std::uint32_t>(b >> 32);
  if (s.z1 < 2u) s.z1 += 2u;
  if (s.z2 < 8u) s.z2 += 8u;
  if (s.z3 < 16u) s.z3 += 16u;
  return s;
}

// ---- Ran2 ---------------------------------------------------------------------------------------

constexpr std::int32_t kRan2M1 = 2147483563, kRan2A1 = 40014, kRan2Q1 = 53668, kRan2R1 = 12211;
constexpr std::int32_t kRan2M2 = 2147483399, kRan2A2 = 40692, kRan2Q2 = 52774, kRan2R2 = 3791;
constexpr int kRan2TableSize = 32;
constexpr std::int32_t kRan2Divisor = 1 + (kRan2M1 - 1) / kRan2TableSize;
/// 35 int32 = 140 bytes (Zhmurov et al. 2011, Table 1 counts 280: it stored 35 64-bit longs).
constexpr int kRan2StateWords = 3 + kRan2TableSize;

struct Ran2State {
  std::int32_t idum;   ///< first LCG (modulus kRan2M1)
  std::int32_t idum2;  ///< second LCG (modulus kRan2M2)
  std::int32_t iy;     ///< last output, selects the table entry
  std::int32_t iv[kRan2TableSize];
};

/// x -> a x mod m by Schrage's method (no overflow in 32 bits).
LANDSCAPE_HD std::int32_t schrageStep(std::int32_t x, std::int32_t a, std::int32_t q,
                                      std::int32_t r, std::int32_t m) {
  const std::int32_t k = x / q;
  x = a * (x - k * q) - k * r;
  return x < 0 ? x + m : x;
}

/// Numerical Recipes' initialisation for idum = -seed (GSL's ran2_set(seed)): seeds < 1 become 1,
/// 8 warm-up steps, then the table filled from the top.
LANDSCAPE_HD void ran2Seed(Ran2State& s, std::int32_t seed) {
  std::int32_t idum = seed < 1 ? 1 : seed;
  s.idum2 = idum;
  for (int j = kRan2TableSize + 7; j >= 0; --j) {
    idum = schrageStep(idum, kRan2A1, kRan2Q1, kRan2R1, kRan2M1);
    if (j < kRan2TableSize) s.iv[j] = idum;
  }
  s.idum = idum;
  s.iy = s.iv[0];
}

/// One step of the combined generator through the shuffle table, whose entry j is
/// table[j * stride] (stride 1 on the host; the CUDA kernels keep the tables of all streams in
/// global memory, entry j of stream i at j * streams + i).
LANDSCAPE_HD std::int32_t ran2Step(std::int32_t& idum, std::int32_t& idum2, std::int32_t& iy,
                                   std::int32_t* table, std::size_t stride) {
  idum = schrageStep(idum, kRan2A1, kRan2Q1, kRan2R1, kRan2M1);
  idum2 = schrageStep(idum2, kRan2A2, kRan2Q2, kRan2R2, kRan2M2);
  std::int32_t& entry = table[static_cast<std::size_t>(iy / kRan2Divisor) * stride];
  iy = entry - idum2;
  entry = idum;
  if (iy < 1) iy += kRan2M1 - 1;
  return iy;
}

/// The native output, in [1, kRan2M1 - 1] (NR returns it times 1/kRan2M1).
LANDSCAPE_HD std::int32_t ran2Next(Ran2State& s) {
  return ran2Step(s.idum, s.idum2, s.iy, s.iv, 1);
}

/// ran2's 31-bit output as a 32-bit word: floor(iy 2^32 / kRan2M1), i.e. floor(u 2^32) of its
/// uniform u = iy / kRan2M1. Exact integer arithmetic.
LANDSCAPE_HD std::uint32_t ran2Word(std::int32_t iy) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(iy) << 32) /
                                    static_cast<std::uint64_t>(kRan2M1));
}

/// The idum that initialises stream `stream`: stream 0 of a seed in [0, kRan2M1) is ran2 with
/// idum = -seed itself (so that known answers apply); every other stream, and stream 0 of larger
/// seeds, draws it from SplitMix64.
LANDSCAPE_HD std::int32_t ran2StreamSeed(std::uint64_t seed, std::uint64_t stream) {
  if (stream == 0 && seed < static_cast<std::uint64_t>(kRan2M1))
    return static_cast<std::int32_t>(seed);
  return 1 + static_cast<std::int32_t>(seedWord(seed, stream, 0) %
                                       static_cast<std::uint64_t>(kRan2M1 - 2));
}

// ---- Philox4x32-10 -----------------------------------------------------------------------------

constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u, kPhiloxM1 = 0xCD9E8D57u;
constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u, kPhiloxW1 = 0xBB67AE85u;

LANDSCAPE_HD void mulHiLo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi, std::uint32_t& lo) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
}

/// Philox4x32 with 10 rounds (Random123's philox4x32_R(10, ctr, key)).
LANDSCAPE_HD void philox4x32_10(const std::uint32_t ctr[4], const std::uint32_t key[2],
                                std::uint32_t out[4]) {
  std::uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
  std::uint32_t k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {  // key schedule: bump before every round but the first
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    std::uint32_t hi0, lo0, hi1, lo1;
    mulHiLo(kPhiloxM0, c0, hi0, lo0);
    mulHiLo(kPhiloxM1, c2, hi1, lo1);
    const std::uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/// Block `block` (four words) of stream `stream`: key = the seed, counter = (block, stream), so
/// any step of any stream is computed directly.
LANDSCAPE_HD void philoxBlock(std::uint64_t seed, std::uint64_t stream, std::uint64_t block,
                              std::uint32_t out[4]) {
  const std::uint32_t ctr[4] = {
      static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
      static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32)};
  const std::uint32_t key[2] = {static_cast<std::uint32_t>(seed),
                                static_cast<std::uint32_t>(seed >> 32)};
  philox4x32_10(ctr, key, out);
}

// ---- Lagged Fibonacci ---------------------------------------------------------------------------

/// Initial content of ring slot `slot` (x_{slot - l}) of group `group` (landscape/dynamics/RngKind.h,
/// LaggedFibonacciLayout) for `seed`: SplitMix64 words of (seed, 0x4c46 + group 2^32), so group 0
/// is the one-group generator and every group an independent sequence. Slot 0 is made odd, since
/// the maximal period needs an odd word among the l initial ones.
LANDSCAPE_HD std::uint32_t laggedFibonacciInitialWord(std::uint64_t seed, std::uint64_t slot,
                                                      std::uint64_t group = 0) {
  const std::uint64_t w = seedWord(seed, 0x4c46u + (group << 32), slot / 2);
  const std::uint32_t word = static_cast<std::uint32_t>(slot % 2 == 0 ? w : w >> 32);
  return slot == 0 ? (word | 1u) : word;
}

/// The ring slot of a group's first draw at step `step`: (step M) mod l for M draws per step, in
/// 64-bit arithmetic without overflow (l < 2^32).
LANDSCAPE_HD std::uint64_t laggedFibonacciRingBase(std::uint64_t step, std::uint64_t drawsPerStep,
                                                   std::uint64_t longLag) {
  return (step % longLag) * (drawsPerStep % longLag) % longLag;
}

// ---- uniforms and Gaussians ---------------------------------------------------------------------

constexpr double kTwoPi = 6.283185307179586476925286766559;

/// Uniform in the open interval (0, 1): (w + 1/2) / 2^32, all 32 bits (exact in double).
LANDSCAPE_HD double uniformOpen(std::uint32_t w) {
  return (static_cast<double>(w) + 0.5) * 2.3283064365386962890625e-10;
}

/// Single precision: the high 24 bits, (floor(w / 2^8) + 1) / 2^24, in (0, 1] (exact in float; an
/// open interval would need a 25th bit near 1). Box-Muller needs only u > 0 for the logarithm.
LANDSCAPE_HD float uniformFloat(std::uint32_t w) {
  return (static_cast<float>(w >> 8) + 1.0f) * 5.9604644775390625e-8f;
}

/// Box-Muller: two words to two independent standard normal variates (double precision).
LANDSCAPE_HD void boxMuller(std::uint32_t w0, std::uint32_t w1, double& g0, double& g1) {
  const double r = sqrt(-2.0 * log(uniformOpen(w0)));
  const double theta = kTwoPi * uniformOpen(w1);
  g0 = r * cos(theta);
  g1 = r * sin(theta);
}

/// The three Gaussian components of one particle's random force from its four words of a step
/// (the fourth Box-Muller variate is not needed).
LANDSCAPE_HD void particleGaussians(const std::uint32_t w[4], double g[3]) {
  boxMuller(w[0], w[1], g[0], g[1]);
  g[2] = sqrt(-2.0 * log(uniformOpen(w[2]))) * cos(kTwoPi * uniformOpen(w[3]));
}

}  // namespace rng
}  // namespace landscape
