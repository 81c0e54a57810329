#pragma once
// What gmin searches: the potential, the starting coordinates and the moves and checks that the
// system adds to GMIN's cluster step (side-chain rotations, stereochemistry, rigid bodies, the
// Langevin move). Built in named steps from the run's configuration, so that gmin_main reads as
// the order of the run.
#include <memory>
#include <vector>

#include "backends/PotentialFactory.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/LangevinMove.h"
#include "landscape/search/ProteinMoves.h"
#include "potentials/AmberTopology.h"
#include "potentials/GayBerne.h"
#include "potentials/PairModel.h"
#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/SopTopology.h"
#include "potentials/WaterCluster.h"
#include "src/gmin/GminConfig.h"

namespace landscape {

struct GminSystem {
  std::shared_ptr<const AmberTopology> amber;  ///< --prmtop: the molecule, read once
  std::shared_ptr<const SopTopology> sop;      ///< --sop-pdb: the protein, read once
  std::shared_ptr<const PairModel> pair;       ///< a pair system (--morse, --box, ...)
  std::shared_ptr<const WaterCluster> water;   ///< --water: the molecules and GMIN's frame
  std::shared_ptr<const GayBerneCluster> ellipsoids;  ///< --ellipsoids: the bodies and markers
  std::shared_ptr<const SoftStickyDipoleCluster> ssdWater;  ///< --water ssd: bodies and markers
  std::unique_ptr<Potential> atomistic;        ///< the potential of the atoms
  PotentialSpec spec;                          ///< what atomistic was built from (walkers' copies)
  std::unique_ptr<Potential> rigidPotential;  ///< --rigid, --water, --ellipsoids: rigid coordinates
  const RigidBodySystem* rigid = nullptr;      ///< the system of rigidPotential
  /// In the search's coordinates (rigid ones with --rigid); empty: a random cluster.
  std::vector<double> start;
  BasinHoppingHooks hooks;
  std::vector<RotatableGroup> groups;      ///< AMBER side-chain groups (for the header line)
  std::unique_ptr<StereoChecks> stereo;    ///< AMBER stereochemistry checks, when on
  std::unique_ptr<LangevinMove> langevin;  ///< the Langevin move, when on

  /// The potential the search runs on: the rigid one with --rigid, else the atomistic one.
  Potential& searched() const { return rigidPotential ? *rigidPotential : *atomistic; }
};

/// The topology (read once), the potential on --backend and the start, for SOP (--sop-pdb),
/// AMBER-GB (--prmtop), rigid water (--water) or Gay-Berne ellipsoids (--ellipsoids) (both
/// already in rigid coordinates, one body per molecule or ellipsoid, with the rigid-body moves and
/// random rigid starts), a pair system or Lennard-Jones. A pair system also brings what replaces
/// the cluster's assumptions: AVOID's distance with one permutation group per species and, in a
/// periodic box, minimum images over translations modulo the box; in a box, random starts
/// uniform in it and trial structures wrapped into it. Throws std::runtime_error for inconsistent
/// input (an XYZ start whose species labels disagree, an atom count that differs from --lj).
GminSystem loadGminSystem(const GminConfig& config);

/// AMBER: side-chain group rotations after the Cartesian step and the stereochemistry checks.
void addMolecularMoves(const GminConfig& config, GminSystem& system);

/// --rigid FILE: the search moves to rigid coordinates over the atomistic potential; the moves
/// and checks so far keep acting on the mapped atoms.
void useRigidBodies(const GminConfig& config, GminSystem& system);

/// --langevin-steps: a short Langevin run after every other move. Its noise stream is the quench
/// number, continued from firstQuench (the checkpoint's on --resume), so reruns are identical.
void addLangevinMove(const GminConfig& config, long firstQuench, GminSystem& system);

}  // namespace landscape
