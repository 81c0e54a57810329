// Disconnectivity graphs (landscape/DisconnectivityGraph) on a hand-made network, and the PNG
// writer (landscape/PngImage): checksums against published values, the stored-deflate stream
// decoded by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "landscape/formats/PngImage.h"
#include "landscape/network/DisconnectivityGraph.h"

namespace landscape {
namespace {

// Minima A (-10), B (-8), C (-9) joined by transition states A-B (-6) and B-C (-7); D (-5) is
// connected to nothing.
StoredTransitionNetwork sampleNetwork() {
  StoredTransitionNetwork n;
  for (double e : {-10.0, -8.0, -9.0, -5.0}) {
    StoredNetworkMinimum m;
    m.energy = e;
    n.minima.push_back(m);
  }
  StoredTransitionState ab, bc;
  ab.energy = -6.0;
  ab.plusMinimum = 0;
  ab.minusMinimum = 1;
  bc.energy = -7.0;
  bc.plusMinimum = 1;
  bc.minusMinimum = 2;
  n.transitionStates = {ab, bc};
  return n;
}

TEST(DisconnectivityGraph, SuperbasinsAndLeaves) {
  DisconnectivityParams p;
  p.levels = 8;
  p.topEnergy = -5.5;
  const DisconnectivityGraph g = buildDisconnectivityGraph(sampleNetwork(), p);
  EXPECT_EQ(g.minima, (std::vector<int>{0, 1, 2}));  // D is not connected to the global minimum
  ASSERT_EQ(g.levels.size(), 9u);
  EXPECT_DOUBLE_EQ(g.levels.front(), -5.5);
  EXPECT_DOUBLE_EQ(g.levels.back(), -10.0);
  EXPECT_DOUBLE_EQ(g.lowestEnergy, -10.0);
  // Every minimum's line ends at its own energy, at its own x.
  for (std::size_t k = 0; k < g.minima.size(); ++k) {
    const double e = sampleNetwork().minima[g.minima[k]].energy;
    const auto ends = std::count_if(g.segments.begin(), g.segments.end(), [&](const auto& s) {
      return s.energy1 == e && s.x1 == g.minimumX[k];
    });
    EXPECT_EQ(ends, 1) << "minimum " << g.minima[k];
    EXPECT_GT(g.minimumX[k], 0.0);
    EXPECT_LT(g.minimumX[k], 1.0);
  }
  // Segments run downhill, from one level to the next or to a minimum.
  for (const DisconnectivitySegment& s : g.segments) {
    EXPECT_GE(s.energy0, s.energy1);
    EXPECT_NE(std::find(g.levels.begin(), g.levels.end(), s.energy0), g.levels.end());
  }
  // B and C (joined at -7) split from each other below -7, A from {B, C} below -6: the global
  // minimum sits to one side, B and C side by side.
  EXPECT_NEAR(std::abs(g.minimumX[1] - g.minimumX[2]), 1.0 / 3.0, 1e-12);
  // With every minimum: D joins at the top level.
  p.connectedToLowestOnly = false;
  p.topEnergy = -4.0;
  EXPECT_EQ(buildDisconnectivityGraph(sampleNetwork(), p).minima.size(), 4u);
}

TEST(DisconnectivityGraph, AutomaticTopAndErrors) {
  const DisconnectivityGraph g = buildDisconnectivityGraph(sampleNetwork());
  EXPECT_GT(g.levels.front(), -6.0);  // above the highest transition state drawn
  EXPECT_EQ(g.levels.size(), 21u);
  EXPECT_THROW(buildDisconnectivityGraph({}), std::invalid_argument);
  StoredTransitionNetwork bad = sampleNetwork();
  bad.transitionStates[0].minusMinimum = 9;
  EXPECT_THROW(buildDisconnectivityGraph(bad), std::invalid_argument);
  DisconnectivityParams p;
  p.levels = 0;
  EXPECT_THROW(buildDisconnectivityGraph(sampleNetwork(), p), std::invalid_argument);
  p.levels = 5;
  p.topEnergy = -11.0;
  EXPECT_THROW(buildDisconnectivityGraph(sampleNetwork(), p), std::invalid_argument);
}

// ---- PNG ----

const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

std::uint32_t bigEndian(const std::string& s, std::size_t at) {
  return (std::uint32_t(std::uint8_t(s[at])) << 24) |
         (std::uint32_t(std::uint8_t(s[at + 1])) << 16) |
         (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

TEST(PngImage, ChecksumsMatchPublishedValues) {
  EXPECT_EQ(crc32(bytes("IEND"), 4), 0xAE426082u);       // every PNG ends with this CRC
  EXPECT_EQ(crc32(bytes("123456789"), 9), 0xCBF43926u);  // the CRC-32 check value
  EXPECT_EQ(adler32(bytes("Wikipedia"), 9), 0x11E60398u);
  EXPECT_EQ(adler32(nullptr, 0), 1u);
}

// Chunks of a PNG file: type -> data, CRCs checked.
std::vector<std::pair<std::string, std::string>> chunks(const std::string& png) {
  std::vector<std::pair<std::string, std::string>> out;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n"));
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t length = bigEndian(png, at);
    const std::string typed = png.substr(at + 4, 4 + length);
    EXPECT_EQ(bigEndian(png, at + 8 + length), crc32(bytes(typed), typed.size()));
    out.emplace_back(typed.substr(0, 4), typed.substr(4));
    at += 12 + length;
  }
  return out;
}

// Inflates a zlib stream made of stored blocks only.
std::string inflateStored(const std::string& z) {
  EXPECT_EQ(std::uint8_t(z[0]), 0x78);
  EXPECT_EQ((std::uint8_t(z[0]) * 256 + std::uint8_t(z[1])) % 31, 0);  // header check bits
  std::string raw;
  std::size_t at = 2;
  for (bool last = false; !last;) {
    last = z[at] & 1;
    EXPECT_EQ((z[at] >> 1) & 3, 0);  // BTYPE stored
    const std::size_t length = std::uint8_t(z[at + 1]) | (std::uint8_t(z[at + 2]) << 8);
    const std::size_t complement = std::uint8_t(z[at + 3]) | (std::uint8_t(z[at + 4]) << 8);
    EXPECT_EQ(length ^ 0xFFFF, complement);
    raw += z.substr(at + 5, length);
    at += 5 + length;
  }
  EXPECT_EQ(bigEndian(z, at), adler32(bytes(raw), raw.size()));
  EXPECT_EQ(at + 4, z.size());
  return raw;
}

TEST(PngImage, EncodesRgbScanlinesInStoredDeflateBlocks) {
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{2, 1}, {200, 150}}) {
    RgbImage image(w, h);
    image.set(1, 0, {10, 20, 30});
    image.line(0, h - 1, w - 1, h - 1, {255, 0, 0});
    const auto parts = chunks(encodePng(image));
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[0].first, "IHDR");
    EXPECT_EQ(bigEndian(parts[0].second, 0), std::uint32_t(w));
    EXPECT_EQ(bigEndian(parts[0].second, 4), std::uint32_t(h));
    EXPECT_EQ(parts[0].second.substr(8), std::string("\x08\x02\x00\x00\x00", 5));
    EXPECT_EQ(parts[1].first, "IDAT");
    EXPECT_EQ(parts[2].first, "IEND");
    const std::string raw = inflateStored(parts[1].second);
    ASSERT_EQ(raw.size(), std::size_t(h) * (3 * w + 1));
    for (int y = 0; y < h; ++y) {
      EXPECT_EQ(raw[y * (3 * w + 1)], '\0');  // filter None
      for (int x = 0; x < w; ++x) {
        const Rgb p = image.at(x, y);
        const std::size_t at = y * (3 * w + 1) + 1 + 3 * x;
        EXPECT_EQ(std::uint8_t(raw[at]), p.r);
        EXPECT_EQ(std::uint8_t(raw[at + 1]), p.g);
        EXPECT_EQ(std::uint8_t(raw[at + 2]), p.b);
      }
    }
  }
}

TEST(PngImage, DrawingStaysInsideTheImage) {
  RgbImage image(10, 10);
  image.line(-5, 5, 20, 5, {0, 0, 0}, 3);
  EXPECT_EQ(image.at(0, 5).r, 0);
  EXPECT_EQ(image.at(9, 4).r, 0);
  EXPECT_EQ(image.at(9, 7).r, 255);
  image.line(2, 0, 2, 9, {0, 0, 255});
  EXPECT_EQ(image.at(2, 9).b, 255);
  EXPECT_EQ(image.at(2, 9).r, 0);
  image.text(0, 0, "-1.5E+2", {0, 0, 0}, 1);
  EXPECT_EQ(RgbImage::textWidth("-1.5", 2), 30);
  EXPECT_THROW(image.at(10, 0), std::out_of_range);
  EXPECT_THROW(RgbImage(0, 5), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
