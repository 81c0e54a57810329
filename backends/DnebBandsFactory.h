#pragma once
// The whole-band DNEB relaxer (landscape/paths/DnebBands.h) for a system and backend, where one
// exists: on cuda for Lennard-Jones clusters the GPU kernel (gpu/BatchedDnebCuda, a block per
// band). Elsewhere bands go through their images (Dneb::run over a batched potential), which is
// faster on the CPU than the kernel's twin.
#include <memory>

#include "backends/PotentialFactory.h"
#include "landscape/paths/DnebBands.h"

namespace landscape {

/// The relaxer for `spec` on `backend`, or null when there is none (cpu, or a system other than a
/// Lennard-Jones cluster in Cartesians). Throws std::runtime_error when cuda is asked for and
/// this build has no CUDA support or no device is found.
std::unique_ptr<DnebBands> makeDnebBands(const PotentialSpec& spec, Backend backend);

}  // namespace landscape
