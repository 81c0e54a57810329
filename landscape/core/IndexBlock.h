#pragma once
// Items [first, last) of `total` that part `part` of `parts` takes: contiguous blocks in part
// order, the first total % parts parts one item more. How the processes of a run divide walkers
// or stationary points among themselves (docs/cluster.md).
#include <cstddef>

namespace landscape {

struct IndexBlock {
  std::size_t first = 0, last = 0;
  std::size_t count() const { return last - first; }
};

/// Throws std::invalid_argument unless 0 <= part < parts.
IndexBlock indexBlock(std::size_t total, int part, int parts);

}  // namespace landscape
