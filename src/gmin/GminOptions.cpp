#include "src/gmin/GminOptions.h"

#include <array>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "landscape/search/RigidBodySearch.h"
#include "src/common/SharedOptions.h"
#include "src/gmin/GminDataFile.h"

#ifndef LANDSCAPE_VERSION
#define LANDSCAPE_VERSION "unknown"
#endif

namespace landscape {

namespace {

using C = GminConfig;
using BH = BasinHoppingParams;
using Table = OptionTable<GminConfig>;

constexpr double kPi = 3.14159265358979323846;
constexpr double kRadiansPerDegree = kPi / 180.0;

template <class M>
auto top(M member) {
  return fieldOf(member);
}
template <class M>
auto bh(M member) {
  return fieldOf(&C::basinHopping, member);
}
template <class M>
auto lbfgs(M member) {
  return fieldOf(&C::basinHopping, &BH::lbfgs, member);
}
template <class M>
auto symmetrisation(M member) {
  return fieldOf(&C::basinHopping, &BH::symmetrisation, member);
}
template <class M>
auto coreSymmetry(M member) {
  return fieldOf(&C::basinHopping, &BH::symmetrisation, &SymmetrisationParams::core, member);
}

std::string symmetrisationSchemeName(SymmetrisationParams::Scheme s) {
  switch (s) {
    case SymmetrisationParams::Scheme::CoreCompletion: return "core";
    case SymmetrisationParams::Scheme::Csm: return "csm";
    default: return "off";
  }
}

template <class M>
auto langevin(M member) {
  return fieldOf(&C::langevin, member);
}

bool isAmber(const C& c) { return !c.prmtopFile.empty(); }
bool isSop(const C& c) { return !c.sopPdbFile.empty(); }

// Field i of BINARY and BLJCLUSTER (--binary-lj), of PERIODIC (--box).
std::function<void(C&, double)> binaryField(std::size_t i) {
  return [i](C& c, double v) { setBinaryLjField(c.pair, i, v); };
}
std::function<void(C&, double)> boxField(std::size_t i) {
  return [i](C& c, double v) { setBoxField(c.pair, i, v); };
}

void addGeneralAndSystem(Table& t) {
  t.section("General");
  t.standardCommands();
  t.source("config", "FILE",
           "INI file of these options, `key = value` per line, `#` comments (paths in it are "
           "relative to the working directory); the command line overrides it")
      .commandLineOnly();
  t.source("gmin-data", "FILE",
           "GMIN `data` keyword file (docs/gmin-keywords.md); replaces the built-in defaults by "
           "GMIN's keyword defaults (CENTRE, NEWRESTART, AVOID off unless given); --config and "
           "the command line override it");

  t.section("System");
  t.add("lj", "N",
        "number of atoms: of the Lennard-Jones cluster, or of the pair system of the options "
        "below",
        top(&C::ljAtoms))
      .alias("atoms")
      .atLeast(2)
      .atMost(100000000)
      .then([](C& c) { c.ljAtomsGiven = true; })
      .notInCheckpoint();  // the checkpoint's `atoms`
  t.add("coords", "FILE",
        "starting coordinates (sigma): XYZ, or GMIN's `coords` with 3 numbers per line",
        top(&C::coordsFile))
      .file()
      .defaultText("none, a random start in the container (in the box with --box)");
  addPairSystemOptions(t, top(&C::pair),
                       "; random starts uniform in the box, no centring, container or angular "
                       "moves, minima written wrapped into the box");
  addGuptaSystemOptions(t, top(&C::gupta));
  t.add("water", "",
        "a cluster of rigid water molecules in angle-axis coordinates, one rigid body each "
        "(docs/water.md): tip4p = TIP4P (Jorgensen et al., J. Chem. Phys. 79, 926 (1983)) as "
        "GMIN's NTIP 4 defines it, energies in kJ/mol and lengths in Angstrom; ssd = the "
        "soft-sticky-dipole water of Liu and Ichiye (J. Phys. Chem. 100, 2723 (1996)), one "
        "centre with a Lennard-Jones core, a point dipole and a tetrahedral sticky term, "
        "energies in kcal/mol and lengths in Angstrom (kT 1 kcal/mol by default); moved by the "
        "rigid-body moves (--rigid-translation, --rigid-rotation) and --step-size on the "
        "angle-axis coordinates",
        top(&C::waterModel))
      .choices(std::vector<std::string>{"tip4p", "ssd"})
      .defaultText("none");
  t.add("molecules", "N",
        "number of water molecules (--water); with --coords the file's count (TIP4P: GMIN's "
        "layout, N oxygen positions, then N angle-axis vectors; SSD: N centres, then N "
        "angle-axis vectors, p = 0 the dipole along z)",
        top(&C::waterMolecules))
      .atLeast(2)
      .atMost(100000)
      .inEffectIf([](const C& c) { return !c.waterModel.empty(); });
  addWaterIonsOption(
      t, top(&C::waterIons), [](const C& c) { return c.waterModel == "tip4p"; },
      ", moved by the rigid-body translations; with --coords their positions "
      "follow GMIN's layout (N oxygens, N angle-axis vectors, then one line per "
      "ion)");
  const auto isEllipsoids = [](const C& c) { return c.ellipsoids > 0; };
  t.add("ellipsoids", "N",
        "a cluster of N uniaxial Gay-Berne ellipsoids (Gay and Berne, J. Chem. Phys. 74, 3316 "
        "(1981); docs/gay-berne.md) in angle-axis coordinates, each one rigid body of 4 marker "
        "sites, in reduced units (lengths in sigma0, energies in eps0, the cross-configuration "
        "well depth); moved by the rigid-body moves only; without --coords (N centres, then N "
        "angle-axis vectors, p = 0 the axis along z) the start is a lattice of parallel "
        "ellipsoids at the side-by-side and end-to-end well distances; `lowest` holds each "
        "ellipsoid's 4 markers (E: the axis tips at "
        "+-1 sigma0, X: the side markers), ellipsoids.xyz its centre, orientation and semi-axes "
        "(extended XYZ, as OVITO reads ellipsoids)",
        top(&C::ellipsoids))
      .atLeast(2)
      .atMost(100000)
      .defaultText("none");
  addGayBerneOptions(t, top(&C::gayBerne), isEllipsoids);
  addBackendOption(t, top(&C::backend));
  addPrecisionOption(t, "", top(&C::precision)).inEffectIf(isAmber);
  // Wales and Doye's split of quenches (J. Phys. Chem. A 101, 5111 (1997); GMIN's SLOPPYCONV and
  // TIGHTCONV): the Markov chain needs only loose minima, the saved ones are re-quenched tightly.
  t.add("quench-precision", "",
        "arithmetic of the walkers' quenches (SLOPPYCONV; two or more walkers) on the CUDA "
        "AMBER-GB batch: mixed (FP32 pair arithmetic, FP64 sums; at a trp-cage minimum its "
        "gradient differs from double by RMS 2.4e-6 kcal/mol/A, far below the sloppy RMS of "
        "0.01) or double; the final tight re-quench of the saved minima (TIGHTCONV), and so "
        "the energies written, use --precision",
        top(&C::quenchPrecision))
      .choices({Precision::Double, Precision::Mixed}, precisionName)
      .inEffectIf([](const C& c) { return isAmber(c) && c.backend == Backend::Cuda; });
  addLbfgsBackendOption(t,
                        "where the L-BFGS vectors live: cpu (host, with the potential on "
                        "--backend) or gpu (the whole minimiser on the device; needs --backend "
                        "cuda for speed)",
                        top(&C::lbfgsBackend));
}

void addMolecules(Table& t) {
  t.section("Molecules (AMBER, kcal/mol and Angstrom)");
  addPrmtopOption(t,
                  "basin-hopping on the AMBER force field with generalized Born solvent "
                  "(defaults then: kT 0.6 kcal/mol, step 0.3 A, no container, SAVE 10, EDIFF 0.01, "
                  "100 steps)",
                  top(&C::prmtopFile));
  addInpcrdOption(t, ", required with --prmtop", top(&C::inpcrdFile));
  addAmberGbOptions(t, top(&C::amber), isAmber);
  t.flag("energy-only",
         "print the energy components of --inpcrd as sander names them (kcal/mol) and the RMS "
         "gradient (kcal/mol/A), then exit",
         top(&C::energyOnly))
      .defaultText("")
      .notInCheckpoint();
  t.add("group-rotation", "P",
        "probability per step of rotating each side-chain group about its bond (0 = off)",
        top(&C::groupRotationProbability))
      .atLeast(0)
      .atMost(1)
      .inEffectIf(isAmber);
  t.add("group-rotation-angle", "DEG", "largest side-chain rotation",
        top(&C::groupRotationMaxAngle))
      .unit("degrees")
      .positive()
      .scale(kRadiansPerDegree)
      .inEffectIf(isAmber);
  t.flag("no-stereo-checks",
         "keep minima whose chirality or peptide cis/trans state changed (rejected by default)",
         top(&C::stereoChecks))
      .inverted()
      .defaultText("")
      .inEffectIf(isAmber)
      .formerly("stereo-checks");
}

void addSop(Table& t) {
  t.section("SOP coarse-grained protein (kcal/mol, Angstrom)");
  t.add("sop-pdb", "FILE",
        "PDB file: basin-hopping on the SOP model of its C-alpha beads (Zhmurov et al., J. Phys. "
        "Chem. B 2011, Appendix B), "
        "starting from the native structure (AMBER-like defaults: kT 0.6 kcal/mol, step 0.3 A)",
        top(&C::sopPdbFile))
      .file()
      .defaultText("none");
  addSopModelOptions(t, "sop-", top(&C::sop), isSop);
}

void addRigidAndLangevin(Table& t) {
  t.section("Rigid bodies (angle-axis; Mantell et al., J. Chem. Theory Comput. 2016, section 2.1)");
  addRigidOption(t,
                 "(docs/rigid-bodies.md, tools/utilities/make_rigid_bodies); needs --inpcrd or "
                 "--coords, whose "
                 "structure fixes the bodies' shapes; with --lbfgs-backend gpu the rigid transform "
                 "runs on the device",
                 top(&C::rigidFile));
  t.add("rigid-translation", "A", "largest random translation of a rigid body per step",
        fieldOf(&C::rigidMoves, &RigidBodyMoveParams::translation))
      .unit("length")
      .nonNegative();
  t.add("rigid-rotation", "DEG",
        "largest random rotation of a rigid body about its centre per step, at most 180",
        fieldOf(&C::rigidMoves, &RigidBodyMoveParams::rotation))
      .unit("degrees")
      .nonNegative()
      .scale(kRadiansPerDegree);
  t.add("rigid-probability", "P", "chance per body per step of a rigid-body move",
        fieldOf(&C::rigidMoves, &RigidBodyMoveParams::probability))
      .nonNegative();

  t.section("Langevin move");
  t.add("langevin-steps", "N",
        "overdamped Langevin steps run before every quench (after the Cartesian step; use "
        "--step-size 0 for Langevin-only moves); 0 = off",
        langevin(&LangevinParams::steps))
      .atLeast(0)
      .atMost(100000000);
  t.add("langevin-kt", "KT", "temperature of the Langevin move, kT", langevin(&LangevinParams::kT))
      .unit("energy unit")
      .nonNegative()
      .formerly("langevin-kT");
  t.add("langevin-dt", "DT", "Langevin time step", langevin(&LangevinParams::timeStep))
      .unit("ps for AMBER, reduced time for LJ")
      .positive()
      .formerly("langevin-time-step");
  t.add("langevin-friction", "XI", "friction xi", langevin(&LangevinParams::friction))
      .unit("energy x time / length^2")
      .positive();
  t.add("langevin-generator", "", "random-number generator (docs/rng.md)",
        langevin(&LangevinParams::generator))
      .choices(allRngKinds(), rngKindName);
}

// GMIN's SYMMETRISE and SYMMETRISECSM (landscape/search/Symmetrisation.h).
void addSymmetrisation(Table& t) {
  t.section("Symmetry-adapted moves (clusters of identical atoms)");
  t.add("symmetrise", "",
        "symmetry-adapted moves (Oakley, Johnston and Wales 2013): core = GMIN's SYMMETRISE "
        "(outer atoms moved into the vacant sites of the most symmetric core, up to "
        "--symmetrise-candidates quenches per attempt), csm = SYMMETRISECSM (the minimum averaged "
        "with its image under inversion, continuous symmetry measure, then quenched); an attempt's "
        "lowest minimum replaces the Markov state when more than EDIFF below it",
        symmetrisation(&SymmetrisationParams::scheme))
      .choices(std::vector<SymmetrisationParams::Scheme>{SymmetrisationParams::Scheme::Off,
                                                         SymmetrisationParams::Scheme::CoreCompletion,
                                                         SymmetrisationParams::Scheme::Csm},
               symmetrisationSchemeName);
  t.add("symmetrise-interval", "N",
        "quenches between attempts (core: only on a Markov minimum not tried before)",
        symmetrisation(&SymmetrisationParams::interval))
      .atLeast(1);
  t.add("symmetrise-orbit-tolerance", "D",
        "core: atoms whose distances from the centre differ by less than D share an orbit",
        coreSymmetry(&CoreSymmetryParams::orbitTolerance))
      .unit("sigma")
      .positive();
  t.add("symmetrise-symmetry-tolerance", "D", "core: distance tolerance of the core's point group",
        coreSymmetry(&CoreSymmetryParams::symmetryTolerance))
      .unit("sigma")
      .positive();
  t.add("symmetrise-occupied-tolerance", "D",
        "core: a symmetry image within D of an atom is that atom (an occupied site)",
        coreSymmetry(&CoreSymmetryParams::occupiedTolerance))
      .unit("sigma")
      .positive();
  t.add("symmetrise-merge-tolerance", "D", "core: vacant sites within D of each other are one",
        coreSymmetry(&CoreSymmetryParams::holeMergeTolerance))
      .unit("sigma")
      .positive();
  t.add("symmetrise-overlap", "D",
        "core: a vacant site must be at least D from every atom",
        coreSymmetry(&CoreSymmetryParams::overlapDistance))
      .unit("sigma")
      .positive();
  t.add("symmetrise-candidates", "N", "core: at most N candidate quenches per attempt",
        coreSymmetry(&CoreSymmetryParams::maxCandidates))
      .atLeast(1);
  t.add("symmetrise-centre-decay", "K",
        "core: the centre weights atoms by exp(-K r), r their distance from it (0 = centroid)",
        coreSymmetry(&CoreSymmetryParams::centreDecay))
      .unit("1/sigma")
      .nonNegative();
  t.add("csm-group", "NAME",
        "csm: point group of the continuous symmetry measure; only CI (inversion through the "
        "centroid) is implemented",
        symmetrisation(&SymmetrisationParams::csmGroup))
      .choices(std::vector<std::string>{"CI"});
  t.add("csm-epsilon", "E", "csm: a measure below E is reported as exact symmetry",
        symmetrisation(&SymmetrisationParams::csmEpsilon))
      .nonNegative();
  t.add("csm-steps", "N",
        "csm: GMIN's random orientations of the group's frame; read, no effect for CI",
        symmetrisation(&SymmetrisationParams::csmSteps))
      .atLeast(0);
  t.add("csm-quenches", "N",
        "csm: quenches per attempt: the averaged structure, then downhill steps from the lowest",
        symmetrisation(&SymmetrisationParams::csmQuenches))
      .atLeast(1);
  t.add("csm-max-iterations", "N",
        "csm: GMIN's orientation-minimisation cap, read and not needed for CI",
        symmetrisation(&SymmetrisationParams::csmMaxIterations))
      .atLeast(0);
}

void addBasinHopping(Table& t) {
  t.section("Basin-hopping");
  t.add("steps", "N", "basin-hopping steps (of each walker), quenches after the first",
        bh(&BH::steps))
      .atLeast(0)
      .defaultText("5000; 200000 for LJ38 from a random start (with its target)")
      .notInCheckpoint();  // a resumed run may go on for longer
  t.add("temperature", "KT", "Metropolis temperature kT", bh(&BH::temperature))
      .unit("epsilon")
      .positive();
  t.add("step-size", "DX", "initial maximum displacement per coordinate", bh(&BH::stepSize))
      .unit("sigma")
      .nonNegative();
  t.add("angular-threshold", "A",
        "angular move of the most weakly bound atom when its energy exceeds A times the lowest "
        "atom energy (0 = off)",
        bh(&BH::angularThreshold))
      .unit("dimensionless")
      .nonNegative()
      .formerly("astep");
  t.add("acceptance", "RATIO", "acceptance ratio the step size is tuned toward",
        bh(&BH::targetAcceptance))
      .above(0)
      .below(1)
      .formerly("target-acceptance");
  t.add("step-adjust-interval", "N", "quenches between step-size adjustments",
        bh(&BH::stepAdjustInterval))
      .atLeast(1);
  t.add("save", "N", "lowest distinct minima kept", bh(&BH::saveCount)).atLeast(1);
  t.add("ediff", "DE", "minima closer in energy than DE are the same", bh(&BH::energyDifference))
      .unit("epsilon")
      .nonNegative();
  t.add("target", "E",
        "stop at the end of the step in which a walker first finds a minimum at or below E + "
        "EDIFF",
        bh(&BH::targetEnergy))
      .unit("epsilon")
      .defaultText("none; -173.928427 (its global minimum) for LJ38 from a random start");
  t.add("seed", "N", "random seed; the same seed gives the same run", bh(&BH::seed)).atLeast(0);
  t.add("new-restart", "N",
        "restart after more than N quenches without lowering the chain's best energy by EDIFF "
        "(0 = off)",
        bh(&BH::newRestartSteps))
      .atLeast(0);
  t.add("avoid-distance", "D",
        "restart when a new chain best is within D of a taboo structure (0 = off)",
        bh(&BH::avoidDistance))
      .unit("sigma")
      .nonNegative();
  t.add("crowd-limit", "K",
        "walkers: at most K walkers may hold one minimum (Markov energies within EDIFF) at the "
        "end of a round; the others (highest index first) are reseeded from random structures "
        "(0 = no limit)",
        bh(&BH::crowdLimit))
      .atLeast(0);
  t.add("avoid-max", "N", "length of the taboo list", bh(&BH::avoidMaxSaved))
      .atLeast(0)
      .formerly("avoid-max-saved");
  t.add("avoid-reseed", "",
        "yes: NEWRESTART/AVOID restarts reseed from a random structure; no: they reject the step",
        bh(&BH::avoidReseeds))
      .formerly("avoid-reseeds");
  t.flag("fixed-step",
         "keep the step size fixed instead of tuning it toward the acceptance ratio every "
         "--step-adjust-interval quenches (the temperature is never tuned)",
         bh(&BH::fixedStep));
  t.flag("centre", "move the centre of mass to the origin after every step", bh(&BH::centre));
  t.flag("no-centre", "do not move the centre of mass (turns CENTRE off)", bh(&BH::centre))
      .inverted()
      .defaultText("")
      .notInCheckpoint();  // the checkpoint's `centre`
  t.add("container-radius", "R",
        "spherical container radius; 0 = 2 + (3N/17.77153175)^(1/3); for the systems without a "
        "container by default (molecules, water, ellipsoids) a radius > 0 puts them in one (a "
        "cluster with a net charge may otherwise shed ions)",
        bh(&BH::containerRadius))
      .unit("sigma")
      .nonNegative()
      .formerly("radius")
      .then([](C& c) {
        if (c.basinHopping.containerRadius > 0.0) c.basinHopping.container = true;
      });
}

template <class M>
auto bhpt(M member) {
  return fieldOf(&C::tempering, member);
}
bool isBhpt(const C& c) { return c.tempering.enabled; }

void addWalkers(Table& t) {
  t.section("Walkers and goals");
  t.add("walkers", "W",
        "independent basin-hopping chains, each with its own step size, Metropolis test, "
        "NEWRESTART/AVOID state and random stream (from the seed and its index), quenched "
        "together every step (the batched engine, docs/batched.md); --steps counts each walker's "
        "steps and --dump-interval rounds; W = 1 is the classic single chain; 0 = one per CPU "
        "core (--backend cpu), 256 for clusters under 50 atoms and 4096 from 50 on (LJ on --backend cuda: the counts with the shortest time to "
        "the global minimum measured, docs/benchmarks.md), 2 per GPU "
        "multiprocessor within half the free memory (molecules on --backend cuda: the "
        "round-based GPU engine), the checkpoint's count with --resume; under `mpirun -n K` W "
        "counts the walkers of all K ranks, each rank running its own block of them (the "
        "default then per rank, times K; docs/cluster.md)",
        top(&C::walkers))
      .atLeast(0)
      .atMost(1 << 24)
      .defaultText("0 (automatic)")
      .notInCheckpoint();  // the checkpoint's walker count
  t.add("walker-resident", "N",
        "expert, for tests and tuning: with walkers of a molecule on --backend cuda (the "
        "round-based GPU engine, docs/batched.md), the walkers it minimises at once; the others "
        "wait and take the slots of finished ones. Changes the time only, never a result; 0 = all",
        top(&C::walkerResident))
      .atLeast(0)
      .atMost(1 << 24)
      .defaultText("0 (all)")
      .notInCheckpoint();
  t.add("walker-pack", "F",
        "expert, for tests and tuning: with walkers of a molecule on --backend cuda, once at most "
        "1/F of the walkers are still quenching, the round-based GPU engine packs them into the "
        "first rows and launches over those only (docs/batched.md). Changes the time only, never "
        "a result; 0 = never",
        top(&C::walkerPack))
      .atLeast(0)
      .atMost(1 << 20)
      .notInCheckpoint();
  t.add("max-time", "S",
        "stop after S seconds of wall-clock time (checked once per step; results are written "
        "and the run can be resumed); 0 = no limit",
        top(&C::maxTime))
      .unit("seconds")
      .nonNegative()
      .notInCheckpoint();
  t.add("rank-timeout", "S",
        "under mpirun: a rank that waits more than S seconds for the others in one exchange "
        "(a rank hung, or died without the launcher noticing) ends the whole job with a message; "
        "resume from the last checkpoint (docs/cluster.md); 0 = wait as long as it takes",
        top(&C::rankTimeout))
      .unit("seconds")
      .nonNegative()
      .notInCheckpoint();
  t.flag("verbose", "with walkers: one progress line per quench of every walker", top(&C::verbose))
      .notInCheckpoint();
  t.flag("bhpt",
         "basin-hopping parallel tempering: the walkers become replicas at exponentially spaced "
         "temperatures from --bhpt-min-temperature to --bhpt-max-temperature (replaces "
         "--temperature) that swap Markov states by the replica-exchange criterion",
         bhpt(&ParallelTemperingParams::enabled));
  t.add("bhpt-min-temperature", "KT", "temperature of the coldest replica (walker 0)",
        bhpt(&ParallelTemperingParams::minTemperature))
      .unit("epsilon")
      .positive()
      .inEffectIf(isBhpt);
  t.add("bhpt-max-temperature", "KT", "temperature of the hottest replica",
        bhpt(&ParallelTemperingParams::maxTemperature))
      .unit("epsilon")
      .positive()
      .inEffectIf(isBhpt);
  t.add("bhpt-interval", "N", "steps between replica-exchange attempts",
        bhpt(&ParallelTemperingParams::interval))
      .atLeast(1)
      .inEffectIf(isBhpt);
}

void addQuenchesAndOutput(Table& t) {
  t.section("Quenches (L-BFGS)");
  t.add("sloppy-rms", "G", "RMS gradient ending the quenches of the run", bh(&BH::sloppyRms))
      .unit("epsilon/sigma")
      .positive();
  t.add("tight-rms", "G", "RMS gradient of the final re-quench of the saved minima",
        bh(&BH::tightRms))
      .unit("epsilon/sigma")
      .positive();
  t.add("max-iterations", "N", "iteration cap of the quenches of the run",
        bh(&BH::sloppyMaxIterations))
      .atLeast(1)
      .formerly("sloppy-max-iterations");
  t.add("tight-max-iterations", "N", "iteration cap of the final re-quench",
        bh(&BH::tightMaxIterations))
      .atLeast(1);
  t.add("cold-fusion", "DE",
        "a quench ending more than DE below the lowest saved minimum failed (cold fusion): it is "
        "rejected and counted, as one with a non-finite energy or gradient or at the iteration "
        "cap; 0 = off",
        bh(&BH::coldFusionDrop))
      .unit("epsilon")
      .nonNegative()
      .then([](C& c) {
        double& drop = c.basinHopping.coldFusionDrop;
        if (drop == 0.0) drop = std::numeric_limits<double>::infinity();
      });
  addLbfgsHistoryOption(t, "L-BFGS history size", lbfgs(&LbfgsParams::historySize))
      .formerly("history-size");
  t.add("max-step", "DX", "cap on the L-BFGS step length", lbfgs(&LbfgsParams::maxStep))
      .unit("sigma")
      .positive();
  t.add("max-rise", "DE", "largest energy rise accepted on an L-BFGS step",
        lbfgs(&LbfgsParams::maxRise))
      .unit("epsilon")
      .nonNegative();
  t.add("initial-guess", "H0", "initial inverse-Hessian guess of L-BFGS",
        lbfgs(&LbfgsParams::initialGuess))
      .unit("sigma^2/epsilon")
      .positive();

  t.section("Output");
  t.add("output", "DIR", "directory for the results (created if missing)", top(&C::outputDir))
      .named("a directory name")
      .defaultText("./gmin-out")
      .notInCheckpoint();
  t.add("dump-interval", "N",
        "quenches between checkpoints of the lowest minima and of the state --resume continues "
        "from (0 = at the end only)",
        bh(&BH::dumpInterval))
      .atLeast(0)
      .notInCheckpoint();
  t.add("resume", "DIR",
        "continue the run whose --output folder is DIR from its checkpoint, with the same "
        "options (checked); results go on in DIR and the run ends at the larger of its --steps "
        "and this one",
        top(&C::resumeDir))
      .named("a directory name")
      .defaultText("off")
      .notInCheckpoint();
  t.flag("quiet", "print only the final \"lowest energy:\" line", top(&C::quiet)).notInCheckpoint();
}

// GMIN's keywords, in the order of docs/gmin-keywords.md. GMIN's meaning of each follows its
// keywords.f; the landscape field it sets is named after the arrow.
void addImplementedKeywords(Table& t) {
  t.keyword("ACCEPTRATIO", "ratio",
            "acceptance ratio the step size is tuned toward, in (0, 1) -> `targetAcceptance`")
      .field("acceptance", "the acceptance ratio");
  t.keyword("AVOID", "dist max [reseed]",
            "taboo list (with NEWRESTART): a new chain best within `dist` (length) of one of the "
            "last `max` saved structures restarts the chain -> `avoidDistance`, `avoidMaxSaved`; "
            "`reseed` T (default) reseeds from a random structure, F rejects the step instead -> "
            "`avoidReseeds`")
      .field("avoid-distance", "the distance")
      .field("avoid-max", "the list length")
      .field("avoid-reseed", "reseed", "T");
  t.keyword("BHPT", "[interval]",
            "basin-hopping parallel tempering over the walkers (`--walkers`; GMIN runs the "
            "replicas over MPI): replicas at exponentially spaced temperatures PTTMIN..PTTMAX "
            "exchanging Markov states every `interval` steps (default 10) by the replica-exchange "
            "criterion -> `tempering`; GMIN's exchange probability EXCHPROB is not implemented")
      .sets("bhpt", "yes")
      .field("bhpt-interval", "the exchange interval", "10");
  binaryLjKeywordParts(
      t.keyword(
          "BINARY", "ntypea epsab epsbb sigab sigbb",
          "binary Lennard-Jones: the first `ntypea` atoms are A (the units), the others B, with "
          "epsilon_AB, epsilon_BB, sigma_AB, sigma_BB; uncut in a cluster, with PERIODIC a "
          "cutoff from SHIFTCUT -> `pair.binaryLj` (--binary-lj)"),
      binaryField);
  binaryLjKeywordParts(
      t.keyword(
           "BLJCLUSTER", "ntypea epsab epsbb sigab sigbb cutoff",
           "binary Lennard-Jones cluster as BINARY, each pair cut at `cutoff` times its sigma "
           "with GMIN's quadratic smoothing (V and V' zero at the cutoff; pele's BLJCut) -> "
           "`pair.binaryLj` (--binary-lj), `pair.cutoff`, `pair.convention` = quadratic-smoothed")
          .sets("cutoff-convention", "quadratic-smoothed"),
      binaryField)
      .field("cutoff", "the cutoff (in units of each pair's sigma)");
  t.keyword("CENTRE", "",
            "move the centre of mass to the origin after every step -> `centre` = true")
      .sets("centre", "yes");
  t.keyword("CHANGEACCEPT", "n",
            "quenches between step-size adjustments (GMIN's NACCEPT) -> `stepAdjustInterval`")
      .field("step-adjust-interval", "the interval");
  t.keyword("DGUESS", "h0",
            "L-BFGS initial inverse-Hessian guess (length^2/energy) -> `lbfgs.initialGuess`")
      .field("initial-guess", "the guess");
  t.keyword("DUMPINT", "n",
            "quenches between checkpoints of the lowest minima and of the state `gmin --resume` "
            "continues from (docs/database.md); 0 = at the end only -> `dumpInterval`")
      .field("dump-interval", "the interval");
  t.keyword("EDIFF", "dE",
            "minima closer in energy than this are the same (energy) -> `energyDifference`")
      .field("ediff", "the energy difference");
  t.keyword("FIXBOTH", "",
            "fix the step size and the temperature (gmin never tunes the temperature) -> "
            "`fixedStep`; GMIN's per-run fields are not read")
      .sets("fixed-step", "yes");
  t.keyword("GUPTA", "type",
            "Gupta metal cluster of GMIN's Gupta.f table row `type`: " + guptaGminTypesText() +
                " (Cleri and Rosato's parameters, lengths in r0); GMIN's other rows are not "
                "implemented -> `gupta.metal` (--gupta)")
      .number("the metal type", [] {
        ValueRule rule = integerRule(1);
        rule.allowed = guptaGminTypes();
        return rule;
      }(), [](C& c, double type) { setGuptaMetalOfGminType(c.gupta, type); });
  t.keyword("MAXBFGS", "dx", "L-BFGS cap on the step length (length) -> `lbfgs.maxStep`")
      .field("max-step", "the maximum step");
  t.keyword("MAXERISE", "dE",
            "largest energy rise an L-BFGS step may make (energy) -> `lbfgs.maxRise`")
      .field("max-rise", "the maximum rise");
  t.keyword("MAXIT", "n [n2]",
            "L-BFGS iteration caps: `n` for the quenches of the run, `n2` for the final tight "
            "quenches -> `sloppyMaxIterations`, `tightMaxIterations`")
      .field("max-iterations", "the iteration cap")
      .field("tight-max-iterations", "the final-quench cap");
  t.keyword("MORSE", "[rho]",
            "Morse pair potential of range `rho` (GMIN's default 6), energies in the well depth "
            "and lengths in r0 -> `pair.morseRho` (--morse)")
      .field("morse", "rho", "6");
  t.keyword("NTIP", "model",
            "rigid water molecules (GMIN's TIPnP family): 4 = TIP4P, the only one implemented; "
            "the molecules come from `coords` (N oxygen positions, then N angle-axis vectors) -> "
            "`waterModel` (--water tip4p)")
      .sets("water", "tip4p")
      .only("the water model", integerRule(1), "4");
  t.keyword("NEWRESTART", "nrelax [nhs]",
            "reseed when `nrelax` quenches have not lowered the best energy by EDIFF -> "
            "`newRestartSteps`; `nhs` (hard-sphere reseeding moves) must be 0 or absent, and "
            "GMIN's MD reseeding fields are not implemented")
      .field("new-restart", "the number of quenches")
      .only("hard-sphere reseeding", integerRule(0), "0");
  t.keyword("PERIODIC", "boxlx [boxly boxlz]",
            "orthorhombic periodic box with the minimum-image convention, one edge for a cube "
            "(length); needs a cutoff (SHIFTCUT, BLJCLUSTER); random starts fill the box, and "
            "CENTRE, RADIUS and STEP's angular moves, which need a cluster, may not be given -> "
            "`pair.box` (--box)")
      .part("box", "the box length x", realRule(0, true), boxField(0))
      .part("box", "the box length y", realRule(0, true), boxField(1))
      .part("box", "the box length z", realRule(0, true), boxField(2));
  t.keyword("PTTMIN", "kT",
            "temperature of the coldest BHPT replica (energy) -> `tempering.minTemperature`")
      .field("bhpt-min-temperature", "the lowest temperature");
  t.keyword("PTTMAX", "kT",
            "temperature of the hottest BHPT replica (energy) -> `tempering.maxTemperature`")
      .field("bhpt-max-temperature", "the highest temperature");
  t.keyword("RADIUS", "r",
            "radius of the spherical container (length); 0 = GMIN's default 2 + "
            "(3N/17.77153175)^(1/3) -> `containerRadius`")
      .field("container-radius", "the radius");
  t.keyword("RANSEED", "n",
            "seed of the random numbers; the same seed gives the same run -> `seed`")
      .field("seed", "the seed");
  t.keyword("RIGIDINIT", "",
            "local rigid bodies (Mantell et al., J. Chem. Theory Comput. 2016, section 2.1) from "
            "GMIN's `rbodyconfig` file in the "
            "working directory (GROUP blocks, docs/rigid-bodies.md) -> `rigidFile` = rbodyconfig; "
            "the bodies' shapes come from the starting structure (GMIN's coordsinirigid is not "
            "read)")
      .sets("rigid", "rbodyconfig");
}

void addMoreImplementedKeywords(Table& t) {
  t.keyword("SAVE", "n",
            "number of lowest distinct minima kept and re-quenched tightly -> `saveCount`")
      .field("save", "the number of minima");
  t.keyword("SHIFTCUT", "cutoff",
            "cut every pair at `cutoff` times its sigma with the quadratic smoothing of GMIN's "
            "periodic binary Lennard-Jones (LJPSHIFT: Stoddard and Ford, Phys. Rev. A 8, 1504 "
            "(1973)) -> `pair.cutoff` (--cutoff), `pair.convention` = quadratic-smoothed")
      .sets("cutoff-convention", "quadratic-smoothed")
      .field("cutoff", "the cutoff (in units of each pair's sigma)");
  t.keyword("SLOPPYCONV", "g",
            "RMS gradient (energy/length) that ends the quenches of the run -> `sloppyRms`")
      .field("sloppy-rms", "the RMS gradient");
  t.keyword("STEP", "step [astep [ostep]]",
            "maximum Cartesian displacement per coordinate (length) -> `stepSize`; `astep`: "
            "angular move of the most weakly bound atom when its energy exceeds astep times the "
            "lowest atom energy, 0 = off -> `angularThreshold`; `ostep`: largest rotation of a "
            "rigid body per step (radians, GMIN's OSTEP) -> `rigidMoves.rotation` "
            "(--rigid-rotation)")
      .field("step-size", "the step size")
      .field("angular-threshold", "the angular threshold")
      .number("the rigid-body rotation", realRule(0),
              [](C& c, double radians) { c.rigidMoves.rotation = radians; });
  t.keyword("STEPS", "n [tfac]",
            "number of basin-hopping steps -> `steps`; `tfac`, the temperature factor per step, "
            "must be 1.0 or absent (annealing is not implemented)")
      .field("steps", "the number of steps")
      .only("temperature factor", realRule(), "1.0");
  t.keyword("SYMMETRISE", "[nint tol1 tol2 tol3 tol4 tol5 nsymqmax matdiff distfac]",
            "symmetry-adapted moves into the vacant sites of the most symmetric core (Oakley, "
            "Johnston and Wales 2013; landscape/geometry/CoreSymmetryCompletion.h, our "
            "construction from the paper's description) -> `symmetrisation`: every `nint` "
            "quenches; tol1 orbit, tol2 point-group, tol3 occupied-site, tol4 merge and tol5 "
            "overlap distances (length); at most `nsymqmax` quenches; `matdiff` read and not "
            "used; `distfac` the core-weighted centre's decay (1/length)")
      .sets("symmetrise", "core")
      .field("symmetrise-interval", "the interval")
      .field("symmetrise-orbit-tolerance", "SYMTOL1")
      .field("symmetrise-symmetry-tolerance", "SYMTOL2")
      .field("symmetrise-occupied-tolerance", "SYMTOL3")
      .field("symmetrise-merge-tolerance", "SYMTOL4")
      .field("symmetrise-overlap", "SYMTOL5")
      .field("symmetrise-candidates", "NSYMQMAX")
      .number("MATDIFF", realRule(0),
              [](C& c, double v) { c.basinHopping.symmetrisation.matrixDifference = v; })
      .field("symmetrise-centre-decay", "DISTFAC");
  t.keyword("SYMMETRISECSM", "[nint group eps steps quenches maxit]",
            "quench the minimum averaged with its inversion image (continuous symmetry "
            "measure of Zabrodsky, Peleg and Avnir 1992; landscape/geometry/CsmSymmetrisation.h) "
            "-> `symmetrisation`: every `nint` quenches; `group` CI only; `eps` exact-symmetry "
            "threshold; `steps` and `maxit` read (CI needs no orientation search); `quenches` "
            "per attempt")
      .sets("symmetrise", "csm")
      .field("symmetrise-interval", "the interval")
      .field("csm-group", "the point group")
      .field("csm-epsilon", "CSMEPS")
      .field("csm-steps", "CSMSTEPS")
      .field("csm-quenches", "CSMQUENCHES")
      .field("csm-max-iterations", "CSMMAXIT");
  t.keyword("TARGET", "E",
            "stop once a minimum at or below this energy is found (one value; GMIN's list of "
            "several targets is not implemented) -> `targetEnergy`")
      .field("target", "the target energy");
  t.keyword("TEMPERATURE", "kT",
            "Metropolis temperature kT (energy; one value, GMIN's list for parallel runs is not "
            "implemented) -> `temperature`")
      .field("temperature", "kT");
  t.keyword("TIGHTCONV", "g",
            "RMS gradient (energy/length) of the final re-quench of the saved minima -> `tightRms`")
      .field("tight-rms", "the RMS gradient");
  t.keyword("UPDATES", "m", "L-BFGS history size (stored {s, y} pairs) -> `lbfgs.historySize`")
      .field("lbfgs-m", "the history size");
}

void addOtherKeywords(Table& t) {
  // ---- accepted, ignored with a warning: output and diagnostics only ----
  t.addKeywords(
      KeywordStatus::Ignored,
      {{"DEBUG", "", "GMIN's debugging printout"},
       {"DUMP", "", "write every quenched structure to a dump file"},
       {"DUMPMIN", "",
        "write the saved minima as dumpmin files every DUMPINT steps (landscape checkpoints its "
        "own results, see DUMPINT)"},
       {"GEOMDIFFTOL", "d",
        "geometric tolerance for telling minima apart: gmin's lowest list tells them apart by "
        "EDIFF alone"},
       {"MONITOR", "[n]", "GMIN's periodic progress monitoring output"},
       {"PERMDIST", "[tol]",
        "compare minima over permutations of the atoms: gmin always does for clusters of "
        "identical atoms (AVOID, SYMMETRISECSM)"},
       {"PRTFRQ", "n", "GMIN's printing interval of the log"},
       {"SORT", "",
        "sort the atoms of each saved minimum by their energy in the output (cosmetic)"},
       {"TRACKDATA", "", "write energy.dat, markov.dat and best.dat traces during the run"}});
  // ---- keywords that would change the run: an error until implemented ----
  t.addKeywords(
      KeywordStatus::NotImplemented,
      {{"FIXSTEP", "...", "fix the step size (GMIN then tunes the temperature)"},
       {"FIXTEMP", "...", "fix the temperature"},
       {"FREEZE", "...", "frozen atoms"},
       {"MPI", "", "parallel runs"},
       {"RANDOMSEED", "", "seed the random numbers from the clock (irreproducible; use RANSEED)"},
       {"RESTART", "...", "GMIN's older reseeding scheme (use NEWRESTART)"},
       {"RESTORE", "file", "continue a run from a GMIN dump file"},
       {"SEED", "[n]",
        "seed the cluster from a core structure (GMIN's meaning; the random seed is RANSEED)"}});
  // ---- file syntax ----
  t.addKeywords(KeywordStatus::Syntax,
                {{"COMMENT", "text", "the line is a comment"},
                 {"NOTE", "text", "the line is a comment"},
                 {"STOP", "", "end of the keywords; the rest of the file is not read"}});
  // Where each implemented keyword stood, for messages about settings that go (or not) together.
  t.afterKeywords([](const std::vector<KeywordLine>& lines, C& config) {
    for (const KeywordLine& line : lines) noteKeywordOrigin(line, config.keywordOrigins);
  });
}

}  // namespace

const OptionTable<GminConfig>& gminOptionTable() {
  static const Table table(
      "gmin",
      "gmin (landscape " LANDSCAPE_VERSION
      "): GMIN-style basin-hopping global optimisation of Lennard-Jones clusters, pair "
      "systems (Morse, binary Lennard-Jones, Kob-Andersen, tables; clusters or periodic boxes), "
      "Gupta metal clusters (--gupta), AMBER-GB molecules (--prmtop), SOP proteins (--sop-pdb), "
      "rigid water clusters (--water), Gay-Berne ellipsoids (--ellipsoids) and rigid bodies.\n"
      "Usage: gmin [options]\n"
      "\n"
      "Units: reduced Lennard-Jones units (energy epsilon, length sigma; temperatures are kT in "
      "epsilon), for pair systems those of the A-A pair (Morse: the well depth and r0), for "
      "Gupta clusters eV and the nearest-neighbour distance r0; AMBER-GB "
      "and SOP in kcal/mol and Angstrom (temperatures kT in kcal/mol); rigid TIP4P water in "
      "kJ/mol and Angstrom (GMIN's unit for it; kT in kJ/mol), SSD water in kcal/mol and "
      "Angstrom (kT in kcal/mol); Gay-Berne ellipsoids in reduced "
      "units (length sigma0, energy eps0; kT in eps0).\n"
      "With no options gmin runs GMIN's LJ38 example (LJ38 from a random start; the defaults "
      "below).\n"
      "Output goes to ./gmin-out by default (--output DIR).\n"
      "Precedence: command line > --config FILE > --gmin-data FILE > built-in defaults.\n"
      "Reals may use Fortran exponents (5.0D-3). [KEYWORD] is the GMIN data-file keyword.\n",
      {addGeneralAndSystem, addMolecules, addSop, addRigidAndLangevin, addBasinHopping,
       addSymmetrisation, addWalkers, addQuenchesAndOutput, addImplementedKeywords,
       addMoreImplementedKeywords, addOtherKeywords});
  return table;
}

namespace {

// The default job's goal: LJ38's global minimum (Cambridge Cluster Database), and a
// step cap that lets every seed reach it (docs/benchmarks.md: walkers to the first hit).
constexpr double kLj38GlobalMinimum = -173.928427;
constexpr long kLj38DefaultJobSteps = 200000;

// LJ38 from a random start with the built-in settings: stop at its global minimum.
void setDefaultJobGoal(const GivenOptions& given, GminConfig& config) {
  const bool lj38 = config.prmtopFile.empty() && config.sopPdbFile.empty() &&
                    config.coordsFile.empty() && !config.pair.active() && !config.gupta.active() &&
                    config.waterModel.empty() && config.ellipsoids == 0 && config.ljAtoms == 38;
  if (!lj38 || given.has("gmin-data") || given.has("target")) return;
  config.basinHopping.targetEnergy = kLj38GlobalMinimum;
  if (!given.has("steps")) config.basinHopping.steps = kLj38DefaultJobSteps;
}

// --centre and --no-centre: the higher-precedence source wins; both in one source is an error.
void resolveCentre(GivenOptions& given) {
  if (!given.has("centre") || !given.has("no-centre")) return;
  const bool centreOnCommandLine = given.origin("centre").rfind("command line", 0) == 0;
  const bool noCentreOnCommandLine = given.origin("no-centre").rfind("command line", 0) == 0;
  if (centreOnCommandLine == noCentreOnCommandLine)
    throw std::runtime_error(given.origin("no-centre") +
                             ": contradicts centre given in the same place");
  given.remove(centreOnCommandLine ? "no-centre" : "centre");
}

// A pair system is a system of atoms: not with a molecule, and without rigid bodies (whose moves
// and alignment assume a cluster of one kind of atom).
// The GB model's options name an AMBER molecule's solvent: given without --prmtop they would
// change nothing, so they are refused (as optim does) instead of ignored.
void checkMoleculeOptions(const GivenOptions& given, const GminConfig& config) {
  if (isAmber(config)) return;
  for (const char* name : {"igb", "saltcon", "rgbmax", "cut"})
    if (given.has(name))
      throw std::runtime_error(given.origin(name) + " applies to AMBER molecules and needs --prmtop");
}

void checkPairSystemOptions(const GminConfig& config) {
  const PairSystemConfig& pair = config.pair;
  if (config.gupta.active()) {
    // A Gupta cluster, like a pair system, is a cluster of atoms of its own potential.
    const std::string other = pair.active()                 ? pair.systemOrigin()
                              : !config.prmtopFile.empty() ? "--prmtop"
                              : !config.sopPdbFile.empty() ? "--sop-pdb"
                              : !config.rigidFile.empty()  ? "--rigid"
                                                           : "";
    if (!other.empty())
      throw std::runtime_error(config.gupta.origin() +
                               ": a Gupta cluster cannot be combined with " + other);
  }
  if (!pair.active()) return;
  if (!config.prmtopFile.empty() || !config.sopPdbFile.empty())
    throw std::runtime_error(pair.systemOrigin() + ": a pair system cannot be combined with " +
                             (config.prmtopFile.empty() ? "--sop-pdb" : "--prmtop"));
  if (!config.rigidFile.empty())
    throw std::runtime_error(pair.systemOrigin() +
                             ": rigid bodies (--rigid) are for molecules and Lennard-Jones "
                             "clusters, not pair systems");
}

// Rigid molecules (water, ellipsoids) move by rigid-body moves: GMIN's angular move (ASTEP) puts
// one atom on the cluster's surface, which would break a body (the rigid potential has no
// per-atom energies, so it would silently never happen). Asked for by name, it is refused.
void refuseAngularMoves(const GivenOptions& given, const GminConfig& config,
                        const std::string& origin) {
  if (config.basinHopping.angularThreshold <= 0.0) return;
  std::string where;
  if (given.has("angular-threshold")) {
    where = given.origin("angular-threshold");
  } else if (const auto it = config.keywordOrigins.find("STEP");
             it != config.keywordOrigins.end()) {
    where = it->second.where() + ": STEP";
  }
  if (!where.empty())
    throw std::runtime_error(where + ": angular moves put one atom on the cluster's surface; " +
                             origin +
                             " moves whole bodies (--rigid-translation, --rigid-rotation): "
                             "set the angular threshold (STEP's second field) to 0");
}

// A cluster of rigid molecules is a system of its own: the first other system asked for (water,
// a pair system, Gupta, a molecule, --rigid or --lj), or "" when there is none.
std::string otherSystemThanMolecules(const GminConfig& config, bool water) {
  return !water && !config.waterModel.empty() ? std::string("--water")
         : config.pair.active()               ? config.pair.systemOrigin()
         : config.gupta.active()              ? config.gupta.origin()
         : !config.prmtopFile.empty()         ? std::string("--prmtop")
         : !config.sopPdbFile.empty()         ? std::string("--sop-pdb")
         : !config.rigidFile.empty()          ? std::string("--rigid")
         : config.ljAtomsGiven                ? std::string("--lj")
                                              : std::string();
}

// The molecules' own rigid-body moves, unless a rigid-body move was asked for (options or STEP's
// ostep).
void useDefaultRigidMoves(const GivenOptions& given, const RigidBodyMoveParams& moves,
                          GminConfig& config) {
  if (!given.has("rigid-rotation") && !given.has("rigid-translation") &&
      !given.has("rigid-probability") && config.rigidMoves.rotation == 0.0 &&
      config.rigidMoves.translation == 0.0)
    config.rigidMoves = moves;
}

// Rigid water: a system of its own (not with a molecule, a pair system, Gupta, --lj or --rigid),
// with its molecule count from --molecules or --coords, and waterRigidBodyMoves() when no
// rigid-body move was asked for (options or STEP's ostep).
void resolveWaterSystem(const GivenOptions& given, GminConfig& config) {
  if (config.waterModel.empty()) {
    if (given.has("molecules"))
      throw std::runtime_error(given.origin("molecules") + " counts water molecules and needs --water");
    if (given.has("ions")) checkWaterIons(given.origin("ions"), config.waterIons, "");
    return;
  }
  const auto ntip = config.keywordOrigins.find("NTIP");
  const std::string origin = given.has("water") ? given.origin("water")
                             : ntip != config.keywordOrigins.end()
                                 ? ntip->second.where() + ": NTIP"
                                 : std::string("--water");
  const std::string other = otherSystemThanMolecules(config, true);
  if (!other.empty())
    throw std::runtime_error(origin + ": a water cluster cannot be combined with " + other);
  if (config.coordsFile.empty() && config.waterMolecules == 0)
    throw std::runtime_error(origin + ": give the number of molecules (--molecules N) or a "
                             "starting structure (--coords, GMIN's layout)");
  refuseAngularMoves(given, config, "rigid water");
  useDefaultRigidMoves(given, waterRigidBodyMoves(), config);
  if (!config.waterIons.empty()) {
    checkWaterIons(given.origin("ions"), config.waterIons, config.waterModel);
    config.rigidMoves.freeAtoms = true;  // the ions take the molecules' translations
  }
}

// Gay-Berne ellipsoids: a system of their own (as rigid water), their parameters checked here, and
// gayBerneClusterSearch's rigid-body moves when none was asked for.
void resolveEllipsoidSystem(const GivenOptions& given, GminConfig& config) {
  static const char* const kParameters[] = {"gay-berne-kappa", "gay-berne-kappa-prime",
                                            "gay-berne-mu", "gay-berne-nu", "gay-berne-cutoff"};
  if (config.ellipsoids == 0) {
    for (const char* name : kParameters)
      if (given.has(name))
        throw std::runtime_error(given.origin(name) +
                                 " is a parameter of Gay-Berne ellipsoids "
                                 "and needs --ellipsoids");
    return;
  }
  const std::string origin = given.origin("ellipsoids");
  const std::string other = otherSystemThanMolecules(config, false);
  if (!other.empty())
    throw std::runtime_error(origin + ": Gay-Berne ellipsoids cannot be combined with " + other);
  try {
    config.gayBerne.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("invalid parameters: ") + e.what());
  }
  refuseAngularMoves(given, config, "a cluster of ellipsoids");
  useDefaultRigidMoves(given, gayBerneClusterSearch(config.gayBerne, config.ellipsoids).moves,
                       config);
}

// What a periodic box has not: a centre of mass to fix (CENTRE), a container (RADIUS) and a
// cluster surface for the angular move of the most weakly bound atom (STEP's second field, GMIN's
// ASTEP). The defaults (GMIN's LJ38 example has all three) are switched off; a setting asked for
// by name is refused, naming where.
void adaptSearchToBox(const GivenOptions& given, GminConfig& config) {
  if (!config.pair.periodic()) return;
  BasinHoppingParams& p = config.basinHopping;
  auto askedFor = [&](const char* option, const char* keyword) -> std::string {
    if (given.has(option)) return given.origin(option);
    const auto it = config.keywordOrigins.find(keyword);
    return it == config.keywordOrigins.end() ? "" : it->second.where() + ": " + keyword;
  };
  const std::string box = " in a periodic box (" + config.pair.origin("box") + ")";
  std::string where;
  if (p.centre && !(where = askedFor("centre", "CENTRE")).empty())
    throw std::runtime_error(where + ": there is no cluster to centre" + box);
  if (p.angularThreshold > 0.0 && !(where = askedFor("angular-threshold", "STEP")).empty())
    throw std::runtime_error(where +
                             ": angular moves put an atom on a cluster's surface, which has none" +
                             box + "; set the angular threshold (STEP's second field) to 0");
  if (p.containerRadius > 0.0 && !(where = askedFor("container-radius", "RADIUS")).empty())
    throw std::runtime_error(where + ": there is no container" + box);
  p.centre = false;
  p.container = false;
  p.angularThreshold = 0.0;
}

// The parameters together, and the options that go (or do not go) together.
void checkGminConfig(const GminConfig& config) {
  try {
    config.basinHopping.check();
    if (!config.prmtopFile.empty()) config.amber.check();
    if (!config.sopPdbFile.empty()) config.sop.check();
    if (config.langevin.steps > 0) config.langevin.check();
    config.rigidMoves.check();
    if (config.tempering.enabled) config.tempering.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("invalid parameters: ") + e.what());
  }
  if (config.prmtopFile.empty() != config.inpcrdFile.empty())
    throw std::runtime_error("command line: --prmtop and --inpcrd go together");
  if (config.walkerPack == 1)
    throw std::runtime_error("command line: --walker-pack must be 0 (never pack) or at least 2");
  if (config.basinHopping.symmetrisation.on()) {
    const PairSystemConfig& pair = config.pair;
    const bool identicalAtoms = config.prmtopFile.empty() && config.sopPdbFile.empty() &&
                                config.rigidFile.empty() && !pair.periodic() &&
                                !pair.binaryLj && !pair.kobAndersen;
    if (!identicalAtoms) {
      const auto it = config.keywordOrigins.find(
          config.basinHopping.symmetrisation.scheme == SymmetrisationParams::Scheme::Csm
              ? "SYMMETRISECSM"
              : "SYMMETRISE");
      throw std::runtime_error(
          (it == config.keywordOrigins.end() ? std::string("command line: --symmetrise")
                                             : it->second.where() + ": " + it->first) +
          ": symmetry-adapted moves need a cluster of identical atoms (Lennard-Jones, Morse, "
          "Gupta or one tabulated pair law in open space)");
    }
  }
  if (config.energyOnly && config.prmtopFile.empty() && config.sopPdbFile.empty())
    throw std::runtime_error(
        "command line: --energy-only needs --prmtop and --inpcrd, or --sop-pdb");
  if (!config.sopPdbFile.empty() &&
      (!config.prmtopFile.empty() || !config.coordsFile.empty() || config.ljAtomsGiven))
    throw std::runtime_error(
        "command line: --sop-pdb cannot be combined with --prmtop, --lj or --coords");
  if (!config.prmtopFile.empty() && (!config.coordsFile.empty() || config.ljAtomsGiven))
    throw std::runtime_error("command line: --prmtop cannot be combined with --lj or --coords");
  if (!config.rigidFile.empty() && config.prmtopFile.empty() && config.coordsFile.empty())
    throw std::runtime_error(
        "command line: --rigid needs a starting structure (--prmtop/--inpcrd or --coords) that "
        "fixes the shapes of the bodies");
}

}  // namespace

std::vector<std::string> gminOptionNames() { return gminOptionTable().names(); }

GminConfig parseGminCommandLine(const std::vector<std::string>& arguments) {
  const OptionTable<GminConfig>& table = gminOptionTable();
  GminConfig config;
  GivenOptions given;
  if (!table.read(arguments, given, config, gminKeywordsMarkdown)) return config;

  // The GMIN data file replaces the built-in defaults. Not readGminDataFile(): its check() would
  // run before --config and the command line had their say; the merged parameters are checked
  // once, below.
  if (given.has("gmin-data")) {
    const std::string path = table.checkedSource(given, "gmin-data");
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open GMIN data file");
    config = gminKeywordDefaults();
    applyGminKeywords(in, path, config);  // its messages name the file and line
  }
  // A molecule without a data file starts from the molecular defaults, not LJ38's.
  if ((given.has("prmtop") || given.has("sop-pdb")) && !given.has("gmin-data"))
    config.basinHopping = gminAmberDefaultParams();
  if (given.has("water") && !given.has("gmin-data")) {
    config.basinHopping = gminWaterDefaultParams();
    // TIP4P's kT of 4 kJ/mol is about 1 kcal/mol, SSD's unit.
    if (given.value("water") == "ssd") config.basinHopping.temperature = 1.0;
  }
  // Reduced units: the search settings do not depend on the Gay-Berne parameters.
  if (given.has("ellipsoids") && !given.has("gmin-data"))
    config.basinHopping = gayBerneClusterSearch(GayBerneParams(), 2).params;

  config.symmetriseGiven = given.has("symmetrise") ||
                           config.keywordOrigins.count("SYMMETRISE") > 0 ||
                           config.keywordOrigins.count("SYMMETRISECSM") > 0;
  resolveCentre(given);
  table.apply(given, config);
  resolvePairSystem(config.pair, given, config.keywordOrigins);
  resolveGuptaSystem(config.gupta, given, config.keywordOrigins);
  checkMoleculeOptions(given, config);
  checkPairSystemOptions(config);
  resolveWaterSystem(given, config);
  resolveEllipsoidSystem(given, config);
  adaptSearchToBox(given, config);
  setDefaultJobGoal(given, config);
  checkGminConfig(config);
  return config;
}

GminConfig parseGminCommandLine(int argc, const char* const argv[]) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i] ? argv[i] : "");
  return parseGminCommandLine(arguments);
}

CheckpointFingerprint gminCheckpointFingerprint(const GminConfig& config,
                                                const GminRunFacts& facts) {
  const BasinHoppingParams& p = config.basinHopping;
  CheckpointFingerprint fingerprint = {
      {"atoms", std::to_string(facts.atoms)},
      {"potential", facts.potential},
      {"dimension", std::to_string(facts.dimension)},
      {"container-radius-used", exactText(facts.containerRadiusUsed)},
      // Basin-hopping settings that no option sets.
      {"step-adjust-factor", exactText(p.stepAdjustFactor)},
      {"container", p.container ? "on" : "off"},
  };
  // Every number of a pair system, exactly (the options hold a table's name, not its rows).
  if (!facts.pairModel.empty()) fingerprint.push_back({"pair-model", facts.pairModel});
  for (auto& entry : gminOptionTable().fingerprint(config)) fingerprint.push_back(entry);
  return fingerprint;
}

void checkGminCheckpoint(const std::string& path, const CheckpointFingerprint& saved,
                         const CheckpointFingerprint& current, const GminConfig& config) {
  CheckpointFingerprint upgraded =
      gminOptionTable().upgradeFingerprint(saved, config, GminConfig{});
  // The first checkpoints wrote an empty --coords as "random".
  for (auto& [key, value] : upgraded)
    if (key == "coords" && value == "random") value = "none";
  checkFingerprint(path, upgraded, current);
}

}  // namespace landscape
