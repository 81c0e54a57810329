#pragma once
// Programmatic dependent launches (compute capability 9.0+; CUDA Programming Guide, "Programmatic
// Dependent Launch and Synchronization"): a kernel launched with the attribute may start while the
// kernel before it in the stream is still running, so that its launch and block start overlap
// that kernel's tail instead of following it. Such a kernel must call awaitPreviousKernel before
// it touches global memory. Included from .cu files only.
#include <cuda_runtime.h>

#include <utility>

#include "gpu/CudaCheck.h"

namespace landscape {

/// Waits until the kernel before this one in the stream has completed and its writes are
/// visible (a no-op when this kernel was launched without the attribute), then lets the next
/// kernel's blocks start. Since each kernel waits for its predecessor before it can complete,
/// the wait covers every earlier kernel too.
__device__ __forceinline__ void awaitPreviousKernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// Launches kernel<<<grid, block, 0, stream>>>(args...), as a programmatic dependent launch when
/// `programmatic` (the kernel then calls awaitPreviousKernel first); checks the launch.
template <typename... Params, typename... Args>
void launchMaybeProgrammatic(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream,
                             bool programmatic, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = programmatic ? 1 : 0;
  LANDSCAPE_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

/// Whether the current device runs programmatic dependent launches (compute capability >= 9.0).
inline bool programmaticLaunchesSupported() {
  int device = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  int major = 0;
  LANDSCAPE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major >= 9;
}

}  // namespace landscape
