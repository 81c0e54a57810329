#include "src/GminDataFile.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "landscape/formats/CoordinatesFile.h"

namespace landscape {

namespace {

// One keyword line of a data file, already split into fields.
struct KeywordLine {
  const std::string& source;
  std::size_t line;
  std::string keyword;              // upper case
  std::vector<std::string> fields;  // after the keyword
};

[[noreturn]] void fail(const KeywordLine& l, const std::string& what) {
  throw std::runtime_error(l.source + ":" + std::to_string(l.line) + ": " + what);
}

std::string warningAt(const KeywordLine& l, const std::string& what) {
  return l.source + ":" + std::to_string(l.line) + ": " + what;
}

std::string formatNumber(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

enum class Bound { Any, NonNegative, Positive };

double real(const KeywordLine& l, std::size_t i, const char* what, Bound bound) {
  const auto value = parseFortranReal(l.fields[i]);
  if (!value)
    fail(l, l.keyword + " expects a number for " + what + ", found '" + l.fields[i] + "'");
  if (bound == Bound::NonNegative && *value < 0.0)
    fail(l, l.keyword + " expects " + what + " >= 0, found " + l.fields[i]);
  if (bound == Bound::Positive && *value <= 0.0)
    fail(l, l.keyword + " expects " + what + " > 0, found " + l.fields[i]);
  return *value;
}

long long integer(const KeywordLine& l, std::size_t i, const char* what, long long minimum,
                  long long maximum = 2147483647LL) {
  const auto value = parseFortranInteger(l.fields[i]);
  if (!value)
    fail(l, l.keyword + " expects an integer for " + what + ", found '" + l.fields[i] + "'");
  if (*value < minimum || *value > maximum) {
    const std::string range = maximum >= 2147483647LL ? ">= " + std::to_string(minimum)
                                                      : "in [" + std::to_string(minimum) + ", " +
                                                            std::to_string(maximum) + "]";
    fail(l, l.keyword + " expects " + what + " " + range + ", found " + l.fields[i]);
  }
  return *value;
}

int integer32(const KeywordLine& l, std::size_t i, const char* what, long long minimum) {
  return static_cast<int>(integer(l, i, what, minimum));
}

// Fortran logicals as GMIN writes them: T, F, .TRUE., .FALSE., TRUE, FALSE (any case).
bool logical(const KeywordLine& l, std::size_t i, const char* what) {
  std::string s = l.fields[i];
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (s == "T" || s == ".TRUE." || s == "TRUE" || s == ".T.") return true;
  if (s == "F" || s == ".FALSE." || s == "FALSE" || s == ".F.") return false;
  fail(l, l.keyword + " expects a logical (T or F) for " + what + ", found '" + l.fields[i] + "'");
}

using Apply = void (*)(const KeywordLine&, GminRunConfig&);

// The single source of truth for GMIN keywords: the reader dispatches on it and
// gminKeywordsMarkdown() renders it into docs/gmin-keywords.md. GMIN's meaning of each keyword
// follows its keywords.f; the landscape field it sets is named after the arrow.
struct KeywordEntry {
  const char* keyword;
  GminKeywordStatus status;
  const char* fields;  // syntax shown in docs and messages
  int minFields;       // checked for Implemented keywords only
  int maxFields;
  const char* description;
  Apply apply;  // Implemented only
};

using S = GminKeywordStatus;

const std::vector<KeywordEntry>& table() {
  static const std::vector<KeywordEntry> entries = {
      // ---- implemented ----
      {"ACCEPTRATIO", S::Implemented, "ratio", 1, 1,
       "acceptance ratio the step size is tuned toward, in (0, 1) -> `targetAcceptance`",
       [](const KeywordLine& l, GminRunConfig& c) {
         const double a = real(l, 0, "the acceptance ratio", Bound::Positive);
         if (a >= 1.0)
           fail(l, l.keyword + " expects the acceptance ratio < 1, found " + l.fields[0]);
         c.basinHopping.targetAcceptance = a;
       }},
      {"AVOID", S::Implemented, "dist max [reseed]", 2, 3,
       "taboo list (with NEWRESTART): a new chain best within `dist` (length) of one of the last "
       "`max` saved structures restarts the chain -> `avoidDistance`, `avoidMaxSaved`; `reseed` T "
       "(default) reseeds from a random structure, F rejects the step instead -> `avoidReseeds`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.avoidDistance = real(l, 0, "the distance", Bound::NonNegative);
         c.basinHopping.avoidMaxSaved = integer32(l, 1, "the list length", 0);
         c.basinHopping.avoidReseeds = l.fields.size() > 2 ? logical(l, 2, "reseed") : true;
       }},
      {"CENTRE", S::Implemented, "", 0, 0,
       "move the centre of mass to the origin after every step -> `centre` = true",
       [](const KeywordLine&, GminRunConfig& c) { c.basinHopping.centre = true; }},
      {"CHANGEACCEPT", S::Implemented, "n", 1, 1,
       "quenches between step-size adjustments (GMIN's NACCEPT) -> `stepAdjustInterval`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.stepAdjustInterval = integer32(l, 0, "the interval", 1);
       }},
      {"DGUESS", S::Implemented, "h0", 1, 1,
       "L-BFGS initial inverse-Hessian guess (length^2/energy) -> `lbfgs.initialGuess`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.lbfgs.initialGuess = real(l, 0, "the guess", Bound::Positive);
       }},
      {"DUMPINT", S::Implemented, "n", 1, 1,
       "quenches between checkpoints of the lowest minima and of the state `gmin --resume` "
       "continues from (docs/database.md); 0 = at the end only -> `dumpInterval`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.dumpInterval = integer32(l, 0, "the interval", 0);
       }},
      {"EDIFF", S::Implemented, "dE", 1, 1,
       "minima closer in energy than this are the same (energy) -> `energyDifference`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.energyDifference = real(l, 0, "the energy difference", Bound::NonNegative);
       }},
      {"MAXBFGS", S::Implemented, "dx", 1, 1,
       "L-BFGS cap on the step length (length) -> `lbfgs.maxStep`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.lbfgs.maxStep = real(l, 0, "the maximum step", Bound::Positive);
       }},
      {"MAXERISE", S::Implemented, "dE", 1, 1,
       "largest energy rise an L-BFGS step may make (energy) -> `lbfgs.maxRise`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.lbfgs.maxRise = real(l, 0, "the maximum rise", Bound::NonNegative);
       }},
      {"MAXIT", S::Implemented, "n [n2]", 1, 2,
       "L-BFGS iteration caps: `n` for the quenches of the run, `n2` for the final tight "
       "quenches -> `sloppyMaxIterations`, `tightMaxIterations`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.sloppyMaxIterations = integer32(l, 0, "the iteration cap", 1);
         if (l.fields.size() > 1)
           c.basinHopping.tightMaxIterations = integer32(l, 1, "the final-quench cap", 1);
       }},
      {"NEWRESTART", S::Implemented, "nrelax [nhs]", 1, 2,
       "reseed when `nrelax` quenches have not lowered the best energy by EDIFF -> "
       "`newRestartSteps`; `nhs` (hard-sphere reseeding moves) must be 0 or absent, and GMIN's "
       "MD reseeding fields are not implemented",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.newRestartSteps = integer32(l, 0, "the number of quenches", 0);
         if (l.fields.size() > 1 && integer(l, 1, "the hard-sphere moves", 0) != 0)
           fail(l, "NEWRESTART hard-sphere reseeding (second field " + l.fields[1] +
                       ") is not implemented (must be 0 or absent)");
       }},
      {"RADIUS", S::Implemented, "r", 1, 1,
       "radius of the spherical container (length); 0 = GMIN's default 2 + (3N/17.77153175)^(1/3) "
       "-> `containerRadius`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.containerRadius = real(l, 0, "the radius", Bound::NonNegative);
       }},
      {"RANSEED", S::Implemented, "n", 1, 1,
       "seed of the random numbers; the same seed gives the same run -> `seed`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.seed =
             static_cast<std::uint64_t>(integer(l, 0, "the seed", 0, 9223372036854775807LL));
       }},
      {"RIGIDINIT", S::Implemented, "", 0, 0,
       "local rigid bodies (seed 001 section 2.1) from GMIN's `rbodyconfig` file in the working "
       "directory (GROUP blocks, docs/rigid-bodies.md) -> `rigidFile` = rbodyconfig; the bodies' "
       "shapes come from the starting structure (GMIN's coordsinirigid is not read)",
       [](const KeywordLine&, GminRunConfig& c) { c.rigidFile = "rbodyconfig"; }},
      {"SAVE", S::Implemented, "n", 1, 1,
       "number of lowest distinct minima kept and re-quenched tightly -> `saveCount`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.saveCount = integer32(l, 0, "the number of minima", 1);
       }},
      {"SLOPPYCONV", S::Implemented, "g", 1, 1,
       "RMS gradient (energy/length) that ends the quenches of the run -> `sloppyRms`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.sloppyRms = real(l, 0, "the RMS gradient", Bound::Positive);
       }},
      {"STEP", S::Implemented, "step [astep]", 1, 2,
       "maximum Cartesian displacement per coordinate (length) -> `stepSize`; `astep`: angular "
       "move of the most weakly bound atom when its energy exceeds astep times the lowest atom "
       "energy, 0 = off -> `angularThreshold`; GMIN's rigid-body fields are not implemented",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.stepSize = real(l, 0, "the step size", Bound::NonNegative);
         if (l.fields.size() > 1)
           c.basinHopping.angularThreshold =
               real(l, 1, "the angular threshold", Bound::NonNegative);
       }},
      {"STEPS", S::Implemented, "n [tfac]", 1, 2,
       "number of basin-hopping steps -> `steps`; `tfac`, the temperature factor per step, must "
       "be 1.0 or absent (annealing is not implemented)",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.steps =
             static_cast<long>(integer(l, 0, "the number of steps", 0, 9223372036854775807LL));
         if (l.fields.size() > 1) {
           const double tfac = real(l, 1, "the temperature factor", Bound::Any);
           if (tfac != 1.0)
             fail(l, "STEPS temperature factor " + formatNumber(tfac) +
                         " per step is not implemented (must be 1.0 or absent)");
         }
       }},
      {"TARGET", S::Implemented, "E", 1, 1,
       "stop once a minimum at or below this energy is found (one value; GMIN's list of several "
       "targets is not implemented) -> `targetEnergy`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.targetEnergy = real(l, 0, "the target energy", Bound::Any);
       }},
      {"TEMPERATURE", S::Implemented, "kT", 1, 1,
       "Metropolis temperature kT (energy; one value, GMIN's list for parallel runs is not "
       "implemented) -> `temperature`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.temperature = real(l, 0, "kT", Bound::Positive);
       }},
      {"TIGHTCONV", S::Implemented, "g", 1, 1,
       "RMS gradient (energy/length) of the final re-quench of the saved minima -> `tightRms`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.tightRms = real(l, 0, "the RMS gradient", Bound::Positive);
       }},
      {"UPDATES", S::Implemented, "m", 1, 1,
       "L-BFGS history size (stored {s, y} pairs) -> `lbfgs.historySize`",
       [](const KeywordLine& l, GminRunConfig& c) {
         c.basinHopping.lbfgs.historySize = integer32(l, 0, "the history size", 1);
       }},

      // ---- accepted, ignored with a warning: output and diagnostics only ----
      {"DEBUG", S::Ignored, "", 0, 0, "GMIN's debugging printout", nullptr},
      {"DUMP", S::Ignored, "", 0, 0, "write every quenched structure to a dump file", nullptr},
      {"DUMPMIN", S::Ignored, "", 0, 0,
       "write the saved minima as dumpmin files every DUMPINT steps (landscape checkpoints its "
       "own results, see DUMPINT)",
       nullptr},
      {"MONITOR", S::Ignored, "[n]", 0, 0, "GMIN's periodic progress monitoring output", nullptr},
      {"PRTFRQ", S::Ignored, "n", 0, 0, "GMIN's printing interval of the log", nullptr},
      {"SORT", S::Ignored, "", 0, 0,
       "sort the atoms of each saved minimum by their energy in the output (cosmetic)", nullptr},
      {"TRACKDATA", S::Ignored, "", 0, 0,
       "write energy.dat, markov.dat and best.dat traces during the run", nullptr},

      // ---- GMIN keywords that would change the run: an error until implemented ----
      {"BHPT", S::NotImplemented, "...", 0, 0, "basin-hopping parallel tempering", nullptr},
      {"FIXBOTH", S::NotImplemented, "...", 0, 0, "fix both step size and temperature", nullptr},
      {"FIXSTEP", S::NotImplemented, "...", 0, 0,
       "fix the step size (GMIN then tunes the temperature)", nullptr},
      {"FIXTEMP", S::NotImplemented, "...", 0, 0, "fix the temperature", nullptr},
      {"FREEZE", S::NotImplemented, "...", 0, 0, "frozen atoms", nullptr},
      {"MPI", S::NotImplemented, "", 0, 0, "parallel runs", nullptr},
      {"RANDOMSEED", S::NotImplemented, "", 0, 0,
       "seed the random numbers from the clock (irreproducible; use RANSEED)", nullptr},
      {"RESTART", S::NotImplemented, "...", 0, 0, "GMIN's older reseeding scheme (use NEWRESTART)",
       nullptr},
      {"RESTORE", S::NotImplemented, "file", 0, 0, "continue a run from a GMIN dump file", nullptr},
      {"SEED", S::NotImplemented, "[n]", 0, 0,
       "seed the cluster from a core structure (GMIN's meaning; the random seed is RANSEED)",
       nullptr},

      // ---- file syntax ----
      {"COMMENT", S::Syntax, "text", 0, 0, "the line is a comment", nullptr},
      {"NOTE", S::Syntax, "text", 0, 0, "the line is a comment", nullptr},
      {"STOP", S::Syntax, "", 0, 0, "end of the keywords; the rest of the file is not read",
       nullptr},
  };
  return entries;
}

const KeywordEntry* findEntry(const std::string& keyword) {
  for (const auto& entry : table())
    if (keyword == entry.keyword) return &entry;
  return nullptr;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// GMIN's INPUT: fields are separated by blanks, tabs or commas; '!' and '#' start comments.
std::vector<std::string> splitFields(const std::string& line) {
  std::string text = line.substr(0, line.find_first_of("!#"));
  std::vector<std::string> fields;
  std::string current;
  for (char c : text) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) fields.push_back(current), current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) fields.push_back(current);
  return fields;
}

std::string plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string expectedCount(const KeywordEntry& e) {
  if (e.minFields == e.maxFields) return plural(e.minFields, "field");
  return std::to_string(e.minFields) + " to " + plural(e.maxFields, "field");
}

std::string escapeCell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out.push_back(c);
  }
  return out;
}

}  // namespace

std::vector<GminKeywordInfo> gminKeywordTable() {
  std::vector<GminKeywordInfo> rows;
  for (const auto& e : table()) rows.push_back({e.keyword, e.status, e.fields, e.description});
  return rows;
}

std::string gminKeywordStatusName(GminKeywordStatus status) {
  switch (status) {
    case GminKeywordStatus::Implemented:
      return "implemented";
    case GminKeywordStatus::Ignored:
      return "ignored (warning)";
    case GminKeywordStatus::NotImplemented:
      return "error: not implemented";
    case GminKeywordStatus::Syntax:
      return "file syntax";
  }
  return "?";
}

std::string gminKeywordsMarkdown() {
  std::ostringstream md;
  md << "# GMIN data-file keywords\n"
        "\n"
        "<!-- Generated from the keyword table in src/GminDataFile.cpp by gminKeywordsMarkdown().\n"
        "     Edit the table there, then regenerate this file with\n"
        "     LANDSCAPE_REGENERATE_DOCS=1 landscape_tests "
        "--gtest_filter=GminDataFile.DocMatchesTable\n"
        "     (the test fails while the two differ). -->\n"
        "\n"
        "`gmin --gmin-data FILE` reads a GMIN `data` file: one keyword per line, then free-format "
        "fields separated by blanks or commas. Keywords are case-insensitive; `!` or `#` starts a "
        "comment; reals may use Fortran `D` exponents (`5.0D-3`). A keyword that the file leaves "
        "out takes GMIN's default (the `BasinHoppingParams` defaults, with the switches `CENTRE`, "
        "`NEWRESTART` and `AVOID` off); options on the command line or in `--config` override the "
        "file. Energies, lengths and temperatures (kT) are in the potential's units: reduced "
        "Lennard-Jones units (epsilon, sigma) for LJ clusters.\n"
        "\n"
        "A keyword not in this table is an error (`FILE:LINE: unknown GMIN keyword 'XYZ'`), as is "
        "a wrong number of fields or a field that is not a number. Keywords marked *ignored* are "
        "accepted with a warning; those marked *error* are GMIN keywords that would change the run "
        "and are not implemented. The number of atoms is not a data-file keyword (GMIN takes it "
        "from `coords`): use `--lj N` or `--coords FILE`.\n"
        "\n"
        "| Keyword | Fields | Status | Meaning (-> landscape field) |\n"
        "|---|---|---|---|\n";
  for (const auto& e : table()) {
    md << "| `" << e.keyword << "` | " << (*e.fields ? "`" + escapeCell(e.fields) + "`" : "")
       << " | " << gminKeywordStatusName(e.status) << " | " << escapeCell(e.description) << " |\n";
  }
  return md.str();
}

GminRunConfig gminKeywordDefaults() {
  GminRunConfig config;
  config.basinHopping = BasinHoppingParams{};
  // GMIN's switches are off unless their keyword is present.
  config.basinHopping.centre = false;
  config.basinHopping.newRestartSteps = 0;
  config.basinHopping.avoidDistance = 0.0;
  config.basinHopping.avoidMaxSaved = 0;
  return config;
}

void applyGminKeywords(std::istream& in, const std::string& source, GminRunConfig& config) {
  std::string text;
  std::size_t lineNumber = 0;
  while (std::getline(in, text)) {
    ++lineNumber;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    std::vector<std::string> fields = splitFields(text);
    if (fields.empty()) continue;
    for (const std::string& field : fields)  // messages below quote fields as they are
      requirePrintableField(source + ":" + std::to_string(lineNumber), field);
    const std::string keyword = upper(fields.front());
    fields.erase(fields.begin());

    const KeywordEntry* entry = findEntry(keyword);
    const std::string where = source + ":" + std::to_string(lineNumber) + ": ";
    if (!entry)
      throw std::runtime_error(where + "unknown GMIN keyword '" + keyword +
                               "' (docs/gmin-keywords.md lists the known ones)");
    switch (entry->status) {
      case GminKeywordStatus::Syntax:
        if (keyword == "STOP") return;
        continue;  // NOTE, COMMENT
      case GminKeywordStatus::Ignored:
        config.warnings.push_back(where + "GMIN keyword " + keyword + " ignored (" +
                                  entry->description + ")");
        continue;
      case GminKeywordStatus::NotImplemented:
        throw std::runtime_error(where + "GMIN keyword " + keyword + " is not implemented (" +
                                 entry->description + ")");
      case GminKeywordStatus::Implemented:
        break;
    }
    const KeywordLine line{source, lineNumber, keyword, fields};
    const int count = static_cast<int>(fields.size());
    if (count < entry->minFields || count > entry->maxFields) {
      const std::string expected = entry->maxFields == 0 ? std::string("no fields")
                                                         : std::string("'") + entry->fields +
                                                               "' (" + expectedCount(*entry) + ")";
      fail(line, keyword + " expects " + expected + ", found " + plural(count, "field"));
    }
    entry->apply(line, config);
  }
  if (in.bad()) throw std::runtime_error(source + ": read error");
}

GminRunConfig readGminDataFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open GMIN data file");
  GminRunConfig config = gminKeywordDefaults();
  applyGminKeywords(in, path, config);
  try {
    config.basinHopping.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  return config;
}

}  // namespace landscape
