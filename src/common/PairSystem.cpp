#include "src/common/PairSystem.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "landscape/core/Checksum.h"
#include "landscape/core/InputChecks.h"
#include "potentials/PairTable.h"
#include "src/common/OptionValue.h"

namespace landscape {

namespace {

// The pair options and the GMIN/OPTIM keywords that set them.
struct OptionKeywords {
  const char* option;
  std::vector<const char*> keywords;
};
const std::vector<OptionKeywords>& pairOptionKeywords() {
  static const std::vector<OptionKeywords> table = {
      {"morse", {"MORSE"}},
      {"binary-lj", {"BINARY", "BLJCLUSTER"}},
      {"kob-andersen", {}},
      {"pair-table", {}},
      {"cutoff", {"SHIFTCUT", "BLJCLUSTER"}},
      {"cutoff-convention", {"SHIFTCUT", "BLJCLUSTER"}},
      {"box", {"PERIODIC", "BULK"}},
  };
  return table;
}

[[noreturn]] void fail(const std::string& origin, const std::string& what) {
  throw std::runtime_error(origin + ": " + what);
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The largest sigma (r0) of any species pair, in the units of the first species' (before the
// model exists: the cutoff check needs no atom count).
double widestSigma(const PairSystemConfig& pair) {
  if (pair.binaryLj) return std::max({1.0, (*pair.binaryLj)[3], (*pair.binaryLj)[4]});
  return 1.0;  // Kob-Andersen (0.8, 0.88 below 1), Morse (r0 = 1), Lennard-Jones, a table
}

// The cutoff in units of sigma that the run will use: --cutoff, or Kob-Andersen's own; 0 = none
// or a table's end (checked when the table is read).
double cutoffInSigma(const PairSystemConfig& pair) {
  if (pair.cutoff > 0.0) return pair.cutoff;
  return pair.kobAndersen ? kKobAndersenCutoff : 0.0;
}

void requireOneLaw(const PairSystemConfig& pair) {
  std::vector<std::string> laws;
  if (pair.morseRho) laws.push_back("morse");
  if (pair.binaryLj) laws.push_back("binary-lj");
  if (pair.kobAndersen) laws.push_back("kob-andersen");
  if (!pair.tableFile.empty()) laws.push_back("pair-table");
  if (laws.size() > 1)
    fail(pair.origin(laws[1]),
         "cannot be combined with " + pair.origin(laws[0]) + " (one pair law per run)");
}

void checkBox(const PairSystemConfig& pair) {
  if (pair.box.empty()) return;
  if (pair.box.size() != 1 && pair.box.size() != 3)
    fail(pair.origin("box"), "expected one box edge (a cube) or three (Lx, Ly, Lz), found " +
                                 std::to_string(pair.box.size()));
  const double rc = cutoffInSigma(pair);
  if (rc == 0.0 && pair.tableFile.empty())
    fail(pair.origin("box"),
         "a periodic box needs a cutoff at most half its edge: --cutoff RC (GMIN's SHIFTCUT rc), "
         "in units of each pair's sigma (2.5 is usual for Lennard-Jones)");
  const PeriodicBox box = pair.periodicBox();
  const double widest = rc * widestSigma(pair);
  for (int k = 0; k < 3; ++k) {
    if (!(2.0 * widest > box.length[k])) continue;
    const std::string cutoffOrigin = pair.cutoff > 0.0
                                         ? pair.origin("cutoff")
                                         : pair.origin("kob-andersen") + " (its cutoff " +
                                               shortText(kKobAndersenCutoff) + " sigma_ab)";
    fail(cutoffOrigin, "the cutoff " + shortText(widest) + " (" + shortText(rc) +
                           " x the widest pair's sigma " + shortText(widestSigma(pair)) +
                           ") exceeds half the box edge " + shortText(box.length[k]) + " (" +
                           pair.origin("box") +
                           "): the minimum image would miss pairs; enlarge the box or cut shorter");
  }
}

}  // namespace

std::string PairSystemConfig::origin(const std::string& name) const {
  const auto it = origins.find(name);
  return it == origins.end() ? "--" + name : it->second;
}

std::string PairSystemConfig::systemOrigin() const {
  const std::string law = pairLawOption(*this);
  return origin(!law.empty() ? law : periodic() ? "box" : "cutoff");
}

PeriodicBox PairSystemConfig::periodicBox() const {
  PeriodicBox b;
  if (box.size() == 1) b.length[0] = b.length[1] = b.length[2] = box[0];
  if (box.size() == 3)
    for (int k = 0; k < 3; ++k) b.length[k] = box[k];
  return b;
}

void setBinaryLjField(PairSystemConfig& pair, std::size_t i, double value) {
  if (!pair.binaryLj) pair.binaryLj.emplace();
  pair.binaryLj->at(i) = value;
}

void setBoxField(PairSystemConfig& pair, std::size_t i, double value) {
  if (i == 0) pair.box.clear();
  pair.box.push_back(value);
}

void noteKeywordOrigin(const KeywordLine& line, KeywordOrigins& origins) {
  origins[line.keyword] = line;
}

void resolvePairSystem(PairSystemConfig& pair, const GivenOptions& given,
                       const KeywordOrigins& keywords) {
  for (const OptionKeywords& o : pairOptionKeywords()) {
    if (given.has(o.option)) {
      pair.origins[o.option] = given.origin(o.option);
      continue;
    }
    const KeywordLine* last = nullptr;  // the later of the keywords that set it wins
    for (const char* k : o.keywords) {
      const auto it = keywords.find(k);
      if (it != keywords.end() && (!last || it->second.line > last->line)) last = &it->second;
    }
    if (last) pair.origins[o.option] = last->where() + ": " + last->keyword;
  }
  requireOneLaw(pair);
  if (pair.binaryLj && (*pair.binaryLj)[0] != std::floor((*pair.binaryLj)[0]))
    fail(pair.origin("binary-lj"),
         "the number of A atoms must be a whole number, found " + shortText((*pair.binaryLj)[0]));
  if (given.has("cutoff-convention") && pair.cutoff == 0.0 && !pair.kobAndersen &&
      pair.tableFile.empty())
    fail(pair.origin("cutoff-convention"), "needs a cutoff (--cutoff RC)");
  checkBox(pair);
}

std::string pairLawOption(const PairSystemConfig& pair) {
  if (pair.morseRho) return "morse";
  if (pair.binaryLj) return "binary-lj";
  if (pair.kobAndersen) return "kob-andersen";
  if (!pair.tableFile.empty()) return "pair-table";
  return "";
}

PairModel makePairModel(const PairSystemConfig& pair, std::size_t atoms) {
  const std::string law = pairLawOption(pair);
  const std::string origin = law.empty() ? "pair system" : pair.origin(law);
  PairModel m;
  if (pair.kobAndersen) {
    m = kobAndersenModel(atoms, cutoffInSigma(pair), pair.cutoffConvention(), pair.periodicBox());
  } else if (pair.binaryLj) {
    const std::array<double, 5>& p = *pair.binaryLj;
    if (p[0] > static_cast<double>(atoms))
      fail(origin, "the first " + shortText(p[0]) + " atoms are A, but the system has " +
                       std::to_string(atoms) + " atoms");
    m = binaryLennardJonesModel(atoms, static_cast<std::size_t>(p[0]), p[1], p[2], p[3], p[4],
                                pair.cutoff, pair.cutoffConvention());
  } else {
    m = pair.morseRho ? morseModel(atoms, *pair.morseRho) : lennardJonesModel(atoms);
    if (!pair.tableFile.empty()) {
      m.law = PairLaw::Tabulated;
      m.tables = {readPairTable(pair.tableFile)};  // its errors name the file and line
      m.pairs[0].table = 0;
    }
    const double rc = pair.cutoff > 0.0   ? pair.cutoff * m.pairs[0].sigma
                      : !m.tables.empty() ? m.tables[0].end()
                                          : 0.0;
    m.cutoff = rc > 0.0 ? pair.cutoffConvention() : PairCutoff::None;
    m.pairs[0].cutoff = rc;
  }
  m.box = pair.periodicBox();
  try {
    m.check();
  } catch (const std::invalid_argument& e) {
    fail(origin, e.what());
  }
  return m;
}

namespace {

// The species a label names: its name or GMIN's "L" + name, in any case; -1 for none.
int labelledSpecies(const PairModel& model, const std::string& label) {
  const std::string l = upper(label);
  for (int s = 0; s < model.speciesCount(); ++s) {
    const std::string name = upper(model.speciesNames[s]);
    if (l == name || l == "L" + name) return s;
  }
  return -1;
}

// "the first 13 atoms are A and the other 7 B" for the message of a disagreeing label.
std::string speciesLayout(const PairModel& model) {
  std::ostringstream s;
  std::size_t i = 0;
  bool first = true;
  while (i < model.atoms()) {
    std::size_t j = i;
    while (j < model.atoms() && model.species[j] == model.species[i]) ++j;
    s << (first ? "atoms " : ", ") << i + 1 << "-" << j << " "
      << model.speciesNames[model.species[i]];
    first = false;
    i = j;
  }
  return s.str();
}

}  // namespace

void checkSpeciesLabels(const PairModel& model, const std::vector<std::string>& labels,
                        const std::string& file, const std::string& speciesOrigin) {
  if (labels.empty() || model.speciesCount() < 2) return;
  if (labels.size() != model.atoms())
    throw std::runtime_error(file + ": " + std::to_string(labels.size()) + " atom labels for " +
                             std::to_string(model.atoms()) + " atoms");
  std::size_t named = 0;
  for (const std::string& l : labels) named += labelledSpecies(model, l) >= 0;
  if (named == 0) return;  // element symbols or "X": they say nothing about the species
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const int s = labelledSpecies(model, labels[i]);
    const std::string where =
        file + ":" + std::to_string(i + 3) + ": atom " + std::to_string(i + 1);
    if (s < 0)
      throw std::runtime_error(where + " is labelled " + quoteInput(labels[i]) +
                               ", which names no species, while other atoms' labels do; label "
                               "every atom with its species (" +
                               speciesLayout(model) + ") or none");
    if (s != model.species[i])
      throw std::runtime_error(where + " is labelled " + quoteInput(labels[i]) +
                               ", but it is of species " + model.speciesNames[model.species[i]] +
                               " here (" + speciesLayout(model) + ", from " + speciesOrigin +
                               "): order the atoms so, or fix the labels");
  }
}

std::vector<std::string> speciesLabels(const PairModel& model, const std::string& single) {
  std::vector<std::string> labels(model.atoms(), single);
  if (model.speciesCount() < 2) return labels;
  for (std::size_t i = 0; i < model.atoms(); ++i) labels[i] = model.speciesNames[model.species[i]];
  return labels;
}

std::string pairModelFingerprint(const PairModel& model) {
  std::ostringstream s;
  s << pairLawName(model.law) << "; cutoff " << pairCutoffName(model.cutoff) << "; species";
  for (std::size_t i = 0; i < model.atoms();) {
    std::size_t j = i;
    while (j < model.atoms() && model.species[j] == model.species[i]) ++j;
    s << " " << model.speciesNames.at(model.species[i]) << "x" << j - i;
    i = j;
  }
  for (int a = 0; a < model.speciesCount(); ++a)
    for (int b = a; b < model.speciesCount(); ++b) {
      const PairParameters& p = model.pair(a, b);
      s << "; " << model.speciesNames[a] << "-" << model.speciesNames[b] << " eps "
        << exactText(p.epsilon) << " sigma " << exactText(p.sigma) << " rho " << exactText(p.rho)
        << " rc " << exactText(p.cutoff) << " table " << p.table;
    }
  s << "; box " << exactText(model.box.length[0]) << " " << exactText(model.box.length[1]) << " "
    << exactText(model.box.length[2]);
  for (const PairTable& t : model.tables)
    s << "; table " << exactText(t.start) << " " << exactText(t.width) << " crc "
      << crc32Hex(crc32(t.coefficients.data(), t.coefficients.size() * sizeof(double)));
  return s.str();
}

}  // namespace landscape
