#include "backends/BatchedMinimiserFactory.h"

#include <stdexcept>
#include <utility>

#include "gpu/GpuDevice.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/minimisation/BatchedLbfgsRoundsTwin.h"
#include "landscape/minimisation/BatchedLbfgsTwin.h"
#include "potentials/BatchedLennardJones.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedLbfgsCuda.h"
#include "gpu/BatchedLbfgsRoundsCuda.h"
#include "gpu/BatchedLennardJonesCuda.h"
#endif

namespace landscape {
namespace {

// A batched minimiser together with the potential it runs over, which it keeps alive (its own,
// or shared with other minimisers): every BatchedMinimiser call is forwarded, so a virtual added
// to BatchedMinimiser is added here too.
class PotentialOwningMinimiser : public BatchedMinimiser {
 public:
  PotentialOwningMinimiser(std::shared_ptr<BatchedPotential> potential,
                           std::unique_ptr<BatchedMinimiser> minimiser)
      : m_potential(std::move(potential)), m_minimiser(std::move(minimiser)) {}
  std::string name() const override { return m_minimiser->name(); }
  std::size_t dimension() const override { return m_minimiser->dimension(); }
  const LbfgsParams& params() const override { return m_minimiser->params(); }
  BatchMemory memory() const override { return m_minimiser->memory(); }
  void minimise(std::size_t batch, double* x, BatchedLbfgsResult* results) override {
    m_minimiser->minimise(batch, x, results);
  }

 private:
  std::shared_ptr<BatchedPotential> m_potential;  // declared first: destroyed after the minimiser
  std::unique_ptr<BatchedMinimiser> m_minimiser;
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
  if (name == "cuda-rounds") return BatchedBackend::CudaRounds;
  if (name == "cpu-rounds-twin") return BatchedBackend::CpuRoundsTwin;
  throw std::invalid_argument(
      "batched backend must be 'cpu', 'cpu-twin', 'cuda', 'cuda-rounds' or 'cpu-rounds-twin', "
      "not '" +
      name + "'");
}

std::string batchedBackendName(BatchedBackend backend) {
  switch (backend) {
    case BatchedBackend::Cpu:
      return "cpu";
    case BatchedBackend::CpuTwin:
      return "cpu-twin";
    case BatchedBackend::Cuda:
      return "cuda";
    case BatchedBackend::CudaRounds:
      return "cuda-rounds";
    case BatchedBackend::CpuRoundsTwin:
      return "cpu-rounds-twin";
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
      return makeBatchedMinimiserOwning(makeBatchedPotential(system, Backend::Cpu, options), params,
                                        backend, options);
    case BatchedBackend::CpuTwin:
      return std::make_unique<BatchedLbfgsTwin>(system.lennardJonesAtoms, params, options.shape,
                                                options.threads);
    case BatchedBackend::Cuda:
      requireCuda("batched L-BFGS");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedLbfgsCuda>(system.lennardJonesAtoms, params, options.shape);
#endif
      break;
    case BatchedBackend::CudaRounds:
      requireCuda("batched L-BFGS rounds");
      return makeBatchedMinimiserOwning(makeBatchedPotential(system, Backend::Cuda, options),
                                        params, backend, options);
    case BatchedBackend::CpuRoundsTwin:
      return makeBatchedMinimiserOwning(makeBatchedPotential(system, Backend::Cpu, options), params,
                                        backend, options);
  }
  throw std::invalid_argument("unknown batched backend");
}

std::unique_ptr<BatchedMinimiser> makeBatchedMinimiserOver(BatchedPotential& potential,
                                                           const LbfgsParams& params,
                                                           BatchedBackend backend,
                                                           const BatchedEngineOptions& options) {
  switch (backend) {
    case BatchedBackend::Cpu:
      return std::make_unique<BatchedLbfgs>(potential, params, options.threads);
    case BatchedBackend::CpuRoundsTwin:
      return std::make_unique<BatchedLbfgsRoundsTwin>(potential, params, options.rounds,
                                                      options.threads);
    case BatchedBackend::CudaRounds:
      requireCuda("batched L-BFGS rounds");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedLbfgsRoundsCuda>(potential, params, options.rounds);
#endif
      break;
    case BatchedBackend::Cuda:
    case BatchedBackend::CpuTwin:
      throw std::invalid_argument("batched backend '" + batchedBackendName(backend) +
                                  "' is a Lennard-Jones kernel; over any batched potential use "
                                  "'cpu', 'cuda-rounds' or 'cpu-rounds-twin'");
  }
  throw std::invalid_argument("unknown batched backend");
}

std::unique_ptr<BatchedMinimiser> makeBatchedMinimiserOwning(
    std::shared_ptr<BatchedPotential> potential, const LbfgsParams& params, BatchedBackend backend,
    const BatchedEngineOptions& options) {
  std::unique_ptr<BatchedMinimiser> minimiser =
      makeBatchedMinimiserOver(*potential, params, backend, options);
  return std::make_unique<PotentialOwningMinimiser>(std::move(potential), std::move(minimiser));
}

}  // namespace landscape
