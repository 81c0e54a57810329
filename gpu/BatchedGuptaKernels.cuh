#pragma once
// Driver of the batched Gupta kernel (gpu/BatchedGuptaCuda): B clusters per launch, one block per
// structure, the physics of potentials/GuptaTerms.h. Included only from .cu files.
//
// A block copies its structure's coordinates into shared memory and makes two passes over its
// atoms, thread t taking atoms t, t + blockDim, ...: first each atom's repulsion and density sums
// over j = 0, 1, ..., N-1 in order (j != i), its energy and 1/sqrt(rho_i) (kept in shared memory);
// after a barrier, each atom's gradient over j in the same order from both atoms' 1/sqrt(rho). The
// atoms' energies are added by a fixed butterfly in each warp and then by thread 0 over the warps
// in order. No atomics: a structure's energy and gradient depend on its coordinates, the
// constants and the block size alone, which the potential fixes at construction, so they are the
// same bits whatever the batch size, the structure's position, the active mask and the other
// structures. Inactive structures return at once.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "potentials/GuptaTerms.h"

namespace landscape {

struct BatchedGuptaArgs {
  const double* d_x = nullptr;             ///< [batch x 3N]
  double* d_g = nullptr;                   ///< [batch x 3N], active rows written
  double* d_energy = nullptr;              ///< [batch], active entries written
  const std::uint8_t* d_active = nullptr;  ///< [batch] or nullptr (all active)
  GuptaConstants constants;
  int atoms = 0;
  int threads = 128;      ///< block size: a multiple of 32, at most 1024
  std::size_t batch = 0;  ///< at most INT_MAX
};

/// Dynamic shared memory of a block: the coordinates (3N doubles), 1/sqrt(rho) (N doubles) and the
/// warps' partial energies.
std::size_t batchedGuptaSharedBytes(int atoms);

/// The block size for `atoms` atoms: the smallest multiple of 32 up to 256 that covers them (32 for
/// a 13-atom cluster, 256 for 200 atoms and more).
int batchedGuptaThreads(int atoms);

/// Raises the kernel's dynamic shared memory limit to `bytes` where it exceeds the default 48 KB;
/// throws std::invalid_argument naming the atoms when the device cannot give it.
void prepareBatchedGuptaKernel(std::size_t bytes, int atoms);

/// Enqueues the kernel on `stream` without synchronising. Throws std::invalid_argument for a bad
/// argument, std::runtime_error when the launch fails.
void launchBatchedGupta(const BatchedGuptaArgs& args, cudaStream_t stream);

}  // namespace landscape
