#pragma once
// Driver of the batched pair-potential kernel (gpu/BatchedPairPotentialCuda): B structures of one
// PairModel per launch, one block (team) per structure. Included only from .cu files.
//
// A block copies its structure's coordinates and the species into shared memory, with the
// species pairs' constants, and lays its atoms over its threads: `lanesPerAtom` (L, a power of
// two up to 32) consecutive lanes of one warp share an atom i, lane l of them summing the pairs
// (i, j) for j = l, l + L, ... in order (every pair seen from both of its atoms, minimum image,
// the physics of gpu/PairDevice.cuh); the L partial sums of the gradient and energy of i are then
// added by a fixed butterfly of shuffles, and the atoms' energies by a fixed-order block
// reduction. No atomics: a structure's energy and gradient depend on its coordinates, the model
// and (threads, L) alone, which the potential fixes at construction, so they are the same bits
// whatever the batch size, the structure's position, the active mask and the other structures.
// Inactive structures return at once.
//
// With a Verlet list (Verlet, Phys. Rev. 159, 98 (1967)), each row of the batch keeps its own:
// the positions of its last build and, per atom i and lane l, the partners j = l, l + L, ... (in
// that order) within the pair's cutoff plus the skin. The block first tests whether any atom moved
// more than half the skin from the row's build positions (minimum image; NaN counts as moved, so
// a fresh row, whose positions are NaN, builds); if so every thread rebuilds its own (i, l) list
// while it evaluates, and the row's positions are replaced. A lane then visits its listed partners
// in the order it visits them without the list, and the partners it skips lie beyond their cutoff,
// where the term is exactly zero (PairDevice.cuh) and adding it changes no bit: the list path gives
// the bits of the path over every pair, whatever the row held before (another structure, an older
// state of this one). A list longer than its capacity is not stored; that (i, l) then visits every
// partner, with the same bits.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/PairDevice.cuh"

namespace landscape {

struct BatchedPairArgs {
  const double* d_x = nullptr;             ///< [batch x 3N]
  double* d_g = nullptr;                   ///< [batch x 3N], active rows written
  double* d_energy = nullptr;              ///< [batch], active entries written
  const std::uint8_t* d_active = nullptr;  ///< [batch] or nullptr (all active)
  const PairCoefficients* d_pairs = nullptr;  ///< speciesCount^2
  const int* d_species = nullptr;             ///< [N]
  const double* d_table = nullptr;            ///< tables' coefficients (Tabulated), else unused
  PairDeviceBox box;
  PairLaw law = PairLaw::LennardJones;
  int atoms = 0;
  int speciesCount = 1;
  int threads = 256;      ///< block size: a multiple of 32, at most 1024
  int lanesPerAtom = 1;   ///< L: 1, 2, 4, 8, 16 or 32
  std::size_t batch = 0;  ///< at most INT_MAX
  // The Verlet list (all null: every pair).
  /// ((cutoff + skin)(1 + 1e-9))^2 per species pair (the margin absorbs the rounding of r^2)
  const double* d_listRadius2 = nullptr;
  double halfSkin2 = 0.0;                 ///< (skin / 2)^2: the displacement that rebuilds
  double* d_reference = nullptr;          ///< [batch x 3N] positions of each row's last build
  /// [batch x capacity x N L]: entry k of (i, l) at k N L + i L + l of its row
  unsigned short* d_list = nullptr;
  int* d_counts = nullptr;           ///< [batch x N L] listed partners (> capacity: not stored)
  unsigned long long* d_rebuilds = nullptr;  ///< rows rebuilt, summed over launches
  int listCapacity = 0;              ///< entries per (i, l)
};

/// Dynamic shared memory of a block: the species pairs' constants, the coordinates (3N doubles),
/// the species (N ints) and the warps' partial energies (the list path reads the list radii from
/// global memory).
std::size_t batchedPairSharedBytes(int atoms, int speciesCount, int threads);

/// The lanes per atom that make a block of `threads` threads take the fewest pair rounds for
/// `atoms` atoms (passes over the atoms times partners per lane; ties to fewer lanes).
int batchedPairLanesPerAtom(int atoms, int threads);

/// Raises the kernels' dynamic shared memory limit to `bytes` where it exceeds the default 48 KB;
/// throws std::invalid_argument naming the atoms when the device cannot give it.
void prepareBatchedPairKernels(std::size_t bytes, int atoms);

/// Enqueues the kernel on `stream` without synchronising. Throws std::invalid_argument for a bad
/// argument, std::runtime_error when the launch fails.
void launchBatchedPair(const BatchedPairArgs& args, cudaStream_t stream);

}  // namespace landscape
