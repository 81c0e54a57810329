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

/// As makeRigidBodyPotential over `atomistic`, which the result owns: an independent copy of a
/// rigid system for another thread (e.g. gmin's walkers on the CPU: one per thread, each quench
/// the single chain's bits). Throws as makeRigidBodyPotential, and std::invalid_argument for a
/// null atomistic potential.
std::unique_ptr<Potential> makeOwningRigidBodyPotential(std::unique_ptr<Potential> atomistic,
                                                        RigidBodySystem system, Backend backend);

/// The system of a potential made by makeRigidBodyPotential or makeOwningRigidBodyPotential, or
/// nullptr for any other potential.
const RigidBodySystem* rigidBodySystemOf(const Potential& potential);

}  // namespace landscape
