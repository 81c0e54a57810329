// The generators of Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011 (plus Philox)
// against published known answers, their components, the stream layout of RandomStreams, and the
// CUDA twin against the CPU (bit for bit for the words, 1e-12 relative for the Gaussians). CUDA
// cases skip without a device.
//
// Known-answer sources (each test cites its own):
//   Philox4x32-10  Random123 v1.14, tests/kat_vectors (github.com/DEShawResearch/random123);
//   LCG            Numerical Recipes in C, 2nd ed. (1992), section 7.1, p 284: ranqd1 from 0;
//   taus88         GSL rng/test.c: gsl_rng_taus, seed 1, 10000th output 2733957125 (also in
//                  GSL rng/taus.c, "the theoretical value of x_10007");
//   ran2           GSL rng/test.c: gsl_rng_ran2, default seed, 10000th output 1701364455.
// Hybrid Taus and Lagged Fibonacci have no published vectors: they are pinned by their verified
// components (taus88 xor LCG; the recurrence with a primitive trinomial) and CPU = GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <set>
#include <stdexcept>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/dynamics/RandomStreams.h"
#include "landscape/dynamics/RandomTerms.h"
#include "landscape/dynamics/RngKind.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/RandomStreamsCuda.h"
#endif

namespace landscape {
namespace {

using namespace rng;

// ---- known answers --------------------------------------------------------------------------

TEST(RandomKnownAnswers, Philox4x32_10MatchesRandom123Vectors) {
  // Random123 v1.14 tests/kat_vectors, the three "philox4x32 10" lines: counter[4] key[2]
  // result[4].
  struct Vector {
    std::uint32_t ctr[4], key[2], expected[4];
  };
  const Vector vectors[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}};
  for (const Vector& v : vectors) {
    std::uint32_t out[4];
    philox4x32_10(v.ctr, v.key, out);
    for (int j = 0; j < 4; ++j) EXPECT_EQ(out[j], v.expected[j]) << "word " << j;
  }
}

TEST(RandomKnownAnswers, PhiloxStreamZeroOfSeedZeroStartsWithTheZeroVector) {
  RandomStreams streams(RngKind::Philox, 0, 1);
  std::uint32_t w[4];
  streams.nextStep(w);  // counter (0, 0, 0, 0), key (0, 0): the first Random123 vector
  EXPECT_EQ(w[0], 0x6627e8d5u);
  EXPECT_EQ(w[3], 0x9b00dbd8u);
}

TEST(RandomKnownAnswers, LcgFromZeroMatchesNumericalRecipes) {
  // Numerical Recipes in C, 2nd ed., section 7.1, p 284 (ranqd1 starting from idum = 0).
  const std::uint32_t expected[] = {0x3C6EF35F, 0x47502932, 0xD1CCF6E9, 0xAAF95334,
                                    0x6252E503, 0x9F2EC686, 0x57FE6C2D, 0xA3D95FA8,
                                    0x81FDBEE7, 0x94F0AF1A, 0xCBF633B1};
  std::uint32_t x = 0;
  for (std::uint32_t value : expected) EXPECT_EQ(lcgNext(x), value);
  // The same through the stream interface: one stream, seed 0.
  RandomStreams streams(RngKind::Lcg, 0, 1);
  std::uint32_t w[8];
  streams.nextStep(w);
  streams.nextStep(w + 4);
  for (int k = 0; k < 8; ++k) EXPECT_EQ(w[k], expected[k]);
}

TEST(RandomKnownAnswers, Taus88MatchesGslSeedOne) {
  // GSL rng/test.c: rng_test (gsl_rng_taus, 1, 10000, 2733957125). GSL's taus_set(1): s1 = 69069 s,
  // s2 = 69069 s1, s3 = 69069 s2 (mod 2^32), then six warm-up outputs.
  std::uint32_t z1 = 69069u * 1u, z2 = 69069u * z1, z3 = 69069u * z2;
  for (int k = 0; k < 6; ++k) taus88Next(z1, z2, z3);
  std::uint32_t last = 0;
  for (int k = 0; k < 10000; ++k) last = taus88Next(z1, z2, z3);
  EXPECT_EQ(last, 2733957125u);
}

TEST(RandomKnownAnswers, Ran2MatchesGslDefaultSeed) {
  // GSL rng/test.c: rng_test (gsl_rng_ran2, 0, 10000, 1701364455); GSL's seed 0 means 1, which is
  // Numerical Recipes' ran2 called first with idum = -1.
  Ran2State s;
  ran2Seed(s, 1);
  std::int32_t last = 0;
  for (int k = 0; k < 10000; ++k) last = ran2Next(s);
  EXPECT_EQ(last, 1701364455);
  // Seeds 0 and 1 are the same generator, and stream 0 of seed 1 is that generator.
  Ran2State zero;
  ran2Seed(zero, 0);
  ran2Seed(s, 1);
  for (int k = 0; k < 100; ++k) EXPECT_EQ(ran2Next(zero), ran2Next(s));
  EXPECT_EQ(ran2StreamSeed(1, 0), 1);
}

TEST(RandomKnownAnswers, Ran2WordsAreFloorOfUniformTimesTwoToThe32) {
  RandomStreams streams(RngKind::Ran2, 1, 1);
  Ran2State s;
  ran2Seed(s, 1);
  for (int step = 0; step < 50; ++step) {
    std::uint32_t w[4];
    streams.nextStep(w);
    for (std::uint32_t word : w) {
      const std::int32_t iy = ran2Next(s);
      EXPECT_EQ(word, static_cast<std::uint32_t>(
                          std::floor(std::ldexp(static_cast<long double>(iy) / kRan2M1, 32))));
    }
  }
  EXPECT_EQ(ran2Word(kRan2M1 - 1), 0xfffffffdu);  // floor(2^32 - 2^32 / kRan2M1)
  EXPECT_EQ(ran2Word(1), 2u);
}

// ---- components and stream layout --------------------------------------------------------------

TEST(RandomComponents, LcgJumpEqualsRepeatedSteps) {
  for (std::uint32_t start : {0u, 1u, 12345u, 0xdeadbeefu}) {
    std::uint32_t x = start;
    for (std::uint64_t k = 0; k <= 3000; ++k) {
      EXPECT_EQ(lcgJump(start, k), x) << "start " << start << ", k " << k;
      lcgNext(x);
    }
  }
  EXPECT_EQ(lcgJump(7u, std::uint64_t(1) << 32), 7u);  // the full period 2^32 returns
}

TEST(RandomComponents, HybridTausIsTaus88XorLcg) {
  HybridTausState s = hybridTausStreamState(99, 3);
  std::uint32_t z1 = s.z1, z2 = s.z2, z3 = s.z3, z4 = s.z4;
  for (int k = 0; k < 10000; ++k)
    ASSERT_EQ(hybridTausNext(s), taus88Next(z1, z2, z3) ^ lcgNext(z4));
  // With GSL's taus seeding and the LCG from 0, output 10000 is the two known answers xor'ed.
  HybridTausState g{69069u, 69069u * 69069u, 69069u * 69069u * 69069u, 0u};
  for (int k = 0; k < 6; ++k) taus88Next(g.z1, g.z2, g.z3);
  std::uint32_t last = 0;
  for (int k = 0; k < 10000; ++k) last = hybridTausNext(g);
  EXPECT_EQ(last, 2733957125u ^ lcgJump(0u, 10000));
}

TEST(RandomComponents, HybridTausSeedsSatisfyTaus88Conditions) {
  for (std::uint64_t stream = 0; stream < 2000; ++stream) {
    const HybridTausState s = hybridTausStreamState(stream % 7, stream);
    EXPECT_GE(s.z1, 2u);
    EXPECT_GE(s.z2, 8u);
    EXPECT_GE(s.z3, 16u);
  }
}

TEST(RandomComponents, LaggedFibonacciFollowsItsRecurrence) {
  // Independent evaluation: keep the whole sequence x_{-l} ... and add the lagged terms.
  const LaggedFibonacciLags lags{2281, 1252};
  const std::size_t streams = 100;  // 400 draws per step <= min(1252, 1029)
  RandomStreams generator(RngKind::LaggedFibonacci, 42, streams, lags);
  std::vector<std::uint32_t> sequence;
  for (std::size_t slot = 0; slot < lags.longLag; ++slot)
    sequence.push_back(laggedFibonacciInitialWord(42, slot));
  std::vector<std::uint32_t> words(4 * streams);
  for (int step = 0; step < 40; ++step) {  // 16000 draws: the ring wraps several times
    generator.nextStep(words.data());
    for (std::size_t t = 0; t < words.size(); ++t) {
      const std::size_t n = sequence.size();  // index of x_n in `sequence` is n - (-l) = n + l
      sequence.push_back(sequence[n - lags.shortLag] + sequence[n - lags.longLag]);
      ASSERT_EQ(words[t], sequence.back()) << "step " << step << ", draw " << t;
    }
  }
  EXPECT_EQ(laggedFibonacciInitialWord(42, 0) & 1u, 1u);  // an odd initial word
}

/// x^(2^l) mod (x^l + x^s + 1) over GF(2), bit-serial: equals x iff the trinomial is irreducible
/// (l prime), hence primitive (2^l - 1 prime).
bool trinomialIsPrimitive(std::size_t l, std::size_t s) {
  const std::size_t words = (l + 63) / 64;
  std::vector<std::uint64_t> p(words, 0), square(2 * words + 1, 0);
  p[0] = 2;  // x
  for (std::size_t iteration = 0; iteration < l; ++iteration) {
    std::fill(square.begin(), square.end(), 0);
    for (std::size_t bit = 0; bit < l; ++bit)  // squaring over GF(2) spreads the bits
      if ((p[bit / 64] >> (bit % 64)) & 1u)
        square[(2 * bit) / 64] |= std::uint64_t(1) << ((2 * bit) % 64);
    for (std::size_t bit = 2 * l - 2; bit >= l; --bit) {  // x^bit = x^(bit-l) (x^s + 1)
      if (!((square[bit / 64] >> (bit % 64)) & 1u)) continue;
      square[bit / 64] ^= std::uint64_t(1) << (bit % 64);
      const std::size_t low = bit - l, high = bit - l + s;
      square[low / 64] ^= std::uint64_t(1) << (low % 64);
      square[high / 64] ^= std::uint64_t(1) << (high % 64);
    }
    std::copy(square.begin(), square.begin() + words, p.begin());
  }
  if (p[0] != 2) return false;
  for (std::size_t k = 1; k < words; ++k)
    if (p[k] != 0) return false;
  return true;
}

TEST(RandomComponents, LagTableSmallEntriesArePrimitiveTrinomials) {
  // The bit-serial check costs O(l^2); the larger entries are checked by
  // tools/checks/check_trinomials.
  EXPECT_TRUE(trinomialIsPrimitive(127, 63));  // a known primitive trinomial (Zierler-Brillhart)
  EXPECT_FALSE(trinomialIsPrimitive(127, 62));
  for (const LaggedFibonacciLags& lags : laggedFibonacciLagTable())
    if (lags.longLag <= 10000)
      EXPECT_TRUE(trinomialIsPrimitive(lags.longLag, lags.shortLag)) << "l = " << lags.longLag;
}

TEST(RandomComponents, LagTableIsOrderedAndChoosesTheSmallestSufficientEntry) {
  const auto& table = laggedFibonacciLagTable();
  for (std::size_t k = 1; k < table.size(); ++k) {
    EXPECT_GT(table[k].longLag, table[k - 1].longLag);
    EXPECT_GT(table[k].maxStreams(), table[k - 1].maxStreams());
  }
  EXPECT_EQ(laggedFibonacciLagsFor(1).longLag, 2281u);
  EXPECT_EQ(laggedFibonacciLagsFor(4 * 257).longLag, 2281u);  // min(1252, 1029) / 4 = 257
  EXPECT_EQ(laggedFibonacciLagsFor(4 * 258).longLag, 4423u);
  EXPECT_EQ(table.back().maxStreams(), 7671142u);  // the largest N documented in docs/rng.md
  EXPECT_THROW(laggedFibonacciLagsFor(4 * 7671143), std::invalid_argument);
  EXPECT_THROW(RandomStreams(RngKind::LaggedFibonacci, 1, 300, LaggedFibonacciLags{2281, 1252}),
               std::invalid_argument);
}

// ---- Lagged Fibonacci groups (N beyond the lag table) -------------------------------------------

/// FNV-1a over the words of `steps` steps.
std::uint64_t hashSteps(RandomStreams& streams, int steps, std::vector<std::uint32_t>& words) {
  words.resize(4 * streams.streams());
  std::uint64_t h = 1469598103934665603ull;
  for (int step = 0; step < steps; ++step) {
    streams.nextStep(words.data());
    for (std::uint32_t w : words) {
      h ^= w;
      h *= 1099511628211ull;
    }
  }
  return h;
}

TEST(RandomLaggedFibonacciGroups, OneGroupBelowTheLimitKeepsTheFormerSequence) {
  // Words of 12 steps as the one-group generator made them before groups existed (commit
  // 63edb97): the layout must not change the sequence of any N up to 7,671,142.
  struct Pin {
    std::size_t streams;
    std::uint32_t longLag, first, last;
    std::uint64_t hash;
  };
  for (const Pin& pin : {Pin{1000, 9689, 3622003322u, 337146824u, 0x5bb0f98db644d79ull},
                         Pin{70001, 3021377, 631872565u, 3126868080u, 0x810a54d47b097352ull}}) {
    RandomStreams streams(RngKind::LaggedFibonacci, 12345, pin.streams);
    EXPECT_EQ(streams.layout().groups(), 1u);
    EXPECT_EQ(streams.lags().longLag, pin.longLag);
    std::vector<std::uint32_t> words;
    EXPECT_EQ(hashSteps(streams, 12, words), pin.hash) << pin.streams << " streams";
    EXPECT_EQ(words.front(), pin.first);
    EXPECT_EQ(words.back(), pin.last);
  }
}

TEST(RandomLaggedFibonacciGroups, LayoutSplitsOnlyBeyondTheLimitIntoBalancedGroups) {
  const std::size_t limit = laggedFibonacciMaxGroupStreams();
  EXPECT_EQ(limit, 7671142u);
  LaggedFibonacciLayout one = laggedFibonacciLayoutFor(limit);
  EXPECT_EQ(one.groups(), 1u);
  EXPECT_EQ(one.lags.longLag, 74207281u);
  EXPECT_EQ(laggedFibonacciLayoutFor(1000).lags.longLag, laggedFibonacciLagsFor(4000).longLag);
  // One more particle: two groups of ceil((limit + 1) / 2) = 3835572 and 3835571, whose lags
  // (43112609, 21078848: at most 5269712 particles) are the smallest that serve 3835572.
  LaggedFibonacciLayout two = laggedFibonacciLayoutFor(limit + 1);
  EXPECT_EQ(two.groups(), 2u);
  EXPECT_EQ(two.groupStreams, 3835572u);
  EXPECT_EQ(two.groupSize(1), 3835571u);
  EXPECT_EQ(two.lags.longLag, 43112609u);
  // N = 1e7: two groups of 5e6, 2 x 4 x 43112609 bytes of rings.
  const LaggedFibonacciLayout big = laggedFibonacciLayoutFor(10000000);
  EXPECT_EQ(big.groups(), 2u);
  EXPECT_EQ(big.groupStreams, 5000000u);
  EXPECT_EQ(rngStateBytes(RngKind::LaggedFibonacci, 10000000), 8u * 43112609u);
  const LaggedFibonacciLayout three = laggedFibonacciLayoutFor(20000000);
  EXPECT_EQ(three.groups(), 3u);
  EXPECT_EQ(three.groupStreams, 6666667u);
  EXPECT_EQ(three.groupSize(2), 6666666u);
  EXPECT_EQ(three.lags.longLag, 74207281u);
  // The test hook: groups of at most 300 of 1001 particles are 4 groups of 251 (the last 248),
  // served by l = 2281 (at most 257 particles).
  const LaggedFibonacciLayout small = laggedFibonacciLayoutFor(1001, 300);
  EXPECT_EQ(small.groups(), 4u);
  EXPECT_EQ(small.groupStreams, 251u);
  EXPECT_EQ(small.groupSize(3), 248u);
  EXPECT_EQ(small.lags.longLag, 2281u);
  EXPECT_EQ(small.ringWords(), 4u * 2281u);
  EXPECT_THROW(laggedFibonacciLayoutFor(1001, 0), std::invalid_argument);
  EXPECT_THROW(laggedFibonacciLayoutFor(1001, limit + 1), std::invalid_argument);
  EXPECT_THROW(laggedFibonacciLayoutFor(0), std::invalid_argument);
  LaggedFibonacciLayout wrong = small;
  wrong.lags = {2281, 1252};
  wrong.groupStreams = 300;  // 1200 draws per step > min(1252, 1029)
  EXPECT_THROW(RandomStreams(RngKind::LaggedFibonacci, 1, 1001, wrong), std::invalid_argument);
  EXPECT_THROW(RandomStreams(RngKind::LaggedFibonacci, 1, 1000, small), std::invalid_argument);
}

TEST(RandomLaggedFibonacciGroups, EachGroupFollowsItsOwnRecurrence) {
  // Independent evaluation per group g: its whole sequence from the initial words of (seed, g),
  // x_n = x_{n-s} + x_{n-l}; step k gives local stream i word j = x_{k M_g + j n_g + i}.
  const std::size_t streams = 1001;
  const LaggedFibonacciLayout layout = laggedFibonacciLayoutFor(streams, 300);
  const std::size_t l = layout.lags.longLag, s = layout.lags.shortLag;
  RandomStreams generator(RngKind::LaggedFibonacci, 42, streams, layout);
  EXPECT_EQ(generator.stateBytes(), 4 * layout.ringWords());
  std::vector<std::vector<std::uint32_t>> sequence(layout.groups());
  for (std::size_t g = 0; g < layout.groups(); ++g)
    for (std::size_t slot = 0; slot < l; ++slot)
      sequence[g].push_back(laggedFibonacciInitialWord(42, slot, g));
  EXPECT_NE(sequence[0], sequence[1]);
  EXPECT_EQ(laggedFibonacciInitialWord(42, 7, 0), laggedFibonacciInitialWord(42, 7));
  std::vector<std::uint32_t> words(4 * streams);
  for (int step = 0; step < 12; ++step) {  // about 1000 draws per group and step: rings wrap
    generator.nextStep(words.data());
    for (std::size_t g = 0; g < layout.groups(); ++g) {
      const std::size_t size = layout.groupSize(g);
      std::vector<std::uint32_t>& x = sequence[g];
      for (std::size_t t = 0; t < 4 * size; ++t) x.push_back(x[x.size() - s] + x[x.size() - l]);
      const std::size_t first = x.size() - 4 * size;
      for (std::size_t j = 0; j < 4; ++j)
        for (std::size_t i = 0; i < size; ++i)
          ASSERT_EQ(words[j * streams + g * layout.groupStreams + i], x[first + j * size + i])
              << "step " << step << ", group " << g << ", word " << j << ", stream " << i;
    }
  }
}

TEST(RandomLaggedFibonacciGroups, GroupsResumeFromASavedStateAndRefuseAnInconsistentOne) {
  const LaggedFibonacciLayout layout = laggedFibonacciLayoutFor(1001, 300);
  RandomStreams original(RngKind::LaggedFibonacci, 5, 1001, layout);
  std::vector<std::uint32_t> words, again;
  hashSteps(original, 7, words);
  RandomStreamsState saved = original.state();
  EXPECT_EQ(saved.words.size(), randomStreamsStateWords(RngKind::LaggedFibonacci, 1001, layout));
  EXPECT_EQ(saved.ringBase, 7u * 4u * 251u % 2281u);
  RandomStreams restored(RngKind::LaggedFibonacci, 5, 1001, layout);
  restored.restore(saved);
  EXPECT_EQ(hashSteps(restored, 5, again), hashSteps(original, 5, words));
  EXPECT_EQ(again, words);
  saved.ringBase = (saved.ringBase + 1) % 2281u;  // not where step 7 leaves group 0
  EXPECT_THROW(restored.restore(saved), std::invalid_argument);
}

TEST(RandomStreamsLayout, OneStreamIsTheSequentialGenerator) {
  for (RngKind kind : allRngKinds()) {
    RandomStreams streams(kind, 77, 1);
    std::vector<std::uint32_t> words(4);
    std::vector<std::uint32_t> sequence;
    for (int step = 0; step < 25; ++step) {
      streams.nextStep(words.data());
      sequence.insert(sequence.end(), words.begin(), words.end());
    }
    // Reference: the generator called directly.
    std::vector<std::uint32_t> reference;
    switch (kind) {
      case RngKind::Lcg: {
        std::uint32_t x = 77;
        for (int k = 0; k < 100; ++k) reference.push_back(lcgNext(x));
        break;
      }
      case RngKind::Ran2: {
        Ran2State s;
        ran2Seed(s, 77);
        for (int k = 0; k < 100; ++k) reference.push_back(ran2Word(ran2Next(s)));
        break;
      }
      case RngKind::HybridTaus: {
        HybridTausState s = hybridTausStreamState(77, 0);
        for (int k = 0; k < 100; ++k) reference.push_back(hybridTausNext(s));
        break;
      }
      case RngKind::Philox:
        for (std::uint64_t block = 0; block < 25; ++block) {
          std::uint32_t out[4];
          philoxBlock(77, 0, block, out);
          reference.insert(reference.end(), out, out + 4);
        }
        break;
      case RngKind::LaggedFibonacci:
        reference = sequence;  // checked against its recurrence above
        break;
    }
    EXPECT_EQ(sequence, reference) << rngKindName(kind);
  }
}

TEST(RandomStreamsLayout, LcgStreamsDivideTheCycle) {
  // Stream i starts floor(2^32 / streams) i steps after the seed: with 4 words per step, stream i
  // at step k + spacing / 4 repeats stream i + 1 at step k.
  const std::size_t streams = 1u << 20;  // spacing 4096 words = 1024 steps
  RandomStreams a(RngKind::Lcg, 5, streams);
  std::vector<std::uint32_t> first(4 * streams), later(4 * streams);
  a.nextStep(first.data());
  for (int k = 0; k < 1024; ++k) a.nextStep(later.data());
  for (std::size_t i = 0; i + 1 < streams; i += 4099)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(later[j * streams + i], first[j * streams + i + 1]);
}

TEST(RandomStreamsLayout, PhiloxReachesAnyStepDirectly) {
  RandomStreams streams(RngKind::Philox, 2024, 10);
  std::vector<std::uint32_t> words(40);
  for (int k = 0; k < 7; ++k) streams.nextStep(words.data());
  std::uint32_t direct[4];
  philoxBlock(2024, 3, 6, direct);
  for (int j = 0; j < 4; ++j) EXPECT_EQ(words[j * 10 + 3], direct[j]);
}

TEST(RandomStreamsLayout, StreamsDifferAndReseedRestarts) {
  for (RngKind kind : allRngKinds()) {
    RandomStreams streams(kind, 3, 64);
    std::vector<std::uint32_t> first(256), again(256);
    streams.nextStep(first.data());
    EXPECT_EQ(std::set<std::uint32_t>(first.begin(), first.end()).size(), first.size())
        << rngKindName(kind) << ": repeated words across streams";
    streams.nextStep(again.data());
    EXPECT_EQ(streams.step(), 2u);
    streams.reseed(3);
    EXPECT_EQ(streams.step(), 0u);
    streams.nextStep(again.data());
    EXPECT_EQ(first, again) << rngKindName(kind);
  }
}

TEST(RandomStreamsLayout, NamesRoundTripAndBadNamesThrowASentence) {
  for (RngKind kind : allRngKinds()) EXPECT_EQ(parseRngKind(rngKindName(kind)), kind);
  try {
    parseRngKind("mersenne");
    FAIL() << "parseRngKind accepted 'mersenne'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("philox"), std::string::npos) << e.what();
  }
  EXPECT_THROW(RandomStreams(RngKind::Philox, 1, 0), std::invalid_argument);
}

TEST(RandomStreamsLayout, StateSizesFollowTable1) {
  EXPECT_EQ(rngStateBytes(RngKind::Lcg, 1000), 4000u);
  EXPECT_EQ(rngStateBytes(RngKind::HybridTaus, 1000), 16000u);
  EXPECT_EQ(rngStateBytes(RngKind::Ran2, 1000), 140000u);
  EXPECT_EQ(rngStateBytes(RngKind::Philox, 1000), 0u);
  EXPECT_EQ(rngStateBytes(RngKind::LaggedFibonacci, 1000), 4u * 9689u);  // 4000 <= 4187 draws
  EXPECT_EQ(sizeof(HybridTausState), 16u);
  EXPECT_EQ(sizeof(Ran2State), 140u);
}

// ---- uniforms and Gaussians --------------------------------------------------------------------

TEST(RandomGaussians, UniformsStayInsideTheOpenInterval) {
  EXPECT_GT(uniformOpen(0u), 0.0);
  EXPECT_LT(uniformOpen(0xffffffffu), 1.0);
  EXPECT_EQ(uniformOpen(0x80000000u), 0.5 + 0x1.0p-33);
  EXPECT_EQ(uniformFloat(0u), 0x1.0p-24f);
  EXPECT_EQ(uniformFloat(0xffffffffu), 1.0f);
  EXPECT_EQ(uniformFloat(0x800000ffu), 0.5f + 0x1.0p-24f);  // the low 8 bits are ignored
}

TEST(RandomGaussians, BoxMullerMomentsMatchTheStandardNormal) {
  // 2 x 10^6 Gaussians: mean 0 (SE 7e-4), variance 1 (SE 1e-3), fourth moment 3 (SE 7e-3).
  RandomStreams streams(RngKind::Philox, 11, 250000);
  std::vector<std::uint32_t> words(4 * streams.streams());
  double sum = 0, sum2 = 0, sum4 = 0;
  long count = 0;
  for (int step = 0; step < 4; ++step) {
    streams.nextStep(words.data());
    for (std::size_t k = 0; k + 1 < words.size(); k += 2) {
      double g[2];
      boxMuller(words[k], words[k + 1], g[0], g[1]);
      for (double v : g) {
        sum += v;
        sum2 += v * v;
        sum4 += v * v * v * v;
        ++count;
      }
    }
  }
  EXPECT_NEAR(sum / count, 0.0, 5 * 7.1e-4);
  EXPECT_NEAR(sum2 / count, 1.0, 5 * 1.0e-3);
  EXPECT_NEAR(sum4 / count, 3.0, 5 * 6.9e-3);
}

// ---- CUDA twin
// -------------------------------------------------------------------------------------

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

class RandomStreamsCudaTest : public testing::TestWithParam<RngKind> {};

TEST_P(RandomStreamsCudaTest, WordsEqualTheCpuBitForBit) {
  SKIP_WITHOUT_GPU();
#ifdef LANDSCAPE_HAVE_CUDA
  for (std::size_t streams : {std::size_t(1), std::size_t(1000), std::size_t(70001)}) {
    RandomStreams cpu(GetParam(), 12345, streams);
    RandomStreamsCuda gpu(GetParam(), 12345, streams);
    EXPECT_EQ(gpu.stateBytes(), cpu.stateBytes());
    std::vector<std::uint32_t> a(4 * streams), b(4 * streams);
    for (int step = 0; step < 12; ++step) {  // the Lagged Fibonacci ring wraps for 1000 streams
      cpu.nextStep(a.data());
      gpu.nextStep(b.data());
      ASSERT_EQ(a, b) << rngKindName(GetParam()) << ", " << streams << " streams, step " << step;
    }
    cpu.reseed(9);
    gpu.reseed(9);
    cpu.nextStep(a.data());
    gpu.nextStep(b.data());
    EXPECT_EQ(a, b) << "after reseed";
  }
#endif
}

TEST(RandomStreamsCudaGroups, LaggedFibonacciGroupsEqualTheCpuForEveryAccess) {
  SKIP_WITHOUT_GPU();
#ifdef LANDSCAPE_HAVE_CUDA
  // Four groups (forced small: at most 300 of 1001 streams, the last group smaller) and every
  // way the kernels touch the rings: the same words as the CPU, and the same saved state.
  const std::size_t streams = 1001;
  const LaggedFibonacciLayout layout = laggedFibonacciLayoutFor(streams, 300);
  for (LaggedFibonacciAccess access : allLaggedFibonacciAccesses()) {
    RandomStreams cpu(RngKind::LaggedFibonacci, 77, streams, layout);
    RandomStreamsCuda gpu(RngKind::LaggedFibonacci, 77, streams, layout);
    EXPECT_EQ(gpu.stateBytes(), cpu.stateBytes());
    std::vector<std::uint32_t> a(4 * streams), b(4 * streams);
    for (int step = 0; step < 12; ++step) {
      cpu.nextStep(a.data());
      gpu.nextStep(b.data(), access);
      ASSERT_EQ(a, b) << laggedFibonacciAccessName(access) << ", step " << step;
    }
    const RandomStreamsState sc = cpu.state(), sg = gpu.state();
    EXPECT_EQ(sg.ringBase, sc.ringBase);
    EXPECT_EQ(sg.words, sc.words);
    RandomStreamsCuda resumed(RngKind::LaggedFibonacci, 77, streams, layout);
    resumed.restore(sc);
    cpu.nextStep(a.data());
    resumed.nextStep(b.data(), access);
    EXPECT_EQ(a, b) << laggedFibonacciAccessName(access) << ", after restore";
  }
  // The one-group generator through every access as well (the words test above uses the default).
  for (LaggedFibonacciAccess access : allLaggedFibonacciAccesses()) {
    RandomStreams cpu(RngKind::LaggedFibonacci, 3, 70001);
    RandomStreamsCuda gpu(RngKind::LaggedFibonacci, 3, 70001);
    std::vector<std::uint32_t> a(4 * 70001), b(4 * 70001);
    for (int step = 0; step < 4; ++step) {
      cpu.nextStep(a.data());
      gpu.nextStep(b.data(), access);
      ASSERT_EQ(a, b) << laggedFibonacciAccessName(access) << ", step " << step;
    }
  }
#endif
}

TEST(SlowRandomStreamsCuda, LaggedFibonacciTwoGroupsJustBeyondTheLimitEqualTheCpu) {
  SKIP_WITHOUT_GPU();
#ifdef LANDSCAPE_HAVE_CUDA
  // The first N that needs groups, at full size (32-bit slot arithmetic near l = 43112609, two
  // rings of 172 MB): two steps, CUDA words = CPU words, for the default access.
  const std::size_t streams = laggedFibonacciMaxGroupStreams() + 1;
  RandomStreams cpu(RngKind::LaggedFibonacci, 17, streams);
  RandomStreamsCuda gpu(RngKind::LaggedFibonacci, 17, streams);
  ASSERT_EQ(gpu.layout().groups(), 2u);
  std::vector<std::uint32_t> a(4 * streams), b(4 * streams);
  for (int step = 0; step < 2; ++step) {
    cpu.nextStep(a.data());
    gpu.nextStep(b.data());
    ASSERT_EQ(a, b) << "step " << step;
  }
#endif
}

INSTANTIATE_TEST_SUITE_P(AllGenerators, RandomStreamsCudaTest, testing::ValuesIn(allRngKinds()),
                         [](const testing::TestParamInfo<RngKind>& info) {
                           std::string name = rngKindName(info.param);
                           name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
                           return name;
                         });

}  // namespace
}  // namespace landscape
