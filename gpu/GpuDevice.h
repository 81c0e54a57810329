#pragma once
// Run-time answer to "is there a GPU?" (the build-time answer is LANDSCAPE_HAVE_CUDA). Compiles in
// every build; without CUDA support gpuAvailable() is false.
#include <string>

namespace landscape {

/// True only when this build has CUDA support and the CUDA runtime reports at least one device.
/// The answer is computed once per process.
bool gpuAvailable();

/// One line for logs and benchmarks: device name, compute capability, SM count, memory, runtime and
/// driver versions -- or why no device is usable ("this build has no CUDA support", "no CUDA device
/// found: ...").
std::string gpuDescription();

/// Streaming multiprocessors of the current device (132 on an H100 SXM); 0 when no device is
/// usable. Sizes work meant to fill the device (gmin's default walker count).
int gpuMultiprocessors();

}  // namespace landscape
