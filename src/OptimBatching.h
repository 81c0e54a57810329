#pragma once
// optim's batched engines (issue 16): what connect and the endpoint preparation hand to the
// batched interfaces instead of one structure at a time. On the CPU, --threads T potentials (the
// run's own and T - 1 copies built from its spec) carry a PerStructureBatchedPotential for the
// DNEB images and two ParallelLbfgs (the descents' and the endpoints' parameters, CPU L-BFGS
// workspaces), so every result is the unbatched run's bit for bit. Lennard-Jones
// on --backend cuda evaluates the images with the batched GPU kernel (gpu/BatchedLennardJonesCuda;
// round-off differs from LennardJonesCuda's); its descents and endpoints, AMBER-GB on cuda and
// rigid bodies (not copied) stay one structure at a time, as do the descents and endpoints of
// --lbfgs-backend gpu (their workspaces live on the device; the images are still batched).
#include <memory>
#include <string>
#include <vector>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/paths/Connect.h"
#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"
#include "src/OptimRunConfig.h"
#include "src/OptimSystem.h"

namespace landscape {

struct OptimBatching {
  std::vector<std::unique_ptr<Potential>> copies;  ///< the potentials of threads 2..T
  std::unique_ptr<BatchedPotential> images;        ///< DNEB images; null: one at a time
  std::unique_ptr<BatchedMinimiser> descents;      ///< null: one side at a time
  std::unique_ptr<BatchedMinimiser> endpoints;     ///< null: one endpoint at a time
  int threads = 1;

  ConnectBatching connect() const { return {images.get(), descents.get()}; }
  /// One line for the header ("batch> ..."), with the bytes per structure of the minimisers.
  std::string describe() const;
};

/// The engines for this run (settings: the descent and endpoint minimisers after the system has
/// adjusted them). Throws std::runtime_error when --backend cuda has no device.
OptimBatching makeOptimBatching(const OptimRunConfig& config, const OptimSystem& system,
                                const OptimSettings& settings);

}  // namespace landscape
