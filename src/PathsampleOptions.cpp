#include "src/PathsampleOptions.h"

#include <fstream>
#include <stdexcept>

#include "src/OptionTable.h"

#ifndef LANDSCAPE_VERSION
#define LANDSCAPE_VERSION "unknown"
#endif

namespace landscape {

namespace {

using C = PathsampleRunConfig;
using Table = OptionTable<PathsampleRunConfig>;

void addGeneral(Table& t) {
  t.section("General");
  t.standardCommands();
  t.source("config", "FILE", "INI file of these options (key = value); the command line wins")
      .commandLineOnly();
  t.source("pathdata", "FILE",
           "PATHSAMPLE pathdata keyword file (keywords below); options given otherwise win")
      .commandLineOnly();
  t.positional("MODE",
               "import (PATHSAMPLE files -> database), export (database -> files), rates (NGT), "
               "committors (commit.data) or regroup (free-energy groups)",
               fieldOf(&C::mode))
      .choices(std::vector<std::string>{"import", "export", "rates", "committors", "regroup"})
      .defaultText("");
  t.add("database", "FILE", "the HDF5 transition network (docs/database.md)", fieldOf(&C::database))
      .named("a file name");
  t.add("directory", "DIR",
        "folder of min.data, ts.data, points.min, points.ts, min.A, min.B (read by import, "
        "written by export) and of the kinetics output files",
        fieldOf(&C::directory))
      .named("a directory name");
}

void addKinetics(Table& t) {
  t.section("Kinetics (docs/pathsample.md)");
  t.add("temperature", "T",
        "temperatures, comma-separated: kT in the energy unit (reduced units), or Kelvin with "
        "--units molecular",
        fieldOf(&C::temperatures))
      .positive();
  t.add("units", "",
        "reduced: energies, kT and rates in reduced units (LJ); molecular: kcal/mol, "
        "temperatures in K, rates in s^-1 (log products of the mass-weighted Hessian in "
        "kcal/mol/(amu A^2))",
        fieldOf(&C::units))
      .choices(std::vector<std::string>{"reduced", "molecular"});
  t.add("regroup-threshold", "DF",
        "free-energy barrier at or below which groups merge (regroup)", fieldOf(&C::regroupThreshold))
      .unit("energy unit")
      .nonNegative();
}

void addKeywords(Table& t) {
  using K = KeywordStatus;
  t.keyword("TEMPERATURE", "T", "temperature of the rates (kT, or K for molecules)")
      .field("temperature", "the temperature");
  t.keyword("REGROUPFREE", "threshold", "regroup minima at this free-energy barrier")
      .field("regroup-threshold", "the threshold");
  t.keyword("CYCLES", "n", "growth cycles; only 0 (analysis only) is implemented")
      .only("the number of cycles", integerRule(0), "0");
  t.addKeywords(K::Ignored,
                {{"EXEC", "path", "the OPTIM executable (connect runs use the built-in engine)"},
                 {"CPUS", "n", "parallel OPTIM jobs"},
                 {"SYSTEM", "symbol", "OPTIM's atom symbol"},
                 {"NATOMS", "n", "atoms (pathsample reads N from points.min)"},
                 {"SEED", "n", "random seed of growth"},
                 {"DIRECTION", "AB|BA", "rates are reported both ways"},
                 {"CONNECTIONS", "n [maxtries]", "minimum connections of a new minimum"},
                 {"PERMDIST", "[tol]", "permutational alignment of growth"},
                 {"RANROT", "n", "random alignment starts of growth"},
                 {"ETOL", "tol", "energy tolerance of growth"},
                 {"GEOMDIFFTOL", "tol", "distance tolerance of growth"},
                 {"ITOL", "tol", "moment-of-inertia tolerance of growth"},
                 {"DIJKSTRA", "[n]", "Dijkstra analysis (growth pair selection)"}});
  t.addKeywords(K::NotImplemented,
                {{"UNTRAP", "einc ethresh", "UNTRAP pair selection (growth)"},
                 {"SHORTCUT", "n [BARRIER]", "SHORTCUT pair selection (growth)"},
                 {"STARTFROMPATH", "file m1 m2", "a database from path.info (use optim)"}});
}

const Table& pathsampleOptionTable() {
  static const Table table(
      "pathsample",
      "pathsample (landscape " LANDSCAPE_VERSION
      "): PATHSAMPLE databases and their kinetics (issue 19).\n"
      "Usage: pathsample MODE [--database FILE] [--directory DIR] [options]\n"
      "\n"
      "Units: reduced units (LJ: epsilon, sigma, unit masses; kT and rates reduced), or with\n"
      "--units molecular kcal/mol, Angstrom, amu, temperatures in K and rates in s^-1.\n",
      {addGeneral, addKinetics, addKeywords});
  return table;
}

}  // namespace

std::string pathsampleOptionsMarkdown() {
  return "# Options of `pathsample`\n"
         "\n"
         "<!-- Generated from pathsample's option table in src/PathsampleOptions.cpp by\n"
         "     pathsampleOptionsMarkdown(). Regenerate with `pathsample --help-markdown` or\n"
         "     LANDSCAPE_REGENERATE_DOCS=1 landscape_tests "
         "--gtest_filter=PathsampleCli.DocMatchesTable\n"
         "     (the test fails while the two differ). -->\n"
         "\n"
         "`pathsample MODE` imports and exports PATHSAMPLE databases and computes their kinetics "
         "(docs/pathsample.md). Options come from the command line, `--config FILE` (`key = "
         "value`) and a PATHSAMPLE `pathdata` file (`--pathdata FILE`), in that precedence.\n"
         "\n## pathdata keywords\n"
         "\n"
         "Keywords are case-insensitive; `!` starts a comment. A keyword not listed is an error "
         "(`FILE:LINE: unknown PATHSAMPLE keyword`); *ignored* ones warn; *error* ones are "
         "PATHSAMPLE keywords not implemented yet.\n"
         "\n" +
         keywordTableMarkdown(pathsampleOptionTable().keywords()) + "\n## Options\n\n" +
         pathsampleOptionTable().optionsMarkdown(PathsampleRunConfig{});
}

PathsampleRunConfig parsePathsampleCommandLine(const std::vector<std::string>& arguments) {
  const Table& table = pathsampleOptionTable();
  PathsampleRunConfig c;
  GivenOptions given;
  if (!table.read(arguments, given, c, pathsampleOptionsMarkdown)) return c;
  if (given.has("pathdata")) {
    const std::string path = table.checkedSource(given, "pathdata");
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open PATHSAMPLE pathdata file");
    c.pathdataFile = path;
    table.readKeywords(in, path, c, "PATHSAMPLE", "docs/pathsample-options.md");
  }
  table.apply(given, c);
  table.applyPositionals(given.positionals, c);
  if (c.mode.empty()) {
    throw std::runtime_error("command line: MODE is required (import, export, rates, committors "
                             "or regroup; --help)");
  }
  return c;
}

}  // namespace landscape
