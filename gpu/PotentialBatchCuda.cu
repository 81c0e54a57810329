#include <cuda_runtime.h>

#include <stdexcept>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceWideSync.h"
#include "gpu/GpuDevice.h"
#include "gpu/PotentialBatchCuda.h"

namespace landscape {

namespace {

// The energy travels as a kernel argument: an asynchronous write with no host buffer to keep.
__global__ void storeEnergy(double* d_energy, double energy) { *d_energy = energy; }

}  // namespace

struct PotentialBatchCuda::Staging {
  std::vector<double> x, g;  // host rows of a host-only potential
};

PotentialBatchCuda::PotentialBatchCuda(Potential& potential)
    : m_potential(potential), m_staging(std::make_unique<Staging>()) {
  if (!gpuAvailable())
    throw std::runtime_error("a potential batch on cuda: no CUDA device (" + gpuDescription() +
                             ")");
}

PotentialBatchCuda::~PotentialBatchCuda() = default;

void PotentialBatchCuda::energyGradient(std::size_t batch, const double* x, double* g,
                                        double* energy, const std::uint8_t* active) {
  const std::size_t n = dimension();
  for (std::size_t b = 0; b < batch; ++b) {
    if (active && !active[b]) continue;
    energy[b] = m_potential.energyGradient(x + b * n, g + b * n);
  }
}

void PotentialBatchCuda::energyGradientDevice(std::size_t batch, const double* d_x, double* d_g,
                                              double* d_energy, const std::uint8_t* d_active,
                                              DeviceStream stream) {
  if (batch == 0) return;
  if (!d_x || !d_g || !d_energy)
    throw std::invalid_argument(name() + " as a batch: null device array");
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  const std::size_t n = dimension();
  // The potential runs on the legacy stream: the coordinates enqueued on another stream must be
  // there first (on the legacy stream itself the order is implicit).
  if (s != nullptr) LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(s));
  m_active.assign(batch, 1);
  if (d_active)
    LANDSCAPE_CUDA_CHECK(
        cudaMemcpy(m_active.data(), d_active, batch, cudaMemcpyDeviceToHost));
  m_energies.assign(batch, 0.0);
  Staging& st = *m_staging;
  for (std::size_t b = 0; b < batch; ++b) {
    if (!m_active[b]) continue;
    if (m_potential.isDeviceResident()) {
      m_energies[b] = m_potential.energyGradientDevice(d_x + b * n, d_g + b * n);
    } else {
      st.x.resize(n);
      st.g.resize(n);
      LANDSCAPE_CUDA_CHECK(
          cudaMemcpy(st.x.data(), d_x + b * n, n * sizeof(double), cudaMemcpyDeviceToHost));
      m_energies[b] = m_potential.energyGradient(st.x.data(), st.g.data());
      LANDSCAPE_CUDA_CHECK(
          cudaMemcpy(d_g + b * n, st.g.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    }
  }
  // The gradients were written on the legacy stream; make `stream` wait for them.
  if (s != nullptr) synchronizeDevice();
  for (std::size_t b = 0; b < batch; ++b)
    if (m_active[b]) {
      storeEnergy<<<1, 1, 0, s>>>(d_energy + b, m_energies[b]);
      LANDSCAPE_CUDA_CHECK_LAUNCH();
    }
}

}  // namespace landscape
