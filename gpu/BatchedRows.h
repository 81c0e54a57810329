#pragma once
// Host-side helpers of the batched potentials' host entry points (issue 16): only the active
// structures' rows cross the bus, in runs of consecutive active structures. CUDA-free.
// (gpu/BatchedAmberGbCuda.cu keeps its own copy of forEachActiveRun for now.)
#include <cstddef>
#include <cstdint>

namespace landscape {

/// Calls copy(first, count) for each run of consecutive active structures of [0, batch)
/// (active == nullptr: one run of all).
template <typename Copy>
void forEachActiveRun(std::size_t batch, const std::uint8_t* active, Copy copy) {
  std::size_t b = 0;
  while (b < batch) {
    if (active && !active[b]) {
      ++b;
      continue;
    }
    const std::size_t first = b;
    while (b < batch && (!active || active[b])) ++b;
    copy(first, b - first);
  }
}

}  // namespace landscape
