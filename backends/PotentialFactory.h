#pragma once
// The one place where the CUDA build switch meets the run-time backend choice (DESIGN.md).
// Compiles in every build; callers never write #ifdef LANDSCAPE_HAVE_CUDA themselves.
#include <cstddef>
#include <memory>
#include <string>

#include "potentials/AmberGb.h"
#include "potentials/Potential.h"
#include "potentials/Precision.h"
#include "potentials/SopTopology.h"

namespace landscape {

/// What to build. Later potentials add their fields here (e.g. AMBER prmtop paths).
struct PotentialSpec {
  enum class Kind { LennardJones, AmberGb, Sop };
  Kind kind = Kind::LennardJones;
  std::size_t atoms = 0;   ///< number of atoms (Lennard-Jones: >= 2)
  std::string prmtop;      ///< AmberGb: the AMBER topology file
  AmberGbParams amber;     ///< AmberGb: igb, salt, rgbmax (kcal/mol, Angstrom)
  /// CUDA backends: arithmetic of the pair terms (AmberGb; Lennard-Jones is always double).
  Precision precision = Precision::Double;
  std::string sopPdb;      ///< Sop: the PDB file (C-alpha beads, see readSopTopology)
  SopParams sop;           ///< Sop: eq B1 parameters (kcal/mol, Angstrom)
  double sopSkin = 2.0;    ///< Sop on CUDA: Verlet-list skin (A)
};

/// Builds the potential of spec on backend. Throws std::runtime_error when Backend::Cuda is asked
/// for and this build has no CUDA support or no CUDA device is found, and std::invalid_argument
/// for a bad spec.
std::unique_ptr<Potential> makePotential(const PotentialSpec& spec, Backend backend);

}  // namespace landscape
