#include "src/gmin/GminDataFile.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "src/gmin/GminOptions.h"

namespace landscape {

std::vector<GminKeywordInfo> gminKeywordTable() { return gminOptionTable().keywords(); }

std::string gminKeywordStatusName(GminKeywordStatus status) { return keywordStatusName(status); }

std::string gminKeywordsMarkdown() {
  std::ostringstream md;
  md << "# GMIN data-file keywords\n"
        "\n"
        "<!-- Generated from gmin's option table in src/gmin/GminOptions.cpp by "
        "gminKeywordsMarkdown().\n"
        "     Edit the table there, then regenerate this file with `gmin --help-markdown` or\n"
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
        "from `coords`): use `--lj N` or `--coords FILE`. A field that sets an option is checked "
        "by that option's bounds (the table below).\n"
        "\n"
     << keywordTableMarkdown(gminOptionTable().keywords())
     << "\n## Options of `gmin`\n"
        "\n"
        "The command line and `--config FILE` (`key = value`, long names). Units are those of a "
        "Lennard-Jones cluster (reduced units); for molecules read kcal/mol for epsilon and "
        "Angstrom for sigma. Defaults are those of `gmin` without a data file (GMIN's LJ38 "
        "example).\n"
     << gminOptionTable().optionsMarkdown(GminConfig{});
  return md.str();
}

GminConfig gminKeywordDefaults() {
  GminConfig config;
  config.basinHopping = BasinHoppingParams{};
  // GMIN's switches are off unless their keyword is present.
  config.basinHopping.centre = false;
  config.basinHopping.newRestartSteps = 0;
  config.basinHopping.avoidDistance = 0.0;
  config.basinHopping.avoidMaxSaved = 0;
  return config;
}

void applyGminKeywords(std::istream& in, const std::string& source, GminConfig& config) {
  gminOptionTable().readKeywords(in, source, config, "GMIN", "docs/gmin-keywords.md");
}

GminConfig readGminDataFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open GMIN data file");
  GminConfig config = gminKeywordDefaults();
  applyGminKeywords(in, path, config);
  try {
    config.basinHopping.check();
    if (config.tempering.enabled) config.tempering.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  return config;
}

}  // namespace landscape
