#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/BatchedHostStaging.h"
#include "gpu/BatchedSiteKernels.cuh"
#include "gpu/BatchedSitePotentialCuda.h"
#include "gpu/BlockShape.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GpuDevice.h"
#include "gpu/SitePartnerTable.h"

namespace landscape {

namespace {

void requireArrays(const void* x, const void* g, const void* energy, const char* where) {
  if (!x || !g || !energy)
    throw std::invalid_argument(std::string("batched site potential on cuda, ") + where +
                                ": coordinates, gradients and energies must not be null");
}

}  // namespace

struct BatchedSitePotentialCuda::DeviceState {
  DeviceState(const SiteModel& m, int requestedThreads, SitePairLawPath path)
      : model(m), table(buildSitePartnerTable(m)) {
    requireThreadsPerStructure("batched site potential on cuda", requestedThreads);
    if (!gpuAvailable())
      throw std::runtime_error("batched site potential on cuda: no CUDA device (" +
                               gpuDescription() + ")");
    const int chunkCount = static_cast<int>(table.chunks.size());
    threads = requestedThreads != 0 ? requestedThreads : batchedSiteThreads(chunkCount);
    kinds = static_cast<int>(table.coefficients.size());
    prepareBatchedSiteKernel(batchedSiteSharedBytes(table.sites, kinds, chunkCount), table.sites);
    entries = DeviceBuffer<SitePartner>(table.entries);
    coefficients = DeviceBuffer<SitePairCoefficients>(table.coefficients);
    std::vector<SiteChunk> uploaded = table.chunks;
    if (path == SitePairLawPath::FullLawEverywhere)
      for (SiteChunk& c : uploaded) c.coulombOnly = 0;
    chunks = DeviceBuffer<SiteChunk>(uploaded);
    chunkOf = DeviceBuffer<int>(table.chunkOf);
  }

  SiteModel model;
  SitePartnerTable table;
  int threads = 128, kinds = 0;
  DeviceBuffer<SitePartner> entries;
  DeviceBuffer<SitePairCoefficients> coefficients;
  DeviceBuffer<SiteChunk> chunks;
  DeviceBuffer<int> chunkOf;
  BatchedHostStaging staging;  // the host entry point's arrays
};

BatchedSitePotentialCuda::BatchedSitePotentialCuda(const SiteModel& model, int threadsPerStructure,
                                                   SitePairLawPath path)
    : m_state(std::make_unique<DeviceState>(model, threadsPerStructure, path)) {}

BatchedSitePotentialCuda::~BatchedSitePotentialCuda() = default;

std::size_t BatchedSitePotentialCuda::dimension() const {
  return 3 * static_cast<std::size_t>(m_state->table.sites);
}
const SiteModel& BatchedSitePotentialCuda::model() const { return m_state->model; }
int BatchedSitePotentialCuda::threadsPerStructure() const { return m_state->threads; }
std::size_t BatchedSitePotentialCuda::interactingPairs() const {
  return m_state->table.pairCount();
}

std::string BatchedSitePotentialCuda::name() const {
  const SiteModel& m = m_state->model;
  return "batched sites " + (m.name.empty() ? std::string() : m.name + ", ") +
         std::to_string(m.siteCount()) + " sites of " + std::to_string(m.moleculeCount()) +
         " molecules (cuda, " + std::to_string(m_state->threads) + " threads per structure)";
}

void BatchedSitePotentialCuda::energyGradientDevice(std::size_t batch, const double* d_x,
                                                    double* d_g, double* d_energy,
                                                    const std::uint8_t* d_active,
                                                    DeviceStream stream) {
  if (batch == 0) return;
  requireArrays(d_x, d_g, d_energy, "device entry point");
  DeviceState& s = *m_state;
  BatchedSiteArgs a;
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_energy = d_energy;
  a.d_active = d_active;
  a.d_entries = s.entries.data();
  a.d_coefficients = s.coefficients.data();
  a.d_chunks = s.chunks.data();
  a.d_chunkOf = s.chunkOf.data();
  a.sites = s.table.sites;
  a.kinds = s.kinds;
  a.chunks = static_cast<int>(s.table.chunks.size());
  a.chunksPerSite = s.table.chunksPerSite;
  a.threads = s.threads;
  a.batch = batch;
  launchBatchedSites(a, static_cast<cudaStream_t>(stream));
}

BatchedPotential::HostArrays BatchedSitePotentialCuda::hostArrays(std::size_t batch) {
  return m_state->staging.arrays(batch, dimension());
}

void BatchedSitePotentialCuda::preferOnDevice() { m_state->staging.preferOnDevice(); }

void BatchedSitePotentialCuda::energyGradient(std::size_t batch, const double* x, double* g,
                                              double* energy, const std::uint8_t* active) {
  if (batch == 0) return;
  requireArrays(x, g, energy, "host entry point");
  m_state->staging.run(*this, batch, x, g, energy, active);
}

}  // namespace landscape
