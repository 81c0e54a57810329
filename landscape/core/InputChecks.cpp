#include "landscape/core/InputChecks.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace landscape {

namespace {

std::atomic<std::uint64_t> g_memoryLimit{0};  // 0: physical memory

std::uint64_t physicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) return std::uint64_t{1} << 40;  // unknown: 1 TiB
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
}

std::string gigabytes(double bytes) {
  char buffer[64];
  if (bytes < 1e6)
    std::snprintf(buffer, sizeof buffer, "%.0f bytes", bytes);
  else if (bytes < 1e9)
    std::snprintf(buffer, sizeof buffer, "%.1f MB", bytes / 1e6);
  else
    std::snprintf(buffer, sizeof buffer, "%.3g GB", bytes / 1e9);
  return buffer;
}

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::optional<double> parseFortranReal(std::string_view token) {
  // Validate the shape ourselves: strtod alone would accept "nan", "inf", "0x1p3" and "1e".
  std::size_t i = 0;
  const std::size_t n = token.size();
  if (i < n && (token[i] == '+' || token[i] == '-')) ++i;
  std::size_t mantissaDigits = 0;
  while (i < n && isDigit(token[i])) ++i, ++mantissaDigits;
  if (i < n && token[i] == '.') {
    ++i;
    while (i < n && isDigit(token[i])) ++i, ++mantissaDigits;
  }
  if (mantissaDigits == 0) return std::nullopt;
  if (i < n && (token[i] == 'e' || token[i] == 'E' || token[i] == 'd' || token[i] == 'D')) {
    ++i;
    if (i < n && (token[i] == '+' || token[i] == '-')) ++i;
    std::size_t exponentDigits = 0;
    while (i < n && isDigit(token[i])) ++i, ++exponentDigits;
    if (exponentDigits == 0) return std::nullopt;
  }
  if (i != n) return std::nullopt;

  std::string copy(token);
  for (char& c : copy)
    if (c == 'd' || c == 'D') c = 'e';
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
  return value;  // underflow to 0 or a denormal is fine for coordinates and tolerances
}

std::optional<long long> parseFortranInteger(std::string_view token) {
  std::size_t i = 0;
  if (i < token.size() && (token[i] == '+' || token[i] == '-')) ++i;
  if (i == token.size()) return std::nullopt;
  for (std::size_t j = i; j < token.size(); ++j)
    if (!isDigit(token[j])) return std::nullopt;
  const std::string copy(token);
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(copy.c_str(), &end, 10);
  if (errno == ERANGE || end != copy.c_str() + copy.size()) return std::nullopt;
  return value;
}

std::string describeBadReal(std::string_view token) {
  std::string lower(token);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos)
    return "non-finite number " + quoteInput(token);
  // A well-formed number that parseFortranReal still rejected has overflowed.
  std::string copy(token);
  for (char& c : copy)
    if (c == 'd' || c == 'D') c = 'e';
  if (!copy.empty() && copy.find_first_of("xXpP") == std::string::npos) {
    char* end = nullptr;
    std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() && *end == '\0')
      return "non-finite number " + quoteInput(token) + " (overflow)";
  }
  return quoteInput(token) + ", which is not a number";
}

std::string printableInput(std::string_view text, std::size_t maxLength) {
  std::string out;
  const std::size_t shown = text.size() > maxLength ? maxLength : text.size();
  for (std::size_t i = 0; i < shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02X", static_cast<unsigned>(c));
      out += buffer;
    }
  }
  if (shown < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string quoteInput(std::string_view text, std::size_t maxLength) {
  return "'" + printableInput(text, maxLength) + "'";
}

void requirePrintableField(const std::string& where, std::string_view field,
                           std::size_t maxLength) {
  bool printable = field.size() <= maxLength;
  for (char c : field)
    printable =
        printable && static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
  if (!printable)
    throw std::runtime_error(where + ": expected printable text of at most " +
                             std::to_string(maxLength) + " characters, found " + quoteInput(field));
}

std::uint64_t inputMemoryLimit() {
  const std::uint64_t limit = g_memoryLimit.load();
  if (limit != 0) return limit;
  static const std::uint64_t physical = physicalMemory();
  return physical;
}

void setInputMemoryLimit(std::uint64_t bytes) { g_memoryLimit.store(bytes); }

void requireMemory(const std::string& what, double count, double bytesEach) {
  const double bytes = count * bytesEach;
  const double limit = static_cast<double>(inputMemoryLimit());
  if (!(bytes <= limit))  // also refuses NaN
    throw std::runtime_error(what + " would need " + gigabytes(bytes) + " of memory, more than " +
                             (g_memoryLimit.load() == 0 ? "this machine has (" : "the limit (") +
                             gigabytes(limit) + ")");
}

}  // namespace landscape
