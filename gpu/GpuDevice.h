#pragma once
// Run-time answer to "is there a GPU?" (the build-time answer is LANDSCAPE_HAVE_CUDA). Compiles in
// every build; without CUDA support gpuAvailable() is false.
#include <cstddef>
#include <string>

namespace landscape {

/// True only when this build has CUDA support and the CUDA runtime reports at least one device.
/// The answer is computed once per process.
bool gpuAvailable();

/// One line for logs and benchmarks: device name, compute capability, SM count, memory, runtime and
/// driver versions -- or why no device is usable ("this build has no CUDA support", "no CUDA device
/// found: ...").
std::string gpuDescription();

/// What sizes work meant to fill the current device (gmin's default walker count), read from the
/// runtime without building anything on the device.
struct GpuProperties {
  int multiprocessors = 0;    ///< streaming multiprocessors (132 on an H100 SXM)
  std::size_t freeBytes = 0;  ///< free device memory now (cudaMemGetInfo)
};

/// The current device's properties; zeros when no device is usable. Throws std::runtime_error
/// when a usable device does not answer.
GpuProperties gpuProperties();

}  // namespace landscape
