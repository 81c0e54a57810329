// Re-derives the primitivity of the Lagged Fibonacci lag table (landscape/dynamics/RngKind.cpp): for prime
// l, x^l + x^s + 1 is irreducible over GF(2) iff x^(2^l) = x modulo it (Rabin's test; the gcd
// condition reduces to f(0) = f(1) = 1), and when 2^l - 1 is a Mersenne prime an irreducible
// trinomial is primitive, so the additive generator has period 2^31 (2^l - 1).
// l squarings modulo the trinomial cost O(l^2 / 64) word operations: seconds up to l ~ 10^5,
// about half an hour for l = 3021377 and hours beyond.
//
// Usage: check_trinomials [--max-degree D]   (default 200000; exit status 1 if any check fails)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "landscape/dynamics/RngKind.h"
#include "src/common/OptionTable.h"

namespace {

using namespace landscape;
using Word = std::uint64_t;

struct Options {
  std::size_t maxDegree = 200000;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("check_trinomials");
  t.about =
      "usage: check_trinomials [--max-degree D]\n"
      "Re-derives the primitivity of the Lagged Fibonacci lag table (landscape/dynamics/RngKind.cpp) "
      "with Rabin's\n"
      "test, x^(2^l) = x modulo x^l + x^s + 1, after a self-check on degree 127; prints each\n"
      "trinomial's verdict and seconds. Cost grows as l^2: seconds up to l ~ 10^5, about half an\n"
      "hour for l = 3021377. Exit status 1 if any check fails.\n";
  t.helpCommand();
  t.add("max-degree", "D", "skip trinomials of degree l above D", fieldOf(&Options::maxDegree));
  return t;
}

/// The 32 low bits of w spread to the even bit positions of a 64-bit word (squaring over GF(2)).
Word spread(std::uint32_t w) {
  static const std::vector<std::uint16_t> table = [] {
    std::vector<std::uint16_t> t(256);
    for (unsigned b = 0; b < 256; ++b) {
      std::uint16_t s = 0;
      for (int k = 0; k < 8; ++k)
        if ((b >> k) & 1u) s |= static_cast<std::uint16_t>(1u << (2 * k));
      t[b] = s;
    }
    return t;
  }();
  return Word(table[w & 0xff]) | Word(table[(w >> 8) & 0xff]) << 16 |
         Word(table[(w >> 16) & 0xff]) << 32 | Word(table[w >> 24]) << 48;
}

void xorAt(std::vector<Word>& r, Word w, std::size_t bit) {
  const std::size_t q = bit / 64, b = bit % 64;
  r[q] ^= w << b;
  if (b != 0) r[q + 1] ^= w >> (64 - b);
}

/// True iff x^(2^l) = x modulo x^l + x^s + 1 (needs l - s >= 64 so that a folded word never lands
/// on itself; true for every table entry).
bool isPrimitive(std::size_t l, std::size_t s) {
  const std::size_t words = (l + 63) / 64, topWord = l / 64, topBit = l % 64;
  std::vector<Word> p(words, 0), r(2 * words + 2, 0);
  p[0] = 2;  // x
  for (std::size_t iteration = 0; iteration < l; ++iteration) {
    for (std::size_t i = 0; i < words; ++i) {
      r[2 * i] = spread(static_cast<std::uint32_t>(p[i]));
      r[2 * i + 1] = spread(static_cast<std::uint32_t>(p[i] >> 32));
    }
    r[2 * words] = r[2 * words + 1] = 0;
    // Fold every bit at position l + k >= l onto k and k + s (x^l = x^s + 1), top word first.
    for (std::size_t i = 2 * words + 1; i >= topWord; --i) {
      Word w = r[i];
      if (i == topWord) w &= ~((Word(1) << topBit) - 1);
      if (w != 0) {
        r[i] ^= w;
        if (i == topWord) {
          xorAt(r, w >> topBit, 0);
          xorAt(r, w >> topBit, s);
        } else {
          xorAt(r, w, 64 * i - l);
          xorAt(r, w, 64 * i - l + s);
        }
      }
      if (i == topWord) break;
    }
    for (std::size_t i = 0; i < words; ++i) p[i] = r[i];
  }
  if (p[0] != 2) return false;
  for (std::size_t i = 1; i < words; ++i)
    if (p[i] != 0) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  const std::size_t maxDegree = o.maxDegree;
  // Controls: x^127 + x^63 + 1 is primitive, x^127 + x^62 + 1 is not.
  if (!isPrimitive(127, 63) || isPrimitive(127, 62)) {
    std::printf("self-check on degree 127 failed\n");
    return 1;
  }
  int failures = 0;
  for (const landscape::LaggedFibonacciLags& lags : landscape::laggedFibonacciLagTable()) {
    if (lags.longLag > maxDegree) {
      std::printf("x^%u + x^%u + 1: skipped (degree above --max-degree %zu)\n", lags.longLag,
                  lags.shortLag, maxDegree);
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = isPrimitive(lags.longLag, lags.shortLag);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("x^%u + x^%u + 1: %s (%.1f s)\n", lags.longLag, lags.shortLag,
                ok ? "primitive" : "NOT irreducible", seconds);
    std::fflush(stdout);
    failures += ok ? 0 : 1;
  }
  return failures == 0 ? 0 : 1;
}
