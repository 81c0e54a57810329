#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/HarmonicWellKernels.cuh"
#include "potentials/HarmonicWellTerms.h"

namespace landscape {
namespace {

using BlockReduce = cub::BlockReduce<double, kHarmonicWellBlockSize>;

__global__ void __launch_bounds__(kHarmonicWellBlockSize)
    harmonicWellKernel(HarmonicWellArgs args) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * kHarmonicWellBlockSize + threadIdx.x;
  double energy = 0.0;
  if (k < args.coordinates) {
    const HarmonicWellTerm t = harmonicWellTerm(args.d_x[k], args.springConstant);
    args.d_g[k] = t.gradient;
    energy = t.energy;
  }
  __shared__ typename BlockReduce::TempStorage storage;
  const double blockSum = BlockReduce(storage).Sum(energy);
  if (threadIdx.x == 0) args.d_blockEnergy[blockIdx.x] = blockSum;
}

// One block adds the partial sums in a fixed order: thread t takes blocks t, t + 256, ...
__global__ void __launch_bounds__(kHarmonicWellBlockSize)
    sumBlocksKernel(const double* d_blockEnergy, std::size_t blocks, double* d_energy) {
  double partial = 0.0;
  for (std::size_t b = threadIdx.x; b < blocks; b += kHarmonicWellBlockSize)
    partial += d_blockEnergy[b];
  __shared__ typename BlockReduce::TempStorage storage;
  const double total = BlockReduce(storage).Sum(partial);
  if (threadIdx.x == 0) *d_energy = total;
}

}  // namespace

std::size_t harmonicWellBlockCount(std::size_t coordinates) {
  return (coordinates + kHarmonicWellBlockSize - 1) / kHarmonicWellBlockSize;
}

void launchHarmonicWell(const HarmonicWellArgs& args, cudaStream_t stream) {
  if (args.coordinates == 0)
    throw std::invalid_argument("launchHarmonicWell: coordinates must be >= 1");
  if (!args.d_x || !args.d_g || !args.d_blockEnergy || !args.d_energy)
    throw std::invalid_argument("launchHarmonicWell: every device pointer must be set");
  const std::size_t blocks = harmonicWellBlockCount(args.coordinates);
  if (blocks > 0x7fffffffu)
    throw std::invalid_argument("launchHarmonicWell: " + std::to_string(args.coordinates) +
                                " coordinates exceed one grid");
  harmonicWellKernel<<<static_cast<unsigned int>(blocks), kHarmonicWellBlockSize, 0, stream>>>(
      args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  sumBlocksKernel<<<1, kHarmonicWellBlockSize, 0, stream>>>(args.d_blockEnergy, blocks,
                                                            args.d_energy);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
