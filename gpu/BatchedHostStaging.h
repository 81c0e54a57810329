#pragma once
// The host entry point of a device-resident batched potential (docs/batched.md): the active
// structures' rows go through page-locked staging arrays, in pieces of about a MiB so that the
// host's copy of one piece overlaps the bus's copy of the one before (a pageable cudaMemcpy
// does the same through the driver's own buffer, with a synchronisation per copy), on a stream
// of the staging's own; one wait per call. A caller that assembles its batch in the staging arrays
// themselves (arrays(), as the shared calls of network growth do) saves the host's copies. Include
// only from CUDA translation units.
#include <algorithm>
#include <cstddef>
#include <cstdint>
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
  /// The page-locked arrays of a batch of `batch` structures of n coordinates
  /// (BatchedPotential::hostArrays): run() reads x and writes g and energy there in place.
  BatchedPotential::HostArrays arrays(std::size_t batch, std::size_t n) {
    reserve(batch, n);
    return {m_hostX.data(), m_hostG.data(), m_hostEnergy.data()};
  }

  /// The host entry point of `potential` (a device-resident batched potential of n = its
  /// dimension coordinates per structure): copies the active rows of x ([batch x n]) to the
  /// device, calls its device entry point on the staging's stream and copies the active rows of g
  /// and energy back; writes nothing else. Synchronous: the waits at the end report the kernels'
  /// faults.
  void run(BatchedPotential& potential, std::size_t batch, const double* x, double* g,
           double* energy, const std::uint8_t* active) {
    const std::size_t n = potential.dimension();
    if ((x == m_hostX.data() || g == m_hostG.data() || energy == m_hostEnergy.data()) &&
        m_energy.size() < batch)
      throw std::logic_error("batched host staging: a call of " + std::to_string(batch) +
                             " structures on the arrays of a smaller batch (" +
                             std::to_string(m_energy.size()) + ")");
    reserve(batch, n);
    const cudaStream_t stream = m_stream.get();
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
    potential.energyGradientDevice(batch, m_x.data(), m_g.data(), m_energy.data(),
                                   active ? m_active.data() : nullptr, stream);
    // Results in place with holes in the mask come back run by run (inactive rows of the
    // caller's arrays are never written); otherwise the piece's span at once.
    const bool runByRun = active && (g == m_hostG.data() || energy == m_hostEnergy.data());
    for (std::size_t p = 0; p < pieces; ++p) {
      const std::size_t begin = first + p * rows, end = std::min(last, begin + rows);
      const auto copyBack = [&](std::size_t row, std::size_t count) {
        LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(m_hostG.data() + row * n, m_g.data() + row * n,
                                             count * n * sizeof(double), cudaMemcpyDeviceToHost,
                                             stream));
        LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(m_hostEnergy.data() + row, m_energy.data() + row,
                                             count * sizeof(double), cudaMemcpyDeviceToHost,
                                             stream));
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
        if (g != m_hostG.data())
          std::copy(m_hostG.data() + row * n, m_hostG.data() + (row + count) * n, g + row * n);
        if (energy != m_hostEnergy.data())
          std::copy(m_hostEnergy.data() + row, m_hostEnergy.data() + row + count, energy + row);
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
    if (m_energy.size() >= batch) return;
    m_x = DeviceBuffer<double>(batch * n);
    m_g = DeviceBuffer<double>(batch * n);
    m_energy = DeviceBuffer<double>(batch);
    m_active = DeviceBuffer<std::uint8_t>(batch);
    // Rows of inactive structures inside the span travel back unread: keep them defined.
    m_g.zero();
    m_energy.zero();
    m_hostX = PinnedBuffer<double>(batch * n);
    m_hostG = PinnedBuffer<double>(batch * n);
    m_hostEnergy = PinnedBuffer<double>(batch);
    m_hostActive = PinnedBuffer<std::uint8_t>(batch);
    if (!m_stream) m_stream = newStream();
  }

  // Blocking (ordered with the legacy default stream, as a cudaMemcpy would be) but not with
  // other potentials' staging streams: two potentials' host entry points called from two threads
  // overlap on the device.
  CudaStream newStream() const {
    return CudaStream::create(cudaStreamDefault, m_urgent ? greatestStreamPriority() : 0);
  }

  DeviceBuffer<double> m_x, m_g, m_energy;
  DeviceBuffer<std::uint8_t> m_active;
  PinnedBuffer<double> m_hostX, m_hostG, m_hostEnergy;
  PinnedBuffer<std::uint8_t> m_hostActive;
  CudaStream m_stream;
  bool m_urgent = false;               // preferOnDevice()
  std::vector<CudaEvent> m_pieceDone;  // one per piece: its g and energies are on the host
};

}  // namespace landscape
