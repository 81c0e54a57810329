#pragma once
// Drivers of the SOP kernels (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011,
// Appendix B; neighbour lists after Shkurti, Orsi, Macii, Ficarra and Acquaviva, J. Comput. Chem.
// 2013). Included only from .cu files. Templated on the arithmetic type R: double, or float as
// SOP-GPU uses.
//
// The device data layout is described above SopTopologyView, the kernels of a step and the
// order of every sum above launchSopStep; docs/sop.md gives the overview.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/RandomKernels.cuh"
#include "potentials/SopTerms.h"

namespace landscape {

template <class R>
struct alignas(4 * sizeof(R)) SopPos4 {
  R x, y, z, w;
};

/// Threads per block of the step kernel and of the per-replica cell build.
constexpr int kSopStepBlock = 256;
constexpr int kSopCellBlock = 1024;
/// Threads per bead in the step kernel (a power of two dividing 32): they split the native list
/// (entries lane, lane + kSopLanes, ...) and the Verlet row (entries 2 lane, 2 lane + 1 of each
/// chunk of kSopListChunk) and combine by warp shuffles.
constexpr int kSopLanes = 8;
/// Beads per block of the step kernel: its first warp is the bead warp (random numbers while the
/// other warps sum forces, then the per-bead update), the other warps take kSopLanes threads per
/// bead.
constexpr int kSopBeadsPerBlock = (kSopStepBlock - 32) / kSopLanes;
static_assert(32 % kSopLanes == 0 && kSopStepBlock % 32 == 0, "lanes of a bead share a warp");
/// Verlet-list entries one lane reads with one load (two 16-bit indices in a word, or an int2).
constexpr int kSopPairsPerLoad = 2;
/// Entries of a row stored together: the kSopLanes lanes of a bead read one chunk per load.
constexpr int kSopListChunk = kSopLanes * kSopPairsPerLoad;

/// Slot of entry k of global bead g in the Verlet list of T = total beads: chunk-major, then bead,
/// then entry in the chunk (Shkurti et al.'s column-major layout with kSopListChunk-entry columns).
__host__ __device__ __forceinline__ std::size_t sopListSlot(int k, std::size_t g,
                                                            std::size_t total) {
  return (static_cast<std::size_t>(k / kSopListChunk) * total + g) * kSopListChunk +
         k % kSopListChunk;
}
/// Capacity per bead in slots: maxNeighbours rounded up to whole chunks.
__host__ __device__ __forceinline__ int sopListCapacity(int maxNeighbours) {
  return (maxNeighbours + kSopListChunk - 1) / kSopListChunk * kSopListChunk;
}
/// Slot of native entry k of bead i (of n): chunks of kSopLanes entries, one per lane.
__host__ __device__ __forceinline__ std::size_t sopNativeSlot(int k, int i, int n) {
  return (static_cast<std::size_t>(k / kSopLanes) * n + i) * kSopLanes + k % kSopLanes;
}

/// Blocks per replica of the step kernel (the x extent of its grid; d_tipPartial holds that many
/// sums per replica).
int sopStepBlocksPerReplica(int beads);

/// The cell grid of one replica (written by sopCells, read by the list rebuild).
template <class R>
struct SopCellGrid {
  R lo[3];
  R cellSize;  ///< >= the list radius
  int dims[3];
  int cells;
};

// Layout. One system of N beads, `replicas` copies of it (T = replicas N beads in all); bead i of
// replica r is global bead g = r N + i. The topology is stored once for all replicas:
//   bonds      d_bondPrev[i], d_bondNext[i] (-1 for none) with native lengths d_bondPrevR0/NextR0;
//   natives    in chunks of kSopLanes entries, entry k of bead i at sopNativeSlot(k, i, N) =
//              (k / 8 N + i) 8 + k % 8 (Shkurti et al.'s column-major layout with 8-entry columns:
//              the 8 lanes of a bead read one chunk, a warp 4 consecutive chunks), partner in
//              d_nativeIndex, r0^2 in d_nativeR0sq, counts in d_nativeCount; each contact appears
//              under both of its beads.
// Per replica:
//   positions  Pos4<R> (x, y, z, unused) ping-ponged between two buffers, one per step parity;
//   Verlet list over all T beads in chunks of kSopListChunk = 16 entries, entry k of bead g at
//              sopListSlot(k, g, T) = (k / 16 T + g) 16 + k % 16 (column-major with 16-entry
//              columns: lane L of a bead loads entries 2L, 2L + 1 of a chunk as one word, a warp
//              reads 4 beads x 32 B contiguous), holding the local index of the partner (same
//              replica; 16-bit while N <= 65536); counts in d_neighbourCount; slots past the count
//              to the end of its chunk hold the bead itself (masked by the count);
//   cell list  rebuilt from scratch into d_cell* by one block per replica.
template <class R>
struct SopTopologyView {
  int beads = 0;  ///< N, per replica
  const int* d_bondPrev = nullptr;
  const int* d_bondNext = nullptr;
  const R* d_bondPrevR0 = nullptr;
  const R* d_bondNextR0 = nullptr;
  const int* d_nativeCount = nullptr;
  const int* d_nativeIndex = nullptr;      ///< sopNativeSlot layout, maxNatives (x8) x N
  const R* d_nativeR0sq = nullptr;         ///< sopNativeSlot layout, maxNatives (x8) x N
  const unsigned char* d_fixed = nullptr;  ///< N: 1 = bead held in place (may be null)
  R feneK = 0, feneR0sq = 0, nativeEpsilon = 0;
  SopRepulsion<R> repulsion;
};

template <class R>
struct SopListView {
  int replicas = 0;
  int maxNeighbours = 0;
  R listRadius2 = 0;  ///< (cutoff + skin)^2
  R halfSkin2 = 0;    ///< (skin / 2)^2: a larger displacement asks for a rebuild
  /// sopListCapacity(maxNeighbours) x T in the sopListSlot layout: uint16 local indices when
  /// shortIndices (N <= 65536, half the bytes of the step's dominant read), int otherwise.
  void* d_neighbour = nullptr;
  bool shortIndices = false;
  int* d_neighbourCount = nullptr;     ///< T
  SopPos4<R>* d_posAtBuild = nullptr;  ///< T
  int maxCells = 0;                    ///< per replica
  SopCellGrid<R>* d_grid = nullptr;    ///< replicas
  int* d_cellStart = nullptr;          ///< replicas x (maxCells + 1)
  int* d_cellBeads = nullptr;          ///< T: local bead indices sorted by cell then index
  int* d_beadCell = nullptr;           ///< T (scratch)
  int* d_cellFill = nullptr;           ///< replicas x maxCells (scratch)
  /// [0] largest neighbour count that overflowed, [1] non-finite coordinates seen, [2] rebuilds
  int* d_status = nullptr;
};

/// External terms of the force-spectroscopy protocols (landscape/dynamics/SopDynamics.h
/// SopProtocol).
template <class R>
struct SopExternalView {
  int pulledBead = -1;  ///< local index, -1: no pulling
  R pullSpringK = 0;
  double pullAnchor0[3] = {0, 0, 0};    ///< anchor at t = 0 (A); at step s it is
  double pullDirection[3] = {0, 0, 0};  ///< anchor0 + pullSpeed s dt direction
  double pullSpeed = 0;                 ///< A/ps
  bool indentation = false;
  R tipDirection[3] = {0, 0, 0};
  R tipOrigin[3] = {0, 0, 0};
  R tipRadius = 0, tipMinGap = 0;
  SopRepulsion<R> tipRepulsion;
  double tipSpringK = 0, tipSpeed = 0, tipMobility = 0;  ///< base at step s: tipSpeed s dt (A)
  double* d_tip = nullptr;            ///< replicas: tip displacement z along n (A), updated
  double* d_tipPartial = nullptr;     ///< replicas x blocksPerReplica: dU/dz partial sums
  unsigned int* d_tipDone = nullptr;  ///< replicas: finished-block counters (0 between steps)
};

template <class R>
struct SopStepArgs {
  SopTopologyView<R> topology;
  SopListView<R> list;
  SopExternalView<R> external;
  const SopPos4<R>* d_posIn = nullptr;  ///< T, positions at this step
  SopPos4<R>* d_posOut = nullptr;       ///< T, positions after it (must not alias d_posIn)
  /// 0: keep the lists; 1: every bead rebuilds its row (cells built for d_posIn); 2: rebuild the
  /// replicas whose d_rebuildNow flag is set.
  int rebuildMode = 0;
  const int* d_rebuildNow = nullptr;  ///< replicas (mode 2)
  int* d_rebuildNext = nullptr;       ///< replicas: set when a bead moved > skin/2 (may be null)
  /// Langevin step: x' = x - mobility g + amplitude gauss (Zhmurov et al. 2011, eq 1); integrate =
  /// false writes the gradient and energies instead (the Potential entry point).
  bool integrate = true;
  R mobilityStep = 0;         ///< dt / xi (A^2 mol/kcal)
  R noiseAmplitude = 0;       ///< sqrt(2 kT dt / xi) (A)
  RandomStreamsView streams;  ///< T streams; for Philox the step drawn is *d_step
  double timeStep = 0;        ///< dt (ps), for the protocol's time s dt
  /// integrate: the step number s on the device, read by every block; block (0, 0) writes s + 1
  /// to d_stepNext, which the next step reads as its d_step (two buffers swapped every step, so
  /// that a captured CUDA Graph replays with the right step and time, with no atomics).
  const unsigned long long* d_step = nullptr;
  unsigned long long* d_stepNext = nullptr;
  double* d_gradient = nullptr;  ///< !integrate: 3T gradient (kcal/mol/A), x1 y1 z1 ...
  /// !integrate, optional: 3 x T (FENE, native, repulsive; pair terms halved)
  double* d_beadEnergy = nullptr;
  /// launchSopStep: a programmatic dependent launch (sm_90+, gpu/ProgrammaticLaunch.cuh): the
  /// step's blocks start while the kernel before it ends and wait for it; the same bits.
  bool programmatic = false;
};

template <class R>
struct SopCellArgs {
  SopListView<R> list;
  int beads = 0;
  const SopPos4<R>* d_pos = nullptr;
  bool conditional = false;  ///< build only the replicas whose d_rebuildFlag is set
  const int* d_rebuildFlag = nullptr;
  int* d_clearFlag = nullptr;  ///< replicas, zeroed by this kernel (may be null)
  /// replicas: 0 = skip this replica entirely (the batched evaluation's mask; may be null)
  const std::uint8_t* d_active = nullptr;
  /// 128-thread blocks keeping the counters of up to 1024 cells in 4 KB of shared memory (more
  /// cells: in d_cellFill) instead of 1024 threads and 32 KB: many small structures at once. The
  /// lists are the same either way (integer counts, cells sorted by bead index, the grid from
  /// exact minima and maxima).
  bool compact = false;
};

// Kernels per step (Shkurti et al.'s split, fused further):
//   sopStep    kSopLanes threads per bead: [when its replica's list is stale, the lanes rebuild
//              the bead's own Verlet row from the cell list, 8 candidates at a time, slots by
//              ballot in scan order] + gather FENE, native and repulsive gradients (lanes split
//              the lists, warp shuffles combine them) + external terms + the Langevin update
//              (Zhmurov et al. 2011, eq 1) + the displacement test that asks for the next rebuild.
//              Random numbers are drawn inside (no pre-generation), by the block's first warp (the
//              bead warp) while the other warps sum forces; the bead warp then does the per-bead
//              work, one bead per lane.
//   sopCells   one block per replica, only when a rebuild is due: bounding box, cell counts,
//              prefix sum, fill, each cell sorted by bead index (deterministic lists).
// Determinism: no floating-point atomics. The lanes of a bead sum fixed subsets of its terms in a
// fixed order and combine them by a fixed shuffle tree, so every rerun gives the same bits. The
// tip force of indentation is summed per block by cub::BlockReduce and the per-block sums by the
// last block in block order.

/// Enqueues one step (or one gradient evaluation). Throws std::invalid_argument for bad args.
template <class R>
void launchSopStep(const SopStepArgs<R>& args, cudaStream_t stream);

/// Enqueues `steps` >= 1 Langevin steps as one cooperative (persistent) launch: a grid barrier
/// between steps instead of a kernel launch, the same per-bead arithmetic as launchSopStep, so
/// the same bits. Needs integrate, rebuildMode 0 with no displacement test (a fixed rebuild
/// interval, no rebuild due in these steps) and a generator other than Lagged Fibonacci. Reads
/// the step number from *d_step and writes the number after the last step to *d_stepNext (may
/// be d_step); positions start in d_posIn and end in d_posOut after an odd count, in d_posIn
/// after an even one. Throws std::invalid_argument for bad args, std::runtime_error without
/// cooperative launch.
template <class R>
void launchSopPersistentSteps(const SopStepArgs<R>& args, int steps, cudaStream_t stream);

/// Enqueues the cell-list build of every (or every flagged) replica.
template <class R>
void launchSopCells(const SopCellArgs<R>& args, cudaStream_t stream);

/// Sums d_beadEnergy (3 x T) per replica and component in a fixed order into d_energy (3 x
/// replicas, component-major).
void launchSopEnergySum(const double* d_beadEnergy, int beads, int replicas, double* d_energy,
                        cudaStream_t stream);

/// Converts 3T doubles (x1 y1 z1 ...) to Pos4 and sets d_flag[0] when any bead moved more than
/// sqrt(halfSkin2) from d_posAtBuild (the Potential entry point's rebuild test).
template <class R>
void launchSopPack(const double* d_x, int beads, SopPos4<R>* d_pos, const SopPos4<R>* d_posAtBuild,
                   R halfSkin2, int* d_flag, cudaStream_t stream);

/// Converts positions back to 3T doubles.
template <class R>
void launchSopUnpack(const SopPos4<R>* d_pos, int beads, double* d_x, cudaStream_t stream);

}  // namespace landscape
