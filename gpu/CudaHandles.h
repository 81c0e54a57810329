#pragma once
// Owners of the CUDA runtime's resources other than device memory, as DeviceBuffer owns that:
// streams, events and page-locked (pinned) host memory. Each is move-only; creation is checked
// (LANDSCAPE_CUDA_CHECK: std::runtime_error naming the call); destruction never throws (a failure
// there means the context is already gone, as in DeviceBuffer). A default-constructed owner holds
// nothing, so that members may be created on first use:
//
//   CudaStream stream = CudaStream::create(cudaStreamNonBlocking);
//   CudaEvent done = CudaEvent::create(cudaEventDisableTiming);
//   PinnedBuffer<int> counts(2, cudaHostAllocMapped);
//
// Only CUDA-enabled code includes this header (it needs the CUDA runtime headers); g++ compiles it
// as well as nvcc.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceWideSync.h"

namespace landscape {
namespace detail {

/// One runtime handle (a pointer type): Traits::create makes one (checked), Traits::release
/// frees it and must not throw.
template <typename Traits>
class CudaHandle {
 public:
  using Handle = typename Traits::Handle;

  CudaHandle() = default;
  /// A new handle, Traits::create(args...).
  template <typename... Args>
  static CudaHandle create(Args... args) {
    return CudaHandle(Traits::create(args...));
  }

  ~CudaHandle() { reset(); }
  CudaHandle(const CudaHandle&) = delete;
  CudaHandle& operator=(const CudaHandle&) = delete;
  CudaHandle(CudaHandle&& other) noexcept : m_handle(std::exchange(other.m_handle, nullptr)) {}
  CudaHandle& operator=(CudaHandle&& other) noexcept {
    if (this != &other) {
      reset();
      m_handle = std::exchange(other.m_handle, nullptr);
    }
    return *this;
  }

  Handle get() const { return m_handle; }
  /// Passes where the runtime takes the handle (cudaEventRecord(event, stream), a launch's
  /// stream); nullptr when nothing is held.
  operator Handle() const { return m_handle; }

  /// Releases what is held (nothing afterwards).
  void reset() noexcept {
    if (m_handle != nullptr) Traits::release(m_handle);
    m_handle = nullptr;
  }

 protected:
  explicit CudaHandle(Handle handle) : m_handle(handle) {}

 private:
  Handle m_handle = nullptr;
};

/// Handles made by Create(&handle, flags) and freed by Destroy(handle): streams, events.
template <typename H, cudaError_t (*Create)(H*, unsigned int), cudaError_t (*Destroy)(H)>
struct FlagsTraits {
  using Handle = H;
  static H create(unsigned int flags) {
    H handle = nullptr;
    LANDSCAPE_CUDA_CHECK(Create(&handle, flags));
    return handle;
  }
  static void release(H handle) noexcept { (void)Destroy(handle); }
};

/// Streams: create(flags) or create(flags, priority) (lower numbers are greater priorities;
/// greatestStreamPriority()).
struct StreamTraits {
  using Handle = cudaStream_t;
  static cudaStream_t create(unsigned int flags, int priority = 0) {
    cudaStream_t handle = nullptr;
    LANDSCAPE_CUDA_CHECK(cudaStreamCreateWithPriority(&handle, flags, priority));
    return handle;
  }
  static void release(cudaStream_t handle) noexcept { (void)cudaStreamDestroy(handle); }
};
using EventTraits = FlagsTraits<cudaEvent_t, cudaEventCreateWithFlags, cudaEventDestroy>;

template <typename T>
struct PinnedTraits {
  using Handle = T*;
  static T* create(std::size_t count, unsigned int flags) {
    T* data = nullptr;
    if (count > 0)
      LANDSCAPE_CUDA_CHECK(
          cudaHostAlloc(reinterpret_cast<void**>(&data), count * sizeof(T), flags));
    return data;
  }
  static void release(T* data) noexcept { freePageLockedMemory(data); }
};

}  // namespace detail

/// A CUDA stream: CudaStream::create(cudaStreamDefault) (blocking: ordered with the legacy default
/// stream) or create(cudaStreamNonBlocking), optionally with a priority (create(flags,
/// greatestStreamPriority())). Destroying it returns at once; its queued work still runs.
using CudaStream = detail::CudaHandle<detail::StreamTraits>;

/// The current device's greatest stream priority (its block scheduler starts such streams' waiting
/// blocks first; CUDA Programming Guide, "Stream Priorities").
inline int greatestStreamPriority() {
  int least = 0, greatest = 0;
  LANDSCAPE_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  return greatest;
}

/// A CUDA event: CudaEvent::create(cudaEventDefault, cudaEventDisableTiming, ...).
using CudaEvent = detail::CudaHandle<detail::EventTraits>;

/// A page-locked host array of T (trivially copyable: the device reads and writes its bytes).
template <typename T>
class PinnedBuffer : public detail::CudaHandle<detail::PinnedTraits<T>> {
  static_assert(std::is_trivially_copyable<T>::value,
                "PinnedBuffer<T> is read and written by the device, so T must be trivially "
                "copyable");
  using Base = detail::CudaHandle<detail::PinnedTraits<T>>;

 public:
  PinnedBuffer() = default;
  /// `count` elements (uninitialised), cudaHostAlloc with `flags`: cudaHostAllocDefault (what
  /// cudaMallocHost allocates) or cudaHostAllocMapped (the device reaches it at
  /// devicePointer()). count == 0 allocates nothing.
  explicit PinnedBuffer(std::size_t count, unsigned int flags = cudaHostAllocDefault)
      : Base(detail::PinnedTraits<T>::create(count, flags)), m_count(count) {}
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : Base(std::move(other)), m_count(std::exchange(other.m_count, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      Base::operator=(std::move(other));
      m_count = std::exchange(other.m_count, 0);
    }
    return *this;
  }

  /// The host address (the memory is not the object's state: const callers may fill it).
  T* data() const { return this->get(); }
  /// Elements allocated.
  std::size_t size() const { return m_count; }
  /// Holds at least count elements afterwards: a smaller buffer is replaced by one of at least
  /// twice its size (uninitialised, the old contents lost), so that staging whose size varies
  /// from call to call is replaced a few times (each cudaFreeHost waits for the whole device).
  void reserveGrowing(std::size_t count, unsigned int flags = cudaHostAllocDefault) {
    if (m_count < count) *this = PinnedBuffer(std::max(count, 2 * m_count), flags);
  }

  /// The device's address of memory allocated with cudaHostAllocMapped.
  T* devicePointer() const {
    T* device = nullptr;
    LANDSCAPE_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device), data(), 0));
    return device;
  }

 private:
  std::size_t m_count = 0;
};

}  // namespace landscape
