#pragma once
// optim's batched engines (docs/batched.md): what connect and the endpoint preparation hand to the
// batched interfaces instead of one structure at a time. On the CPU, --threads T potentials (the
// run's own and T - 1 copies built from its spec) carry a PerStructureBatchedPotential for the
// DNEB images and two ParallelLbfgs (the descents' and the endpoints' parameters, CPU L-BFGS
// workspaces), so every result is the unbatched run's bit for bit; with rigid bodies each copy is
// the rigid potential over its own atomistic copy. On --backend cuda the images go to the
// device's batched potential (gpu/BatchedLennardJonesCuda, gpu/BatchedAmberGbCuda, rigid bodies
// through gpu/BatchedRigidBodyCuda over either: round-off differs from the single-structure
// kernels'); with --lbfgs-backend gpu the descents and endpoints of atomistic systems go to the
// device's round-based batched L-BFGS (gpu/BatchedLbfgsRoundsCuda), otherwise (and always for
// rigid bodies, whose batched minimisers would lack the angle-axis metric) they stay one
// structure at a time.
#include <memory>
#include <string>
#include <vector>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/paths/Connect.h"
#include "landscape/paths/ConnectJobs.h"
#include "potentials/SharedBatchedPotential.h"
#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"
#include "src/optim/OptimConfig.h"
#include "src/optim/OptimSystem.h"

namespace landscape {

struct OptimBatching {
  /// --searches-in-flight N > 1: the batched potential every structure of the connect run goes
  /// through, its gate and the run's engine over it (sharedConnectEngine); null otherwise.
  std::unique_ptr<BatchedPotential> sharedBase;
  std::unique_ptr<SharedBatchedPotential> shared;
  ConnectJobEngine sharedEngine;
  int searchesInFlight = 1;
  std::vector<std::unique_ptr<Potential>> copies;  ///< the potentials of threads 2..T
  std::unique_ptr<BatchedPotential> images;        ///< DNEB images; null: one at a time
  std::unique_ptr<BatchedPotential> minimised;     ///< the device minimisers' potential (cuda)
  std::unique_ptr<BatchedMinimiser> descents;      ///< null: one side at a time
  std::unique_ptr<BatchedMinimiser> endpoints;     ///< null: one endpoint at a time
  int threads = 1;

  ConnectBatching connect() const {
    return shared ? sharedEngine.batching() : ConnectBatching{images.get(), descents.get()};
  }
  /// The potential connect runs on: the shared engine's view, or `searched` (the system's).
  Potential& connectPotential(Potential& searched) const {
    return shared ? *sharedEngine.potential : searched;
  }
  /// One line for the header ("batch> ..."), with the bytes per structure of the minimisers.
  std::string describe() const;
};

/// The engines for this run (settings: the descent and endpoint minimisers after the system has
/// adjusted them). Throws std::runtime_error when --backend cuda has no device.
OptimBatching makeOptimBatching(const OptimConfig& config, const OptimSystem& system,
                                const OptimSettings& settings);

}  // namespace landscape
