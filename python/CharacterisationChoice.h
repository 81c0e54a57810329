#pragma once
// How the bindings characterise stationary points as optim does (landscape/paths/Characterisation:
// log product of the positive Hessian eigenvalues, point-group order, principal moments, the
// spectrum of small systems), from the arguments connect, characterise and grow share: prmtop
// (masses and elements of a molecule), symmetry_tolerance, spectrum_max_atoms, hessian_backend.
#include <string>

#include "landscape/network/Database.h"
#include "landscape/paths/Characterisation.h"
#include "potentials/Potential.h"

namespace landscape::python {

struct CharacterisationChoice {
  bool enabled = false;
  CharacterisationParams params;
  /// What the network's metadata says of the Hessians: kUnitMasses, or kAtomicMassesAmu with a
  /// prmtop's masses.
  const char* hessianMasses() const {
    return params.masses.empty() ? kUnitMasses : kAtomicMassesAmu;
  }
};

/// The choice for these arguments, checked (std::invalid_argument naming the argument, messages
/// starting with `what`); nothing is read or checked when !enabled.
CharacterisationChoice characterisationOf(Potential& potential, bool enabled,
                                          const std::string& prmtop, double symmetryTolerance,
                                          long long maxSpectrumAtoms,
                                          const std::string& hessianBackend,
                                          const std::string& what);

/// Whether a point was characterised: moments of inertia are computed for every characterised
/// point, so unknown ones mark a point that never was.
bool characterised(const StationaryPointProperties& properties);

}  // namespace landscape::python
