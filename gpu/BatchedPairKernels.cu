#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedPairKernels.cuh"
#include "gpu/BlockShape.h"
#include "gpu/CudaCheck.h"

namespace landscape {
namespace {

constexpr int kCoefficientWords = static_cast<int>(sizeof(PairCoefficients) / sizeof(double));
constexpr int kMaxWarps = 32;

/// One partner j of atom i (shared coordinates xs) added to the sums: the loop body of every path.
template <PairLaw kLaw>
__device__ __forceinline__ double addPartner(const BatchedPairArgs& a, const double* xs,
                                             const PairCoefficients& p, double xi, double yi,
                                             double zi, int j, double& e, double& gx, double& gy,
                                             double& gz) {
  double d[3];
  const double r2 =
      pairSeparationDevice(a.box, xi, yi, zi, xs[3 * j], xs[3 * j + 1], xs[3 * j + 2], d);
  const PairTerm t = pairTermDevice<kLaw>(p, r2, a.d_table);
  e += t.energy;
  gx += t.dEdrOverR * d[0];
  gy += t.dEdrOverR * d[1];
  gz += t.dEdrOverR * d[2];
  return r2;
}

template <PairLaw kLaw, bool kList>
__global__ void batchedPairKernel(BatchedPairArgs a) {
  const std::size_t b = blockIdx.x;
  if (a.d_active && !a.d_active[b]) return;
  extern __shared__ double shared[];
  const int n = a.atoms, n3 = 3 * n, species = a.speciesCount;
  PairCoefficients* pairs = reinterpret_cast<PairCoefficients*>(shared);
  double* xs = shared + species * species * kCoefficientWords;
  double* warpSums = xs + n3;
  int* sp = reinterpret_cast<int*>(warpSums + kMaxWarps);

  const double* x = a.d_x + b * static_cast<std::size_t>(n3);
  loadPairCoefficients(pairs, a.d_pairs, species * species);
  for (int k = threadIdx.x; k < n3; k += blockDim.x) xs[k] = x[k];
  for (int k = threadIdx.x; k < n; k += blockDim.x) sp[k] = __ldg(a.d_species + k);
  __syncthreads();

  const int lanes = a.lanesPerAtom;
  const int lane = threadIdx.x & (lanes - 1);
  const int perPass = blockDim.x / lanes;
  // The row's list: rebuilt when an atom moved more than half the skin since its last build.
  bool rebuild = false;
  double* reference = nullptr;
  unsigned short* list = nullptr;
  int* counts = nullptr;
  const std::size_t slots = static_cast<std::size_t>(n) * lanes;
  if (kList) {
    reference = a.d_reference + b * static_cast<std::size_t>(n3);
    list = a.d_list + b * static_cast<std::size_t>(a.listCapacity) * slots;
    counts = a.d_counts + b * slots;
    bool moved = false;
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
      double d[3];
      const double r2 = pairSeparationDevice(a.box, xs[3 * k], xs[3 * k + 1], xs[3 * k + 2],
                                             reference[3 * k], reference[3 * k + 1],
                                             reference[3 * k + 2], d);
      moved |= !(r2 <= a.halfSkin2);  // NaN (a fresh row) counts as moved
    }
    rebuild = __syncthreads_or(moved);  // also: every read of `reference` is done
    if (rebuild) {
      for (int k = threadIdx.x; k < n3; k += blockDim.x) reference[k] = xs[k];
      if (threadIdx.x == 0 && a.d_rebuilds) atomicAdd(a.d_rebuilds, 1ull);
    }
  }
  double* g = a.d_g + b * static_cast<std::size_t>(n3);
  double energy = 0.0;  // the energies of this thread's atoms (lane 0 of each)
  // The pass count is the same for every thread, so whole warps reach the shuffles together.
  for (int first = 0; first < n; first += perPass) {
    const int i = first + static_cast<int>(threadIdx.x) / lanes;
    double e = 0.0, gx = 0.0, gy = 0.0, gz = 0.0;
    if (i < n) {
      const double xi = xs[3 * i], yi = xs[3 * i + 1], zi = xs[3 * i + 2];
      const PairCoefficients* row = pairs + sp[i] * species;
      const std::size_t slot = static_cast<std::size_t>(i) * lanes + lane;
      if (kList && rebuild) {
        // Build this (i, lane)'s list while summing every partner, as the path without a list.
        const double* radius2 = a.d_listRadius2 + sp[i] * species;
        int count = 0;
        for (int j = lane; j < n; j += lanes) {
          if (j == i) continue;
          const double r2 = addPartner<kLaw>(a, xs, row[sp[j]], xi, yi, zi, j, e, gx, gy, gz);
          if (r2 < __ldg(radius2 + sp[j])) {
            if (count < a.listCapacity)
              list[static_cast<std::size_t>(count) * slots + slot] = static_cast<unsigned short>(j);
            ++count;
          }
        }
        counts[slot] = count;
      } else if (kList && counts[slot] <= a.listCapacity) {
        const int count = counts[slot];
        for (int k = 0; k < count; ++k) {
          const int j = list[static_cast<std::size_t>(k) * slots + slot];
          addPartner<kLaw>(a, xs, row[sp[j]], xi, yi, zi, j, e, gx, gy, gz);
        }
      } else {
        for (int j = lane; j < n; j += lanes) {
          if (j == i) continue;
          addPartner<kLaw>(a, xs, row[sp[j]], xi, yi, zi, j, e, gx, gy, gz);
        }
      }
    }
    // A fixed butterfly: every lane of the group ends with the same bits (a + b = b + a).
    for (int offset = lanes / 2; offset > 0; offset >>= 1) {
      e += __shfl_xor_sync(0xffffffffu, e, offset);
      gx += __shfl_xor_sync(0xffffffffu, gx, offset);
      gy += __shfl_xor_sync(0xffffffffu, gy, offset);
      gz += __shfl_xor_sync(0xffffffffu, gz, offset);
    }
    if (lane == 0 && i < n) {
      g[3 * i] = gx;
      g[3 * i + 1] = gy;
      g[3 * i + 2] = gz;
      energy += e;
    }
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
    a.d_energy[b] = 0.5 * total;  // every pair was counted by both of its atoms
  }
}

template <PairLaw kLaw>
void setSharedLimit(int bytes) {
  LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(batchedPairKernel<kLaw, false>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(batchedPairKernel<kLaw, true>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

template <PairLaw kLaw>
void launchLaw(const BatchedPairArgs& a, const dim3& grid, std::size_t bytes,
               cudaStream_t stream) {
  if (a.d_list)
    batchedPairKernel<kLaw, true><<<grid, a.threads, bytes, stream>>>(a);
  else
    batchedPairKernel<kLaw, false><<<grid, a.threads, bytes, stream>>>(a);
}

}  // namespace

std::size_t batchedPairSharedBytes(int atoms, int speciesCount, int threads) {
  (void)threads;  // the warp sums take kMaxWarps slots whatever the block size
  return static_cast<std::size_t>(speciesCount) * speciesCount * sizeof(PairCoefficients) +
         (3 * static_cast<std::size_t>(atoms) + kMaxWarps) * sizeof(double) +
         static_cast<std::size_t>(atoms) * sizeof(int);
}

int batchedPairLanesPerAtom(int atoms, int threads) {
  int best = 1;
  long long bestRounds = LLONG_MAX;
  for (int lanes = 1; lanes <= 32 && lanes <= threads; lanes *= 2) {
    const long long perPass = threads / lanes;
    const long long passes = (atoms + perPass - 1) / perPass;
    const long long partners = (atoms + lanes - 1) / lanes;
    if (passes * partners < bestRounds) {
      bestRounds = passes * partners;
      best = lanes;
    }
  }
  return best;
}

void prepareBatchedPairKernels(std::size_t bytes, int atoms) {
  if (!needsSharedMemoryOptIn(bytes, "batched pair potential on cuda",
                              std::to_string(atoms) + " atoms",
                              " (gpu/PairPotentialCuda evaluates one large structure)"))
    return;
  setSharedLimit<PairLaw::LennardJones>(static_cast<int>(bytes));
  setSharedLimit<PairLaw::Morse>(static_cast<int>(bytes));
  setSharedLimit<PairLaw::Tabulated>(static_cast<int>(bytes));
}

void launchBatchedPair(const BatchedPairArgs& a, cudaStream_t stream) {
  if (a.batch == 0) return;
  if (a.batch > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("launchBatchedPair: at most " + std::to_string(INT_MAX) +
                                " structures per launch, got " + std::to_string(a.batch));
  if (!a.d_x || !a.d_g || !a.d_energy || !a.d_pairs || !a.d_species)
    throw std::invalid_argument("launchBatchedPair: coordinates, gradients, energies, pair "
                                "constants and species must be device arrays");
  if (a.law == PairLaw::Tabulated && !a.d_table)
    throw std::invalid_argument("launchBatchedPair: a tabulated law needs its table");
  if (a.atoms < 2 || a.threads < 32 || a.threads > 1024 || a.threads % 32 != 0 ||
      a.lanesPerAtom < 1 || a.lanesPerAtom > 32 || (a.lanesPerAtom & (a.lanesPerAtom - 1)) != 0)
    throw std::invalid_argument("launchBatchedPair: atoms " + std::to_string(a.atoms) +
                                ", threads " + std::to_string(a.threads) + ", lanes per atom " +
                                std::to_string(a.lanesPerAtom) + " out of range");
  if (a.d_list && (!a.d_listRadius2 || !a.d_reference || !a.d_counts || a.listCapacity < 0 ||
                   a.atoms > 65536 || !(a.halfSkin2 > 0.0)))
    throw std::invalid_argument("launchBatchedPair: a Verlet list needs its radii, reference "
                                "positions and counts, a positive skin, at most 65,536 atoms");
  const std::size_t bytes = batchedPairSharedBytes(a.atoms, a.speciesCount, a.threads);
  const dim3 grid(static_cast<unsigned int>(a.batch));
  switch (a.law) {
    case PairLaw::LennardJones:
      launchLaw<PairLaw::LennardJones>(a, grid, bytes, stream);
      break;
    case PairLaw::Morse:
      launchLaw<PairLaw::Morse>(a, grid, bytes, stream);
      break;
    case PairLaw::Tabulated:
      launchLaw<PairLaw::Tabulated>(a, grid, bytes, stream);
      break;
  }
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
