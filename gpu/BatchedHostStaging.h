#pragma once
// The host entry point of a device-resident batched potential (docs/batched.md): only the active
// structures' rows cross the bus, in runs of consecutive active structures, through staging
// arrays that grow with the largest batch. Include only from CUDA translation units (DeviceBuffer).
#include <cstddef>
#include <cstdint>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"

namespace landscape {

/// Calls copy(first, count) for each run of consecutive active structures of [0, batch)
/// (active == nullptr: one run of all).
template <typename Copy>
void forEachActiveRun(std::size_t batch, const std::uint8_t* active, Copy copy) {
  std::size_t b = 0;
  while (b < batch) {
    if (active && !active[b]) {
      ++b;
      continue;
    }
    const std::size_t first = b;
    while (b < batch && (!active || active[b])) ++b;
    copy(first, b - first);
  }
}

struct BatchedHostStaging {
  /// Copies the active rows of x ([batch x n]) to the device, calls
  /// device(d_x, d_g, d_energy, d_active) (which enqueues on the legacy default stream; d_active
  /// is nullptr when `active` is) and copies the active rows of g and energy back. Synchronous:
  /// cudaMemcpy on the legacy stream waits for the kernels and reports their faults.
  template <typename Device>
  void run(std::size_t batch, std::size_t n, const double* x, double* g, double* energy,
           const std::uint8_t* active, Device device) {
    if (d_energy.size() < batch) {
      d_x = DeviceBuffer<double>(batch * n);
      d_g = DeviceBuffer<double>(batch * n);
      d_energy = DeviceBuffer<double>(batch);
      d_active = DeviceBuffer<std::uint8_t>(batch);
    }
    forEachActiveRun(batch, active, [&](std::size_t first, std::size_t count) {
      LANDSCAPE_CUDA_CHECK(cudaMemcpy(d_x.data() + first * n, x + first * n,
                                      count * n * sizeof(double), cudaMemcpyHostToDevice));
    });
    if (active) d_active.copyFromHost(active, batch);
    device(d_x.data(), d_g.data(), d_energy.data(), active ? d_active.data() : nullptr);
    forEachActiveRun(batch, active, [&](std::size_t first, std::size_t count) {
      LANDSCAPE_CUDA_CHECK(cudaMemcpy(g + first * n, d_g.data() + first * n,
                                      count * n * sizeof(double), cudaMemcpyDeviceToHost));
      LANDSCAPE_CUDA_CHECK(cudaMemcpy(energy + first, d_energy.data() + first,
                                      count * sizeof(double), cudaMemcpyDeviceToHost));
    });
  }

  DeviceBuffer<double> d_x, d_g, d_energy;
  DeviceBuffer<std::uint8_t> d_active;
};

}  // namespace landscape
