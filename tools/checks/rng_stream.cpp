// Writes one generator's 32-bit words to stdout, little-endian, for statistical test suites:
//
//   rng_stream --generator NAME --seed S [--count N] [--particles P] | dieharder -g 200 -a
//
// Endless unless --count is given. The words are stream 0 of RandomStreams (landscape/
// RandomStreams.h) in order, i.e. exactly what the Langevin integrators draw:
//   lcg               the LCG state x_n itself (native 32 bits; seed's low 32 bits is x_0);
//   ran2              floor(u 2^32) of ran2's uniform u = iy / 2147483563 (native output is 31
//   bits) hybrid-taus       the native 32-bit output (taus88 xor LCG); lagged-fibonacci  x_n of the
//   additive recurrence mod 2^32 (native), with the lags the
//                     integrator uses for P particles (default 1: l = 2281, s = 1252);
//   philox            Philox4x32-10 words, counter (block, stream 0), key = seed (native).
// docs/rng.md lists the dieharder subset and verdicts.
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/dynamics/RandomStreams.h"
#include "landscape/dynamics/RngKind.h"
#include "src/common/OptionTable.h"

namespace {

using namespace landscape;

struct Options {
  std::optional<RngKind> generator;
  std::optional<std::uint64_t> seed;
  std::uint64_t count = std::numeric_limits<std::uint64_t>::max(), particles = 1;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("rng_stream");
  t.about =
      "usage: rng_stream --generator NAME --seed S [--count N] [--particles P]\n"
      "Writes 32-bit little-endian words to stdout (endless without --count).\n";
  t.helpCommand();
  t.add("generator", "", "the generator (required)", fieldOf(&Options::generator))
      .choices(allRngKinds(), rngKindName)
      .defaultText("");
  t.add("seed", "S", "the seed (required)", fieldOf(&Options::seed)).atLeast(0).defaultText("");
  t.add("count", "N", "words to write", fieldOf(&Options::count)).atLeast(0).defaultText("endless");
  t.add("particles", "P", "picks the lagged-fibonacci lags the integrator uses for P particles",
        fieldOf(&Options::particles))
      .atLeast(1);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    if (!o.generator || !o.seed) {
      std::fprintf(stderr, "rng_stream: --generator and --seed are required (--help)\n");
      return 2;
    }
    const RngKind kind = *o.generator;
    const std::uint64_t seed = *o.seed, particles = o.particles;
    std::uint64_t count = o.count;
    RandomStreams streams(kind, seed, 1,
                          kind == RngKind::LaggedFibonacci
                              ? laggedFibonacciLayoutFor(particles).lags
                              : LaggedFibonacciLags{});
    std::signal(SIGPIPE, SIG_IGN);  // a reader that stops (dieharder) ends us through EPIPE
    constexpr std::size_t kStepsPerChunk = 4096;
    std::vector<std::uint32_t> words(kWordsPerStreamStep * kStepsPerChunk);
    std::vector<unsigned char> bytes(4 * words.size());
    while (count > 0) {
      for (std::size_t s = 0; s < kStepsPerChunk; ++s)
        streams.nextStep(words.data() + kWordsPerStreamStep * s);
      const std::size_t n = count < words.size() ? static_cast<std::size_t>(count) : words.size();
      for (std::size_t k = 0; k < n; ++k)
        for (int b = 0; b < 4; ++b)
          bytes[4 * k + b] = static_cast<unsigned char>(words[k] >> (8 * b));
      if (std::fwrite(bytes.data(), 4, n, stdout) != n) {
        if (errno == EPIPE) return 0;
        throw std::runtime_error(std::string("writing to stdout failed: ") + std::strerror(errno));
      }
      count -= n;
    }
    if (std::fflush(stdout) != 0 && errno != EPIPE)
      throw std::runtime_error(std::string("writing to stdout failed: ") + std::strerror(errno));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rng_stream: %s\n", e.what());
    return 1;
  }
}
