#include "gpu/DeviceWideSync.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include <shared_mutex>

#include "gpu/CudaCheck.h"

namespace landscape {
namespace {

// Shared: captures; exclusive: device-wide waits. Never destroyed, so that the frees of buffers
// destroyed at exit, after this function's statics would be, still find it.
std::shared_mutex& captureLock() {
  static auto* lock = new std::shared_mutex;
  return *lock;
}
thread_local int t_capturesHeld = 0;    // StreamCaptureScopes of this thread
thread_local int t_deviceWideHeld = 0;  // DeviceWideScopes of this thread that hold the lock

}  // namespace

StreamCaptureScope::StreamCaptureScope() {
  // Inside this thread's own device-wide scope the lock is ours already.
  if (t_capturesHeld == 0 && t_deviceWideHeld == 0) captureLock().lock_shared();
  ++t_capturesHeld;
}

StreamCaptureScope::~StreamCaptureScope() {
  if (--t_capturesHeld == 0 && t_deviceWideHeld == 0) captureLock().unlock_shared();
}

DeviceWideScope::DeviceWideScope() {
  if (t_capturesHeld > 0) return;  // inside our own capture: CUDA reports the misuse
  if (t_deviceWideHeld == 0) captureLock().lock();
  ++t_deviceWideHeld;
  m_locked = true;
}

DeviceWideScope::~DeviceWideScope() {
  if (m_locked && --t_deviceWideHeld == 0) captureLock().unlock();
}

void synchronizeDevice() {
  DeviceWideScope scope;
  LANDSCAPE_CUDA_CHECK(cudaDeviceSynchronize());
}

void freeDeviceMemory(void* data) noexcept {
  if (data == nullptr) return;
  DeviceWideScope scope;
  (void)cudaFree(data);
}

void freePageLockedMemory(void* data) noexcept {
  if (data == nullptr) return;
  DeviceWideScope scope;
  (void)cudaFreeHost(data);
}

}  // namespace landscape
#endif
