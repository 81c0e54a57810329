#pragma once
// What `gmin` is asked to do, GminConfig, and its built-in defaults. The option table of
// GminOptions.cpp fills it from the command line, the config file and the GMIN data file.
#include <optional>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "landscape/core/Precision.h"
#include "landscape/dynamics/Langevin.h"
#include "landscape/minimisation/BatchedRoundsPlan.h"
#include "landscape/search/BasinHoppingParams.h"
#include "landscape/search/ParallelTempering.h"
#include "landscape/search/RigidBodyMoves.h"
#include "potentials/AmberGb.h"
#include "potentials/GayBerne.h"
#include "potentials/Potential.h"
#include "potentials/SopTopology.h"
#include "src/common/GuptaSystem.h"
#include "src/common/PairSystem.h"

namespace landscape {

// gminLj38ExampleParams() and gminAmberDefaultParams(), the `gmin` command's defaults, are the
// library's (landscape/search/BasinHoppingParams.h), so that Python gets the same ones.

/// What `gmin` was asked to do, fully resolved (defaults applied, files read, params checked).
struct GminConfig {
  enum class Action { Run, Help, Version };
  Action action = Action::Run;
  std::string helpText;  ///< the text to print for Action::Help and Action::Version

  // System: a Lennard-Jones cluster (reduced units), or a pair system (Morse, binary
  // Lennard-Jones, Kob-Andersen, a table; with a cutoff and a periodic box).
  std::size_t ljAtoms = 38;        ///< --lj N, --atoms N (default LJ38 when nothing else is given)
  bool ljAtomsGiven = false;       ///< --lj was given explicitly: with --coords, the file's atom
                                   ///< count must then equal ljAtoms (checked by gmin_main)
  bool symmetriseGiven = false;    ///< --symmetrise, SYMMETRISE or SYMMETRISECSM was given: no
                                   ///< default symmetrisation (gmin_main, GPU walkers)
  PairSystemConfig pair;  ///< --morse, --binary-lj, --kob-andersen, --pair-table, --cutoff, --box
  GuptaSystemConfig gupta;  ///< --gupta METAL, --gupta-params [GUPTA]: a metal cluster (eV, r0)
  /// System: a cluster of rigid water molecules (docs/water.md): "tip4p" (--water tip4p, GMIN's
  /// NTIP 4; kJ/mol, Angstrom) or "ssd" (soft-sticky dipoles; kcal/mol, Angstrom); empty = none.
  /// Searched in angle-axis coordinates (one rigid body per molecule) with the rigid-body moves.
  std::string waterModel;
  std::size_t waterMolecules = 0;  ///< --molecules N; with --coords: the file's (GMIN's layout)
  /// --ions LIST: point ions among TIP4P molecules, "NAME[:COUNT],..." (potentials/WaterCluster's
  /// tip4pIonsFromList: Na+, Cl-); empty = none.
  std::string waterIons;
  /// System: a cluster of uniaxial Gay-Berne ellipsoids (docs/gay-berne.md; reduced units sigma0
  /// and eps0, both 1): --ellipsoids N, 0 = none. Searched in angle-axis coordinates (one rigid
  /// body of 4 markers per ellipsoid) with the rigid-body moves.
  std::size_t ellipsoids = 0;
  GayBerneParams gayBerne;         ///< --gay-berne-kappa, -kappa-prime, -mu, -nu, -cutoff
  std::string coordsFile;          ///< --coords FILE (xyz or GMIN's bare 3-column coords); empty =
                                   ///< random start inside the container, drawn from the seed
  Backend backend = Backend::Cpu;  ///< --backend cpu|cuda: where the potential runs
  Precision precision = Precision::Double;  ///< --precision double|mixed (CUDA AMBER-GB)
  /// --quench-precision: the walkers' sloppy quenches on the CUDA AMBER-GB batch (the final tight
  /// re-quench and single structures keep `precision`).
  Precision quenchPrecision = Precision::Mixed;
  LbfgsBackend lbfgsBackend = LbfgsBackend::Cpu;  ///< --lbfgs-backend cpu|gpu: where L-BFGS runs

  // System: an AMBER molecule with generalized Born solvent (kcal/mol, Angstrom).
  std::string prmtopFile;          ///< --prmtop FILE; non-empty selects the AMBER-GB potential
  std::string inpcrdFile;          ///< --inpcrd FILE (inpcrd/rst7), required with --prmtop
  AmberGbParams amber;             ///< --igb 1|2|5, --saltcon M, --rgbmax A
  bool energyOnly = false;         ///< --energy-only: print the single-point components and exit
  double groupRotationProbability = 0.1;  ///< --group-rotation P: per side-chain group per step
  double groupRotationMaxAngle = 3.14159265358979323846;  ///< --group-rotation-angle (radians)
  bool stereoChecks = true;        ///< reject minima with changed chirality or cis/trans peptides

  // System: an SOP coarse-grained protein (docs/sop.md; kcal/mol, Angstrom). Its force field is
  // that of Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, Appendix B.
  std::string sopPdbFile;  ///< --sop-pdb FILE; non-empty selects the SOP potential
  SopParams sop;           ///< --sop-fene-k, --sop-eps-native, ...

  /// Langevin move (docs/rng.md): before each quench, langevin.steps overdamped Langevin steps at
  /// kT langevin.kT from the perturbed structure; langevin.steps = 0 (default) turns it off.
  LangevinParams langevin = [] {
    LangevinParams p;
    p.steps = 0;
    return p;
  }();

  /// Local rigid bodies (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, section 2.1):
  /// --rigid FILE (GMIN's GROUP blocks, docs/rigid-bodies.md); empty = all atoms atomistic. The
  /// bodies' shapes come from the starting structure (--inpcrd or --coords); --step-size then acts
  /// on the rigid coordinates (centres and free atoms in length units, angle-axis components in
  /// radians).
  std::string rigidFile;
  RigidBodyMoveParams rigidMoves;  ///< --rigid-translation, --rigid-rotation, --rigid-probability

  BasinHoppingParams basinHopping = gminLj38ExampleParams();  ///< defaults = GMIN's LJ38 example
  /// --walkers W: independent Markov chains quenched together (landscape/search/WalkerEnsemble.h);
  /// 0 = automatic (gmin_main: one per core on the CPU, clusterWalkers() for LJ on
  /// CUDA, the checkpoint's count on --resume).
  int walkers = 0;
  /// --walker-resident N (expert): walkers the GPU rounds engine minimises at once (molecules on
  /// --backend cuda; the others wait and refill finished slots); changes the time only, never a
  /// result. 0 = all walkers of the batch.
  std::size_t walkerResident = 0;
  /// --walker-pack F (expert): BatchedRoundsOptions::packFactor of the walkers' rounds engine;
  /// changes the time only, never a result. 0 = never pack.
  int walkerPack = BatchedRoundsOptions{}.packFactor;
  ParallelTemperingParams tempering;  ///< --bhpt, --bhpt-min-temperature, ... (GMIN's BHPT)
  double maxTime = 0.0;               ///< --max-time S: wall-clock limit in seconds; 0 = none
  double rankTimeout = 0.0;  ///< --rank-timeout S: under mpirun, longest wait for the others; 0 = none
  bool verbose = false;               ///< --verbose: per-quench lines of every walker
  std::string outputDir = "gmin-out";                         ///< --output DIR
  std::string resumeDir;  ///< --resume DIR: continue the run saved in DIR/checkpoint; empty = new run
  bool quiet = false;                 ///< --quiet: only the final "lowest energy:" line
  std::vector<std::string> warnings;  ///< e.g. GMIN keywords accepted but ignored
  KeywordOrigins keywordOrigins;      ///< the data file's implemented lines, for messages
};

}  // namespace landscape
