#include "src/sop/SopOptions.h"

#include <cstdio>
#include <stdexcept>

#include "src/common/SharedOptions.h"

#ifndef LANDSCAPE_VERSION
#define LANDSCAPE_VERSION "unknown"
#endif

namespace landscape {

namespace {

using C = SopConfig;
using D = SopDynamicsParams;
using Table = OptionTable<SopConfig>;

template <class... M>
auto dynamics(M... members) {
  return fieldOf(&C::dynamics, members...);
}
template <class M>
auto langevin(M member) {
  return fieldOf(&C::dynamics, &D::langevin, member);
}
template <class M>
auto pulling(M member) {
  return fieldOf(&C::dynamics, &D::pulling, member);
}
template <class M>
auto tip(M member) {
  return fieldOf(&C::dynamics, &D::indentation, member);
}

void addGeneral(Table& t) {
  t.section("General");
  t.standardCommands();
  t.source("config", "FILE", "INI file of these options (key = value); the command line wins")
      .commandLineOnly();
  t.add("pdb", "FILE", "PDB file of the protein (C-alpha beads; all-atom reduced); required",
        fieldOf(&C::pdbFile))
      .named("a file name")
      .notInCheckpoint();  // --resume compares the file's contents (sop.checkpoint's digest)
  addBackendOption(t, fieldOf(&C::backend));
  t.add("precision", "",
        "CUDA arithmetic: double, or single (SOP-GPU's FP32; 'float' is the same); the CPU "
        "always runs double",
        dynamics(&D::precision))
      .choices({Precision::Double, Precision::Single}, precisionName)
      .choice("float", Precision::Single);
  t.add("replicas", "N",
        "independent trajectories run at once (one random stream per bead of each)",
        dynamics(&D::replicas))
      .atLeast(1);
  t.add("output", "DIR", "output directory", fieldOf(&C::outputDir))
      .named("a directory name")
      .notInCheckpoint();
  t.add("resume", "DIR",
        "continue the run whose --output folder is DIR from its sop.checkpoint (saved every "
        "output interval and on SIGINT/SIGTERM), with the same options (checked; --steps may be "
        "larger); its files are cut back to the checkpoint and continued; a folder without one "
        "starts the run afresh there",
        fieldOf(&C::resumeDir))
      .named("a directory name")
      .defaultText("off")
      .notInCheckpoint();
  t.flag("quiet", "print only the summary", fieldOf(&C::quiet)).notInCheckpoint();

  t.section("SOP model, Zhmurov et al., J. Phys. Chem. B 2011, Appendix B (kcal/mol, Angstrom)");
  addSopModelOptions(t, "", fieldOf(&C::sop));
}

void addDynamics(Table& t) {
  t.section("Overdamped Langevin dynamics, Zhmurov et al. 2011, eq 1 (ps, kcal/mol)");
  t.add("steps", "N", "steps to run (in all, counting those before a --resume)",
        fieldOf(&C::steps))
      .atLeast(0)
      .notInCheckpoint();  // a resumed run may go on for longer
  t.add("dt", "DT",
        "time step; below xi / (2 k_FENE) for Euler stability (0.18 ps with the sop-gpu "
        "friction, 25 ps with bulk water)",
        langevin(&LangevinParams::timeStep))
      .unit("ps")
      .positive();
  t.add("kt", "KT", "kT; 0.6 ~ 300 K", langevin(&LangevinParams::kT))
      .unit("kcal/mol")
      .nonNegative();
  t.add("friction", "XI", "friction xi; the default is the sop-gpu preset",
        langevin(&LangevinParams::friction))
      .unit("kcal ps/(mol A^2)")
      .positive();
  t.custom("friction-preset", "",
           "sop-gpu (zeta = 50: xi = 7.196) or bulk-water (7.0e5 pN ps/nm: xi = 1007.5), instead "
           "of --friction",
           [](C& c, const std::string& name) {
             c.dynamics.langevin.friction = sopFrictionPreset(name);
           })
      .choices(std::vector<std::string>{"sop-gpu", "bulk-water"});
  t.add("seed", "N", "random seed", langevin(&LangevinParams::seed)).atLeast(0);
  t.add("generator", "", "random-number generator (docs/rng.md)",
        langevin(&LangevinParams::generator))
      .choices(allRngKinds(), rngKindName);
  t.add("skin", "A", "Verlet-list skin: list radius = repulsive-cutoff + skin", dynamics(&D::skin))
      .unit("Angstrom")
      .nonNegative();
  t.add("rebuild-interval", "N",
        "0: rebuild the list when a bead moved > skin/2; N: every N steps (SOP-GPU style)",
        dynamics(&D::rebuildInterval))
      .atLeast(0);
  t.add("max-neighbours", "N",
        "Verlet-list capacity per bead (0: 1.5 x the largest at the start + 16)",
        dynamics(&D::maxNeighbours))
      .atLeast(0);
  t.add("cuda-graph-steps", "N",
        "CUDA: replay this many steps (even) as one captured CUDA Graph (0: plain launches)",
        dynamics(&D::cudaGraphSteps))
      .atLeast(0)
      .notInCheckpoint();  // the same kernels either way: the same bits
  t.add("cuda-persistent-steps", "N",
        "CUDA: up to N steps per persistent cooperative launch (fixed --rebuild-interval only; "
        "0: off)",
        dynamics(&D::cudaPersistentSteps))
      .atLeast(0)
      .notInCheckpoint();  // the same per-bead arithmetic: the same bits
}

void addProtocols(Table& t) {
  t.section("Pulling (force-extension)");
  t.flag("pull", "pull one end at constant velocity, the other end fixed",
         pulling(&SopPullingParams::enabled));
  t.add("pull-bead", "I", "pulled bead, 0-based (-1: the last)",
        pulling(&SopPullingParams::pulledBead))
      .atLeast(-1);
  t.add("fixed-bead", "I", "fixed bead, 0-based (-1: none)", pulling(&SopPullingParams::fixedBead))
      .atLeast(-1);
  t.add("pull-spring", "K", "cantilever spring; x 69.48 = pN/nm",
        pulling(&SopPullingParams::springK))
      .unit("kcal/mol/A^2")
      .nonNegative();
  t.add("pull-speed", "V", "cantilever speed; x 1e8 = um/s", pulling(&SopPullingParams::speed))
      .unit("A/ps");

  t.section("Indentation (force-indentation, Zhmurov et al. 2011, section V)");
  t.flag("indent", "press a spherical tip on a spring into the structure resting on a surface",
         tip(&SopIndentationParams::enabled));
  t.add("tip-radius", "R", "tip radius", tip(&SopIndentationParams::tipRadius))
      .unit("Angstrom")
      .positive();
  t.add("tip-epsilon", "E", "tip repulsion", tip(&SopIndentationParams::tipEpsilon))
      .unit("kcal/mol")
      .nonNegative();
  t.add("tip-sigma", "A", "tip repulsion range", tip(&SopIndentationParams::tipSigma))
      .unit("Angstrom")
      .positive();
  t.add("tip-spring", "K", "cantilever spring", tip(&SopIndentationParams::springK))
      .unit("kcal/mol/A^2")
      .nonNegative();
  t.add("tip-speed", "V", "cantilever base speed", tip(&SopIndentationParams::speed)).unit("A/ps");
  t.add("tip-friction", "XI", "tip friction", tip(&SopIndentationParams::tipFriction))
      .unit("kcal ps/(mol A^2)")
      .positive();
  t.add("indent-direction", "X,Y,Z", "direction n", tip(&SopIndentationParams::direction));
  t.add("tip-gap", "A", "start gap between tip and structure", tip(&SopIndentationParams::startGap))
      .unit("Angstrom");
  t.add("fixed-layer", "A", "beads this close to the bottom are fixed: the surface",
        tip(&SopIndentationParams::fixedLayer))
      .unit("Angstrom")
      .nonNegative();
}

void addOutput(Table& t) {
  t.section("Output");
  t.add("output-interval", "N", "steps between lines of force_curve_<r>.dat",
        fieldOf(&C::outputInterval))
      .atLeast(1);
  t.add("frame-interval", "N", "steps between trajectory frames (0: none)",
        fieldOf(&C::frameInterval))
      .atLeast(0);
  t.add("trajectory-format", "",
        "pdb: trajectory_<r>.pdb, multi-model; dcd: trajectory_<r>.dcd plus topology.pdb (VMD)",
        fieldOf(&C::trajectoryFormat))
      .choices(std::vector<std::string>{"pdb", "dcd"});
  t.add("q-tolerance", "A", "a native contact counts as formed while r < r0 + this",
        fieldOf(&C::qTolerance))
      .unit("Angstrom")
      .nonNegative();
}

}  // namespace

const OptionTable<SopConfig>& sopOptionTable() {
  static const Table table("sop",
                           "sop (landscape " LANDSCAPE_VERSION
                           "): SOP Langevin dynamics, pulling and indentation (docs/sop.md).\n"
                           "Usage: sop --pdb FILE [options]\n"
                           "\n"
                           "Units: kcal/mol, Angstrom, ps; forces in kcal/mol/A (x 69.48 = pN).\n",
                           {addGeneral, addDynamics, addProtocols, addOutput});
  return table;
}

CheckpointFingerprint sopFingerprint(const SopConfig& config) {
  return sopOptionTable().fingerprint(config);
}

std::string sopOptionsMarkdown() {
  return "# Options of `sop`\n"
         "\n"
         "<!-- Generated from sop's option table in src/sop/SopOptions.cpp by "
         "sopOptionsMarkdown().\n"
         "     Edit the table there, then regenerate this file with `sop --help-markdown` or\n"
         "     LANDSCAPE_REGENERATE_DOCS=1 landscape_tests --gtest_filter=SopCli.DocMatchesTable\n"
         "     (the test fails while the two differ). -->\n"
         "\n"
         "`sop` runs overdamped Langevin dynamics of the SOP model (docs/sop.md). Options come "
         "from the command line and `--config FILE` (`key = value`, long names; the command line "
         "wins). Units: kcal/mol, Angstrom, ps.\n" +
         sopOptionTable().optionsMarkdown(SopConfig{});
}

namespace {

// Euler stability of overdamped dynamics: a harmonic mode of curvature K is stable while
// K dt / xi < 2; the stiffest mode of a chain (alternating beads) has K = 4 k_FENE at the native
// bond length, so dt must stay below xi / (2 k_FENE). Stretched bonds are stiffer still, which the
// check for non-finite coordinates at every output interval catches.
void requireStableTimeStep(const SopConfig& c) {
  const double dt = c.dynamics.langevin.timeStep, xi = c.dynamics.langevin.friction;
  const double limit = xi / (2.0 * c.sop.feneK);
  if (dt < limit) return;
  char text[300];
  std::snprintf(text, sizeof text,
                "--dt %.6g ps is at or above the Euler stability limit xi / (2 k_FENE) = %.6g ps "
                "(friction %.6g kcal ps/(mol A^2), FENE k %.6g kcal/mol/A^2): the dynamics "
                "would blow up; use a smaller --dt or a larger friction",
                dt, limit, xi, c.sop.feneK);
  throw std::runtime_error(text);
}

}  // namespace

SopConfig parseSopCommandLine(const std::vector<std::string>& arguments) {
  const Table& table = sopOptionTable();
  SopConfig c;
  GivenOptions given;
  if (!table.read(arguments, given, c, sopOptionsMarkdown)) return c;
  if (given.has("friction") && given.has("friction-preset"))
    throw std::runtime_error("command line: give --friction or --friction-preset, not both");
  table.apply(given, c);
  if (c.pdbFile.empty()) throw std::runtime_error("command line: --pdb FILE is required");
  try {
    c.sop.check();
    c.dynamics.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("invalid parameters: ") + e.what());
  }
  requireStableTimeStep(c);
  return c;
}

SopConfig parseSopCommandLine(int argc, const char* const argv[]) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i] ? argv[i] : "");
  return parseSopCommandLine(arguments);
}

}  // namespace landscape
