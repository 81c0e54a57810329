#include <climits>
#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/LennardJonesKernels.cuh"
#include "potentials/LennardJonesTerms.h"

namespace landscape {
namespace {

template <int kBlock>
__global__ void __launch_bounds__(kBlock) lennardJonesKernel(LennardJonesArgs args) {
  // Structure-of-arrays tile: consecutive threads read consecutive doubles of one array.
  __shared__ double tileX[kBlock];
  __shared__ double tileY[kBlock];
  __shared__ double tileZ[kBlock];

  const int n = static_cast<int>(args.atoms);
  const int i = blockIdx.x * kBlock + threadIdx.x;
  const bool active = i < n;

  double xi = 0.0, yi = 0.0, zi = 0.0;
  if (active) {
    xi = args.d_x[3 * i];
    yi = args.d_x[3 * i + 1];
    zi = args.d_x[3 * i + 2];
  }

  double gx = 0.0, gy = 0.0, gz = 0.0, energy = 0.0;
  for (int tileStart = 0; tileStart < n; tileStart += kBlock) {
    const int load = tileStart + threadIdx.x;
    if (load < n) {
      tileX[threadIdx.x] = args.d_x[3 * load];
      tileY[threadIdx.x] = args.d_x[3 * load + 1];
      tileZ[threadIdx.x] = args.d_x[3 * load + 2];
    }
    __syncthreads();
    const int tileCount = min(kBlock, n - tileStart);
    if (active) {
      for (int k = 0; k < tileCount; ++k) {
        if (tileStart + k == i) continue;
        const double dx = xi - tileX[k], dy = yi - tileY[k], dz = zi - tileZ[k];
        const LennardJonesPairTerm t = lennardJonesPair(dx * dx + dy * dy + dz * dz);
        energy += t.energy;
        gx += t.dEdrOverR * dx;
        gy += t.dEdrOverR * dy;
        gz += t.dEdrOverR * dz;
      }
    }
    __syncthreads();  // the tile is overwritten in the next pass
  }

  if (active) {
    args.d_g[3 * i] = gx;
    args.d_g[3 * i + 1] = gy;
    args.d_g[3 * i + 2] = gz;
    args.d_atomEnergy[i] = energy;
  }

  using BlockReduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename BlockReduce::TempStorage reduceStorage;
  __shared__ bool isLastBlock;
  const double blockSum = BlockReduce(reduceStorage).Sum(energy);  // inactive threads add 0.0

  // Last-block reduction (CUDA sample threadFenceReduction): publish this block's sum, then count
  // finished blocks with an integer atomic; the block that sees gridDim.x - 1 adds all sums.
  if (threadIdx.x == 0) {
    args.d_blockEnergy[blockIdx.x] = blockSum;
    __threadfence();
    const unsigned int finished = atomicAdd(args.d_blocksDone, 1u);
    isLastBlock = (finished == gridDim.x - 1);
  }
  __syncthreads();
  if (!isLastBlock) return;

  // Fixed order: thread t adds blocks t, t + kBlock, ... then one BlockReduce; __ldcg reads
  // through L2 so that no stale L1 line hides another block's sum.
  double partial = 0.0;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += kBlock)
    partial += __ldcg(&args.d_blockEnergy[b]);
  __syncthreads();  // reduceStorage is reused
  const double total = BlockReduce(reduceStorage).Sum(partial);
  if (threadIdx.x == 0) {
    *args.d_energy = 0.5 * total;  // every pair was counted by both of its atoms
    *args.d_blocksDone = 0u;       // ready for the next launch (stream order)
  }
}

}  // namespace

std::size_t lennardJonesBlockCount(std::size_t atoms) {
  return (atoms + kLennardJonesBlockSize - 1) / kLennardJonesBlockSize;
}

void launchLennardJones(const LennardJonesArgs& args, cudaStream_t stream) {
  if (args.atoms < 2)
    throw std::invalid_argument("launchLennardJones: atoms must be >= 2, got " +
                                std::to_string(args.atoms));
  // 3 * atoms indexes an int inside the kernel.
  if (args.atoms > static_cast<std::size_t>(INT_MAX / 3))
    throw std::invalid_argument(
        "launchLennardJones: atoms must be <= " + std::to_string(INT_MAX / 3) + ", got " +
        std::to_string(args.atoms));
  if (!args.d_x || !args.d_g || !args.d_atomEnergy || !args.d_blockEnergy || !args.d_blocksDone ||
      !args.d_energy)
    throw std::invalid_argument(
        "launchLennardJones: every device pointer in LennardJonesArgs must "
        "be set");
  const unsigned int blocks = static_cast<unsigned int>(lennardJonesBlockCount(args.atoms));
  lennardJonesKernel<kLennardJonesBlockSize><<<blocks, kLennardJonesBlockSize, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
