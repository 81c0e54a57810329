#include "landscape/core/Checksum.h"

#include <array>
#include <cstdio>

namespace landscape {

namespace {

// Eight tables for slicing-by-8 (Kounavis and Berry, IEEE Trans. Comput. 57, 1550 (2008)): table 0
// is the byte-wise table of the reflected polynomial 0xEDB88320, table k advances a byte's
// remainder through k more zero bytes, so eight bytes are folded with eight lookups at once.
// The values are those of the byte-wise loop; only the speed differs (checkpoints of thousands of
// walkers are tens of megabytes).
using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

Tables makeTables() {
  Tables t{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][n] = c;
  }
  for (std::uint32_t n = 0; n < 256; ++n)
    for (std::size_t k = 1; k < 8; ++k) t[k][n] = t[0][t[k - 1][n] & 0xFFu] ^ (t[k - 1][n] >> 8);
  return t;
}

}  // namespace

std::uint32_t crc32(const void* data, std::size_t size, std::uint32_t crc) {
  static const Tables t = makeTables();
  const auto* bytes = static_cast<const unsigned char*>(data);
  crc = ~crc;
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    // Little-endian assembly of the next eight bytes, independent of the host's byte order.
    const std::uint32_t low =
        crc ^ (std::uint32_t{bytes[i]} | std::uint32_t{bytes[i + 1]} << 8 |
               std::uint32_t{bytes[i + 2]} << 16 | std::uint32_t{bytes[i + 3]} << 24);
    crc = t[7][low & 0xFFu] ^ t[6][(low >> 8) & 0xFFu] ^ t[5][(low >> 16) & 0xFFu] ^
          t[4][low >> 24] ^ t[3][bytes[i + 4]] ^ t[2][bytes[i + 5]] ^ t[1][bytes[i + 6]] ^
          t[0][bytes[i + 7]];
  }
  for (; i < size; ++i) crc = t[0][(crc ^ bytes[i]) & 0xFFu] ^ (crc >> 8);
  return ~crc;
}

std::string crc32Hex(std::uint32_t crc) {
  char buffer[9];
  std::snprintf(buffer, sizeof buffer, "%08x", static_cast<unsigned>(crc));
  return buffer;
}

}  // namespace landscape
