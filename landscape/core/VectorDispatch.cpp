#include "landscape/core/VectorDispatch.h"

#include <atomic>

namespace landscape {

namespace {
std::atomic<bool> baselineAsked{false};
}  // namespace

bool cpuHasAvx2() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  // __builtin_cpu_init: safe even when first asked from a static initialiser.
  static const bool has = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
  return has && !baselineAsked.load(std::memory_order_relaxed);
#else
  return false;
#endif
}

void useBaselineLoops(bool baseline) { baselineAsked.store(baseline, std::memory_order_relaxed); }

}  // namespace landscape
