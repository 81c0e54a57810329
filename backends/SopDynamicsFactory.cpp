#include "backends/SopDynamicsFactory.h"

#include <stdexcept>

#include "gpu/GpuDevice.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/SopDynamicsCuda.h"
#endif

namespace landscape {

std::unique_ptr<SopDynamics> makeSopDynamics(const SopTopology& topology,
                                             const std::vector<double>& start,
                                             const SopDynamicsParams& params, Backend backend) {
  // Both backends keep the replicas' coordinates on the host too.
  requireSopDynamicsMemory(topology.beadCount(), params.replicas);
  if (backend == Backend::Cpu) return std::make_unique<SopDynamicsCpu>(topology, start, params);
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable())
    throw std::runtime_error(
        "SOP dynamics backend 'cuda' was requested but no CUDA device found (" + gpuDescription() +
        ")");
  return std::make_unique<SopDynamicsCuda>(topology, start, params);
#else
  throw std::runtime_error(
      "SOP dynamics backend 'cuda' was requested but this build has no CUDA support");
#endif
}

}  // namespace landscape
