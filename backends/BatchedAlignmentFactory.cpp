#include "backends/BatchedAlignmentFactory.h"

#include <stdexcept>

#include "landscape/geometry/AlignmentTwin.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedAlignmentCuda.h"
#endif

namespace landscape {

std::unique_ptr<BatchedAlignment> makeBatchedAlignment(int atoms, Backend backend, int threads) {
  if (backend == Backend::Cpu) return std::make_unique<AlignmentTwin>(atoms, threads);
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<BatchedAlignmentCuda>(atoms, kAlignmentWarps, threads);
#else
  throw std::runtime_error("batched alignment on cuda: this build has no CUDA support");
#endif
}

}  // namespace landscape
