#include "backends/DnebBandsFactory.h"

#include <stdexcept>

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedDnebCuda.h"
#endif

namespace landscape {

std::unique_ptr<DnebBands> makeDnebBands(const PotentialSpec& spec, Backend backend) {
  if (backend != Backend::Cuda || spec.kind != PotentialSpec::Kind::LennardJones) return nullptr;
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<DnebBandsCuda>(spec.atoms);
#else
  throw std::runtime_error("DNEB bands on cuda: this build has no CUDA support");
#endif
}

}  // namespace landscape
