#pragma once
// Where the CUDA build switch meets the run-time choice of Langevin backend (like
// PotentialFactory and LbfgsWorkspaceFactory). Callers in landscape/ never name a backend.
#include <memory>

#include "landscape/dynamics/Langevin.h"
#include "potentials/Potential.h"

namespace landscape {

/// The integrator on the potential's own backend: LangevinCuda for a device-resident potential
/// (everything stays on the device), LangevinCpu otherwise. Throws std::invalid_argument for bad
/// params and std::runtime_error when a device-resident potential meets a build or machine
/// without CUDA.
std::unique_ptr<LangevinIntegrator> makeLangevinIntegrator(Potential& potential,
                                                           const LangevinParams& params);

/// The integrator on an explicit backend. Mixed cases work through the potential's host entry
/// point: Backend::Cpu with a device-resident potential copies x and g every step, Backend::Cuda
/// with a host-only potential evaluates the force on the host and integrates on the device. Throws
/// std::runtime_error for Backend::Cuda without CUDA support or device.
std::unique_ptr<LangevinIntegrator> makeLangevinIntegrator(Potential& potential,
                                                           const LangevinParams& params,
                                                           Backend backend);

}  // namespace landscape
