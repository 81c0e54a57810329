#pragma once
// Where the CUDA build switch meets the run-time choice of L-BFGS backend (like PotentialFactory).
//   cpu: the L-BFGS vectors on the host (Eigen two-loop recursion); the potential on its own
//        backend (host entry point) -- seed 001's "potential only on the GPU" when it is CUDA;
//   gpu: the whole L-BFGS on the device (LbfgsCudaWorkspace), seed 001's GPU implementation 1.
#include <string>

#include "landscape/minimisation/LbfgsWorkspace.h"

namespace landscape {

enum class LbfgsBackend { Cpu, Gpu };

/// "cpu" or "gpu"; throws std::invalid_argument naming the bad value otherwise.
LbfgsBackend parseLbfgsBackend(const std::string& name);
std::string lbfgsBackendName(LbfgsBackend backend);

/// A factory for `backend`. For Gpu, throws std::runtime_error (when called) if this build has no
/// CUDA support or no device is found.
LbfgsWorkspaceFactory lbfgsWorkspaceFactory(LbfgsBackend backend);

}  // namespace landscape
