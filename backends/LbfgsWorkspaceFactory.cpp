#include "backends/LbfgsWorkspaceFactory.h"

#include <stdexcept>

#include "gpu/GpuDevice.h"
#include "landscape/minimisation/LbfgsCpuWorkspace.h"
#include "landscape/core/InputChecks.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/LbfgsCudaWorkspace.h"
#endif

namespace landscape {

LbfgsBackend parseLbfgsBackend(const std::string& name) {
  if (name == "cpu") return LbfgsBackend::Cpu;
  if (name == "gpu") return LbfgsBackend::Gpu;
  throw std::invalid_argument("L-BFGS backend must be 'cpu' or 'gpu', not " + quoteInput(name));
}

std::string lbfgsBackendName(LbfgsBackend backend) {
  return backend == LbfgsBackend::Cpu ? "cpu" : "gpu";
}

LbfgsWorkspaceFactory lbfgsWorkspaceFactory(LbfgsBackend backend) {
  if (backend == LbfgsBackend::Cpu) {
    return [](Potential& potential, int m) -> std::unique_ptr<LbfgsWorkspace> {
      return std::make_unique<LbfgsCpuWorkspace>(potential, m);
    };
  }
  return [](Potential& potential, int m) -> std::unique_ptr<LbfgsWorkspace> {
#ifdef LANDSCAPE_HAVE_CUDA
    if (!gpuAvailable())
      throw std::runtime_error("--lbfgs-backend gpu: no CUDA device found (" + gpuDescription() +
                               ")");
    return std::make_unique<LbfgsCudaWorkspace>(potential, m);
#else
    (void)potential;
    (void)m;
    throw std::runtime_error("--lbfgs-backend gpu: this build has no CUDA support");
#endif
  };
}

}  // namespace landscape
