// Makes a multi-copy AMBER system: several copies of the molecule of one prmtop + inpcrd, set on a
// cubic grid, written as a new prmtop and an ASCII inpcrd (rst7). This is how the GB size-test
// systems are made at build time instead of being stored (tests/data/gb/SOURCES.md): myoglobin_x4
// is 4 copies of gb/myoglobin/prmtop.mbondi2 on a 2x2x1 grid, myoglobin_x10 10 copies on a 3x2x2
// grid (its first 10 cells), both 53.9 A apart (the molecule's largest extent plus 8 A).
//
// The files are those that ParmEd 3.4 writes for the same assembly (AmberParm.from_structure of
// the summed copies, then write_parm and an rst7 save), byte for byte apart from the %VERSION
// line's date, which is copied from the input prmtop unless --version-date is given:
//  * coordinates: the input's, minus their mean (a plain sum over atoms divided by the count),
//    plus spacing x (i, j, k) for cell (i, j, k), cells in the order i, then j, then k (k fastest);
//    spacing = max over x, y, z of the centred coordinates' range, plus --margin (8 A);
//  * prmtop: per-atom, per-residue and bonded-parameter sections repeated once per copy; atom
//    indices of the bond, angle, dihedral and exclusion lists and the residue pointers shifted by
//    the atoms before the copy, bonded type indices by the types before it (types are not merged);
//  * Lennard-Jones types renumbered as ParmEd does: one type per distinct AMBER_ATOM_TYPE name
//    (and parameters), numbered in order of first appearance; Rmin/2 and epsilon of each from the
//    input's diagonal A and B coefficients, and every A and B recomputed from them with the
//    input's combining rule (Lorentz-Berthelot, or geometric when that reproduces the table).
// Only plain AMBER topologies are accepted (no box, extra points, perturbation, CMAP, 10-12 terms
// or off-diagonal Lennard-Jones modifications); anything else is refused with a message.
//
// Usage: make_prmtop_copies --prmtop FILE --inpcrd FILE --grid AxBxC --copies N --output DIR
//                           [--margin A] [--version-date "MM/DD/YY  HH:MM:SS"]
// writes DIR/prmtop and DIR/inpcrd (DIR is created).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "potentials/AmberCoordinates.h"
#include "src/common/OptionTable.h"

namespace {

struct Options {
  std::string prmtop, inpcrd, output, grid, versionDate;
  int copies = 0;
  double margin = 8.0;  // Angstrom
};

landscape::OptionTable<Options> optionTable() {
  using landscape::fieldOf;
  landscape::OptionTable<Options> t("make_prmtop_copies");
  t.about =
      "usage: make_prmtop_copies --prmtop FILE --inpcrd FILE --grid AxBxC --copies N --output DIR\n"
      "                          [--margin A] [--version-date \"MM/DD/YY  HH:MM:SS\"]\n"
      "Writes DIR/prmtop and DIR/inpcrd: N copies of the molecule (the first N cells of an AxBxC\n"
      "grid, spacing = the centred molecule's largest extent + margin). The %VERSION line keeps\n"
      "the input prmtop's date unless --version-date is given.\n";
  t.helpCommand();
  t.add("prmtop", "FILE", "AMBER topology to copy (required)", fieldOf(&Options::prmtop));
  t.add("inpcrd", "FILE", "its coordinates, inpcrd/rst7 (required)", fieldOf(&Options::inpcrd));
  t.add("grid", "AxBxC", "grid of cells, e.g. 2x2x1 (required)", fieldOf(&Options::grid));
  t.add("copies", "N", "copies, in the first N cells of the grid (required)",
        fieldOf(&Options::copies))
      .atLeast(0);
  t.add("output", "DIR", "folder for prmtop and inpcrd (required)", fieldOf(&Options::output));
  t.add("margin", "A", "added to the molecule's largest extent to give the spacing",
        fieldOf(&Options::margin))
      .unit("Angstrom")
      .nonNegative();
  t.add("version-date", "DATE", "date of the %VERSION line (default: the input's)",
        fieldOf(&Options::versionDate));
  return t;
}

/// A Fortran edit descriptor of a %FORMAT line, e.g. 10I8 or 5E16.8 or 20a4.
struct Format {
  std::string text;  ///< as in the file, e.g. "5E16.8"
  int perLine = 0;
  char kind = 'a';  ///< 'a', 'I', 'E' or 'F'
  int width = 0;
  int decimals = 0;
};

Format parseFormat(const std::string& text, const std::string& where) {
  static const std::regex pattern(R"(^\s*(\d+)([aAiIeEfF])(\d+)(?:\.(\d+))?\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, pattern))
    throw std::runtime_error(where + ": unsupported %FORMAT(" + text + ")");
  Format f;
  f.text = text;
  f.perLine = std::stoi(m[1]);
  f.kind = static_cast<char>(std::toupper(static_cast<unsigned char>(m[2].str()[0])));
  if (f.kind == 'A') f.kind = 'a';
  f.width = std::stoi(m[3]);
  f.decimals = m[4].matched ? std::stoi(m[4]) : 0;
  if (f.perLine <= 0 || f.width <= 0)
    throw std::runtime_error(where + ": bad %FORMAT(" + text + ")");
  return f;
}

/// One %FLAG section: its values as read (strings stripped, as ParmEd keeps them).
struct Section {
  std::string name;
  std::vector<std::string> comments;
  Format format;
  std::vector<std::string> strings;
  std::vector<long> ints;
  std::vector<double> reals;

  std::size_t size() const {
    return format.kind == 'a' ? strings.size() : format.kind == 'I' ? ints.size() : reals.size();
  }
};

std::string strip(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

struct Prmtop {
  std::string version;  ///< the %VERSION line, stripped; empty when absent
  std::vector<Section> sections;

  Section& get(const std::string& name) {
    for (Section& s : sections)
      if (s.name == name) return s;
    throw std::runtime_error("prmtop has no %FLAG " + name);
  }
  const Section& get(const std::string& name) const { return const_cast<Prmtop*>(this)->get(name); }
  bool has(const std::string& name) const {
    return std::any_of(sections.begin(), sections.end(),
                       [&](const Section& s) { return s.name == name; });
  }
};

Prmtop readPrmtop(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  Prmtop top;
  Section* current = nullptr;
  std::string line;
  int lineNumber = 0;
  while (std::getline(in, line)) {
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string where = path + ":" + std::to_string(lineNumber);
    if (line.rfind("%VERSION", 0) == 0) {
      top.version = strip(line);
    } else if (line.rfind("%FLAG", 0) == 0) {
      top.sections.push_back(Section{});
      current = &top.sections.back();
      current->name = strip(line.substr(5));
    } else if (line.rfind("%COMMENT", 0) == 0) {
      if (current == nullptr) throw std::runtime_error(where + ": %COMMENT before any %FLAG");
      current->comments.push_back(strip(line.substr(8)));
    } else if (line.rfind("%FORMAT", 0) == 0) {
      if (current == nullptr) throw std::runtime_error(where + ": %FORMAT before any %FLAG");
      const auto open = line.find('('), close = line.rfind(')');
      if (open == std::string::npos || close == std::string::npos || close < open)
        throw std::runtime_error(where + ": malformed %FORMAT line");
      current->format = parseFormat(line.substr(open + 1, close - open - 1), where);
    } else if (current == nullptr) {
      if (!strip(line).empty()) throw std::runtime_error(where + ": data before any %FLAG");
    } else {
      const Format& f = current->format;
      if (f.width == 0) throw std::runtime_error(where + ": data before %FORMAT");
      for (std::size_t at = 0; at < line.size(); at += static_cast<std::size_t>(f.width)) {
        const std::string field = line.substr(at, static_cast<std::size_t>(f.width));
        if (f.kind == 'a') {
          current->strings.push_back(strip(field));
          continue;
        }
        const std::string token = strip(field);
        if (token.empty()) continue;
        char* end = nullptr;
        if (f.kind == 'I') {
          const long v = std::strtol(token.c_str(), &end, 10);
          if (*end != '\0') throw std::runtime_error(where + ": not an integer: '" + token + "'");
          current->ints.push_back(v);
        } else {
          const double v = std::strtod(token.c_str(), &end);
          if (*end != '\0') throw std::runtime_error(where + ": not a number: '" + token + "'");
          current->reals.push_back(v);
        }
      }
    }
  }
  if (top.sections.empty()) throw std::runtime_error(path + ": no %FLAG sections");
  return top;
}

std::string formatItem(const Section& s, std::size_t i) {
  const Format& f = s.format;
  char buffer[128];
  if (f.kind == 'a') {
    std::string text = s.strings[i];
    if (text.size() < static_cast<std::size_t>(f.width))
      text.append(static_cast<std::size_t>(f.width) - text.size(), ' ');
    return text;
  }
  if (f.kind == 'I') {
    std::snprintf(buffer, sizeof buffer, "%*ld", f.width, s.ints[i]);
  } else {
    std::snprintf(buffer, sizeof buffer, f.kind == 'E' ? "%*.*E" : "%*.*f", f.width, f.decimals,
                  s.reals[i]);
  }
  return buffer;
}

/// ParmEd's write_parm layout: %FLAG, %COMMENT lines, %FORMAT, then perLine items a line (a
/// blank line for an empty section).
void writePrmtop(const std::string& path, const Prmtop& top) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path + ": cannot write");
  out << top.version << '\n';
  for (const Section& s : top.sections) {
    out << "%FLAG " << s.name << '\n';
    for (const std::string& c : s.comments) out << "%COMMENT " << c << '\n';
    out << "%FORMAT(" << s.format.text << ")\n";
    const std::size_t n = s.size();
    if (n == 0) {
      out << '\n';
      continue;
    }
    const std::size_t perLine = static_cast<std::size_t>(s.format.perLine);
    for (std::size_t i = 0; i < n; ++i) {
      out << formatItem(s, i);
      if (i % perLine == perLine - 1) out << '\n';
    }
    if (n % perLine != 0) out << '\n';
  }
  if (!out) throw std::runtime_error(path + ": write failed");
}

/// sander's restrt layout as ParmEd writes it: title, I5 atom count and E15.7 time, 6F12.7.
void writeInpcrd(const std::string& path, const std::vector<double>& x) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error(path + ": cannot write");
  const std::size_t n = x.size() / 3;
  std::fprintf(f, "\n%5zu%15.7e\n", n, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::fprintf(f, "%12.7f", x[i]);
    if (i % 6 == 5) std::fputc('\n', f);
  }
  if (x.size() % 6 != 0) std::fputc('\n', f);
  if (std::fclose(f) != 0) throw std::runtime_error(path + ": write failed");
}

// POINTERS entries (ambermd.org/prmtop.pdf).
enum Pointer {
  NATOM = 0,
  NTYPES,
  NBONH,
  MBONA,
  NTHETH,
  MTHETA,
  NPHIH,
  MPHIA,
  NHPARM,
  NPARM,
  NNB,
  NRES,
  NBONA,
  NTHETA,
  NPHIA,
  NUMBND,
  NUMANG,
  NPTRA,
  NATYP,
  NPHB,
  IFPERT,
  NBPER,
  NGPER,
  NDPER,
  MBPER,
  MGPER,
  MDPER,
  IFBOX,
  NMXRS,
  IFCAP,
  NUMEXTRA,
  NCOPY
};

// How each section of the copy is made from the input's.
const std::set<std::string> kPerAtom = {"ATOM_NAME",
                                        "CHARGE",
                                        "MASS",
                                        "NUMBER_EXCLUDED_ATOMS",
                                        "AMBER_ATOM_TYPE",
                                        "TREE_CHAIN_CLASSIFICATION",
                                        "JOIN_ARRAY",
                                        "IROTAT",
                                        "RADII",
                                        "SCREEN",
                                        "ATOMIC_NUMBER"};
const std::set<std::string> kPerResidue = {"RESIDUE_LABEL"};
const std::set<std::string> kPerBondedType = {
    "BOND_FORCE_CONSTANT", "BOND_EQUIL_VALUE",        "ANGLE_FORCE_CONSTANT",
    "ANGLE_EQUIL_VALUE",   "DIHEDRAL_FORCE_CONSTANT", "DIHEDRAL_PERIODICITY",
    "DIHEDRAL_PHASE",      "SCEE_SCALE_FACTOR",       "SCNB_SCALE_FACTOR"};
const std::set<std::string> kUnchanged = {"TITLE", "SOLTY",      "HBOND_ACOEF", "HBOND_BCOEF",
                                          "HBCUT", "RADIUS_SET", "IPOL"};
// Term lists: entries per term, and the table their last entry indexes (its length pointer).
const std::map<std::string, std::pair<int, Pointer>> kTermLists = {
    {"BONDS_INC_HYDROGEN", {3, NUMBND}},    {"BONDS_WITHOUT_HYDROGEN", {3, NUMBND}},
    {"ANGLES_INC_HYDROGEN", {4, NUMANG}},   {"ANGLES_WITHOUT_HYDROGEN", {4, NUMANG}},
    {"DIHEDRALS_INC_HYDROGEN", {5, NPTRA}}, {"DIHEDRALS_WITHOUT_HYDROGEN", {5, NPTRA}}};

template <class T>
std::vector<T> repeated(const std::vector<T>& v, int copies) {
  std::vector<T> out;
  out.reserve(v.size() * static_cast<std::size_t>(copies));
  for (int c = 0; c < copies; ++c) out.insert(out.end(), v.begin(), v.end());
  return out;
}

struct LjType {
  std::string name;
  double rmin;  ///< Rmin/2
  double epsilon;
};

Prmtop makeCopies(const Prmtop& in, int copies) {
  const std::vector<long>& p = in.get("POINTERS").ints;
  if (p.size() < 31) throw std::runtime_error("POINTERS has fewer than 31 entries");
  for (Pointer q : {IFPERT, NBPER, NGPER, NDPER, MBPER, MGPER, MDPER, IFBOX, IFCAP, NUMEXTRA})
    if (p[q] != 0)
      throw std::runtime_error("only plain topologies are supported: POINTERS entry " +
                               std::to_string(q + 1) + " (perturbation, box, cap or extra " +
                               "points) is not 0");
  if (p.size() > NCOPY && p[NCOPY] > 1) throw std::runtime_error("NCOPY > 1 is not supported");
  const long natom = p[NATOM], ntypes = p[NTYPES], nres = p[NRES];

  // ---- Lennard-Jones: ParmEd's fill_LJ, has_NBFIX and recalculate_LJ ----
  const std::vector<long>& nbIndex = in.get("NONBONDED_PARM_INDEX").ints;
  const std::vector<double>& acoef = in.get("LENNARD_JONES_ACOEF").reals;
  const std::vector<double>& bcoef = in.get("LENNARD_JONES_BCOEF").reals;
  if (static_cast<long>(nbIndex.size()) != ntypes * ntypes)
    throw std::runtime_error("NONBONDED_PARM_INDEX does not have NTYPES^2 entries");
  for (long k : nbIndex)
    if (k <= 0 || k > static_cast<long>(acoef.size()) || k > static_cast<long>(bcoef.size()))
      throw std::runtime_error(
          "NONBONDED_PARM_INDEX has an entry that is not a 12-6 pair (10-12 "
          "terms are not supported) or is out of range");
  std::vector<double> radius(static_cast<std::size_t>(ntypes)),
      depth(static_cast<std::size_t>(ntypes));
  for (long i = 0; i < ntypes; ++i) {
    const long k = nbIndex[static_cast<std::size_t>(ntypes * i + i)] - 1;
    const double a = acoef.at(static_cast<std::size_t>(k)),
                 b = bcoef.at(static_cast<std::size_t>(k));
    if (a < 1.0e-10 || b < 1.0e-10) continue;  // radius = depth = 0
    const double factor = 2 * a / b;
    radius[static_cast<std::size_t>(i)] = std::pow(factor, 1.0 / 6.0) * 0.5;
    depth[static_cast<std::size_t>(i)] = b / 2 / factor;
  }
  const double sigmaFactor = std::pow(2.0, -1.0 / 6.0) * 2, rminFactor = std::pow(2.0, 1.0 / 6.0);
  auto combined = [&](bool geometric, double ri, double rj) {
    const double si = ri * sigmaFactor, sj = rj * sigmaFactor;
    return (geometric ? std::sqrt(si * sj) : 0.5 * (si + sj)) * rminFactor;
  };
  auto hasNbfix = [&](bool geometric) {
    for (long i = 0; i < ntypes; ++i)
      for (long j = 0; j < ntypes; ++j) {
        const long k = nbIndex[static_cast<std::size_t>(ntypes * i + j)] - 1;
        const double rij = combined(geometric, radius[static_cast<std::size_t>(i)],
                                    radius[static_cast<std::size_t>(j)]);
        const double wdij =
            std::sqrt(depth[static_cast<std::size_t>(i)] * depth[static_cast<std::size_t>(j)]);
        const double a = acoef.at(static_cast<std::size_t>(k)),
                     b = bcoef.at(static_cast<std::size_t>(k));
        if (a == 0 || b == 0) {
          if (a != 0 || b != 0 || (wdij != 0 && rij != 0)) return true;
        } else if (std::abs((a - wdij * std::pow(rij, 12.0)) / a) > 1e-6 ||
                   std::abs((b - 2 * wdij * std::pow(rij, 6.0)) / b) > 1e-6) {
          return true;
        }
      }
    return false;
  };
  bool geometric = false;
  if (hasNbfix(false)) {
    geometric = true;
    if (hasNbfix(true))
      throw std::runtime_error(
          "the Lennard-Jones table has off-diagonal modifications (NBFIX), "
          "which this tool does not carry over");
  }
  // One new type per distinct (AMBER_ATOM_TYPE, parameters), in order of first appearance.
  const std::vector<std::string>& atomTypes = in.get("AMBER_ATOM_TYPE").strings;
  const std::vector<long>& oldType = in.get("ATOM_TYPE_INDEX").ints;
  if (static_cast<long>(atomTypes.size()) != natom || static_cast<long>(oldType.size()) != natom)
    throw std::runtime_error("AMBER_ATOM_TYPE or ATOM_TYPE_INDEX does not have NATOM entries");
  std::vector<LjType> types;
  std::vector<long> newType(static_cast<std::size_t>(natom));
  constexpr double kTiny = 1.0e-8;  // ParmEd's AtomType comparison
  for (long i = 0; i < natom; ++i) {
    const long t = oldType[static_cast<std::size_t>(i)] - 1;
    if (t < 0 || t >= ntypes) throw std::runtime_error("ATOM_TYPE_INDEX out of range");
    const LjType mine{atomTypes[static_cast<std::size_t>(i)], radius[static_cast<std::size_t>(t)],
                      depth[static_cast<std::size_t>(t)]};
    std::size_t k = 0;
    while (k < types.size() &&
           !(types[k].name == mine.name && std::abs(types[k].rmin - mine.rmin) < kTiny &&
             std::abs(types[k].epsilon - mine.epsilon) < kTiny))
      ++k;
    if (k == types.size()) types.push_back(mine);
    newType[static_cast<std::size_t>(i)] = static_cast<long>(k) + 1;
  }
  const long nt = static_cast<long>(types.size());
  std::vector<long> holder(static_cast<std::size_t>(nt * nt));
  long index = 0;
  for (long i = 0; i < nt; ++i)
    for (long j = 0; j <= i; ++j)
      holder[static_cast<std::size_t>(nt * i + j)] = holder[static_cast<std::size_t>(nt * j + i)] =
          ++index;
  std::vector<double> newA(static_cast<std::size_t>(index)), newB(static_cast<std::size_t>(index));
  for (long i = 0; i < nt; ++i)
    for (long j = i; j < nt; ++j) {
      const std::size_t k =
          static_cast<std::size_t>(holder[static_cast<std::size_t>(nt * i + j)] - 1);
      const LjType &ti = types[static_cast<std::size_t>(i)],
                   &tj = types[static_cast<std::size_t>(j)];
      const double rij = combined(geometric, ti.rmin, tj.rmin);
      const double wdij = std::sqrt(ti.epsilon * tj.epsilon);
      newA[k] = wdij * std::pow(rij, 12.0);
      newB[k] = 2 * wdij * std::pow(rij, 6.0);
    }

  // ---- every section ----
  Prmtop out;
  out.version = in.version;
  for (const Section& s : in.sections) {
    Section o = s;
    const std::string& name = s.name;
    auto expect = [&](long count) {
      if (static_cast<long>(s.size()) != count)
        throw std::runtime_error("%FLAG " + name + " has " + std::to_string(s.size()) +
                                 " entries, expected " + std::to_string(count));
    };
    if (name == "POINTERS") {
      std::vector<long>& q = o.ints;
      for (Pointer k : {NATOM, NBONH, MBONA, NTHETH, MTHETA, NPHIH, MPHIA, NNB, NRES, NBONA, NTHETA,
                        NPHIA, NUMBND, NUMANG, NPTRA})
        q[k] *= copies;
      q[NTYPES] = nt;
    } else if (kPerAtom.count(name)) {
      expect(natom);
      o.strings = repeated(s.strings, copies);
      o.ints = repeated(s.ints, copies);
      o.reals = repeated(s.reals, copies);
    } else if (kPerResidue.count(name)) {
      expect(nres);
      o.strings = repeated(s.strings, copies);
    } else if (kPerBondedType.count(name)) {
      o.reals = repeated(s.reals, copies);
    } else if (kUnchanged.count(name)) {
    } else if (name == "ATOM_TYPE_INDEX") {
      o.ints = repeated(newType, copies);
    } else if (name == "NONBONDED_PARM_INDEX") {
      o.ints = holder;
    } else if (name == "LENNARD_JONES_ACOEF") {
      o.reals = newA;
    } else if (name == "LENNARD_JONES_BCOEF") {
      o.reals = newB;
    } else if (name == "RESIDUE_POINTER") {
      expect(nres);
      o.ints.clear();
      for (int c = 0; c < copies; ++c)
        for (long v : s.ints) o.ints.push_back(v + natom * c);
    } else if (name == "EXCLUDED_ATOMS_LIST") {
      o.ints.clear();
      for (int c = 0; c < copies; ++c)
        for (long v : s.ints) o.ints.push_back(v > 0 ? v + natom * c : v);
    } else if (kTermLists.count(name)) {
      const auto [perTerm, table] = kTermLists.at(name);
      if (s.ints.size() % static_cast<std::size_t>(perTerm) != 0)
        throw std::runtime_error("%FLAG " + name + " is not a whole number of terms");
      o.ints.clear();
      for (int c = 0; c < copies; ++c)
        for (std::size_t i = 0; i < s.ints.size(); ++i) {
          const long v = s.ints[i];
          if (static_cast<int>(i % static_cast<std::size_t>(perTerm)) == perTerm - 1) {
            o.ints.push_back(v + p[table] * c);  // parameter type, 1-based
          } else {
            const long shift = 3 * natom * c;  // coordinate index 3 (atom - 1), sign = flags
            o.ints.push_back(v < 0 ? v - shift : v + shift);
          }
        }
    } else {
      throw std::runtime_error("%FLAG " + name + " is not supported by this tool");
    }
    out.sections.push_back(std::move(o));
  }
  return out;
}

/// "AxBxC" -> {A, B, C}.
std::array<int, 3> parseGrid(const std::string& text) {
  static const std::regex pattern(R"(^(\d+)x(\d+)x(\d+)$)");
  std::smatch m;
  if (!std::regex_match(text, m, pattern))
    throw std::invalid_argument("--grid must look like 2x2x1, got '" + text + "'");
  return {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  landscape::parseToolCommandLine(optionTable(), argc, argv, o);
  const std::string &prmtopPath = o.prmtop, &inpcrdPath = o.inpcrd, &outputDir = o.output;
  const std::string &versionDate = o.versionDate, &gridText = o.grid;
  const int copies = o.copies;
  const double margin = o.margin;
  if (prmtopPath.empty() || inpcrdPath.empty() || outputDir.empty() || gridText.empty() ||
      copies <= 0) {
    std::fprintf(stderr,
                 "make_prmtop_copies: --prmtop, --inpcrd, --grid, --copies (> 0) and "
                 "--output are required (make_prmtop_copies --help)\n");
    return 2;
  }
  try {
    const std::array<int, 3> grid = parseGrid(gridText);
    if (copies > grid[0] * grid[1] * grid[2])
      throw std::invalid_argument("--copies " + std::to_string(copies) + " exceeds the " +
                                  gridText + " grid");
    const Prmtop input = readPrmtop(prmtopPath);
    const landscape::AmberCoordinates crd = landscape::readAmberCoordinates(inpcrdPath);
    const std::size_t n = crd.atomCount();
    if (static_cast<long>(n) != input.get("POINTERS").ints.at(NATOM))
      throw std::runtime_error(inpcrdPath + " has " + std::to_string(n) + " atoms, " + prmtopPath +
                               " " + std::to_string(input.get("POINTERS").ints.at(NATOM)));

    // Centre (plain sum / count, as numpy's mean over the atom axis), spacing from the extent.
    std::array<double, 3> mean{0.0, 0.0, 0.0};
    for (std::size_t i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) mean[d] += crd.positions[3 * i + d];
    for (int d = 0; d < 3; ++d) mean[d] /= static_cast<double>(n);
    std::vector<double> centred(crd.positions.size());
    for (std::size_t i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) centred[3 * i + d] = crd.positions[3 * i + d] - mean[d];
    double extent = 0.0;
    for (int d = 0; d < 3; ++d) {
      double lo = centred[d], hi = centred[d];
      for (std::size_t i = 0; i < n; ++i) {
        lo = std::min(lo, centred[3 * i + d]);
        hi = std::max(hi, centred[3 * i + d]);
      }
      extent = std::max(extent, hi - lo);
    }
    const double spacing = extent + margin;
    std::vector<double> x;
    x.reserve(centred.size() * static_cast<std::size_t>(copies));
    int made = 0;
    for (int a = 0; a < grid[0] && made < copies; ++a)
      for (int b = 0; b < grid[1] && made < copies; ++b)
        for (int c = 0; c < grid[2] && made < copies; ++c, ++made) {
          const double shift[3] = {spacing * a, spacing * b, spacing * c};
          for (std::size_t i = 0; i < n; ++i)
            for (int d = 0; d < 3; ++d) x.push_back(centred[3 * i + d] + shift[d]);
        }

    Prmtop output = makeCopies(input, copies);
    if (!versionDate.empty())
      output.version = "%VERSION  VERSION_STAMP = V0001.000  DATE = " + versionDate;
    else if (output.version.empty())
      output.version = "%VERSION  VERSION_STAMP = V0001.000  DATE = 01/01/00  00:00:00";
    std::filesystem::create_directories(outputDir);
    writePrmtop(outputDir + "/prmtop", output);
    writeInpcrd(outputDir + "/inpcrd", x);
    std::printf("%s: %d copies, %zu atoms, spacing %.1f A\n", outputDir.c_str(), copies,
                n * static_cast<std::size_t>(copies), spacing);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_prmtop_copies: %s\n", e.what());
    return 1;
  }
  return 0;
}
