#include "landscape/core/IndexBlock.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace landscape {

IndexBlock indexBlock(std::size_t total, int part, int parts) {
  if (parts < 1 || part < 0 || part >= parts)
    throw std::invalid_argument("index block: part " + std::to_string(part) + " of " +
                                std::to_string(parts));
  const auto k = static_cast<std::size_t>(parts), i = static_cast<std::size_t>(part);
  const std::size_t base = total / k, extra = total % k;
  const std::size_t first = i * base + std::min(i, extra);
  return {first, first + base + (i < extra ? 1 : 0)};
}

}  // namespace landscape
