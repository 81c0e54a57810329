#pragma once
// The host entry point of a device-resident batched potential (docs/batched.md): the active
// structures' rows go through page-locked staging arrays, in pieces of about a MiB so that the
// host's copy of one piece overlaps the bus's copy of the one before (a pageable cudaMemcpy
// does the same through the driver's own buffer, with a synchronisation per copy), on a stream
// of the staging's own; one wait per call. A caller that assembles its batch in the staging arrays
// themselves (arrays(), as the shared calls of network growth do) saves the host's copies, and a
// call of one piece without a mask comes back in one copy (the energies follow the gradient rows):
// four driver calls in all, where a small call's cost is its driver calls. A potential whose
// kernel reads each coordinate once and writes each result once may instead read and write the
// page-locked arrays across the bus (mapped memory, reached through Unified Virtual Addressing):
// a small call is then a launch and a wait, two driver calls. Include only from CUDA translation
// units.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "potentials/BatchedPotential.h"

namespace landscape {

/// Calls copy(first, count) for each run of consecutive active structures of [begin, end)
/// (active == nullptr: one run of all).
template <typename Copy>
void forEachActiveRun(std::size_t begin, std::size_t end, const std::uint8_t* active, Copy copy) {
  std::size_t b = begin;
  while (b < end) {
    if (active && !active[b]) {
      ++b;
      continue;
    }
    const std::size_t first = b;
    while (b < end && (!active || active[b])) ++b;
    copy(first, b - first);
  }
}

class BatchedHostStaging {
 public:
  /// kernelReadsOnce: the potential's kernel reads each coordinate of an active row once and
  /// writes each gradient entry and energy once, so calls of one piece may run on the page-locked
  /// arrays in place (mapped); otherwise every call copies across the bus and back.
  explicit BatchedHostStaging(bool kernelReadsOnce = false) : m_mapped(kernelReadsOnce) {}

  /// The page-locked arrays of a batch of `batch` structures of n coordinates
  /// (BatchedPotential::hostArrays): run() reads x and writes g and energy there in place. The
  /// energies follow the batch's gradient rows in one array, so that a call of `batch` structures
  /// on them comes back in one copy.
  BatchedPotential::HostArrays arrays(std::size_t batch, std::size_t n) {
    reserve(batch, n);
    return {m_hostX.data(), m_hostGradientEnergy.data(), m_hostGradientEnergy.data() + batch * n};
  }

  /// The host entry point of `potential` (a device-resident batched potential of n = its
  /// dimension coordinates per structure): copies the active rows of x ([batch x n]) to the
  /// device, calls its device entry point on the staging's stream and copies the active rows of g
  /// and energy back; writes nothing else. Synchronous: the waits at the end report the kernels'
  /// faults.
  void run(BatchedPotential& potential, std::size_t batch, const double* x, double* g,
           double* energy, const std::uint8_t* active) {
    const std::size_t n = potential.dimension();
    double* const hostGE = m_hostGradientEnergy.data();
    const bool onStaging =
        x == m_hostX.data() || g == hostGE ||
        (hostGE != nullptr && !std::less<const double*>()(energy, hostGE) &&
         std::less<const double*>()(energy, hostGE + m_capacity * (n + 1)));  // total order
    if (onStaging && m_capacity < batch)
      throw std::logic_error("batched host staging: a call of " + std::to_string(batch) +
                             " structures on the arrays of a smaller batch (" +
                             std::to_string(m_capacity) + ")");
    reserve(batch, n);
    const cudaStream_t stream = m_stream.get();
    // The gradient rows at the front of the combined array; the energies right after this
    // batch's rows when the caller assembled them there (arrays(batch)), else after all rows.
    double* const stagedG = m_hostGradientEnergy.data();
    const std::size_t energyOffset = energy == stagedG + batch * n ? batch * n : m_capacity * n;
    double* const stagedE = stagedG + energyOffset;
    double* const deviceG = m_gradientEnergy.data();
    double* const deviceE = deviceG + energyOffset;
    if (m_mapped && batch * (n + 1) * sizeof(double) <= kPieceBytes) {
      // The kernel reads x and writes g and the energies on the host, across the bus.
      const bool gInPlace = g == stagedG, energyInPlace = energy == stagedE;
      if (x != m_hostX.data())
        forEachActiveRun(0, batch, active, [&](std::size_t row, std::size_t count) {
          std::copy(x + row * n, x + (row + count) * n, m_hostX.data() + row * n);
        });
      if (active) std::copy(active, active + batch, m_hostActive.data());
      potential.energyGradientDevice(batch, m_mappedX, m_mappedGradientEnergy,
                                     m_mappedGradientEnergy + energyOffset,
                                     active ? m_mappedActive : nullptr, stream);
      LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
      forEachActiveRun(0, batch, active, [&](std::size_t row, std::size_t count) {
        if (!gInPlace) std::copy(stagedG + row * n, stagedG + (row + count) * n, g + row * n);
        if (!energyInPlace) std::copy(stagedE + row, stagedE + row + count, energy + row);
      });
      return;
    }
    // The span [first, last) of rows that cross the bus (inactive rows inside it travel unread),
    // in pieces of `rows` rows.
    std::size_t first = 0, last = batch;
    if (active) {
      while (first < batch && !active[first]) ++first;
      while (last > first && !active[last - 1]) --last;
    }
    const std::size_t rows = std::max<std::size_t>(1, kPieceBytes / (n * sizeof(double)));
    const std::size_t pieces = (last - first + rows - 1) / rows;
    while (m_pieceDone.size() < pieces)
      m_pieceDone.push_back(CudaEvent::create(cudaEventDisableTiming));

    for (std::size_t p = 0; p < pieces; ++p) {
      const std::size_t begin = first + p * rows, end = std::min(last, begin + rows);
      if (x != m_hostX.data())
        forEachActiveRun(begin, end, active, [&](std::size_t row, std::size_t count) {
          std::copy(x + row * n, x + (row + count) * n, m_hostX.data() + row * n);
        });
      LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(m_x.data() + begin * n, m_hostX.data() + begin * n,
                                           (end - begin) * n * sizeof(double),
                                           cudaMemcpyHostToDevice, stream));
    }
    if (active) {
      std::copy(active, active + batch, m_hostActive.data());
      LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(m_active.data(), m_hostActive.data(), batch,
                                           cudaMemcpyHostToDevice, stream));
    }
    const bool gInPlace = g == stagedG, energyInPlace = energy == stagedE;
    potential.energyGradientDevice(batch, m_x.data(), deviceG, deviceE,
                                   active ? m_active.data() : nullptr, stream);
    // One piece of every row, the energies right after the rows: one copy back and one wait (a
    // network growth's shared calls: a call's fixed cost is its driver calls).
    if (pieces == 1 && !active && energyOffset == batch * n) {
      LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(stagedG, deviceG, batch * (n + 1) * sizeof(double),
                                           cudaMemcpyDeviceToHost, stream));
      LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
      if (!gInPlace) std::copy(stagedG, stagedG + batch * n, g);
      if (!energyInPlace) std::copy(stagedE, stagedE + batch, energy);
      return;
    }
    // Results in place with holes in the mask come back run by run (inactive rows of the
    // caller's arrays are never written); otherwise the piece's span at once.
    const bool runByRun = active && (gInPlace || energyInPlace);
    for (std::size_t p = 0; p < pieces; ++p) {
      const std::size_t begin = first + p * rows, end = std::min(last, begin + rows);
      const auto copyBack = [&](std::size_t row, std::size_t count) {
        LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(stagedG + row * n, deviceG + row * n,
                                             count * n * sizeof(double), cudaMemcpyDeviceToHost,
                                             stream));
        LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(stagedE + row, deviceE + row, count * sizeof(double),
                                             cudaMemcpyDeviceToHost, stream));
      };
      if (runByRun)
        forEachActiveRun(begin, end, active, copyBack);
      else
        copyBack(begin, end - begin);
      LANDSCAPE_CUDA_CHECK(cudaEventRecord(m_pieceDone[p].get(), stream));
    }
    for (std::size_t p = 0; p < pieces; ++p) {
      const std::size_t begin = first + p * rows, end = std::min(last, begin + rows);
      LANDSCAPE_CUDA_CHECK(cudaEventSynchronize(m_pieceDone[p].get()));
      forEachActiveRun(begin, end, active, [&](std::size_t row, std::size_t count) {
        if (!gInPlace) std::copy(stagedG + row * n, stagedG + (row + count) * n, g + row * n);
        if (!energyInPlace) std::copy(stagedE + row, stagedE + row + count, energy + row);
      });
    }
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));  // no span: the kernels' faults
  }

  /// BatchedPotential::preferOnDevice: the stream at the device's greatest priority from now on.
  void preferOnDevice() {
    m_urgent = true;
    if (m_stream) {
      LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(m_stream.get()));
      m_stream = newStream();
    }
  }

 private:
  static constexpr std::size_t kPieceBytes = std::size_t(1) << 20;

  void reserve(std::size_t batch, std::size_t n) {
    if (m_capacity >= batch) return;
    // At least double: replacing the arrays frees device and page-locked memory (cudaFree,
    // cudaFreeHost), which waits for everything on the device and holds up every other thread's
    // launches meanwhile. Network growth's shared calls come in every size up to their largest,
    // and growing to each new largest batch had cost hundreds of such waits per run
    // (docs/benchmarks.md, "Shared calls held up by reallocations").
    batch = std::max(batch, 2 * m_capacity);
    m_x = DeviceBuffer<double>(batch * n);
    // Gradient rows, then room for the energies of any batch up to the capacity (after its own
    // rows, or after all rows).
    m_gradientEnergy = DeviceBuffer<double>(batch * (n + 1));
    m_active = DeviceBuffer<std::uint8_t>(batch);
    // Rows of inactive structures inside the span travel back unread: keep them defined.
    m_gradientEnergy.zero();
    const unsigned int flags = m_mapped ? cudaHostAllocMapped : cudaHostAllocDefault;
    m_hostX = PinnedBuffer<double>(batch * n, flags);
    m_hostGradientEnergy = PinnedBuffer<double>(batch * (n + 1), flags);
    m_hostActive = PinnedBuffer<std::uint8_t>(batch, flags);
    if (m_mapped) {
      m_mappedX = m_hostX.devicePointer();
      m_mappedGradientEnergy = m_hostGradientEnergy.devicePointer();
      m_mappedActive = m_hostActive.devicePointer();
    }
    m_capacity = batch;
    if (!m_stream) m_stream = newStream();
  }

  // Blocking (ordered with the legacy default stream, as a cudaMemcpy would be) but not with
  // other potentials' staging streams: two potentials' host entry points called from two threads
  // overlap on the device.
  CudaStream newStream() const {
    return CudaStream::create(cudaStreamDefault, m_urgent ? greatestStreamPriority() : 0);
  }

  std::size_t m_capacity = 0;  // structures the buffers hold
  DeviceBuffer<double> m_x, m_gradientEnergy;
  DeviceBuffer<std::uint8_t> m_active;
  PinnedBuffer<double> m_hostX, m_hostGradientEnergy;
  PinnedBuffer<std::uint8_t> m_hostActive;
  CudaStream m_stream;
  bool m_urgent = false;               // preferOnDevice()
  bool m_mapped = false;               // calls of one piece run on the page-locked arrays
  // The device's addresses of the page-locked arrays (m_mapped).
  double *m_mappedX = nullptr, *m_mappedGradientEnergy = nullptr;
  std::uint8_t* m_mappedActive = nullptr;
  std::vector<CudaEvent> m_pieceDone;  // one per piece: its g and energies are on the host
};

}  // namespace landscape
