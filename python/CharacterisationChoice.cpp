#include "python/CharacterisationChoice.h"

#include <cmath>
#include <stdexcept>

#include "backends/HessianBackendFactory.h"
#include "backends/RigidBodyFactory.h"
#include "potentials/AmberTopology.h"
#include "python/PairModels.h"

namespace landscape::python {

CharacterisationChoice characterisationOf(Potential& potential, bool enabled,
                                          const std::string& prmtop, double symmetryTolerance,
                                          long long maxSpectrumAtoms,
                                          const std::string& hessianBackend,
                                          const std::string& what) {
  CharacterisationChoice c;
  c.enabled = enabled;
  if (!enabled) return c;
  if (rigidBodySystemOf(potential))
    throw std::invalid_argument(
        what +
        ": characterise needs an atomistic potential; the Hessian of a rigid-body "
        "potential (landscape.rigid_bodies) does not describe the atoms' stationary point, and "
        "optim leaves it unknown too");
  if (!(symmetryTolerance > 0.0) || !std::isfinite(symmetryTolerance))
    throw std::invalid_argument(what + ": symmetry_tolerance must be positive (length unit), got " +
                                std::to_string(symmetryTolerance));
  if (maxSpectrumAtoms < 0) throw std::invalid_argument(what + ": spectrum_max_atoms must be >= 0");
  c.params.maxSpectrumAtoms = static_cast<std::size_t>(maxSpectrumAtoms);
  c.params.pointGroup.distanceTolerance = symmetryTolerance;
  if (!prmtop.empty()) {
    // As optim for AMBER: the Hessian mass-weighted with the prmtop's masses (amu), symmetry
    // operations only between atoms of one element.
    const AmberTopology amber = readAmberTopology(prmtop);
    if (amber.masses.size() != potential.atomCount())
      throw std::invalid_argument(
          what + ": " + prmtop + " has " + std::to_string(amber.masses.size()) +
          " atoms but the potential has " + std::to_string(potential.atomCount()));
    c.params.masses = amber.masses;
    c.params.pointGroup.atomTypes = amber.atomicNumbers;
  }
  // A pair system: symmetry operations within a species; in a box translations alone are zero
  // modes (PairModels.h).
  restrictCharacterisation(potential, c.params);
  if (hessianBackend == "cuda") {
    c.params.backend = gpuHessianBackend(potential);
  } else if (hessianBackend != "cpu") {
    throw std::invalid_argument(what + ": hessian_backend must be 'cpu' or 'cuda', got '" +
                                hessianBackend + "'");
  }
  c.params.check();
  return c;
}

bool characterised(const StationaryPointProperties& properties) {
  return !std::isnan(properties.principalMoments[0]);
}

}  // namespace landscape::python
