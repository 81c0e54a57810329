#pragma once
// Driver of the batched Gay-Berne kernel (gpu/BatchedGayBerneCuda): B structures of n uniaxial
// Gay-Berne ellipsoids, each given by 4 marker sites (potentials/GayBerne.h), one block per
// structure. Included only from .cu files.
//
// A block forms its structure's centres (means of the 4 markers), unit axes and axis lengths in
// shared memory; thread t takes ellipsoids t, t + blockDim, ...: ellipsoid i sums the pair law of
// potentials/GayBerneTerms.h over every other ellipsoid j in ascending order, its centre and axis
// gradients from all of them, the energy of a pair from its lower ellipsoid only, then applies the
// chain rule to its own 4 markers. Every pair is evaluated twice (once from each ellipsoid)
// instead of scattering with atomics. The energies are added by a fixed butterfly in each warp and
// then by thread 0 over the warps in order, and an overlapping pair (R <= 0) anywhere makes the
// energy +infinity, as on the CPU; so a structure's energy and gradient depend on its coordinates,
// the model and the block size alone: the same bits whatever the batch size, the structure's
// position, the active mask and the other structures. Inactive structures return at once.
// potentials/GayBerne is the CPU twin (pairs once, another order: equal to round-off).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "potentials/GayBerneTerms.h"

namespace landscape {

struct BatchedGayBerneArgs {
  const double* d_x = nullptr;             ///< [batch x 12 ellipsoids] marker coordinates
  double* d_g = nullptr;                   ///< [batch x 12 ellipsoids], active rows written
  double* d_energy = nullptr;              ///< [batch], active entries written
  const std::uint8_t* d_active = nullptr;  ///< [batch] or nullptr (all active)
  GayBerneShape shape{};                   ///< the model's constants (GayBerneParams::shape)
  double cutoff2 = 0.0;                    ///< squared centre-centre cutoff; 0: none
  int ellipsoids = 0;
  int threads = 32;       ///< block size: a multiple of 32, at most 1024
  std::size_t batch = 0;  ///< at most INT_MAX
};

/// Dynamic shared memory of a block: centres, axes and axis lengths (7 doubles per ellipsoid)
/// and the warps' partial energies.
std::size_t batchedGayBerneSharedBytes(int ellipsoids);

/// Raises the kernel's dynamic shared memory limit to `bytes` where it exceeds the default 48 KB;
/// throws std::invalid_argument naming the ellipsoids when the device cannot give it.
void prepareBatchedGayBerneKernel(std::size_t bytes, int ellipsoids);

/// Enqueues the kernel on `stream` without synchronising. Throws std::invalid_argument for a bad
/// argument, std::runtime_error when the launch fails.
void launchBatchedGayBerne(const BatchedGayBerneArgs& args, cudaStream_t stream);

}  // namespace landscape
