#pragma once
// The one place where the CUDA build switch meets the run-time backend choice
// (docs/architecture.md, layer `backends/`).
// Compiles in every build; callers never write #ifdef LANDSCAPE_HAVE_CUDA themselves.
#include <cstddef>
#include <memory>
#include <string>

#include "landscape/core/Precision.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "potentials/GayBerne.h"
#include "potentials/GuptaPotential.h"
#include "potentials/PairModel.h"
#include "potentials/Potential.h"
#include "potentials/SiteModel.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/SopTopology.h"

namespace landscape {

/// What to build. Topologies arrive parsed: a program reads its prmtop or PDB once and shares the
/// result with the potentials it builds (a CPU twin, a rigid-body wrapper) and with its own
/// output code, instead of every factory call parsing the file again.
struct PotentialSpec {
  enum class Kind { LennardJones, AmberGb, Sop, Pair, Gupta, Sites, GayBerne, SoftStickyDipole };
  Kind kind = Kind::LennardJones;
  std::size_t atoms = 0;   ///< number of atoms (Lennard-Jones: >= 2)
  /// AmberGb: the molecule (readAmberTopology); required.
  std::shared_ptr<const AmberTopology> amberTopology;
  AmberGbParams amber;     ///< AmberGb: igb, salt, rgbmax (kcal/mol, Angstrom)
  /// CUDA backends: arithmetic of the pair terms (AmberGb: double or mixed, checked on every
  /// backend; Lennard-Jones, SOP and pair potentials are always double).
  Precision precision = Precision::Double;
  /// Sop: the C-alpha beads with their eq B1 parameters (readSopTopology); required.
  std::shared_ptr<const SopTopology> sopTopology;
  double sopSkin = 2.0;    ///< Sop on CUDA: Verlet-list skin (A)
  /// Pair: species, law, cutoff and box (potentials/PairModel.h); required. CPU: PairPotential;
  /// CUDA: PairPotentialCuda (all pairs without a cutoff, else a Verlet list of skin 0.3).
  std::shared_ptr<const PairModel> pairModel;
  /// Gupta: the metal's parameters (potentials/GuptaPotential.h) of a cluster of `atoms` (>= 2).
  /// CPU: GuptaPotential; CUDA: GuptaCuda (a batch of one of BatchedGuptaCuda). Always double.
  GuptaParams gupta;
  /// Sites: the interaction sites of rigid molecules (potentials/SiteModel.h, e.g. rigid TIP4P
  /// water from potentials/WaterCluster) over 3 x sites Cartesians in the model's units; required.
  /// CPU: SitePotential; CUDA: SitePotentialCuda (a batch of one of BatchedSitePotentialCuda).
  /// Always double. makeBatchedRigidPotential makes each molecule one rigid body.
  std::shared_ptr<const SiteModel> siteModel;
  /// GayBerne: uniaxial Gay-Berne ellipsoids (potentials/GayBerne.h, reduced units), each 4
  /// marker sites, so `atoms` = 4 x ellipsoids (>= 8). CPU: GayBerne; CUDA: GayBerneCuda (a batch
  /// of one of BatchedGayBerneCuda). Always double. makeBatchedRigidPotential with
  /// GayBerneCluster::rigidSystem() makes each ellipsoid one rigid body.
  GayBerneParams gayBerne;
  /// SoftStickyDipole: soft-sticky-dipole water (potentials/SoftStickyDipole.h, kcal/mol and
  /// Angstrom), each molecule 4 marker sites, so `atoms` = 4 x molecules (>= 8). CPU:
  /// SoftStickyDipole; CUDA: SoftStickyDipoleCuda (a batch of one of BatchedSoftStickyDipoleCuda).
  /// Always double. makeBatchedRigidPotential with SoftStickyDipoleCluster::rigidSystem() makes
  /// each molecule one rigid body.
  SoftStickyDipoleParams softStickyDipole;
};

/// Builds the potential of spec on backend. Throws std::runtime_error when Backend::Cuda is asked
/// for and this build has no CUDA support or no CUDA device is found, and std::invalid_argument
/// for a bad spec.
std::unique_ptr<Potential> makePotential(const PotentialSpec& spec, Backend backend);

/// The ellipsoids of a GayBerne spec (atoms / 4). Throws std::invalid_argument when atoms is not
/// 4 markers per ellipsoid for at least 2 ellipsoids, or for bad parameters.
std::size_t gayBerneEllipsoidsOf(const PotentialSpec& spec);

/// The molecules of a SoftStickyDipole spec (atoms / 4). Throws std::invalid_argument when atoms
/// is not 4 markers per molecule for at least 2 molecules, or for bad parameters.
std::size_t softStickyDipoleMoleculesOf(const PotentialSpec& spec);

}  // namespace landscape
