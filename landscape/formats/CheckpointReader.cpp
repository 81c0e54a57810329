#include "landscape/formats/CheckpointReader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "landscape/core/Checksum.h"
#include "landscape/core/InputChecks.h"

namespace landscape {

std::string hexReal(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", x);
  return buffer;
}

namespace {

constexpr const char* kSealKey = "checksum crc32 ";

}  // namespace

std::string withChecksumLine(std::string text) {
  const std::string seal = crc32Hex(crc32(text));
  text += kSealKey;
  text += seal;
  text += '\n';
  return text;
}

bool removeCheckedChecksumLine(const std::string& path, std::string& text) {
  std::size_t end = text.size();
  if (end > 0 && text[end - 1] == '\n') --end;
  const std::size_t start = end == 0 ? std::string::npos : text.rfind('\n', end - 1);
  const std::size_t lineStart = start == std::string::npos ? 0 : start + 1;
  const std::string last = text.substr(lineStart, end - lineStart);
  if (last.rfind("checksum", 0) != 0) return false;
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + lineStart, '\n'));
  const std::string where = path + ":" + std::to_string(line) + ": ";
  if (last.rfind(kSealKey, 0) != 0 || last.size() != std::string(kSealKey).size() + 8)
    throw std::runtime_error(where + "expected 'checksum crc32' and eight hexadecimal digits, found " +
                             quoteInput(last));
  const std::string recorded = last.substr(std::string(kSealKey).size());
  const std::string actual = crc32Hex(crc32(text.data(), lineStart));
  if (recorded != actual)
    throw std::runtime_error(
        where + "checksum mismatch: the lines above give crc32 " + actual + ", the file records " +
        quoteInput(recorded) + ". A value was changed or damaged after the file was written, so "
        "it is not resumed; restore it from a copy, or start a new run");
  text.resize(lineStart);
  return true;
}

void checkSealedVersion(const std::string& path, long version, int current, bool sealed,
                        const std::string& what) {
  if (version == current && !sealed)
    throw std::runtime_error(path + ": the " + what + " has no 'checksum' line at its end "
                             "(truncated, or damaged after it was written)");
  if (version == current - 1 && sealed)
    throw std::runtime_error(path + ": a " + what + " of version " + std::to_string(version) +
                             " with a 'checksum' line (damaged?)");
  if (version != current && version != current - 1)
    throw std::runtime_error(path + ": a " + what + " of version " + std::to_string(version) +
                             "; this build reads versions " + std::to_string(current - 1) +
                             " and " + std::to_string(current));
}

CheckpointReader::CheckpointReader(const std::string& path, const std::string& text)
    : m_path(path), m_in(text) {}

CheckpointReader& CheckpointReader::line(const std::string& key) {
  std::string text;
  if (!std::getline(m_in, text)) fail("the file ends before '" + key + "' (truncated?)");
  ++m_line;
  m_values = std::istringstream(text);
  std::string found;
  m_values >> found;
  if (found != key) fail("expected '" + key + "', found " + quoteInput(found));
  m_key = key;
  return *this;
}

bool CheckpointReader::nextLineIs(const std::string& key) {
  const std::streampos at = m_in.tellg();
  std::string text;
  const bool read = static_cast<bool>(std::getline(m_in, text));
  m_in.clear();
  m_in.seekg(at);
  std::istringstream words(text);
  std::string found;
  return read && (words >> found) && found == key;
}

std::string CheckpointReader::raw(const std::string& what) {
  std::string text;
  if (!std::getline(m_in, text)) fail("the file ends before " + what + " (truncated?)");
  ++m_line;
  return text;
}

std::string CheckpointReader::rest() {
  std::string text;
  std::getline(m_values, text);
  if (!text.empty() && text.front() == ' ') text.erase(0, 1);
  return text;
}

std::string CheckpointReader::word() {
  std::string token;
  if (!(m_values >> token)) fail("'" + m_key + "' has too few values");
  return token;
}

long CheckpointReader::integer() {
  std::string token = word();
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(token.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') fail(quoteInput(token) + " in '" + m_key + "' is not an integer");
  return v;
}

long CheckpointReader::integer(long lo, long hi) {
  const long v = integer();
  if (v < lo || v > hi)
    fail(std::to_string(v) + " in '" + m_key + "' is outside [" + std::to_string(lo) + ", " +
         std::to_string(hi) + "]");
  return v;
}

double CheckpointReader::real(bool allowInfinity) {
  std::string token = word();
  char* end = nullptr;
  const double v = std::strtod(token.c_str(), &end);
  if (*end != '\0') fail(quoteInput(token) + " in '" + m_key + "' is not a number");
  if (std::isnan(v) || (!allowInfinity && std::isinf(v)))
    fail(quoteInput(token) + " in '" + m_key + "' is not a finite number");
  return v;
}

std::vector<double> CheckpointReader::vector() {
  const long n = integer();
  if (n < 0) fail("negative length in '" + m_key + "'");
  std::vector<double> x;
  x.reserve(std::min<std::size_t>(static_cast<std::size_t>(n), 4096));
  for (long i = 0; i < n; ++i) x.push_back(real());
  return x;
}

void CheckpointReader::endLine() {
  std::string extra;
  if (m_values >> extra) fail("unexpected " + quoteInput(extra) + " at the end of '" + m_key + "'");
}

void CheckpointReader::fail(const std::string& what) const {
  throw std::runtime_error(m_path + ":" + std::to_string(m_line) + ": " + what);
}

}  // namespace landscape
