#pragma once
// The only owner of device memory (docs/architecture.md, house rules): a move-only RAII array of T
// in CUDA global memory.
//
// Only CUDA-enabled code includes this header (it needs the CUDA runtime headers); g++ compiles it
// as well as nvcc, so host-only test code may hold device buffers. T must be trivially copyable,
// because contents move by byte copies (cudaMemcpy) and are never constructed or destroyed.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceWideSync.h"

namespace landscape {

template <typename T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable<T>::value,
                "DeviceBuffer<T> moves bytes with cudaMemcpy, so T must be trivially copyable");

 public:
  DeviceBuffer() = default;

  /// Allocates count elements (uninitialised). count == 0 allocates nothing.
  explicit DeviceBuffer(std::size_t count) : m_size(count) {
    if (count > 0) LANDSCAPE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&m_data), bytes()));
  }

  /// Allocates and fills from host memory.
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    copyFromHost(host);
  }

  ~DeviceBuffer() { release(); }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)) {}

  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      m_data = std::exchange(other.m_data, nullptr);
      m_size = std::exchange(other.m_size, 0);
    }
    return *this;
  }

  T* data() { return m_data; }
  const T* data() const { return m_data; }
  std::size_t size() const { return m_size; }
  std::size_t bytes() const { return m_size * sizeof(T); }
  bool empty() const { return m_size == 0; }

  /// Holds at least count elements afterwards: a smaller buffer is replaced by a new one
  /// (uninitialised, the old contents lost); a large enough one is kept as it is, so that
  /// workspaces reused across calls allocate (and free) only when they grow.
  void reserve(std::size_t count) {
    if (m_size < count) *this = DeviceBuffer(count);
  }
  /// reserve() for a workspace whose size varies from call to call: a smaller buffer is replaced
  /// by one of at least twice its size, so that it is replaced a few times, not at every new
  /// largest size (each replacement's cudaFree waits for everything on the device).
  void reserveGrowing(std::size_t count) {
    if (m_size < count) *this = DeviceBuffer(std::max(count, 2 * m_size));
  }

  /// Copies count elements from host memory into the start of the buffer (synchronous).
  void copyFromHost(const T* host, std::size_t count) {
    checkCount(count, "copyFromHost");
    if (count > 0)
      LANDSCAPE_CUDA_CHECK(cudaMemcpy(m_data, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void copyFromHost(const std::vector<T>& host) { copyFromHost(host.data(), host.size()); }

  /// Copies the first count elements of the buffer into host memory (synchronous).
  void copyToHost(T* host, std::size_t count) const {
    checkCount(count, "copyToHost");
    if (count > 0)
      LANDSCAPE_CUDA_CHECK(cudaMemcpy(host, m_data, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  std::vector<T> toHost() const {
    std::vector<T> host(m_size);
    copyToHost(host.data(), m_size);
    return host;
  }

  /// Sets every byte to zero (all-bits-zero is 0 for the arithmetic types kept here).
  void zero(cudaStream_t stream = nullptr) {
    if (m_size > 0) LANDSCAPE_CUDA_CHECK(cudaMemsetAsync(m_data, 0, bytes(), stream));
  }

 private:
  void checkCount(std::size_t count, const char* what) const {
    if (count > m_size)
      throw std::out_of_range("DeviceBuffer::" + std::string(what) + ": " + std::to_string(count) +
                              " elements requested but the buffer holds " + std::to_string(m_size));
  }

  void release() noexcept {
    // Never while another thread captures a stream (gpu/DeviceWideSync.h); never throws.
    freeDeviceMemory(m_data);
    m_data = nullptr;
    m_size = 0;
  }

  T* m_data = nullptr;
  std::size_t m_size = 0;
};

}  // namespace landscape
