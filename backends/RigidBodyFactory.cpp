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

namespace {

// The atomistic potential a rigid one borrows, owned alongside it (constructed first).
struct OwnedAtomistic {
  std::unique_ptr<Potential> atomistic;
};

class OwningRigidBodyPotential : private OwnedAtomistic, public RigidBodyPotential {
 public:
  OwningRigidBodyPotential(std::unique_ptr<Potential> atomistic, RigidBodySystem system)
      : OwnedAtomistic{std::move(atomistic)},
        RigidBodyPotential(*OwnedAtomistic::atomistic, std::move(system)) {}
};

#ifdef LANDSCAPE_HAVE_CUDA
class OwningRigidBodyCuda : private OwnedAtomistic, public RigidBodyCuda {
 public:
  OwningRigidBodyCuda(std::unique_ptr<Potential> atomistic, RigidBodySystem system)
      : OwnedAtomistic{std::move(atomistic)},
        RigidBodyCuda(*OwnedAtomistic::atomistic, std::move(system)) {}
};
#endif

}  // namespace

std::unique_ptr<Potential> makeOwningRigidBodyPotential(std::unique_ptr<Potential> atomistic,
                                                        RigidBodySystem system, Backend backend) {
  if (!atomistic)
    throw std::invalid_argument("makeOwningRigidBodyPotential: the atomistic potential is null");
  if (backend == Backend::Cpu)
    return std::make_unique<OwningRigidBodyPotential>(std::move(atomistic), std::move(system));
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable())
    throw std::runtime_error(
        "rigid bodies: backend 'cuda' was requested but no CUDA device found (" + gpuDescription() +
        ")");
  return std::make_unique<OwningRigidBodyCuda>(std::move(atomistic), std::move(system));
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
