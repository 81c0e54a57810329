#pragma once
// Where the CUDA build switch meets the run-time choice for rigid bodies (like PotentialFactory):
// the CPU adapter (potentials/RigidBodyPotential) or its CUDA twin (gpu/RigidBodyCuda).
#include <memory>

#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {

/// Rigid bodies over `atomistic` (which must outlive the result). Cuda throws std::runtime_error
/// when this build has no CUDA support or no device is found.
std::unique_ptr<Potential> makeRigidBodyPotential(Potential& atomistic, RigidBodySystem system,
                                                  Backend backend);

/// The system of a potential made by makeRigidBodyPotential, or nullptr for any other potential.
const RigidBodySystem* rigidBodySystemOf(const Potential& potential);

}  // namespace landscape
