#include "potentials/AmberCoordinates.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

constexpr std::size_t kFieldWidth = 12;  // 6F12.7
constexpr std::size_t kFieldsPerLine = 6;

struct Line {
  std::size_t number;  // 1-based
  std::string text;
};

std::string trim(const std::string& s) {
  std::size_t begin = 0, end = s.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(s[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  return s.substr(begin, end - begin);
}

bool isBlank(const std::string& s) { return trim(s).empty(); }

[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& what) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what);
}

/// A real number filling the whole token (Fortran D exponents accepted); NaN, inf and values that
/// overflow parse (as NaN or inf), so that the caller can name the atom. Hexadecimal floats do not.
std::optional<double> parseReal(std::string token) {
  token = trim(token);
  if (token.empty()) return std::nullopt;
  if (const std::optional<double> value = parseFortranReal(token)) return value;
  if (token.find_first_of("xXpP") != std::string::npos) return std::nullopt;
  for (char& c : token)
    if (c == 'd' || c == 'D') c = 'E';
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(token.c_str(), &end);
  if (*end != '\0') return std::nullopt;
  return value;
}

std::vector<std::string> splitWhitespace(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream in(line);
  for (std::string token; in >> token;) tokens.push_back(token);
  return tokens;
}

/// count numbers from one line: the fixed 12-column fields of 6F12.7, or else blank-separated.
std::vector<double> readRow(const std::string& path, const Line& line, std::size_t count,
                            const std::string& what) {
  std::vector<double> values;
  bool fixed =
      line.text.size() <= count * kFieldWidth || isBlank(line.text.substr(count * kFieldWidth));
  for (std::size_t f = 0; fixed && f < count; ++f) {
    const std::string field =
        f * kFieldWidth < line.text.size() ? line.text.substr(f * kFieldWidth, kFieldWidth) : "";
    const std::optional<double> value = parseReal(field);
    if (!value)
      fixed = false;
    else
      values.push_back(*value);
  }
  if (fixed) return values;
  values.clear();
  const std::vector<std::string> tokens = splitWhitespace(line.text);
  for (const std::string& token : tokens) {
    const std::optional<double> value = parseReal(token);
    if (!value)
      fail(path, line.number,
           "expected " + std::to_string(count) + " " + what +
               " in 12-column fields (6F12.7), found " + quoteInput(token) +
               ", which is not a number");
    values.push_back(*value);
  }
  if (values.size() != count)
    fail(path, line.number,
         "expected " + std::to_string(count) + " " + what + " (6F12.7), found " +
             std::to_string(values.size()) + " numbers");
  return values;
}

/// Reads ceil(3 atoms / 6) lines of 6F12.7 starting at lines[first]; what: "coordinate" or
/// "velocity", whats: its plural, for messages.
std::vector<double> readBlock(const std::string& path, const std::vector<Line>& lines,
                              std::size_t first, std::size_t atoms, const std::string& what,
                              const std::string& whats) {
  const std::size_t total = 3 * atoms;
  std::vector<double> values;
  values.reserve(total);
  for (std::size_t row = 0; values.size() < total; ++row) {
    const Line& line = lines[first + row];
    const std::size_t count = std::min(kFieldsPerLine, total - values.size());
    const std::vector<double> rowValues = readRow(path, line, count, whats);
    for (std::size_t f = 0; f < rowValues.size(); ++f) {
      const std::size_t index = values.size();
      const char axis = "xyz"[index % 3];
      if (!std::isfinite(rowValues[f])) {
        fail(path, line.number,
             "atom " + std::to_string(index / 3 + 1) + ": " + what + " " + axis +
                 " is not a finite number (" +
                 printableInput(trim(
                     line.text.substr(std::min(line.text.size(), f * kFieldWidth), kFieldWidth))) +
                 ")");
      }
      if (std::fabs(rowValues[f]) > kMaxInputCoordinate) {
        char value[32];
        std::snprintf(value, sizeof value, "%.6g", rowValues[f]);
        fail(path, line.number,
             "atom " + std::to_string(index / 3 + 1) + ": " + what + " " + axis + " = " + value +
                 " is beyond the " + std::to_string(static_cast<long>(kMaxInputCoordinate)) +
                 " A that an input coordinate may have");
      }
      values.push_back(rowValues[f]);
    }
  }
  return values;
}

/// Writes text to path atomically: to a temporary file beside it, then renamed onto it.
void writeAtomically(const std::string& path, const std::string& text, const char* kind) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot write " + kind + " file");
    out << text;
    out.flush();
    if (!out) throw std::runtime_error(path + ": write error on " + kind + " file");
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw std::runtime_error(path + ": cannot replace the " + std::string(kind) + " file (" +
                             error.message() + ")");
  }
}

}  // namespace

AmberCoordinates readAmberCoordinates(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the inpcrd/rst7 coordinate file");
  std::vector<Line> lines;
  std::string text;
  for (std::size_t number = 1; std::getline(in, text); ++number) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    lines.push_back({number, text});
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  while (!lines.empty() && isBlank(lines.back().text)) lines.pop_back();
  if (lines.empty()) throw std::runtime_error(path + ": empty file; expected an inpcrd/rst7");

  AmberCoordinates c;
  c.path = path;
  c.title = lines[0].text;
  while (!c.title.empty() && std::isspace(static_cast<unsigned char>(c.title.back())))
    c.title.pop_back();
  if (lines.size() < 2)
    fail(path, 1, "the file ends after the title; expected the atom count on line 2");

  // Line 2: the atom count (I5 or I6), optionally the time and further reals (E15.7).
  const std::vector<std::string> header = splitWhitespace(lines[1].text);
  std::size_t atoms = 0;
  {
    const std::string first = header.empty() ? std::string() : header[0];
    bool digits = !first.empty();
    for (char ch : first) digits = digits && std::isdigit(static_cast<unsigned char>(ch));
    digits = digits && first.size() <= 12;  // 3 x atoms must not overflow
    if (digits) atoms = std::strtoull(first.c_str(), nullptr, 10);
    if (!digits || atoms == 0)
      fail(path, 2,
           "expected the number of atoms (a positive integer) followed optionally by the time, "
           "found " +
               quoteInput(trim(lines[1].text)));
  }
  for (std::size_t t = 1; t < header.size(); ++t) {
    const std::optional<double> value = parseReal(header[t]);
    if (!value || !std::isfinite(*value))
      fail(
          path, 2,
          "expected the time (a real number) after the atom count, found " + quoteInput(header[t]));
    if (t == 1) {
      c.time = *value;
      c.hasTime = true;
    }
  }

  const std::size_t blockLines = (3 * atoms + kFieldsPerLine - 1) / kFieldsPerLine;
  const std::size_t available = lines.size() - 2;
  if (available < blockLines)
    fail(path, lines.back().number,
         "the file ends after " + std::to_string(available) + " coordinate lines; " +
             std::to_string(atoms) + " atoms need " + std::to_string(blockLines) +
             " lines of 6F12.7 (is the file truncated?)");
  // The line count after the coordinates says what follows (sander and ParmEd do the same).
  for (std::size_t k = 2; k < 2 + blockLines; ++k)
    if (isBlank(lines[k].text))
      fail(path, lines[k].number,
           "expected coordinates (6F12.7), found a blank line; " + std::to_string(atoms) +
               " atoms need " + std::to_string(blockLines) + " lines");
  c.positions = readBlock(path, lines, 2, atoms, "coordinate", "coordinates");
  const std::size_t rest = available - blockLines;
  std::size_t next = 2 + blockLines;
  if (rest == blockLines || rest == blockLines + 1) {
    if (!(rest == 1 && blockLines == 1)) {  // N <= 2: a single line is taken as the box
      c.velocities = readBlock(path, lines, next, atoms, "velocity", "velocities");
      next += blockLines;
    }
  } else if (rest > 1) {
    fail(path, lines[next].number,
         "after the coordinates of " + std::to_string(atoms) +
             " atoms expected nothing, a box line, " + std::to_string(blockLines) +
             " velocity lines, or velocities and a box line; found " + std::to_string(rest) +
             " more lines (does the atom count on line 2 match the coordinates?)");
  }
  if (next < lines.size()) {
    const Line& boxLine = lines[next];
    const std::vector<std::string> tokens = splitWhitespace(boxLine.text);
    const std::size_t count = tokens.size() == 3 ? 3 : 6;
    const std::vector<double> box = readRow(path, boxLine, count, "box values");
    for (std::size_t k = 0; k < 6; ++k) c.box[k] = k < count ? box[k] : 90.0;
    for (double v : c.box)
      if (!std::isfinite(v) || std::fabs(v) > kMaxInputCoordinate)
        fail(path, boxLine.number,
             "the box line must hold finite numbers of at most " +
                 std::to_string(static_cast<long>(kMaxInputCoordinate)) + " in magnitude");
    c.hasBox = true;
  }
  return c;
}

AmberCoordinates readAmberCoordinates(const std::string& path, const AmberTopology& topology) {
  AmberCoordinates c = readAmberCoordinates(path);
  if (c.atomCount() != static_cast<std::size_t>(topology.atomCount))
    throw std::runtime_error(path + ": the coordinate file has " + std::to_string(c.atomCount()) +
                             " atoms but the prmtop " + topology.path + " has " +
                             std::to_string(topology.atomCount) +
                             " (NATOM); the two files must describe the same system");
  return c;
}

void writeAmberRestart(const std::string& path, const std::vector<double>& x,
                       const std::string& title, double time) {
  if (x.empty() || x.size() % 3 != 0)
    throw std::invalid_argument(
        "writeAmberRestart: the coordinate array must hold 3 x atoms "
        "values, got " +
        std::to_string(x.size()));
  if (!std::isfinite(time))
    throw std::invalid_argument("writeAmberRestart: the time must be finite");
  const std::size_t atoms = x.size() / 3;
  std::string out;
  std::string firstLine = title.substr(0, 80);
  for (char& ch : firstLine)
    if (ch == '\n' || ch == '\r') ch = ' ';
  out += firstLine + "\n";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, atoms < 100000 ? "%5zu%15.7e\n" : "%6zu%15.7e\n", atoms,
                time);
  out += buffer;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const int written = std::snprintf(buffer, sizeof buffer, "%12.7f", x[k]);
    if (!std::isfinite(x[k]) || written != 12)
      throw std::invalid_argument("writeAmberRestart: atom " + std::to_string(k / 3 + 1) +
                                  " coordinate " + std::to_string(x[k]) +
                                  " does not fit the rst7 field F12.7");
    out += buffer;
    if (k % kFieldsPerLine == kFieldsPerLine - 1 || k + 1 == x.size()) out += '\n';
  }
  writeAtomically(path, out, "rst7");
}

void writePdb(const std::string& path, const AmberTopology& topology, const std::vector<double>& x,
              const std::string& remark) {
  const std::size_t atoms = static_cast<std::size_t>(topology.atomCount);
  if (x.size() != 3 * atoms)
    throw std::invalid_argument("writePdb: expected " + std::to_string(3 * atoms) +
                                " coordinates for the " + std::to_string(atoms) +
                                " atoms of the prmtop, got " + std::to_string(x.size()));
  std::string out;
  std::istringstream remarks(remark);
  for (std::string line; std::getline(remarks, line);)
    out += "REMARK   1 " + line.substr(0, 69) + "\n";
  char buffer[128];
  for (std::size_t a = 0; a < atoms; ++a) {
    for (int d = 0; d < 3; ++d) {
      const double v = x[3 * a + static_cast<std::size_t>(d)];
      if (!std::isfinite(v) || std::snprintf(buffer, sizeof buffer, "%8.3f", v) != 8)
        throw std::invalid_argument("writePdb: atom " + std::to_string(a + 1) + " coordinate " +
                                    std::to_string(v) + " does not fit the PDB field F8.3");
    }
    const std::string element = elementSymbol(topology.atomicNumbers[a]);
    const std::string& name = topology.atomNames[a];
    // PDB convention: names shorter than 4 characters of one-letter elements start in column 14.
    std::string field = name.size() < 4 && element.size() == 1 ? " " + name : name;
    field = field.substr(0, 4);
    const int residue = topology.residueOfAtom[a];
    std::string residueName =
        topology.residueLabels[static_cast<std::size_t>(residue)].substr(0, 4);
    if (residueName.size() < 3) residueName.insert(0, 3 - residueName.size(), ' ');
    std::snprintf(buffer, sizeof buffer,
                  "ATOM  %5d %-4s %-4s %4d    %8.3f%8.3f%8.3f%6.2f%6.2f          %2s\n",
                  static_cast<int>((a + 1) % 100000), field.c_str(), residueName.c_str(),
                  (residue + 1) % 10000, x[3 * a], x[3 * a + 1], x[3 * a + 2], 1.0, 0.0,
                  element == "X" ? "" : element.c_str());
    out += buffer;
  }
  out += "TER\nEND\n";
  writeAtomically(path, out, "PDB");
}

}  // namespace landscape
