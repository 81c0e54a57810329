#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedGuptaKernels.cuh"
#include "gpu/BlockShape.h"
#include "gpu/CudaCheck.h"

namespace landscape {
namespace {

constexpr int kMaxWarps = 32;

__global__ void batchedGuptaKernel(BatchedGuptaArgs a) {
  const std::size_t b = blockIdx.x;
  if (a.d_active && !a.d_active[b]) return;
  extern __shared__ double shared[];
  const int n = a.atoms, n3 = 3 * n;
  double* xs = shared;
  double* inverseSqrtDensity = xs + n3;
  double* warpSums = inverseSqrtDensity + n;
  const GuptaConstants c = a.constants;

  const double* x = a.d_x + b * static_cast<std::size_t>(n3);
  for (int k = threadIdx.x; k < n3; k += blockDim.x) xs[k] = x[k];
  __syncthreads();

  // Pass 1: each atom's sums over its partners in index order, its energy and 1/sqrt(rho_i).
  double energy = 0.0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const double xi = xs[3 * i], yi = xs[3 * i + 1], zi = xs[3 * i + 2];
    double repulsion = 0.0, density = 0.0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = xi - xs[3 * j], dy = yi - xs[3 * j + 1], dz = zi - xs[3 * j + 2];
      const GuptaPairTerm t = guptaPair(c, sqrt(dx * dx + dy * dy + dz * dz));
      repulsion += t.repulsion;
      density += t.density;
    }
    energy += guptaAtomEnergy(c, repulsion, density);
    inverseSqrtDensity[i] = guptaInverseSqrtDensity(density);
  }
  __syncthreads();

  // Pass 2: each atom's gradient, every pair seen from both of its atoms.
  double* g = a.d_g + b * static_cast<std::size_t>(n3);
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const double xi = xs[3 * i], yi = xs[3 * i + 1], zi = xs[3 * i + 2];
    const double si = inverseSqrtDensity[i];
    double gx = 0.0, gy = 0.0, gz = 0.0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = xi - xs[3 * j], dy = yi - xs[3 * j + 1], dz = zi - xs[3 * j + 2];
      const double r = sqrt(dx * dx + dy * dy + dz * dz);
      const GuptaPairTerm t = guptaPair(c, r);
      const double f = guptaPairDerivative(c, t, si, inverseSqrtDensity[j]) / r;
      gx += f * dx;
      gy += f * dy;
      gz += f * dz;
    }
    g[3 * i] = gx;
    g[3 * i + 1] = gy;
    g[3 * i + 2] = gz;
  }

  // Fixed order: each warp's butterfly, then thread 0 adds the warps in order.
  for (int offset = 16; offset > 0; offset >>= 1)
    energy += __shfl_xor_sync(0xffffffffu, energy, offset);
  const int warp = threadIdx.x / 32, warps = blockDim.x / 32;
  if ((threadIdx.x & 31) == 0) warpSums[warp] = energy;
  __syncthreads();
  if (threadIdx.x == 0) {
    double total = 0.0;
    for (int w = 0; w < warps; ++w) total += warpSums[w];
    a.d_energy[b] = total;
  }
}

}  // namespace

std::size_t batchedGuptaSharedBytes(int atoms) {
  return (4 * static_cast<std::size_t>(atoms) + kMaxWarps) * sizeof(double);
}

int batchedGuptaThreads(int atoms) { return warpsCovering(atoms); }

void prepareBatchedGuptaKernel(std::size_t bytes, int atoms) {
  if (!needsSharedMemoryOptIn(bytes, "batched Gupta potential on cuda",
                              std::to_string(atoms) + " atoms"))
    return;
  LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(
      batchedGuptaKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

void launchBatchedGupta(const BatchedGuptaArgs& a, cudaStream_t stream) {
  if (a.batch == 0) return;
  if (a.batch > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("launchBatchedGupta: at most " + std::to_string(INT_MAX) +
                                " structures per launch, got " + std::to_string(a.batch));
  if (!a.d_x || !a.d_g || !a.d_energy)
    throw std::invalid_argument(
        "launchBatchedGupta: coordinates, gradients and energies must be device arrays");
  if (a.atoms < 2 || a.threads < 32 || a.threads > 1024 || a.threads % 32 != 0)
    throw std::invalid_argument("launchBatchedGupta: atoms " + std::to_string(a.atoms) +
                                ", threads " + std::to_string(a.threads) + " out of range");
  const std::size_t bytes = batchedGuptaSharedBytes(a.atoms);
  batchedGuptaKernel<<<dim3(static_cast<unsigned int>(a.batch)), a.threads, bytes, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
