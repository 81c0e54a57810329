#pragma once
// Driver for the Lennard-Jones CUDA kernel (hoomd-blue style: host classes call launchXxx and never
// write <<< >>> themselves). Included only from .cu files.
//
// Precision: double throughout; the pair physics is lennardJonesPair() from
// potentials/LennardJonesTerms.h, the same function the CPU reference calls.
//
// Determinism: no floating-point atomics. Thread i loops over every j in index order (tiled through
// shared memory) and writes the whole gradient of atom i and the full pair-energy sum of atom i, so
// each pair is evaluated twice. Per-block sums of those atom energies come from cub::BlockReduce,
// and the last block to finish (found with an integer atomic counter) adds the per-block sums in
// block order. The result is bit-identical from run to run and independent of which block finishes
// last; it does depend on kLennardJonesBlockSize, which is therefore a compile-time constant.
#include <cuda_runtime.h>

#include <cstddef>

namespace landscape {

/// Threads per block of the Lennard-Jones kernel (also the shared-memory tile length).
constexpr int kLennardJonesBlockSize = 128;

struct LennardJonesArgs {
  /// 3N coordinates x1 y1 z1 x2 ... (reduced length units); must not overlap d_g.
  const double* d_x = nullptr;
  /// 3N gradient (epsilon / sigma), overwritten.
  double* d_g = nullptr;
  /// N: sum of V(r_ij) over all j != i (GMIN's VAT; sums to twice the energy), overwritten.
  double* d_atomEnergy = nullptr;
  /// lennardJonesBlockCount(N) per-block partial sums (scratch).
  double* d_blockEnergy = nullptr;
  /// One finished-block counter: must be 0 before a launch; the kernel leaves it at 0.
  unsigned int* d_blocksDone = nullptr;
  /// 1: total energy sum_{i<j} V(r_ij) (epsilon), overwritten.
  double* d_energy = nullptr;
  /// N >= 2.
  std::size_t atoms = 0;
};

/// Number of blocks (and of d_blockEnergy entries) for N atoms.
std::size_t lennardJonesBlockCount(std::size_t atoms);

/// Enqueues the kernel on stream; returns without synchronising. Throws std::invalid_argument for
/// a bad argument and std::runtime_error when the launch fails.
void launchLennardJones(const LennardJonesArgs& args, cudaStream_t stream);

}  // namespace landscape
