#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>

#include "gpu/BatchedGayBerneKernels.cuh"
#include "gpu/BlockShape.h"
#include "gpu/CudaCheck.h"
#include "potentials/GayBerne.h"

namespace landscape {
namespace {

constexpr int kMaxWarps = 32;
constexpr int kMarkers = static_cast<int>(kGayBerneMarkers);

__global__ void batchedGayBerneKernel(BatchedGayBerneArgs a) {
  const std::size_t b = blockIdx.x;
  if (a.d_active && !a.d_active[b]) return;
  extern __shared__ double shared[];
  const int n = a.ellipsoids;
  double* centres = shared;        // 3 n
  double* axes = centres + 3 * n;  // 3 n, unit
  double* lengths = axes + 3 * n;  // n: |m0 - m1|
  double* warpSums = lengths + n;  // kMaxWarps

  const double* x = a.d_x + b * static_cast<std::size_t>(3 * kMarkers * n);
  for (int k = threadIdx.x; k < n; k += blockDim.x) {
    const double* m = x + 3 * kMarkers * k;
    double d2 = 0.0;
    for (int c = 0; c < 3; ++c) {
      centres[3 * k + c] = 0.25 * (m[c] + m[3 + c] + m[6 + c] + m[9 + c]);
      const double d = m[c] - m[3 + c];
      axes[3 * k + c] = d;
      d2 += d * d;
    }
    const double length = sqrt(d2), inv = 1.0 / length;
    lengths[k] = length;
    for (int c = 0; c < 3; ++c) axes[3 * k + c] *= inv;
  }
  __syncthreads();

  double energy = 0.0;
  bool overlap = false;
  double* g = a.d_g + b * static_cast<std::size_t>(3 * kMarkers * n);
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const double* ci = centres + 3 * i;
    const double* ui = axes + 3 * i;
    double gc[3] = {0.0, 0.0, 0.0}, gu[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const double r[3] = {centres[3 * j] - ci[0], centres[3 * j + 1] - ci[1],
                           centres[3 * j + 2] - ci[2]};
      if (a.cutoff2 > 0.0 && r[0] * r[0] + r[1] * r[1] + r[2] * r[2] > a.cutoff2) continue;
      double dr[3], dui[3], duj[3];
      const GayBernePairTerm t = gayBernePair(a.shape, r, ui, axes + 3 * j, dr, dui, duj);
      overlap = overlap || t.overlap;
      if (j > i) energy += t.energy;
      for (int c = 0; c < 3; ++c) {
        gc[c] -= dr[c];  // dr is the gradient on the second centre
        gu[c] += dui[c];
      }
    }
    // centre = mean of the 4 markers; u = d / |d|, d = m0 - m1 (potentials/GayBerne.cpp).
    const double ug = ui[0] * gu[0] + ui[1] * gu[1] + ui[2] * gu[2];
    double* gm = g + 3 * kMarkers * i;
    for (int c = 0; c < 3; ++c) {
      const double quarter = 0.25 * gc[c];
      const double dd = (gu[c] - ug * ui[c]) / lengths[i];
      gm[c] = quarter + dd;
      gm[3 + c] = quarter - dd;
      gm[6 + c] = quarter;
      gm[9 + c] = quarter;
    }
  }

  // Fixed order: each warp's butterfly, then thread 0 adds the warps in order.
  for (int offset = 16; offset > 0; offset >>= 1)
    energy += __shfl_xor_sync(0xffffffffu, energy, offset);
  const int warp = threadIdx.x / 32, warps = blockDim.x / 32;
  if ((threadIdx.x & 31) == 0) warpSums[warp] = energy;
  const bool anyOverlap = __syncthreads_or(overlap) != 0;
  if (threadIdx.x == 0) {
    double total = 0.0;
    for (int w = 0; w < warps; ++w) total += warpSums[w];
    a.d_energy[b] = anyOverlap ? INFINITY : total;
  }
}

}  // namespace

std::size_t batchedGayBerneSharedBytes(int ellipsoids) {
  return (7 * static_cast<std::size_t>(ellipsoids) + kMaxWarps) * sizeof(double);
}

void prepareBatchedGayBerneKernel(std::size_t bytes, int ellipsoids) {
  if (!needsSharedMemoryOptIn(bytes, "batched Gay-Berne potential on cuda",
                              std::to_string(ellipsoids) + " ellipsoids"))
    return;
  LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(
      batchedGayBerneKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

void launchBatchedGayBerne(const BatchedGayBerneArgs& a, cudaStream_t stream) {
  if (a.batch == 0) return;
  if (a.batch > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("launchBatchedGayBerne: at most " + std::to_string(INT_MAX) +
                                " structures per launch, got " + std::to_string(a.batch));
  if (!a.d_x || !a.d_g || !a.d_energy)
    throw std::invalid_argument(
        "launchBatchedGayBerne: coordinates, gradients and energies must be device arrays");
  if (a.ellipsoids < 2 || a.threads < 32 || a.threads > 1024 || a.threads % 32 != 0)
    throw std::invalid_argument("launchBatchedGayBerne: ellipsoids " +
                                std::to_string(a.ellipsoids) + ", threads " +
                                std::to_string(a.threads) + " out of range");
  const std::size_t bytes = batchedGayBerneSharedBytes(a.ellipsoids);
  batchedGayBerneKernel<<<dim3(static_cast<unsigned int>(a.batch)), a.threads, bytes, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
