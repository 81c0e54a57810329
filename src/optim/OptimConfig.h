#pragma once
// What `optim` is asked to do, OptimConfig, its algorithm settings OptimSettings and their built-in
// defaults. The option table of OptimOptions.cpp fills it from the command line, the config file
// and the OPTIM odata file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "landscape/core/Precision.h"
#include "landscape/minimisation/LbfgsParams.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Characterisation.h"
#include "landscape/paths/Connect.h"
#include "potentials/AmberGb.h"
#include "potentials/GayBerne.h"
#include "potentials/Potential.h"
#include "src/common/GuptaSystem.h"
#include "src/common/PairSystem.h"

namespace landscape {

/// Every algorithm setting of a connect run, with the keyword defaults of OPTIM's LJ38 example
/// or of the library, depending on who builds it (optimLj38ExampleSettings(),
/// optimKeywordDefaults()).
struct OptimSettings {
  ConnectParams connect;            ///< NEWCONNECT, NEWNEB, NEBK, DIJKSTRA, BFGSTS, STEPS, ...
  TransitionNetworkParams network;  ///< EDIFFTOL, GEOMDIFFTOL, PERMDIST, RANROT
  /// Minimiser of the endpoints (REOPTIMISEENDPOINTS; BFGSMIN, BFGSSTEPS, MAXBFGS, UPDATES): the
  /// same settings as the descent from transition states.
  LbfgsParams endpointMinimiser;
  /// Minimise the endpoints before connecting (REOPTIMISEENDPOINTS). Off: the endpoints must
  /// already be minima (RMS gradient <= endpointMinimiser.rmsTolerance), as OPTIM demands.
  bool reoptimiseEndpoints = false;
  CharacterisationParams characterisation;  ///< Hessian size cap, symmetry tolerance
  std::uint64_t seed = 1;  ///< alignment's random orientations and the first eigenvector guess

  /// The seed copied into every parameter struct that draws random numbers.
  void applySeed();
  /// Runs every nested check(); throws std::invalid_argument naming the first bad field.
  void check() const;
};

/// The settings of OPTIM's LJ38 example (wales-group/examples LJ38 `odata`):
/// NEWCONNECT 100 1 20.0 20.0 30 0.0 0.025, NEWNEB 50 500 0.025, NEBK 10.0, DIJKSTRA 1,
/// PERMDIST, RANROT 5, EDIFFTOL 1.0D-6, GEOMDIFFTOL 0.2, BFGSMIN 1.0D-6, UPDATES 10 10,
/// PUSHOFF 0.02, REOPTIMISEENDPOINTS, BFGSSTEPS 5000, MAXBFGS 0.2 0.2, STEPS 200,
/// BFGSTS 50 3 25 0.0001, MAXSTEP 0.1, MAXMAX 0.2, TRAD 0.2. The `optim` command's defaults;
/// built in code, the command never reads the example file.
OptimSettings optimLj38ExampleSettings();

/// The defaults of a molecule (--prmtop without --odata; kcal/mol and Angstrom): the hybrid EF
/// settings of Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, section 3.3 (the library
/// defaults: L-BFGS step 0.4 A, rise 1e-4 kcal/mol, m = 4, Rayleigh-Ritz 1000 iterations to RMS
/// 0.01 kcal/mol/A^3, 20/200 tangent-space iterations, trust radius 0.5 A within [0.01, 0.5] A,
/// 1000 iterations, TS at RMS 1e-5 kcal/mol/A and step 0.02 A) and DNEB settings (first run 10
/// images and 300 iterations, m = 4, RMS 0.01 kcal/mol/A); the connect values of OPTIM's AMBER
/// examples in Angstrom (NEWCONNECT 50 3 4.0 30.0 30, EDIFFTOL 1.0D-4, GEOMDIFFTOL 0.1, PUSHOFF
/// 0.05, BFGSMIN 1.0D-5, REOPTIMISEENDPOINTS); DNEB cold-fusion guard 100 kcal/mol; no inversion
/// and no permutations in the alignment (perm.allow adds groups).
OptimSettings optimAmberDefaultSettings();

/// What an odata file starts from: the library defaults (ConnectParams{} and friends) with
/// OPTIM's switches off unless their keyword is present (PERMDIST: no permutational alignment,
/// REOPTIMISEENDPOINTS: endpoints used as given).
OptimSettings optimKeywordDefaults();

/// RANROT n / --random-orientations n as seen by the DNEB's endpoint alignment: raised to n, never
/// lowered below DnebParams::thoroughAlignment() (one alignment per band is cheap, and the band
/// starts from its interpolation).
void raiseDnebRandomOrientations(DnebParams& dneb, int n);

/// What `optim` was asked to do, fully resolved (defaults applied, files read, params checked).
struct OptimConfig {
  enum class Action { Run, Help, Version };
  Action action = Action::Run;
  std::string helpText;  ///< the text to print for Action::Help and Action::Version

  // System: a Lennard-Jones cluster (reduced units) or, with --prmtop, a molecule on AMBER-GB
  // (kcal/mol and Angstrom).
  std::size_t ljAtoms = 0;  ///< --lj N, --atoms N; 0 = from the endpoint files
  /// A pair system (--morse, --binary-lj, --kob-andersen, --pair-table, --cutoff, --box; OPTIM's
  /// MORSE, BLJCLUSTER, BULK): its species come from the order of the endpoints' atoms.
  PairSystemConfig pair;
  /// A Gupta metal cluster (--gupta, --gupta-params; OPTIM's GUPTA): eV, lengths in r0.
  GuptaSystemConfig gupta;
  std::string startFile;    ///< --start FILE (xyz or GMIN's bare coords; molecules also rst7)
  std::string finishFile;   ///< --finish FILE
  /// Start coordinates from an odata POINTS block (used when no --start is given).
  std::vector<double> odataPoints;
  std::string odataFile;  ///< the --odata file, for messages
  /// No --start/--finish, no POINTS and no molecule: connect the two lowest LJ7 minima built in
  /// code.
  bool builtInExample() const {
    return startFile.empty() && odataPoints.empty() && prmtopFile.empty();
  }
  Backend backend = Backend::Cpu;  ///< --backend cpu|cuda: where the potential runs
  /// --lbfgs-backend cpu|gpu: where the L-BFGS vectors of the transition-state searches, the
  /// descents and the endpoint minimisations live.
  LbfgsBackend lbfgsBackend = LbfgsBackend::Cpu;
  /// --threads T: CPU threads over which the DNEB images, the descents of a band's transition
  /// states and the two endpoint minimisations are batched (one copy of the potential each;
  /// results do not depend on T); 0 = the machine's cores. Potentials on CUDA (rigid bodies on
  /// the device included) are not copied: one thread.
  int threads = 0;
  /// --searches-in-flight N: a cycle's DNEB bands and a band's candidates side by side on N
  /// threads, every
  /// structure of the connect run through shared batched calls (potentials/
  /// SharedBatchedPotential); 1 = one search after another.
  int searchesInFlight = 1;
  /// --rigid FILE: local rigid bodies (GMIN-style GROUP blocks, docs/rigid-bodies.md). DNEB and
  /// hybrid EF then run in rigid coordinates (centres, angle-axis vectors, free atoms); distances
  /// are Euclidean in those coordinates (no alignment); the start endpoint fixes the body shapes;
  /// the database keeps Cartesian atoms.
  std::string rigidFile;
  /// --water tip4p or ssd: rigid TIP4P or SSD molecules (docs/water.md), one rigid body each,
  /// searched in angle-axis coordinates; the endpoints' files give the molecules. Empty: no water.
  std::string waterModel;
  bool isWater() const { return !waterModel.empty(); }
  /// --ions LIST: point ions among TIP4P molecules (potentials/WaterCluster's tip4pIonsFromList),
  /// the last atoms of both endpoints; empty = none.
  std::string waterIons;
  /// --ellipsoids: uniaxial Gay-Berne ellipsoids (docs/gay-berne.md), one rigid body of 4
  /// markers each, searched in angle-axis coordinates; the endpoints' files give their count.
  bool ellipsoids = false;
  GayBerneParams gayBerne;  ///< --gay-berne-kappa, -kappa-prime, -mu, -nu, -cutoff
  /// Rigid molecules of a model (water or ellipsoids): the endpoints' files give them.
  bool isRigidMolecules() const { return isWater() || ellipsoids; }
  /// --precision: arithmetic of the CUDA AMBER-GB pair terms (as gmin's).
  Precision precision = Precision::Double;

  // Molecules (AMBER-GB).
  std::string prmtopFile;  ///< --prmtop FILE: AMBER topology; empty = Lennard-Jones
  /// --inpcrd FILE: the topology's reference coordinates (Angstrom); the start when neither
  /// --start nor odata POINTS give one. Also the reference handedness of the stereocentres.
  std::string inpcrdFile;
  AmberGbParams amber;        ///< --igb, --saltcon, --rgbmax
  std::string permAllowFile;  ///< --perm-allow FILE: OPTIM perm.allow groups (molecules)
  bool isMolecule() const { return !prmtopFile.empty(); }

  OptimSettings settings = optimLj38ExampleSettings();
  std::string outputDir = "optim-out";  ///< --output DIR
  std::string databaseFile;             ///< --database FILE: read (if present), extended, rewritten
  std::string resumeDir;  ///< --resume DIR: continue the connect run saved in DIR (its --output)
  bool quiet = false;                   ///< --quiet: only the three result lines
  std::vector<std::string> warnings;    ///< e.g. OPTIM keywords accepted but ignored
  KeywordOrigins keywordOrigins;        ///< the odata file's implemented lines, for messages
};

}  // namespace landscape
