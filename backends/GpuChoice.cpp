#include "backends/GpuChoice.h"

#include <stdexcept>

#include "gpu/GpuDevice.h"
#include "landscape/core/ThreadPool.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace landscape {

std::string useLocalGpu(int localRank) {
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable()) return gpuDescription();
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) return gpuDescription();
  const int device = localRank % count;
  const cudaError_t status = cudaSetDevice(device);
  if (status != cudaSuccess)
    throw std::runtime_error("local rank " + std::to_string(localRank) + ": GPU " +
                             std::to_string(device) + " could not be selected: " +
                             cudaGetErrorString(status));
  // The pools' worker threads (connect runs in flight, batch threads) take the same device.
  ThreadPool::setWorkerStart([device, localRank] {
    const cudaError_t worker = cudaSetDevice(device);
    if (worker != cudaSuccess)
      throw std::runtime_error("local rank " + std::to_string(localRank) + ": a worker thread " +
                               "could not select GPU " + std::to_string(device) + ": " +
                               cudaGetErrorString(worker));
  });
  return "GPU " + std::to_string(device) + " of " + std::to_string(count);
#else
  (void)localRank;
  return gpuDescription();
#endif
}

}  // namespace landscape
