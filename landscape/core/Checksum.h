#pragma once
// CRC-32 (the IEEE 802.3 polynomial, reflected, as zlib's crc32 and PNG compute it) of the bytes a
// file holds, so that a value changed after it was written (a flipped bit, a hand edit, a
// half-copied file) is found before a run trusts it. Not a cryptographic hash: it detects damage,
// not tampering. Also FNV-1a (Fowler, Noll and Vo; 64 bits): a fingerprint of results, for
// benchmarks and files to show that a change left them as they were.
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

/// FNV-1a's 64-bit offset basis: the hash of no bytes.
constexpr std::uint64_t kFnv1aOffsetBasis = 14695981039346656037ull;
/// 64-bit FNV-1a of `size` bytes, continuing from `hash`.
inline std::uint64_t fnv1a(const void* data, std::size_t size,
                           std::uint64_t hash = kFnv1aOffsetBasis) {
  const unsigned char* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t k = 0; k < size; ++k) hash = (hash ^ bytes[k]) * 1099511628211ull;
  return hash;
}

}  // namespace landscape
