#pragma once
// Where the CUDA build switch meets the characterisation of stationary points (like
// PotentialFactory): the finite-difference Hessian and its log product on the GPU
// (gpu/HessianLogProductCuda) for a device-resident potential, or the CPU path.
#include "landscape/paths/Characterisation.h"
#include "potentials/Potential.h"

namespace landscape {

/// The GPU path for `devicePotential` (which must outlive the backend and be in double precision:
/// finite differences of gradients 2e-5 apart need every digit). Throws std::runtime_error when
/// this build has no CUDA support or no device is found, std::invalid_argument when the potential
/// has no device entry point.
HessianBackend gpuHessianBackend(Potential& devicePotential);

}  // namespace landscape
