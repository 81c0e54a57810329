#pragma once
// Programmatic dependent launch (compute capability 9.0; CUDA programming guide, "Programmatic
// Dependent Launch and Synchronization"): a kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may start while the kernel before it in the
// stream still runs; its blocks load what the earlier kernel does not write, then wait in
// griddepcontrol.wait until that kernel has completed and its writes are visible. Used by the SOP
// step and cell kernels (gpu/SopKernels.cu); gpu/AmberGbKernels.cu has its own copy of the same
// two instructions. Included only from .cu files.
#include <cuda_runtime.h>

#include <utility>

#include "gpu/CudaCheck.h"

namespace landscape {

/// Waits until the previous kernel in the stream has completed and its writes are visible (a
/// no-op when this kernel was launched without the attribute), then lets the next kernel's blocks
/// start. Releasing only after the wait makes the chain transitive: when kernel k + 1 starts,
/// kernel k has passed its wait, so kernel k - 1 has completed; kernel k + 1 may therefore read,
/// before its own wait, anything that only kernels up to k - 1 wrote.
__device__ __forceinline__ void programmaticAwaitAndRelease() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// Launches kernel<<<grid, block, 0, stream>>>(args...), with the programmatic-serialization
/// attribute when `programmatic` (the device must have compute capability >= 9.0).
template <class... Params, class... Args>
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

/// Whether the current device supports programmatic dependent launches (compute capability 9.0+).
inline bool programmaticLaunchSupported() {
  int device = 0, major = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  LANDSCAPE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major >= 9;
}

}  // namespace landscape
