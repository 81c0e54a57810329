#pragma once
// One 64-bit hash key for a pair of minimum indices (the tried pairs of a pair selection, the
// cache of minimum distances), for hashed sets and maps of pairs.
#include <algorithm>
#include <cstdint>

namespace landscape {

/// The key of the ordered pair (a, b): a in the high 32 bits, b in the low.
inline std::uint64_t orderedPairKey(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
         static_cast<std::uint32_t>(b);
}

/// The key of the pair {a, b} in either order.
inline std::uint64_t unorderedPairKey(int a, int b) {
  const auto [low, high] = std::minmax(a, b);
  return orderedPairKey(low, high);
}

}  // namespace landscape
