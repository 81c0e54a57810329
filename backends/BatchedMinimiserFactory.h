#pragma once
// Where the CUDA build switch meets the run-time choice of batched engine. The backend says where
// (cpu, cuda); the engine says how each structure's L-BFGS (landscape/minimisation/LbfgsStep.h)
// is driven:
//   reference  BatchedLbfgs: LbfgsStructureRun per structure, each bit for bit today's Lbfgs,
//              structures spread over `threads` threads (cpu only);
//   team       the Lennard-Jones team kernel (lbfgsTeamMinimise): gpu/BatchedLbfgsCuda, one
//              persistent kernel per batch, or on cpu its twin BatchedLbfgsTwin (the kernel's
//              arithmetic order: tests, debugging);
//   rounds     the round-based engine (lbfgsRoundsAdvance), state in global memory, over any
//              device-resident BatchedPotential (any n, any m): gpu/BatchedLbfgsRoundsCuda, or
//              on cpu its twin BatchedLbfgsRoundsTwin.
#include <cstddef>
#include <memory>
#include <string>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/BatchedRoundsPlan.h"
#include "potentials/BatchedPotential.h"

namespace landscape {

enum class BatchedEngine { Reference, Team, Rounds };

/// "reference", "team" or "rounds"; throws std::invalid_argument naming the bad value otherwise.
BatchedEngine parseBatchedEngine(const std::string& name);
std::string batchedEngineName(BatchedEngine engine);

/// The system every structure of a batch is an instance of.
struct BatchedSystem {
  std::size_t lennardJonesAtoms = 0;  ///< Lennard-Jones cluster of this many atoms (>= 2)
};

struct BatchedEngineOptions {
  BatchedEngine engine = BatchedEngine::Reference;
  int threads = 1;              ///< CPU threads (reference, team and rounds on cpu); >= 1
  BatchedTeamShape shape;       ///< team shape (team); zeros: chosen automatically
  BatchedRoundsOptions rounds;  ///< rounds
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
                                                       const LbfgsParams& params, Backend backend,
                                                       const BatchedEngineOptions& options);

/// A batched minimiser over any batched potential (which must outlive it): the reference engine
/// on cpu (BatchedLbfgs on its host entry point) or the rounds engine (on cuda its device entry
/// point, which it must have: std::invalid_argument otherwise; on cpu its host entry point). The
/// team engine is a Lennard-Jones kernel and is refused with std::invalid_argument.
std::unique_ptr<BatchedMinimiser> makeBatchedMinimiserOver(BatchedPotential& potential,
                                                           const LbfgsParams& params,
                                                           Backend backend,
                                                           const BatchedEngineOptions& options);

/// makeBatchedMinimiserOver over a potential that the minimiser keeps alive: its own, or one
/// shared with other minimisers (gmin's sloppy and tight quenches over one device potential).
/// The one owner of a minimiser's potential: makeBatchedMinimiser hands out its minimisers so.
std::unique_ptr<BatchedMinimiser> makeBatchedMinimiserOwning(
    std::shared_ptr<BatchedPotential> potential, const LbfgsParams& params, Backend backend,
    const BatchedEngineOptions& options);

}  // namespace landscape
