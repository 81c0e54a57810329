#include "gpu/DeviceMemoryPlan.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <algorithm>
#include <stdexcept>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceWideSync.h"

namespace landscape {

void requireScratchFits(const std::string& what, std::size_t batch, std::size_t perStructure,
                        std::size_t heldBytes, std::size_t maxBatch) {
  synchronizeDevice();
  std::size_t freeBytes = 0, totalBytes = 0;
  LANDSCAPE_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  const std::size_t available = deviceBytesForBatches(freeBytes, heldBytes);
  const std::size_t fit = std::min(available / perStructure, maxBatch);
  if (batch > available / perStructure || batch > maxBatch)
    throw std::runtime_error(what + ": a batch of " + std::to_string(batch) + " structures needs " +
                             std::to_string(perStructure) + " bytes of device scratch per " +
                             "structure; " + std::to_string(available) + " bytes are available, " +
                             "enough for at most " + std::to_string(fit) + " structures");
}

}  // namespace landscape
#endif
