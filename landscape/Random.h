#pragma once
// The seeded generator of the host-side algorithms (basin-hopping moves, Metropolis, restarts).
// mt19937_64 with our own conversion to doubles, so a seed gives the same run bit for bit on
// every standard library (std::uniform_real_distribution is implementation-defined).
#include <cstdint>
#include <random>

namespace landscape {

class Random {
 public:
  explicit Random(std::uint64_t seed) : m_engine(seed) {}
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
  /// Uniform in [-1, 1).
  double symmetric() { return 2.0 * uniform() - 1.0; }

 private:
  std::mt19937_64 m_engine;
};

}  // namespace landscape
