#pragma once
// Where the CUDA build switch meets the run-time choice of L-BFGS backend (like PotentialFactory).
//   cpu: the L-BFGS vectors on the host (Eigen two-loop recursion); the potential on its own
//        backend (host entry point) -- the "potential only on the GPU" of Mantell, Pitt and
//        Wales (J. Chem. Theory Comput. 2016) when it is CUDA;
//   gpu: the whole L-BFGS on the device (LbfgsCudaWorkspace), their GPU implementation 1.
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
