#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedGuptaCuda.h"
#include "gpu/BatchedGuptaKernels.cuh"
#include "gpu/BatchedHostStaging.h"
#include "gpu/BlockShape.h"
#include "gpu/CudaCheck.h"
#include "gpu/GpuDevice.h"

namespace landscape {

namespace {

void requireArrays(const void* x, const void* g, const void* energy, const char* where) {
  if (!x || !g || !energy)
    throw std::invalid_argument(std::string("batched Gupta potential on cuda, ") + where +
                                ": coordinates, gradients and energies must not be null");
}

}  // namespace

struct BatchedGuptaCuda::DeviceState {
  DeviceState(std::size_t n, const GuptaParams& p, int requestedThreads) : params(p) {
    if (n < 2)
      throw std::invalid_argument("batched Gupta potential on cuda: needs at least 2 atoms");
    if (n > static_cast<std::size_t>(INT_MAX / 4))
      throw std::invalid_argument("batched Gupta potential on cuda: too many atoms (" +
                                  std::to_string(n) + ")");
    params.check();
    requireThreadsPerStructure("batched Gupta potential on cuda", requestedThreads);
    if (!gpuAvailable())
      throw std::runtime_error("batched Gupta potential on cuda: no CUDA device (" +
                               gpuDescription() + ")");
    atoms = static_cast<int>(n);
    threads = requestedThreads != 0 ? requestedThreads : batchedGuptaThreads(atoms);
    prepareBatchedGuptaKernel(batchedGuptaSharedBytes(atoms), atoms);
    constants = guptaConstants(params);
  }

  GuptaParams params;
  GuptaConstants constants;
  int atoms = 0, threads = 128;
  // The host entry point's arrays: the kernel reads each coordinate once (into shared memory)
  // and writes each result once, so small calls run on them in place.
  BatchedHostStaging staging{/*kernelReadsOnce=*/true};
};

BatchedGuptaCuda::BatchedGuptaCuda(std::size_t atoms, const GuptaParams& params,
                                   int threadsPerStructure)
    : m_state(std::make_unique<DeviceState>(atoms, params, threadsPerStructure)) {}

BatchedGuptaCuda::~BatchedGuptaCuda() = default;

std::size_t BatchedGuptaCuda::dimension() const {
  return 3 * static_cast<std::size_t>(m_state->atoms);
}
const GuptaParams& BatchedGuptaCuda::params() const { return m_state->params; }
int BatchedGuptaCuda::threadsPerStructure() const { return m_state->threads; }

std::string BatchedGuptaCuda::name() const {
  return "batched Gupta " + std::to_string(m_state->atoms) + " atoms (" +
         m_state->params.describe() + ") (cuda, " + std::to_string(m_state->threads) +
         " threads per structure)";
}

void BatchedGuptaCuda::energyGradientDevice(std::size_t batch, const double* d_x, double* d_g,
                                            double* d_energy, const std::uint8_t* d_active,
                                            DeviceStream stream) {
  if (batch == 0) return;
  requireArrays(d_x, d_g, d_energy, "device entry point");
  BatchedGuptaArgs a;
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_energy = d_energy;
  a.d_active = d_active;
  a.constants = m_state->constants;
  a.atoms = m_state->atoms;
  a.threads = m_state->threads;
  a.batch = batch;
  launchBatchedGupta(a, static_cast<cudaStream_t>(stream));
}

BatchedPotential::HostArrays BatchedGuptaCuda::hostArrays(std::size_t batch) {
  return m_state->staging.arrays(batch, dimension());
}

void BatchedGuptaCuda::preferOnDevice() { m_state->staging.preferOnDevice(); }

void BatchedGuptaCuda::energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                                      const std::uint8_t* active) {
  if (batch == 0) return;
  requireArrays(x, g, energy, "host entry point");
  m_state->staging.run(*this, batch, x, g, energy, active);
}

}  // namespace landscape
