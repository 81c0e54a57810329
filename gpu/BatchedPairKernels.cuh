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
};

/// Dynamic shared memory of a block: the species pairs' constants, the coordinates (3N doubles),
/// the species (N ints) and the warps' partial energies.
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
