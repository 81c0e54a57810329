#include "src/optim/OptimOdataFile.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "src/optim/OptimOptions.h"

namespace landscape {

std::vector<OdataKeywordInfo> odataKeywordTable() { return optimOptionTable().keywords(); }

std::string odataKeywordStatusName(OdataKeywordStatus status) { return keywordStatusName(status); }

std::string odataKeywordsMarkdown() {
  std::ostringstream md;
  md << "# OPTIM odata keywords\n"
        "\n"
        "<!-- Generated from optim's option table in src/optim/OptimOptions.cpp by "
        "odataKeywordsMarkdown().\n"
        "     Edit the table there, then regenerate this file with `optim --help-markdown` or\n"
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
        "reads the file `finish`); the first from the `POINTS` block or `--start FILE`. A field "
        "that "
        "sets an option is checked by that option's bounds (the table below).\n"
        "\n"
     << keywordTableMarkdown(optimOptionTable().keywords())
     << "\n## Options of `optim`\n"
        "\n"
        "The command line and `--config FILE` (`key = value`, long names). Units are those of a "
        "Lennard-Jones cluster (reduced units); for molecules (`--prmtop`) read kcal/mol for "
        "epsilon and Angstrom for sigma. Defaults are those of `optim` without an odata file "
        "(OPTIM's LJ38 example).\n"
     << optimOptionTable().optionsMarkdown(OptimConfig{});
  return md.str();
}

void applyOdataKeywords(std::istream& in, const std::string& source, OptimConfig& config) {
  optimOptionTable().readKeywords(in, source, config, "OPTIM", "docs/optim-keywords.md");
}

OptimConfig readOdataFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open OPTIM odata file");
  OptimConfig config;
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
