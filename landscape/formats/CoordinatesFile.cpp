#include "landscape/formats/CoordinatesFile.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace landscape {

namespace {

std::vector<std::string> splitWhitespace(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream in(line);
  std::string token;
  while (in >> token) tokens.push_back(token);
  return tokens;
}

bool isBlank(const std::string& line) {
  for (char c : line)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

struct Line {
  std::size_t number;  // 1-based
  std::string text;
};

std::vector<Line> readLines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open coordinates file");
  std::vector<Line> lines;
  std::string text;
  std::size_t number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (!text.empty() && text.back() == '\r') text.pop_back();  // files written on Windows
    lines.push_back({number, text});
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  return lines;
}

[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& what) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what);
}

void appendXyzTriple(const std::string& path, const Line& line,
                     const std::vector<std::string>& tokens, std::size_t first,
                     std::vector<double>& x) {
  for (std::size_t i = first; i < first + 3; ++i) {
    const auto value = parseFortranReal(tokens[i]);
    if (!value) fail(path, line.number, "expected 3 numbers, found " + describeBadReal(tokens[i]));
    if (std::fabs(*value) > kMaxInputCoordinate)
      fail(path, line.number,
           "coordinate " + quoteInput(tokens[i]) + " is beyond the " +
               std::to_string(static_cast<long>(kMaxInputCoordinate)) +
               " length units that an input coordinate may have");
    x.push_back(*value);
  }
}

// Everything after the last atom must be blank.
void requireTrailingBlank(const std::string& path, const std::vector<Line>& lines, std::size_t from,
                          const std::string& why) {
  for (std::size_t i = from; i < lines.size(); ++i)
    if (!isBlank(lines[i].text)) fail(path, lines[i].number, why);
}

std::vector<double> readXyz(const std::string& path, const std::vector<Line>& lines,
                            long long atoms, std::vector<std::string>* labels) {
  if (atoms < 1) fail(path, 1, "expected an atom count >= 1, found " + std::to_string(atoms));
  const std::size_t n = static_cast<std::size_t>(atoms);
  std::vector<double> x;
  x.reserve(3 * std::min(n, lines.size()));  // the count is checked against the lines below
  // Line 1 is the count, line 2 the comment (may be blank or missing only if there are no atoms).
  for (std::size_t a = 0; a < n; ++a) {
    const std::size_t index = 2 + a;
    if (index >= lines.size() || isBlank(lines[index].text)) {
      fail(
          path, index + 1,  // the line where atom a should be, present or not
          "expected " + std::to_string(n) + " atoms (count on line 1), found " + std::to_string(a));
    }
    const Line& line = lines[index];
    const auto tokens = splitWhitespace(line.text);
    if (tokens.size() != 4)
      fail(path, line.number,
           "expected a label and 3 numbers, found " + std::to_string(tokens.size()) + " fields");
    appendXyzTriple(path, line, tokens, 1, x);
    if (labels) labels->push_back(tokens[0]);
  }
  requireTrailingBlank(path, lines, 2 + n,
                       "expected " + std::to_string(n) +
                           " atoms (count on line 1), found more lines (one structure per file)");
  return x;
}

std::vector<double> readBareCoords(const std::string& path, const std::vector<Line>& lines) {
  std::vector<double> x;
  std::size_t i = 0;
  for (; i < lines.size() && !isBlank(lines[i].text); ++i) {
    const auto tokens = splitWhitespace(lines[i].text);
    if (tokens.size() != 3)
      fail(path, lines[i].number, "expected 3 numbers, found " + std::to_string(tokens.size()));
    appendXyzTriple(path, lines[i], tokens, 0, x);
  }
  requireTrailingBlank(path, lines, i,
                       "expected 3 numbers per line with blank lines only after the last atom, "
                       "found more after a blank line");
  return x;
}

}  // namespace

std::vector<double> readCoordinates(const std::string& path, std::vector<std::string>* labels) {
  if (labels) labels->clear();
  const std::vector<Line> lines = readLines(path);
  std::size_t firstUsed = 0;
  while (firstUsed < lines.size() && isBlank(lines[firstUsed].text)) ++firstUsed;
  if (firstUsed == lines.size())
    throw std::runtime_error(path +
                             ": empty coordinates file (expected XYZ or 3 numbers per line)");
  if (firstUsed != 0)
    fail(path, 1, "expected an atom count (XYZ) or 3 numbers (GMIN coords), found a blank line");

  // XYZ starts with a line holding a single integer; GMIN coords with three numbers.
  const auto firstTokens = splitWhitespace(lines[0].text);
  if (firstTokens.size() == 1) {
    const auto atoms = parseFortranInteger(firstTokens[0]);
    if (!atoms)
      fail(path, 1,
           "expected an atom count (XYZ) or 3 numbers (GMIN coords), found " +
               quoteInput(firstTokens[0]));
    return readXyz(path, lines, *atoms, labels);
  }
  return readBareCoords(path, lines);
}

void writeXyz(const std::string& path, const std::vector<double>& x, const std::string& comment,
              const std::string& label) {
  if (x.size() % 3 != 0)
    throw std::invalid_argument("writeXyz: " + std::to_string(x.size()) +
                                " coordinates is not a multiple of 3 (" + path + ")");
  for (double v : x)
    if (!std::isfinite(v))
      throw std::invalid_argument("writeXyz: non-finite coordinate, not written to " + path);
  if (label.empty() || label.find_first_of(" \t\r\n") != std::string::npos)
    throw std::invalid_argument("writeXyz: atom label must be one non-empty word, got '" + label +
                                "'");
  std::string oneLine = comment;
  for (char& c : oneLine)
    if (c == '\n' || c == '\r') c = ' ';

  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot open for writing");
  out << x.size() / 3 << '\n' << oneLine << '\n';
  char buffer[128];
  for (std::size_t i = 0; i < x.size(); i += 3) {
    std::snprintf(buffer, sizeof buffer, " %21.15f %21.15f %21.15f\n", x[i], x[i + 1], x[i + 2]);
    out << label << buffer;
  }
  out.close();
  if (!out) throw std::runtime_error(path + ": write error");
}

}  // namespace landscape
