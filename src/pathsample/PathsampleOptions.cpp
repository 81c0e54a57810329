#include "src/pathsample/PathsampleOptions.h"

#include <fstream>
#include <stdexcept>

#include "src/common/SharedOptions.h"

#ifndef LANDSCAPE_VERSION
#define LANDSCAPE_VERSION "unknown"
#endif

namespace landscape {

namespace {

using C = PathsampleConfig;
using Table = OptionTable<PathsampleConfig>;

template <class M>
auto untrap(M member) {
  return fieldOf(&C::untrap, member);
}

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
               "committors (commit.data), regroup (free-energy groups) or grow (connect runs "
               "between selected pairs, CYCLES times)",
               fieldOf(&C::mode))
      .choices({PathsampleMode::Import, PathsampleMode::Export, PathsampleMode::Rates,
                PathsampleMode::Committors, PathsampleMode::Regroup, PathsampleMode::Grow},
               pathsampleModeName)
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
        "kcal/mol/(amu A^2); import reads min.data/ts.data in PATHSAMPLE's (rad/s)^2)",
        fieldOf(&C::units))
      .choices({PathsampleUnits::Reduced, PathsampleUnits::Molecular}, pathsampleUnitsName);
  t.add("regroup-threshold", "DF",
        "free-energy barrier at or below which groups merge (regroup)", fieldOf(&C::regroupThreshold))
      .unit("energy unit")
      .nonNegative();
  t.flag("regrouped",
         "rates: between the free-energy groups of regroup at --regroup-threshold, each "
         "temperature regrouped on its own; A and B become the groups holding their minima "
         "(PATHSAMPLE's NGT after REGROUPFREE)",
         fieldOf(&C::regrouped));
  t.add("planck", "H",
        "Planck's constant for the transition-state free energies of regroup (PATHSAMPLE's "
        "PLANCK), in the energy unit x the time unit of the rates: h / (epsilon x reduced time) "
        "for reduced units, kcal/mol x s for molecular ones",
        fieldOf(&C::planck))
      .nonNegative()
      .defaultText("9.53707627e-14 (CODATA h) with --units molecular; none for reduced units");
  t.add("direction", "",
        "which set is the product (PATHSAMPLE's DIRECTION): AB, A (committors to A, growth "
        "towards A); BA, B (committors to B, growth towards B, the rates B<-A printed once more; "
        "the NGT.rates files keep their columns T, k(A<-B), k(B<-A))",
        fieldOf(&C::direction))
      .choices({PathsampleDirection::AB, PathsampleDirection::BA}, pathsampleDirectionName);
}

void addGrowth(Table& t) {
  t.section("Growth (mode grow; docs/pathsample.md)");
  t.add("cycles", "N", "growth cycles, each --pairs-per-cycle connect runs", fieldOf(&C::cycles))
      .atLeast(0);
  t.add("pair-selection", "",
        "how pairs are chosen: untrap (kinetic traps, UNTRAP), shortcut (the best kinetic path, "
        "SHORTCUT) or dijkstra (missing links of the best path, DIJPAIR)",
        fieldOf(&C::pairSelection))
      .choices({PairSelection::Untrap, PairSelection::Shortcut, PairSelection::Dijkstra},
               pairSelectionName);
  t.add("untrap-increment", "DE", "UNTRAP einc: threshold step of the superbasin analysis",
        untrap(&UntrapParams::energyIncrement))
      .unit("energy unit")
      .nonNegative();
  t.add("untrap-threshold", "DE", "UNTRAP ethresh: partners lie less than this above a trap",
        untrap(&UntrapParams::energyThreshold))
      .unit("energy unit");
  t.add("untrap-delta-min", "DE", "UNTRAP edeltamin: smallest energy difference of the metric",
        untrap(&UntrapParams::deltaMin))
      .unit("energy unit")
      .defaultText("TINY");
  t.add("untrap-low-barrier", "DE", "UNTRAP elowbar: barriers found this close to the product "
        "count as tiny", untrap(&UntrapParams::lowBarrier))
      .unit("energy unit")
      .defaultText("TINY");
  t.add("untrap-high-barrier", "DE", "UNTRAP ehighbar: barriers at least this high count as tiny",
        untrap(&UntrapParams::highBarrier))
      .unit("energy unit")
      .defaultText("HUGE");
  t.add("shortcut-steps", "N", "SHORTCUT n: steps along the best path", fieldOf(&C::shortcutSteps))
      .atLeast(1);
  t.add("shortcut-by", "", "SHORTCUT pairs: the closest minima n or more steps apart (distance) "
        "or either side of the highest barriers (barrier)", fieldOf(&C::shortcutBy))
      .choices({ShortcutBy::Distance, ShortcutBy::Barrier}, shortcutByName)
      .choice("BARRIER", ShortcutBy::Barrier);
  t.add("dijkstra-power", "P", "dijkstra: a missing link costs distance^P (length^P)",
        fieldOf(&C::dijkstraPower))
      .positive();
  t.add("pairs-per-cycle", "N", "connect runs per cycle (PATHSAMPLE's CPUS)",
        fieldOf(&C::pairsPerCycle))
      .atLeast(1);
  t.add("threads", "N", "CPU threads running a cycle's connect runs, per MPI rank (results do "
        "not depend on it)", fieldOf(&C::threads))
      .atLeast(1)
      .notInCheckpoint();
  addBackendOption(t, fieldOf(&C::backend));
  addLbfgsBackendOption(t,
                        "where the connect runs' L-BFGS vectors live: cpu (host) or gpu (device; "
                        "with --backend cuda each run's descents go to the device's batched "
                        "L-BFGS)",
                        fieldOf(&C::lbfgsBackend));
  addPrecisionOption(t, ". Transition states need double", fieldOf(&C::precision));
  t.add("rank-timeout", "S",
        "under mpirun: a rank that waits more than S seconds for the others in one exchange "
        "(a rank hung, or died without the launcher noticing) ends the whole job with a message; "
        "continue with --resume (docs/cluster.md); 0 = wait as long as it takes",
        fieldOf(&C::rankTimeout))
      .unit("seconds")
      .nonNegative()
      .notInCheckpoint();
  t.add("pair-list-size", "N", "candidate pairs kept per selection; the list is recomputed when "
        "used up", fieldOf(&C::listSize))
      .atLeast(1);
  t.add("odata", "FILE", "OPTIM odata file of the connect runs (PATHSAMPLE's odata.connect; "
        "docs/optim-keywords.md); default: optim's defaults", fieldOf(&C::odataFile))
      .file()
      .defaultText("");
  addPrmtopOption(t, "grow a molecule's network (kcal/mol, Angstrom)", fieldOf(&C::prmtopFile))
      .defaultText("");
  t.add("output", "DIR", "folder of the growth run: DIR/network.h5, rewritten after every cycle",
        fieldOf(&C::outputDir))
      .named("a directory name")
      .notInCheckpoint();
  t.add("resume", "DIR", "continue the growth run in DIR (same options; --cycles may be larger)",
        fieldOf(&C::resumeDir))
      .defaultText("")
      .notInCheckpoint();
  t.add("seed", "N", "random seed of the connect runs' alignments and eigenvector guesses",
        fieldOf(&C::seed))
      .atLeast(0);
}

void addKeywords(Table& t) {
  using K = KeywordStatus;
  t.keyword("TEMPERATURE", "T", "temperature of the rates (kT, or K for molecules)")
      .field("temperature", "the temperature");
  t.keyword("REGROUPFREE", "threshold",
            "regroup minima at this free-energy barrier (rates then between the groups)")
      .field("regroup-threshold", "the threshold")
      .sets("regrouped", "yes");
  t.keyword("PLANCK", "h", "Planck's constant in the units of the energies and rates")
      .field("planck", "the constant");
  t.keyword("DIRECTION", "AB|BA", "which set is the product").field("direction", "the direction");
  t.keyword("CYCLES", "n", "growth cycles (mode grow)").field("cycles", "the number of cycles");
  t.keyword("UNTRAP", "einc ethresh [edeltamin [elowbar [ehighbar]]]",
            "UNTRAP pair selection (PATHSAMPLE's GETUPAIR)")
      .sets("pair-selection", "untrap")
      .field("untrap-increment", "the energy increment")
      .field("untrap-threshold", "the energy threshold")
      .field("untrap-delta-min", "edeltamin")
      .field("untrap-low-barrier", "elowbar")
      .field("untrap-high-barrier", "ehighbar");
  t.keyword("SHORTCUT", "n [BARRIER]", "SHORTCUT pair selection along the best kinetic path")
      .sets("pair-selection", "shortcut")
      .field("shortcut-steps", "the number of steps")
      .field("shortcut-by", "BARRIER", "distance");
  t.keyword("DIJPAIR", "maxattempt [nconnmin]",
            "Dijkstra pair selection: the missing links of the best path through known and "
            "missing connections (--dijkstra-power); PATHSAMPLE's attempts per pair and minimum "
            "connections are not used (each pair is tried once)")
      .sets("pair-selection", "dijkstra")
      .unused("the attempts per pair", integerRule(1))
      .unused("the minimum connections", integerRule(0));
  t.keyword("CPUS", "n", "connect runs per cycle").field("pairs-per-cycle", "the number of jobs");
  t.keyword("SEED", "n", "random seed of the connect runs").field("seed", "the seed");
  t.addKeywords(K::Ignored,
                {{"EXEC", "path", "the OPTIM executable (connect runs use the built-in engine)"},
                 {"SYSTEM", "symbol", "OPTIM's atom symbol"},
                 {"NATOMS", "n", "atoms (pathsample reads N from points.min)"},
                 {"CONNECTIONS", "n [maxtries]", "minimum connections of a new minimum"},
                 {"PERMDIST", "[tol]", "permutational alignment (growth uses --odata's)"},
                 {"RANROT", "n", "random alignment starts (growth uses --odata's)"},
                 {"ETOL", "tol", "energy tolerance (growth uses --odata's EDIFFTOL)"},
                 {"GEOMDIFFTOL", "tol", "distance tolerance (growth uses --odata's)"},
                 {"ITOL", "tol", "moment-of-inertia tolerance of growth (not used: energy and "
                                 "minimum distance decide)"},
                 {"DIJKSTRA", "[n]", "Dijkstra analysis of the best path (growth: DIJPAIR)"}});
  t.addKeywords(K::NotImplemented,
                {{"STARTFROMPATH", "file m1 m2", "a database from path.info (use optim)"}});
}

}  // namespace

const OptionTable<PathsampleConfig>& pathsampleOptionTable() {
  static const Table table(
      "pathsample",
      "pathsample (landscape " LANDSCAPE_VERSION
      "): PATHSAMPLE databases and their kinetics (docs/pathsample.md).\n"
      "Usage: pathsample MODE [--database FILE] [--directory DIR] [options]\n"
      "\n"
      "Units: reduced units (LJ: epsilon, sigma, unit masses; kT and rates reduced), or with\n"
      "--units molecular kcal/mol, Angstrom, amu, temperatures in K and rates in s^-1.\n",
      {addGeneral, addKinetics, addGrowth, addKeywords});
  return table;
}

std::string pathsampleOptionsMarkdown() {
  return "# Options of `pathsample`\n"
         "\n"
         "<!-- Generated from pathsample's option table in "
         "src/pathsample/PathsampleOptions.cpp by\n"
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
         pathsampleOptionTable().optionsMarkdown(PathsampleConfig{});
}

PathsampleConfig parsePathsampleCommandLine(const std::vector<std::string>& arguments) {
  const Table& table = pathsampleOptionTable();
  PathsampleConfig c;
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
  if (!c.mode) {
    throw std::runtime_error("command line: MODE is required (import, export, rates, committors, "
                             "regroup or grow; --help)");
  }
  return c;
}

}  // namespace landscape
