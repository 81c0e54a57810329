#include "src/OptimRunConfig.h"

#include <algorithm>

#include <boost/program_options.hpp>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "landscape/formats/CoordinatesFile.h"
#include "src/OdataFile.h"

#ifndef LANDSCAPE_VERSION
#define LANDSCAPE_VERSION "unknown"
#endif

namespace po = boost::program_options;

namespace landscape {

void OptimSettings::applySeed() {
  network.alignment.seed = seed;
  connect.dneb.alignment.seed = seed;
  connect.transitionStateSearch.seed = seed;
}

void OptimSettings::check() const {
  connect.check();
  try {
    network.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("network: ") + e.what());
  }
  try {
    endpointMinimiser.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("endpoint minimiser: ") + e.what());
  }
  characterisation.check();
}

void raiseDnebRandomOrientations(DnebParams& dneb, int n) {
  dneb.alignment.randomOrientations =
      std::max(n, DnebParams::thoroughAlignment().randomOrientations);
}

OptimSettings optimKeywordDefaults() {
  OptimSettings s;
  // OPTIM's switches are off unless their keyword is present.
  s.network.alignment.permutations = false;
  s.connect.dneb.alignment.permutations = false;
  s.reoptimiseEndpoints = false;
  s.endpointMinimiser = s.connect.descent.minimiser;
  s.applySeed();
  return s;
}

OptimSettings optimLj38ExampleSettings() {
  OptimSettings s;
  ConnectParams& c = s.connect;
  c.maxCycles = 100;  // NEWCONNECT 100 1 20.0 20.0 30 0.0 0.025
  c.maxTriesPerPair = 1;
  c.dneb.imageDensity = 20.0;
  c.dneb.iterationDensity = 20.0;
  c.dneb.maxImages = 30;
  c.dneb.rmsTolerance = 0.025;
  c.firstImages = 50;  // NEWNEB 50 500 0.025
  c.firstIterations = 500;
  c.dneb.springConstant = 10.0;             // NEBK 10.0
  c.distancePower = 1.0;                    // DIJKSTRA 1
  s.network.alignment.permutations = true;  // PERMDIST 0.01D0
  c.dneb.alignment.permutations = true;
  // RANROT 5; the DNEB keeps its thorough endpoint alignment (DnebParams::thoroughAlignment).
  s.network.alignment.randomOrientations = 5;
  s.network.energyTolerance = 1e-6;   // EDIFFTOL 1.0D-6
  s.network.geometryTolerance = 0.2;  // GEOMDIFFTOL 0.2
  LbfgsParams& m = c.descent.minimiser;
  m.rmsTolerance = 1e-6;   // BFGSMIN 1.0D-6
  m.historySize = 10;      // UPDATES 10 10
  m.maxIterations = 5000;  // BFGSSTEPS 5000
  m.maxStep = 0.2;         // MAXBFGS 0.2 0.2
  c.transitionStateSearch.tangentSpace.historySize = 10;
  c.transitionStateSearch.tangentSpace.maxStep = 0.2;
  c.descent.pushoff = 0.02;      // PUSHOFF 0.02
  s.reoptimiseEndpoints = true;  // REOPTIMISEENDPOINTS
  s.endpointMinimiser = m;
  c.transitionStateSearch.maxIterations = 200;                    // STEPS 200
  c.transitionStateSearch.rayleighRitz.lbfgs.maxIterations = 50;  // BFGSTS 50 3 25 0.0001
  c.transitionStateSearch.tangentIterationsBefore = 3;
  c.transitionStateSearch.tangentIterationsAfter = 25;
  c.transitionStateSearch.rayleighRitz.lbfgs.rmsTolerance = 1e-4;
  c.transitionStateSearch.initialUphillStep = 0.1;  // MAXSTEP 0.1
  c.transitionStateSearch.maxUphillStep = 0.2;      // MAXMAX 0.2
  c.transitionStateSearch.trustRatio = 0.2;         // TRAD 0.2
  s.applySeed();
  return s;
}

OptimSettings optimAmberDefaultSettings() {
  OptimSettings s;  // hybrid EF, Rayleigh-Ritz and L-BFGS: the library defaults of seed 001 3.3
  ConnectParams& c = s.connect;
  c.maxCycles = 50;  // NEWCONNECT 50 3 4.0 30.0 30
  c.maxTriesPerPair = 3;
  c.dneb.imageDensity = 4.0;  // images per Angstrom of aligned endpoint distance
  c.dneb.iterationDensity = 30.0;
  c.dneb.maxImages = 30;
  c.firstImages = 10;  // seed 001 section 3.3: 10 images, 300 iterations, m = 4
  c.firstIterations = 300;
  c.dneb.historySize = 4;
  c.dneb.rmsTolerance = 0.01;    // kcal/mol/A
  c.dneb.springConstant = 10.0;  // kcal/mol/A^2
  // An image 100 kcal/mol below both endpoints is a hydroxyl hydrogen falling onto an oxygen
  // (no Lennard-Jones repulsion on AMBER's HO), not an intermediate minimum.
  c.dneb.coldFusionDrop = 100.0;
  // Chiral molecules: no inversion; permutations only within perm.allow groups (optim_main).
  for (AlignmentParams* a : {&s.network.alignment, &c.dneb.alignment}) {
    a->inversion = false;
    a->permutations = false;
  }
  s.network.energyTolerance = 1e-4;   // EDIFFTOL, kcal/mol
  s.network.geometryTolerance = 0.1;  // GEOMDIFFTOL, Angstrom
  LbfgsParams& m = c.descent.minimiser;
  m.rmsTolerance = 1e-5;  // BFGSMIN, kcal/mol/A
  m.historySize = 10;
  m.maxIterations = 20000;
  m.maxStep = 0.4;           // Angstrom
  c.descent.pushoff = 0.05;  // Angstrom
  s.reoptimiseEndpoints = true;
  s.endpointMinimiser = m;
  // The Hessian of a stationary point is a finite-difference one (NumericalHessian): 6N gradient
  // calls and an O((3N)^3) eigensolver, seconds at a few hundred atoms.
  s.characterisation.maxHessianAtoms = 250;
  s.characterisation.pointGroup.distanceTolerance = 1e-2;  // Angstrom
  s.applySeed();
  return s;
}

namespace {

// ---- values: every option is read as a string and converted here, so that the command line and
// the config file accept the same syntax (Fortran D exponents included) and give the same
// messages. A converter throws std::invalid_argument with what was expected; the caller adds where.

std::string quoted(const std::string& s) { return quoteInput(s, 200); }  // escapes raw bytes

long long integerValue(const std::string& s, long long minimum, long long maximum) {
  const auto v = parseFortranInteger(s);
  if (!v || *v < minimum || *v > maximum) {
    std::string range = "an integer >= " + std::to_string(minimum);
    if (maximum < 2147483647LL) range += " and <= " + std::to_string(maximum);
    throw std::invalid_argument("expected " + range + ", found " + quoted(s));
  }
  return *v;
}

int intValue(const std::string& s, int minimum) {
  return static_cast<int>(integerValue(s, minimum, 2147483647LL));
}

enum class Bound { NonNegative, Positive };

double realValue(const std::string& s, Bound bound) {
  const auto v = parseFortranReal(s);
  const char* expected = bound == Bound::Positive ? "a number > 0" : "a number >= 0";
  if (!v || (bound == Bound::Positive && *v <= 0.0) || (bound == Bound::NonNegative && *v < 0.0))
    throw std::invalid_argument(std::string("expected ") + expected + ", found " + quoted(s));
  return *v;
}

bool boolValue(const std::string& s) {
  std::string lower = s;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true" || lower == "yes" || lower == "on" || lower == "1") return true;
  if (lower == "false" || lower == "no" || lower == "off" || lower == "0") return false;
  throw std::invalid_argument("expected yes or no, found " + quoted(s));
}

std::string existingFile(const std::string& s) {
  std::error_code ec;
  if (s.empty()) throw std::invalid_argument("expected a file name, found nothing");
  if (!std::filesystem::exists(s, ec)) throw std::invalid_argument("no such file " + quoted(s));
  if (!std::filesystem::is_regular_file(s, ec))
    throw std::invalid_argument(quoted(s) + " is not a regular file");
  return s;
}

std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

std::string yesNo(bool v) { return v ? "yes" : "no"; }

// ---- the option table: the single list behind Boost's options_description, --help and
// optimOptionNames(). Units are reduced Lennard-Jones units (energy epsilon, length sigma).

using Apply = void (*)(const std::string&, OptimRunConfig&);
using DefaultText = std::string (*)(const OptimRunConfig&);

struct OptionSpec {
  const char* section;      // heading in --help
  const char* name;         // long name
  const char* valueName;    // nullptr: a switch (no value on the command line)
  const char* description;  // with the unit and the odata keyword
  DefaultText defaultText;  // nullptr: no default shown
  Apply apply;              // nullptr: handled by parseOptimCommandLine itself
};

ConnectParams& connectOf(OptimRunConfig& c) { return c.settings.connect; }
HybridEigenvectorFollowingParams& searchOf(OptimRunConfig& c) {
  return c.settings.connect.transitionStateSearch;
}
const HybridEigenvectorFollowingParams& searchOf(const OptimRunConfig& c) {
  return c.settings.connect.transitionStateSearch;
}

const std::vector<OptionSpec>& optionTable() {
  static const std::vector<OptionSpec> specs = {
      {"General", "help", nullptr, "print this help and exit", nullptr, nullptr},
      {"General", "version", nullptr, "print the version and exit", nullptr, nullptr},
      {"General", "config", "FILE",
       "INI file of these options, `key = value` per line, `#` comments (paths in it are "
       "relative to the working directory); the command line overrides it",
       nullptr, nullptr},
      {"General", "odata", "FILE",
       "OPTIM `odata` keyword file (docs/optim-keywords.md); replaces the built-in defaults by "
       "the keyword defaults (PERMDIST and REOPTIMISEENDPOINTS off unless given); its POINTS "
       "block is the start; --config and the command line override it",
       nullptr, nullptr},

      {"System", "lj", "N",
       "number of atoms of the Lennard-Jones cluster; must match the endpoint files",
       [](const OptimRunConfig& c) {
         return c.ljAtoms ? std::to_string(c.ljAtoms) : std::string("from the endpoints");
       },
       [](const std::string& v, OptimRunConfig& c) {
         c.ljAtoms = static_cast<std::size_t>(integerValue(v, 2, 100000000));
       }},
      {"System", "start", "FILE",
       "first endpoint (sigma): XYZ, or GMIN's `coords` with 3 numbers per line; molecules "
       "(Angstrom): AMBER inpcrd/rst7, or XYZ when the name ends in .xyz",
       [](const OptimRunConfig&) {
         return std::string("odata POINTS, else --inpcrd, else the LJ7 pentagonal bipyramid");
       },
       [](const std::string& v, OptimRunConfig& c) { c.startFile = existingFile(v); }},
      {"System", "finish", "FILE", "second endpoint (sigma), same formats (OPTIM's `finish`)",
       [](const OptimRunConfig&) { return std::string("the LJ7 capped octahedron"); },
       [](const std::string& v, OptimRunConfig& c) { c.finishFile = existingFile(v); }},
      {"System", "backend", "cpu|cuda", "where energies and gradients are computed",
       [](const OptimRunConfig& c) { return backendName(c.backend); },
       [](const std::string& v, OptimRunConfig& c) { c.backend = parseBackend(v); }},
      {"System", "lbfgs-backend", "cpu|gpu",
       "where the L-BFGS vectors of the eigenvector search, the tangent-space minimisation, the "
       "descents and the endpoint minimisations live: cpu (host) or gpu (device: directions with "
       "long histories cost little there; coordinates and gradient still cross to the host once "
       "per call for the projections). DNEB bands stay on the host",
       [](const OptimRunConfig& c) { return lbfgsBackendName(c.lbfgsBackend); },
       [](const std::string& v, OptimRunConfig& c) { c.lbfgsBackend = parseLbfgsBackend(v); }},
      {"System", "rigid", "FILE",
       "local rigid bodies: GMIN-style GROUP blocks of 1-based atom indices "
       "(docs/rigid-bodies.md); DNEB and hybrid EF then work in rigid coordinates with "
       "distances measured in them",
       [](const OptimRunConfig&) { return std::string("none (all atoms atomistic)"); },
       [](const std::string& v, OptimRunConfig& c) { c.rigidFile = existingFile(v); }},
      {"System", "precision", "double|mixed",
       "arithmetic of the CUDA AMBER-GB pair terms: double (all FP64; for quenches to RMS 1e-5) or "
       "mixed (pair arithmetic in FP32, sums in FP64; for dynamics and loose quenches). Transition "
       "states need double: the Rayleigh-Ritz eigenvector search differences gradients 1e-6 A "
       "apart, and they must converge to RMS 1e-5",
       [](const OptimRunConfig& c) { return precisionName(c.precision); },
       [](const std::string& v, OptimRunConfig& c) { c.precision = parsePrecision(v); }},

      {"Molecules (AMBER, kcal/mol and Angstrom)", "prmtop", "FILE",
       "AMBER topology: connect minima of a molecule on the AMBER force field with generalized "
       "Born solvent; epsilon and sigma in this help then read kcal/mol and Angstrom, and the "
       "defaults change (without --odata) to NEWCONNECT 50 3 4.0 30.0 30, first DNEB 10 images "
       "300 iterations RMS 0.01, EDIFFTOL 1.0D-4, GEOMDIFFTOL 0.1, BFGSMIN 1.0D-5, MAXBFGS 0.4, "
       "PUSHOFF 0.05, hybrid EF as seed 001 section 3.3; alignment without inversion",
       [](const OptimRunConfig&) { return std::string("none (Lennard-Jones)"); },
       [](const std::string& v, OptimRunConfig& c) { c.prmtopFile = existingFile(v); }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "inpcrd", "FILE",
       "AMBER coordinates (inpcrd/rst7, Angstrom) of the topology: the start when no --start is "
       "given, and the reference handedness of the stereocentres",
       [](const OptimRunConfig&) { return std::string("none, --start is the reference"); },
       [](const std::string& v, OptimRunConfig& c) { c.inpcrdFile = existingFile(v); }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "igb", "1|2|5",
       "generalized Born model: 1 HCT, 2 OBC-I, 5 OBC-II",
       [](const OptimRunConfig& c) { return std::to_string(c.amber.igb); },
       [](const std::string& v, OptimRunConfig& c) {
         c.amber.igb = static_cast<int>(integerValue(v, 1, 5));
         if (c.amber.igb != 1 && c.amber.igb != 2 && c.amber.igb != 5)
           throw std::invalid_argument("expected 1, 2 or 5, found " + quoted(v));
       }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "saltcon", "M",
       "salt concentration (mol/L), Debye-Hueckel screening of GB",
       [](const OptimRunConfig& c) { return number(c.amber.saltcon); },
       [](const std::string& v, OptimRunConfig& c) {
         c.amber.saltcon = realValue(v, Bound::NonNegative);
       }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "rgbmax", "A",
       "cutoff of the Born-radius sums (Angstrom), AMBER's rgbmax",
       [](const OptimRunConfig& c) { return number(c.amber.rgbmax); },
       [](const std::string& v, OptimRunConfig& c) {
         c.amber.rgbmax = realValue(v, Bound::Positive);
       }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "perm-allow", "FILE",
       "OPTIM perm.allow file: groups of interchangeable atoms (1-based; first line the number "
       "of groups, then per group 'SIZE NSWAP' and SIZE x (1 + NSWAP) atom indices); minimum "
       "distances then minimise over permutations within these groups [PERMDIST with perm.allow]",
       [](const OptimRunConfig&) { return std::string("none, no permutations for molecules"); },
       [](const std::string& v, OptimRunConfig& c) { c.permAllowFile = existingFile(v); }},

      {"Connect", "max-cycles", "N", "connect cycles before giving up [NEWCONNECT 1st]",
       [](const OptimRunConfig& c) { return std::to_string(c.settings.connect.maxCycles); },
       [](const std::string& v, OptimRunConfig& c) { connectOf(c).maxCycles = intValue(v, 1); }},
      {"Connect", "max-tries", "N", "DNEB attempts per pair of minima [NEWCONNECT 2nd]",
       [](const OptimRunConfig& c) { return std::to_string(c.settings.connect.maxTriesPerPair); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).maxTriesPerPair = intValue(v, 1);
       }},
      {"Connect", "image-density", "D",
       "DNEB images per unit endpoint distance (1/sigma) [NEWCONNECT 3rd]",
       [](const OptimRunConfig& c) { return number(c.settings.connect.dneb.imageDensity); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).dneb.imageDensity = realValue(v, Bound::Positive);
       }},
      {"Connect", "iteration-density", "D", "DNEB iterations per image [NEWCONNECT 4th]",
       [](const OptimRunConfig& c) { return number(c.settings.connect.dneb.iterationDensity); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).dneb.iterationDensity = realValue(v, Bound::Positive);
       }},
      {"Connect", "max-images", "N", "cap on the DNEB images [NEWCONNECT 5th]",
       [](const OptimRunConfig& c) { return std::to_string(c.settings.connect.dneb.maxImages); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).dneb.maxImages = intValue(v, 1);
       }},
      {"Connect", "neb-rms", "G",
       "RMS band gradient that ends a DNEB run (epsilon/sigma) [NEWCONNECT 7th, NEWNEB 3rd]",
       [](const OptimRunConfig& c) { return number(c.settings.connect.dneb.rmsTolerance); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).dneb.rmsTolerance = realValue(v, Bound::Positive);
       }},
      {"Connect", "first-images", "N",
       "images of the first DNEB run (0 = scaled with the distance) [NEWNEB 1st]",
       [](const OptimRunConfig& c) { return std::to_string(c.settings.connect.firstImages); },
       [](const std::string& v, OptimRunConfig& c) { connectOf(c).firstImages = intValue(v, 0); }},
      {"Connect", "first-iterations", "N",
       "iterations of the first DNEB run (0 = scaled) [NEWNEB 2nd]",
       [](const OptimRunConfig& c) { return std::to_string(c.settings.connect.firstIterations); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).firstIterations = intValue(v, 0);
       }},
      {"Connect", "spring-constant", "K", "DNEB spring constant (epsilon/sigma^2) [NEBK]",
       [](const OptimRunConfig& c) { return number(c.settings.connect.dneb.springConstant); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).dneb.springConstant = realValue(v, Bound::NonNegative);
       }},
      {"Connect", "dijkstra-power", "P",
       "a missing link costs distance^P in the choice of the next pair [DIJKSTRA]",
       [](const OptimRunConfig& c) { return number(c.settings.connect.distancePower); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).distancePower = realValue(v, Bound::Positive);
       }},
      {"Connect", "permutations", "yes|no",
       "minimum distances over permutations of the atoms too [PERMDIST]; molecules: only within "
       "the --perm-allow groups, which it needs",
       [](const OptimRunConfig& c) { return yesNo(c.settings.network.alignment.permutations); },
       [](const std::string& v, OptimRunConfig& c) {
         c.settings.network.alignment.permutations = boolValue(v);
         connectOf(c).dneb.alignment.permutations = c.settings.network.alignment.permutations;
       }},
      {"Connect", "random-orientations", "N",
       "random starting orientations of the alignment [RANROT]; the DNEB's endpoint alignment "
       "keeps at least 256",
       [](const OptimRunConfig& c) {
         return std::to_string(c.settings.network.alignment.randomOrientations);
       },
       [](const std::string& v, OptimRunConfig& c) {
         c.settings.network.alignment.randomOrientations = intValue(v, 0);
         raiseDnebRandomOrientations(connectOf(c).dneb, intValue(v, 0));
       }},
      {"Connect", "cold-fusion", "DE",
       "reject a DNEB step that takes an image more than DE below the lower endpoint (epsilon; "
       "OPTIM's COLDFUSION, relative); 0 = off",
       [](const OptimRunConfig& c) {
         const double d = c.settings.connect.dneb.coldFusionDrop;
         return std::isfinite(d) ? number(d) : std::string("off; molecules 100");
       },
       [](const std::string& v, OptimRunConfig& c) {
         const double d = realValue(v, Bound::NonNegative);
         connectOf(c).dneb.coldFusionDrop = d > 0.0 ? d : std::numeric_limits<double>::infinity();
       }},
      {"Connect", "edifftol", "DE",
       "stationary points closer in energy may be the same (epsilon) [EDIFFTOL]",
       [](const OptimRunConfig& c) { return number(c.settings.network.energyTolerance); },
       [](const std::string& v, OptimRunConfig& c) {
         c.settings.network.energyTolerance = realValue(v, Bound::NonNegative);
       }},
      {"Connect", "geomdifftol", "D",
       "... and are the same when also closer than D after alignment (sigma) [GEOMDIFFTOL]",
       [](const OptimRunConfig& c) { return number(c.settings.network.geometryTolerance); },
       [](const std::string& v, OptimRunConfig& c) {
         c.settings.network.geometryTolerance = realValue(v, Bound::NonNegative);
       }},

      {"Transition-state search", "ts-steps", "N",
       "eigenvector-following iterations per search [STEPS]",
       [](const OptimRunConfig& c) { return std::to_string(searchOf(c).maxIterations); },
       [](const std::string& v, OptimRunConfig& c) { searchOf(c).maxIterations = intValue(v, 1); }},
      {"Transition-state search", "rr-iterations", "N",
       "Rayleigh-Ritz iterations per eigenvector search [BFGSTS 1st]",
       [](const OptimRunConfig& c) {
         return std::to_string(searchOf(c).rayleighRitz.lbfgs.maxIterations);
       },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).rayleighRitz.lbfgs.maxIterations = intValue(v, 1);
       }},
      {"Transition-state search", "tangent-iterations-before", "N",
       "tangent-space iterations while the eigenvector still turns [BFGSTS 2nd]",
       [](const OptimRunConfig& c) { return std::to_string(searchOf(c).tangentIterationsBefore); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).tangentIterationsBefore = intValue(v, 1);
       }},
      {"Transition-state search", "tangent-iterations-after", "N",
       "tangent-space iterations once it has converged [BFGSTS 3rd]",
       [](const OptimRunConfig& c) { return std::to_string(searchOf(c).tangentIterationsAfter); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).tangentIterationsAfter = intValue(v, 1);
       }},
      {"Transition-state search", "rr-rms", "G",
       "RMS Rayleigh-Ritz gradient ending an eigenvector search (epsilon/sigma^2) [BFGSTS 4th]",
       [](const OptimRunConfig& c) { return number(searchOf(c).rayleighRitz.lbfgs.rmsTolerance); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).rayleighRitz.lbfgs.rmsTolerance = realValue(v, Bound::Positive);
       }},
      {"Transition-state search", "max-step", "DX", "first maximum uphill step (sigma) [MAXSTEP]",
       [](const OptimRunConfig& c) { return number(searchOf(c).initialUphillStep); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).initialUphillStep = realValue(v, Bound::Positive);
       }},
      {"Transition-state search", "max-max", "DX", "largest maximum uphill step (sigma) [MAXMAX]",
       [](const OptimRunConfig& c) { return number(searchOf(c).maxUphillStep); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).maxUphillStep = realValue(v, Bound::Positive);
       }},
      {"Transition-state search", "min-step", "DX", "smallest maximum uphill step (sigma)",
       [](const OptimRunConfig& c) { return number(searchOf(c).minUphillStep); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).minUphillStep = realValue(v, Bound::Positive);
       }},
      {"Transition-state search", "trust-ratio", "R",
       "relative error of the predicted gradient change before the uphill step shrinks "
       "(dimensionless) [TRAD]",
       [](const OptimRunConfig& c) { return number(searchOf(c).trustRatio); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).trustRatio = realValue(v, Bound::Positive);
       }},
      {"Transition-state search", "ts-rms", "G",
       "a transition state needs an RMS gradient below G (epsilon/sigma)",
       [](const OptimRunConfig& c) { return number(searchOf(c).rmsTolerance); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).rmsTolerance = realValue(v, Bound::Positive);
       }},
      {"Transition-state search", "ts-step-tolerance", "DX",
       "... and a last uphill step below DX (sigma)",
       [](const OptimRunConfig& c) { return number(searchOf(c).stepTolerance); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).stepTolerance = realValue(v, Bound::Positive);
       }},

      {"Minimisation (L-BFGS)", "bfgs-rms", "G",
       "RMS gradient ending the descents from transition states and the endpoint minimisations "
       "(epsilon/sigma) [BFGSMIN]",
       [](const OptimRunConfig& c) {
         return number(c.settings.connect.descent.minimiser.rmsTolerance);
       },
       [](const std::string& v, OptimRunConfig& c) {
         const double g = realValue(v, Bound::Positive);
         connectOf(c).descent.minimiser.rmsTolerance = g;
         c.settings.endpointMinimiser.rmsTolerance = g;
       }},
      {"Minimisation (L-BFGS)", "bfgs-steps", "N",
       "iteration cap of those minimisations "
       "[BFGSSTEPS]",
       [](const OptimRunConfig& c) {
         return std::to_string(c.settings.connect.descent.minimiser.maxIterations);
       },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).descent.minimiser.maxIterations = intValue(v, 1);
         c.settings.endpointMinimiser.maxIterations = intValue(v, 1);
       }},
      {"Minimisation (L-BFGS)", "lbfgs-m", "M",
       "L-BFGS history size of those minimisations "
       "[UPDATES 1st]",
       [](const OptimRunConfig& c) {
         return std::to_string(c.settings.connect.descent.minimiser.historySize);
       },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).descent.minimiser.historySize = intValue(v, 1);
         c.settings.endpointMinimiser.historySize = intValue(v, 1);
       }},
      {"Minimisation (L-BFGS)", "tangent-lbfgs-m", "M",
       "L-BFGS history size of the tangent-space minimisation [UPDATES 2nd]",
       [](const OptimRunConfig& c) { return std::to_string(searchOf(c).tangentSpace.historySize); },
       [](const std::string& v, OptimRunConfig& c) {
         searchOf(c).tangentSpace.historySize = intValue(v, 1);
       }},
      {"Minimisation (L-BFGS)", "max-bfgs-step", "DX",
       "L-BFGS step cap of those minimisations (sigma) [MAXBFGS 1st]",
       [](const OptimRunConfig& c) { return number(c.settings.connect.descent.minimiser.maxStep); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).descent.minimiser.maxStep = realValue(v, Bound::Positive);
         c.settings.endpointMinimiser.maxStep = realValue(v, Bound::Positive);
       }},
      {"Minimisation (L-BFGS)", "pushoff", "D",
       "step off a transition state along its eigenvector before descending (sigma) [PUSHOFF]",
       [](const OptimRunConfig& c) { return number(c.settings.connect.descent.pushoff); },
       [](const std::string& v, OptimRunConfig& c) {
         connectOf(c).descent.pushoff = realValue(v, Bound::Positive);
       }},
      {"Minimisation (L-BFGS)", "reoptimise-endpoints", "yes|no",
       "minimise the endpoints first; no: they must be minima already [REOPTIMISEENDPOINTS]",
       [](const OptimRunConfig& c) { return yesNo(c.settings.reoptimiseEndpoints); },
       [](const std::string& v, OptimRunConfig& c) {
         c.settings.reoptimiseEndpoints = boolValue(v);
       }},

      {"Characterisation", "hessian-max-atoms", "N",
       "finite-difference Hessian (eigenvalues, log product for min.data/ts.data) only up to N "
       "atoms; 0 = never [NOFRQS = 0]",
       [](const OptimRunConfig& c) {
         return std::to_string(c.settings.characterisation.maxHessianAtoms);
       },
       [](const std::string& v, OptimRunConfig& c) {
         c.settings.characterisation.maxHessianAtoms =
             static_cast<std::size_t>(integerValue(v, 0, 100000000));
       }},
      {"Characterisation", "symmetry-tolerance", "D",
       "point groups: images of atoms within D of atoms (sigma)",
       [](const OptimRunConfig& c) {
         return number(c.settings.characterisation.pointGroup.distanceTolerance);
       },
       [](const std::string& v, OptimRunConfig& c) {
         c.settings.characterisation.pointGroup.distanceTolerance = realValue(v, Bound::Positive);
       }},

      {"Output", "output", "DIR",
       "directory for the results (created if missing): network.h5 (unless --database), "
       "path.info",
       [](const OptimRunConfig& c) { return "./" + c.outputDir; },
       [](const std::string& v, OptimRunConfig& c) {
         if (v.empty()) throw std::invalid_argument("expected a directory name, found nothing");
         c.outputDir = v;
       }},
      {"Output", "database", "FILE",
       "transition-network HDF5 file to extend: read when it exists (a gmin minima.h5 too), "
       "rewritten with everything found",
       [](const OptimRunConfig&) { return std::string("none, DIR/network.h5 is written"); },
       [](const std::string& v, OptimRunConfig& c) {
         if (v.empty()) throw std::invalid_argument("expected a file name, found nothing");
         c.databaseFile = v;
       }},
      {"Output", "seed", "N",
       "random seed of the alignments' orientations and first eigenvector guesses",
       [](const OptimRunConfig& c) { return std::to_string(c.settings.seed); },
       [](const std::string& v, OptimRunConfig& c) {
         c.settings.seed = static_cast<std::uint64_t>(integerValue(v, 0, 9223372036854775807LL));
       }},
      {"Output", "quiet", nullptr, "print only the three result lines",
       [](const OptimRunConfig& c) { return std::string(c.quiet ? "on" : "off"); },
       [](const std::string& v, OptimRunConfig& c) { c.quiet = boolValue(v); }},
  };
  return specs;
}

const OptionSpec* findSpec(const std::string& name) {
  for (const auto& spec : optionTable())
    if (name == spec.name) return &spec;
  return nullptr;
}

bool isCommandOnly(const std::string& name) {
  return name == "help" || name == "version" || name == "config";
}

constexpr std::size_t kHelpIndent = 32;
constexpr std::size_t kHelpWidth = 100;

// Word-wraps an option description into the column right of the option names; `tail` (the
// default) is never split.
std::string wrap(const std::string& text, const std::string& tail) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  if (!tail.empty()) words.push_back(tail);
  std::string out;
  std::size_t column = kHelpIndent;
  for (const auto& word : words) {
    if (column > kHelpIndent && column + 1 + word.size() > kHelpWidth) {
      out += "\n" + std::string(kHelpIndent, ' ');
      column = kHelpIndent;
    } else if (column > kHelpIndent) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out;
}

std::string helpText() {
  const OptimRunConfig defaults;
  std::ostringstream out;
  out << "optim (landscape " LANDSCAPE_VERSION
         "): OPTIM-style connect runs: a chain of minima and transition states\n"
         "between two minima of a Lennard-Jones cluster or an AMBER-GB molecule (DNEB, hybrid\n"
         "eigenvector-following, Dijkstra's choice of the next pair), stored in a\n"
         "transition-network database.\n"
         "Usage: optim [options]\n"
         "       optim --start A.xyz --finish B.xyz [--lj N]\n"
         "       optim --odata odata --finish finish        (OPTIM's input files)\n"
         "       optim --prmtop mol.parm7 --start A.rst7 --finish B.rst7 [--perm-allow "
         "perm.allow]\n"
         "\n"
         "Units: reduced Lennard-Jones units, energy epsilon and length sigma; for molecules\n"
         "(--prmtop) read kcal/mol for epsilon and Angstrom for sigma throughout.\n"
         "Molecules are aligned by translation and rotation only (no inversion: they are chiral),\n"
         "with permutations only within the --perm-allow groups.\n"
         "With no options optim connects the two lowest LJ7 minima (pentagonal bipyramid,\n"
         "-16.505384, to capped octahedron, -15.935043), built in code, with the settings of\n"
         "OPTIM's LJ38 example (the defaults below; --prmtop lists the molecule defaults).\n"
         "Output goes to ./optim-out by default (--output DIR): network.h5 and path.info.\n"
         "The last three lines say whether the endpoints were connected, how many transition\n"
         "states the path has and the highest transition-state energy on it. Exit status 0 when\n"
         "connected, 2 when not, 1 on an error.\n"
         "Precedence: command line > --config FILE > --odata FILE > built-in defaults.\n"
         "Reals may use Fortran exponents (1.0D-6). [KEYWORD] is the OPTIM odata keyword.\n";
  std::string section;
  for (const auto& spec : optionTable()) {
    if (section != spec.section) {
      section = spec.section;
      out << "\n" << section << ":\n";
    }
    std::string left = std::string("  --") + spec.name;
    if (std::string(spec.name) == "help") left += ", -h";
    if (spec.valueName) left += std::string(" ") + spec.valueName;
    out << left;
    if (left.size() < kHelpIndent)
      out << std::string(kHelpIndent - left.size(), ' ');
    else
      out << "\n" << std::string(kHelpIndent, ' ');
    const std::string tail =
        spec.defaultText ? "(default: " + spec.defaultText(defaults) + ")" : std::string();
    out << wrap(spec.description, tail) << "\n";
  }
  return out.str();
}

po::options_description boostOptions() {
  po::options_description desc;
  for (const auto& spec : optionTable()) {
    const std::string name = std::string(spec.name) == "help" ? "help,h" : spec.name;
    if (spec.valueName)
      desc.add_options()(name.c_str(), po::value<std::string>()->value_name(spec.valueName),
                         spec.description);
    else
      desc.add_options()(name.c_str(),
                         po::value<std::string>()->zero_tokens()->implicit_value("true"),
                         spec.description);
  }
  return desc;
}

// Words on the command line that belong to no option are collected under this name, so that the
// error can quote the first of them.
constexpr const char* kPositional = "positional-argument";

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

// Reads the INI file ourselves so that every error names its line; the values then go through
// po::store like the command line's, which keeps the command line's values (first store wins).
void storeConfigFile(const std::string& path, const po::options_description& desc,
                     po::variables_map& vm, std::map<std::string, std::string>& origins) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open config file");
  po::parsed_options parsed(&desc);
  std::map<std::string, std::size_t> seenOnLine;
  std::string text;
  std::size_t lineNumber = 0;
  while (std::getline(in, text)) {
    ++lineNumber;
    const std::string where = path + ":" + std::to_string(lineNumber) + ": ";
    const std::string line = trim(text.substr(0, text.find('#')));
    if (line.empty()) continue;
    if (line.front() == '[')
      throw std::runtime_error(where + "sections are not supported, found " + quoted(line));
    const auto eq = line.find('=');
    if (eq == std::string::npos)
      throw std::runtime_error(where + "expected 'key = value', found " + quoted(line));
    const std::string key = trim(line.substr(0, eq));
    const std::string value = trim(line.substr(eq + 1));
    if (key.empty())
      throw std::runtime_error(where + "expected 'key = value', found " + quoted(line));
    const OptionSpec* spec = findSpec(key);
    if (!spec || isCommandOnly(key))
      throw std::runtime_error(
          where + "unknown option " + quoted(key) +
          (spec ? " (command line only)" : " (optim --help lists the options)"));
    if (auto it = seenOnLine.find(key); it != seenOnLine.end())
      throw std::runtime_error(where + quoted(key) + " is already set on line " +
                               std::to_string(it->second));
    seenOnLine[key] = lineNumber;
    if (spec->valueName && value.empty())
      throw std::runtime_error(where + key + ": expected a value after '='");
    if (vm.count(key)) continue;  // the command line wins
    parsed.options.emplace_back(key, std::vector<std::string>{value.empty() ? "true" : value});
    origins[key] = path + ":" + std::to_string(lineNumber) + ": " + key;
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  po::store(parsed, vm);
}

std::string valueOf(const po::variables_map& vm, const std::string& name) {
  return vm[name].as<std::string>();
}

// The molecule's options together: a start (--start, odata POINTS or --inpcrd) and --finish, no
// --lj, and permutations only with the groups of a perm.allow file.
void checkMoleculeOptions(OptimRunConfig& config, const po::variables_map& vm,
                          std::map<std::string, std::string>& origins) {
  if (vm.count("lj")) {
    throw std::runtime_error(origins["lj"] +
                             " cannot be combined with --prmtop (the topology "
                             "gives the atoms)");
  }
  if (config.finishFile.empty()) {
    throw std::runtime_error("command line: --prmtop needs --finish FILE for the second endpoint");
  }
  if (config.startFile.empty() && config.odataPoints.empty() && config.inpcrdFile.empty()) {
    throw std::runtime_error(
        "command line: --prmtop needs --start FILE or --inpcrd FILE for the first endpoint");
  }
  try {
    config.amber.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("command line: AMBER-GB parameters: ") + e.what());
  }
  // Proteins are chiral: a mirror image is another molecule, never the same minimum.
  AlignmentParams& network = config.settings.network.alignment;
  AlignmentParams& dneb = config.settings.connect.dneb.alignment;
  network.inversion = dneb.inversion = false;
  if (!config.permAllowFile.empty()) {
    // A perm.allow file asks for permutations, unless --permutations no says otherwise.
    if (!vm.count("permutations")) network.permutations = dneb.permutations = true;
  } else if (network.permutations) {
    const std::string where =
        vm.count("permutations") ? origins["permutations"] : config.odataFile + ": PERMDIST";
    throw std::runtime_error(where +
                             ": permutations of a molecule's atoms need their groups, "
                             "--perm-allow FILE (OPTIM's perm.allow)");
  }
}

}  // namespace

std::vector<std::string> optimOptionNames() {
  std::vector<std::string> names;
  for (const auto& spec : optionTable()) names.emplace_back(spec.name);
  return names;
}

OptimRunConfig parseOptimCommandLine(const std::vector<std::string>& arguments) {
  const po::options_description desc = boostOptions();
  po::variables_map vm;
  std::map<std::string, std::string> origins;

  // ---- the command line ----
  try {
    po::options_description commandLine;
    commandLine.add(desc).add_options()(kPositional, po::value<std::vector<std::string>>());
    po::positional_options_description positional;
    positional.add(kPositional, -1);
    const auto style =
        po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    const po::parsed_options parsed = po::command_line_parser(arguments)
                                          .options(commandLine)
                                          .positional(positional)
                                          .style(style)
                                          .run();
    po::store(parsed, vm);
  } catch (const po::unknown_option& e) {
    throw std::runtime_error("command line: unknown option " + quoted(e.get_option_name()) +
                             " (optim --help lists the options)");
  } catch (const po::error& e) {
    throw std::runtime_error(std::string("command line: ") + e.what());
  }
  if (vm.count(kPositional))
    throw std::runtime_error("command line: unexpected argument " +
                             quoted(vm[kPositional].as<std::vector<std::string>>().front()) +
                             " (options start with --)");
  for (const auto& entry : vm) origins[entry.first] = "command line: --" + entry.first;

  OptimRunConfig config;
  if (vm.count("help")) {
    config.action = OptimRunConfig::Action::Help;
    config.helpText = helpText();
    return config;
  }
  if (vm.count("version")) {
    config.action = OptimRunConfig::Action::Version;
    config.helpText = "optim (landscape " LANDSCAPE_VERSION ")\n";
    return config;
  }

  // ---- the config file, below the command line ----
  if (vm.count("config")) {
    std::string path;
    try {
      path = existingFile(valueOf(vm, "config"));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error("command line: --config: " + std::string(e.what()));
    }
    try {
      storeConfigFile(path, desc, vm, origins);
    } catch (const po::error& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
  }

  // ---- molecules start from their own defaults (unless an odata file gives its keywords) ----
  if (vm.count("prmtop") && !vm.count("odata")) config.settings = optimAmberDefaultSettings();

  // ---- the odata file replaces the built-in defaults ----
  if (vm.count("odata")) {
    std::string path;
    try {
      path = existingFile(valueOf(vm, "odata"));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(origins["odata"] + ": " + e.what());
    }
    // Not readOdataFile(): its check() would run before --config and the command line had their
    // say; the merged parameters are checked once, below.
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open OPTIM odata file");
    config.settings = optimKeywordDefaults();
    config.odataFile = path;
    applyOdataKeywords(in, path, config);  // its messages name the file and line
  }

  // ---- every option that was given, in table order ----
  for (const auto& spec : optionTable()) {
    if (!spec.apply || !vm.count(spec.name)) continue;
    const std::string name = spec.name;
    try {
      spec.apply(valueOf(vm, name), config);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(origins[name] + ": " + e.what());
    }
  }

  if (config.isMolecule()) {
    checkMoleculeOptions(config, vm, origins);
  } else {
    for (const char* name : {"inpcrd", "igb", "saltcon", "rgbmax", "perm-allow"}) {
      if (vm.count(name))
        throw std::runtime_error(origins[name] + " applies to molecules and needs --prmtop");
    }
  }
  if (!config.isMolecule() && config.startFile.empty() != config.finishFile.empty() &&
      config.odataPoints.empty()) {
    throw std::runtime_error(config.startFile.empty()
                                 ? "command line: --finish needs --start (or an odata POINTS "
                                   "block) for the first endpoint"
                                 : "command line: --start needs --finish for the second endpoint");
  }
  if (!config.isMolecule() && !config.odataPoints.empty() && config.finishFile.empty()) {
    throw std::runtime_error(config.odataFile +
                             ": its POINTS block is the first endpoint; give the second with "
                             "--finish FILE");
  }
  if (config.builtInExample() && config.ljAtoms != 0 && config.ljAtoms != 7) {
    throw std::runtime_error("command line: --lj " + std::to_string(config.ljAtoms) +
                             " needs --start and --finish (the built-in example is LJ7)");
  }

  config.settings.applySeed();
  try {
    config.settings.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("invalid parameters: ") + e.what());
  }
  return config;
}

OptimRunConfig parseOptimCommandLine(int argc, const char* const argv[]) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i] ? argv[i] : "");
  return parseOptimCommandLine(arguments);
}

}  // namespace landscape
