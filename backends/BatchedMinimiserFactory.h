#pragma once
// Where the CUDA build switch meets the run-time choice of batched engine (issue 16):
//   cpu       BatchedLbfgs over BatchedLennardJones: each structure bit for bit today's Lbfgs,
//             structures spread over `threads` threads;
//   cpu-twin  BatchedLbfgsTwin: the GPU kernel's arithmetic order on the CPU (tests, debugging);
//   cuda      gpu/BatchedLbfgsCuda: one persistent kernel per batch (Lennard-Jones clusters that
//             fit in shared memory);
//   cuda-rounds       gpu/BatchedLbfgsRoundsCuda: round-based, state in global memory, any
//                     device-resident BatchedPotential (any n, any m);
//   cpu-rounds-twin   BatchedLbfgsRoundsTwin: cuda-rounds' arithmetic order on the CPU.
#include <cstddef>
#include <memory>
#include <string>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/BatchedRoundsPlan.h"
#include "potentials/BatchedPotential.h"

namespace landscape {

enum class BatchedBackend { Cpu, CpuTwin, Cuda, CudaRounds, CpuRoundsTwin };

/// "cpu", "cpu-twin", "cuda", "cuda-rounds" or "cpu-rounds-twin"; throws std::invalid_argument
/// naming the bad value otherwise.
BatchedBackend parseBatchedBackend(const std::string& name);
std::string batchedBackendName(BatchedBackend backend);

/// The system every structure of a batch is an instance of.
struct BatchedSystem {
  std::size_t lennardJonesAtoms = 0;  ///< Lennard-Jones cluster of this many atoms (>= 2)
};

struct BatchedEngineOptions {
  int threads = 1;              ///< CPU threads (cpu, cpu-twin); >= 1
  BatchedTeamShape shape;       ///< GPU team shape (cuda, cpu-twin); zeros: chosen automatically
  BatchedRoundsOptions rounds;  ///< cuda-rounds, cpu-rounds-twin
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

/// A batched minimiser over any batched potential (which must outlive it): Cpu (BatchedLbfgs on
/// its host entry point), CudaRounds (its device entry point; throws std::invalid_argument when
/// it has none) or CpuRoundsTwin (its host entry point). Cuda and CpuTwin are Lennard-Jones
/// kernels and are refused with std::invalid_argument.
std::unique_ptr<BatchedMinimiser> makeBatchedMinimiserOver(BatchedPotential& potential,
                                                           const LbfgsParams& params,
                                                           BatchedBackend backend,
                                                           const BatchedEngineOptions& options);

/// makeBatchedMinimiserOver over a potential that the minimiser keeps alive: its own, or one
/// shared with other minimisers (gmin's sloppy and tight quenches over one device potential).
/// The one owner of a minimiser's potential: makeBatchedMinimiser hands out its minimisers so.
std::unique_ptr<BatchedMinimiser> makeBatchedMinimiserOwning(
    std::shared_ptr<BatchedPotential> potential, const LbfgsParams& params, BatchedBackend backend,
    const BatchedEngineOptions& options);

}  // namespace landscape
