#pragma once
// CRC-32 (the IEEE 802.3 polynomial, reflected, as zlib's crc32 and PNG compute it) of the bytes a
// file holds, so that a value changed after it was written (a flipped bit, a hand edit, a
// half-copied file) is found before a run trusts it. Not a cryptographic hash: it detects damage,
// not tampering.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace landscape {

/// CRC-32 of `size` bytes, continuing from `crc` (0 for a fresh checksum).
std::uint32_t crc32(const void* data, std::size_t size, std::uint32_t crc = 0);
inline std::uint32_t crc32(std::string_view bytes, std::uint32_t crc = 0) {
  return crc32(bytes.data(), bytes.size(), crc);
}
/// The checksum as eight lower-case hexadecimal digits, the form the files store.
std::string crc32Hex(std::uint32_t crc);

}  // namespace landscape
