#include "backends/TransitionStateSearchesFactory.h"

#include <stdexcept>

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedHybridEfCuda.h"
#endif

namespace landscape {

std::unique_ptr<TransitionStateSearches> makeTransitionStateSearches(const PotentialSpec& spec,
                                                                     Backend backend) {
  if (backend != Backend::Cuda || spec.kind != PotentialSpec::Kind::LennardJones) return nullptr;
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<HybridEfSearchesCuda>(spec.atoms);
#else
  throw std::runtime_error("hybrid EF searches on cuda: this build has no CUDA support");
#endif
}

}  // namespace landscape
