#include "backends/RigidBodyFactory.h"

#include <stdexcept>
#include <utility>

#include "gpu/GpuDevice.h"
#include "potentials/RigidBodyPotential.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/RigidBodyCuda.h"
#endif

namespace landscape {

std::unique_ptr<Potential> makeRigidBodyPotential(Potential& atomistic, RigidBodySystem system,
                                                  Backend backend) {
  if (backend == Backend::Cpu)
    return std::make_unique<RigidBodyPotential>(atomistic, std::move(system));
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable())
    throw std::runtime_error(
        "rigid bodies: backend 'cuda' was requested but no CUDA device found (" + gpuDescription() +
        ")");
  return std::make_unique<RigidBodyCuda>(atomistic, std::move(system));
#else
  throw std::runtime_error(
      "rigid bodies: backend 'cuda' was requested but this build has no CUDA support");
#endif
}

const RigidBodySystem* rigidBodySystemOf(const Potential& potential) {
  if (const auto* cpu = dynamic_cast<const RigidBodyPotential*>(&potential)) return &cpu->system();
#ifdef LANDSCAPE_HAVE_CUDA
  if (const auto* gpu = dynamic_cast<const RigidBodyCuda*>(&potential)) return &gpu->system();
#endif
  return nullptr;
}

}  // namespace landscape
