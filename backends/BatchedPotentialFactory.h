#pragma once
// A batched potential (potentials/BatchedPotential.h: B structures of one system per call) for
// any system a PotentialSpec describes, on the CPU or the GPU (docs/batched.md): what a batched
// minimiser, a DNEB band or gmin's walkers take. Compiles in every build.
//   Lennard-Jones  cpu: BatchedLennardJones over `threads` threads
//                  cuda: BatchedLennardJonesCuda (a block per structure)
//   AMBER-GB       cpu: PerStructureBatchedPotential over `threads` AmberGb copies
//                  cuda: BatchedAmberGbCuda (structure x tile grids, spec.precision)
//   SOP            cpu: PerStructureBatchedPotential over `threads` Sop copies
//                  cuda: BatchedSopCuda (cell list rebuilt per call; spec.sopSkin unused)
//   pair           cpu: PerStructureBatchedPotential over `threads` PairPotential copies
//                  cuda: BatchedPairPotentialCuda (a block per structure, every pair)
//   Gupta          cpu: PerStructureBatchedPotential over `threads` GuptaPotential copies
//                  cuda: BatchedGuptaCuda (a block per structure: densities, then gradients)
//   sites          cpu: PerStructureBatchedPotential over `threads` SitePotential copies
//                  cuda: BatchedSitePotentialCuda (a block per structure, interacting site pairs)
//                  (rigid water: makeBatchedRigidPotential with WaterCluster's rigid system)
// On the CPU a structure's energy and gradient are the single-structure potential's bits; on the
// GPU they are the same bits whatever the batch (see each class).
// makeBatchedRigidPotential puts local rigid bodies over the system's batched potential:
//                  cpu: BatchedRigidBodyPotential (= RigidBodyPotential per structure, bit for bit)
//                  cuda: BatchedRigidBodyCuda (batched transform and fixed-order reductions)
#include <cstddef>
#include <memory>

#include "backends/PotentialFactory.h"
#include "gpu/BatchedAmberGbCuda.h"  // CUDA-free header: the layout enum
#include "landscape/minimisation/BatchedMinimiser.h"
#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {

struct BatchedPotentialOptions {
  int threads = 1;         ///< CPU threads (>= 1), each with its own potential
  BatchedTeamShape shape;  ///< Lennard-Jones on cuda: team shape (zeros: automatic)
  std::size_t reserveBatch =
      1;  ///< AMBER-GB, SOP on cuda: structures whose scratch is allocated now
  /// AMBER-GB on cuda: how a structure's work is cut (Throughput for large batches).
  AmberGbCudaLayout gbLayout = AmberGbCudaLayout::Latency;
};

/// Builds the batched potential of spec on backend. Throws std::invalid_argument for a bad spec
/// or options (threads < 1, a missing topology) and std::runtime_error for cuda when this build has
/// no CUDA support or no device is found.
std::unique_ptr<BatchedPotential> makeBatchedPotentialForSpec(
    const PotentialSpec& spec, Backend backend, const BatchedPotentialOptions& options = {});

/// The batched potential that searches of many threads share (potentials/SharedBatchedPotential:
/// growth's connect runs in flight, optim's concurrent searches): on cuda with the AMBER-GB layout
/// for batches that fill the device by their number (fixed, so that a structure's bits are too),
/// scratch for 256 structures and the greatest stream priority (preferOnDevice); on cpu over
/// `threads` potentials of its own (bit for bit the single-structure potential's). With `rigid`,
/// in its rigid coordinates (makeBatchedRigidPotential; pair it with
/// SharedBatchedPotential::Options::geometry).
std::unique_ptr<BatchedPotential> makeSharedBatchedBase(const PotentialSpec& spec, Backend backend,
                                                        int threads,
                                                        const RigidBodySystem* rigid = nullptr);

/// The batched potential of spec in the rigid coordinates of `system` (which must describe
/// spec's atoms): the atomistic batch of makeBatchedPotentialForSpec with the rigid transform and
/// reductions over it, both owned by the result. On cpu the transform uses options.threads
/// threads too; on cuda options.reserveBatch structures of scratch are allocated now for both
/// layers. Throws as makeBatchedPotentialForSpec, and std::invalid_argument when the system's atom
/// count differs from spec's.
std::unique_ptr<BatchedPotential> makeBatchedRigidPotential(
    const PotentialSpec& spec, const RigidBodySystem& system, Backend backend,
    const BatchedPotentialOptions& options = {});

/// Whether makeBatchedPotentialForSpec builds a potential of `kind` on `backend` with a device
/// entry point (BatchedPotential::isDeviceResident): every kind above on cuda, none on cpu.
/// Answered from the kind alone, building nothing, so that a program choosing its engine (gmin's
/// walkers) follows kinds added here with no change of its own.
bool batchedPotentialIsDeviceResident(PotentialSpec::Kind kind, Backend backend);

}  // namespace landscape
