#pragma once
// What the `pathsample` program is asked to do, PathsampleConfig. The option table of
// PathsampleOptions.cpp fills it from the command line, the --config file and the PATHSAMPLE
// `pathdata` keyword file.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "landscape/core/Precision.h"
#include "landscape/network/UntrapPairs.h"
#include "potentials/GayBerne.h"
#include "potentials/Potential.h"
#include "src/common/GuptaSystem.h"
#include "src/common/PairSystem.h"

namespace landscape {

/// MODE: what a run of `pathsample` does (docs/pathsample.md).
enum class PathsampleMode { Import, Export, Rates, Committors, Regroup, Grow, Kmc };
/// --units: reduced (LJ) or molecular (kcal/mol, K, s^-1).
enum class PathsampleUnits { Reduced, Molecular };
/// --direction (PATHSAMPLE's DIRECTION): AB, A is the product; BA, B is.
enum class PathsampleDirection { AB, BA };
/// --pair-selection: how growth chooses the pairs of its connect runs (PATHSAMPLE's UNTRAP,
/// SHORTCUT, DIJPAIR).
enum class PairSelection { Untrap, Shortcut, Dijkstra };
/// --shortcut-by: SHORTCUT's pairs by distance along the best path, or either side of its highest
/// barriers (SHORTCUT n BARRIER).
enum class ShortcutBy { Distance, Barrier };

/// How growth's connect runs relax their DNEB bands (--dneb-bands): whole on the device where
/// the system has a whole-band kernel (cuda, Lennard-Jones clusters), else through the images.
enum class DnebBandRelaxation { Whole, Images };
std::string dnebBandRelaxationName(DnebBandRelaxation r);
/// Where growth aligns clusters (--alignments): the DNEB endpoints and the connect cycles'
/// distances on the host thread of the run and the pair selection's distances on its pool's
/// threads (alignStructures), or, with bands relaxed whole, all searched whole by the device in
/// calls of many pairs, a block per pair.
enum class AlignmentRuns { Host, Whole };
std::string alignmentRunsName(AlignmentRuns a);
/// How growth's connect runs refine their candidates (--ts-searches): each hybrid EF search with
/// its steps on the host and one shared call per evaluation (the default), or whole on the device
/// where the system has a search kernel (cuda, Lennard-Jones clusters).
enum class TransitionStateSearchRuns { Whole, Steps };
std::string transitionStateSearchRunsName(TransitionStateSearchRuns r);

/// The names the options and the growth record use: "import", ..., "kmc", "reduced", "molecular", "AB",
/// "BA", "untrap", "shortcut", "dijkstra", "distance", "barrier".
std::string pathsampleModeName(PathsampleMode mode);
std::string pathsampleUnitsName(PathsampleUnits units);
std::string pathsampleDirectionName(PathsampleDirection direction);
std::string pairSelectionName(PairSelection selection);
std::string shortcutByName(ShortcutBy by);

/// Connect runs in flight per rank at most: each is a thread (with 3 more for its searches).
constexpr int kMaxJobsInFlight = 1024;
/// Growth cycles under way at once at most (--cycles-in-flight).
constexpr int kMaxCyclesInFlight = 16;
/// Lanes of shared calls at most (--call-lanes), each a batched potential with its own workspace.
constexpr int kMaxCallLanes = 64;

struct PathsampleConfig {
  enum class Action { Run, Help, Version };
  Action action = Action::Run;
  std::string helpText;
  std::vector<std::string> warnings;  ///< pathdata keywords accepted but ignored

  std::optional<PathsampleMode> mode;    ///< MODE, the first word (required)
  std::string database = "network.h5";   ///< --database FILE: the HDF5 network
  std::string directory = ".";           ///< --directory DIR: PATHSAMPLE files (in or out)
  std::string pathdataFile;              ///< --pathdata FILE
  std::vector<double> temperatures = {0.1};  ///< --temperature T[,T2...]: kT, or K (molecular)
  PathsampleUnits units = PathsampleUnits::Reduced;  ///< --units reduced|molecular
  double regroupThreshold = 0.0;         ///< --regroup-threshold DF (energy unit)
  bool regrouped = false;                ///< --regrouped: rates between free-energy groups
  /// --planck H: Planck's constant in the energy unit x the time unit of the reported rates
  /// (PATHSAMPLE's PLANCK); 0 = the default: h N_A in the network's energy unit x s with --units
  /// molecular (MolecularKineticConstants), and for reduced units no kT ln(kT/h) term in
  /// transition-state free energies.
  double planck = 0.0;
  /// --direction AB|BA (PATHSAMPLE's DIRECTION): AB, A is the product (committors to A, growth
  /// towards A); BA, B is.
  PathsampleDirection direction = PathsampleDirection::AB;
  /// --no-points (PATHSAMPLE's NOPOINTS): a kinetics-only network, min.data and ts.data without
  /// points.min and points.ts (import makes a coordinate-free database, docs/database.md).
  bool noPoints = false;
  /// --path-info FILE (PATHSAMPLE's STARTFROMPATH and ADDPATH): import reads OPTIM's path.info
  /// (min-sad-min triples of --atoms N atoms) instead of PATHSAMPLE's files of --directory.
  std::string pathInfoFile;
  /// --path-set-a M, --path-set-b M (STARTFROMPATH's m1 m2): A and B are the M-th minima of
  /// path.info in order of appearance, duplicates counted once (1-based); 0 = none.
  int pathInfoSetA = 0;
  int pathInfoSetB = 0;
  /// --atoms N (or NATOMS): the atoms of path.info's points.
  std::size_t atoms = 0;
  /// --kmc-runs N (PATHSAMPLE's KMC nruns): kinetic Monte Carlo first passages of mode kmc.
  int kmcRuns = 1000;
  /// --max-ts-energy E (PATHSAMPLE's MAXTSENERGY): rates, committors and regroup leave out the
  /// transition states above E (energy unit); +inf = none.
  double maxTsEnergy = std::numeric_limits<double>::infinity();
  /// Whether --database was given (command line or --config): without it, a run with --pathdata
  /// or --no-points reads the PATHSAMPLE files of --directory, as PATHSAMPLE does
  /// (docs/pathsample.md, "Running in a PATHSAMPLE folder").
  bool databaseGiven = false;
  /// --energy-tolerance, --geometry-tolerance (PATHSAMPLE's ETOL, GEOMDIFFTOL): import into an
  /// existing database takes a minimum or transition state within both of a stored one for it.
  double energyTolerance = 1e-6;
  double geometryTolerance = 0.2;

  // What a pathdata file said in PATHSAMPLE's own terms, resolved once the command line is read.
  std::vector<double> pathdataTemperatures;       ///< TEMPERATURE: kT in the energy unit
  std::vector<double> pathdataRatesTemperatures;  ///< RATESCYCLE: kT in the energy unit
  /// --temperature was not given and `temperatures` came from TEMPERATURE or RATESCYCLE (with
  /// --units molecular converted from kT in kcal/mol to K).
  bool temperaturesFromPathdata = false;
  std::size_t pathdataAtoms = 0;                  ///< NATOMS; 0 = not given
  std::string pathdataAtomsWhere;                 ///< "FILE:LINE" of NATOMS, for messages

  // Growth (mode grow; docs/pathsample.md).
  int cycles = 0;                          ///< --cycles N (CYCLES)
  PairSelection pairSelection = PairSelection::Untrap;  ///< --pair-selection
  /// --untrap-increment, --untrap-threshold, --untrap-delta-min, --untrap-low-barrier,
  /// --untrap-high-barrier (UNTRAP einc ethresh edeltamin elowbar ehighbar); its listSize is
  /// --pair-list-size's, set when the pairs are chosen.
  UntrapParams untrap;
  int shortcutSteps = 1;                   ///< --shortcut-steps N (SHORTCUT n)
  ShortcutBy shortcutBy = ShortcutBy::Distance;  ///< --shortcut-by (SHORTCUT n BARRIER)
  double dijkstraPower = 1.0;              ///< --dijkstra-power P (pair selection DIJPAIR)
  int pairsPerCycle = 1;                   ///< --pairs-per-cycle N (CPUS)
  int threads = 1;                         ///< --threads N (per MPI rank)
  /// --jobs-in-flight K (per MPI rank): connect runs at once, their evaluations shared in batched
  /// calls; 0 = automatic (cuda: the cycle's pairs, at most kMaxJobsInFlight; cpu: one run per
  /// thread, nothing shared).
  int jobsInFlight = 0;
  /// --cycles-in-flight D: cycle c's pairs are taken once cycle c - D has merged, so D cycles run
  /// at once and the next cycle's runs fill the device while a cycle's slowest runs end. 1:
  /// PATHSAMPLE's cycles, one after the other. Part of the growth settings (the network depends
  /// on it).
  int cyclesInFlight = 1;
  /// --call-patience US: how long a shared call waits for runs busy on the host (microseconds);
  /// 0 = as long as the last call took, within [50, 2000]. Never changes the network.
  int callPatience = 0;
  /// --call-lanes L: shared calls that may be under way at once, each lane on a batched potential
  /// of its own with a share of the threads; 0 = automatic (one per thread running connect runs,
  /// at most kMaxCallLanes). Never changes the network.
  int callLanes = 0;
  /// --dneb-bands whole|images: on cuda for Lennard-Jones clusters, each DNEB band relaxed whole
  /// by the device (a block per band) or through its images' shared calls. Part of the growth
  /// settings when images (the bands' round-off differs).
  DnebBandRelaxation dnebBands = DnebBandRelaxation::Whole;
  /// --ts-searches steps|whole: on cuda for Lennard-Jones clusters, each hybrid EF search with one
  /// shared call per evaluation or run whole by the device (a block per search). Part of the
  /// growth settings when whole (the searches' round-off differs).
  TransitionStateSearchRuns transitionStateSearches = TransitionStateSearchRuns::Steps;
  /// --alignments host|whole: with whole bands, the DNEB endpoints, the connect cycles' and the
  /// pair selection's distances aligned by the host search or by the device's batched search (a
  /// block per pair).
  /// Part of the growth settings when whole (the alignments' round-off differs).
  AlignmentRuns alignments = AlignmentRuns::Host;
  Backend backend = Backend::Cpu;          ///< --backend cpu|cuda: the connect runs' potential
  LbfgsBackend lbfgsBackend = LbfgsBackend::Cpu;  ///< --lbfgs-backend cpu|gpu
  Precision precision = Precision::Double;  ///< --precision: CUDA AMBER-GB arithmetic
  double rankTimeout = 0.0;                ///< --rank-timeout S (seconds; under mpirun)
  int listSize = 1000;                     ///< --pair-list-size N
  std::string odataFile;                   ///< --odata FILE: connect settings (odata.connect)
  /// --connect-cycles N: NEWCONNECT's nconmax for every connect run, in place of the odata's or
  /// optim's default; 0 = theirs. Part of the growth settings.
  int connectCycles = 0;
  /// --ts-steps N: eigenvector-following iterations of every transition-state search (OPTIM's
  /// STEPS), in place of the odata's or optim's default; 0 = theirs. Part of the growth settings.
  int tsSteps = 0;
  std::string prmtopFile;                  ///< --prmtop FILE: molecules (AMBER-GB)
  /// grow: a pair system (--morse, --box, ...); when given it replaces the --odata file's
  /// (MORSE, BLJCLUSTER, BULK).
  PairSystemConfig pair;
  /// grow: a Gupta metal cluster (--gupta, --gupta-params); when given it replaces the --odata
  /// file's GUPTA.
  GuptaSystemConfig gupta;
  /// grow: rigid water (--water tip4p|ssd; docs/water.md), the molecules counted from the
  /// database's sites; empty: none.
  std::string waterModel;
  /// grow: point ions among TIP4P molecules (--ions; potentials/WaterCluster's
  /// tip4pIonsFromList), the database's last atoms; empty: none.
  std::string waterIons;
  /// grow: uniaxial Gay-Berne ellipsoids (--ellipsoids; docs/gay-berne.md), counted from the
  /// database's markers (4 per ellipsoid), with their parameters (--gay-berne-kappa, ...).
  bool ellipsoids = false;
  GayBerneParams gayBerne;
  std::string outputDir = "pathsample-out";  ///< --output DIR: DIR/network.h5 of the growth run
  std::string resumeDir;                   ///< --resume DIR: continue the growth run in DIR
  long long seed = 1;                      ///< --seed N (SEED)
};

}  // namespace landscape
