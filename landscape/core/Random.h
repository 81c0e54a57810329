#pragma once
// The seeded generator of the host-side algorithms (basin-hopping moves, Metropolis, restarts).
// mt19937_64 with our own conversion to doubles, so a seed gives the same run bit for bit on
// every standard library (std::uniform_real_distribution is implementation-defined).
#include <cstdint>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

namespace landscape {

/// The seed of stream `index` of a run seeded with `seed`: stream 0 is the seed itself (so a run
/// of one stream is the run of that seed), others a SplitMix64 hash of the pair, so that streams
/// depend only on (seed, index) -- e.g. the walkers of `gmin --walkers`.
inline std::uint64_t streamSeed(std::uint64_t seed, std::uint64_t index) {
  if (index == 0) return seed;
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Random {
 public:
  explicit Random(std::uint64_t seed) : m_engine(seed) {}
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() {
    ++m_draws;
    return static_cast<double>(m_engine() >> 11) * 0x1.0p-53;
  }
  /// Uniform in [-1, 1).
  double symmetric() { return 2.0 * uniform() - 1.0; }

  /// The engine's complete state as text (the standard's decimal form of mt19937_64: 312 words
  /// and the position), so a checkpointed run continues with the same numbers bit for bit.
  std::string state() const {
    std::ostringstream out;
    out << m_engine;
    return out.str();
  }
  /// Restores a state() string. Throws std::invalid_argument when it is not one.
  void restore(const std::string& state) {
    std::istringstream in(state);
    std::mt19937_64 engine;
    in >> engine;
    std::string rest;
    if (in.fail() || (in >> rest))
      throw std::invalid_argument("not an mt19937_64 state (312 words and a position expected)");
    m_engine = engine;
  }

  /// Numbers drawn so far by this object and the ones it was copied from (a count, not part of
  /// state(): restore() changes the stream and keeps counting).
  std::uint64_t draws() const { return m_draws; }
  /// Moves on by `count` numbers without forming them (the engine's discard), counted as drawn:
  /// a copy taken `count` draws ago, skipped forward, is this object again.
  void skip(std::uint64_t count) {
    m_engine.discard(count);
    m_draws += count;
  }

 private:
  std::mt19937_64 m_engine;
  std::uint64_t m_draws = 0;
};

}  // namespace landscape
