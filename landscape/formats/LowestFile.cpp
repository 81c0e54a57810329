#include "landscape/formats/LowestFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

namespace fs = std::filesystem;

// The fixed widths of GMIN's `lowest` (see LowestFile.h for the FORMAT statements they come from).
constexpr int kAtomCountWidth = 12;
constexpr int kIndexWidth = 6;
constexpr int kEnergyWidth = 20;
constexpr int kEnergyDigits = 10;
constexpr int kStepWidth = 8;
constexpr int kCallsWidth = 20;
constexpr int kLabelWidth = 2;
constexpr int kCoordinateWidth = 20;
constexpr int kCoordinateDecimals = 10;

std::string padLeft(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

// std::to_chars rather than printf: exact rounding and no dependence on the C locale.
std::string toChars(double value, std::chars_format format, int precision) {
  char buffer[512];  // fixed notation of the largest double needs about 310 + precision characters
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, format, precision);
  if (result.ec != std::errc()) throw std::logic_error("lowest: cannot format a number");
  return std::string(buffer, result.ptr);
}

/// gfortran's spelling of values that have no digits.
std::string fortranNonFinite(double value, int width) {
  const std::string text = std::isnan(value) ? "NaN" : (value < 0 ? "-Infinity" : "Infinity");
  return padLeft(text, static_cast<std::size_t>(width));
}

/// Fortran Fw.d: fixed notation, right-aligned. The caller checks that the result fits.
std::string fortranF(double value, int width, int decimals) {
  if (!std::isfinite(value)) return fortranNonFinite(value, width);
  std::string text = toChars(value, std::chars_format::fixed, decimals);
  if (decimals == 0) text += '.';  // Fortran always writes the decimal point
  return padLeft(text, static_cast<std::size_t>(width));
}

/// Fortran Ew.d: 0.<d digits>E+ee (or +eee without the E for exponents beyond 99), right-aligned.
std::string fortranE(double value, int width, int digits) {
  // "d.ddddde+XX" from to_chars carries d significant digits correctly rounded; shift the point.
  const std::string scientific =
      toChars(std::fabs(value), std::chars_format::scientific, digits - 1);
  const std::size_t e = scientific.find('e');
  std::string mantissa = scientific.substr(0, e);
  mantissa.erase(std::remove(mantissa.begin(), mantissa.end(), '.'), mantissa.end());
  const int exponent = std::stoi(scientific.substr(e + 1)) + 1;
  const int magnitude = std::abs(exponent);
  const std::string sign = exponent < 0 ? "-" : "+";
  const std::string exponentText =
      magnitude <= 99 ? "E" + sign + (magnitude < 10 ? "0" : "") + std::to_string(magnitude)
                      : sign + std::to_string(magnitude);
  return padLeft((std::signbit(value) ? "-0." : "0.") + mantissa + exponentText,
                 static_cast<std::size_t>(width));
}

void requireLabel(const std::string& label) {
  if (label.empty()) throw std::invalid_argument("lowest: the atom label must not be empty");
  for (char c : label) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      throw std::invalid_argument("lowest: the atom label '" + label +
                                  "' must not contain whitespace");
    }
  }
}

// ---- parsing ---------------------------------------------------------------------------------

class LowestParser {
 public:
  LowestParser(std::string path, std::vector<std::string> lines)
      : m_path(std::move(path)), m_lines(std::move(lines)) {}

  std::vector<StoredMinimum> parse(std::vector<std::string>* atomLabels) {
    std::vector<StoredMinimum> minima;
    while (skipBlankLines()) {
      const std::size_t countLine = m_next;
      const std::string& countText = m_lines[m_next++];
      long atoms = 0;
      if (!parseInteger(trim(countText), atoms) || atoms <= 0) {
        fail(countLine, "expected the atom count of a minimum (a positive integer)", countText);
      }
      StoredMinimum minimum;
      parseEnergyLine(minima.size() + 1, minimum);
      // Sized by the lines there are, not by the count, which is checked against them below.
      minimum.coordinates.reserve(
          3 * std::min(static_cast<std::size_t>(atoms), m_lines.size() - m_next));
      for (long atom = 0; atom < atoms; ++atom) {
        if (m_next >= m_lines.size()) {
          fail(m_next,
               "the file ends after " + std::to_string(atom) + " of the " + std::to_string(atoms) +
                   " atoms of minimum " + std::to_string(minima.size() + 1),
               "");
        }
        const std::size_t lineIndex = m_next;
        const std::string& text = m_lines[m_next++];
        std::istringstream fields(text);
        std::string label, x, y, z, extra;
        double values[3] = {0.0, 0.0, 0.0};
        if (!(fields >> label >> x >> y >> z) || (fields >> extra) || !parseReal(x, values[0]) ||
            !parseReal(y, values[1]) || !parseReal(z, values[2])) {
          fail(lineIndex, "expected an atom line 'LABEL x y z'", text);
        }
        minimum.coordinates.insert(minimum.coordinates.end(), values, values + 3);
        if (atomLabels != nullptr && minima.empty()) atomLabels->push_back(label);
      }
      minima.push_back(std::move(minimum));
    }
    return minima;
  }

 private:
  static std::string trim(const std::string& text) {
    const std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
  }

  static bool parseInteger(const std::string& token, long& value) {
    const char* begin = token.data();
    const char* end = token.data() + token.size();
    if (begin != end && *begin == '+') ++begin;
    const auto result = std::from_chars(begin, end, value);
    return result.ec == std::errc() && result.ptr == end && begin != end;
  }

  /// A Fortran real: D exponents and the E-less form 0.1234567890+100 of exponents beyond 99.
  static bool parseReal(const std::string& token, double& value) {
    std::string text = token;
    for (char& c : text) {
      if (c == 'd' || c == 'D') c = 'E';
    }
    if (!text.empty() && text[0] == '+') text.erase(0, 1);
    if (text.find_first_of("eE") == std::string::npos) {
      const std::size_t sign = text.find_first_of("+-", 1);
      if (sign != std::string::npos && std::isdigit(static_cast<unsigned char>(text[sign - 1]))) {
        text.insert(sign, "E");
      }
    }
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, value);
    // from_chars also reads "nan" and "inf": no energy or coordinate may be one.
    return result.ec == std::errc() && result.ptr == end && !text.empty() && std::isfinite(value);
  }

  bool skipBlankLines() {
    while (m_next < m_lines.size() && trim(m_lines[m_next]).empty()) ++m_next;
    return m_next < m_lines.size();
  }

  void parseEnergyLine(std::size_t minimumNumber, StoredMinimum& minimum) {
    static const char* kExpected =
        "expected 'Energy of minimum <n>= <energy> first found at step <step> "
        "[after <calls> function calls]'";
    if (m_next >= m_lines.size()) {
      fail(m_next,
           "the file ends before the energy line of minimum " + std::to_string(minimumNumber), "");
    }
    const std::size_t lineIndex = m_next;
    const std::string& text = m_lines[m_next++];
    const std::string body = trim(text);
    const std::string lead = "Energy of minimum";
    const std::size_t equals = body.find('=');
    if (body.compare(0, lead.size(), lead) != 0 || equals == std::string::npos) {
      fail(lineIndex, kExpected, text);
    }
    std::istringstream fields(body.substr(equals + 1));
    std::string energy, first, found, at, step, stepValue;
    if (!(fields >> energy >> first >> found >> at >> step >> stepValue) || first != "first" ||
        found != "found" || at != "at" || step != "step" || !parseReal(energy, minimum.energy) ||
        !parseInteger(stepValue, minimum.firstFoundStep)) {
      fail(lineIndex, kExpected, text);
    }
    std::string after;
    if (!(fields >> after)) {
      minimum.functionCalls = -1;  // GMIN's older format stops after the step
      return;
    }
    std::string calls, function, callsWord, extra;
    if (after != "after" || !(fields >> calls >> function >> callsWord) || function != "function" ||
        callsWord != "calls" || (fields >> extra) || !parseInteger(calls, minimum.functionCalls)) {
      fail(lineIndex, kExpected, text);
    }
  }

  [[noreturn]] void fail(std::size_t lineIndex, const std::string& expected,
                         const std::string& found) const {
    std::string message = m_path + ":" + std::to_string(lineIndex + 1) + ": " + expected;
    if (!found.empty()) {
      message += ", found " + quoteInput(found, 120);
    }
    throw std::runtime_error(message + " (GMIN lowest file format)");
  }

  std::string m_path;
  std::vector<std::string> m_lines;
  std::size_t m_next = 0;
};

// ---- atomic replacement ----------------------------------------------------------------------

/// Flushes `file` to stable storage before it is renamed over the target (see Hdf5File.cpp, which
/// does the same for minima.h5). File systems that cannot sync are accepted as they are.
void syncToDisk(const std::string& file, const std::string& path) {
  const int descriptor = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) {
    throw std::runtime_error("lowest file '" + path + "': cannot reopen '" + file +
                             "' to flush it: " + std::strerror(errno));
  }
  const int status = ::fsync(descriptor);
  const int error = errno;
  ::close(descriptor);
  if (status != 0 && error != EINVAL && error != EROFS && error != ENOTSUP) {
    throw std::runtime_error("lowest file '" + path + "': cannot flush '" + file +
                             "' to disk: " + std::strerror(error));
  }
}

}  // namespace

namespace detail {

std::string fortranG(double value, int width, int digits) {
  if (!std::isfinite(value)) return fortranNonFinite(value, width);
  constexpr int kTrailingBlanks = 4;  // n = 4 for Gw.d (F2008 10.7.5.2.2)
  const std::string blanks(kTrailingBlanks, ' ');
  const double magnitude = std::fabs(value);
  if (magnitude == 0.0) return fortranF(value, width - kTrailingBlanks, digits - 1) + blanks;
  // The F form is chosen on the value rounded to d significant digits, hence the 0.5 ulp terms.
  if (magnitude >= 0.1 - 0.5 * std::pow(10.0, -digits - 1)) {
    for (int s = 0; s <= digits; ++s) {
      if (magnitude < std::pow(10.0, s) - 0.5 * std::pow(10.0, s - digits)) {
        return fortranF(value, width - kTrailingBlanks, digits - s) + blanks;
      }
    }
  }
  return fortranE(value, width, digits);
}

}  // namespace detail

namespace {

// The atom label as GMIN writes it: A2 (left-aligned), then 1X.
std::string labelField(const std::string& atomLabel) {
  requireLabel(atomLabel);
  std::string label = atomLabel;
  if (label.size() < kLabelWidth) label.resize(kLabelWidth, ' ');
  return label + ' ';
}

// labels: one field per atom (perAtom), or a single field for every atom.
std::string formatMinima(const std::vector<StoredMinimum>& minima,
                         const std::vector<std::string>& labels, bool perAtom) {
  std::string text;
  for (std::size_t i = 0; i < minima.size(); ++i) {
    const StoredMinimum& minimum = minima[i];
    const std::size_t values = minimum.coordinates.size();
    if (values == 0 || values % 3 != 0) {
      throw std::invalid_argument("lowest: minimum " + std::to_string(i + 1) + " has " +
                                  std::to_string(values) +
                                  " coordinates; a positive multiple of 3 is needed");
    }
    text += padLeft(std::to_string(values / 3), kAtomCountWidth) + '\n';
    text += "Energy of minimum " + padLeft(std::to_string(i + 1), kIndexWidth) + "=" +
            detail::fortranG(minimum.energy, kEnergyWidth, kEnergyDigits) +
            " first found at step " + padLeft(std::to_string(minimum.firstFoundStep), kStepWidth);
    // Unknown counts (read from GMIN's older format) are written in that format again.
    if (minimum.functionCalls >= 0) {
      text += " after " + padLeft(std::to_string(minimum.functionCalls), kCallsWidth) +
              " function calls";
    }
    text += '\n';
    if (perAtom && labels.size() != values / 3)
      throw std::invalid_argument("lowest: minimum " + std::to_string(i + 1) + " has " +
                                  std::to_string(values / 3) + " atoms but " +
                                  std::to_string(labels.size()) + " atom labels were given");
    for (std::size_t atom = 0; atom < values / 3; ++atom) {
      text += perAtom ? labels[atom] : labels.front();
      for (int k = 0; k < 3; ++k) {
        const double x = minimum.coordinates[3 * atom + k];
        const std::string field = fortranF(x, kCoordinateWidth, kCoordinateDecimals);
        // A full field would touch its neighbour and no longer split on whitespace.
        if (field.size() > static_cast<std::size_t>(kCoordinateWidth) || field[0] != ' ') {
          throw std::invalid_argument("lowest: coordinate " + std::to_string(3 * atom + k) +
                                      " of minimum " + std::to_string(i + 1) + " (" + field +
                                      ") does not fit GMIN's F20.10 field");
        }
        text += field;
      }
      text += '\n';
    }
  }
  return text;
}

}  // namespace

std::string formatLowest(const std::vector<StoredMinimum>& minima, const std::string& atomLabel) {
  return formatMinima(minima, {labelField(atomLabel)}, false);
}

std::string formatLowestLabelled(const std::vector<StoredMinimum>& minima,
                                 const std::vector<std::string>& atomLabels) {
  std::vector<std::string> fields;
  for (const std::string& label : atomLabels) fields.push_back(labelField(label));
  return formatMinima(minima, fields, true);
}

namespace {

void writeLowestText(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  try {
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      if (!out) {
        throw std::runtime_error("lowest file '" + path + "': cannot create the temporary file '" +
                                 temporary + "': " + std::strerror(errno));
      }
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
      out.close();
      if (!out) {
        throw std::runtime_error("lowest file '" + path + "': cannot write the temporary file '" +
                                 temporary + "'");
      }
    }
    syncToDisk(temporary, path);
    std::error_code error;
    fs::rename(temporary, path, error);
    if (error) {
      throw std::runtime_error("lowest file '" + path + "': cannot rename '" + temporary +
                               "' to it: " + error.message());
    }
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

}  // namespace

void writeLowestFile(const std::string& path, const std::vector<StoredMinimum>& minima,
                     const std::string& atomLabel) {
  writeLowestText(path, formatLowest(minima, atomLabel));
}

void writeLowestFileLabelled(const std::string& path, const std::vector<StoredMinimum>& minima,
                             const std::vector<std::string>& atomLabels) {
  writeLowestText(path, formatLowestLabelled(minima, atomLabels));
}

std::vector<StoredMinimum> readLowestFile(const std::string& path,
                                          std::vector<std::string>* atomLabels) {
  std::error_code error;
  if (fs::is_directory(path, error)) {
    throw std::runtime_error("lowest file '" + path + "' is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("lowest file '" + path +
                             "' cannot be opened: " + std::strerror(errno));
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  if (in.bad()) throw std::runtime_error("lowest file '" + path + "' cannot be read");
  if (atomLabels != nullptr) atomLabels->clear();
  return LowestParser(path, std::move(lines)).parse(atomLabels);
}

}  // namespace landscape
