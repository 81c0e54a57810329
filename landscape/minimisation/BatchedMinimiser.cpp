#include "landscape/minimisation/BatchedMinimiser.h"

#include <unistd.h>

#include <algorithm>
#include <stdexcept>

namespace landscape {

std::size_t BatchMemory::largestBatch() const {
  if (bytesPerStructure == 0 || availableBytes < fixedBytes) return 0;
  return (availableBytes - fixedBytes) / bytesPerStructure;
}

std::size_t halfThePhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0 ? static_cast<std::size_t>(pages) * pageSize / 2 : 0;
}

void requireBatchFits(std::size_t batch, const BatchMemory& memory) {
  const std::size_t largest = memory.largestBatch();
  if (batch <= largest) return;
  throw std::invalid_argument(
      "a batch of " + std::to_string(batch) + " structures needs " +
      std::to_string(memory.fixedBytes + batch * memory.bytesPerStructure) + " bytes of " +
      memory.where + " (" + std::to_string(memory.bytesPerStructure) + " per structure + " +
      std::to_string(memory.fixedBytes) + " fixed) but " + std::to_string(memory.availableBytes) +
      " are available; the largest batch that fits is " + std::to_string(largest));
}

std::size_t BatchedMinimiser::defaultBatch() const {
  return std::min(maxBatch(), kDefaultBatchCap);
}

}  // namespace landscape
