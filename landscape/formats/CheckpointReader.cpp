#include "landscape/formats/CheckpointReader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "landscape/core/InputChecks.h"

namespace landscape {

std::string hexReal(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", x);
  return buffer;
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
