#include "src/optim/OptimOptions.h"

#include <array>
#include <cmath>
#include <fstream>
#include <istream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/core/InputChecks.h"
#include "src/common/SharedOptions.h"
#include "src/optim/OptimOdataFile.h"

#ifndef LANDSCAPE_VERSION
#define LANDSCAPE_VERSION "unknown"
#endif

namespace landscape {

namespace {

using C = OptimConfig;
using S = OptimSettings;
using TS = HybridEigenvectorFollowingParams;
using Table = OptionTable<OptimConfig>;

template <class M>
auto top(M member) {
  return fieldOf(member);
}

// Field i of BLJCLUSTER (--binary-lj), of BULK (--box).
std::function<void(C&, double)> binaryField(std::size_t i) {
  return [i](C& c, double v) { setBinaryLjField(c.pair, i, v); };
}
std::function<void(C&, double)> boxField(std::size_t i) {
  return [i](C& c, double v) { setBoxField(c.pair, i, v); };
}
template <class... M>
auto connect(M... members) {
  return fieldOf(&C::settings, &S::connect, members...);
}
template <class... M>
auto search(M... members) {
  return fieldOf(&C::settings, &S::connect, &ConnectParams::transitionStateSearch, members...);
}
template <class M>
auto minimiser(M member) {
  return connect(&ConnectParams::descent, &TransitionStateDescentParams::minimiser, member);
}
template <class M>
auto dneb(M member) {
  return connect(&ConnectParams::dneb, member);
}
template <class... M>
auto network(M... members) {
  return fieldOf(&C::settings, &S::network, members...);
}

// The endpoint minimiser follows the descent's (BFGSMIN, BFGSSTEPS, UPDATES, MAXBFGS).
template <class M>
auto alsoEndpoints(M LbfgsParams::*member) {
  return [member](C& c) {
    c.settings.endpointMinimiser.*member = c.settings.connect.descent.minimiser.*member;
  };
}

void addGeneralAndSystem(Table& t) {
  t.section("General");
  t.standardCommands();
  t.source("config", "FILE",
           "INI file of these options, `key = value` per line, `#` comments (paths in it are "
           "relative to the working directory); the command line overrides it")
      .commandLineOnly();
  t.source("odata", "FILE",
           "OPTIM `odata` keyword file (docs/optim-keywords.md); replaces the built-in defaults "
           "by the keyword defaults (PERMDIST and REOPTIMISEENDPOINTS off unless given); its "
           "POINTS block is the start; --config and the command line override it");

  t.section("System");
  t.add("lj", "N",
        "number of atoms of the Lennard-Jones cluster or pair system; must match the endpoint "
        "files",
        top(&C::ljAtoms))
      .alias("atoms")
      .atLeast(2)
      .atMost(100000000)
      .defaultText("from the endpoints");
  t.add("start", "FILE",
        "first endpoint (sigma): XYZ, or GMIN's `coords` with 3 numbers per line; molecules "
        "(Angstrom): AMBER inpcrd/rst7, or XYZ when the name ends in .xyz",
        top(&C::startFile))
      .file()
      .defaultText("odata POINTS, else --inpcrd, else the LJ7 pentagonal bipyramid");
  t.add("finish", "FILE", "second endpoint (sigma), same formats (OPTIM's `finish`)",
        top(&C::finishFile))
      .file()
      .defaultText("the LJ7 capped octahedron");
  addBackendOption(t, top(&C::backend));
  addLbfgsBackendOption(
      t,
      "where the L-BFGS vectors of the eigenvector search, the tangent-space minimisation, the "
      "descents and the endpoint minimisations live: cpu (host) or gpu (device: directions with "
      "long histories cost little there; coordinates and gradient still cross to the host once "
      "per call for the projections; with --backend cuda the descents and the endpoint "
      "minimisations run together on the device's batched L-BFGS). DNEB bands stay on the host",
      top(&C::lbfgsBackend));
  t.add("threads", "T",
        "CPU threads for the batched work: the DNEB images of each band evaluation, the descents "
        "of a band's transition states and the two endpoint minimisations (one copy of the "
        "potential per thread, rigid bodies included; results do not depend on T). --backend cuda "
        "uses one (on cuda the images go to the batched GPU potential, rigid or not); "
        "with --lbfgs-backend gpu on the CPU only the images are batched",
        top(&C::threads))
      .atLeast(1)
      .defaultText("the CPU cores")
      .notInCheckpoint();
  t.add(
       "searches-in-flight", "N",
       "the DNEB bands of a cycle's missing links and the hybrid EF refinements of a band's "
       "candidates run side by side, N at once (fibres of one thread), and every structure of "
       "the connect run "
       "(images, searches, descents) goes through shared batched calls: of the device's batched "
       "potential on --backend cuda (its round-off, not the "
       "single-structure kernels'), of --threads CPU potentials on cpu (the same results as "
       "N = 1; with --rigid or --water in rigid coordinates). Not with --lbfgs-backend gpu. 1: one "
       "search after another",
       top(&C::searchesInFlight))
      .atLeast(1)
      .atMost(256);
  addRigidOption(t,
                 "(docs/rigid-bodies.md); DNEB and hybrid EF then work in rigid coordinates with "
                 "distances measured in them",
                 top(&C::rigidFile));
  t.add("water", "MODEL",
        "a cluster of rigid water molecules, one rigid body each (docs/water.md): tip4p = TIP4P "
        "(Jorgensen et al., J. Chem. Phys. 79, 926 (1983)) as GMIN's NTIP 4 defines it, energies "
        "in kJ/mol and lengths in Angstrom; --start and --finish in GMIN's layout (N oxygen "
        "positions, then N angle-axis vectors) or XYZ of the sites O H H M (.xyz: gmin's "
        "`lowest`, X for M); DNEB and hybrid EF work in angle-axis coordinates, minima are "
        "told apart over rotations, translations, inversion and permutations of the molecules "
        "and of each molecule's hydrogens, and the finish is so aligned onto the start; ssd = "
        "soft-sticky-dipole water (Liu and Ichiye, J. Phys. Chem. 100, 2723 (1996)), kcal/mol "
        "and Angstrom, --start and --finish as N centres then N angle-axis vectors (gmin "
        "--coords) or XYZ of the 4 markers per molecule (.xyz: gmin --water ssd's `lowest`)",
        top(&C::waterModel))
      .choices(std::vector<std::string>{"tip4p", "ssd"})
      .defaultText("none");
  addWaterIonsOption(
      t, top(&C::waterIons), [](const C& c) { return c.waterModel == "tip4p"; },
      "; --start and --finish then end with one line per ion, after the "
      "angle-axis vectors (GMIN's layout) or the molecules' sites (.xyz, labelled "
      "by element, Na or Cl); identical ions are permuted when minima are compared");
  const auto isEllipsoids = [](const C& c) { return c.ellipsoids; };
  t.flag("ellipsoids",
         "a cluster of uniaxial Gay-Berne ellipsoids (Gay and Berne, J. Chem. Phys. 74, 3316 "
         "(1981); docs/gay-berne.md), each one rigid body of 4 markers, in reduced units "
         "(sigma0, eps0; masses m0); --start and --finish as N centres then N angle-axis vectors "
         "(gmin --coords; p = 0 the axis along z) or XYZ of the 4 markers per ellipsoid (.xyz: "
         "gmin --ellipsoids' `lowest`, E E X X); DNEB and hybrid EF work in angle-axis "
         "coordinates with each ellipsoid's spin about its axis projected out, minima are told "
         "apart by the centres and axis tips over rotations, translations, inversion, "
         "permutations of the ellipsoids and their head-to-tail turns, and the finish is so "
         "aligned onto the start; normal modes with each ellipsoid a uniform solid of unit mass",
         top(&C::ellipsoids));
  addGayBerneOptions(t, top(&C::gayBerne), isEllipsoids);
  addPrecisionOption(t,
                     ". Transition states need double: the Rayleigh-Ritz eigenvector search "
                     "differences gradients 1e-6 A apart, and they must converge to RMS 1e-5",
                     top(&C::precision));
  addPairSystemOptions(t, top(&C::pair),
                       "; the endpoints' distances, the DNEB interpolation and the duplicate "
                       "checks use minimum images over translations modulo the box (the finish "
                       "is aligned onto the start first), and only the overall translations are "
                       "zero modes");
  addGuptaSystemOptions(t, top(&C::gupta));
}

void addMolecules(Table& t) {
  t.section("Molecules (AMBER, kcal/mol and Angstrom)");
  addPrmtopOption(
      t,
      "connect minima of a molecule on the AMBER force field with generalized "
      "Born solvent; epsilon and sigma in this help then read kcal/mol and Angstrom, and the "
      "defaults change (without --odata) to NEWCONNECT 50 3 4.0 30.0 30, first DNEB 10 images "
      "300 iterations RMS 0.01, EDIFFTOL 1.0D-4, GEOMDIFFTOL 0.1, BFGSMIN 1.0D-5, MAXBFGS 0.4, "
      "PUSHOFF 0.05, hybrid EF as Mantell et al., J. Chem. Theory Comput. 2016, section 3.3; "
      "alignment without inversion",
      top(&C::prmtopFile));
  addInpcrdOption(t,
                  " of the topology: the start when no --start is given, and the reference "
                  "handedness of the stereocentres",
                  top(&C::inpcrdFile))
      .defaultText("none, --start is the reference");
  addAmberGbOptions(t, top(&C::amber));
  t.add("perm-allow", "FILE",
        "OPTIM perm.allow file: groups of interchangeable atoms (1-based; first line the number "
        "of groups, then per group 'SIZE NSWAP' and SIZE x (1 + NSWAP) atom indices); minimum "
        "distances then minimise over permutations within these groups (PERMDIST with "
        "perm.allow)",
        top(&C::permAllowFile))
      .file()
      .defaultText("none, no permutations for molecules");
}

void addConnect(Table& t) {
  t.section("Connect");
  t.add("max-cycles", "N", "connect cycles before giving up", connect(&ConnectParams::maxCycles))
      .atLeast(1)
      .notInCheckpoint();  // a resumed run may go on for longer
  t.add("max-tries", "N", "DNEB attempts per pair of minima",
        connect(&ConnectParams::maxTriesPerPair))
      .atLeast(1);
  t.add("image-density", "D", "DNEB images per unit endpoint distance",
        dneb(&DnebParams::imageDensity))
      .unit("1/sigma")
      .positive();
  t.add("iteration-density", "D", "DNEB iterations per image", dneb(&DnebParams::iterationDensity))
      .positive();
  t.add("max-images", "N", "cap on the DNEB images", dneb(&DnebParams::maxImages)).atLeast(1);
  t.add("neb-rms", "G", "RMS band gradient that ends a DNEB run", dneb(&DnebParams::rmsTolerance))
      .unit("epsilon/sigma")
      .positive();
  t.add("first-images", "N", "images of the first DNEB run (0 = scaled with the distance)",
        connect(&ConnectParams::firstImages))
      .atLeast(0);
  t.add("first-iterations", "N", "iterations of the first DNEB run (0 = scaled)",
        connect(&ConnectParams::firstIterations))
      .atLeast(0);
  t.add("spring-constant", "K", "DNEB spring constant", dneb(&DnebParams::springConstant))
      .unit("epsilon/sigma^2")
      .nonNegative();
  t.add("dijkstra-power", "P", "a missing link costs distance^P in the choice of the next pair",
        connect(&ConnectParams::distancePower))
      .positive();
  t.add("permutations", "",
        "minimum distances over permutations of the atoms too; molecules: only within the "
        "--perm-allow groups, which it needs",
        network(&TransitionNetworkParams::alignment, &AlignmentParams::permutations))
      .then([](C& c) {
        c.settings.connect.dneb.alignment.permutations = c.settings.network.alignment.permutations;
      });
  t.add("random-orientations", "N",
        "random starting orientations of the alignment; the DNEB's endpoint alignment keeps at "
        "least 256",
        network(&TransitionNetworkParams::alignment, &AlignmentParams::randomOrientations))
      .atLeast(0)
      .then([](C& c) {
        raiseDnebRandomOrientations(c.settings.connect.dneb,
                                    c.settings.network.alignment.randomOrientations);
      });
  t.add("cold-fusion", "DE",
        "reject a DNEB step that takes an image more than DE below the lower endpoint (OPTIM's "
        "COLDFUSION, relative); 0 = off",
        dneb(&DnebParams::coldFusionDrop))
      .unit("epsilon")
      .nonNegative()
      .defaultText("off; molecules 100")
      .then([](C& c) {
        double& drop = c.settings.connect.dneb.coldFusionDrop;
        if (drop == 0.0) drop = std::numeric_limits<double>::infinity();
      });
  t.add("edifftol", "DE", "stationary points closer in energy may be the same",
        network(&TransitionNetworkParams::energyTolerance))
      .unit("epsilon")
      .nonNegative();
  t.add("geomdifftol", "D", "... and are the same when also closer than D after alignment",
        network(&TransitionNetworkParams::geometryTolerance))
      .unit("sigma")
      .nonNegative();
}

void addTransitionStateSearch(Table& t) {
  t.section("Transition-state search");
  t.add("ts-steps", "N", "eigenvector-following iterations per search", search(&TS::maxIterations))
      .atLeast(1);
  t.add("rr-iterations", "N", "Rayleigh-Ritz iterations per eigenvector search",
        search(&TS::rayleighRitz, &RayleighRitzParams::lbfgs, &LbfgsParams::maxIterations))
      .atLeast(1);
  t.add("tangent-iterations-before", "N",
        "tangent-space iterations while the eigenvector still turns",
        search(&TS::tangentIterationsBefore))
      .atLeast(1);
  t.add("tangent-iterations-after", "N", "tangent-space iterations once it has converged",
        search(&TS::tangentIterationsAfter))
      .atLeast(1);
  t.add("rr-rms", "G", "RMS Rayleigh-Ritz gradient ending an eigenvector search",
        search(&TS::rayleighRitz, &RayleighRitzParams::lbfgs, &LbfgsParams::rmsTolerance))
      .unit("epsilon/sigma^2")
      .positive();
  t.add("max-step", "DX", "first maximum uphill step", search(&TS::initialUphillStep))
      .unit("sigma")
      .positive();
  t.add("max-max", "DX", "largest maximum uphill step", search(&TS::maxUphillStep))
      .unit("sigma")
      .positive();
  t.add("min-step", "DX", "smallest maximum uphill step", search(&TS::minUphillStep))
      .unit("sigma")
      .positive();
  t.add("trust-ratio", "R",
        "relative error of the predicted gradient change before the uphill step shrinks",
        search(&TS::trustRatio))
      .unit("dimensionless")
      .positive();
  t.add("ts-rms", "G", "a transition state needs an RMS gradient below G",
        search(&TS::rmsTolerance))
      .unit("epsilon/sigma")
      .positive();
  t.add("ts-step-tolerance", "DX", "... and a last uphill step below DX",
        search(&TS::stepTolerance))
      .unit("sigma")
      .positive();
}

void addMinimisation(Table& t) {
  t.section("Minimisation (L-BFGS)");
  t.add("bfgs-rms", "G",
        "RMS gradient ending the descents from transition states and the endpoint "
        "minimisations",
        minimiser(&LbfgsParams::rmsTolerance))
      .unit("epsilon/sigma")
      .positive()
      .then(alsoEndpoints(&LbfgsParams::rmsTolerance));
  t.add("bfgs-steps", "N", "iteration cap of those minimisations",
        minimiser(&LbfgsParams::maxIterations))
      .atLeast(1)
      .then(alsoEndpoints(&LbfgsParams::maxIterations));
  addLbfgsHistoryOption(t, "L-BFGS history size of those minimisations",
                        minimiser(&LbfgsParams::historySize))
      .then(alsoEndpoints(&LbfgsParams::historySize));
  addLbfgsHistoryOption(t, "L-BFGS history size of the tangent-space minimisation",
                        search(&TS::tangentSpace, &LbfgsParams::historySize), "tangent-lbfgs-m");
  t.add("max-bfgs-step", "DX", "L-BFGS step cap of those minimisations",
        minimiser(&LbfgsParams::maxStep))
      .unit("sigma")
      .positive()
      .then(alsoEndpoints(&LbfgsParams::maxStep));
  t.add("pushoff", "D", "step off a transition state along its eigenvector before descending",
        connect(&ConnectParams::descent, &TransitionStateDescentParams::pushoff))
      .unit("sigma")
      .positive();
  t.add("reoptimise-endpoints", "", "minimise the endpoints first; no: they must be minima already",
        fieldOf(&C::settings, &S::reoptimiseEndpoints));

  t.section("Characterisation");
  t.add("hessian-max-atoms", "N",
        "finite-difference Hessian (log product for min.data/ts.data; mass-weighted with the "
        "prmtop's masses for molecules) only up to N atoms; 0 = never",
        fieldOf(&C::settings, &S::characterisation, &CharacterisationParams::maxHessianAtoms))
      .atLeast(0)
      .atMost(100000000)
      .defaultText("no limit");
  t.add("spectrum-max-atoms", "N",
        "all 3N Hessian eigenvalues (network.h5 hessian_eigenvalues, path.info; a full "
        "eigen-decomposition) only up to N atoms",
        fieldOf(&C::settings, &S::characterisation, &CharacterisationParams::maxSpectrumAtoms))
      .atLeast(0)
      .atMost(100000000);
  t.add("symmetry-tolerance", "D", "point groups: images of atoms within D of atoms",
        fieldOf(&C::settings, &S::characterisation, &CharacterisationParams::pointGroup,
                &PointGroupParams::distanceTolerance))
      .unit("sigma")
      .positive();
}

void addOutput(Table& t) {
  t.section("Output");
  t.add("output", "DIR",
        "directory for the results (created if missing): network.h5 (unless --database; one "
        "already there is extended, another system's refused), path.info",
        top(&C::outputDir))
      .named("a directory name")
      .defaultText("./optim-out")
      .notInCheckpoint();
  t.add("database", "FILE",
        "transition-network HDF5 file to extend: read when it exists (a gmin minima.h5 too; "
        "another system's is refused), rewritten with everything found after every connect "
        "cycle; one writer at a time",
        top(&C::databaseFile))
      .named("a file name")
      .defaultText("none, DIR/network.h5 is written")
      .notInCheckpoint();
  t.add("resume", "DIR",
        "continue the connect run whose --output folder is DIR from its connect.checkpoint (saved "
        "after every cycle), with the same options (checked; --max-cycles may be larger); a folder "
        "without one (stopped in cycle 1) starts the run afresh there",
        top(&C::resumeDir))
      .named("a directory name")
      .defaultText("off")
      .notInCheckpoint();
  t.add("seed", "N", "random seed of the alignments' orientations and first eigenvector guesses",
        fieldOf(&C::settings, &S::seed))
      .atLeast(0);
  t.flag("quiet", "print only the three result lines", top(&C::quiet)).notInCheckpoint();
}

// OPTIM's keywords, in the order of docs/optim-keywords.md. OPTIM's meaning of each follows its
// keywords documentation and the example's optim.out; the landscape field it sets is named after
// the arrow (fields of OptimSettings; `connect.` is ConnectParams).
void addKeywordsBToM(Table& t) {
  t.keyword("BFGSMIN", "g",
            "RMS gradient (energy/length) that ends the L-BFGS minimisations: the descent from "
            "each transition state and, with REOPTIMISEENDPOINTS, the endpoints -> "
            "`connect.descent.minimiser.rmsTolerance`, `endpointMinimiser.rmsTolerance`")
      .field("bfgs-rms", "the RMS gradient");
  t.keyword("BFGSSTEPS", "n",
            "iteration cap of those minimisations -> `connect.descent.minimiser.maxIterations`, "
            "`endpointMinimiser.maxIterations`")
      .field("bfgs-steps", "the iteration cap");
  t.keyword("BFGSTS", "nevs [nbfgs1 [nbfgs2 [ceig]]]",
            "hybrid eigenvector-following: at most `nevs` Rayleigh-Ritz iterations per "
            "eigenvector search -> `connect.transitionStateSearch.rayleighRitz.lbfgs."
            "maxIterations`; `nbfgs1` and `nbfgs2` tangent-space L-BFGS iterations before and "
            "after the eigenvector has converged -> `tangentIterationsBefore`, "
            "`tangentIterationsAfter`; `ceig` the RMS of the Rayleigh-Ritz gradient "
            "(energy/length^2) that ends an eigenvector search -> "
            "`rayleighRitz.lbfgs.rmsTolerance`")
      .field("rr-iterations", "the Rayleigh-Ritz iterations")
      .field("tangent-iterations-before", "the tangent-space iterations")
      .field("tangent-iterations-after", "the converged tangent-space iterations")
      .field("rr-rms", "the eigenvector RMS tolerance");
  binaryLjKeywordParts(
      t.keyword(
           "BLJCLUSTER", "ntypea epsab epsbb sigab sigbb cutoff",
           "binary Lennard-Jones: the first `ntypea` atoms of the endpoints are A (the units), "
           "the others B, with epsilon_AB, epsilon_BB, sigma_AB, sigma_BB; each pair cut at "
           "`cutoff` times its sigma with GMIN's quadratic smoothing (V and V' zero there) -> "
           "`pair.binaryLj` (--binary-lj), `pair.cutoff`, `pair.convention` = quadratic-smoothed")
          .sets("cutoff-convention", "quadratic-smoothed"),
      binaryField)
      .field("cutoff", "the cutoff (in units of each pair's sigma)");
  t.keyword("BULK", "boxlx [boxly boxlz]",
            "orthorhombic periodic box with the minimum-image convention (length; one edge: a "
            "cube), for a pair system with a cutoff (BLJCLUSTER, --cutoff, --kob-andersen): "
            "distances, the DNEB interpolation and duplicates over translations modulo the box, "
            "only the translations as zero modes -> `pair.box` (--box)")
      .part("box", "the box length x", realRule(0, true), boxField(0))
      .part("box", "the box length y", realRule(0, true), boxField(1))
      .part("box", "the box length z", realRule(0, true), boxField(2));
  t.keyword("DIJKSTRA", "n",
            "choose the pair to connect by Dijkstra's algorithm with a missing link costing "
            "distance^n (n > 0; OPTIM's other cost functions, n = 0, are not implemented) -> "
            "`connect.distancePower`")
      .field("dijkstra-power", "the distance power");
  t.keyword("DUMPALLPATHS", "",
            "write every transition state found, with the minima it connects, to path.info "
            "(optim always does)");
  t.keyword("EDIFFTOL", "dE",
            "stationary points closer in energy than this may be the same (energy) -> "
            "`network.energyTolerance`")
      .field("edifftol", "the energy tolerance");
  t.keyword("GEOMDIFFTOL", "d",
            "... and are the same when their minimum distance is also below this (length) -> "
            "`network.geometryTolerance`")
      .field("geomdifftol", "the distance tolerance");
  t.keyword("MAXBFGS", "dx [dx2]",
            "L-BFGS step cap (length) of the minimisations -> "
            "`connect.descent.minimiser.maxStep`, `endpointMinimiser.maxStep`; `dx2` that of the "
            "tangent-space minimisation -> `connect.transitionStateSearch.tangentSpace.maxStep`")
      .field("max-bfgs-step", "the maximum step")
      .number("the tangent-space maximum step", realRule(0, true), [](C& c, double dx) {
        c.settings.connect.transitionStateSearch.tangentSpace.maxStep = dx;
      });
  t.keyword("MAXMAX", "dx",
            "largest uphill step the trust radius may grow to (length) -> "
            "`connect.transitionStateSearch.maxUphillStep`")
      .field("max-max", "the largest step");
  t.keyword("MAXSTEP", "dx",
            "first maximum uphill step of eigenvector-following (length) -> "
            "`connect.transitionStateSearch.initialUphillStep`")
      .field("max-step", "the maximum step");
  t.keyword("GUPTA", "type",
            "Gupta metal cluster of OPTIM's Gupta table row `type`: " + guptaGminTypesText() +
                " (Cleri and Rosato's parameters, lengths in r0; OPTIM also wants the atoms "
                "labelled GP, which is not needed here); the other rows are not implemented -> "
                "`gupta.metal` (--gupta)")
      .number("the metal type", [] {
        ValueRule rule = integerRule(1);
        rule.allowed = guptaGminTypes();
        return rule;
      }(), [](C& c, double type) { setGuptaMetalOfGminType(c.gupta, type); });
  t.keyword("MORSE", "[rho]",
            "Morse pair potential of range `rho` (GMIN's keyword; default 6; OPTIM chooses Morse "
            "by the atom label M), energies in the well depth and lengths in r0 -> "
            "`pair.morseRho` (--morse)")
      .field("morse", "rho", "6");
}

void addKeywordsNToU(Table& t) {
  t.keyword("NEBK", "k", "DNEB spring constant (energy/length^2) -> `connect.dneb.springConstant`")
      .field("spring-constant", "the spring constant");
  t.keyword("NEWCONNECT",
            "nconmax ntriesmax imagedensity iterdensity imagemax [imageincr [rmstol]]",
            "connect run: at most `nconmax` cycles -> `connect.maxCycles`; `ntriesmax` DNEB "
            "attempts per pair -> `connect.maxTriesPerPair`; images per unit distance "
            "(1/length) -> `connect.dneb.imageDensity`; iterations per image -> "
            "`connect.dneb.iterationDensity`; image cap -> `connect.dneb.maxImages`; `imageincr` "
            "(more images on a retried pair) must be 0 or absent unless `ntriesmax` is 1 (then no "
            "pair is retried and it has no effect); `rmstol` the DNEB RMS gradient "
            "(energy/length) -> `connect.dneb.rmsTolerance`")
      .field("max-cycles", "the number of cycles")
      .field("max-tries", "the attempts per pair")
      .field("image-density", "the image density")
      .field("iteration-density", "the iteration density")
      .field("max-images", "the image cap")
      .unused("image increment", realRule())
      .field("neb-rms", "the DNEB RMS tolerance");
  t.keyword("NEWNEB", "nimage niter [rmstol]",
            "the first DNEB run uses `nimage` images -> `connect.firstImages` and `niter` "
            "iterations -> `connect.firstIterations`; `rmstol` (energy/length) -> "
            "`connect.dneb.rmsTolerance` when NEWCONNECT gives none (one tolerance serves every "
            "run; a warning when the two differ)")
      .field("first-images", "the number of images")
      .field("first-iterations", "the number of iterations")
      .field("neb-rms", "the DNEB RMS tolerance");
  t.keyword("NOFRQS", "",
            "do not compute Hessian eigenvalues at the stationary points (log products stay "
            "unknown, path.info has no eigenvalue lines) -> `characterisation.maxHessianAtoms` "
            "= 0")
      .sets("hessian-max-atoms", "0");
  t.keyword("NOHESS", "",
            "transition-state searches without a Hessian (hybrid eigenvector-following with a "
            "Rayleigh-Ritz eigenvector search; optim always works this way)");
  t.keyword("PERMDIST", "[tol]",
            "minimum distances over permutations of identical atoms (all atoms of an LJ cluster) "
            "as well as translation, rotation and inversion -> `network.alignment.permutations`, "
            "`connect.dneb.alignment.permutations`; OPTIM's orbit tolerance `tol` is not used. "
            "For molecules (`--prmtop`) only permutations within the groups of `--perm-allow "
            "FILE` (OPTIM's perm.allow), which PERMDIST then needs, and never inversion")
      .sets("permutations", "yes")
      .unused("the orbit tolerance", realRule(0));
  t.keyword("PUSHOFF", "d",
            "displacement along the transition-state eigenvector before each descent (length) -> "
            "`connect.descent.pushoff`")
      .field("pushoff", "the pushoff");
  t.keyword("RANROT", "n",
            "random starting orientations of the permutational alignment -> "
            "`network.alignment.randomOrientations`; "
            "`connect.dneb.alignment.randomOrientations` only where n exceeds its default (256): "
            "the DNEB's endpoint alignment, once per band, keeps its more thorough search")
      .field("random-orientations", "the number of orientations");
  t.keyword("REOPTIMISEENDPOINTS", "",
            "minimise both endpoints before connecting (otherwise they must already be minima) -> "
            "`reoptimiseEndpoints`")
      .sets("reoptimise-endpoints", "yes");
  t.keyword("STEPS", "n",
            "eigenvector-following iterations per transition-state search -> "
            "`connect.transitionStateSearch.maxIterations`")
      .field("ts-steps", "the number of steps");
  t.keyword("TRAD", "r",
            "trust ratio of eigenvector-following: relative error of the predicted gradient "
            "change tolerated before the uphill step shrinks -> "
            "`connect.transitionStateSearch.trustRatio`")
      .field("trust-ratio", "the trust ratio");
  t.keyword("UPDATES", "m [m2]",
            "L-BFGS history size of the minimisations -> `connect.descent.minimiser.historySize`, "
            "`endpointMinimiser.historySize`; `m2` that of the tangent-space minimisation -> "
            "`connect.transitionStateSearch.tangentSpace.historySize`")
      .field("lbfgs-m", "the history size")
      .field("tangent-lbfgs-m", "the tangent-space history size");
}

// The POINTS block: `LABEL x y z` per atom to the end of the file.
void readPoints(const KeywordLine& at, std::istream& in, std::size_t& lineNumber, C& config) {
  std::vector<double> points;
  std::string text;
  while (std::getline(in, text)) {
    ++lineNumber;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    const std::vector<std::string> fields = splitKeywordFields(text);
    if (fields.empty()) continue;
    const KeywordLine line{at.source, lineNumber, "POINTS", fields};
    if (fields.size() != 4)
      line.fail("POINTS expects 'LABEL x y z' lines to the end of the file, found " +
                quoteInput(text));
    for (int k = 1; k <= 3; ++k) {
      const auto value = parseFortranReal(fields[k]);
      if (!value)
        line.fail("POINTS expects a number for coordinate " + std::to_string(k) + ", found " +
                  quoteInput(fields[k]));
      if (std::fabs(*value) > kMaxInputCoordinate)
        line.fail("POINTS coordinate " + quoteInput(fields[k]) + " is beyond the " +
                  std::to_string(static_cast<long>(kMaxInputCoordinate)) +
                  " length units that an input coordinate may have");
      points.push_back(*value);
    }
  }
  if (points.empty())
    KeywordLine{at.source, lineNumber, "POINTS", {}}.fail(
        "POINTS is followed by no 'LABEL x y z' lines");
  config.odataPoints = std::move(points);
}

// One DNEB RMS tolerance serves every run (ConnectParams has no separate first-run value):
// NEWCONNECT's, wherever it stands, over NEWNEB's.
void resolveNebRms(const std::vector<KeywordLine>& lines, C& config) {
  const KeywordLine *connectLine = nullptr, *nebLine = nullptr;
  for (const auto& line : lines) {
    if (line.keyword == "NEWCONNECT" && line.fields.size() > 6) connectLine = &line;
    if (line.keyword == "NEWNEB" && line.fields.size() > 2) nebLine = &line;
  }
  if (!connectLine) return;
  const double connectRms = *parseFortranReal(connectLine->fields[6]);  // checked when read
  config.settings.connect.dneb.rmsTolerance = connectRms;
  if (nebLine && *parseFortranReal(nebLine->fields[2]) != connectRms)
    config.warnings.push_back(nebLine->where() + ": NEWNEB RMS tolerance " +
                              shortText(*parseFortranReal(nebLine->fields[2])) +
                              " not used: every DNEB run uses " + shortText(connectRms) +
                              " from NEWCONNECT (" + connectLine->where() + ")");
}

// NEWCONNECT's image increment only matters when a pair is retried (ntriesmax > 1), which optim
// does with the same images: refuse it there, accept it (unused) otherwise.
void checkImageIncrement(const std::vector<KeywordLine>& lines) {
  for (const auto& line : lines) {
    if (line.keyword != "NEWCONNECT" || line.fields.size() < 6) continue;
    if (*parseFortranReal(line.fields[5]) != 0.0 && *parseFortranReal(line.fields[1]) > 1.0)
      line.fail("NEWCONNECT image increment " + line.fields[5] +
                " is not implemented with more than one attempt per pair (must be 0 or absent)");
  }
}

void addOtherKeywords(Table& t) {
  using K = KeywordStatus;
  // ---- accepted, ignored with a warning: output and diagnostics only ----
  t.addKeywords(
      K::Ignored,
      {{"DEBUG", "", "OPTIM's debugging printout"},
       {"PAIRCOLOUR", "n", "colouring of pairs in OPTIM's connect output"},
       {"PATH", "nframes [...]",
        "follow the steepest-descent path from each transition state and save `nframes` frames "
        "on each side (optim minimises from the pushed-off points instead and writes no path "
        "files; the minima found are the same)"},
       {"RADIUS", "r",
        "container radius of OPTIM's Lennard-Jones runs (connect runs here use no container)"}});
  // ---- keywords that would change the run: an error until implemented ----
  t.addKeywords(K::NotImplemented,
                {{"AMBER9", "...", "AMBER potential (molecules will come through --prmtop)"},
                 {"CHARMM", "...", "CHARMM potential"},
                 {"CONNECT", "...", "OPTIM's older connection scheme (use NEWCONNECT)"},
                 {"FREEZE", "...", "frozen atoms"},
                 {"GUESSPATH", "...", "interpolation in internal coordinates for the first band"},
                 {"NEB", "...", "a single (D)NEB run instead of a connect run"},
                 {"TWOD", "", "two-dimensional systems"}});
  // ---- file syntax ----
  t.keyword(K::Syntax, "COMMENT", "text", "the line is a comment");
  t.keyword(K::Syntax, "NOTE", "text", "the line is a comment");
  t.keyword(K::Syntax, "POINTS", "",
            "the coordinates of the first endpoint follow, one `LABEL x y z` line per atom "
            "(length), to the end of the file; --start FILE overrides them",
            readPoints);
  t.keyword(K::Syntax, "STOP", "", "end of the keywords; the rest of the file is not read");
  t.afterKeywords([](const std::vector<KeywordLine>& lines, C& config) {
    checkImageIncrement(lines);
    resolveNebRms(lines, config);
    for (const KeywordLine& line : lines) noteKeywordOrigin(line, config.keywordOrigins);
  });
}

}  // namespace

const OptionTable<OptimConfig>& optimOptionTable() {
  static const Table table(
      "optim",
      "optim (landscape " LANDSCAPE_VERSION
      "): OPTIM-style connect runs: a chain of minima and transition states\n"
      "between two minima of a Lennard-Jones cluster, a pair system (Morse, binary\n"
      "Lennard-Jones, Kob-Andersen, tables; clusters or periodic boxes) or an AMBER-GB\n"
      "molecule (DNEB, hybrid eigenvector-following, Dijkstra's choice of the next pair),\n"
      "stored in a transition-network database.\n"
      "Usage: optim [options]\n"
      "       optim --start A.xyz --finish B.xyz [--lj N]\n"
      "       optim --odata odata --finish finish        (OPTIM's input files)\n"
      "       optim --prmtop mol.parm7 --start A.rst7 --finish B.rst7 [--perm-allow "
      "perm.allow]\n"
      "\n"
      "Units: reduced Lennard-Jones units, energy epsilon and length sigma; for molecules\n"
      "(--prmtop) read kcal/mol for epsilon and Angstrom for sigma throughout.\n"
      "Molecules are aligned by translation and rotation only (no inversion: they are "
      "chiral),\n"
      "with permutations only within the --perm-allow groups.\n"
      "With no options optim connects the two lowest LJ7 minima (pentagonal bipyramid,\n"
      "-16.505384, to capped octahedron, -15.935043), built in code, with the settings of\n"
      "OPTIM's LJ38 example (the defaults below; --prmtop lists the molecule defaults).\n"
      "Output goes to ./optim-out by default (--output DIR): network.h5 and path.info.\n"
      "The last three lines say whether the endpoints were connected, how many transition\n"
      "states the path has and the highest transition-state energy on it. Exit status 0 when\n"
      "connected, 2 when not, 1 on an error.\n"
      "Precedence: command line > --config FILE > --odata FILE > built-in defaults.\n"
      "Reals may use Fortran exponents (1.0D-6). [KEYWORD] is the OPTIM odata keyword.\n",
      {addGeneralAndSystem, addMolecules, addConnect, addTransitionStateSearch, addMinimisation,
       addOutput, addKeywordsBToM, addKeywordsNToU, addOtherKeywords});
  return table;
}

namespace {

// The molecule's options together: a start (--start, odata POINTS or --inpcrd) and --finish, no
// --lj, and permutations only with the groups of a perm.allow file.
void checkMoleculeOptions(OptimConfig& config, const GivenOptions& given) {
  if (config.pair.active()) {
    throw std::runtime_error(config.pair.systemOrigin() +
                             ": a pair system cannot be combined with --prmtop");
  }
  if (given.has("lj"))
    throw std::runtime_error(given.origin("lj") +
                             " cannot be combined with --prmtop (the topology gives the atoms)");
  if (config.finishFile.empty())
    throw std::runtime_error("command line: --prmtop needs --finish FILE for the second endpoint");
  if (config.startFile.empty() && config.odataPoints.empty() && config.inpcrdFile.empty())
    throw std::runtime_error(
        "command line: --prmtop needs --start FILE or --inpcrd FILE for the first endpoint");
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
    if (!given.has("permutations")) network.permutations = dneb.permutations = true;
  } else if (network.permutations) {
    const std::string where =
        given.has("permutations") ? given.origin("permutations") : config.odataFile + ": PERMDIST";
    throw std::runtime_error(where +
                             ": permutations of a molecule's atoms need their groups, "
                             "--perm-allow FILE (OPTIM's perm.allow)");
  }
}

// A Gupta cluster is a cluster of atoms of its own potential: not with a pair system, a molecule
// or rigid bodies, and with its endpoints (the built-in example is LJ7).
void checkGuptaOptions(const OptimConfig& config) {
  if (!config.gupta.active()) return;
  const std::string other = config.pair.active()        ? config.pair.systemOrigin()
                            : config.isMolecule()       ? std::string("--prmtop")
                            : !config.rigidFile.empty() ? std::string("--rigid")
                                                        : std::string();
  if (!other.empty())
    throw std::runtime_error(config.gupta.origin() + ": a Gupta cluster cannot be combined with " +
                             other);
  if (config.builtInExample())
    throw std::runtime_error(config.gupta.origin() +
                             ": a Gupta cluster needs its endpoints, --start and --finish (or "
                             "odata POINTS and --finish); the built-in example is LJ7");
}

// Rigid water or ellipsoids: their own potential and bodies, both endpoints from files.
void checkWaterOptions(const OptimConfig& config, const GivenOptions& given) {
  if (given.has("ions")) checkWaterIons(given.origin("ions"), config.waterIons, config.waterModel);
  if (!config.isRigidMolecules()) return;
  const std::string self = config.isWater() ? "--water" : "--ellipsoids";
  const std::string other = config.pair.active()                    ? config.pair.systemOrigin()
                            : config.isMolecule()                   ? std::string("--prmtop")
                            : config.gupta.active()                 ? config.gupta.origin()
                            : !config.rigidFile.empty()             ? std::string("--rigid")
                            : given.has("lj")                       ? given.origin("lj")
                            : config.isWater() && config.ellipsoids ? std::string("--ellipsoids")
                                                                    : std::string();
  if (!other.empty())
    throw std::runtime_error("command line: " + self + " cannot be combined with " + other +
                             " (the molecules are the rigid bodies, the files give their count)");
  if (config.startFile.empty() || config.finishFile.empty())
    throw std::runtime_error("command line: " + self + " needs --start FILE and --finish FILE");
  if (!config.ellipsoids) return;
  try {
    config.gayBerne.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("command line: ") + e.what());
  }
}

// The endpoints of a Lennard-Jones run and the options that need a molecule.
void checkClusterOptions(const OptimConfig& config, const GivenOptions& given) {
  for (const char* name : {"inpcrd", "igb", "saltcon", "rgbmax", "cut", "perm-allow"})
    if (given.has(name))
      throw std::runtime_error(given.origin(name) + " applies to molecules and needs --prmtop");
  if (config.startFile.empty() != config.finishFile.empty() && config.odataPoints.empty())
    throw std::runtime_error(config.startFile.empty()
                                 ? "command line: --finish needs --start (or an odata POINTS "
                                   "block) for the first endpoint"
                                 : "command line: --start needs --finish for the second endpoint");
  if (!config.odataPoints.empty() && config.finishFile.empty())
    throw std::runtime_error(config.odataFile +
                             ": its POINTS block is the first endpoint; give the second with "
                             "--finish FILE");
  if (config.pair.active() && !config.rigidFile.empty())
    throw std::runtime_error(config.pair.systemOrigin() +
                             ": rigid bodies (--rigid) are not supported for pair systems");
  if (config.builtInExample() && config.pair.active()) {
    throw std::runtime_error(config.pair.systemOrigin() +
                             ": a pair system needs its endpoints, --start and --finish (or odata "
                             "POINTS and --finish); the built-in example is LJ7");
  }
  if (config.builtInExample() && config.ljAtoms != 0 && config.ljAtoms != 7)
    throw std::runtime_error("command line: --lj " + std::to_string(config.ljAtoms) +
                             " needs --start and --finish (the built-in example is LJ7)");
}

}  // namespace

std::vector<std::string> optimOptionNames() { return optimOptionTable().names(); }

OptimConfig parseOptimCommandLine(const std::vector<std::string>& arguments) {
  const OptionTable<OptimConfig>& table = optimOptionTable();
  OptimConfig config;
  GivenOptions given;
  if (!table.read(arguments, given, config, odataKeywordsMarkdown)) return config;

  // Molecules start from their own defaults (unless an odata file gives its keywords).
  if (given.has("prmtop") && !given.has("odata")) config.settings = optimAmberDefaultSettings();
  // The odata file replaces the built-in defaults. Not readOdataFile(): its check() would run
  // before --config and the command line had their say; the merged parameters are checked once,
  // below.
  if (given.has("odata")) {
    const std::string path = table.checkedSource(given, "odata");
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open OPTIM odata file");
    config.settings = optimKeywordDefaults();
    config.odataFile = path;
    applyOdataKeywords(in, path, config);  // its messages name the file and line
  }
  table.apply(given, config);
  resolvePairSystem(config.pair, given, config.keywordOrigins);
  resolveGuptaSystem(config.gupta, given, config.keywordOrigins);
  checkGuptaOptions(config);
  checkWaterOptions(config, given);

  if (config.isMolecule())
    checkMoleculeOptions(config, given);
  else
    checkClusterOptions(config, given);
  config.settings.applySeed();
  try {
    config.settings.check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("invalid parameters: ") + e.what());
  }
  return config;
}

OptimConfig parseOptimCommandLine(int argc, const char* const argv[]) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i] ? argv[i] : "");
  return parseOptimCommandLine(arguments);
}

}  // namespace landscape
