#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedSiteKernels.cuh"
#include "gpu/BlockShape.h"
#include "gpu/CudaCheck.h"
#include "potentials/SiteTerms.h"

namespace landscape {
namespace {

constexpr int kMaxWarps = 32;

// SiteTerms.h's sitePairCombined with r^-1 from the device's FP64 reciprocal square root (1 ulp,
// CUDA Math API) and r^-2 = r^-1 r^-1, instead of a division and a square root, each a software
// sequence several times longer on the GPU: most of a site pair's instructions. Equal to the CPU
// terms to a few ulps per pair (the tests' 1e-10 of |E| is many orders above).
__device__ __forceinline__ SitePairTerm sitePairOnDevice(double r2, double c6, double c12,
                                                         double kqq) {
  const double ir = rsqrt(r2);
  const double ir2 = ir * ir;
  const double ir6 = ir2 * ir2 * ir2;
  const double lj12 = c12 * ir6 * ir6, lj6 = c6 * ir6;
  const double coul = kqq * ir;
  return {lj12 - lj6 + coul, coul, (-12.0 * lj12 + 6.0 * lj6 - coul) * ir2};
}

// One chunk's pair sums in list order: the gradient on its site into g, the energy of the pairs
// whose partner is the higher site added to energy (the thread's running sum, as before chunks
// were split by kind). kLennardJones = false drops the r^-6 and r^-12 terms,
// for chunks whose pairs all have c6 = c12 = 0: the terms it drops are exact zeros (0 x a finite
// power of r^-1) in sitePairOnDevice, so the sums are the same bits; only for r below 1e-25
// (r^-12 overflowing to infinity, 0 x inf = NaN) would the two differ.
template <bool kLennardJones>
__device__ __forceinline__ void chunkSums(const BatchedSiteArgs& a, const SiteChunk& chunk,
                                          const double* xs, const double* cs, double& energy,
                                          double g[3]) {
  const int n = a.sites, i = chunk.site;
  const double xi = xs[3 * i], yi = xs[3 * i + 1], zi = xs[3 * i + 2];
  double gx = 0.0, gy = 0.0, gz = 0.0;
  for (int k = chunk.begin; k < chunk.end; ++k) {
    const SitePartner p = a.d_entries[static_cast<std::size_t>(k) * n + i];
    const int j = p.site;
    const double dx = xi - xs[3 * j], dy = yi - xs[3 * j + 1], dz = zi - xs[3 * j + 2];
    const double* c = cs + 3 * p.kind;
    const double r2 = dx * dx + dy * dy + dz * dz;
    double pairEnergy, dEdrOverR;
    if constexpr (kLennardJones) {
      const SitePairTerm term = sitePairOnDevice(r2, c[0], c[1], c[2]);
      pairEnergy = term.energy;
      dEdrOverR = term.dEdrOverR;
    } else {
      const double ir = rsqrt(r2);
      pairEnergy = c[2] * ir;
      dEdrOverR = -pairEnergy * (ir * ir);
    }
    if (j > i) energy += pairEnergy;
    gx += dEdrOverR * dx;
    gy += dEdrOverR * dy;
    gz += dEdrOverR * dz;
  }
  g[0] = gx;
  g[1] = gy;
  g[2] = gz;
}

__global__ void batchedSiteKernel(BatchedSiteArgs a) {
  const std::size_t b = blockIdx.x;
  if (a.d_active && !a.d_active[b]) return;
  extern __shared__ double shared[];
  const int n = a.sites, n3 = 3 * n;
  double* xs = shared;
  double* cs = xs + n3;  // c6, c12, kqq of each kind
  double* warpSums = cs + 3 * a.kinds;
  double* partial = warpSums + kMaxWarps;  // 3 per chunk

  const double* x = a.d_x + b * static_cast<std::size_t>(n3);
  for (int k = threadIdx.x; k < n3; k += blockDim.x) xs[k] = x[k];
  for (int k = threadIdx.x; k < a.kinds; k += blockDim.x) {
    const SitePairCoefficients c = a.d_coefficients[k];
    cs[3 * k] = c.c6;
    cs[3 * k + 1] = c.c12;
    cs[3 * k + 2] = c.kqq;
  }
  __syncthreads();

  // The chunks in warp-wide steps, so that a warp whose chunks are all Coulomb-only (TIP4P: the
  // continuation chunks of the H and M sites, 4 of (H2O)20's 7 warps) takes the short pair law.
  double energy = 0.0;
  const int lane = threadIdx.x & 31;
  for (int base = threadIdx.x - lane; base < a.chunks; base += blockDim.x) {
    const int t = base + lane;
    SiteChunk chunk;  // empty past the last chunk
    chunk.coulombOnly = 1;
    if (t < a.chunks) chunk = a.d_chunks[t];
    double gradient[3];
    if (__all_sync(0xffffffffu, chunk.coulombOnly != 0))
      chunkSums<false>(a, chunk, xs, cs, energy, gradient);
    else
      chunkSums<true>(a, chunk, xs, cs, energy, gradient);
    if (t < a.chunks)
      for (int d = 0; d < 3; ++d) partial[3 * t + d] = gradient[d];
  }
  __syncthreads();

  // Site i: its chunks' sums in chunk order (chunk i is its first).
  double* g = a.d_g + b * static_cast<std::size_t>(n3);
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    double gx = partial[3 * i], gy = partial[3 * i + 1], gz = partial[3 * i + 2];
    for (int c = 1; c < a.chunksPerSite; ++c) {
      const int chunk = a.d_chunkOf[c * n + i];
      if (chunk < 0) break;
      gx += partial[3 * chunk];
      gy += partial[3 * chunk + 1];
      gz += partial[3 * chunk + 2];
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

std::size_t batchedSiteSharedBytes(int sites, int kinds, int chunks) {
  return (3 * static_cast<std::size_t>(sites) + 3 * static_cast<std::size_t>(kinds) + kMaxWarps +
          3 * static_cast<std::size_t>(chunks)) *
         sizeof(double);
}

int batchedSiteThreads(int chunks) { return warpsCovering(chunks); }

void prepareBatchedSiteKernel(std::size_t bytes, int sites) {
  if (!needsSharedMemoryOptIn(bytes, "batched site potential on cuda",
                              std::to_string(sites) + " sites"))
    return;
  LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(
      batchedSiteKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

void launchBatchedSites(const BatchedSiteArgs& a, cudaStream_t stream) {
  if (a.batch == 0) return;
  if (a.batch > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("launchBatchedSites: at most " + std::to_string(INT_MAX) +
                                " structures per launch, got " + std::to_string(a.batch));
  if (!a.d_x || !a.d_g || !a.d_energy)
    throw std::invalid_argument(
        "launchBatchedSites: coordinates, gradients and energies must be device arrays");
  if (!a.d_chunks || !a.d_chunkOf || (a.kinds > 0 && (!a.d_entries || !a.d_coefficients)))
    throw std::invalid_argument("launchBatchedSites: the partner table is not on the device");
  if (a.sites < 2 || a.kinds < 0 || a.chunks < a.sites || a.chunksPerSite < 1 || a.threads < 32 ||
      a.threads > 1024 || a.threads % 32 != 0)
    throw std::invalid_argument("launchBatchedSites: sites " + std::to_string(a.sites) +
                                ", kinds " + std::to_string(a.kinds) + ", threads " +
                                std::to_string(a.threads) + " out of range");
  const std::size_t bytes = batchedSiteSharedBytes(a.sites, a.kinds, a.chunks);
  batchedSiteKernel<<<dim3(static_cast<unsigned int>(a.batch)), a.threads, bytes, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
