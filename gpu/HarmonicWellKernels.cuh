#pragma once
// Driver for the harmonic-well kernel (the twin of potentials/HarmonicWell). Included only from
// .cu files. Double precision; gradient element by element (identical to the CPU up to FMA
// contraction), energy summed per block by cub::BlockReduce and then over blocks in block order by
// one block of a second kernel: bit-identical from run to run.
#include <cuda_runtime.h>

#include <cstddef>

namespace landscape {

constexpr int kHarmonicWellBlockSize = 256;

struct HarmonicWellArgs {
  const double* d_x = nullptr;      ///< n coordinates (length)
  double* d_g = nullptr;            ///< n gradient components (energy / length), overwritten
  double* d_blockEnergy = nullptr;  ///< harmonicWellBlockCount(n) partial sums (scratch)
  double* d_energy = nullptr;       ///< 1: the energy, overwritten
  std::size_t coordinates = 0;      ///< n >= 1
  double springConstant = 0.0;      ///< k (energy / length^2)
};

std::size_t harmonicWellBlockCount(std::size_t coordinates);

/// Enqueues both kernels on stream. Throws std::invalid_argument for bad arguments.
void launchHarmonicWell(const HarmonicWellArgs& args, cudaStream_t stream);

}  // namespace landscape
