#pragma once
// How a CUDA thread reads and writes the Lagged Fibonacci ring (gpu/RandomKernels.cuh). Every
// variant draws the same words (the CPU twin's, bit for bit); they differ in memory traffic only,
// so that one benchmark run (tools/bench_langevin --lagfib-access) can measure them (docs/rng.md).
// Host header without CUDA types.
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/InputChecks.h"

namespace landscape {

enum class LaggedFibonacciAccess {
  /// The first kernel: per draw, load x_{n-l} and x_{n-s}, add, store (the store may alias the
  /// next draw's loads for the compiler, so two loads are in flight at a time); 64-bit slots.
  Sequential,
  /// All eight loads of a thread's four draws issued before its first store (legal: a step
  /// writes only slots that no thread of the step reads as x_{n-s}, since l - s >= M), 32-bit
  /// slot arithmetic; the fused oscillator kernel also loads the position before the draw.
  Batched,
  /// Batched with evict-first (.cs) loads and stores of the ring: each ring word is touched at
  /// steps far apart (x_{n-s} about s / M steps after it was written, x_{n-l} l / M steps after),
  /// so caching it only evicts the positions, which a step reads again.
  Streaming,
  /// Streaming, and the fused oscillator kernel loads and stores the positions with an L2
  /// evict-last policy (createpolicy), keeping them in L2 at N = 1e6 (16 MB of 50 MB).
  StreamingKeepPositions,
};

/// The access of the library's kernels (Langevin, SOP, the word tests; for their ring the same as
/// Streaming). Measured on an H100 (docs/benchmarks.md): the fused oscillator step at 1.02x its
/// byte floor at N = 1e6 and 1.24x at 1e7 (Sequential 1.52x / 1.42x, Batched 1.25x / 1.15x,
/// Streaming 1.06x / 1.29x).
constexpr LaggedFibonacciAccess kDefaultLaggedFibonacciAccess =
    LaggedFibonacciAccess::StreamingKeepPositions;

inline std::string laggedFibonacciAccessName(LaggedFibonacciAccess a) {
  switch (a) {
    case LaggedFibonacciAccess::Sequential:
      return "sequential";
    case LaggedFibonacciAccess::Batched:
      return "batched";
    case LaggedFibonacciAccess::Streaming:
      return "streaming";
    case LaggedFibonacciAccess::StreamingKeepPositions:
      return "streaming-keep";
  }
  return "?";
}

inline std::vector<LaggedFibonacciAccess> allLaggedFibonacciAccesses() {
  return {LaggedFibonacciAccess::Sequential, LaggedFibonacciAccess::Batched,
          LaggedFibonacciAccess::Streaming, LaggedFibonacciAccess::StreamingKeepPositions};
}

/// "sequential", "batched", "streaming", "streaming-keep"; throws std::invalid_argument otherwise.
inline LaggedFibonacciAccess parseLaggedFibonacciAccess(const std::string& name) {
  for (LaggedFibonacciAccess a : allLaggedFibonacciAccesses())
    if (name == laggedFibonacciAccessName(a)) return a;
  throw std::invalid_argument(
      "lagged-fibonacci access must be sequential, batched, streaming or streaming-keep, not " +
      quoteInput(name));
}

}  // namespace landscape
