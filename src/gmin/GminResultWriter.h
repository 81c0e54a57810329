#pragma once
// What gmin writes into its output folder after every checkpoint and at the end: `lowest`
// (GMIN's format) and `minima.h5`, both replaced atomically so that an interrupted run keeps its
// last checkpoint; for molecules also one PDB (and for AMBER one rst7) file per minimum.
#include <optional>
#include <string>
#include <vector>

#include "landscape/network/Database.h"
#include "landscape/network/StoredMinimum.h"
#include "landscape/network/StoredNetwork.h"
#include "potentials/AmberTopology.h"
#include "potentials/GayBerne.h"
#include "potentials/PairModel.h"
#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/SopTopology.h"
#include "potentials/WaterCluster.h"

namespace landscape {

class GminResultWriter {
 public:
  /// potential: the atomistic potential; amber: the AMBER molecule, whose minima are also written
  /// as PDB and rst7 files; sop: the SOP protein, whose minima are written as C-alpha PDB files;
  /// rigid: set when the search runs in rigid coordinates (minima are written as atoms). When
  /// DIR/minima.h5 holds more than gmin writes (transition states, Hessian-derived fields, endpoint
  /// sets or a growth record that optim or pathsample added), it is kept: every write adds the
  /// search's minima that are not in it yet after its own rows, so nothing another program stored
  /// is lost. Such a file of another system (atoms, units, potential) is refused here, before the
  /// run (std::runtime_error naming the file). pair: a pair system, whose minima are also written
  /// as extended XYZ (minima.xyz: species, energy and, in a periodic box, the lattice) and whose
  /// atoms are labelled with their species in `lowest` when there are several; in a periodic box
  /// every file holds the minima wrapped into the box. water: rigid water, whose sites are
  /// written as O, H, H and X (the massless M site; ASE's and OVITO's dummy element) in the
  /// model's units (kJ/mol, Angstrom). ellipsoids: Gay-Berne ellipsoids (reduced units), whose 4
  /// markers are written as E, E (the axis tips) and X, X in `lowest`, and each ellipsoid's
  /// centre, orientation quaternion and semi-axes as extended XYZ (ellipsoids.xyz, as OVITO reads
  /// ellipsoids). ssdWater: SSD water (kcal/mol, Angstrom), whose 4 markers are written as D, D
  /// (along the dipole) and X, X in `lowest`, and each molecule drawn as O, H, H in water.xyz
  /// (extended XYZ; SoftStickyDipoleCluster::drawnAtoms).
  GminResultWriter(const std::string& dir, const Potential& potential, const AmberTopology* amber,
                   const SopTopology* sop, const RigidBodySystem* rigid,
                   const PairModel* pair = nullptr, const WaterCluster* water = nullptr,
                   const GayBerneCluster* ellipsoids = nullptr,
                   const SoftStickyDipoleCluster* ssdWater = nullptr);

  /// Writes the minima of the search (in its coordinates), lowest first.
  void write(const std::vector<StoredMinimum>& searched) const;

 private:
  void writeSopModels(const std::vector<StoredMinimum>& minima) const;
  void writeAmberFiles(const std::vector<StoredMinimum>& minima) const;
  void writeKeepingNetwork(const std::vector<StoredMinimum>& minima) const;
  void writePairXyz(const std::vector<StoredMinimum>& minima) const;
  void writeEllipsoidXyz(const std::vector<StoredMinimum>& minima) const;
  void writeSsdWaterXyz(const std::vector<StoredMinimum>& searched) const;

  std::string m_dir;
  const AmberTopology* m_amber;
  const SopTopology* m_sop;
  const RigidBodySystem* m_rigid;
  const PairModel* m_pair;
  const WaterCluster* m_water;
  const GayBerneCluster* m_ellipsoids;
  const SoftStickyDipoleCluster* m_ssdWater;
  DatabaseMetadata m_metadata;
  /// The network in minima.h5 when the run began, when it holds more than gmin's minima.
  std::optional<StoredTransitionNetwork> m_kept;
  DatabaseMetadata m_keptMetadata;
};

}  // namespace landscape
