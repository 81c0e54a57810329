#include "backends/LangevinFactory.h"

#include <stdexcept>

#include "gpu/GpuDevice.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/LangevinCuda.h"
#endif

namespace landscape {

std::unique_ptr<LangevinIntegrator> makeLangevinIntegrator(Potential& potential,
                                                           const LangevinParams& params) {
  return makeLangevinIntegrator(potential, params,
                                potential.isDeviceResident() ? Backend::Cuda : Backend::Cpu);
}

std::unique_ptr<LangevinIntegrator> makeLangevinIntegrator(Potential& potential,
                                                           const LangevinParams& params,
                                                           Backend backend) {
  if (backend == Backend::Cpu) return std::make_unique<LangevinCpu>(potential, params);
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable())
    throw std::runtime_error("Langevin backend 'cuda' was requested but no CUDA device found (" +
                             gpuDescription() + ")");
  return std::make_unique<LangevinCuda>(potential, params);
#else
  throw std::runtime_error(
      "Langevin backend 'cuda' was requested but this build has no CUDA support (potential " +
      potential.name() + ")");
#endif
}

}  // namespace landscape
