#include <climits>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/PairKernels.cuh"

namespace landscape {
namespace {

using BlockReduce = cub::BlockReduce<double, kPairBlock>;
constexpr unsigned long long kSignBit = 0x8000000000000000ull;

/// A key whose unsigned order is the order of the doubles (finite ones).
__device__ __forceinline__ unsigned long long orderedKey(double v) {
  const unsigned long long b = static_cast<unsigned long long>(__double_as_longlong(v));
  return (b & kSignBit) ? ~b : (b | kSignBit);
}
__device__ __forceinline__ double fromOrderedKey(unsigned long long k) {
  const unsigned long long b = (k & kSignBit) ? (k & ~kSignBit) : ~k;
  return __longlong_as_double(static_cast<long long>(b));
}

struct MinKey {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    return a < b ? a : b;
  }
};
struct MaxKey {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    return a > b ? a : b;
  }
};

__device__ __forceinline__ PairPosition loadPosition(const PairPosition* p, int s) {
  const double2* q = reinterpret_cast<const double2*>(p + s);
  const double2 a = __ldg(q), b = __ldg(q + 1);
  return {a.x, a.y, b.x, b.y};
}

/// The block's sum (valid in thread 0) into the per-block array; the last block to finish adds
/// the blocks' sums in block order and publishes the energy and the displacement flag.
__device__ void finishEnergy(double blockSum, BlockReduce::TempStorage& storage,
                             const PairEnergyScratch& scratch, int* d_moved) {
  __shared__ bool isLastBlock;
  if (threadIdx.x == 0) {
    scratch.d_blockEnergy[blockIdx.x] = blockSum;
    __threadfence();
    const unsigned int finished = atomicAdd(scratch.d_blocksDone, 1u);
    isLastBlock = (finished == gridDim.x - 1);
  }
  __syncthreads();
  if (!isLastBlock) return;
  double partial = 0.0;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += kPairBlock)
    partial += __ldcg(&scratch.d_blockEnergy[b]);
  __syncthreads();  // the reduction's storage is reused
  const double total = BlockReduce(storage).Sum(partial);
  if (threadIdx.x == 0) {
    scratch.d_out->energy = 0.5 * total;  // every pair was counted by both of its atoms
    scratch.d_out->moved = d_moved ? __ldcg(d_moved) : 0;
    if (d_moved) *d_moved = 0;
    *scratch.d_blocksDone = 0u;  // ready for the next launch (stream order)
  }
}

// ---- all pairs ------------------------------------------------------------------------------

template <PairLaw kLaw>
__global__ void __launch_bounds__(kPairBlock)
    pairAllPairsKernel(PairModelView m, const double* d_x, double* d_g, double* d_atomEnergy,
                       PairEnergyScratch scratch) {
  extern __shared__ double sharedWords[];
  PairCoefficients* pairs = reinterpret_cast<PairCoefficients*>(sharedWords);
  __shared__ double tileX[kPairBlock], tileY[kPairBlock], tileZ[kPairBlock];
  __shared__ int tileS[kPairBlock];
  __shared__ BlockReduce::TempStorage reduceStorage;
  loadPairCoefficients(pairs, m.d_pairs, m.speciesCount * m.speciesCount);

  const int n = m.atoms;
  const int i = blockIdx.x * kPairBlock + threadIdx.x;
  const bool mine = i < n;
  double xi = 0.0, yi = 0.0, zi = 0.0;
  int si = 0;
  if (mine) {
    xi = d_x[3 * i];
    yi = d_x[3 * i + 1];
    zi = d_x[3 * i + 2];
    si = __ldg(m.d_species + i);
  }
  double e = 0.0, gx = 0.0, gy = 0.0, gz = 0.0;
  for (int start = 0; start < n; start += kPairBlock) {
    __syncthreads();  // the coefficients are in (first pass); the tile is free (later passes)
    const int load = start + threadIdx.x;
    if (load < n) {
      tileX[threadIdx.x] = d_x[3 * load];
      tileY[threadIdx.x] = d_x[3 * load + 1];
      tileZ[threadIdx.x] = d_x[3 * load + 2];
      tileS[threadIdx.x] = __ldg(m.d_species + load);
    }
    __syncthreads();
    const int count = min(kPairBlock, n - start);
    if (mine) {
      const PairCoefficients* row = pairs + si * m.speciesCount;
      for (int k = 0; k < count; ++k) {
        if (start + k == i) continue;
        double d[3];
        const double r2 =
            pairSeparationDevice(m.box, xi, yi, zi, tileX[k], tileY[k], tileZ[k], d);
        const PairTerm t = pairTermDevice<kLaw>(row[tileS[k]], r2, m.d_table);
        e += t.energy;
        gx += t.dEdrOverR * d[0];
        gy += t.dEdrOverR * d[1];
        gz += t.dEdrOverR * d[2];
      }
    }
  }
  if (mine) {
    d_g[3 * i] = gx;
    d_g[3 * i + 1] = gy;
    d_g[3 * i + 2] = gz;
    d_atomEnergy[i] = e;
  }
  const double blockSum = BlockReduce(reduceStorage).Sum(e);  // others add 0.0
  finishEnergy(blockSum, reduceStorage, scratch, nullptr);
}

// ---- the list's build -----------------------------------------------------------------------

__global__ void __launch_bounds__(kPairBlock)
    pairBoundsKernel(const double* d_x, int n, unsigned long long* d_bounds) {
  using KeyReduce = cub::BlockReduce<unsigned long long, kPairBlock>;
  __shared__ typename KeyReduce::TempStorage storage;
  const int i = blockIdx.x * kPairBlock + threadIdx.x;
  for (int k = 0; k < 3; ++k) {
    unsigned long long lo = ~0ull, hi = 0ull;
    if (i < n) {
      const double v = d_x[3 * i + k];
      if (isfinite(v)) lo = hi = orderedKey(v);  // a lost atom does not stretch the grid
    }
    const unsigned long long blockLo = KeyReduce(storage).Reduce(lo, MinKey());
    __syncthreads();
    const unsigned long long blockHi = KeyReduce(storage).Reduce(hi, MaxKey());
    __syncthreads();
    if (threadIdx.x == 0) {
      atomicMin(d_bounds + k, blockLo);
      atomicMax(d_bounds + 3 + k, blockHi);
    }
  }
}

__global__ void pairGridKernel(PairDeviceBox box, const unsigned long long* d_bounds,
                               double cellWidth, int maxCells, PairCellGrid* d_grid) {
  double lo[3], extent[3];
  bool periodic[3];
  for (int k = 0; k < 3; ++k) {
    periodic[k] = box.length[k] > 0.0;
    if (periodic[k]) {
      lo[k] = 0.0;
      extent[k] = box.length[k];
    } else {
      lo[k] = fromOrderedKey(d_bounds[k]);
      const double hi = fromOrderedKey(d_bounds[3 + k]);
      extent[k] = hi - lo[k];
      if (!(extent[k] >= 0.0) || !isfinite(extent[k]) || !isfinite(lo[k])) {
        lo[k] = 0.0;  // no finite coordinate, or a span beyond doubles: one cell
        extent[k] = 0.0;
      }
    }
  }
  double width = cellWidth;
  int cells[3];
  for (;;) {
    long long total = 1;
    for (int k = 0; k < 3; ++k) {
      const double fit = floor(extent[k] / width);
      cells[k] = fit < 1.0 ? 1 : fit > maxCells ? maxCells + 1 : static_cast<int>(fit);
      if (periodic[k] && cells[k] < 3) cells[k] = 1;  // no cell may be its own neighbour twice
      total *= cells[k];
    }
    if (total <= maxCells) break;
    width *= 1.25;  // wider cells until the grid fits
  }
  PairCellGrid g;
  g.total = cells[0] * cells[1] * cells[2];
  for (int k = 0; k < 3; ++k) {
    g.cells[k] = cells[k];
    g.origin[k] = lo[k];
    const double w = cells[k] > 1 ? extent[k] / cells[k] : (extent[k] > width ? extent[k] : width);
    g.inverseWidth[k] = 1.0 / w;
  }
  *d_grid = g;
}

__device__ __forceinline__ int cellAlong(double x, const PairDeviceBox& box,
                                         const PairCellGrid& g, int k) {
  if (box.length[k] > 0.0) x -= box.length[k] * floor(x * box.inverse[k]);  // into [0, L)
  const double f = (x - g.origin[k]) * g.inverseWidth[k];
  if (!(f >= 0.0)) return 0;  // also NaN
  if (f >= g.cells[k]) return g.cells[k] - 1;
  return min(static_cast<int>(f), g.cells[k] - 1);
}

__global__ void __launch_bounds__(kPairBlock)
    pairCellKeysKernel(const double* d_x, int n, PairDeviceBox box, const PairCellGrid* d_grid,
                       unsigned int* d_keys) {
  const int i = blockIdx.x * kPairBlock + threadIdx.x;
  if (i >= n) return;
  const PairCellGrid g = *d_grid;
  const int cx = cellAlong(d_x[3 * i], box, g, 0);
  const int cy = cellAlong(d_x[3 * i + 1], box, g, 1);
  const int cz = cellAlong(d_x[3 * i + 2], box, g, 2);
  d_keys[i] = static_cast<unsigned int>((cz * g.cells[1] + cy) * g.cells[0] + cx);
}

__global__ void __launch_bounds__(kPairBlock)
    pairCellRangesKernel(const unsigned int* d_keysSorted, int n, int* d_cellStart,
                         int* d_cellEnd) {
  const int s = blockIdx.x * kPairBlock + threadIdx.x;
  if (s >= n) return;
  const unsigned int c = d_keysSorted[s];
  if (s == 0 || d_keysSorted[s - 1] != c) d_cellStart[c] = s;
  if (s == n - 1 || d_keysSorted[s + 1] != c) d_cellEnd[c] = s + 1;
}

__global__ void __launch_bounds__(kPairBlock)
    pairGatherKernel(const double* d_x, const int* d_order, const int* d_species, int n,
                     PairPosition* d_reference, int* d_slotSpecies) {
  const int s = blockIdx.x * kPairBlock + threadIdx.x;
  if (s >= n) return;
  const int i = d_order[s];
  d_reference[s] = {d_x[3 * i], d_x[3 * i + 1], d_x[3 * i + 2], 0.0};
  d_slotSpecies[s] = d_species[i];
}

__global__ void __launch_bounds__(kPairBlock)
    pairNeighbourKernel(PairModelView m, PairListView l) {
  const int n = m.atoms;
  const int s = blockIdx.x * kPairBlock + threadIdx.x;
  if (s >= n) return;
  const PairCellGrid g = *l.d_grid;
  const PairPosition p = loadPosition(l.d_reference, s);
  const int si = l.d_slotSpecies[s];
  const double* radius2 = l.d_listRadius2 + si * m.speciesCount;
  const unsigned int key = l.d_keysSorted[s];
  const int cell[3] = {static_cast<int>(key % g.cells[0]),
                       static_cast<int>((key / g.cells[0]) % g.cells[1]),
                       static_cast<int>(key / (g.cells[0] * g.cells[1]))};
  int count = 0;
  for (int dz = -1; dz <= 1; ++dz) {
    int c[3];
    c[2] = cell[2] + dz;
    if (m.box.length[2] > 0.0) {
      if (g.cells[2] == 1 && dz != 0) continue;
      c[2] = (c[2] + g.cells[2]) % g.cells[2];
    } else if (c[2] < 0 || c[2] >= g.cells[2]) {
      continue;
    }
    for (int dy = -1; dy <= 1; ++dy) {
      c[1] = cell[1] + dy;
      if (m.box.length[1] > 0.0) {
        if (g.cells[1] == 1 && dy != 0) continue;
        c[1] = (c[1] + g.cells[1]) % g.cells[1];
      } else if (c[1] < 0 || c[1] >= g.cells[1]) {
        continue;
      }
      for (int dx = -1; dx <= 1; ++dx) {
        c[0] = cell[0] + dx;
        if (m.box.length[0] > 0.0) {
          if (g.cells[0] == 1 && dx != 0) continue;
          c[0] = (c[0] + g.cells[0]) % g.cells[0];
        } else if (c[0] < 0 || c[0] >= g.cells[0]) {
          continue;
        }
        const int other = (c[2] * g.cells[1] + c[1]) * g.cells[0] + c[0];
        const int end = l.d_cellEnd[other];
        for (int t = l.d_cellStart[other]; t < end; ++t) {
          if (t == s) continue;
          const PairPosition q = loadPosition(l.d_reference, t);
          double d[3];
          const double r2 = pairSeparationDevice(m.box, p.x, p.y, p.z, q.x, q.y, q.z, d);
          const int st = l.d_slotSpecies[t];
          if (r2 < radius2[st]) {
            if (count < l.capacity)
              l.d_list[static_cast<std::size_t>(count) * n + s] =
                  (static_cast<unsigned int>(t) << 4) | static_cast<unsigned int>(st);
            ++count;
          }
        }
      }
    }
  }
  l.d_counts[s] = count;
  atomicMax(l.d_maxCount, count);
}

// ---- an evaluation over the list ------------------------------------------------------------

__global__ void __launch_bounds__(kPairBlock)
    pairSlotPositionsKernel(const double* d_x, PairListView l, PairDeviceBox box, int n) {
  const int s = blockIdx.x * kPairBlock + threadIdx.x;
  bool moved = false;
  if (s < n) {
    const int i = l.d_order[s];
    const PairPosition p = {d_x[3 * i], d_x[3 * i + 1], d_x[3 * i + 2], 0.0};
    l.d_positions[s] = p;
    const PairPosition r = loadPosition(l.d_reference, s);
    double d[3];
    const double half = 0.5 * l.skin;
    // NaN counts as moved: the list is rebuilt and the NaN reaches the energy either way.
    moved = !(pairSeparationDevice(box, p.x, p.y, p.z, r.x, r.y, r.z, d) <= half * half);
  }
  if (__syncthreads_or(moved) && threadIdx.x == 0) atomicOr(l.d_moved, 1);
}

template <PairLaw kLaw>
__global__ void __launch_bounds__(kPairBlock)
    pairListEvaluateKernel(PairModelView m, PairListView l, double* d_g, double* d_slotEnergy,
                           PairEnergyScratch scratch) {
  extern __shared__ double sharedWords[];
  PairCoefficients* pairs = reinterpret_cast<PairCoefficients*>(sharedWords);
  __shared__ BlockReduce::TempStorage reduceStorage;
  loadPairCoefficients(pairs, m.d_pairs, m.speciesCount * m.speciesCount);
  __syncthreads();

  const int n = m.atoms, lanes = l.lanesPerAtom;
  const int thread = blockIdx.x * kPairBlock + threadIdx.x;
  const int s = thread / lanes, lane = thread & (lanes - 1);
  double e = 0.0, gx = 0.0, gy = 0.0, gz = 0.0;
  if (s < n) {
    const PairPosition p = loadPosition(l.d_positions, s);
    const PairCoefficients* row = pairs + l.d_slotSpecies[s] * m.speciesCount;
    const int count = l.d_counts[s];
    const unsigned int* entry = l.d_list + s;
    // Not unrolled: unrolling by 2, 4 or 8 keeps more loads of one thread in flight but costs
    // registers and so resident warps; measured on an H200 (docs/benchmarks.md, "Pair
    // potentials on the GPU") the plain loop is 4% faster at 64,000 atoms and 9% at 10^6.
#pragma unroll 1
    for (int k = lane; k < count; k += lanes) {
      const unsigned int word = __ldg(entry + static_cast<std::size_t>(k) * n);
      const PairPosition q = loadPosition(l.d_positions, static_cast<int>(word >> 4));
      double d[3];
      const double r2 = pairSeparationDevice(m.box, p.x, p.y, p.z, q.x, q.y, q.z, d);
      const PairTerm t = pairTermDevice<kLaw>(row[word & 15u], r2, m.d_table);
      e += t.energy;
      gx += t.dEdrOverR * d[0];
      gy += t.dEdrOverR * d[1];
      gz += t.dEdrOverR * d[2];
    }
  }
  // The lanes of an atom are consecutive lanes of one warp, and every thread of the warp gets
  // here: a fixed butterfly gives them all the same sums (a + b = b + a).
  for (int offset = lanes / 2; offset > 0; offset >>= 1) {
    e += __shfl_xor_sync(0xffffffffu, e, offset);
    gx += __shfl_xor_sync(0xffffffffu, gx, offset);
    gy += __shfl_xor_sync(0xffffffffu, gy, offset);
    gz += __shfl_xor_sync(0xffffffffu, gz, offset);
  }
  if (lane != 0 || s >= n) {
    e = 0.0;  // the atom's energy counts once, from lane 0
  } else {
    const int i = l.d_order[s];
    d_g[3 * i] = gx;
    d_g[3 * i + 1] = gy;
    d_g[3 * i + 2] = gz;
    d_slotEnergy[s] = e;
  }
  const double blockSum = BlockReduce(reduceStorage).Sum(e);
  finishEnergy(blockSum, reduceStorage, scratch, l.d_moved);
}

unsigned int blocksFor(int n) { return static_cast<unsigned int>((n + kPairBlock - 1) / kPairBlock); }

std::size_t coefficientBytes(const PairModelView& m) {
  return static_cast<std::size_t>(m.speciesCount) * m.speciesCount * sizeof(PairCoefficients);
}

void requireModel(const PairModelView& m, const char* where) {
  if (m.atoms < 2 || !m.d_pairs || !m.d_species || !m.d_table)
    throw std::invalid_argument(std::string(where) +
                                ": the model needs at least 2 atoms and its device constants");
}

}  // namespace

int pairBlockCount(int atoms) { return static_cast<int>(blocksFor(atoms)); }

int pairListBlockCount(int atoms, int lanesPerAtom) {
  return static_cast<int>(blocksFor(atoms * lanesPerAtom));
}

std::size_t pairSortScratchBytes(int atoms, int bits) {
  std::size_t bytes = 0;
  LANDSCAPE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, bytes, static_cast<const unsigned int*>(nullptr), static_cast<unsigned int*>(nullptr),
      static_cast<const int*>(nullptr), static_cast<int*>(nullptr), atoms, 0, bits));
  return bytes;
}

void launchPairAllPairs(const PairModelView& m, const double* d_x, double* d_g,
                        double* d_atomEnergy, const PairEnergyScratch& scratch,
                        cudaStream_t stream) {
  requireModel(m, "launchPairAllPairs");
  if (!d_x || !d_g || !d_atomEnergy || !scratch.d_blockEnergy || !scratch.d_blocksDone ||
      !scratch.d_out)
    throw std::invalid_argument("launchPairAllPairs: every device array must be set");
  const unsigned int blocks = blocksFor(m.atoms);
  const std::size_t bytes = coefficientBytes(m);
  switch (m.law) {
    case PairLaw::LennardJones:
      pairAllPairsKernel<PairLaw::LennardJones>
          <<<blocks, kPairBlock, bytes, stream>>>(m, d_x, d_g, d_atomEnergy, scratch);
      break;
    case PairLaw::Morse:
      pairAllPairsKernel<PairLaw::Morse>
          <<<blocks, kPairBlock, bytes, stream>>>(m, d_x, d_g, d_atomEnergy, scratch);
      break;
    case PairLaw::Tabulated:
      pairAllPairsKernel<PairLaw::Tabulated>
          <<<blocks, kPairBlock, bytes, stream>>>(m, d_x, d_g, d_atomEnergy, scratch);
      break;
  }
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchPairListNeighbours(const PairModelView& m, const PairListView& l,
                              cudaStream_t stream) {
  requireModel(m, "launchPairListNeighbours");
  LANDSCAPE_CUDA_CHECK(cudaMemsetAsync(l.d_maxCount, 0, sizeof(int), stream));
  pairNeighbourKernel<<<blocksFor(m.atoms), kPairBlock, 0, stream>>>(m, l);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchPairListBuild(const PairModelView& m, const PairListView& l, const double* d_x,
                         cudaStream_t stream) {
  requireModel(m, "launchPairListBuild");
  if (!d_x) throw std::invalid_argument("launchPairListBuild: d_x must be a device array");
  const int n = m.atoms;
  const unsigned int blocks = blocksFor(n);
  if (!(m.box.length[0] > 0.0 && m.box.length[1] > 0.0 && m.box.length[2] > 0.0)) {
    LANDSCAPE_CUDA_CHECK(cudaMemsetAsync(l.d_bounds, 0xff, 3 * sizeof(unsigned long long), stream));
    LANDSCAPE_CUDA_CHECK(cudaMemsetAsync(l.d_bounds + 3, 0, 3 * sizeof(unsigned long long), stream));
    pairBoundsKernel<<<blocks, kPairBlock, 0, stream>>>(d_x, n, l.d_bounds);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  }
  pairGridKernel<<<1, 1, 0, stream>>>(m.box, l.d_bounds, l.cellWidth, l.maxCells, l.d_grid);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  unsigned int* keys = l.d_keys;
  unsigned int* keysSorted = l.d_keysSorted;
  pairCellKeysKernel<<<blocks, kPairBlock, 0, stream>>>(d_x, n, m.box, l.d_grid, keys);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  std::size_t scratchBytes = l.sortScratchBytes;
  LANDSCAPE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(l.d_sortScratch, scratchBytes, keys,
                                                       keysSorted, l.d_indices, l.d_order, n, 0,
                                                       l.sortBits, stream));
  LANDSCAPE_CUDA_CHECK(cudaMemsetAsync(l.d_cellStart, 0, sizeof(int) * l.maxCells, stream));
  LANDSCAPE_CUDA_CHECK(cudaMemsetAsync(l.d_cellEnd, 0, sizeof(int) * l.maxCells, stream));
  pairCellRangesKernel<<<blocks, kPairBlock, 0, stream>>>(keysSorted, n, l.d_cellStart,
                                                           l.d_cellEnd);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  pairGatherKernel<<<blocks, kPairBlock, 0, stream>>>(d_x, l.d_order, m.d_species, n,
                                                       l.d_reference, l.d_slotSpecies);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  launchPairListNeighbours(m, l, stream);
}

void launchPairListEvaluate(const PairModelView& m, const PairListView& l, const double* d_x,
                            double* d_g, double* d_slotEnergy, const PairEnergyScratch& scratch,
                            cudaStream_t stream) {
  requireModel(m, "launchPairListEvaluate");
  if (!d_x || !d_g || !d_slotEnergy || !scratch.d_blockEnergy || !scratch.d_blocksDone ||
      !scratch.d_out)
    throw std::invalid_argument("launchPairListEvaluate: every device array must be set");
  if (l.lanesPerAtom < 1 || l.lanesPerAtom > 32 || (l.lanesPerAtom & (l.lanesPerAtom - 1)) != 0)
    throw std::invalid_argument("launchPairListEvaluate: lanes per atom must be a power of two "
                                "up to 32, got " + std::to_string(l.lanesPerAtom));
  pairSlotPositionsKernel<<<blocksFor(m.atoms), kPairBlock, 0, stream>>>(d_x, l, m.box, m.atoms);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  const unsigned int blocks = blocksFor(m.atoms * l.lanesPerAtom);
  const std::size_t bytes = coefficientBytes(m);
  switch (m.law) {
    case PairLaw::LennardJones:
      pairListEvaluateKernel<PairLaw::LennardJones>
          <<<blocks, kPairBlock, bytes, stream>>>(m, l, d_g, d_slotEnergy, scratch);
      break;
    case PairLaw::Morse:
      pairListEvaluateKernel<PairLaw::Morse>
          <<<blocks, kPairBlock, bytes, stream>>>(m, l, d_g, d_slotEnergy, scratch);
      break;
    case PairLaw::Tabulated:
      pairListEvaluateKernel<PairLaw::Tabulated>
          <<<blocks, kPairBlock, bytes, stream>>>(m, l, d_g, d_slotEnergy, scratch);
      break;
  }
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
