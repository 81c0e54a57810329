#include "src/pathsample/PathsampleOptions.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "landscape/network/HarmonicRates.h"
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
               "committors (commit.data), regroup (free-energy groups), kmc (first-passage times "
               "by kinetic Monte Carlo, KMC.data) or grow (connect runs between selected pairs, "
               "CYCLES times)",
               fieldOf(&C::mode))
      .choices({PathsampleMode::Import, PathsampleMode::Export, PathsampleMode::Rates,
                PathsampleMode::Committors, PathsampleMode::Regroup, PathsampleMode::Kmc,
                PathsampleMode::Grow},
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
        "reduced: energies, kT and rates in reduced units (LJ); molecular: kcal/mol (or the "
        "kJ/mol of a TIP4P water network), temperatures in K, rates in s^-1 (log products of "
        "the mass-weighted Hessian in kcal/mol/(amu A^2) or kJ/mol/(amu A^2); import reads "
        "min.data/ts.data in PATHSAMPLE's (rad/s)^2)",
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
  t.flag("no-points",
         "a kinetics-only network (PATHSAMPLE's NOPOINTS): import reads min.data, ts.data, "
         "min.A and min.B without points.min and points.ts into a database without coordinates "
         "(rates, committors, regroup and export work on it; grow needs coordinates)",
         fieldOf(&C::noPoints));
  t.add("path-info", "FILE",
        "import: OPTIM's path.info (min-sad-min triples, with Hessian eigenvalues for the log "
        "products) instead of the PATHSAMPLE files of --directory, added to --database "
        "(PATHSAMPLE's STARTFROMPATH and ADDPATH); needs --atoms",
        fieldOf(&C::pathInfoFile))
      .named("a file name");
  t.add("path-set-a", "M",
        "import --path-info: set A is path.info's M-th minimum in order of appearance (1-based, "
        "duplicates counted once; STARTFROMPATH's m1); 0 = none",
        fieldOf(&C::pathInfoSetA))
      .nonNegative();
  t.add("path-set-b", "M", "as --path-set-a for set B (STARTFROMPATH's m2)",
        fieldOf(&C::pathInfoSetB))
      .nonNegative();
  t.add("atoms", "N", "atoms of the system: path.info's points (NATOMS)", fieldOf(&C::atoms))
      .nonNegative()
      .defaultText("NATOMS of --pathdata");
  t.add("kmc-runs", "N",
        "kmc: first passages from the source set to the product (DIRECTION), each a kinetic "
        "Monte Carlo trajectory (PATHSAMPLE's KMC nruns, without leapfrog moves); seeded by "
        "--seed",
        fieldOf(&C::kmcRuns))
      .atLeast(1);
  t.add("max-ts-energy", "E",
        "rates, committors and regroup leave out the transition states above E (PATHSAMPLE's "
        "MAXTSENERGY); import, export and grow keep them",
        fieldOf(&C::maxTsEnergy))
      .unit("energy unit")
      .defaultText("none");
  t.add("energy-tolerance", "DE",
        "import into an existing database: a minimum or transition state whose energy is within "
        "DE of a stored one, and whose aligned distance is within --geometry-tolerance, is that "
        "one (PATHSAMPLE's ETOL)",
        fieldOf(&C::energyTolerance))
      .unit("energy unit")
      .positive();
  t.add("geometry-tolerance", "D",
        "import into an existing database: the distance after alignment (translation, rotation, "
        "and for --units reduced permutation and inversion) below which structures are the same "
        "(PATHSAMPLE's GEOMDIFFTOL)",
        fieldOf(&C::geometryTolerance))
      .unit("length unit")
      .positive();
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
  t.add("threads", "N", "CPU threads running a cycle's connect runs, per MPI rank (with "
        "--jobs-in-flight and on cuda, each runs its share of the runs in flight; on cuda they "
        "also factorise the new points' Hessians; give the host's cores; results do not depend "
        "on it)", fieldOf(&C::threads))
      .atLeast(1)
      .atMost(kMaxJobsInFlight)
      .notInCheckpoint();
  t.add("jobs-in-flight", "K",
        "connect runs under way at once per MPI rank, every structure they evaluate gathered into "
        "shared batched calls (cuda: of the device's batched potential; cpu: of --threads CPU "
        "potentials; the runs are fibres spread over --threads threads, each with up to 4 "
        "searches of its own). 0: cuda all the "
        "cycle's pairs (at most 1024), cpu one run per thread with nothing shared (results do "
        "not depend on it)",
        fieldOf(&C::jobsInFlight))
      .atLeast(0)
      .atMost(kMaxJobsInFlight)
      .notInCheckpoint();
  t.add("cycles-in-flight", "D",
        "growth cycles under way at once: cycle c's pairs are taken from the network as it stood "
        "once cycle c - D had merged, and cycles still merge in order, so the next cycles' runs "
        "keep the device busy while a cycle's slowest runs end. The network depends on D (a "
        "growth setting) but not on threads, runs in flight, ranks or timing. Each cycle in "
        "flight has --jobs-in-flight runs on --threads threads of its own. 1: PATHSAMPLE's "
        "cycles, one after the other",
        fieldOf(&C::cyclesInFlight))
      .atLeast(1)
      .atMost(kMaxCyclesInFlight);
  t.add("call-patience", "US",
        "with shared calls: how long a call waits for connect runs busy on the host, in "
        "microseconds, before it goes without them (they join the next one). 0: as long as the "
        "last call took, at least 50 and at most 2000 (results do not depend on it)",
        fieldOf(&C::callPatience))
      .atLeast(0)
      .atMost(1000000)
      .notInCheckpoint();
  t.add("call-lanes", "L",
        "with shared calls: lanes of calls that may be under way at once, each on a batched "
        "potential of its own (cuda: its own device workspace and stream), the --threads dealt "
        "out to them, so that one lane's call runs on the device while the other lanes' runs take "
        "their host steps. At most the threads running connect runs. 0: one per thread running "
        "connect runs, at most " +
            std::to_string(kMaxCallLanes) +
            " (each thread makes its own runs' calls; results do not depend on it)",
        fieldOf(&C::callLanes))
      .atLeast(0)
      .atMost(kMaxCallLanes)
      .notInCheckpoint();
  t.add("dneb-bands", "",
        "with --backend cuda and Lennard-Jones clusters: each connect run's DNEB bands relaxed "
        "whole on the device, a block per band, many bands per launch (whole), or through "
        "shared calls of their images with the band's L-BFGS on the host (images); the two "
        "differ by round-off. Other systems and backends: images",
        fieldOf(&C::dnebBands))
      .choices({DnebBandRelaxation::Whole, DnebBandRelaxation::Images}, dnebBandRelaxationName);
  t.add("ts-searches", "",
        "with --backend cuda and Lennard-Jones clusters: each hybrid EF search (Rayleigh-Ritz "
        "eigenvector, uphill step, tangent-space minimisation) with its steps on the host and "
        "one shared call per evaluation (steps), or run whole on the device, a block per "
        "search, a band's candidates in one call (whole; on an H200 no faster for LJ38, see "
        "docs/benchmarks.md); the two differ by round-off. Other systems and backends: steps",
        fieldOf(&C::transitionStateSearches))
      .choices({TransitionStateSearchRuns::Steps, TransitionStateSearchRuns::Whole},
               transitionStateSearchRunsName);
  t.add("alignments", "",
        "with whole DNEB bands (--backend cuda, Lennard-Jones clusters): each band's endpoints "
        "(MINPERMDIST, DNEB's 128 of 256 orientations), the connect cycles' Dijkstra distances "
        "and the pair selection's distances aligned by the host search, on the runs' threads and "
        "the selection's threads (host), or "
        "searched whole on the device in calls of many pairs, a block per pair (whole: the same "
        "starts and refinements, rotations by Horn's quaternion; the two differ by round-off). "
        "Other systems and backends: host",
        fieldOf(&C::alignments))
      .choices({AlignmentRuns::Host, AlignmentRuns::Whole}, alignmentRunsName);
  addBackendOption(t, fieldOf(&C::backend));
  addLbfgsBackendOption(t,
                        "where the connect runs' L-BFGS vectors live: cpu (host) or gpu "
                        "(accepted for optim's settings; with --backend cuda the runs in flight "
                        "share batched calls and keep their vectors on the host)",
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
  t.add("connect-cycles", "N",
        "connect cycles of each run before it gives up (NEWCONNECT's nconmax), in place of the "
        "--odata file's or optim's default (50 for molecules, 100 for clusters): a cycle lasts as "
        "long as its slowest run, and a run that does not connect spends all its cycles. 0: "
        "theirs",
        fieldOf(&C::connectCycles))
      .atLeast(0);
  t.add("ts-steps", "N",
        "eigenvector-following iterations of each transition-state search before it gives up "
        "(OPTIM's STEPS, optim --ts-steps), in place of the --odata file's or optim's default "
        "(1000 for molecules, 200 for clusters): a search that does not converge spends them "
        "all, and its run and cycle wait for it. 0: theirs",
        fieldOf(&C::tsSteps))
      .atLeast(0);
  addPrmtopOption(t, "grow a molecule's network (kcal/mol, Angstrom)", fieldOf(&C::prmtopFile))
      .defaultText("");
  addPairSystemOptions(t, fieldOf(&C::pair),
                       "; the connect runs as optim's (minimum-image distances, DNEB "
                       "interpolation and duplicates). grow: these options replace the pair "
                       "system of --odata (MORSE, BLJCLUSTER, BULK)");
  addGuptaSystemOptions(t, fieldOf(&C::gupta));
  t.add("water", "MODEL",
        "grow a network of rigid water molecules (docs/water.md), as optim --water: tip4p = TIP4P "
        "as GMIN's NTIP 4 (kJ/mol, Angstrom; the database holds the sites O H H M), ssd = "
        "soft-sticky-dipole water (kcal/mol, Angstrom; the database holds 4 markers per "
        "molecule); the runs work in angle-axis coordinates, minima are told apart over the "
        "molecules' symmetries and characterised by the molecules' normal modes",
        fieldOf(&C::waterModel))
      .choices(std::vector<std::string>{"tip4p", "ssd"})
      .defaultText("none");
  addWaterIonsOption(
      t, fieldOf(&C::waterIons), [](const C& c) { return c.waterModel == "tip4p"; },
      " (the database's last atoms, as optim --ions wrote them); identical ions "
      "are permuted when minima are compared");
  const auto isEllipsoids = [](const C& c) { return c.ellipsoids; };
  t.flag("ellipsoids",
         "grow a network of uniaxial Gay-Berne ellipsoids (docs/gay-berne.md), as optim "
         "--ellipsoids: reduced units, the database holds 4 markers per ellipsoid; the runs work "
         "in angle-axis coordinates with each spin projected out, minima are told apart by the "
         "centres and axis tips and characterised by the normal modes of unit-mass solid "
         "ellipsoids",
         fieldOf(&C::ellipsoids));
  addGayBerneOptions(t, fieldOf(&C::gayBerne), isEllipsoids);
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

// A real field of a pathdata line, checked against `rule`; errors name the file and line.
double keywordReal(const KeywordLine& line, std::size_t i, const std::string& what,
                   const ValueRule& rule) {
  try {
    return parseReal(line.fields.at(i), rule);
  } catch (const ValueError& e) {
    line.fail(e.keywordMessage(line.keyword, what));
  }
}

// "T1 [T2 [T3 ... [Tn]...]]": RATESCYCLE's syntax for up to n temperatures.
std::string temperatureList(int n) {
  std::string syntax = "kT1";
  for (int i = 2; i <= n; ++i) syntax += " [kT" + std::to_string(i);
  return syntax + std::string(n - 1, ']');
}

// PATHSAMPLE's logicals: T, F, .TRUE., .FALSE. (any case).
bool isFortranLogical(std::string text) {
  for (char& ch : text) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return text == "T" || text == "F" || text == ".TRUE." || text == ".FALSE." || text == "TRUE" ||
         text == "FALSE";
}

void addKeywords(Table& t) {
  using K = KeywordStatus;
  // PATHSAMPLE's temperatures are kT in the energy unit whatever the system (its manual, "A Note
  // on Units and Planck's Constant"); with --units molecular they become Kelvin once the command
  // line is read (parsePathsampleCommandLine).
  t.keyword(K::Implemented, "TEMPERATURE", "kT",
            "kT of the kinetics in the energy unit (kcal/mol for AMBER12; --temperature takes "
            "Kelvin with --units molecular, so kT is converted)",
            [](const KeywordLine& line, std::istream&, std::size_t&, C& c) {
              c.pathdataTemperatures = {keywordReal(line, 0, "kT", realRule(0.0, true))};
            });
  t.keyword(K::Implemented, "RATESCYCLE", temperatureList(8),
            "rates at these kT (energy unit), one NGT.rates line each; they replace "
            "TEMPERATURE's for mode rates (PATHSAMPLE computes them after every cycle; here "
            "`rates` computes them once)",
            [](const KeywordLine& line, std::istream&, std::size_t&, C& c) {
              c.pathdataRatesTemperatures.clear();
              for (std::size_t i = 0; i < line.fields.size(); ++i)
                c.pathdataRatesTemperatures.push_back(
                    keywordReal(line, i, "kT", realRule(0.0, true)));
            });
  t.keyword(K::Implemented, "NGT", "ncon [kss [dense [maxdense [crs]]]]",
            "rate constants by the graph transformation: the mode is rates unless the command "
            "line names another; ncon must be 0 (minima without connections are left out; "
            "removing minima with up to ncon > 0 connections is not implemented); kss (T|F): k, "
            "kSS and kNSS are always computed; dense, maxdense and crs choose PATHSAMPLE's "
            "storage scheme and are checked but not used (one scheme here)",
            [](const KeywordLine& line, std::istream&, std::size_t&, C& c) {
              const std::string& ncon = line.fields.at(0);
              try {
                if (parseInteger(ncon, integerRule(0)) != 0)
                  line.fail("NGT ncon " + ncon + " is not implemented (must be 0: minima with " +
                            ncon + " or fewer connections are not removed here)");
              } catch (const ValueError& e) {
                line.fail(e.keywordMessage(line.keyword, "the connection threshold"));
              }
              if (line.fields.size() > 1 && !isFortranLogical(line.fields[1]))
                line.fail("NGT expects T or F for kSS and kNSS, found " + quote(line.fields[1]));
              const char* const what[] = {"", "", "the dense threshold", "the largest dense size",
                                          "the compressed-row threshold"};
              for (std::size_t i = 2; i < line.fields.size(); ++i)
                keywordReal(line, i, what[i], realRule(0.0));
              c.mode = PathsampleMode::Rates;
            });
  t.keyword(K::Implemented, "KMC", "nruns [pairthresh [nconn]]",
            "first-passage times by kinetic Monte Carlo (mode kmc unless the command line names "
            "another; nruns runs); pairthresh must be 1.0 (no leapfrog moves; PATHSAMPLE's "
            "leapfrog is not implemented) and nconn 0",
            [](const KeywordLine& line, std::istream&, std::size_t&, C& c) {
              try {
                c.kmcRuns = static_cast<int>(
                    parseInteger(line.fields.at(0), integerRule(1), 1, 2147483647));
              } catch (const ValueError& e) {
                line.fail(e.keywordMessage(line.keyword, "the number of runs"));
              }
              if (line.fields.size() > 1 &&
                  keywordReal(line, 1, "the leapfrog threshold", realRule(0.0)) != 1.0)
                line.fail("KMC pairthresh " + line.fields[1] +
                          " is not implemented (must be 1.0: leapfrog moves are not implemented)");
              if (line.fields.size() > 2 &&
                  keywordReal(line, 2, "the connection threshold", realRule(0.0)) != 0.0)
                line.fail("KMC nconn " + line.fields[2] +
                          " is not implemented (must be 0: minima are not removed)");
              c.mode = PathsampleMode::Kmc;
            });
  t.keyword("NOPOINTS", "", "a kinetics-only network: no points.min and points.ts")
      .sets("no-points", "yes");
  t.keyword(K::Implemented, "NATOMS", "n",
            "atoms of the system, checked against points.min (import) and the database; not "
            "checked with NOPOINTS, where PATHSAMPLE needs a dummy value",
            [](const KeywordLine& line, std::istream&, std::size_t&, C& c) {
              try {
                c.pathdataAtoms = static_cast<std::size_t>(
                    parseInteger(line.fields.at(0), integerRule(1)));
              } catch (const ValueError& e) {
                line.fail(e.keywordMessage(line.keyword, "the number of atoms"));
              }
              c.pathdataAtomsWhere = line.where();
            });
  t.keyword("STARTFROMPATH", "file m1 m2",
            "a database from OPTIM's path.info, A and B its m1-th and m2-th minima (mode import "
            "unless the command line names another)")
      .field("path-info", "the path.info file")
      .field("path-set-a", "m1")
      .field("path-set-b", "m2")
      .sets("MODE", "import");
  t.keyword("ADDPATH", "file",
            "adds the stationary points of OPTIM's path.info to the database (mode import)")
      .field("path-info", "the path.info file")
      .sets("MODE", "import");
  t.keyword("MAXTSENERGY", "E",
            "transition states above E (energy unit) are left out of the kinetics")
      .field("max-ts-energy", "the energy");
  t.keyword("AMBER12", "", "an AMBER system: kcal/mol, frequencies in rad/s, rates in s^-1")
      .sets("units", "molecular");
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
  t.keyword("ETOL", "tol",
            "energy tolerance of duplicates when import adds to a database (growth uses "
            "--odata's EDIFFTOL)")
      .field("energy-tolerance", "the tolerance");
  t.keyword("GEOMDIFFTOL", "tol",
            "distance tolerance of duplicates when import adds to a database (growth uses "
            "--odata's GEOMDIFFTOL)")
      .field("geometry-tolerance", "the tolerance");
  t.keyword("CPUS", "n", "connect runs per cycle").field("pairs-per-cycle", "the number of jobs");
  t.keyword("SEED", "n", "random seed of the connect runs").field("seed", "the seed");
  // Accepted with a warning: each description says why the keyword changes nothing here.
  t.addKeywords(
      K::Ignored,
      {{"EXEC", "path", "the OPTIM executable: connect runs use the built-in engine"},
       {"SYSTEM", "symbol", "OPTIM's atom symbol: the potential comes from --odata and --prmtop"},
       {"CONNECTIONS", "n [maxtries]",
        "minimum connections of a new minimum: each chosen pair gets one connect run"},
       {"PERMDIST", "[tol]", "permutational alignment: growth aligns as --odata's PERMDIST says"},
       {"RANROT", "n", "random alignment starts: growth uses --odata's"},
       {"ITOL", "tol", "moment-of-inertia tolerance: energy and minimum distance decide"},
       {"DIJKSTRA", "[n]",
        "PATHSAMPLE's printout of the fastest path: not written here (--pair-selection "
        "dijkstra grows along it)"},
       {"PAIRLIST", "n",
        "how often PATHSAMPLE renews its pair list: here a list is renewed when used up "
        "(--pair-list-size)"},
       {"DEBUG", "", "PATHSAMPLE's extra printing: pathsample prints what it computes"},
       {"PRINTTAUGT", "", "PATHSAMPLE's printout of NGT's waiting times: not printed here"}});
  // Refused: each would change what is computed, and is not implemented.
  t.addKeywords(
      K::NotImplemented,
      {{"WAITPDF", "",
        "first-passage-time distributions by eigendecomposition; rates gives k, kSS, kNSS and "
        "the mean first-passage times"},
       {"WAITPDFPRINT", "", "the files of WAITPDF, which is not implemented"},
       {"NGTKEEPLIST", "",
        "partial graph transformation keeping NGTkeeplist's minima (min.data.new, ts.data.new)"},
       {"FREEENERGY", "",
        "min.data and ts.data holding free energies (a partial graph transformation's output): "
        "their second column would not be a log product"},
       {"RENORMREACTANT", "", "NGT with a renormalised reactant occupation"}});
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
  resolvePairSystem(c.pair, given, {});
  resolveGuptaSystem(c.gupta, given, {});
  if (given.has("ions")) checkWaterIons(given.origin("ions"), c.waterIons, c.waterModel);
  // A pathdata that asks for connect cycles and names no other task grows the network, as
  // PATHSAMPLE does with it; its folder's odata.connect is the connect runs' odata.
  if (!c.mode && !c.pathdataFile.empty() && c.cycles > 0) {
    c.mode = PathsampleMode::Grow;
    const std::string odata = (std::filesystem::path(c.pathdataFile).parent_path() /
                               "odata.connect").string();
    if (!given.has("odata") && std::filesystem::exists(odata)) c.odataFile = odata;
  }
  if (!c.mode) {
    throw std::runtime_error("command line: MODE is required (import, export, rates, committors, "
                             "regroup, kmc or grow; --help), or in the pathdata file an NGT or "
                             "KMC line, STARTFROMPATH, ADDPATH or CYCLES n > 0");
  }
  c.databaseGiven = given.has("database");
  // The pathdata's temperatures are PATHSAMPLE's kT; --temperature (which wins) takes Kelvin for
  // molecules. RATESCYCLE's list is the one of the rates.
  if (!given.has("temperature")) {
    const std::vector<double>& kT =
        c.mode == PathsampleMode::Rates && !c.pathdataRatesTemperatures.empty()
            ? c.pathdataRatesTemperatures
            : c.pathdataTemperatures;
    if (!kT.empty()) c.temperatures = kT;
    c.temperaturesFromPathdata = !kT.empty();
    if (!kT.empty() && c.units == PathsampleUnits::Molecular)
      for (double& t : c.temperatures) t /= kBoltzmannKcalPerMolK;
  }
  return c;
}

}  // namespace landscape
