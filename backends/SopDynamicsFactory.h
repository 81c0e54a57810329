#pragma once
// Where the CUDA build switch meets the run-time choice of SOP dynamics backend (as
// LangevinFactory). Callers never write #ifdef LANDSCAPE_HAVE_CUDA.
#include <memory>
#include <vector>

#include "landscape/dynamics/SopDynamics.h"
#include "potentials/Potential.h"

namespace landscape {

/// SopDynamicsCpu for Backend::Cpu (double precision whatever params.precision says), and
/// SopDynamicsCuda for Backend::Cuda. Throws std::invalid_argument for bad params and
/// std::runtime_error for Backend::Cuda without CUDA support or device.
std::unique_ptr<SopDynamics> makeSopDynamics(const SopTopology& topology,
                                             const std::vector<double>& start,
                                             const SopDynamicsParams& params, Backend backend);

}  // namespace landscape
