#include <sstream>
#include <stdexcept>
#include <string>

#include "gpu/BatchedGayBerneCuda.h"
#include "gpu/BatchedGayBerneKernels.cuh"
#include "gpu/BatchedHostStaging.h"
#include "gpu/BlockShape.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Require.h"

namespace landscape {

namespace {

void requireArrays(const void* x, const void* g, const void* energy, const char* where) {
  if (!x || !g || !energy)
    throw std::invalid_argument(std::string("batched Gay-Berne potential on cuda, ") + where +
                                ": coordinates, gradients and energies must not be null");
}

}  // namespace

struct BatchedGayBerneCuda::DeviceState {
  DeviceState(const GayBerneParams& p, std::size_t n, int requestedThreads)
      : params(p), ellipsoids(n) {
    params.check();
    shape = params.shape();
    require(n >= 2 && n <= 1000000,
            "batched Gay-Berne potential on cuda: 2 to 1000000 "
            "ellipsoids, not " +
                std::to_string(n) + ".");
    requireThreadsPerStructure("batched Gay-Berne potential on cuda", requestedThreads);
    if (!gpuAvailable())
      throw std::runtime_error("batched Gay-Berne potential on cuda: no CUDA device (" +
                               gpuDescription() + ")");
    threads = requestedThreads != 0 ? requestedThreads : warpsCovering(static_cast<int>(n));
    prepareBatchedGayBerneKernel(batchedGayBerneSharedBytes(static_cast<int>(n)),
                                 static_cast<int>(n));
  }

  GayBerneParams params;
  GayBerneShape shape;  // chi and chi' once, not on every call
  std::size_t ellipsoids;
  int threads = 32;
  BatchedHostStaging staging;  // the host entry point's arrays
};

BatchedGayBerneCuda::BatchedGayBerneCuda(const GayBerneParams& params, std::size_t ellipsoids,
                                         int threadsPerStructure)
    : m_state(std::make_unique<DeviceState>(params, ellipsoids, threadsPerStructure)) {}

BatchedGayBerneCuda::~BatchedGayBerneCuda() = default;

std::size_t BatchedGayBerneCuda::dimension() const {
  return 3 * kGayBerneMarkers * m_state->ellipsoids;
}
const GayBerneParams& BatchedGayBerneCuda::params() const { return m_state->params; }
std::size_t BatchedGayBerneCuda::ellipsoidCount() const { return m_state->ellipsoids; }
int BatchedGayBerneCuda::threadsPerStructure() const { return m_state->threads; }

std::string BatchedGayBerneCuda::name() const {
  const GayBerneParams& p = m_state->params;
  std::ostringstream s;
  s << "batched Gay-Berne " << m_state->ellipsoids << " ellipsoids (kappa " << p.kappa
    << ", kappa' " << p.kappaPrime << ", mu " << p.mu << ", nu " << p.nu << "), "
    << kGayBerneMarkers * m_state->ellipsoids << " markers (cuda, " << m_state->threads
    << " threads per structure)";
  return s.str();
}

void BatchedGayBerneCuda::energyGradientDevice(std::size_t batch, const double* d_x, double* d_g,
                                               double* d_energy, const std::uint8_t* d_active,
                                               DeviceStream stream) {
  if (batch == 0) return;
  requireArrays(d_x, d_g, d_energy, "device entry point");
  const DeviceState& s = *m_state;
  BatchedGayBerneArgs a;
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_energy = d_energy;
  a.d_active = d_active;
  a.shape = s.shape;
  a.cutoff2 = s.params.cutoff * s.params.cutoff;
  a.ellipsoids = static_cast<int>(s.ellipsoids);
  a.threads = s.threads;
  a.batch = batch;
  launchBatchedGayBerne(a, static_cast<cudaStream_t>(stream));
}

BatchedPotential::HostArrays BatchedGayBerneCuda::hostArrays(std::size_t batch) {
  return m_state->staging.arrays(batch, dimension());
}

void BatchedGayBerneCuda::preferOnDevice() { m_state->staging.preferOnDevice(); }

void BatchedGayBerneCuda::energyGradient(std::size_t batch, const double* x, double* g,
                                         double* energy, const std::uint8_t* active) {
  if (batch == 0) return;
  requireArrays(x, g, energy, "host entry point");
  m_state->staging.run(*this, batch, x, g, energy, active);
}

}  // namespace landscape
