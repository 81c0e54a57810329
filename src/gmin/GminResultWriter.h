#pragma once
// What gmin writes into its output folder after every checkpoint and at the end: `lowest`
// (GMIN's format) and `minima.h5`, both replaced atomically so that an interrupted run keeps its
// last checkpoint; for molecules also one PDB (and for AMBER one rst7) file per minimum.
#include <string>
#include <vector>

#include "landscape/network/Database.h"
#include "landscape/network/StoredMinimum.h"
#include "potentials/AmberTopology.h"
#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/SopTopology.h"

namespace landscape {

class GminResultWriter {
 public:
  /// potential: the atomistic potential; amber: the AMBER molecule, whose minima are also written
  /// as PDB and rst7 files; sop: the SOP protein, whose minima are written as C-alpha PDB files;
  /// rigid: set when the search runs in rigid coordinates (minima are written as atoms).
  GminResultWriter(const std::string& dir, const Potential& potential, const AmberTopology* amber,
                   const SopTopology* sop, const RigidBodySystem* rigid);

  /// Writes the minima of the search (in its coordinates), lowest first.
  void write(const std::vector<StoredMinimum>& searched) const;

 private:
  void writeSopModels(const std::vector<StoredMinimum>& minima) const;
  void writeAmberFiles(const std::vector<StoredMinimum>& minima) const;

  std::string m_dir;
  const AmberTopology* m_amber;
  const SopTopology* m_sop;
  const RigidBodySystem* m_rigid;
  DatabaseMetadata m_metadata;
};

}  // namespace landscape
