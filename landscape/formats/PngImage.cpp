#include "landscape/formats/PngImage.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <stdexcept>

#include "landscape/formats/AtomicFile.h"

namespace landscape {

namespace {

// 3x5 glyphs, one row per entry, bit 2 = left column.
struct Glyph {
  char c;
  std::array<std::uint8_t, 5> rows;
};

const std::array<Glyph, 16> kGlyphs = {{
    {'0', {7, 5, 5, 5, 7}},
    {'1', {2, 6, 2, 2, 7}},
    {'2', {7, 1, 7, 4, 7}},
    {'3', {7, 1, 7, 1, 7}},
    {'4', {5, 5, 7, 1, 1}},
    {'5', {7, 4, 7, 1, 7}},
    {'6', {7, 4, 7, 5, 7}},
    {'7', {7, 1, 1, 1, 1}},
    {'8', {7, 5, 7, 5, 7}},
    {'9', {7, 5, 7, 1, 7}},
    {'-', {0, 0, 7, 0, 0}},
    {'+', {0, 2, 7, 2, 0}},
    {'.', {0, 0, 0, 0, 2}},
    {'E', {7, 4, 6, 4, 7}},
    {'e', {0, 7, 7, 4, 7}},
    {' ', {0, 0, 0, 0, 0}},
}};

void appendBigEndian(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xFF));
  }
}

// A PNG chunk: length, type, data, CRC-32 over type and data.
void appendChunk(std::string& out, const char* type, const std::string& data) {
  appendBigEndian(out, static_cast<std::uint32_t>(data.size()));
  std::string typed(type, 4);
  typed += data;
  out += typed;
  appendBigEndian(out, crc32(reinterpret_cast<const std::uint8_t*>(typed.data()), typed.size()));
}

}  // namespace

RgbImage::RgbImage(int width, int height, Rgb background) : m_width(width), m_height(height) {
  if (width < 1 || height < 1) {
    throw std::invalid_argument("RgbImage: width and height must be >= 1, got " +
                                std::to_string(width) + " x " + std::to_string(height));
  }
  m_pixels.resize(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t i = 0; i < m_pixels.size(); i += 3) {
    m_pixels[i] = background.r;
    m_pixels[i + 1] = background.g;
    m_pixels[i + 2] = background.b;
  }
}

void RgbImage::set(int x, int y, Rgb colour) {
  if (x < 0 || y < 0 || x >= m_width || y >= m_height) return;
  const std::size_t at = (static_cast<std::size_t>(y) * m_width + x) * 3;
  m_pixels[at] = colour.r;
  m_pixels[at + 1] = colour.g;
  m_pixels[at + 2] = colour.b;
}

Rgb RgbImage::at(int x, int y) const {
  if (x < 0 || y < 0 || x >= m_width || y >= m_height) {
    throw std::out_of_range("RgbImage::at: (" + std::to_string(x) + ", " + std::to_string(y) +
                            ") is outside the image");
  }
  const std::size_t i = (static_cast<std::size_t>(y) * m_width + x) * 3;
  return {m_pixels[i], m_pixels[i + 1], m_pixels[i + 2]};
}

void RgbImage::line(int x0, int y0, int x1, int y1, Rgb colour, int thickness) {
  const int dx = std::abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
  const int dy = -std::abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
  const int half = std::max(thickness, 1) / 2;
  int error = dx + dy;
  for (;;) {
    for (int oy = -half; oy <= half - (thickness % 2 == 0 ? 1 : 0); ++oy) {
      for (int ox = -half; ox <= half - (thickness % 2 == 0 ? 1 : 0); ++ox) {
        set(x0 + ox, y0 + oy, colour);
      }
    }
    if (x0 == x1 && y0 == y1) break;
    const int twice = 2 * error;
    if (twice >= dy) {
      error += dy;
      x0 += sx;
    }
    if (twice <= dx) {
      error += dx;
      y0 += sy;
    }
  }
}

int RgbImage::textWidth(const std::string& s, int scale) {
  return s.empty() ? 0 : static_cast<int>(s.size()) * 4 * scale - scale;
}

void RgbImage::text(int x, int y, const std::string& s, Rgb colour, int scale) {
  for (std::size_t k = 0; k < s.size(); ++k) {
    const auto glyph =
        std::find_if(kGlyphs.begin(), kGlyphs.end(), [&](const Glyph& g) { return g.c == s[k]; });
    if (glyph == kGlyphs.end()) continue;
    const int left = x + static_cast<int>(k) * 4 * scale;
    for (int row = 0; row < 5; ++row) {
      for (int column = 0; column < 3; ++column) {
        if (!(glyph->rows[row] & (4 >> column))) continue;
        for (int py = 0; py < scale; ++py) {
          for (int px = 0; px < scale; ++px) {
            set(left + column * scale + px, y + row * scale + py, colour);
          }
        }
      }
    }
  }
}

std::uint32_t crc32(const std::uint8_t* data, std::size_t size) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) c = table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::uint32_t adler32(const std::uint8_t* data, std::size_t size) {
  constexpr std::uint32_t kModulus = 65521;
  std::uint32_t a = 1, b = 0;
  for (std::size_t i = 0; i < size; ++i) {
    a = (a + data[i]) % kModulus;
    b = (b + a) % kModulus;
  }
  return (b << 16) | a;
}

std::string encodePng(const RgbImage& image) {
  // Raw scanlines: filter type 0 (None), then the RGB bytes of the row.
  const std::size_t rowBytes = static_cast<std::size_t>(image.width()) * 3;
  std::string raw;
  raw.reserve((rowBytes + 1) * image.height());
  const auto& pixels = image.pixels();
  for (int y = 0; y < image.height(); ++y) {
    raw.push_back('\0');
    raw.append(reinterpret_cast<const char*>(pixels.data()) + y * rowBytes, rowBytes);
  }
  // zlib stream: header (deflate, 32 KiB window, no dictionary, check bits), stored blocks of at
  // most 65535 bytes, Adler-32 of the raw data.
  std::string zlib = {'\x78', '\x01'};
  constexpr std::size_t kMaxStored = 65535;
  std::size_t offset = 0;
  do {
    const std::size_t length = std::min(kMaxStored, raw.size() - offset);
    const bool last = offset + length == raw.size();
    zlib.push_back(last ? '\x01' : '\x00');  // BFINAL, BTYPE = 00 (stored)
    zlib.push_back(static_cast<char>(length & 0xFF));
    zlib.push_back(static_cast<char>((length >> 8) & 0xFF));
    zlib.push_back(static_cast<char>(~length & 0xFF));
    zlib.push_back(static_cast<char>((~length >> 8) & 0xFF));
    zlib.append(raw, offset, length);
    offset += length;
  } while (offset < raw.size());
  appendBigEndian(zlib, adler32(reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()));

  std::string png = "\x89PNG\r\n\x1a\n";
  std::string header;
  appendBigEndian(header, static_cast<std::uint32_t>(image.width()));
  appendBigEndian(header, static_cast<std::uint32_t>(image.height()));
  header += std::string{'\x08', '\x02', '\x00', '\x00', '\x00'};  // 8 bit, RGB, deflate, ...
  appendChunk(png, "IHDR", header);
  appendChunk(png, "IDAT", zlib);
  appendChunk(png, "IEND", "");
  return png;
}

void writePng(const std::string& path, const RgbImage& image) {
  writeFileAtomically(path, encodePng(image), "PNG image");
}

}  // namespace landscape
