// A rank's choice of GPU (backends/GpuChoice.h) holds on every thread that does its work: the CUDA
// runtime keeps the current device per host thread, and a pool worker or a growth cycle's own
// thread once launched on device 0 with the memory of the rank's device (cudaErrorIllegalAddress
// under `mpirun -n 2 pathsample grow --backend cuda`).
#include <gtest/gtest.h>

#include <future>
#include <string>
#include <vector>

#include "backends/GpuChoice.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/ThreadPool.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace landscape {
namespace {

#ifdef LANDSCAPE_HAVE_CUDA
int currentDevice() {
  int device = -1;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  return device;
}
#endif

TEST(GpuChoiceCuda, PoolWorkersAndOtherThreadsTakeTheChosenDevice) {
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  if (count < 2) GTEST_SKIP() << "needs two CUDA devices, found " << count;
  // Local rank 3 of a node with `count` devices.
  const int chosen = 3 % count;
  EXPECT_EQ(useLocalGpu(3), "GPU " + std::to_string(chosen) + " of " + std::to_string(count));
  EXPECT_EQ(currentDevice(), chosen);
  {
    ThreadPool pool(4);
    std::vector<int> seen(64, -1);
    pool.forEach(seen.size(), [&](std::size_t i) {
      int device = -1;
      if (cudaGetDevice(&device) == cudaSuccess) seen[i] = device;
    });
    for (int device : seen) EXPECT_EQ(device, chosen);
  }
  // A thread made outside a pool (a growth cycle's std::async thread) asks for it.
  const int onAsync = std::async(std::launch::async, [] {
                        ThreadPool::startWorker();
                        int device = -1;
                        return cudaGetDevice(&device) == cudaSuccess ? device : -1;
                      }).get();
  EXPECT_EQ(onAsync, chosen);
  // Back to the process's default for the tests that follow.
  ThreadPool::setWorkerStart({});
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
#else
  GTEST_SKIP() << "this build has no CUDA support";
#endif
}

}  // namespace
}  // namespace landscape
