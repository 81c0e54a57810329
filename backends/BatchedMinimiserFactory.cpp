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
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override {
    m_minimiser->minimise(batch, x, results);
  }

 private:
  std::shared_ptr<BatchedPotential> m_potential;  // declared first: destroyed after the minimiser
  std::unique_ptr<BatchedMinimiser> m_minimiser;
};

// The reference engine is the CPU's: refused on cuda before anything is built.
void requireEngineRunsOn(BatchedEngine engine, Backend backend) {
  if (engine == BatchedEngine::Reference && backend == Backend::Cuda)
    throw std::invalid_argument("batched engine 'reference' does not run on cuda (the reference "
                                "engine is the CPU's)");
}

void requireCuda(const std::string& what) {
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable())
    throw std::runtime_error(what + " on cuda: no CUDA device found (" + gpuDescription() + ")");
#else
  throw std::runtime_error(what + " on cuda: this build has no CUDA support");
#endif
}

}  // namespace

BatchedEngine parseBatchedEngine(const std::string& name) {
  if (name == "reference") return BatchedEngine::Reference;
  if (name == "team") return BatchedEngine::Team;
  if (name == "rounds") return BatchedEngine::Rounds;
  throw std::invalid_argument("batched engine must be 'reference', 'team' or 'rounds', not '" +
                              name + "'");
}

std::string batchedEngineName(BatchedEngine engine) {
  switch (engine) {
    case BatchedEngine::Reference:
      return "reference";
    case BatchedEngine::Team:
      return "team";
    case BatchedEngine::Rounds:
      return "rounds";
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
      BatchedLbfgsCuda::residentTeamsFor(system.lennardJonesAtoms, LbfgsParams{}, options.shape));
#else
  (void)system;
  (void)options;
  return 0;
#endif
}

std::unique_ptr<BatchedMinimiser> makeBatchedMinimiser(const BatchedSystem& system,
                                                       const LbfgsParams& params, Backend backend,
                                                       const BatchedEngineOptions& options) {
  requireEngineRunsOn(options.engine, backend);
  if (options.engine != BatchedEngine::Team)  // over a potential of its own
    return makeBatchedMinimiserOwning(makeBatchedPotential(system, backend, options), params,
                                      backend, options);
  if (backend == Backend::Cpu)
    return std::make_unique<BatchedLbfgsTwin>(system.lennardJonesAtoms, params, options.shape,
                                              options.threads);
  requireCuda("batched L-BFGS");
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<BatchedLbfgsCuda>(system.lennardJonesAtoms, params, options.shape);
#else
  return nullptr;
#endif
}

std::unique_ptr<BatchedMinimiser> makeBatchedMinimiserOver(BatchedPotential& potential,
                                                           const LbfgsParams& params,
                                                           Backend backend,
                                                           const BatchedEngineOptions& options) {
  requireEngineRunsOn(options.engine, backend);
  const bool cuda = backend == Backend::Cuda;
  switch (options.engine) {
    case BatchedEngine::Reference:
      return std::make_unique<BatchedLbfgs>(potential, params, options.threads);
    case BatchedEngine::Rounds:
      if (!cuda)
        return std::make_unique<BatchedLbfgsRoundsTwin>(potential, params, options.rounds,
                                                        options.threads);
      requireCuda("batched L-BFGS rounds");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedLbfgsRoundsCuda>(potential, params, options.rounds);
#endif
      break;
    case BatchedEngine::Team:
      throw std::invalid_argument(
          "the team engine is a Lennard-Jones kernel; over any batched potential use the "
          "reference or the rounds engine");
  }
  throw std::invalid_argument("unknown batched engine");
}

std::unique_ptr<BatchedMinimiser> makeBatchedMinimiserOwning(
    std::shared_ptr<BatchedPotential> potential, const LbfgsParams& params, Backend backend,
    const BatchedEngineOptions& options) {
  std::unique_ptr<BatchedMinimiser> minimiser =
      makeBatchedMinimiserOver(*potential, params, backend, options);
  return std::make_unique<PotentialOwningMinimiser>(std::move(potential), std::move(minimiser));
}

}  // namespace landscape
