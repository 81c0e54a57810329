#include "src/OdataFile.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "landscape/formats/CoordinatesFile.h"

namespace landscape {

namespace {

// One keyword line of an odata file, already split into fields.
struct KeywordLine {
  const std::string& source;
  std::size_t line;
  std::string keyword;              // upper case
  std::vector<std::string> fields;  // after the keyword
};

// What a file says that is resolved only once the whole file is read.
struct PendingValues {
  std::optional<double> connectRms;  // NEWCONNECT 7th field
  std::optional<double> nebRms;      // NEWNEB 3rd field
  std::string connectRmsWhere, nebRmsWhere;
};

[[noreturn]] void fail(const KeywordLine& l, const std::string& what) {
  throw std::runtime_error(l.source + ":" + std::to_string(l.line) + ": " + what);
}

std::string where(const KeywordLine& l) { return l.source + ":" + std::to_string(l.line); }

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

int integer(const KeywordLine& l, std::size_t i, const char* what, long long minimum) {
  const auto value = parseFortranInteger(l.fields[i]);
  if (!value)
    fail(l, l.keyword + " expects an integer for " + what + ", found '" + l.fields[i] + "'");
  if (*value < minimum || *value > 2147483647LL)
    fail(l, l.keyword + " expects " + what + " >= " + std::to_string(minimum) + ", found " +
                l.fields[i]);
  return static_cast<int>(*value);
}

void setMinimiserRms(OptimSettings& s, double rms) {
  s.connect.descent.minimiser.rmsTolerance = rms;
  s.endpointMinimiser.rmsTolerance = rms;
}

using Apply = void (*)(const KeywordLine&, OptimRunConfig&, PendingValues&);

// The single source of truth for odata keywords: the reader dispatches on it and
// odataKeywordsMarkdown() renders it into docs/optim-keywords.md. OPTIM's meaning of each keyword
// follows its keywords documentation and the example's optim.out; the landscape field it sets is
// named after the arrow (fields of OptimSettings; `connect.` is ConnectParams).
struct KeywordEntry {
  const char* keyword;
  OdataKeywordStatus status;
  const char* fields;  // syntax shown in docs and messages
  int minFields;       // checked for Implemented keywords only
  int maxFields;
  const char* description;
  Apply apply;  // Implemented only
};

using S = OdataKeywordStatus;

const std::vector<KeywordEntry>& table() {
  static const std::vector<KeywordEntry> entries = {
      // ---- implemented ----
      {"BFGSMIN", S::Implemented, "g", 1, 1,
       "RMS gradient (energy/length) that ends the L-BFGS minimisations: the descent from each "
       "transition state and, with REOPTIMISEENDPOINTS, the endpoints -> "
       "`connect.descent.minimiser.rmsTolerance`, `endpointMinimiser.rmsTolerance`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         setMinimiserRms(c.settings, real(l, 0, "the RMS gradient", Bound::Positive));
       }},
      {"BFGSSTEPS", S::Implemented, "n", 1, 1,
       "iteration cap of those minimisations -> `connect.descent.minimiser.maxIterations`, "
       "`endpointMinimiser.maxIterations`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         const int n = integer(l, 0, "the iteration cap", 1);
         c.settings.connect.descent.minimiser.maxIterations = n;
         c.settings.endpointMinimiser.maxIterations = n;
       }},
      {"BFGSTS", S::Implemented, "nevs [nbfgs1 [nbfgs2 [ceig]]]", 1, 4,
       "hybrid eigenvector-following: at most `nevs` Rayleigh-Ritz iterations per eigenvector "
       "search -> `connect.transitionStateSearch.rayleighRitz.lbfgs.maxIterations`; `nbfgs1` and "
       "`nbfgs2` tangent-space L-BFGS iterations before and after the eigenvector has converged "
       "-> `tangentIterationsBefore`, `tangentIterationsAfter`; `ceig` the RMS of the "
       "Rayleigh-Ritz gradient (energy/length^2) that ends an eigenvector search -> "
       "`rayleighRitz.lbfgs.rmsTolerance`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         auto& ts = c.settings.connect.transitionStateSearch;
         ts.rayleighRitz.lbfgs.maxIterations = integer(l, 0, "the Rayleigh-Ritz iterations", 1);
         if (l.fields.size() > 1)
           ts.tangentIterationsBefore = integer(l, 1, "the tangent-space iterations", 1);
         if (l.fields.size() > 2)
           ts.tangentIterationsAfter = integer(l, 2, "the converged tangent-space iterations", 1);
         if (l.fields.size() > 3)
           ts.rayleighRitz.lbfgs.rmsTolerance =
               real(l, 3, "the eigenvector RMS tolerance", Bound::Positive);
       }},
      {"DIJKSTRA", S::Implemented, "n", 1, 1,
       "choose the pair to connect by Dijkstra's algorithm with a missing link costing distance^n "
       "(n > 0; OPTIM's other cost functions, n = 0, are not implemented) -> "
       "`connect.distancePower`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         c.settings.connect.distancePower = real(l, 0, "the distance power", Bound::Positive);
       }},
      {"DUMPALLPATHS", S::Implemented, "", 0, 0,
       "write every transition state found, with the minima it connects, to path.info (optim "
       "always does)",
       [](const KeywordLine&, OptimRunConfig&, PendingValues&) {}},
      {"EDIFFTOL", S::Implemented, "dE", 1, 1,
       "stationary points closer in energy than this may be the same (energy) -> "
       "`network.energyTolerance`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         c.settings.network.energyTolerance =
             real(l, 0, "the energy tolerance", Bound::NonNegative);
       }},
      {"GEOMDIFFTOL", S::Implemented, "d", 1, 1,
       "... and are the same when their minimum distance is also below this (length) -> "
       "`network.geometryTolerance`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         c.settings.network.geometryTolerance =
             real(l, 0, "the distance tolerance", Bound::NonNegative);
       }},
      {"MAXBFGS", S::Implemented, "dx [dx2]", 1, 2,
       "L-BFGS step cap (length) of the minimisations -> `connect.descent.minimiser.maxStep`, "
       "`endpointMinimiser.maxStep`; `dx2` that of the tangent-space minimisation -> "
       "`connect.transitionStateSearch.tangentSpace.maxStep`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         const double dx = real(l, 0, "the maximum step", Bound::Positive);
         c.settings.connect.descent.minimiser.maxStep = dx;
         c.settings.endpointMinimiser.maxStep = dx;
         if (l.fields.size() > 1)
           c.settings.connect.transitionStateSearch.tangentSpace.maxStep =
               real(l, 1, "the tangent-space maximum step", Bound::Positive);
       }},
      {"MAXMAX", S::Implemented, "dx", 1, 1,
       "largest uphill step the trust radius may grow to (length) -> "
       "`connect.transitionStateSearch.maxUphillStep`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         c.settings.connect.transitionStateSearch.maxUphillStep =
             real(l, 0, "the largest step", Bound::Positive);
       }},
      {"MAXSTEP", S::Implemented, "dx", 1, 1,
       "first maximum uphill step of eigenvector-following (length) -> "
       "`connect.transitionStateSearch.initialUphillStep`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         c.settings.connect.transitionStateSearch.initialUphillStep =
             real(l, 0, "the maximum step", Bound::Positive);
       }},
      {"NEBK", S::Implemented, "k", 1, 1,
       "DNEB spring constant (energy/length^2) -> `connect.dneb.springConstant`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         c.settings.connect.dneb.springConstant =
             real(l, 0, "the spring constant", Bound::NonNegative);
       }},
      {"NEWCONNECT", S::Implemented,
       "nconmax ntriesmax imagedensity iterdensity imagemax [imageincr [rmstol]]", 5, 7,
       "connect run: at most `nconmax` cycles -> `connect.maxCycles`; `ntriesmax` DNEB attempts "
       "per pair -> `connect.maxTriesPerPair`; images per unit distance (1/length) -> "
       "`connect.dneb.imageDensity`; iterations per image -> `connect.dneb.iterationDensity`; "
       "image cap -> `connect.dneb.maxImages`; `imageincr` (more images on a retried pair) must be "
       "0 or absent; `rmstol` the DNEB RMS gradient (energy/length) -> "
       "`connect.dneb.rmsTolerance`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues& pending) {
         ConnectParams& p = c.settings.connect;
         p.maxCycles = integer(l, 0, "the number of cycles", 1);
         p.maxTriesPerPair = integer(l, 1, "the attempts per pair", 1);
         p.dneb.imageDensity = real(l, 2, "the image density", Bound::Positive);
         p.dneb.iterationDensity = real(l, 3, "the iteration density", Bound::Positive);
         p.dneb.maxImages = integer(l, 4, "the image cap", 1);
         if (l.fields.size() > 5 && real(l, 5, "the image increment", Bound::Any) != 0.0)
           fail(l, "NEWCONNECT image increment " + l.fields[5] +
                       " (more images for retried pairs) is not implemented (must be 0 or absent)");
         if (l.fields.size() > 6) {
           pending.connectRms = real(l, 6, "the DNEB RMS tolerance", Bound::Positive);
           pending.connectRmsWhere = where(l);
         }
       }},
      {"NEWNEB", S::Implemented, "nimage niter [rmstol]", 2, 3,
       "the first DNEB run uses `nimage` images -> `connect.firstImages` and `niter` iterations -> "
       "`connect.firstIterations`; `rmstol` (energy/length) -> `connect.dneb.rmsTolerance` when "
       "NEWCONNECT gives none (one tolerance serves every run; a warning when the two differ)",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues& pending) {
         c.settings.connect.firstImages = integer(l, 0, "the number of images", 1);
         c.settings.connect.firstIterations = integer(l, 1, "the number of iterations", 1);
         if (l.fields.size() > 2) {
           pending.nebRms = real(l, 2, "the DNEB RMS tolerance", Bound::Positive);
           pending.nebRmsWhere = where(l);
         }
       }},
      {"NOFRQS", S::Implemented, "", 0, 0,
       "do not compute Hessian eigenvalues at the stationary points (log products stay unknown, "
       "path.info has no eigenvalue lines) -> `characterisation.maxHessianAtoms` = 0",
       [](const KeywordLine&, OptimRunConfig& c, PendingValues&) {
         c.settings.characterisation.maxHessianAtoms = 0;
       }},
      {"NOHESS", S::Implemented, "", 0, 0,
       "transition-state searches without a Hessian (hybrid eigenvector-following with a "
       "Rayleigh-Ritz eigenvector search; optim always works this way)",
       [](const KeywordLine&, OptimRunConfig&, PendingValues&) {}},
      {"PERMDIST", S::Implemented, "[tol]", 0, 1,
       "minimum distances over permutations of identical atoms (all atoms of an LJ cluster) as "
       "well as translation, rotation and inversion -> `network.alignment.permutations`, "
       "`connect.dneb.alignment.permutations`; OPTIM's orbit tolerance `tol` is not used. For "
       "molecules (`--prmtop`) only permutations within the groups of `--perm-allow FILE` "
       "(OPTIM's perm.allow), which PERMDIST then needs, and never inversion",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         if (!l.fields.empty()) real(l, 0, "the orbit tolerance", Bound::NonNegative);
         c.settings.network.alignment.permutations = true;
         c.settings.connect.dneb.alignment.permutations = true;
       }},
      {"PUSHOFF", S::Implemented, "d", 1, 1,
       "displacement along the transition-state eigenvector before each descent (length) -> "
       "`connect.descent.pushoff`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         c.settings.connect.descent.pushoff = real(l, 0, "the pushoff", Bound::Positive);
       }},
      {"RANROT", S::Implemented, "n", 1, 1,
       "random starting orientations of the permutational alignment -> "
       "`network.alignment.randomOrientations`; `connect.dneb.alignment.randomOrientations` only "
       "where n exceeds its default (256): the DNEB's endpoint alignment, once per band, keeps "
       "its more thorough search",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         const int n = integer(l, 0, "the number of orientations", 0);
         c.settings.network.alignment.randomOrientations = n;
         raiseDnebRandomOrientations(c.settings.connect.dneb, n);
       }},
      {"REOPTIMISEENDPOINTS", S::Implemented, "", 0, 0,
       "minimise both endpoints before connecting (otherwise they must already be minima) -> "
       "`reoptimiseEndpoints`",
       [](const KeywordLine&, OptimRunConfig& c, PendingValues&) {
         c.settings.reoptimiseEndpoints = true;
       }},
      {"STEPS", S::Implemented, "n", 1, 1,
       "eigenvector-following iterations per transition-state search -> "
       "`connect.transitionStateSearch.maxIterations`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         c.settings.connect.transitionStateSearch.maxIterations =
             integer(l, 0, "the number of steps", 1);
       }},
      {"TRAD", S::Implemented, "r", 1, 1,
       "trust ratio of eigenvector-following: relative error of the predicted gradient change "
       "tolerated before the uphill step shrinks -> `connect.transitionStateSearch.trustRatio`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         c.settings.connect.transitionStateSearch.trustRatio =
             real(l, 0, "the trust ratio", Bound::Positive);
       }},
      {"UPDATES", S::Implemented, "m [m2]", 1, 2,
       "L-BFGS history size of the minimisations -> `connect.descent.minimiser.historySize`, "
       "`endpointMinimiser.historySize`; `m2` that of the tangent-space minimisation -> "
       "`connect.transitionStateSearch.tangentSpace.historySize`",
       [](const KeywordLine& l, OptimRunConfig& c, PendingValues&) {
         const int m = integer(l, 0, "the history size", 1);
         c.settings.connect.descent.minimiser.historySize = m;
         c.settings.endpointMinimiser.historySize = m;
         if (l.fields.size() > 1)
           c.settings.connect.transitionStateSearch.tangentSpace.historySize =
               integer(l, 1, "the tangent-space history size", 1);
       }},

      // ---- accepted, ignored with a warning: output and diagnostics only ----
      {"DEBUG", S::Ignored, "", 0, 0, "OPTIM's debugging printout", nullptr},
      {"PAIRCOLOUR", S::Ignored, "n", 0, 0, "colouring of pairs in OPTIM's connect output",
       nullptr},
      {"PATH", S::Ignored, "nframes [...]", 0, 0,
       "follow the steepest-descent path from each transition state and save `nframes` frames on "
       "each side (optim minimises from the pushed-off points instead and writes no path files; "
       "the minima found are the same)",
       nullptr},
      {"RADIUS", S::Ignored, "r", 0, 0,
       "container radius of OPTIM's Lennard-Jones runs (connect runs here use no container)",
       nullptr},

      // ---- OPTIM keywords that would change the run: an error until implemented ----
      {"AMBER9", S::NotImplemented, "...", 0, 0,
       "AMBER potential (molecules will come through --prmtop)", nullptr},
      {"BULK", S::NotImplemented, "...", 0, 0, "periodic boundary conditions", nullptr},
      {"CHARMM", S::NotImplemented, "...", 0, 0, "CHARMM potential", nullptr},
      {"CONNECT", S::NotImplemented, "...", 0, 0,
       "OPTIM's older connection scheme (use NEWCONNECT)", nullptr},
      {"FREEZE", S::NotImplemented, "...", 0, 0, "frozen atoms", nullptr},
      {"GUESSPATH", S::NotImplemented, "...", 0, 0,
       "interpolation in internal coordinates for the first band", nullptr},
      {"NEB", S::NotImplemented, "...", 0, 0, "a single (D)NEB run instead of a connect run",
       nullptr},
      {"TWOD", S::NotImplemented, "", 0, 0, "two-dimensional systems", nullptr},

      // ---- file syntax ----
      {"COMMENT", S::Syntax, "text", 0, 0, "the line is a comment", nullptr},
      {"NOTE", S::Syntax, "text", 0, 0, "the line is a comment", nullptr},
      {"POINTS", S::Syntax, "", 0, 0,
       "the coordinates of the first endpoint follow, one `LABEL x y z` line per atom (length), "
       "to the end of the file; --start FILE overrides them",
       nullptr},
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

// OPTIM's input: fields are separated by blanks, tabs or commas; '!' and '#' start comments.
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

// The POINTS block: `LABEL x y z` per atom to the end of the file.
void readPoints(std::istream& in, const std::string& source, std::size_t& lineNumber,
                OptimRunConfig& config) {
  std::vector<double> points;
  std::string text;
  while (std::getline(in, text)) {
    ++lineNumber;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    const std::vector<std::string> fields = splitFields(text);
    if (fields.empty()) continue;
    const std::string at = source + ":" + std::to_string(lineNumber) + ": ";
    if (fields.size() != 4)
      throw std::runtime_error(at +
                               "POINTS expects 'LABEL x y z' lines to the end of the file, "
                               "found " +
                               quoteInput(text));
    for (int k = 1; k <= 3; ++k) {
      const auto value = parseFortranReal(fields[k]);
      if (!value)
        throw std::runtime_error(at + "POINTS expects a number for coordinate " +
                                 std::to_string(k) + ", found " + quoteInput(fields[k]));
      if (std::fabs(*value) > kMaxInputCoordinate)
        throw std::runtime_error(at + "POINTS coordinate " + quoteInput(fields[k]) +
                                 " is beyond the " +
                                 std::to_string(static_cast<long>(kMaxInputCoordinate)) +
                                 " length units that an input coordinate may have");
      points.push_back(*value);
    }
  }
  if (points.empty())
    throw std::runtime_error(source + ":" + std::to_string(lineNumber) +
                             ": POINTS is followed by no 'LABEL x y z' lines");
  config.odataPoints = std::move(points);
}

}  // namespace

std::vector<OdataKeywordInfo> odataKeywordTable() {
  std::vector<OdataKeywordInfo> rows;
  for (const auto& e : table()) rows.push_back({e.keyword, e.status, e.fields, e.description});
  return rows;
}

std::string odataKeywordStatusName(OdataKeywordStatus status) {
  switch (status) {
    case OdataKeywordStatus::Implemented:
      return "implemented";
    case OdataKeywordStatus::Ignored:
      return "ignored (warning)";
    case OdataKeywordStatus::NotImplemented:
      return "error: not implemented";
    case OdataKeywordStatus::Syntax:
      return "file syntax";
  }
  return "?";
}

std::string odataKeywordsMarkdown() {
  std::ostringstream md;
  md << "# OPTIM odata keywords\n"
        "\n"
        "<!-- Generated from the keyword table in src/OdataFile.cpp by odataKeywordsMarkdown().\n"
        "     Edit the table there, then regenerate this file with\n"
        "     LANDSCAPE_REGENERATE_DOCS=1 landscape_tests "
        "--gtest_filter=OdataFile.DocMatchesTable\n"
        "     (the test fails while the two differ). -->\n"
        "\n"
        "`optim --odata FILE` reads an OPTIM `odata` file: one keyword per line, then free-format "
        "fields separated by blanks or commas. Keywords are case-insensitive; `!` or `#` starts a "
        "comment; reals may use Fortran `D` exponents (`1.0D-6`). A keyword that the file leaves "
        "out takes the library default (`ConnectParams` and the structs it holds), with OPTIM's "
        "switches `PERMDIST` and `REOPTIMISEENDPOINTS` off; options on the command line or in "
        "`--config` override the file. Energies and lengths are in the potential's units: reduced "
        "Lennard-Jones units (epsilon, sigma) for LJ clusters, kcal/mol and Angstrom for "
        "molecules (`--prmtop`; with `--odata` the molecule defaults of `optim --help` give way to "
        "the library defaults too, but the alignment never uses inversion). Fields in brackets are "
        "optional.\n"
        "\n"
        "A keyword not in this table is an error (`FILE:LINE: unknown OPTIM keyword 'XYZ'`), as "
        "is a wrong number of fields or a field that is not a number. Keywords marked *ignored* "
        "are accepted with a warning; those marked *error* are OPTIM keywords that would change "
        "the run and are not implemented. The second endpoint comes from `--finish FILE` (OPTIM "
        "reads the file `finish`); the first from the `POINTS` block or `--start FILE`.\n"
        "\n"
        "| Keyword | Fields | Status | Meaning (-> landscape field) |\n"
        "|---|---|---|---|\n";
  for (const auto& e : table()) {
    md << "| `" << e.keyword << "` | " << (*e.fields ? "`" + escapeCell(e.fields) + "`" : "")
       << " | " << odataKeywordStatusName(e.status) << " | " << escapeCell(e.description) << " |\n";
  }
  return md.str();
}

void applyOdataKeywords(std::istream& in, const std::string& source, OptimRunConfig& config) {
  PendingValues pending;
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
    const std::string at = source + ":" + std::to_string(lineNumber) + ": ";
    if (!entry)
      throw std::runtime_error(at + "unknown OPTIM keyword '" + keyword +
                               "' (docs/optim-keywords.md lists the known ones)");
    bool stop = false;
    switch (entry->status) {
      case OdataKeywordStatus::Syntax:
        if (keyword == "STOP") stop = true;
        if (keyword == "POINTS") {
          readPoints(in, source, lineNumber, config);
          stop = true;
        }
        break;
      case OdataKeywordStatus::Ignored:
        config.warnings.push_back(at + "OPTIM keyword " + keyword + " ignored (" +
                                  entry->description + ")");
        break;
      case OdataKeywordStatus::NotImplemented:
        throw std::runtime_error(at + "OPTIM keyword " + keyword + " is not implemented (" +
                                 entry->description + ")");
      case OdataKeywordStatus::Implemented: {
        const KeywordLine line{source, lineNumber, keyword, fields};
        const int count = static_cast<int>(fields.size());
        if (count < entry->minFields || count > entry->maxFields) {
          const std::string expected =
              entry->maxFields == 0
                  ? std::string("no fields")
                  : std::string("'") + entry->fields + "' (" + expectedCount(*entry) + ")";
          fail(line, keyword + " expects " + expected + ", found " + plural(count, "field"));
        }
        entry->apply(line, config, pending);
        break;
      }
    }
    if (stop) break;
  }
  if (in.bad()) throw std::runtime_error(source + ": read error");

  // One DNEB RMS tolerance serves every run (ConnectParams has no separate first-run value).
  if (pending.connectRms) {
    config.settings.connect.dneb.rmsTolerance = *pending.connectRms;
    if (pending.nebRms && *pending.nebRms != *pending.connectRms)
      config.warnings.push_back(pending.nebRmsWhere + ": NEWNEB RMS tolerance " +
                                formatNumber(*pending.nebRms) + " not used: every DNEB run uses " +
                                formatNumber(*pending.connectRms) + " from NEWCONNECT (" +
                                pending.connectRmsWhere + ")");
  } else if (pending.nebRms) {
    config.settings.connect.dneb.rmsTolerance = *pending.nebRms;
  }
}

OptimRunConfig readOdataFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open OPTIM odata file");
  OptimRunConfig config;
  config.settings = optimKeywordDefaults();
  config.odataFile = path;
  applyOdataKeywords(in, path, config);
  try {
    config.settings.applySeed();
    config.settings.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  return config;
}

}  // namespace landscape
