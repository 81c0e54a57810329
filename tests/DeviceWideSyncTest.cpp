// gpu/DeviceWideSync: a device-wide wait on one thread waits for the stream captures of the other
// threads to end (a cudaDeviceSynchronize during another thread's capture invalidates it, CUDA
// Programming Guide, "Prohibited and Unhandled Operations"; on an H200 the race crashed the
// driver), the scopes nest on one thread without a deadlock, and on the device a capture held
// while another thread synchronises ends intact. The locking runs everywhere CUDA is compiled; the
// device case skips without a GPU.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "gpu/GpuDevice.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/DeviceWideSync.h"

namespace landscape {
namespace {

// Long enough for the other thread to reach its scope on an idle machine; on a loaded one the
// test can only pass for the wrong reason, never fail for it.
constexpr auto kHold = std::chrono::milliseconds(100);

TEST(DeviceWideSync, DeviceWideScopeWaitsForAnotherThreadsCapture) {
  std::atomic<bool> entered{false};
  std::thread other;
  {
    const StreamCaptureScope capturing;
    other = std::thread([&] {
      const DeviceWideScope waiting;
      entered = true;
    });
    std::this_thread::sleep_for(kHold);
    EXPECT_FALSE(entered.load()) << "a device-wide scope began during another thread's capture";
  }
  other.join();
  EXPECT_TRUE(entered.load());
}

TEST(DeviceWideSync, CaptureWaitsForAnotherThreadsDeviceWideScope) {
  std::atomic<bool> entered{false};
  std::thread other;
  {
    const DeviceWideScope waiting;
    other = std::thread([&] {
      const StreamCaptureScope capturing;
      entered = true;
    });
    std::this_thread::sleep_for(kHold);
    EXPECT_FALSE(entered.load()) << "a capture began during another thread's device-wide scope";
  }
  other.join();
  EXPECT_TRUE(entered.load());
}

TEST(DeviceWideSync, CapturesOfSeveralThreadsOverlap) {
  std::atomic<bool> entered{false};
  const StreamCaptureScope capturing;
  std::thread other([&] {
    const StreamCaptureScope alsoCapturing;
    entered = true;
  });
  other.join();  // would never return if captures excluded one another
  EXPECT_TRUE(entered.load());
}

TEST(DeviceWideSync, ScopesNestOnOneThread) {
  {
    const DeviceWideScope outer;
    const DeviceWideScope inner;       // a reserve() inside a device-wide change
    const StreamCaptureScope capture;  // a capture inside one
  }
  {
    const StreamCaptureScope capture;
    const StreamCaptureScope again;
    const DeviceWideScope inside;  // unguarded inside the thread's own capture
  }
  // Both locks free again: another thread takes each kind at once.
  std::thread([] { const DeviceWideScope scope; }).join();
  std::thread([] { const StreamCaptureScope scope; }).join();
  SUCCEED();
}

TEST(DeviceWideSync, CaptureSurvivesAnotherThreadsSynchronize) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  DeviceBuffer<double> data(1024);
  CudaStream stream = CudaStream::create(cudaStreamNonBlocking);
  std::thread other;
  cudaGraph_t graph = nullptr;
  cudaError_t ended = cudaSuccess;
  {
    const StreamCaptureScope capturing;
    LANDSCAPE_CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
    LANDSCAPE_CUDA_CHECK(cudaMemsetAsync(data.data(), 0, data.bytes(), stream.get()));
    other = std::thread([] { synchronizeDevice(); });
    std::this_thread::sleep_for(kHold);
    ended = cudaStreamEndCapture(stream.get(), &graph);
  }
  other.join();
  EXPECT_EQ(ended, cudaSuccess) << cudaGetErrorString(ended);
  ASSERT_NE(graph, nullptr);
  cudaGraphExec_t exec = nullptr;
  LANDSCAPE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  LANDSCAPE_CUDA_CHECK(cudaGraphLaunch(exec, stream.get()));
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
}

}  // namespace
}  // namespace landscape
#endif
