#include "src/RunConfig.h"

#include <boost/program_options.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "landscape/formats/CoordinatesFile.h"
#include "src/GminDataFile.h"

#ifndef LANDSCAPE_VERSION
#define LANDSCAPE_VERSION "unknown"
#endif

namespace po = boost::program_options;

namespace landscape {

BasinHoppingParams gminLj38ExampleParams() {
  BasinHoppingParams p;         // keywords the example leaves out keep these defaults
  p.sloppyRms = 5.0e-3;         // SLOPPYCONV 5.0D-3
  p.tightRms = 1.0e-3;          // TIGHTCONV 1.0D-3
  p.energyDifference = 0.003;   // EDIFF 0.003
  p.sloppyMaxIterations = 600;  // MAXIT 600 500
  p.tightMaxIterations = 500;
  p.saveCount = 2;        // SAVE 2
  p.centre = true;        // CENTRE
  p.dumpInterval = 6000;  // DUMPINT 6000
  p.temperature = 1.0;    // TEMPERATURE 1.0
  p.steps = 5000;         // STEPS 5000 1.0
  p.stepSize = 0.40;      // STEP 0.40 0.51
  p.angularThreshold = 0.51;
  p.newRestartSteps = 40;  // NEWRESTART 40
  p.avoidDistance = 4.0;   // AVOID 4.0 20 F
  p.avoidMaxSaved = 20;
  p.avoidReseeds = false;  // the F of AVOID 4.0 20 F
  return p;
}

BasinHoppingParams gminAmberDefaultParams() {
  BasinHoppingParams p;
  p.steps = 100;
  p.temperature = 0.6;
  p.stepSize = 0.3;
  p.angularThreshold = 0.0;
  p.saveCount = 10;
  p.energyDifference = 0.01;
  p.sloppyRms = 1e-2;
  p.sloppyMaxIterations = 20000;
  p.tightRms = 1e-4;
  p.tightMaxIterations = 50000;
  p.container = false;
  p.centre = true;
  return p;
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

enum class Bound { Any, NonNegative, Positive };

double realValue(const std::string& s, Bound bound) {
  const auto v = parseFortranReal(s);
  const char* expected = bound == Bound::Positive      ? "a number > 0"
                         : bound == Bound::NonNegative ? "a number >= 0"
                                                       : "a finite number";
  if (!v || (bound == Bound::Positive && *v <= 0.0) || (bound == Bound::NonNegative && *v < 0.0))
    throw std::invalid_argument(std::string("expected ") + expected + ", found " + quoted(s));
  return *v;
}

bool boolValue(const std::string& s) {
  std::string lower = s;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true" || lower == "yes" || lower == "on" || lower == "1") return true;
  if (lower == "false" || lower == "no" || lower == "off" || lower == "0") return false;
  throw std::invalid_argument("expected true or false, found " + quoted(s));
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

// ---- the option table: the single list behind Boost's options_description, --help and
// gminOptionNames(). Units are reduced Lennard-Jones units (energy epsilon, length sigma).

using Apply = void (*)(const std::string&, GminRunConfig&);
using DefaultText = std::string (*)(const GminRunConfig&);

struct OptionSpec {
  const char* section;      // heading in --help
  const char* name;         // long name; "help,h" style short names are added below
  const char* valueName;    // nullptr: a switch (no value on the command line)
  const char* description;  // with the unit
  DefaultText defaultText;  // nullptr: no default shown
  Apply apply;              // nullptr: handled by parseGminCommandLine itself
};

const std::vector<OptionSpec>& optionTable() {
  static const std::vector<OptionSpec> specs = {
      {"General", "help", nullptr, "print this help and exit", nullptr, nullptr},
      {"General", "version", nullptr, "print the version and exit", nullptr, nullptr},
      {"General", "config", "FILE",
       "INI file of these options, `key = value` per line, `#` comments (paths in it are "
       "relative to the working directory); the command line overrides it",
       nullptr, nullptr},
      {"General", "gmin-data", "FILE",
       "GMIN `data` keyword file (docs/gmin-keywords.md); replaces the built-in defaults by GMIN's "
       "keyword defaults (CENTRE, NEWRESTART, AVOID off unless given); --config and the command "
       "line override it",
       nullptr, nullptr},

      {"System", "lj", "N", "number of atoms of the Lennard-Jones cluster (>= 2)",
       [](const GminRunConfig& c) { return std::to_string(c.ljAtoms); },
       [](const std::string& v, GminRunConfig& c) {
         c.ljAtoms = static_cast<std::size_t>(integerValue(v, 2, 100000000));
         c.ljAtomsGiven = true;
       }},
      {"System", "coords", "FILE",
       "starting coordinates (sigma): XYZ, or GMIN's `coords` with 3 numbers per line",
       [](const GminRunConfig&) { return std::string("none, a random start in the container"); },
       [](const std::string& v, GminRunConfig& c) { c.coordsFile = existingFile(v); }},
      {"System", "backend", "cpu|cuda", "where energies and gradients are computed",
       [](const GminRunConfig& c) { return backendName(c.backend); },
       [](const std::string& v, GminRunConfig& c) { c.backend = parseBackend(v); }},
      {"System", "precision", "double|mixed",
       "arithmetic of the CUDA AMBER-GB pair terms: double (all FP64; for quenches to RMS 1e-5) or "
       "mixed (pair arithmetic in FP32, sums in FP64; for dynamics and loose quenches)",
       [](const GminRunConfig& c) { return precisionName(c.precision); },
       [](const std::string& v, GminRunConfig& c) { c.precision = parsePrecision(v); }},
      {"System", "lbfgs-backend", "cpu|gpu",
       "where the L-BFGS vectors live: cpu (host, with the potential on --backend) or gpu (the "
       "whole minimiser on the device; needs --backend cuda for speed)",
       [](const GminRunConfig& c) { return lbfgsBackendName(c.lbfgsBackend); },
       [](const std::string& v, GminRunConfig& c) { c.lbfgsBackend = parseLbfgsBackend(v); }},

      {"Molecules (AMBER, kcal/mol and Angstrom)", "prmtop", "FILE",
       "AMBER topology: basin-hopping on the AMBER force field with generalized Born solvent "
       "(defaults then: kT 0.6 kcal/mol, step 0.3 A, no container, SAVE 10, EDIFF 0.01, 100 steps)",
       [](const GminRunConfig&) { return std::string("none (Lennard-Jones)"); },
       [](const std::string& v, GminRunConfig& c) { c.prmtopFile = existingFile(v); }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "inpcrd", "FILE",
       "AMBER coordinates (inpcrd/rst7, Angstrom), required with --prmtop",
       nullptr, [](const std::string& v, GminRunConfig& c) { c.inpcrdFile = existingFile(v); }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "igb", "1|2|5",
       "generalized Born model: 1 HCT, 2 OBC-I, 5 OBC-II",
       [](const GminRunConfig& c) { return std::to_string(c.amber.igb); },
       [](const std::string& v, GminRunConfig& c) {
         c.amber.igb = static_cast<int>(integerValue(v, 1, 5));
         if (c.amber.igb != 1 && c.amber.igb != 2 && c.amber.igb != 5)
           throw std::invalid_argument("expected 1, 2 or 5, found " + quoted(v));
       }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "saltcon", "M",
       "salt concentration (mol/L), Debye-Hueckel screening of GB",
       [](const GminRunConfig& c) { return number(c.amber.saltcon); },
       [](const std::string& v, GminRunConfig& c) { c.amber.saltcon = realValue(v, Bound::NonNegative); }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "rgbmax", "A",
       "cutoff of the Born-radius sums (Angstrom), AMBER's rgbmax",
       [](const GminRunConfig& c) { return number(c.amber.rgbmax); },
       [](const std::string& v, GminRunConfig& c) { c.amber.rgbmax = realValue(v, Bound::Positive); }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "energy-only", nullptr,
       "print the energy components of --inpcrd as sander names them (kcal/mol) and the RMS "
       "gradient (kcal/mol/A), then exit",
       nullptr, [](const std::string& v, GminRunConfig& c) { c.energyOnly = boolValue(v); }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "group-rotation", "P",
       "probability per step of rotating each side-chain group about its bond (0 = off)",
       [](const GminRunConfig& c) { return number(c.groupRotationProbability); },
       [](const std::string& v, GminRunConfig& c) {
         c.groupRotationProbability = realValue(v, Bound::NonNegative);
         if (c.groupRotationProbability > 1.0)
           throw std::invalid_argument("expected a probability <= 1, found " + quoted(v));
       }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "group-rotation-angle", "DEG",
       "largest side-chain rotation (degrees)",
       [](const GminRunConfig& c) { return number(c.groupRotationMaxAngle * 180.0 / 3.14159265358979323846); },
       [](const std::string& v, GminRunConfig& c) {
         c.groupRotationMaxAngle = realValue(v, Bound::Positive) * 3.14159265358979323846 / 180.0;
       }},
      {"Molecules (AMBER, kcal/mol and Angstrom)", "no-stereo-checks", nullptr,
       "keep minima whose chirality or peptide cis/trans state changed (rejected by default)",
       nullptr, [](const std::string& v, GminRunConfig& c) { c.stereoChecks = !boolValue(v); }},

      {"SOP coarse-grained protein (kcal/mol, Angstrom)", "sop-pdb", "FILE",
       "PDB file: basin-hopping on the SOP model of its C-alpha beads (seed 000 Appendix B), "
       "starting from the native structure (AMBER-like defaults: kT 0.6 kcal/mol, step 0.3 A)",
       [](const GminRunConfig&) { return std::string("none"); },
       [](const std::string& v, GminRunConfig& c) { c.sopPdbFile = existingFile(v); }},
      {"SOP coarse-grained protein (kcal/mol, Angstrom)", "sop-fene-k", "K",
       "FENE spring constant k (kcal/mol/A^2; 20 = 14 N/m)",
       [](const GminRunConfig& c) { return number(c.sop.feneK); },
       [](const std::string& v, GminRunConfig& c) { c.sop.feneK = realValue(v, Bound::Positive); }},
      {"SOP coarse-grained protein (kcal/mol, Angstrom)", "sop-fene-r0", "A",
       "FENE tolerance R0 (A)", [](const GminRunConfig& c) { return number(c.sop.feneR0); },
       [](const std::string& v, GminRunConfig& c) { c.sop.feneR0 = realValue(v, Bound::Positive); }},
      {"SOP coarse-grained protein (kcal/mol, Angstrom)", "sop-eps-native", "E",
       "native-contact depth eps_n (kcal/mol)",
       [](const GminRunConfig& c) { return number(c.sop.nativeEpsilon); },
       [](const std::string& v, GminRunConfig& c) {
         c.sop.nativeEpsilon = realValue(v, Bound::NonNegative);
       }},
      {"SOP coarse-grained protein (kcal/mol, Angstrom)", "sop-eps-repulsive", "E",
       "repulsion strength eps_r (kcal/mol)",
       [](const GminRunConfig& c) { return number(c.sop.repulsiveEpsilon); },
       [](const std::string& v, GminRunConfig& c) {
         c.sop.repulsiveEpsilon = realValue(v, Bound::NonNegative);
       }},
      {"SOP coarse-grained protein (kcal/mol, Angstrom)", "sop-sigma", "A",
       "repulsion range sigma (A)", [](const GminRunConfig& c) { return number(c.sop.sigma); },
       [](const std::string& v, GminRunConfig& c) { c.sop.sigma = realValue(v, Bound::Positive); }},
      {"SOP coarse-grained protein (kcal/mol, Angstrom)", "sop-native-cutoff", "A",
       "pairs (|i-j| > 2) closer than this in the PDB are native contacts (A)",
       [](const GminRunConfig& c) { return number(c.sop.nativeCutoff); },
       [](const std::string& v, GminRunConfig& c) {
         c.sop.nativeCutoff = realValue(v, Bound::Positive);
       }},
      {"SOP coarse-grained protein (kcal/mol, Angstrom)", "sop-repulsive-cutoff", "A",
       "the repulsion is cut and force-shifted here (A)",
       [](const GminRunConfig& c) { return number(c.sop.repulsiveCutoff); },
       [](const std::string& v, GminRunConfig& c) {
         c.sop.repulsiveCutoff = realValue(v, Bound::Positive);
       }},
      {"SOP coarse-grained protein (kcal/mol, Angstrom)", "sop-chain-break", "A",
       "consecutive C-alpha atoms farther apart than this start a new chain (A)",
       [](const GminRunConfig& c) { return number(c.sop.chainBreakDistance); },
       [](const std::string& v, GminRunConfig& c) {
         c.sop.chainBreakDistance = realValue(v, Bound::Positive);
       }},
      {"Rigid bodies (angle-axis, seed 001 section 2.1)", "rigid", "FILE",
       "local rigid bodies: GMIN-style GROUP blocks of 1-based atom indices (docs/rigid-bodies.md, "
       "tools/make_rigid_bodies); needs --inpcrd or --coords, whose structure fixes the bodies' "
       "shapes; with --lbfgs-backend gpu the rigid transform runs on the device",
       [](const GminRunConfig&) { return std::string("none (all atoms atomistic)"); },
       [](const std::string& v, GminRunConfig& c) { c.rigidFile = existingFile(v); }},
      {"Rigid bodies (angle-axis, seed 001 section 2.1)", "rigid-translation", "A",
       "largest random translation of a rigid body per step (length)",
       [](const GminRunConfig& c) { return number(c.rigidMoves.translation); },
       [](const std::string& v, GminRunConfig& c) {
         c.rigidMoves.translation = realValue(v, Bound::NonNegative);
       }},
      {"Rigid bodies (angle-axis, seed 001 section 2.1)", "rigid-rotation", "DEG",
       "largest random rotation of a rigid body about its centre per step (degrees, <= 180)",
       [](const GminRunConfig& c) {
         return number(c.rigidMoves.rotation * 180.0 / 3.14159265358979323846);
       },
       [](const std::string& v, GminRunConfig& c) {
         c.rigidMoves.rotation = realValue(v, Bound::NonNegative) * 3.14159265358979323846 / 180.0;
       }},
      {"Rigid bodies (angle-axis, seed 001 section 2.1)", "rigid-probability", "P",
       "chance per body per step of a rigid-body move",
       [](const GminRunConfig& c) { return number(c.rigidMoves.probability); },
       [](const std::string& v, GminRunConfig& c) {
         c.rigidMoves.probability = realValue(v, Bound::NonNegative);
       }},

      {"Langevin move", "langevin-steps", "N",
       "overdamped Langevin steps run before every quench (after the Cartesian step; use "
       "--step-size 0 for Langevin-only moves); 0 = off",
       [](const GminRunConfig& c) { return std::to_string(c.langevin.steps); },
       [](const std::string& v, GminRunConfig& c) {
         c.langevin.steps = static_cast<long>(integerValue(v, 0, 100000000));
       }},
      {"Langevin move", "langevin-kt", "KT", "temperature of the Langevin move, kT (energy unit)",
       [](const GminRunConfig& c) { return number(c.langevin.kT); },
       [](const std::string& v, GminRunConfig& c) { c.langevin.kT = realValue(v, Bound::NonNegative); }},
      {"Langevin move", "langevin-dt", "DT",
       "Langevin time step (ps for AMBER, reduced time for LJ)",
       [](const GminRunConfig& c) { return number(c.langevin.timeStep); },
       [](const std::string& v, GminRunConfig& c) { c.langevin.timeStep = realValue(v, Bound::Positive); }},
      {"Langevin move", "langevin-friction", "XI",
       "friction xi (energy x time / length^2)",
       [](const GminRunConfig& c) { return number(c.langevin.friction); },
       [](const std::string& v, GminRunConfig& c) { c.langevin.friction = realValue(v, Bound::Positive); }},
      {"Langevin move", "langevin-generator", "NAME",
       "random-number generator: philox, hybrid-taus, lagged-fibonacci, ran2, lcg (docs/rng.md)",
       [](const GminRunConfig& c) { return rngKindName(c.langevin.generator); },
       [](const std::string& v, GminRunConfig& c) { c.langevin.generator = parseRngKind(v); }},

      {"Basin-hopping", "steps", "N", "basin-hopping steps, quenches after the first [STEPS]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.steps); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.steps = static_cast<long>(integerValue(v, 0, 9223372036854775807LL));
       }},
      {"Basin-hopping", "temperature", "KT", "Metropolis temperature kT (epsilon) [TEMPERATURE]",
       [](const GminRunConfig& c) { return number(c.basinHopping.temperature); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.temperature = realValue(v, Bound::Positive);
       }},
      {"Basin-hopping", "step-size", "DX",
       "initial maximum displacement per coordinate (sigma) [STEP 1st]",
       [](const GminRunConfig& c) { return number(c.basinHopping.stepSize); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.stepSize = realValue(v, Bound::NonNegative);
       }},
      {"Basin-hopping", "angular-threshold", "A",
       "angular move of the most weakly bound atom when its energy exceeds A times the lowest "
       "atom energy (dimensionless, 0 = off) [STEP 2nd]",
       [](const GminRunConfig& c) { return number(c.basinHopping.angularThreshold); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.angularThreshold = realValue(v, Bound::NonNegative);
       }},
      {"Basin-hopping", "acceptance", "RATIO",
       "acceptance ratio the step size is tuned toward, in (0, 1) [ACCEPTRATIO]",
       [](const GminRunConfig& c) { return number(c.basinHopping.targetAcceptance); },
       [](const std::string& v, GminRunConfig& c) {
         const double a = realValue(v, Bound::Positive);
         if (a >= 1.0)
           throw std::invalid_argument("expected a number in (0, 1), found " + quoted(v));
         c.basinHopping.targetAcceptance = a;
       }},
      {"Basin-hopping", "step-adjust-interval", "N",
       "quenches between step-size adjustments [CHANGEACCEPT]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.stepAdjustInterval); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.stepAdjustInterval = intValue(v, 1);
       }},
      {"Basin-hopping", "save", "N", "lowest distinct minima kept [SAVE]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.saveCount); },
       [](const std::string& v, GminRunConfig& c) { c.basinHopping.saveCount = intValue(v, 1); }},
      {"Basin-hopping", "ediff", "DE",
       "minima closer in energy than DE are the same (epsilon) [EDIFF]",
       [](const GminRunConfig& c) { return number(c.basinHopping.energyDifference); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.energyDifference = realValue(v, Bound::NonNegative);
       }},
      {"Basin-hopping", "target", "E",
       "stop once a minimum at or below E is found (epsilon) [TARGET]",
       [](const GminRunConfig& c) {
         return c.basinHopping.targetEnergy ? number(*c.basinHopping.targetEnergy)
                                            : std::string("none");
       },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.targetEnergy = realValue(v, Bound::Any);
       }},
      {"Basin-hopping", "seed", "N", "random seed; the same seed gives the same run [RANSEED]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.seed); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.seed =
             static_cast<std::uint64_t>(integerValue(v, 0, 9223372036854775807LL));
       }},
      {"Basin-hopping", "new-restart", "N",
       "restart after more than N quenches without lowering the chain's best energy by EDIFF "
       "(0 = off) [NEWRESTART]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.newRestartSteps); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.newRestartSteps = intValue(v, 0);
       }},
      {"Basin-hopping", "avoid-distance", "D",
       "restart when a new chain best is within D of a taboo structure (sigma, 0 = off) [AVOID 1st]",
       [](const GminRunConfig& c) { return number(c.basinHopping.avoidDistance); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.avoidDistance = realValue(v, Bound::NonNegative);
       }},
      {"Basin-hopping", "avoid-max", "N", "length of the taboo list [AVOID 2nd]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.avoidMaxSaved); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.avoidMaxSaved = intValue(v, 0);
       }},
      {"Basin-hopping", "avoid-reseed", "yes|no",
       "yes: NEWRESTART/AVOID restarts reseed from a random structure; no: they reject the step "
       "[AVOID 3rd, T|F]",
       [](const GminRunConfig& c) { return std::string(c.basinHopping.avoidReseeds ? "yes" : "no"); },
       [](const std::string& v, GminRunConfig& c) { c.basinHopping.avoidReseeds = boolValue(v); }},
      {"Basin-hopping", "centre", nullptr,
       "move the centre of mass to the origin after every step [CENTRE]",
       [](const GminRunConfig& c) { return std::string(c.basinHopping.centre ? "on" : "off"); },
       [](const std::string& v, GminRunConfig& c) { c.basinHopping.centre = boolValue(v); }},
      {"Basin-hopping", "no-centre", nullptr, "do not move the centre of mass (turns CENTRE off)",
       nullptr,
       [](const std::string& v, GminRunConfig& c) { c.basinHopping.centre = !boolValue(v); }},
      {"Basin-hopping", "container-radius", "R",
       "spherical container radius (sigma); 0 = 2 + (3N/17.77153175)^(1/3) [RADIUS]",
       [](const GminRunConfig& c) { return number(c.basinHopping.containerRadius); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.containerRadius = realValue(v, Bound::NonNegative);
       }},

      {"Quenches (L-BFGS)", "sloppy-rms", "G",
       "RMS gradient ending the quenches of the run (epsilon/sigma) [SLOPPYCONV]",
       [](const GminRunConfig& c) { return number(c.basinHopping.sloppyRms); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.sloppyRms = realValue(v, Bound::Positive);
       }},
      {"Quenches (L-BFGS)", "tight-rms", "G",
       "RMS gradient of the final re-quench of the saved minima (epsilon/sigma) [TIGHTCONV]",
       [](const GminRunConfig& c) { return number(c.basinHopping.tightRms); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.tightRms = realValue(v, Bound::Positive);
       }},
      {"Quenches (L-BFGS)", "max-iterations", "N",
       "iteration cap of the quenches of the run [MAXIT 1st]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.sloppyMaxIterations); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.sloppyMaxIterations = intValue(v, 1);
       }},
      {"Quenches (L-BFGS)", "tight-max-iterations", "N",
       "iteration cap of the final re-quench [MAXIT 2nd]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.tightMaxIterations); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.tightMaxIterations = intValue(v, 1);
       }},
      {"Quenches (L-BFGS)", "lbfgs-m", "M", "L-BFGS history size [UPDATES]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.lbfgs.historySize); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.lbfgs.historySize = intValue(v, 1);
       }},
      {"Quenches (L-BFGS)", "max-step", "DX", "cap on the L-BFGS step length (sigma) [MAXBFGS]",
       [](const GminRunConfig& c) { return number(c.basinHopping.lbfgs.maxStep); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.lbfgs.maxStep = realValue(v, Bound::Positive);
       }},
      {"Quenches (L-BFGS)", "max-rise", "DE",
       "largest energy rise accepted on an L-BFGS step (epsilon) [MAXERISE]",
       [](const GminRunConfig& c) { return number(c.basinHopping.lbfgs.maxRise); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.lbfgs.maxRise = realValue(v, Bound::NonNegative);
       }},
      {"Quenches (L-BFGS)", "initial-guess", "H0",
       "initial inverse-Hessian guess of L-BFGS (sigma^2/epsilon) [DGUESS]",
       [](const GminRunConfig& c) { return number(c.basinHopping.lbfgs.initialGuess); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.lbfgs.initialGuess = realValue(v, Bound::Positive);
       }},

      {"Output", "output", "DIR", "directory for the results (created if missing)",
       [](const GminRunConfig& c) { return "./" + c.outputDir; },
       [](const std::string& v, GminRunConfig& c) {
         if (v.empty()) throw std::invalid_argument("expected a directory name, found nothing");
         c.outputDir = v;
       }},
      {"Output", "dump-interval", "N",
       "quenches between checkpoints of the lowest minima and of the state --resume continues "
       "from (0 = at the end only) [DUMPINT]",
       [](const GminRunConfig& c) { return std::to_string(c.basinHopping.dumpInterval); },
       [](const std::string& v, GminRunConfig& c) {
         c.basinHopping.dumpInterval = intValue(v, 0);
       }},
      {"Output", "resume", "DIR",
       "continue the run whose --output folder is DIR from its checkpoint, with the same options "
       "(checked); results go on in DIR and the run ends at the larger of its --steps and this one",
       [](const GminRunConfig& c) { return c.resumeDir.empty() ? std::string("off") : c.resumeDir; },
       [](const std::string& v, GminRunConfig& c) {
         if (v.empty()) throw std::invalid_argument("expected a directory name, found nothing");
         c.resumeDir = v;
       }},
      {"Output", "quiet", nullptr, "print only the final \"lowest energy:\" line",
       [](const GminRunConfig& c) { return std::string(c.quiet ? "on" : "off"); },
       [](const std::string& v, GminRunConfig& c) { c.quiet = boolValue(v); }},
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

constexpr std::size_t kHelpIndent = 30;
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
  const GminRunConfig defaults;
  std::ostringstream out;
  out << "gmin (landscape " LANDSCAPE_VERSION
         "): GMIN-style basin-hopping global optimisation of "
         "a Lennard-Jones cluster.\n"
         "Usage: gmin [options]\n"
         "\n"
         "Units: reduced Lennard-Jones units, energy epsilon and length sigma; temperatures are kT "
         "in epsilon.\n"
         "With no options gmin runs GMIN's LJ38 example (LJ38 from a random start; the defaults "
         "below).\n"
         "Output goes to ./gmin-out by default (--output DIR).\n"
         "Precedence: command line > --config FILE > --gmin-data FILE > built-in defaults.\n"
         "Reals may use Fortran exponents (5.0D-3). [KEYWORD] is the GMIN data-file keyword.\n";
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

// Boost reads "-173.9" after "--target" as an option; join such negative numbers to their option.
std::vector<std::string> joinNegativeValues(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 2 && a.compare(0, 2, "--") == 0 && a.find('=') == std::string::npos &&
        i + 1 < args.size() && !args[i + 1].empty() && args[i + 1][0] == '-' &&
        parseFortranReal(args[i + 1])) {
      const OptionSpec* spec = findSpec(a.substr(2));
      if (spec && spec->valueName) {
        out.push_back(a + "=" + args[i + 1]);
        ++i;
        continue;
      }
    }
    out.push_back(a);
  }
  return out;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

// Where a value came from, for messages: "command line: --steps" or "run.ini:4: steps".
struct Origin {
  std::string label;
};

// Reads the INI file ourselves so that every error names its line; the values then go through
// po::store like the command line's, which keeps the command line's values (first store wins).
void storeConfigFile(const std::string& path, const po::options_description& desc,
                     po::variables_map& vm, std::map<std::string, Origin>& origins) {
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
          (spec ? " (command line only)" : " (gmin --help lists the options)"));
    if (auto it = seenOnLine.find(key); it != seenOnLine.end())
      throw std::runtime_error(where + quoted(key) + " is already set on line " +
                               std::to_string(it->second));
    seenOnLine[key] = lineNumber;
    if (spec->valueName && value.empty())
      throw std::runtime_error(where + key + ": expected a value after '='");
    if (vm.count(key)) continue;  // the command line wins
    parsed.options.emplace_back(key, std::vector<std::string>{value.empty() ? "true" : value});
    origins[key] = {path + ":" + std::to_string(lineNumber) + ": " + key};
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  po::store(parsed, vm);
}

std::string valueOf(const po::variables_map& vm, const std::string& name) {
  return vm[name].as<std::string>();
}

}  // namespace

std::vector<std::string> gminOptionNames() {
  std::vector<std::string> names;
  for (const auto& spec : optionTable()) names.emplace_back(spec.name);
  return names;
}

GminRunConfig parseGminCommandLine(const std::vector<std::string>& arguments) {
  const po::options_description desc = boostOptions();
  po::variables_map vm;
  std::map<std::string, Origin> origins;

  // ---- the command line ----
  try {
    po::options_description commandLine;
    commandLine.add(desc).add_options()(kPositional, po::value<std::vector<std::string>>());
    po::positional_options_description positional;
    positional.add(kPositional, -1);
    const auto style =
        po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    const po::parsed_options parsed = po::command_line_parser(joinNegativeValues(arguments))
                                          .options(commandLine)
                                          .positional(positional)
                                          .style(style)
                                          .run();
    po::store(parsed, vm);
  } catch (const po::unknown_option& e) {
    throw std::runtime_error("command line: unknown option " + quoted(e.get_option_name()) +
                             " (gmin --help lists the options)");
  } catch (const po::error& e) {
    throw std::runtime_error(std::string("command line: ") + e.what());
  }
  if (vm.count(kPositional))
    throw std::runtime_error("command line: unexpected argument " +
                             quoted(vm[kPositional].as<std::vector<std::string>>().front()) +
                             " (options start with --)");
  for (const auto& entry : vm) origins[entry.first] = {"command line: --" + entry.first};

  GminRunConfig config;
  if (vm.count("help")) {
    config.action = GminRunConfig::Action::Help;
    config.helpText = helpText();
    return config;
  }
  if (vm.count("version")) {
    config.action = GminRunConfig::Action::Version;
    config.helpText = "gmin (landscape " LANDSCAPE_VERSION ")\n";
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

  // ---- the GMIN data file replaces the built-in defaults ----
  if (vm.count("gmin-data")) {
    std::string path;
    try {
      path = existingFile(valueOf(vm, "gmin-data"));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(origins["gmin-data"].label + ": " + e.what());
    }
    // Not readGminDataFile(): its check() would run before --config and the command line had
    // their say; the merged parameters are checked once, below.
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open GMIN data file");
    config = gminKeywordDefaults();
    applyGminKeywords(in, path, config);  // its messages name the file and line
  }

  // An AMBER molecule without a data file starts from the molecular defaults, not LJ38's.
  if ((vm.count("prmtop") || vm.count("sop-pdb")) && !vm.count("gmin-data"))
    config.basinHopping = gminAmberDefaultParams();

  // --centre and --no-centre: the higher-precedence source wins; both in one source is an error.
  bool skipCentre = false, skipNoCentre = false;
  if (vm.count("centre") && vm.count("no-centre")) {
    const bool centreOnCommandLine = origins["centre"].label.rfind("command line", 0) == 0;
    const bool noCentreOnCommandLine = origins["no-centre"].label.rfind("command line", 0) == 0;
    if (centreOnCommandLine == noCentreOnCommandLine)
      throw std::runtime_error(origins["no-centre"].label +
                               ": contradicts centre given in the same place");
    (centreOnCommandLine ? skipNoCentre : skipCentre) = true;
  }

  // ---- every option that was given, in table order ----
  for (const auto& spec : optionTable()) {
    if (!spec.apply || !vm.count(spec.name)) continue;
    const std::string name = spec.name;
    if ((name == "centre" && skipCentre) || (name == "no-centre" && skipNoCentre)) continue;
    try {
      spec.apply(valueOf(vm, name), config);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(origins[name].label + ": " + e.what());
    }
  }

  try {
    config.basinHopping.check();
    if (!config.prmtopFile.empty()) config.amber.check();
    if (!config.sopPdbFile.empty()) config.sop.check();
    if (config.langevin.steps > 0) config.langevin.check();
    config.rigidMoves.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("invalid parameters: ") + e.what());
  }
  if (config.prmtopFile.empty() != config.inpcrdFile.empty())
    throw std::runtime_error("command line: --prmtop and --inpcrd go together");
  if (config.energyOnly && config.prmtopFile.empty() && config.sopPdbFile.empty())
    throw std::runtime_error("command line: --energy-only needs --prmtop and --inpcrd, or --sop-pdb");
  if (!config.sopPdbFile.empty() &&
      (!config.prmtopFile.empty() || !config.coordsFile.empty() || config.ljAtomsGiven))
    throw std::runtime_error("command line: --sop-pdb cannot be combined with --prmtop, --lj or --coords");
  if (!config.prmtopFile.empty() && (!config.coordsFile.empty() || config.ljAtomsGiven))
    throw std::runtime_error("command line: --prmtop cannot be combined with --lj or --coords");
  if (!config.rigidFile.empty() && config.prmtopFile.empty() && config.coordsFile.empty())
    throw std::runtime_error(
        "command line: --rigid needs a starting structure (--prmtop/--inpcrd or --coords) that "
        "fixes the shapes of the bodies");
  return config;
}

GminRunConfig parseGminCommandLine(int argc, const char* const argv[]) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i] ? argv[i] : "");
  return parseGminCommandLine(arguments);
}

}  // namespace landscape
