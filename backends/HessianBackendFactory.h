#pragma once
// Where the CUDA build switch meets the characterisation of stationary points (like
// PotentialFactory): the finite-difference Hessian and its log product on the GPU
// (gpu/HessianLogProductCuda) for a device-resident potential, or the CPU path.
#include "backends/PotentialFactory.h"
#include "landscape/paths/Characterisation.h"
#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"

namespace landscape {

/// The GPU path for `devicePotential` (which must outlive the backend and be in double precision:
/// finite differences of gradients 2e-5 apart need every digit). Throws std::runtime_error when
/// this build has no CUDA support or no device is found, std::invalid_argument when the potential
/// has no device entry point.
HessianBackend gpuHessianBackend(Potential& devicePotential);

/// backend.hessians through `batched` (which must outlive the backend): several points'
/// displaced structures together (BatchedNumericalHessian), in calls of at most 1024 structures,
/// fewer where the potential's device scratch (bytesPerStructure) would pass 2 GiB.
void useBatchedHessians(HessianBackend& backend, BatchedPotential& batched);

/// backend.hessians on the GPU: the batched CUDA potential of `spec` (double precision), built at
/// the first call and owned by the backend, so that a backend that never characterises several
/// points allocates nothing. Throws as gpuHessianBackend when this build or machine has no GPU.
void useBatchedGpuHessians(HessianBackend& backend, const PotentialSpec& spec);

}  // namespace landscape
