#pragma once
// A small RGB raster with line drawing and a 3x5 digit font, and a PNG encoder that needs no
// compression library: the image data go into zlib's "stored" (uncompressed) deflate blocks
// (RFC 1950/1951), with the CRC-32 of every PNG chunk (ISO 3309, as PNG specifies) and the zlib
// stream's Adler-32 computed here. Files are larger than compressed PNGs (3 bytes per pixel) but
// every viewer reads them. Used by tools/disconnectivity for disconnectivity graphs.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace landscape {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

class RgbImage {
 public:
  /// width, height >= 1 (throws std::invalid_argument otherwise); filled with `background`.
  RgbImage(int width, int height, Rgb background = {255, 255, 255});

  int width() const { return m_width; }
  int height() const { return m_height; }
  /// Pixels outside the image are ignored by the drawing functions.
  void set(int x, int y, Rgb colour);
  Rgb at(int x, int y) const;  ///< throws std::out_of_range outside the image
  /// A line from (x0, y0) to (x1, y1), both ends included (Bresenham), `thickness` pixels wide.
  void line(int x0, int y0, int x1, int y1, Rgb colour, int thickness = 1);
  /// Text in a 3x5 pixel font scaled by `scale`, top-left at (x, y). Knows the digits, '-', '+',
  /// '.', 'E', 'e' and blank; other characters are drawn as blanks.
  void text(int x, int y, const std::string& s, Rgb colour, int scale = 2);
  /// Width in pixels of text(s, scale).
  static int textWidth(const std::string& s, int scale = 2);

  /// Row-major RGB bytes, 3 per pixel, top row first.
  const std::vector<std::uint8_t>& pixels() const { return m_pixels; }

 private:
  int m_width, m_height;
  std::vector<std::uint8_t> m_pixels;
};

/// CRC-32 (polynomial 0xEDB88320, reflected, initial and final XOR 0xFFFFFFFF) of `size` bytes.
std::uint32_t crc32(const std::uint8_t* data, std::size_t size);
/// Adler-32 (RFC 1950) of `size` bytes.
std::uint32_t adler32(const std::uint8_t* data, std::size_t size);

/// The bytes of a PNG file (8-bit RGB, no interlace) holding `image`.
std::string encodePng(const RgbImage& image);
/// Writes encodePng(image) to `path` atomically. Throws std::runtime_error naming the file.
void writePng(const std::string& path, const RgbImage& image);

}  // namespace landscape
