#include "src/optim/OptimBatching.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "landscape/minimisation/ParallelLbfgs.h"
#include "potentials/PerStructureBatchedPotential.h"

namespace landscape {

namespace {

// Threads that get a potential of their own: copies are built from the spec on the CPU only (rigid
// bodies on the host over their own atomistic copy).
int cpuThreads(const OptimConfig& config, const OptimSystem& system) {
  if (config.backend != Backend::Cpu || system.searched().backend() != Backend::Cpu) return 1;
  if (config.threads > 0) return config.threads;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// On --backend cuda every system has a device-resident batched potential
// (backends/BatchedPotentialFactory: Lennard-Jones, AMBER-GB in the run's precision, and rigid
// bodies over either).
bool batchedOnCuda(const OptimConfig& config) { return config.backend == Backend::Cuda; }

// A CPU copy of the search's potential for another thread.
std::unique_ptr<Potential> cpuCopy(const OptimSystem& system) {
  std::unique_ptr<Potential> atomistic = makePotential(system.spec, Backend::Cpu);
  if (!system.rigid) return atomistic;
  return makeOwningRigidBodyPotential(std::move(atomistic), *system.rigid, Backend::Cpu);
}

std::string memoryText(const char* what, const BatchedMinimiser& minimiser) {
  const BatchMemory m = minimiser.memory();
  return std::string(what) + " " + std::to_string(m.bytesPerStructure) + " bytes of " + m.where +
         " per structure";
}

}  // namespace

OptimBatching makeOptimBatching(const OptimConfig& config, const OptimSystem& system,
                                const OptimSettings& settings) {
  OptimBatching b;
  b.threads = cpuThreads(config, system);
  if (config.searchesInFlight > 1) {
    if (config.lbfgsBackend == LbfgsBackend::Gpu)
      throw std::runtime_error("--searches-in-flight " + std::to_string(config.searchesInFlight) +
                               " with --lbfgs-backend gpu: the searches side by side keep their "
                               "L-BFGS vectors on the host; use --lbfgs-backend cpu");
    const int threads = config.backend == Backend::Cpu ? b.threads : 1;
    // Rigid bodies: the batched rigid potential, the views' metric and overall motions from the
    // host copy of the rigid potential.
    b.sharedBase = makeSharedBatchedBase(system.spec, config.backend, threads, system.rigid);
    SharedBatchedPotential::Options options;
    options.geometry = system.geometry.get();
    b.shared = std::make_unique<SharedBatchedPotential>(*b.sharedBase, options);
    b.sharedEngine = sharedConnectEngine(*b.shared, settings.connect.descent.minimiser,
                                         config.searchesInFlight);
    b.searchesInFlight = config.searchesInFlight;
  }
  if (batchedOnCuda(config)) {
    if (system.rigid) {
      // Rigid images through the batched transform and reductions. The descents and endpoints
      // stay one at a time: the batched minimisers have no angle-axis metric (docs/batched.md).
      b.images = makeBatchedRigidPotential(system.spec, *system.rigid, Backend::Cuda, {});
      return b;
    }
    b.images = makeBatchedPotentialForSpec(system.spec, Backend::Cuda, {});
    // --lbfgs-backend gpu: the descents and endpoints on the device's round-based engine
    // (gpu/BatchedLbfgsRoundsCuda), each batch one launch sequence; it reads the structures'
    // coordinates through a batched potential of its own.
    if (config.lbfgsBackend == LbfgsBackend::Gpu) {
      b.minimised = makeBatchedPotentialForSpec(system.spec, Backend::Cuda, {});
      b.descents = makeBatchedMinimiserOver(*b.minimised, settings.connect.descent.minimiser,
                                            Backend::Cuda, {BatchedEngine::Rounds});
      b.endpoints = makeBatchedMinimiserOver(*b.minimised, settings.endpointMinimiser,
                                             Backend::Cuda, {BatchedEngine::Rounds});
    }
    return b;
  }
  if (b.threads < 2) return b;
  std::vector<Potential*> potentials{&system.searched()};
  for (int t = 1; t < b.threads; ++t) {
    b.copies.push_back(cpuCopy(system));
    potentials.push_back(b.copies.back().get());
  }
  b.images = std::make_unique<PerStructureBatchedPotential>(potentials);
  // --lbfgs-backend gpu: one device workspace (and cuBLAS handle) per thread would buy nothing.
  if (config.lbfgsBackend == LbfgsBackend::Gpu) return b;
  b.descents = std::make_unique<ParallelLbfgs>(potentials, settings.connect.descent.minimiser);
  b.endpoints = std::make_unique<ParallelLbfgs>(potentials, settings.endpointMinimiser);
  return b;
}

std::string OptimBatching::describe() const {
  std::string searches;
  if (shared)
    searches = "; connect: a cycle's bands and a band's candidates " +
               std::to_string(searchesInFlight) +
               " side by side, every structure in shared calls of " + sharedBase->name();
  if (!images) return "one structure at a time (1 thread)" + searches;
  // An image's coordinates, gradient and energy (the band's arrays, or the device's staging).
  const std::size_t imageBytes = (2 * images->dimension() + 1) * sizeof(double);
  std::string text = "DNEB images through " + images->name() + ", " +
                     std::to_string(imageBytes) + " bytes per image";
  if (descents) text += "; " + memoryText("descents", *descents);
  if (endpoints) text += "; " + memoryText("endpoints", *endpoints);
  return text + searches;
}

}  // namespace landscape
