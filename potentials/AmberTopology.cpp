#include "potentials/AmberTopology.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

// Standard atomic masses (IUPAC, amu) of elements 1-56; index = atomic number.
struct Element {
  const char* symbol;
  double mass;
};
constexpr Element kElements[] = {
    {"X", 0.0},     {"H", 1.008},   {"He", 4.0026}, {"Li", 6.94},   {"Be", 9.0122}, {"B", 10.81},
    {"C", 12.011},  {"N", 14.007},  {"O", 15.999},  {"F", 18.998},  {"Ne", 20.180}, {"Na", 22.990},
    {"Mg", 24.305}, {"Al", 26.982}, {"Si", 28.085}, {"P", 30.974},  {"S", 32.06},   {"Cl", 35.45},
    {"Ar", 39.948}, {"K", 39.098},  {"Ca", 40.078}, {"Sc", 44.956}, {"Ti", 47.867}, {"V", 50.942},
    {"Cr", 51.996}, {"Mn", 54.938}, {"Fe", 55.845}, {"Co", 58.933}, {"Ni", 58.693}, {"Cu", 63.546},
    {"Zn", 65.38},  {"Ga", 69.723}, {"Ge", 72.630}, {"As", 74.922}, {"Se", 78.971}, {"Br", 79.904},
    {"Kr", 83.798}, {"Rb", 85.468}, {"Sr", 87.62},  {"Y", 88.906},  {"Zr", 91.224}, {"Nb", 92.906},
    {"Mo", 95.95},  {"Tc", 98.0},   {"Ru", 101.07}, {"Rh", 102.91}, {"Pd", 106.42}, {"Ag", 107.87},
    {"Cd", 112.41}, {"In", 114.82}, {"Sn", 118.71}, {"Sb", 121.76}, {"Te", 127.60}, {"I", 126.90},
    {"Xe", 131.29}, {"Cs", 132.91}, {"Ba", 137.33}};
constexpr int kElementCount = static_cast<int>(sizeof(kElements) / sizeof(kElements[0]));

// POINTERS entries (prmtop.pdf order).
enum Pointer {
  kNatom = 0,
  kNtypes = 1,
  kNbonh = 2,
  kMbona = 3,
  kNtheth = 4,
  kMtheta = 5,
  kNphih = 6,
  kMphia = 7,
  kNnb = 10,
  kNres = 11,
  kNumbnd = 15,
  kNumang = 16,
  kNptra = 17,
  kNphb = 19,
  kIfpert = 20,
  kIfbox = 27,
  kNumextra = 30,
};
constexpr std::size_t kMinimumPointers = 30;

constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();

std::string trim(const std::string& s) {
  std::size_t begin = 0, end = s.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(s[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  return s.substr(begin, end - begin);
}

std::string rtrim(const std::string& s) {
  std::size_t end = s.size();
  while (end > 0 && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  return s.substr(0, end);
}

/// A Fortran edit descriptor of a %FORMAT line: perLine fields of width characters each.
struct FortranFormat {
  int perLine = 0;
  char kind = 0;  ///< 'a' text, 'i' integer, 'e' real (E, F, D and G descriptors)
  int width = 0;
};

struct Section {
  std::string flag;
  std::size_t flagLine = 0;  ///< 1-based line number of the %FLAG line
  FortranFormat format;
  std::size_t firstDataLine = 0;  ///< 1-based line number of lines[0]
  std::vector<std::string> lines;
};

/// The raw sections of a prmtop, with typed readers that check the counts.
class PrmtopFile {
 public:
  explicit PrmtopFile(const std::string& path) : m_path(path) { read(); }

  bool has(const std::string& flag) const { return m_sections.count(flag) != 0; }

  /// "%FLAG X"-prefixed failure at a line of section (line 0: no line number).
  [[noreturn]] void fail(const Section& section, std::size_t line, const std::string& what) const {
    std::string where = m_path;
    if (line != 0) where += ":" + std::to_string(line);
    throw std::runtime_error(where + ": %FLAG " + printableInput(section.flag) + ": " + what);
  }
  [[noreturn]] void failFile(const std::string& what) const {
    throw std::runtime_error(m_path + ": " + what);
  }

  const Section& section(const std::string& flag) const {
    const auto it = m_sections.find(flag);
    if (it == m_sections.end())
      failFile("required section %FLAG " + flag +
               " is missing (is the file truncated, or not an AMBER prmtop?)");
    return it->second;
  }

  /// expected values of the section, or all of them when expected == kAll. countName says where
  /// the expected count comes from, for messages.
  std::vector<long long> integers(const std::string& flag, std::size_t expected,
                                  const std::string& countName) const {
    const Section& s = section(flag);
    requireKind(s, 'i');
    std::vector<long long> values;
    forEachField(s, expected, countName, [&](const std::string& field, std::size_t line) {
      const std::string token = trim(field);
      errno = 0;
      char* end = nullptr;
      const long long value = std::strtoll(token.c_str(), &end, 10);
      if (token.empty() || *end != '\0' || errno == ERANGE)
        fail(s, line,
             "expected an integer in a field of width " + std::to_string(s.format.width) +
                 ", found " + quoteInput(field));
      values.push_back(value);
    });
    return values;
  }

  std::vector<double> reals(const std::string& flag, std::size_t expected,
                            const std::string& countName) const {
    const Section& s = section(flag);
    requireKind(s, 'e');
    std::vector<double> values;
    forEachField(s, expected, countName, [&](const std::string& field, std::size_t line) {
      const std::string token = trim(field);
      // Fortran syntax (D exponents too); NaN, infinities, hexadecimal floats and values that
      // overflow a double are refused.
      const std::optional<double> value = parseFortranReal(token);
      if (!value)
        fail(s, line,
             "expected a real number in a field of width " + std::to_string(s.format.width) +
                 ", found " + describeBadReal(token));
      values.push_back(*value);
    });
    return values;
  }

  std::vector<std::string> strings(const std::string& flag, std::size_t expected,
                                   const std::string& countName) const {
    const Section& s = section(flag);
    requireKind(s, 'a');
    std::vector<std::string> values;
    const std::size_t width = static_cast<std::size_t>(s.format.width);
    const std::size_t perLine = static_cast<std::size_t>(s.format.perLine);
    std::size_t lineIndex = 0;
    for (; lineIndex < s.lines.size() && values.size() < expected; ++lineIndex) {
      const std::string line = rtrim(s.lines[lineIndex]);
      const std::size_t lineNumber = s.firstDataLine + lineIndex;
      if (line.size() > perLine * width)
        fail(s, lineNumber,
             "expected at most " + std::to_string(perLine) + " fields of " + std::to_string(width) +
                 " characters, found a line of " + std::to_string(line.size()) + " characters");
      // Fixed-width text: a short line is padded with blanks (trailing blanks are often lost).
      const std::size_t count = std::min(perLine, expected - values.size());
      if (line.empty() && count > 0)
        fail(s, lineNumber,
             "expected " + std::to_string(expected) + " entries (" + countName + "), found " +
                 std::to_string(values.size()) + " before a blank line");
      for (std::size_t f = 0; f < count; ++f) {
        const std::string field = f * width < line.size() ? line.substr(f * width, width) : "";
        // Names end up in messages and output files: printable ASCII only.
        for (char c : field)
          if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
            fail(s, lineNumber,
                 "expected printable text in field " + std::to_string(values.size() + 1) +
                     ", found " + quoteInput(field));
        values.push_back(trim(field));
      }
    }
    if (values.size() < expected)
      fail(s, s.flagLine,
           "expected " + std::to_string(expected) + " entries (" + countName + "), found " +
               std::to_string(values.size()) + "; is the file truncated?");
    requireBlankRest(s, lineIndex, expected, countName);
    return values;
  }

  /// The free text of a section (TITLE, RADIUS_SET): its lines joined by blanks, trimmed.
  std::string text(const std::string& flag) const {
    const Section& s = section(flag);
    std::string joined;
    for (const std::string& line : s.lines) {
      const std::string t = trim(line);
      if (t.empty()) continue;
      if (!joined.empty()) joined += ' ';
      joined += t;
    }
    return joined;
  }

 private:
  void read() {
    std::ifstream in(m_path);
    if (!in) failFile("cannot open the prmtop file");
    std::string line;
    std::size_t number = 0;
    Section* current = nullptr;
    bool awaitingFormat = false;
    while (std::getline(in, line)) {
      ++number;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.rfind("%FLAG", 0) == 0) {
        if (current && awaitingFormat)
          fail(*current, current->flagLine,
               "expected a %FORMAT line after the %FLAG line, found the next %FLAG at line " +
                   std::to_string(number));
        const std::string flag = trim(line.substr(5));
        if (flag.empty())
          throw std::runtime_error(m_path + ":" + std::to_string(number) +
                                   ": expected a section name after %FLAG");
        if (m_sections.count(flag))
          throw std::runtime_error(m_path + ":" + std::to_string(number) + ": %FLAG " +
                                   printableInput(flag) + " appears twice (first at line " +
                                   std::to_string(m_sections[flag].flagLine) + ")");
        current = &m_sections[flag];
        current->flag = flag;
        current->flagLine = number;
        awaitingFormat = true;
      } else if (line.rfind("%FORMAT", 0) == 0) {
        if (!current)
          throw std::runtime_error(m_path + ":" + std::to_string(number) +
                                   ": %FORMAT line outside a %FLAG section");
        if (!awaitingFormat) fail(*current, number, "a second %FORMAT line in one section");
        current->format = parseFormat(*current, line, number);
        current->firstDataLine = number + 1;
        awaitingFormat = false;
      } else if (line.rfind("%COMMENT", 0) == 0 || line.rfind("%VERSION", 0) == 0) {
        continue;  // free text, not data
      } else if (current) {
        if (awaitingFormat)
          fail(*current, number,
               "expected a %FORMAT(...) line after the %FLAG line, found " + quoteInput(line));
        current->lines.push_back(line);
      } else if (!trim(line).empty()) {
        throw std::runtime_error(
            m_path + ":" + std::to_string(number) + ": expected %VERSION or %FLAG, found " +
            quoteInput(line, 40) +
            " (pre-Amber 7 prmtops without %FLAG sections are not supported; convert the file "
            "with ParmEd or a current LEaP)");
      }
    }
    if (in.bad()) failFile("read error");
    if (m_sections.empty())
      failFile(
          "no %FLAG sections found (empty file, or a pre-Amber 7 prmtop; convert it with "
          "ParmEd or a current LEaP)");
    if (current && awaitingFormat)
      fail(*current, current->flagLine,
           "the file ends before the %FORMAT line of this section; is it truncated?");
  }

  FortranFormat parseFormat(const Section& s, const std::string& line, std::size_t number) const {
    // %FORMAT(10I8), %FORMAT(5E16.8), %FORMAT(20a4), %FORMAT(a80): [count] letter width [.digits]
    const std::size_t open = line.find('('), close = line.find(')');
    const auto bad = [&] {
      fail(s, number,
           "expected a Fortran format such as %FORMAT(10I8), %FORMAT(5E16.8) or "
           "%FORMAT(20a4), found " +
               quoteInput(trim(line)));
    };
    if (open == std::string::npos || close == std::string::npos || close < open) bad();
    const std::string spec = trim(line.substr(open + 1, close - open - 1));
    // Repeat counts and widths beyond kMaxFormatNumber are refused, not wrapped around (a count of
    // 4294967316 once read as 20).
    constexpr int kMaxFormatNumber = 100000;
    const auto digits = [&](std::size_t& p) {
      int value = 0;
      while (p < spec.size() && std::isdigit(static_cast<unsigned char>(spec[p]))) {
        value = value * 10 + (spec[p++] - '0');
        if (value > kMaxFormatNumber)
          fail(s, number,
               "the Fortran format " + quoteInput(trim(line)) +
                   " has a repeat count or width above " + std::to_string(kMaxFormatNumber));
      }
      return value;
    };
    std::size_t p = 0;
    int count = digits(p);
    if (p == 0) count = 1;
    if (p >= spec.size()) bad();
    const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(spec[p++])));
    const std::size_t widthStart = p;
    const int width = digits(p);
    if (p == widthStart || width <= 0 || count <= 0) bad();
    if (p < spec.size()) {
      if (spec[p] != '.') bad();
      ++p;
      const std::size_t digitsStart = p;
      while (p < spec.size() && std::isdigit(static_cast<unsigned char>(spec[p]))) ++p;
      if (p == digitsStart || p != spec.size()) bad();
    }
    FortranFormat format;
    format.perLine = count;
    format.width = width;
    if (letter == 'a')
      format.kind = 'a';
    else if (letter == 'i')
      format.kind = 'i';
    else if (letter == 'e' || letter == 'f' || letter == 'd' || letter == 'g')
      format.kind = 'e';
    else
      bad();
    return format;
  }

  void requireKind(const Section& s, char kind) const {
    if (s.format.kind == kind) return;
    const char* names[] = {"text (a)", "integer (I)", "real (E/F)"};
    const auto name = [&](char k) { return k == 'a' ? names[0] : k == 'i' ? names[1] : names[2]; };
    fail(s, s.firstDataLine - 1,
         std::string("expected a ") + name(kind) + " format, found " + name(s.format.kind));
  }

  template <class Visit>
  void forEachField(const Section& s, std::size_t expected, const std::string& countName,
                    Visit&& visit) const {
    const std::size_t width = static_cast<std::size_t>(s.format.width);
    const std::size_t perLine = static_cast<std::size_t>(s.format.perLine);
    std::size_t found = 0;
    std::size_t lineIndex = 0;
    for (; lineIndex < s.lines.size() && found < expected; ++lineIndex) {
      const std::string line = rtrim(s.lines[lineIndex]);
      const std::size_t lineNumber = s.firstDataLine + lineIndex;
      const std::size_t fields = (line.size() + width - 1) / width;
      if (fields > perLine)
        fail(s, lineNumber,
             "expected at most " + std::to_string(perLine) + " fields of " + std::to_string(width) +
                 " characters, found a line of " + std::to_string(line.size()) + " characters");
      std::size_t f = 0;
      for (; f < fields && found < expected; ++f, ++found)
        visit(line.substr(f * width, width), lineNumber);
      for (; f < fields; ++f)
        if (!trim(line.substr(f * width, width)).empty())
          fail(s, lineNumber,
               "expected " + std::to_string(expected) + " values (" + countName +
                   "), found more; the section and POINTERS disagree");
    }
    if (expected != kAll && found < expected)
      fail(s, s.flagLine,
           "expected " + std::to_string(expected) + " values (" + countName + "), found " +
               std::to_string(found) + "; is the file truncated?");
    if (expected != kAll) requireBlankRest(s, lineIndex, expected, countName);
  }

  void requireBlankRest(const Section& s, std::size_t lineIndex, std::size_t expected,
                        const std::string& countName) const {
    for (std::size_t k = lineIndex; k < s.lines.size(); ++k)
      if (!trim(s.lines[k]).empty())
        fail(s, s.firstDataLine + k,
             "expected " + std::to_string(expected) + " values (" + countName +
                 "), found more; the section and POINTERS disagree");
  }

  std::string m_path;
  std::map<std::string, Section> m_sections;
};

/// Atom index (0-based) from a prmtop coordinate index 3 * atom (sign dropped where allowed).
int atomFromCoordinateIndex(const PrmtopFile& file, const Section& section, long long raw,
                            bool signAllowed, int atomCount, std::size_t entry,
                            const char* position) {
  if (raw < 0 && !signAllowed)
    file.fail(section, 0,
              "entry " + std::to_string(entry + 1) + ": the " + position +
                  " atom index must not be negative, found " + std::to_string(raw));
  // Compared before negating: -LLONG_MIN would overflow.
  const bool inRange = raw > -3LL * atomCount && raw < 3LL * atomCount;
  const long long magnitude = !inRange ? 0 : raw < 0 ? -raw : raw;
  if (!inRange || magnitude % 3 != 0)
    file.fail(section, 0,
              "entry " + std::to_string(entry + 1) + ": the " + position +
                  " atom index must be 3 x (atom - 1) with atom in 1.." +
                  std::to_string(atomCount) + ", found " + std::to_string(raw));
  return static_cast<int>(magnitude / 3);
}

int typeIndex(const PrmtopFile& file, const Section& section, long long raw, int typeCount,
              std::size_t entry, const char* tableName) {
  if (raw < 1 || raw > typeCount)
    file.fail(section, 0,
              "entry " + std::to_string(entry + 1) + ": the parameter index must be in 1.." +
                  std::to_string(typeCount) + " (" + tableName + "), found " + std::to_string(raw));
  return static_cast<int>(raw - 1);
}

// ---- the sections of readAmberTopology, in the order it reads them ------------------------------

constexpr const char* kNatomName = "NATOM in %FLAG POINTERS";

int pointer(const AmberTopology& top, Pointer p) {
  return top.pointers[static_cast<std::size_t>(p)];
}

/// Formats this reader cannot represent exactly are refused rather than silently mis-read.
void refuseUnsupportedFormats(const PrmtopFile& file) {
  if (file.has("CTITLE"))
    file.failFile(
        "this is a CHAMBER (CHARMM force field) prmtop (%FLAG CTITLE); only AMBER force "
        "fields are supported");
  if (file.has("CMAP_COUNT"))
    file.failFile(
        "the prmtop has CMAP terms (%FLAG CMAP_COUNT, e.g. ff19SB), which are not "
        "supported");
  if (file.has("LENNARD_JONES_CCOEF"))
    file.failFile(
        "the prmtop has 12-6-4 Lennard-Jones terms (%FLAG LENNARD_JONES_CCOEF), which "
        "are not supported");
}

/// POINTERS: the counts every later section is checked against, and the atom, type and residue
/// counts of the topology. Perturbation data and extra points are refused here.
void readPointers(const PrmtopFile& file, AmberTopology& top) {
  const std::vector<long long> pointers = file.integers("POINTERS", kAll, "");
  if (pointers.size() < kMinimumPointers)
    file.fail(file.section("POINTERS"), 0,
              "expected at least " + std::to_string(kMinimumPointers) + " values, found " +
                  std::to_string(pointers.size()) + "; is the file truncated?");
  for (std::size_t k = 0; k < pointers.size(); ++k) {
    if (pointers[k] < 0 || pointers[k] > std::numeric_limits<int>::max())
      file.fail(file.section("POINTERS"), 0,
                "value " + std::to_string(k + 1) + " must be a non-negative count, found " +
                    std::to_string(pointers[k]));
    top.pointers.push_back(static_cast<int>(pointers[k]));
  }
  const int natom = pointer(top, kNatom), ntypes = pointer(top, kNtypes),
            nres = pointer(top, kNres);
  if (natom < 1) file.fail(file.section("POINTERS"), 0, "NATOM must be at least 1, found 0");
  if (ntypes < 1) file.fail(file.section("POINTERS"), 0, "NTYPES must be at least 1, found 0");
  if (nres < 1) file.fail(file.section("POINTERS"), 0, "NRES must be at least 1, found 0");
  if (pointer(top, kIfpert) != 0)
    file.fail(file.section("POINTERS"), 0,
              "IFPERT = " + std::to_string(pointer(top, kIfpert)) +
                  ": perturbation topologies are not supported");
  if (top.pointers.size() > kNumextra && pointer(top, kNumextra) != 0)
    file.fail(file.section("POINTERS"), 0,
              "NUMEXTRA = " + std::to_string(pointer(top, kNumextra)) +
                  ": extra points (virtual sites) are not supported");
  top.atomCount = natom;
  top.typeCount = ntypes;
  top.residueCount = nres;
  top.boxType = pointer(top, kIfbox);
}

/// The per-atom sections: names, charges, masses, Lennard-Jones types, AMBER atom types and atomic
/// numbers (inferred from the masses when the file has no ATOMIC_NUMBER).
void readAtoms(const PrmtopFile& file, AmberTopology& top) {
  const std::size_t n = static_cast<std::size_t>(top.atomCount);
  top.atomNames = file.strings("ATOM_NAME", n, kNatomName);
  top.charges = file.reals("CHARGE", n, kNatomName);
  top.masses = file.reals("MASS", n, kNatomName);
  const std::vector<long long> typeIndices = file.integers("ATOM_TYPE_INDEX", n, kNatomName);
  top.ljTypes.resize(n);
  for (std::size_t a = 0; a < n; ++a)
    top.ljTypes[a] = typeIndex(file, file.section("ATOM_TYPE_INDEX"), typeIndices[a], top.typeCount,
                               a, "NTYPES in %FLAG POINTERS");
  if (file.has("AMBER_ATOM_TYPE"))
    top.atomTypes = file.strings("AMBER_ATOM_TYPE", n, kNatomName);
  else
    top.atomTypes.assign(n, std::string());
  if (file.has("ATOMIC_NUMBER")) {
    const std::vector<long long> z = file.integers("ATOMIC_NUMBER", n, kNatomName);
    top.atomicNumbers.resize(n);
    for (std::size_t a = 0; a < n; ++a) {
      if (z[a] > 200)
        file.fail(file.section("ATOMIC_NUMBER"), 0,
                  "atom " + std::to_string(a + 1) + ": expected an atomic number, found " +
                      std::to_string(z[a]));
      top.atomicNumbers[a] = z[a] < 0 ? 0 : static_cast<int>(z[a]);  // -1: unknown (ParmEd)
    }
    top.atomicNumbersFromFile = true;
  } else {
    // Older files: the element from the mass; hydrogen-mass-repartitioned hydrogens (about 3 amu)
    // fall between elements and are recognised as hydrogens by their mass below 4.5 amu.
    top.atomicNumbers.resize(n);
    for (std::size_t a = 0; a < n; ++a) {
      int z = atomicNumberFromMass(top.masses[a]);
      if (z == 0 && top.masses[a] > 0.5 && top.masses[a] < 4.5) z = 1;
      top.atomicNumbers[a] = z;
    }
  }
}

/// The generalized Born radii and screening factors, and the name of the radius set; all optional
/// here (AmberGb requires RADII and SCREEN).
void readGbRadii(const PrmtopFile& file, AmberTopology& top) {
  const std::size_t n = static_cast<std::size_t>(top.atomCount);
  if (file.has("RADII")) top.gbRadii = file.reals("RADII", n, kNatomName);
  if (file.has("SCREEN")) top.gbScreen = file.reals("SCREEN", n, kNatomName);
  if (file.has("RADIUS_SET")) top.radiusSet = file.text("RADIUS_SET");
}

/// Residue labels and first atoms, and from them the residue of every atom.
void readResidues(const PrmtopFile& file, AmberTopology& top) {
  const int natom = top.atomCount, nres = top.residueCount;
  const std::string nresName = "NRES in %FLAG POINTERS";
  top.residueLabels = file.strings("RESIDUE_LABEL", static_cast<std::size_t>(nres), nresName);
  const std::vector<long long> residuePointers =
      file.integers("RESIDUE_POINTER", static_cast<std::size_t>(nres), nresName);
  for (int r = 0; r < nres; ++r) {
    const long long first = residuePointers[static_cast<std::size_t>(r)];
    const long long previous = r == 0 ? 0 : residuePointers[static_cast<std::size_t>(r - 1)];
    if ((r == 0 && first != 1) || (r > 0 && first <= previous) || first > natom)
      file.fail(file.section("RESIDUE_POINTER"), 0,
                "residue " + std::to_string(r + 1) +
                    ": expected increasing first-atom numbers starting at 1 and at most NATOM = " +
                    std::to_string(natom) + ", found " + std::to_string(first));
    top.residueFirstAtom.push_back(static_cast<int>(first - 1));
  }
  top.residueFirstAtom.push_back(natom);
  top.residueOfAtom.resize(static_cast<std::size_t>(natom));
  for (int r = 0; r < nres; ++r)
    for (int a = top.residueFirstAtom[static_cast<std::size_t>(r)];
         a < top.residueFirstAtom[static_cast<std::size_t>(r + 1)]; ++a)
      top.residueOfAtom[static_cast<std::size_t>(a)] = r;
}

/// The Lennard-Jones A and B tables, the 10-12 hydrogen-bond tables, and the type-pair index into
/// them.
void readLennardJones(const PrmtopFile& file, AmberTopology& top) {
  const int ntypes = top.typeCount;
  const std::size_t pairTypes = static_cast<std::size_t>(ntypes) * (ntypes + 1) / 2;
  const std::string pairName = "NTYPES x (NTYPES + 1) / 2 from %FLAG POINTERS";
  top.ljACoefficients = file.reals("LENNARD_JONES_ACOEF", pairTypes, pairName);
  top.ljBCoefficients = file.reals("LENNARD_JONES_BCOEF", pairTypes, pairName);
  const int nphb = pointer(top, kNphb);
  if (nphb > 0 || file.has("HBOND_ACOEF")) {
    top.hbondACoefficients =
        file.reals("HBOND_ACOEF", static_cast<std::size_t>(nphb), "NPHB in %FLAG POINTERS");
    top.hbondBCoefficients =
        file.reals("HBOND_BCOEF", static_cast<std::size_t>(nphb), "NPHB in %FLAG POINTERS");
  }
  const std::vector<long long> nbIndex =
      file.integers("NONBONDED_PARM_INDEX", static_cast<std::size_t>(ntypes) * ntypes,
                    "NTYPES^2 from %FLAG POINTERS");
  for (std::size_t k = 0; k < nbIndex.size(); ++k) {
    if (nbIndex[k] > static_cast<long long>(pairTypes) || nbIndex[k] < -nphb)
      file.fail(file.section("NONBONDED_PARM_INDEX"), 0,
                "entry " + std::to_string(k + 1) + " must be in -" + std::to_string(nphb) + ".." +
                    std::to_string(pairTypes) + " (NPHB, NTYPES(NTYPES+1)/2), found " +
                    std::to_string(nbIndex[k]));
    top.nonbondedParmIndex.push_back(static_cast<int>(nbIndex[k]));
  }
}

/// The parameter tables of bonds, angles and dihedrals, with the 1-4 scale factors (sander's
/// defaults when the file predates them).
void readBondedParameters(const PrmtopFile& file, AmberTopology& top) {
  const int numbnd = pointer(top, kNumbnd), numang = pointer(top, kNumang),
            nptra = pointer(top, kNptra);
  top.bondForceConstants = file.reals("BOND_FORCE_CONSTANT", static_cast<std::size_t>(numbnd),
                                      "NUMBND in %FLAG POINTERS");
  top.bondEquilibria =
      file.reals("BOND_EQUIL_VALUE", static_cast<std::size_t>(numbnd), "NUMBND in %FLAG POINTERS");
  top.angleForceConstants = file.reals("ANGLE_FORCE_CONSTANT", static_cast<std::size_t>(numang),
                                       "NUMANG in %FLAG POINTERS");
  top.angleEquilibria =
      file.reals("ANGLE_EQUIL_VALUE", static_cast<std::size_t>(numang), "NUMANG in %FLAG POINTERS");
  const std::string nptraName = "NPTRA in %FLAG POINTERS";
  top.dihedralForceConstants =
      file.reals("DIHEDRAL_FORCE_CONSTANT", static_cast<std::size_t>(nptra), nptraName);
  top.dihedralPeriodicities =
      file.reals("DIHEDRAL_PERIODICITY", static_cast<std::size_t>(nptra), nptraName);
  top.dihedralPhases = file.reals("DIHEDRAL_PHASE", static_cast<std::size_t>(nptra), nptraName);
  if (file.has("SCEE_SCALE_FACTOR") != file.has("SCNB_SCALE_FACTOR"))
    file.failFile("expected both %FLAG SCEE_SCALE_FACTOR and %FLAG SCNB_SCALE_FACTOR or neither");
  if (file.has("SCEE_SCALE_FACTOR")) {
    top.sceeScaleFactors =
        file.reals("SCEE_SCALE_FACTOR", static_cast<std::size_t>(nptra), nptraName);
    top.scnbScaleFactors =
        file.reals("SCNB_SCALE_FACTOR", static_cast<std::size_t>(nptra), nptraName);
    top.scaleFactorsFromFile = true;
  } else {
    // sander's defaults (scee = 1.2, scnb = 2.0) for files written before Amber 11.
    top.sceeScaleFactors.assign(static_cast<std::size_t>(nptra), 1.2);
    top.scnbScaleFactors.assign(static_cast<std::size_t>(nptra), 2.0);
  }
}

/// One bond section (BONDS_INC_HYDROGEN or BONDS_WITHOUT_HYDROGEN): `count` triples i, j, type.
void readBonds(const PrmtopFile& file, AmberTopology& top, const std::string& flag, int count,
               bool hydrogen) {
  const int natom = top.atomCount, numbnd = pointer(top, kNumbnd);
  const std::string countName =
      std::string(hydrogen ? "3 x NBONH" : "3 x MBONA") + " from %FLAG POINTERS";
  const std::vector<long long> v =
      file.integers(flag, 3 * static_cast<std::size_t>(count), countName);
  const Section& s = file.section(flag);
  for (std::size_t e = 0; e < static_cast<std::size_t>(count); ++e) {
    AmberBond b;
    b.i = atomFromCoordinateIndex(file, s, v[3 * e], false, natom, e, "first");
    b.j = atomFromCoordinateIndex(file, s, v[3 * e + 1], false, natom, e, "second");
    b.type = typeIndex(file, s, v[3 * e + 2], numbnd, e, "NUMBND");
    b.hasHydrogen = hydrogen;
    top.bonds.push_back(b);
  }
}

/// One angle section: `count` quadruples i, j, k, type.
void readAngles(const PrmtopFile& file, AmberTopology& top, const std::string& flag, int count,
                const char* countName) {
  const int natom = top.atomCount, numang = pointer(top, kNumang);
  const std::vector<long long> v = file.integers(flag, 4 * static_cast<std::size_t>(count),
                                                 std::string(countName) + " from %FLAG POINTERS");
  const Section& s = file.section(flag);
  for (std::size_t e = 0; e < static_cast<std::size_t>(count); ++e) {
    AmberAngle a;
    a.i = atomFromCoordinateIndex(file, s, v[4 * e], false, natom, e, "first");
    a.j = atomFromCoordinateIndex(file, s, v[4 * e + 1], false, natom, e, "second");
    a.k = atomFromCoordinateIndex(file, s, v[4 * e + 2], false, natom, e, "third");
    a.type = typeIndex(file, s, v[4 * e + 3], numang, e, "NUMANG");
    top.angles.push_back(a);
  }
}

/// One dihedral section: `count` quintuples i, j, k, l, type, the signs of k and l carrying the
/// 1-4 and improper flags.
void readDihedrals(const PrmtopFile& file, AmberTopology& top, const std::string& flag, int count,
                   const char* countName) {
  const int natom = top.atomCount, nptra = pointer(top, kNptra);
  const std::vector<long long> v = file.integers(flag, 5 * static_cast<std::size_t>(count),
                                                 std::string(countName) + " from %FLAG POINTERS");
  const Section& s = file.section(flag);
  for (std::size_t e = 0; e < static_cast<std::size_t>(count); ++e) {
    AmberDihedral d;
    d.i = atomFromCoordinateIndex(file, s, v[5 * e], false, natom, e, "first");
    d.j = atomFromCoordinateIndex(file, s, v[5 * e + 1], false, natom, e, "second");
    d.k = atomFromCoordinateIndex(file, s, v[5 * e + 2], true, natom, e, "third");
    d.l = atomFromCoordinateIndex(file, s, v[5 * e + 3], true, natom, e, "fourth");
    d.type = typeIndex(file, s, v[5 * e + 4], nptra, e, "NPTRA");
    // prmtop.pdf: a negative third index means "do not compute the 1-4 pair", a negative
    // fourth index marks an improper torsion (whose end atoms are not a 1-4 pair either).
    d.improper = v[5 * e + 3] < 0;
    d.computes14 = v[5 * e + 2] >= 0 && v[5 * e + 3] >= 0;
    top.dihedrals.push_back(d);
  }
}

/// NUMBER_EXCLUDED_ATOMS and EXCLUDED_ATOMS_LIST into compressed rows (sander's NUMEX/NATEX).
void readExclusions(const PrmtopFile& file, AmberTopology& top) {
  const int natom = top.atomCount;
  const std::size_t n = static_cast<std::size_t>(natom);
  const std::vector<long long> excludedCounts =
      file.integers("NUMBER_EXCLUDED_ATOMS", n, kNatomName);
  long long total = 0;
  for (std::size_t a = 0; a < n; ++a) {
    if (excludedCounts[a] < 0 || excludedCounts[a] > natom)
      file.fail(file.section("NUMBER_EXCLUDED_ATOMS"), 0,
                "atom " + std::to_string(a + 1) + ": expected a count in 0.." +
                    std::to_string(natom) + " (NATOM), found " + std::to_string(excludedCounts[a]));
    total += excludedCounts[a];
  }
  if (total != pointer(top, kNnb))
    file.fail(file.section("NUMBER_EXCLUDED_ATOMS"), 0,
              "the counts sum to " + std::to_string(total) + ", but NNB in %FLAG POINTERS is " +
                  std::to_string(pointer(top, kNnb)));
  const std::vector<long long> excluded = file.integers(
      "EXCLUDED_ATOMS_LIST", static_cast<std::size_t>(pointer(top, kNnb)), "NNB in %FLAG POINTERS");
  top.excludedOffsets.push_back(0);
  std::size_t cursor = 0;
  for (std::size_t a = 0; a < n; ++a) {
    for (long long e = 0; e < excludedCounts[a]; ++e, ++cursor) {
      const long long j = excluded[cursor];
      if (j < 0 || j > natom)
        file.fail(file.section("EXCLUDED_ATOMS_LIST"), 0,
                  "entry " + std::to_string(cursor + 1) + " (atom " + std::to_string(a + 1) +
                      "): expected an atom number in 0.." + std::to_string(natom) + ", found " +
                      std::to_string(j));
      if (j > 0) top.excludedAtoms.push_back(static_cast<int>(j - 1));  // 0: "none" placeholder
    }
    top.excludedOffsets.push_back(static_cast<int>(top.excludedAtoms.size()));
  }
}

/// Polarizable topologies (IPOL != 0) are refused.
void refusePolarizable(const PrmtopFile& file) {
  if (file.has("IPOL")) {
    const std::vector<long long> ipol = file.integers("IPOL", kAll, "");
    if (!ipol.empty() && ipol[0] != 0)
      file.fail(
          file.section("IPOL"), 0,
          "polarizable topologies (IPOL = " + std::to_string(ipol[0]) + ") are not supported");
  }
}

}  // namespace

int atomicNumberFromMass(double mass) {
  int best = 0;
  double bestDifference = 0.5;
  for (int z = 1; z < kElementCount; ++z) {
    const double difference = std::abs(kElements[z].mass - mass);
    if (difference < bestDifference) {
      bestDifference = difference;
      best = z;
    }
  }
  return best;
}

std::string elementSymbol(int atomicNumber) {
  if (atomicNumber <= 0 || atomicNumber >= kElementCount) return "X";
  return kElements[atomicNumber].symbol;
}

std::array<double, 2> AmberTopology::ljCoefficients(int typeI, int typeJ) const {
  const int index =
      nonbondedParmIndex[static_cast<std::size_t>(typeI) * static_cast<std::size_t>(typeCount) +
                         static_cast<std::size_t>(typeJ)];
  if (index <= 0) return {0.0, 0.0};
  return {ljACoefficients[static_cast<std::size_t>(index - 1)],
          ljBCoefficients[static_cast<std::size_t>(index - 1)]};
}

std::vector<std::vector<int>> AmberTopology::bondedNeighbours() const {
  std::vector<std::vector<int>> neighbours(static_cast<std::size_t>(atomCount));
  for (const AmberBond& b : bonds) {
    neighbours[static_cast<std::size_t>(b.i)].push_back(b.j);
    neighbours[static_cast<std::size_t>(b.j)].push_back(b.i);
  }
  for (auto& list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return neighbours;
}

AmberTopology readAmberTopology(const std::string& path) {
  const PrmtopFile file(path);
  AmberTopology top;
  top.path = path;
  refuseUnsupportedFormats(file);
  top.title = file.has("TITLE") ? file.text("TITLE") : std::string();
  readPointers(file, top);
  readAtoms(file, top);
  readGbRadii(file, top);
  readResidues(file, top);
  readLennardJones(file, top);
  readBondedParameters(file, top);
  readBonds(file, top, "BONDS_INC_HYDROGEN", pointer(top, kNbonh), true);
  readBonds(file, top, "BONDS_WITHOUT_HYDROGEN", pointer(top, kMbona), false);
  readAngles(file, top, "ANGLES_INC_HYDROGEN", pointer(top, kNtheth), "4 x NTHETH");
  readAngles(file, top, "ANGLES_WITHOUT_HYDROGEN", pointer(top, kMtheta), "4 x MTHETA");
  readDihedrals(file, top, "DIHEDRALS_INC_HYDROGEN", pointer(top, kNphih), "5 x NPHIH");
  readDihedrals(file, top, "DIHEDRALS_WITHOUT_HYDROGEN", pointer(top, kMphia), "5 x MPHIA");
  readExclusions(file, top);
  refusePolarizable(file);
  return top;
}

}  // namespace landscape
