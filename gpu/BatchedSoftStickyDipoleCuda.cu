// BatchedSoftStickyDipoleCuda (gpu/BatchedSoftStickyDipoleCuda.h): argument checks, the model's
// pair constants computed once, the host entry point through the page-locked staging.
#include <sstream>
#include <stdexcept>
#include <string>

#include "gpu/BatchedHostStaging.h"
#include "gpu/BatchedSoftStickyDipoleCuda.h"
#include "gpu/BatchedSoftStickyDipoleKernels.cuh"
#include "gpu/BlockShape.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Require.h"

namespace landscape {

namespace {

void requireArrays(const void* x, const void* g, const void* energy, const char* where) {
  if (!x || !g || !energy)
    throw std::invalid_argument(std::string("batched soft-sticky-dipole potential on cuda, ") +
                                where + ": coordinates, gradients and energies must not be null");
}

}  // namespace

struct BatchedSoftStickyDipoleCuda::DeviceState {
  DeviceState(const SoftStickyDipoleParams& p, std::size_t n, int requestedThreads)
      : params(p), molecules(n) {
    params.check();
    constants = params.pairConstants();
    require(n >= 2 && n <= 1000000,
            "batched soft-sticky-dipole potential on cuda: 2 to 1000000 molecules, not " +
                std::to_string(n) + ".");
    requireThreadsPerStructure("batched soft-sticky-dipole potential on cuda", requestedThreads);
    if (!gpuAvailable())
      throw std::runtime_error("batched soft-sticky-dipole potential on cuda: no CUDA device (" +
                               gpuDescription() + ")");
    threads = requestedThreads != 0 ? requestedThreads : warpsCovering(static_cast<int>(n));
    prepareBatchedSoftStickyDipoleKernel(batchedSoftStickyDipoleSharedBytes(static_cast<int>(n)),
                                         static_cast<int>(n), threads);
  }

  SoftStickyDipoleParams params;
  SoftStickyDipoleConstants constants;  // k mu^2 and the halves once, not on every call
  std::size_t molecules;
  int threads = 32;
  BatchedHostStaging staging;  // the host entry point's arrays
};

BatchedSoftStickyDipoleCuda::BatchedSoftStickyDipoleCuda(const SoftStickyDipoleParams& params,
                                                         std::size_t molecules,
                                                         int threadsPerStructure)
    : m_state(std::make_unique<DeviceState>(params, molecules, threadsPerStructure)) {}

BatchedSoftStickyDipoleCuda::~BatchedSoftStickyDipoleCuda() = default;

std::size_t BatchedSoftStickyDipoleCuda::dimension() const {
  return 3 * kSoftStickyDipoleMarkers * m_state->molecules;
}
const SoftStickyDipoleParams& BatchedSoftStickyDipoleCuda::params() const {
  return m_state->params;
}
std::size_t BatchedSoftStickyDipoleCuda::moleculeCount() const { return m_state->molecules; }
int BatchedSoftStickyDipoleCuda::threadsPerStructure() const { return m_state->threads; }

std::string BatchedSoftStickyDipoleCuda::name() const {
  std::ostringstream s;
  s << "batched SSD water x " << m_state->molecules << ", "
    << kSoftStickyDipoleMarkers * m_state->molecules << " markers (cuda, " << m_state->threads
    << " threads per structure)";
  return s.str();
}

void BatchedSoftStickyDipoleCuda::energyGradientDevice(std::size_t batch, const double* d_x,
                                                       double* d_g, double* d_energy,
                                                       const std::uint8_t* d_active,
                                                       DeviceStream stream) {
  if (batch == 0) return;
  requireArrays(d_x, d_g, d_energy, "device entry point");
  const DeviceState& s = *m_state;
  BatchedSoftStickyDipoleArgs a;
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_energy = d_energy;
  a.d_active = d_active;
  a.constants = s.constants;
  a.molecules = static_cast<int>(s.molecules);
  a.threads = s.threads;
  a.batch = batch;
  launchBatchedSoftStickyDipole(a, static_cast<cudaStream_t>(stream));
}

BatchedPotential::HostArrays BatchedSoftStickyDipoleCuda::hostArrays(std::size_t batch) {
  return m_state->staging.arrays(batch, dimension());
}

void BatchedSoftStickyDipoleCuda::preferOnDevice() { m_state->staging.preferOnDevice(); }

void BatchedSoftStickyDipoleCuda::energyGradient(std::size_t batch, const double* x, double* g,
                                                 double* energy, const std::uint8_t* active) {
  if (batch == 0) return;
  requireArrays(x, g, energy, "host entry point");
  m_state->staging.run(*this, batch, x, g, energy, active);
}

}  // namespace landscape
