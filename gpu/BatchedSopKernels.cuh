#pragma once
// Drivers of the batched SOP energy + gradient (gpu/BatchedSopCuda): B structures of one
// SOP topology (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, eq B1, double
// precision) per launch sequence, for minimisation. Included only from .cu files.
//
// Per evaluation, enqueued on one stream (each kernel returns at once for a structure whose
// d_active entry is 0, so its x, g and energy are neither read nor written):
//   pack      row b of d_x (x1 y1 z1 ...) -> d_pos (Pos4), grid (beads / 256, structures)
//   cells     gpu/SopKernels' cell-list build, one block per structure (128 threads up to 1024
//             beads), cells >= the cutoff rc
//   gradient  kSopLanes threads per bead, grid (beads / 32, structures): FENE (lanes 0, 1), the
//             native list (entry k by lane k % kSopLanes) and the repulsion of every candidate in
//             the 27 cells around the bead (lane L takes candidates L, L + kSopLanes, ... of each
//             cell, cells z, y, x, each cell by bead index; exclusions by a bitmask or the
//             native list), combined by laneSum; per-bead energies (pair terms halved) to
//             d_beadEnergy
//   energy    one block per structure: each component summed over the beads by cub::BlockReduce
//             (a fixed tree for a fixed block size), energy = (FENE + NATIVE) + REPULSIVE
// No Verlet list: minimisation moves beads far between calls, and a list kept from an earlier
// call would make a structure's summation order (hence its bits) depend on where it was last
// built, i.e. on which structure used the slot before. The cells are rebuilt from the structure's
// own coordinates every call, so its bits are a function of its coordinates alone: the same for
// any B, any position in the batch, any mask, either entry point and any stream. No
// floating-point atomics. Grids of more than 65535 structures are cut into launches.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/SopKernels.cuh"

namespace landscape {

struct SopBatchArgs {
  SopTopologyView<double> topology;
  /// The cell-list arrays (replicas = structures of the batch, listRadius2 = rc^2 or more);
  /// d_neighbour, d_neighbourCount and d_posAtBuild are unused.
  SopListView<double> cells;
  std::size_t batch = 0;
  const double* d_x = nullptr;             ///< batch x 3N (A)
  double* d_g = nullptr;                   ///< batch x 3N (kcal/mol/A)
  double* d_energy = nullptr;              ///< batch (kcal/mol)
  const std::uint8_t* d_active = nullptr;  ///< batch, or nullptr: all active
  SopPos4<double>* d_pos = nullptr;        ///< batch x N scratch
  double* d_beadEnergy = nullptr;          ///< batch x 3 x N scratch (FENE, native, repulsive)
  double* d_components = nullptr;          ///< batch x 3: FENE, NATIVE, REPULSIVE (kcal/mol)
  /// Optional N x exclusionWords bits, bit j of row i set when i and j are bonded or native (no
  /// repulsion): one load per candidate instead of a scan of i's native list. nullptr: the scan.
  const std::uint32_t* d_exclusionMask = nullptr;
  int exclusionWords = 0;  ///< (N + 31) / 32 with a mask
};

/// Enqueues the four kernels on `stream` (no synchronisation). Throws std::invalid_argument for
/// bad arguments (null arrays, batch 0 or above the cell grid's int range).
void launchSopBatchEnergyGradient(const SopBatchArgs& args, cudaStream_t stream);

}  // namespace landscape
