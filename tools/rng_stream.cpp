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
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/dynamics/RandomStreams.h"
#include "potentials/RngKind.h"

namespace {

using namespace landscape;

void printUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: rng_stream --generator NAME --seed S [--count N] [--particles P]\n"
               "  NAME: lcg, ran2, hybrid-taus, lagged-fibonacci, philox\n"
               "  writes 32-bit little-endian words to stdout (endless without --count);\n"
               "  --particles P picks the lagged-fibonacci lags the integrator uses for P "
               "particles\n");
}

std::uint64_t parseCount(const std::string& flag, const std::string& value) {
  if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(flag + " needs a non-negative integer, got '" + value + "'");
  errno = 0;
  const unsigned long long parsed = std::strtoull(value.c_str(), nullptr, 10);
  if (errno == ERANGE) throw std::invalid_argument(flag + " is out of range: " + value);
  return parsed;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string generator;
    std::uint64_t seed = 0, count = std::numeric_limits<std::uint64_t>::max(), particles = 1;
    bool haveSeed = false;
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        printUsage(stdout);
        return 0;
      }
      if (flag != "--generator" && flag != "--seed" && flag != "--count" && flag != "--particles")
        throw std::invalid_argument("unknown option " + flag);
      if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
      const std::string value = argv[++i];
      if (flag == "--generator") {
        generator = value;
      } else if (flag == "--seed") {
        seed = parseCount(flag, value);
        haveSeed = true;
      } else if (flag == "--count") {
        count = parseCount(flag, value);
      } else {  // --particles
        particles = parseCount(flag, value);
        if (particles == 0) throw std::invalid_argument("--particles must be >= 1");
      }
    }
    if (generator.empty() || !haveSeed) {
      printUsage(stderr);
      return 2;
    }
    const RngKind kind = parseRngKind(generator);
    RandomStreams streams(kind, seed, 1,
                          kind == RngKind::LaggedFibonacci
                              ? laggedFibonacciLagsFor(kWordsPerStreamStep * particles)
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
