#pragma once
// The process's stop request (landscape/core/StopRequest.h: SIGINT/SIGTERM) passed on to kernels
// that run whole minimisations and poll between iterations (whole DNEB bands, whole hybrid EF
// searches): a page-locked int mapped into the device's address space, set before the launch and
// again by the host thread that waits for the kernel, so that a stop requested while the kernel
// runs ends it within an iteration instead of after its last. The waiting thread polls the stream
// and sleeps between polls: a kernel of this kind lasts milliseconds or more, so the sleep costs
// it little, and the driver's lock, which every thread of shared calls takes to launch, stays
// free meanwhile. Only CUDA-enabled code includes this header.
#include <cuda_runtime.h>

#include <chrono>
#include <thread>

#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "landscape/core/StopRequest.h"

namespace landscape {

class MappedStopFlag {
 public:
  /// Holds no flag: assign a constructed one before use (a driver makes it once it has checked
  /// that there is a device, so that a machine without one gets the driver's own message).
  MappedStopFlag() = default;
  /// `poll`: the waiting thread's sleep between two looks at the stream.
  explicit MappedStopFlag(std::chrono::microseconds poll)
      : m_flag(1, cudaHostAllocMapped), m_poll(poll) {
    *m_flag.data() = 0;
  }

  /// The device's address of the flag (non-zero: stop), for the kernel's arguments.
  const volatile int* device() const { return m_flag.devicePointer(); }

  /// Sets the flag to the stop request as it stands; call before each launch.
  void arm() { *static_cast<volatile int*>(m_flag.data()) = stopRequested() ? 1 : 0; }

  /// Waits for everything enqueued on `stream` (checked), setting the flag as soon as a stop is
  /// requested. Copies to the host enqueued after the kernel must go to page-locked memory: a
  /// copy into pageable memory returns only once the kernel has ended, and the wait would not
  /// poll meanwhile.
  void waitPassingStops(cudaStream_t stream) {
    for (;;) {
      const cudaError_t state = cudaStreamQuery(stream);
      if (state == cudaSuccess) return;
      if (state != cudaErrorNotReady) LANDSCAPE_CUDA_CHECK(state);
      if (stopRequested()) *static_cast<volatile int*>(m_flag.data()) = 1;
      std::this_thread::sleep_for(m_poll);
    }
  }

 private:
  PinnedBuffer<int> m_flag;
  std::chrono::microseconds m_poll{0};
};

}  // namespace landscape
