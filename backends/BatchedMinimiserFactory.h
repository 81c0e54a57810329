#pragma once
// Where the CUDA build switch meets the run-time choice of batched engine (issue 16):
//   cpu       BatchedLbfgs over BatchedLennardJones: each structure bit for bit today's Lbfgs,
//             structures spread over `threads` threads;
//   cpu-twin  BatchedLbfgsTwin: the GPU kernel's arithmetic order on the CPU (tests, debugging);
//   cuda      gpu/BatchedLbfgsCuda: one persistent kernel per batch.
// First milestone: Lennard-Jones clusters only.
#include <cstddef>
#include <memory>
#include <string>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "potentials/BatchedPotential.h"

namespace landscape {

enum class BatchedBackend { Cpu, CpuTwin, Cuda };

/// "cpu", "cpu-twin" or "cuda"; throws std::invalid_argument naming the bad value otherwise.
BatchedBackend parseBatchedBackend(const std::string& name);
std::string batchedBackendName(BatchedBackend backend);

/// The system every structure of a batch is an instance of.
struct BatchedSystem {
  std::size_t lennardJonesAtoms = 0;  ///< Lennard-Jones cluster of this many atoms (>= 2)
};

struct BatchedEngineOptions {
  int threads = 1;         ///< CPU threads (cpu, cpu-twin); >= 1
  BatchedTeamShape shape;  ///< GPU team shape (cuda, cpu-twin); zeros: chosen automatically
};

/// A batched potential for `system` on `backend` (Cpu or Cuda). Throws std::runtime_error for
/// Cuda when this build has no CUDA support or no device is found.
std::unique_ptr<BatchedPotential> makeBatchedPotential(const BatchedSystem& system, Backend backend,
                                                       const BatchedEngineOptions& options);

/// Structures of `system` the CUDA engine runs at once (resident teams on the device: a batch this
/// large fills it). Throws std::runtime_error when this build has no CUDA support or no device.
std::size_t batchedResidentStructures(const BatchedSystem& system,
                                      const BatchedEngineOptions& options);

/// Owns what a batched minimiser needs (the CPU reference holds its potential). Throws
/// std::invalid_argument for bad parameters and std::runtime_error for an unavailable backend.
std::unique_ptr<BatchedMinimiser> makeBatchedMinimiser(const BatchedSystem& system,
                                                       const LbfgsParams& params,
                                                       BatchedBackend backend,
                                                       const BatchedEngineOptions& options);

}  // namespace landscape
