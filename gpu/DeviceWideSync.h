#pragma once
// Device-wide waits and stream captures, kept apart across the process's threads.
//
// Synchronising a device while any of its streams is being captured is invalid, whichever thread
// captures (CUDA Programming Guide, "CUDA Graphs", "Prohibited and Unhandled Operations"): the
// capture is invalidated, and on an H200 (CUDA 13 driver, 2026) the race crashed inside
// cuCtxSynchronize. That was pathsample's growth with 8 lanes of shared calls on trp-cage: one
// lane's batched AMBER-GB waited for the device as its scratch grew while another lane captured
// the launch graph of a new batch size (docs/benchmarks.md). So every capture holds a
// StreamCaptureScope, and every device-wide wait (synchronizeDevice) and free of device or
// page-locked memory, which waits for the device too, waits for the captures under way to end
// and keeps new ones from starting meanwhile. On a thread inside its own capture scope they run
// unguarded: CUDA reports the capture's error there as before, instead of a deadlock.
//
// Only CUDA-enabled code includes this header; its functions exist in CUDA builds only.

namespace landscape {

/// Held from cudaStreamBeginCapture to cudaStreamEndCapture. Captures on different threads may
/// overlap one another; they never overlap a device-wide wait.
class StreamCaptureScope {
 public:
  StreamCaptureScope();
  ~StreamCaptureScope();
  StreamCaptureScope(const StreamCaptureScope&) = delete;
  StreamCaptureScope& operator=(const StreamCaptureScope&) = delete;
};

/// Held across a change to the device that waits for it (a workspace freed, grown, zeroed and
/// waited for): no capture runs meanwhile. Nests on one thread.
class DeviceWideScope {
 public:
  DeviceWideScope();
  ~DeviceWideScope();
  DeviceWideScope(const DeviceWideScope&) = delete;
  DeviceWideScope& operator=(const DeviceWideScope&) = delete;

 private:
  bool m_locked = false;
};

/// cudaDeviceSynchronize within a DeviceWideScope (checked: std::runtime_error on an error).
void synchronizeDevice();

/// cudaFree and cudaFreeHost within a DeviceWideScope; errors ignored (destructors call them, and
/// a failing free means the context is already gone).
void freeDeviceMemory(void* data) noexcept;
void freePageLockedMemory(void* data) noexcept;

}  // namespace landscape
