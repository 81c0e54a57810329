// The batched soft-sticky-dipole kernel and its driver (gpu/BatchedSoftStickyDipoleKernels.cuh
// says how a block divides the work and why its bits do not depend on the batch).
#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedSoftStickyDipoleKernels.cuh"
#include "gpu/BlockShape.h"
#include "gpu/CudaCheck.h"
#include "potentials/SoftStickyDipole.h"

namespace landscape {
namespace {

constexpr int kMaxWarps = 32;
constexpr int kMarkers = static_cast<int>(kSoftStickyDipoleMarkers);
constexpr int kFrameDoubles = 9;

__device__ void loadFrame(const double* frames, int k, SoftStickyDipoleFrame& f) {
  const double* s = frames + kFrameDoubles * k;
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 3; ++c) f.e[a][c] = s[3 * a + c];
}

__global__ void batchedSoftStickyDipoleKernel(BatchedSoftStickyDipoleArgs a) {
  const std::size_t b = blockIdx.x;
  if (a.d_active && !a.d_active[b]) return;
  extern __shared__ double shared[];
  const int n = a.molecules;
  double* centres = shared;                       // 3 n
  double* frames = centres + 3 * n;               // 9 n: ex, ey, ez of each molecule
  double* warpSums = frames + kFrameDoubles * n;  // kMaxWarps

  const double* x = a.d_x + b * static_cast<std::size_t>(3 * kMarkers * n);
  for (int k = threadIdx.x; k < n; k += blockDim.x) {
    double centre[3];
    SoftStickyDipoleFrame f;
    softStickyDipoleFrameOfMarkers(x + 3 * kMarkers * k, centre, f);
    for (int c = 0; c < 3; ++c) centres[3 * k + c] = centre[c];
    for (int e = 0; e < 3; ++e)
      for (int c = 0; c < 3; ++c) frames[kFrameDoubles * k + 3 * e + c] = f.e[e][c];
  }
  __syncthreads();

  double energy = 0.0;
  double* g = a.d_g + b * static_cast<std::size_t>(3 * kMarkers * n);
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    SoftStickyDipoleFrame fi;
    loadFrame(frames, i, fi);
    double gc[3] = {0.0, 0.0, 0.0};
    SoftStickyDipoleFrame ga = {};
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      SoftStickyDipoleFrame fj;
      loadFrame(frames, j, fj);
      // The pair with its lower molecule first, as on the CPU: both molecules' threads evaluate
      // the same bits, so each pair's gradients on i and j come from one evaluation.
      const bool first = i < j;
      const int lo = first ? i : j, hi = first ? j : i;
      const double r[3] = {centres[3 * hi] - centres[3 * lo],
                           centres[3 * hi + 1] - centres[3 * lo + 1],
                           centres[3 * hi + 2] - centres[3 * lo + 2]};
      double dr[3];  // the gradient on the second centre; the first gets -dr
      SoftStickyDipoleFrame glo, ghi;
      const double e =
          softStickyDipolePair(a.constants, r, first ? fi : fj, first ? fj : fi, dr, &glo, &ghi);
      if (first) energy += e;
      const SoftStickyDipoleFrame& own = first ? glo : ghi;
      const double sign = first ? -1.0 : 1.0;
      for (int c = 0; c < 3; ++c) gc[c] += sign * dr[c];
      for (int e2 = 0; e2 < 3; ++e2)
        for (int c = 0; c < 3; ++c) ga.e[e2][c] += own.e[e2][c];
    }
    softStickyDipoleMarkerGradient(x + 3 * kMarkers * i, fi, gc, ga, g + 3 * kMarkers * i);
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

std::size_t batchedSoftStickyDipoleSharedBytes(int molecules) {
  return ((3 + kFrameDoubles) * static_cast<std::size_t>(molecules) + kMaxWarps) * sizeof(double);
}

void prepareBatchedSoftStickyDipoleKernel(std::size_t bytes, int molecules, int threads) {
  cudaFuncAttributes attributes{};
  LANDSCAPE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, batchedSoftStickyDipoleKernel));
  if (threads > attributes.maxThreadsPerBlock)
    throw std::invalid_argument(
        "batched soft-sticky-dipole potential on cuda: " + std::to_string(threads) +
        " threads per structure exceed the kernel's " +
        std::to_string(attributes.maxThreadsPerBlock) + " (its registers per block)");
  if (!needsSharedMemoryOptIn(bytes, "batched soft-sticky-dipole potential on cuda",
                              std::to_string(molecules) + " molecules"))
    return;
  LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(batchedSoftStickyDipoleKernel,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
}

void launchBatchedSoftStickyDipole(const BatchedSoftStickyDipoleArgs& a, cudaStream_t stream) {
  if (a.batch == 0) return;
  if (a.batch > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("launchBatchedSoftStickyDipole: at most " +
                                std::to_string(INT_MAX) + " structures per launch, got " +
                                std::to_string(a.batch));
  if (!a.d_x || !a.d_g || !a.d_energy)
    throw std::invalid_argument(
        "launchBatchedSoftStickyDipole: coordinates, gradients and energies must be device "
        "arrays");
  if (a.molecules < 2 || a.threads < 32 || a.threads > 1024 || a.threads % 32 != 0)
    throw std::invalid_argument("launchBatchedSoftStickyDipole: molecules " +
                                std::to_string(a.molecules) + ", threads " +
                                std::to_string(a.threads) + " out of range");
  const std::size_t bytes = batchedSoftStickyDipoleSharedBytes(a.molecules);
  batchedSoftStickyDipoleKernel<<<dim3(static_cast<unsigned int>(a.batch)), a.threads, bytes,
                                  stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
