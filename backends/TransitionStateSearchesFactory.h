#pragma once
// The whole-search hybrid EF engine (landscape/paths/TransitionStateSearches.h) for a system and
// backend, where one exists: on cuda for Lennard-Jones clusters the GPU kernel
// (gpu/BatchedHybridEfCuda, a block per search). Elsewhere searches take their steps on the host
// (HybridEigenvectorFollowing over a potential), which is faster on the CPU than the kernel's
// twin.
#include <memory>

#include "backends/PotentialFactory.h"
#include "landscape/paths/TransitionStateSearches.h"

namespace landscape {

/// The engine for `spec` on `backend`, or null when there is none (cpu, or a system other than a
/// Lennard-Jones cluster in Cartesians). Throws std::runtime_error when cuda is asked for and
/// this build has no CUDA support or no device is found.
std::unique_ptr<TransitionStateSearches> makeTransitionStateSearches(const PotentialSpec& spec,
                                                                     Backend backend);

}  // namespace landscape
