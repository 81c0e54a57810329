#include <gtest/gtest.h>

#include <string>

#include "landscape/core/Checksum.h"

namespace landscape {
namespace {

// Reference values: the CRC-32 check value of "123456789" (0xCBF43926, the catalogue of
// parametrised CRC algorithms, CRC-32/ISO-HDLC), the rest from Python's zlib.crc32.
TEST(Checksum, MatchesZlibCrc32) {
  EXPECT_EQ(crc32(std::string("123456789")), 0xCBF43926u);
  EXPECT_EQ(crc32(std::string()), 0u);
  EXPECT_EQ(crc32(std::string("landscape-basin-hopping-checkpoint 3\n")), 0x40b4fe37u);
  std::string bytes;
  for (int copy = 0; copy < 3; ++copy)
    for (int b = 0; b < 256; ++b) bytes += static_cast<char>(b);
  EXPECT_EQ(crc32(bytes), 0xb0c0df2au);
}

// Long buffers go eight bytes at a time: every alignment and tail against Python's zlib.crc32 of
// the same bytes ((31 i^2 + 7 i) mod 251).
TEST(Checksum, LongBuffersAtAnyOffsetMatchZlib) {
  std::string bytes(100003, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<char>((i * i * 31 + 7 * i) % 251);
  EXPECT_EQ(crc32(bytes), 0xc7e02adfu);
  EXPECT_EQ(crc32(bytes.data() + 1, 100000), 0x17c03545u);
  EXPECT_EQ(crc32(bytes.data() + 3, 77777), 0xfc73cb51u);
  EXPECT_EQ(crc32(bytes.data() + 5, 13), 0x439f1a42u);
  EXPECT_EQ(crc32(bytes.data() + 7, 8), 0xc0988b63u);
  EXPECT_EQ(crc32(bytes.data() + 2, 0), 0u);
  // Any split continues to the same value.
  for (std::size_t cut : {1u, 7u, 8u, 9u, 4097u})
    EXPECT_EQ(crc32(bytes.data() + cut, bytes.size() - cut, crc32(bytes.data(), cut)), 0xc7e02adfu);
}

TEST(Checksum, ContinuesAcrossPieces) {
  const std::string text = "min.data 17 -173.928427\n";
  EXPECT_EQ(crc32(text.substr(9), crc32(text.substr(0, 9))), crc32(text));
}

TEST(Checksum, HexFormIsEightDigits) {
  EXPECT_EQ(crc32Hex(0xCBF43926u), "cbf43926");
  EXPECT_EQ(crc32Hex(0x1u), "00000001");
}

TEST(Checksum, OneChangedDigitChangesIt) {
  EXPECT_NE(crc32(std::string("step-size 0x1.8p-1\n")), crc32(std::string("step-size 0x1.9p-1\n")));
}

// The published 64-bit FNV-1a test vectors (Noll's FNV test suite: "", "a", "foobar").
TEST(Checksum, Fnv1aMatchesItsPublishedVectorsAndContinuesAcrossPieces) {
  EXPECT_EQ(fnv1a("", 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a("a", 1), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a("foobar", 6), 0x85944171f73967e8ull);
  EXPECT_EQ(fnv1a("bar", 3, fnv1a("foo", 3)), 0x85944171f73967e8ull);
}

}  // namespace
}  // namespace landscape
