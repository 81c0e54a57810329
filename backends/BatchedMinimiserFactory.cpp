#include "backends/BatchedMinimiserFactory.h"

#include <stdexcept>

#include "gpu/GpuDevice.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/minimisation/BatchedLbfgsTwin.h"
#include "potentials/BatchedLennardJones.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedLbfgsCuda.h"
#include "gpu/BatchedLennardJonesCuda.h"
#endif

namespace landscape {
namespace {

// The CPU reference minimiser together with the potential it evaluates.
class OwningBatchedLbfgs : public BatchedLbfgs {
 public:
  OwningBatchedLbfgs(std::unique_ptr<BatchedPotential> potential, const LbfgsParams& params,
                     int threads)
      : BatchedLbfgs(*potential, params, threads), m_potential(std::move(potential)) {}

 private:
  // Destroyed before the base, which touches the potential only inside minimise().
  std::unique_ptr<BatchedPotential> m_potential;
};

void requireCuda(const std::string& what) {
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable())
    throw std::runtime_error(what + " on cuda: no CUDA device found (" + gpuDescription() + ")");
#else
  throw std::runtime_error(what + " on cuda: this build has no CUDA support");
#endif
}

}  // namespace

BatchedBackend parseBatchedBackend(const std::string& name) {
  if (name == "cpu") return BatchedBackend::Cpu;
  if (name == "cpu-twin") return BatchedBackend::CpuTwin;
  if (name == "cuda") return BatchedBackend::Cuda;
  throw std::invalid_argument("batched backend must be 'cpu', 'cpu-twin' or 'cuda', not '" + name +
                              "'");
}

std::string batchedBackendName(BatchedBackend backend) {
  switch (backend) {
    case BatchedBackend::Cpu:
      return "cpu";
    case BatchedBackend::CpuTwin:
      return "cpu-twin";
    case BatchedBackend::Cuda:
      return "cuda";
  }
  return "unknown";
}

std::unique_ptr<BatchedPotential> makeBatchedPotential(const BatchedSystem& system, Backend backend,
                                                       const BatchedEngineOptions& options) {
  if (backend == Backend::Cpu)
    return std::make_unique<BatchedLennardJones>(system.lennardJonesAtoms, options.threads);
  requireCuda("batched Lennard-Jones");
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<BatchedLennardJonesCuda>(system.lennardJonesAtoms, options.shape);
#else
  return nullptr;
#endif
}

std::size_t batchedResidentStructures(const BatchedSystem& system,
                                      const BatchedEngineOptions& options) {
  requireCuda("batched L-BFGS");
#ifdef LANDSCAPE_HAVE_CUDA
  return static_cast<std::size_t>(
      BatchedLbfgsCuda(system.lennardJonesAtoms, LbfgsParams{}, options.shape).residentTeams());
#else
  (void)system;
  (void)options;
  return 0;
#endif
}

std::unique_ptr<BatchedMinimiser> makeBatchedMinimiser(const BatchedSystem& system,
                                                       const LbfgsParams& params,
                                                       BatchedBackend backend,
                                                       const BatchedEngineOptions& options) {
  switch (backend) {
    case BatchedBackend::Cpu:
      return std::make_unique<OwningBatchedLbfgs>(
          makeBatchedPotential(system, Backend::Cpu, options), params, options.threads);
    case BatchedBackend::CpuTwin:
      return std::make_unique<BatchedLbfgsTwin>(system.lennardJonesAtoms, params, options.shape,
                                                options.threads);
    case BatchedBackend::Cuda:
      requireCuda("batched L-BFGS");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedLbfgsCuda>(system.lennardJonesAtoms, params, options.shape);
#endif
      break;
  }
  throw std::invalid_argument("unknown batched backend");
}

}  // namespace landscape
