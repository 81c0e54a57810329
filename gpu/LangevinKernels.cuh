#pragma once
// Driver for the overdamped Langevin step on the device (the twin of LangevinCpu::run's inner
// loop). Included only from .cu files. One thread per particle draws its four words inside the
// kernel (no pre-generated random numbers, Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem.
// B 2011, section III.A), turns them into three Gaussians by Box-Muller and applies
// langevinUpdate() (landscape/dynamics/LangevinTerms.h) to its coordinates. Double precision; the
// gradient must already be in d_g.
#include <cuda_runtime.h>

#include <cstddef>

#include "gpu/RandomKernels.cuh"

namespace landscape {

struct LangevinStepArgs {
  double* d_x = nullptr;        ///< 3 particles coordinates (length), updated in place
  const double* d_g = nullptr;  ///< 3 particles gradient components (energy / length)
  std::size_t particles = 0;    ///< equals streams.streams
  double mobilityStep = 0.0;    ///< dt / xi (length^2 / energy)
  double noiseAmplitude = 0.0;  ///< sqrt(2 kT dt / xi) (length)
  RandomStreamsView streams;    ///< the step to draw (call RandomStreamsCuda::advance() after)
};

/// Enqueues one step on stream. Throws std::invalid_argument for inconsistent arguments.
void launchLangevinStep(const LangevinStepArgs& args, cudaStream_t stream);

}  // namespace landscape
