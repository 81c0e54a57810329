#include "gpu/GpuDevice.h"

#include <cstdio>

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/CudaCheck.h"
#endif

namespace landscape {

#ifdef LANDSCAPE_HAVE_CUDA

namespace {

struct DeviceQuery {
  int count = 0;
  cudaError_t status = cudaSuccess;
};

// cudaGetDeviceCount fails (cudaErrorNoDevice, cudaErrorInsufficientDriver, ...) on machines
// without a usable GPU; that is an answer here, not an error, so it is recorded and not thrown.
const DeviceQuery& deviceQuery() {
  static const DeviceQuery query = [] {
    DeviceQuery q;
    q.status = cudaGetDeviceCount(&q.count);
    if (q.status != cudaSuccess) {
      q.count = 0;
      (void)cudaGetLastError();  // do not leave the failure for the next unrelated check
    }
    return q;
  }();
  return query;
}

std::string versionString(int version) {  // CUDA encodes 13.0 as 13000
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace

bool gpuAvailable() { return deviceQuery().count > 0; }

std::string gpuDescription() {
  const DeviceQuery& query = deviceQuery();
  if (query.status == cudaErrorInsufficientDriver) {
    // The runtime reports a missing driver as an old one: tell the two apart.
    int runtime = 0, driver = 0;
    (void)cudaRuntimeGetVersion(&runtime);
    (void)cudaDriverGetVersion(&driver);
    (void)cudaGetLastError();
    if (driver == 0) return "no CUDA device found: no NVIDIA driver is installed on this machine";
    return "no CUDA device found: the NVIDIA driver supports CUDA " + versionString(driver) +
           " but this build's runtime is CUDA " + versionString(runtime) +
           " (update the driver)";
  }
  if (query.status != cudaSuccess)
    return std::string("no CUDA device found: ") + cudaGetErrorString(query.status);
  if (query.count == 0) return "no CUDA device found";

  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return "CUDA device present but its properties could not be read";
  }
  int runtime = 0, driver = 0;
  (void)cudaRuntimeGetVersion(&runtime);
  (void)cudaDriverGetVersion(&driver);

  char memory[32];
  std::snprintf(memory, sizeof memory, "%.1f GiB",
                static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0));
  return std::string(prop.name) + " (device " + std::to_string(device) + " of " +
         std::to_string(query.count) + ", sm_" + std::to_string(prop.major) +
         std::to_string(prop.minor) + ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
         memory + ", CUDA runtime " + versionString(runtime) + ", driver " + versionString(driver) +
         ")";
}

GpuProperties gpuProperties() {
  GpuProperties properties;
  if (!gpuAvailable()) return properties;
  int device = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  LANDSCAPE_CUDA_CHECK(
      cudaDeviceGetAttribute(&properties.multiprocessors, cudaDevAttrMultiProcessorCount, device));
  std::size_t totalBytes = 0;
  LANDSCAPE_CUDA_CHECK(cudaMemGetInfo(&properties.freeBytes, &totalBytes));
  return properties;
}

int sharedMemoryOptIn() {
  int device = 0, optIn = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  LANDSCAPE_CUDA_CHECK(
      cudaDeviceGetAttribute(&optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return optIn;
}

#else  // no CUDA in this build

bool gpuAvailable() { return false; }

std::string gpuDescription() { return "this build has no CUDA support"; }

GpuProperties gpuProperties() { return {}; }

int sharedMemoryOptIn() { return 0; }

#endif

}  // namespace landscape
