#include <cooperative_groups.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/ProgrammaticLaunch.cuh"
#include "gpu/SopDevice.cuh"
#include "gpu/SopKernels.cuh"

namespace landscape {
namespace {

template <class R>
struct MinOp {
  __device__ __forceinline__ R operator()(R a, R b) const { return b < a ? b : a; }
};
template <class R>
struct MaxOp {
  __device__ __forceinline__ R operator()(R a, R b) const { return b > a ? b : a; }
};

template <class R>
__device__ __forceinline__ bool finite3(const SopPos4<R>& p) {
  return isfinite(p.x) && isfinite(p.y) && isfinite(p.z);
}

// ---- cell list: one block per replica ----------------------------------------------------------

/// Cells whose counters the cell-list kernel keeps in shared memory (32 KB); the compact variant
/// (SopCellArgs::compact: many small structures) has kSopCompactCellBlock threads and 4 KB.
constexpr int kSopSharedCells = 8192;
constexpr int kSopCompactCellBlock = 128;
constexpr int kSopCompactSharedCells = 1024;

template <class R, int kBlock, int kSharedCells>
__global__ void __launch_bounds__(kBlock) sopCellsKernel(SopCellArgs<R> a) {
  const int r = blockIdx.x;
  if (a.d_active != nullptr && a.d_active[r] == 0) return;  // a finished structure (batched)
  if (threadIdx.x == 0 && a.d_clearFlag != nullptr) a.d_clearFlag[r] = 0;
  if (a.conditional && a.d_rebuildFlag[r] == 0) return;  // uniform over the block
  const SopListView<R>& list = a.list;
  if (threadIdx.x == 0) atomicAdd(&list.d_status[2], 1);  // rebuild counter
  const int n = a.beads;
  const SopPos4<R>* pos = a.d_pos + static_cast<std::size_t>(r) * n;

  using BlockReduce = cub::BlockReduce<R, kBlock>;
  using BlockScan = cub::BlockScan<int, kBlock>;
  __shared__ union {
    typename BlockReduce::TempStorage reduce;
    typename BlockScan::TempStorage scan;
  } temp;
  __shared__ SopCellGrid<R> grid;

  // Bounding box (min and max are exact, so the order of the reduction does not matter).
  R lo[3], hi[3];
  for (int c = 0; c < 3; ++c) {
    lo[c] = R(3e38);
    hi[c] = R(-3e38);
  }
  bool bad = false;
  for (int i = threadIdx.x; i < n; i += kBlock) {
    const SopPos4<R> p = pos[i];
    if (!finite3(p)) {
      bad = true;
      continue;
    }
    lo[0] = min(lo[0], p.x), lo[1] = min(lo[1], p.y), lo[2] = min(lo[2], p.z);
    hi[0] = max(hi[0], p.x), hi[1] = max(hi[1], p.y), hi[2] = max(hi[2], p.z);
  }
  if (bad) list.d_status[1] = 1;
  R bLo[3], bHi[3];
  for (int c = 0; c < 3; ++c) {
    bLo[c] = BlockReduce(temp.reduce).Reduce(lo[c], MinOp<R>());
    __syncthreads();
    bHi[c] = BlockReduce(temp.reduce).Reduce(hi[c], MaxOp<R>());
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    // Cells at least as wide as the list radius, widened until the grid fits in maxCells.
    double cell = sqrt(static_cast<double>(list.listRadius2));
    double dims[3];
    for (;;) {
      double total = 1;
      for (int c = 0; c < 3; ++c) {
        // Capped: an infinite extent (finite coordinates of opposite sign near 1e308, reachable
        // only from absurd input) would never shrink below maxCells.
        const double extent =
            bHi[c] >= bLo[c] ? fmin(static_cast<double>(bHi[c]) - bLo[c], 1e300) : 0.0;
        dims[c] = floor(extent / cell) + 1;
        total *= dims[c];
      }
      if (total <= list.maxCells) break;
      cell *= 1.26;
    }
    for (int c = 0; c < 3; ++c) {
      grid.lo[c] = bHi[c] >= bLo[c] ? bLo[c] : R(0);
      grid.dims[c] = static_cast<int>(dims[c]);
    }
    grid.cellSize = static_cast<R>(cell);
    grid.cells = grid.dims[0] * grid.dims[1] * grid.dims[2];
    list.d_grid[r] = grid;
  }
  __syncthreads();
  const int cells = grid.cells;
  int* cellStart = list.d_cellStart + static_cast<std::size_t>(r) * (list.maxCells + 1);
  // Per-cell counters in shared memory when the grid fits (integer atomics on the SM instead of
  // round trips to L2; same counts, and the cells are sorted below either way), else global.
  __shared__ int sharedFill[kSharedCells];
  int* fill = cells <= kSharedCells ? sharedFill
                                    : list.d_cellFill + static_cast<std::size_t>(r) * list.maxCells;
  int* beadCell = list.d_beadCell + static_cast<std::size_t>(r) * n;
  int* cellBeads = list.d_cellBeads + static_cast<std::size_t>(r) * n;

  for (int c = threadIdx.x; c < cells; c += kBlock) fill[c] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += kBlock) {
    const SopPos4<R> p = pos[i];
    const int cx = cellCoord(p.x, grid.lo[0], grid.cellSize, grid.dims[0]);
    const int cy = cellCoord(p.y, grid.lo[1], grid.cellSize, grid.dims[1]);
    const int cz = cellCoord(p.z, grid.lo[2], grid.cellSize, grid.dims[2]);
    const int cell = (cz * grid.dims[1] + cy) * grid.dims[0] + cx;
    beadCell[i] = cell;
    atomicAdd(&fill[cell], 1);  // integer: the counts are exact
  }
  __syncthreads();
  // Exclusive prefix sum of the counts: each thread a contiguous chunk, then a block scan.
  const int chunk = (cells + kBlock - 1) / kBlock;
  const int first = threadIdx.x * chunk, last = min(cells, first + chunk);
  int chunkSum = 0;
  for (int c = first; c < last; ++c) chunkSum += fill[c];
  int offset = 0;
  BlockScan(temp.scan).ExclusiveSum(chunkSum, offset);
  for (int c = first; c < last; ++c) {
    cellStart[c] = offset;
    offset += fill[c];
  }
  if (threadIdx.x == 0) cellStart[cells] = n;
  __syncthreads();
  for (int c = threadIdx.x; c < cells; c += kBlock) fill[c] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += kBlock) {
    const int cell = beadCell[i];
    const int slot = atomicAdd(&fill[cell], 1);
    cellBeads[cellStart[cell] + slot] = i;
  }
  __syncthreads();
  // The fill order depends on scheduling; sorting each cell by bead index makes the lists (and so
  // the force summation order) deterministic.
  for (int c = threadIdx.x; c < cells; c += kBlock) {
    const int b = cellStart[c], e = cellStart[c + 1];
    for (int s = b + 1; s < e; ++s) {
      const int v = cellBeads[s];
      int t = s - 1;
      while (t >= b && cellBeads[t] > v) {
        cellBeads[t + 1] = cellBeads[t];
        --t;
      }
      cellBeads[t + 1] = v;
    }
  }
}

// ---- the step -----------------------------------------------------------------------------------

/// Rebuilds the Verlet row of bead i (global g) of replica r from the cell list. Called by all
/// kSopLanes lanes of the bead together: they test kSopLanes consecutive candidates at a time and
/// a ballot gives each kept candidate its slot, so the row holds the partners in the order of the
/// serial scan (cells z, y, x, each cell by bead index): deterministic, and the same list as one
/// lane would write. Slots past the count up to the end of the last chunk get the bead's own index
/// (a valid address for the pair loop, which masks them by the count). Returns the count.
template <class R, class Index>
__device__ int sopBuildRow(const SopStepArgs<R>& a, int r, int i, std::size_t g, std::size_t total,
                           const SopPos4<R>& p, const SopPos4<R>* posR, int lane) {
  const SopListView<R>& list = a.list;
  const int n = a.topology.beads;
  const int groupShift = (threadIdx.x % 32) / kSopLanes * kSopLanes;
  const unsigned int groupMask = ((1u << kSopLanes) - 1u) << groupShift;
  const unsigned int lowerLanes = (1u << lane) - 1u;
  Index* rows = static_cast<Index*>(list.d_neighbour);
  const SopCellGrid<R> grid = list.d_grid[r];
  const int* cellStart = list.d_cellStart + static_cast<std::size_t>(r) * (list.maxCells + 1);
  const int* cellBeads = list.d_cellBeads + static_cast<std::size_t>(r) * n;
  const int cx = cellCoord(p.x, grid.lo[0], grid.cellSize, grid.dims[0]);
  const int cy = cellCoord(p.y, grid.lo[1], grid.cellSize, grid.dims[1]);
  const int cz = cellCoord(p.z, grid.lo[2], grid.cellSize, grid.dims[2]);
  int count = 0;  // the same in every lane of the bead
  for (int z = max(cz - 1, 0); z <= min(cz + 1, grid.dims[2] - 1); ++z)
    for (int y = max(cy - 1, 0); y <= min(cy + 1, grid.dims[1] - 1); ++y)
      for (int x = max(cx - 1, 0); x <= min(cx + 1, grid.dims[0] - 1); ++x) {
        const int cell = (z * grid.dims[1] + y) * grid.dims[0] + x;
        const int begin = cellStart[cell], end = cellStart[cell + 1];
        for (int base = begin; base < end; base += kSopLanes) {  // uniform over the lanes
          const int s = base + lane;
          bool take = false;
          int j = 0;
          if (s < end) {
            j = cellBeads[s];
            if (j != i) {
              const SopPos4<R> q = posR[j];
              const R dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
              take =
                  dx * dx + dy * dy + dz * dz < list.listRadius2 && !sopExcluded(a.topology, i, j);
            }
          }
          const unsigned int kept = __ballot_sync(groupMask, take) >> groupShift;
          if (take) {
            const int slot = count + __popc(kept & lowerLanes);
            if (slot < list.maxNeighbours)
              rows[sopListSlot(slot, g, total)] = static_cast<Index>(j);
          }
          count += __popc(kept);
        }
      }
  if (count > list.maxNeighbours) {
    if (lane == 0) atomicMax(&list.d_status[0], count);
    count = list.maxNeighbours;
  }
  const int padded = (count + kSopListChunk - 1) / kSopListChunk * kSopListChunk;
  for (int k = count + lane; k < padded; k += kSopLanes)
    rows[sopListSlot(k, g, total)] = static_cast<Index>(i);
  if (lane == 0) {
    list.d_neighbourCount[g] = count;
    list.d_posAtBuild[g] = p;
  }
  return count;
}

/// The pointer p, opaque to the optimiser: keeps base + 16 j one wide multiply-add per address
/// instead of a 64-bit add, shift and add after the replica offset is folded into the index.
template <class T>
__device__ __forceinline__ const T* sopOpaque(const T* p) {
  const T* q;
  asm("mov.b64 %0, %1;" : "=l"(q) : "l"(p));
  return q;
}

/// The kSopPairsPerLoad (= 2) Verlet-list entries one lane reads with one load.
template <class Index>
struct SopIndexPair;
template <>
struct SopIndexPair<std::uint16_t> {
  using Word = unsigned int;  // entry 2m in the low half (little-endian)
  static __device__ __forceinline__ int first(Word w) { return static_cast<int>(w & 0xffffu); }
  static __device__ __forceinline__ int second(Word w) { return static_cast<int>(w >> 16); }
};
template <>
struct SopIndexPair<int> {
  using Word = int2;
  static __device__ __forceinline__ int first(Word w) { return w.x; }
  static __device__ __forceinline__ int second(Word w) { return w.y; }
};
static_assert(kSopPairsPerLoad == 2, "SopIndexPair reads two entries per load");

/// Position j as sopLoad, through the coherent path when kCoherent: the persistent kernel reads
/// positions that other blocks wrote earlier in the same launch (before a grid barrier), which
/// the read-only (non-coherent) path does not promise to see. The same values either way.
template <bool kCoherent, class R>
__device__ __forceinline__ SopPos4<R> sopLoadPos(const SopPos4<R>* base, unsigned int j) {
  if constexpr (!kCoherent) {
    return sopLoad(base, j);
  } else if constexpr (sizeof(R) == 4) {  // ld.global.ca: a weak load, cached in L1 as __ldg
    const float4 v = __ldca(reinterpret_cast<const float4*>(base) + j);
    return {v.x, v.y, v.z, v.w};
  } else {
    const double2* q = reinterpret_cast<const double2*>(base + j);
    const double2 a = __ldca(q);
    const double2 b = __ldca(q + 1);
    return {a.x, a.y, b.x, b.y};
  }
}

/// One tile (kSopBeadsPerBlock beads, one block) of one step: tile `tile` of replica r, which
/// has tilesPerReplica tiles, from posIn to posOut at step number `step`. kIntegrate: the Langevin
/// step (no energies); otherwise the gradient and, when d_beadEnergy is set, the per-bead
/// energies (K unused). kCoherent: positions through the coherent path (sopLoadPos). The plain
/// kernel runs one tile per block, the persistent kernel loops over tiles and steps; the
/// arithmetic of a bead is the same code in both, so they give the same bits.
template <class R, class Index, RngKind K, bool kIntegrate, bool kCoherent>
__device__ __forceinline__ void sopStepTile(const SopStepArgs<R>& a, const SopPos4<R>* posIn,
                                            SopPos4<R>* posOut, int tile, int r,
                                            int tilesPerReplica, unsigned long long step) {
  const SopTopologyView<R>& top = a.topology;
  const int n = top.beads;
  // Warp 0 is the bead warp: it draws the random numbers of the block's kSopBeadsPerBlock beads
  // (one per lane) while warps 1.. sum their forces, kSopLanes threads per bead sharing its native
  // list and Verlet row (enough threads to fill the device with one 7000-bead replica); then it
  // does the per-bead work. So the random numbers are off the critical path of a small system.
  const bool beadWarp = threadIdx.x < 32;
  // Thread among the pair warps (0 in the bead warp, which has no bead of its own there).
  const int pairThread = beadWarp ? 0 : static_cast<int>(threadIdx.x) - 32;
  const int lane = pairThread % kSopLanes;
  const int i = tile * kSopBeadsPerBlock + pairThread / kSopLanes;
  const bool active = !beadWarp && i < n;
  const std::size_t total = static_cast<std::size_t>(n) * a.list.replicas;
  const std::size_t g = static_cast<std::size_t>(r) * n + i;
  const SopPos4<R>* posR = sopOpaque(posIn + static_cast<std::size_t>(r) * n);
  const bool rebuild = a.rebuildMode == 1 || (a.rebuildMode == 2 && a.d_rebuildNow[r] != 0);
  const double time = static_cast<double>(step) * a.timeStep;  // ps

  static_assert(kSopBeadsPerBlock <= 32, "one warp does the per-bead work of a block");
  const int beadSlot = threadIdx.x;  // the bead warp's bead (< kSopBeadsPerBlock)
  const int ib = tile * kSopBeadsPerBlock + beadSlot;
  const bool beadLane = beadWarp && beadSlot < kSopBeadsPerBlock && ib < n;
  __shared__ R noise[3][kSopBeadsPerBlock];
  if constexpr (kIntegrate) {
    if (beadLane) {
      std::uint32_t w[4];
      RandomStreamsView streams = a.streams;
      streams.step = step;  // the Philox counter; stateful generators ignore it
      drawStreamStep<K>(streams, static_cast<std::size_t>(r) * n + ib, w);  // once per step
      double gauss[3];
      rng::particleGaussians(w, gauss);
      for (int c = 0; c < 3; ++c) noise[c][beadSlot] = static_cast<R>(gauss[c]);
    }
  }

  SopPos4<R> p{R(0), R(0), R(0), R(0)};
  if (active) p = sopLoadPos<kCoherent>(posR, i);
  int neighbours = 0;
  if (active && rebuild) neighbours = sopBuildRow<R, Index>(a, r, i, g, total, p, posR, lane);
  __syncwarp();  // the row written by the lanes of a bead is read by all of them
  if (active && !rebuild) neighbours = a.list.d_neighbourCount[g];

  R gx = 0, gy = 0, gz = 0, eFene = 0, eNative = 0, eRep = 0;
  if (active) {
    auto add = [&](const SopTerm<R>& t, R dx, R dy, R dz) {
      gx += t.dEdrOverR * dx;
      gy += t.dEdrOverR * dy;
      gz += t.dEdrOverR * dz;
    };
    // The first two chunks of the Verlet row are loaded before the bonded and native terms, so
    // that their latency overlaps those (the row is summed after them, as before).
    using Word = typename SopIndexPair<Index>::Word;
    const int chunks = (neighbours + kSopListChunk - 1) / kSopListChunk;
    const Word* row = static_cast<const Word*>(a.list.d_neighbour) + g * kSopLanes + lane;
    const std::size_t chunkStride = total * kSopLanes;  // in Words
    Word w0{}, w1{};
    if (chunks > 0) w0 = row[0];
    if (chunks > 1) w1 = row[chunkStride];
    // FENE bonds to the previous and next bead of the chain (eq B1, first sum): lanes 0 and 1.
    if (lane < 2) {
      const int j = lane == 0 ? top.d_bondPrev[i] : top.d_bondNext[i];
      if (j >= 0) {
        const R r0 = lane == 0 ? top.d_bondPrevR0[i] : top.d_bondNextR0[i];
        const SopPos4<R> q = sopLoadPos<kCoherent>(posR, j);
        const R dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
        const SopTerm<R> t = sopFene(dx * dx + dy * dy + dz * dz, r0, top.feneK, top.feneR0sq);
        add(t, dx, dy, dz);
        if constexpr (!kIntegrate) eFene += R(0.5) * t.energy;
      }
    }
    // Native contacts (second sum), stored once for all replicas in chunks of kSopLanes (entry
    // k of bead i at sopNativeSlot: the lanes of a warp read consecutive words).
    const int natives = top.d_nativeCount[i];
    const std::size_t nativeStride = static_cast<std::size_t>(n) * kSopLanes;
    const int* nativeIndex = top.d_nativeIndex + static_cast<std::size_t>(i) * kSopLanes + lane;
    const R* nativeR0sq = top.d_nativeR0sq + static_cast<std::size_t>(i) * kSopLanes + lane;
    for (int k = lane, m = 0; k < natives; k += kSopLanes, ++m) {
      const int j = __ldg(nativeIndex + m * nativeStride);
      const R r0sq = __ldg(nativeR0sq + m * nativeStride);
      const SopPos4<R> q = sopLoadPos<kCoherent>(posR, j);
      const R dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
      const SopTerm<R> t =
          sopNativeFromInverse(sopRecip(dx * dx + dy * dy + dz * dz), r0sq, top.nativeEpsilon);
      add(t, dx, dy, dz);
      if constexpr (!kIntegrate) eNative += R(0.5) * t.energy;
    }
    // Repulsion (last two sums) over the Verlet row, cut and shifted: one reciprocal square root
    // per pair, no division, a min for the cutoff and a select for the padding past the count (no
    // branches). The row is read in chunks of kSopListChunk entries stored together (sopListSlot):
    // lane L takes entries 2L and 2L + 1 of each chunk with one load, so a warp reads 4 beads x
    // 32 B contiguous; two chunks per iteration and the next two prefetched keep 4 pairs and 2
    // index loads in flight per lane. Each lane sums its entries in row order (fixed), then
    // laneSum. The position loads take the local index as unsigned (one wide multiply-add per
    // address). Plain loads for the row: this kernel may have written it (rebuild).
    using Pair = SopIndexPair<Index>;
    const SopRepulsion<R> rep = top.repulsion;
    auto repulse = [&](int j, bool valid) {
      const SopPos4<R> q = sopLoadPos<kCoherent>(posR, j);
      const R dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
      const R r2 = dx * dx + dy * dy + dz * dz;
      const R rinv = sopRsqrt(r2);
      // The cutoff by one min (sopRepulsiveCutDEdrOverR); padding past the count (r2 = 0, any f0)
      // by a select, compiled away in the full chunks where valid is the constant true.
      const R f0 = fmin(sopRepulsiveDEdrOverR(rinv, rep), R(0));
      const R f = valid ? f0 : R(0);
      gx += f * dx;
      gy += f * dy;
      gz += f * dz;
      if constexpr (!kIntegrate) {
        const R e0 = sopRepulsiveEnergy(r2, rinv, rep);
        eRep += valid && r2 < rep.cutoff2 ? R(0.5) * e0 : R(0);
      }
    };
    // Pairs of full chunks: no count test. The next two chunks are loaded before these are used.
    const int fullPairs = neighbours / (2 * kSopListChunk);
    int m = 0;
    for (; m < 2 * fullPairs; m += 2) {
      const Word c0 = w0, c1 = w1;
      if (m + 2 < chunks) w0 = row[(m + 2) * chunkStride];
      if (m + 3 < chunks) w1 = row[(m + 3) * chunkStride];
      repulse(Pair::first(c0), true);
      repulse(Pair::second(c0), true);
      repulse(Pair::first(c1), true);
      repulse(Pair::second(c1), true);
    }
    // The last one or two chunks (fewer than 2 kSopListChunk entries left), tested by the count.
    if (m < chunks) {
      const int k = m * kSopListChunk + kSopPairsPerLoad * lane;
      repulse(Pair::first(w0), k < neighbours);
      repulse(Pair::second(w0), k + 1 < neighbours);
      if (m + 1 < chunks) {
        repulse(Pair::first(w1), k + kSopListChunk < neighbours);
        repulse(Pair::second(w1), k + kSopListChunk + 1 < neighbours);
      }
    }
  }
  // Every thread of the warp takes part in the shuffles (inactive beads add zeros).
  gx = laneSum(gx);
  gy = laneSum(gy);
  gz = laneSum(gz);
  if (!kIntegrate && a.d_beadEnergy != nullptr) {
    eFene = laneSum(eFene);
    eNative = laneSum(eNative);
    eRep = laneSum(eRep);
  }

  // The per-bead work (protocol terms, update, output) runs in the bead warp, one bead per lane,
  // instead of on lane 0 of each bead (4 active lanes per warp): the lane sums go through shared
  // memory.
  __shared__ R beadSum[kIntegrate ? 3 : 6][kSopBeadsPerBlock];
  if (!beadWarp && lane == 0) {
    const int slot = pairThread / kSopLanes;
    beadSum[0][slot] = gx;
    beadSum[1][slot] = gy;
    beadSum[2][slot] = gz;
    if constexpr (!kIntegrate) {
      beadSum[3][kIntegrate ? 0 : slot] = eFene;
      beadSum[4][kIntegrate ? 0 : slot] = eNative;
      beadSum[5][kIntegrate ? 0 : slot] = eRep;
    }
  }
  __syncthreads();
  const SopExternalView<R>& ext = a.external;
  double tipPartial = 0.0;  // dU/dz of this bead's tip interaction (kcal/mol/A)
  {
    const int b = beadSlot;
    if (beadLane) {
      const std::size_t gb = static_cast<std::size_t>(r) * n + ib;
      const SopPos4<R> pb = sopLoadPos<kCoherent>(posR, ib);
      R hx = beadSum[0][b], hy = beadSum[1][b], hz = beadSum[2][b];
      // Cantilever spring on the pulled bead, and the indentation tip.
      if (ib == ext.pulledBead) {
        R anchor[3];
        for (int c = 0; c < 3; ++c)
          anchor[c] =
              static_cast<R>(ext.pullAnchor0[c] + ext.pullSpeed * time * ext.pullDirection[c]);
        hx += ext.pullSpringK * (pb.x - anchor[0]);
        hy += ext.pullSpringK * (pb.y - anchor[1]);
        hz += ext.pullSpringK * (pb.z - anchor[2]);
      }
      if (ext.indentation) {
        const R z = static_cast<R>(ext.d_tip[r]);
        const R dx = pb.x - (ext.tipOrigin[0] + z * ext.tipDirection[0]);
        const R dy = pb.y - (ext.tipOrigin[1] + z * ext.tipDirection[1]);
        const R dz = pb.z - (ext.tipOrigin[2] + z * ext.tipDirection[2]);
        const SopTerm<R> t = sopTip(sqrt(dx * dx + dy * dy + dz * dz), ext.tipRadius,
                                    ext.tipRepulsion, ext.tipMinGap);
        hx += t.dEdrOverR * dx;
        hy += t.dEdrOverR * dy;
        hz += t.dEdrOverR * dz;
        tipPartial = -static_cast<double>(
            t.dEdrOverR *
            (dx * ext.tipDirection[0] + dy * ext.tipDirection[1] + dz * ext.tipDirection[2]));
      }
      if constexpr (kIntegrate) {
        SopPos4<R> o = pb;
        if (top.d_fixed == nullptr || top.d_fixed[ib] == 0) {
          o.x = pb.x - a.mobilityStep * hx + a.noiseAmplitude * noise[0][b];
          o.y = pb.y - a.mobilityStep * hy + a.noiseAmplitude * noise[1][b];
          o.z = pb.z - a.mobilityStep * hz + a.noiseAmplitude * noise[2][b];
        }
        posOut[gb] = o;
        if (a.d_rebuildNext != nullptr) {
          const SopPos4<R> at = rebuild ? pb : a.list.d_posAtBuild[gb];
          const R dx = o.x - at.x, dy = o.y - at.y, dz = o.z - at.z;
          const R d2 = dx * dx + dy * dy + dz * dz;
          if (!(d2 <= a.list.halfSkin2)) a.d_rebuildNext[r] = 1;  // same value from every writer
        }
      } else {
        a.d_gradient[3 * gb] = hx;
        a.d_gradient[3 * gb + 1] = hy;
        a.d_gradient[3 * gb + 2] = hz;
        if (a.d_beadEnergy != nullptr) {
          a.d_beadEnergy[gb] = beadSum[kIntegrate ? 0 : 3][b];
          a.d_beadEnergy[total + gb] = beadSum[kIntegrate ? 0 : 4][b];
          a.d_beadEnergy[2 * total + gb] = beadSum[kIntegrate ? 0 : 5][b];
        }
      }
    }
  }

  if constexpr (!kIntegrate) return;
  if (!ext.indentation) return;  // uniform over the grid
  // Indentation: the tip moves on its axis by its own overdamped step, driven by the cantilever
  // spring and the summed bead reactions (deterministic: block sums, then the last block of the
  // replica adds them in block order).
  using BlockReduce = cub::BlockReduce<double, kSopStepBlock>;
  __shared__ typename BlockReduce::TempStorage reduceStorage;
  __shared__ bool isLastOfReplica;
  double* partial = ext.d_tipPartial + static_cast<std::size_t>(r) * tilesPerReplica;
  const double blockSum = BlockReduce(reduceStorage).Sum(tipPartial);
  if (threadIdx.x == 0) {
    partial[tile] = blockSum;
    __threadfence();
    isLastOfReplica =
        atomicAdd(&ext.d_tipDone[r], 1u) == static_cast<unsigned int>(tilesPerReplica - 1);
  }
  __syncthreads();
  if (isLastOfReplica) {
    double sum = 0.0;
    for (unsigned int b = threadIdx.x; b < static_cast<unsigned int>(tilesPerReplica);
         b += kSopStepBlock)
      sum += __ldcg(&partial[b]);
    __syncthreads();  // reduceStorage is reused
    const double dUdz = BlockReduce(reduceStorage).Sum(sum);
    if (threadIdx.x == 0) {
      const double z = __ldcg(&ext.d_tip[r]);
      const double base = ext.tipSpeed * time;
      ext.d_tip[r] = z - ext.tipMobility * (ext.tipSpringK * (z - base) + dUdz);
      ext.d_tipDone[r] = 0u;
    }
  }
}

/// One step (or one gradient evaluation): block (x, y) is tile x of replica y.
template <class R, class Index, RngKind K, bool kIntegrate>
__global__ void __launch_bounds__(kSopStepBlock) sopStepKernel(SopStepArgs<R> a) {
  awaitPreviousKernel();  // the previous step wrote d_step and the positions
  const unsigned long long step = kIntegrate ? *a.d_step : 0ull;
  // The step counter: read from d_step by every block, written (step + 1) to the other buffer
  // d_stepNext, which the next step reads (no per-block atomics).
  if (kIntegrate && blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0)
    *a.d_stepNext = step + 1;
  sopStepTile<R, Index, K, kIntegrate, false>(a, a.d_posIn, a.d_posOut, blockIdx.x, blockIdx.y,
                                              gridDim.x, step);
}

/// `steps` Langevin steps in one cooperative launch (fixed list: no rebuild inside): every block
/// loops over the tiles (replica-major) of a step, then the grid barrier; positions ping-pong
/// between a.d_posIn and a.d_posOut, so after an odd count they end in d_posOut, after an even
/// one in d_posIn. Block 0 writes the step number after the last step to *a.d_stepNext.
template <class R, class Index, RngKind K>
__global__ void __launch_bounds__(kSopStepBlock) sopPersistentKernel(SopStepArgs<R> a, int steps) {
  const unsigned long long first = *a.d_step;
  const int tilesPerReplica = (a.topology.beads + kSopBeadsPerBlock - 1) / kSopBeadsPerBlock;
  const int tiles = tilesPerReplica * a.list.replicas;
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  SopPos4<R>* const first0 = const_cast<SopPos4<R>*>(a.d_posIn);
  for (int k = 0; k < steps; ++k) {
    const bool odd = (k & 1) != 0;
    const SopPos4<R>* in = odd ? a.d_posOut : first0;
    SopPos4<R>* out = odd ? first0 : a.d_posOut;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
      sopStepTile<R, Index, K, true, true>(a, in, out, t % tilesPerReplica, t / tilesPerReplica,
                                           tilesPerReplica, first + k);
      __syncthreads();  // the block's shared arrays are reused by its next tile
    }
    grid.sync();  // every position of step k is written before step k + 1 reads it
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *a.d_stepNext = first + steps;
}

// ---- energies, packing -------------------------------------------------------------------------

constexpr int kSopSumBlock = 256;

__global__ void __launch_bounds__(kSopSumBlock)
    sopEnergySumKernel(const double* e, int n, int replicas, double* out) {
  using BlockReduce = cub::BlockReduce<double, kSopSumBlock>;
  __shared__ typename BlockReduce::TempStorage storage;
  const int r = blockIdx.x;
  const std::size_t total = static_cast<std::size_t>(n) * replicas;
  for (int c = 0; c < 3; ++c) {
    double s = 0.0;
    for (int i = threadIdx.x; i < n; i += kSopSumBlock)
      s += e[c * total + static_cast<std::size_t>(r) * n + i];
    const double sum = BlockReduce(storage).Sum(s);
    if (threadIdx.x == 0) out[c * replicas + r] = sum;
    __syncthreads();
  }
}

template <class R>
__global__ void sopPackKernel(const double* x, int n, SopPos4<R>* pos, const SopPos4<R>* atBuild,
                              R halfSkin2, int* flag) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  SopPos4<R> p;
  p.x = static_cast<R>(x[3 * i]);
  p.y = static_cast<R>(x[3 * i + 1]);
  p.z = static_cast<R>(x[3 * i + 2]);
  p.w = R(0);
  pos[i] = p;
  if (atBuild != nullptr && flag != nullptr) {
    const SopPos4<R> b = atBuild[i];
    const R dx = p.x - b.x, dy = p.y - b.y, dz = p.z - b.z;
    if (!(dx * dx + dy * dy + dz * dz <= halfSkin2)) *flag = 1;
  }
}

template <class R>
__global__ void sopUnpackKernel(const SopPos4<R>* pos, int n, double* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const SopPos4<R> p = pos[i];
  x[3 * i] = p.x;
  x[3 * i + 1] = p.y;
  x[3 * i + 2] = p.z;
}

void requireArg(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("SOP kernels: ") + what);
}

}  // namespace

int sopStepBlocksPerReplica(int beads) {
  return (beads + kSopBeadsPerBlock - 1) / kSopBeadsPerBlock;
}

template <class R>
void launchSopStep(const SopStepArgs<R>& a, cudaStream_t stream) {
  const int n = a.topology.beads;
  requireArg(n > 0, "topology.beads must be > 0");
  requireArg(a.list.replicas > 0 && a.list.replicas <= 65535, "replicas must be in 1..65535");
  requireArg(
      static_cast<double>(n) * a.list.replicas * sopListCapacity(a.list.maxNeighbours) < INT_MAX,
      "beads x replicas x maxNeighbours must stay below 2^31");
  requireArg(!a.list.shortIndices || n <= 65536, "16-bit neighbour indices need <= 65536 beads");
  requireArg(a.d_posIn != nullptr && a.list.d_neighbour != nullptr &&
                 a.list.d_neighbourCount != nullptr && a.list.d_posAtBuild != nullptr,
             "positions and neighbour-list pointers must be set");
  requireArg(!a.integrate || (a.d_posOut != nullptr && a.d_posOut != a.d_posIn),
             "integrate needs d_posOut distinct from d_posIn");
  requireArg(a.integrate || a.d_gradient != nullptr, "a gradient evaluation needs d_gradient");
  requireArg(!a.integrate || a.d_beadEnergy == nullptr,
             "bead energies come from a gradient evaluation (integrate = false)");
  requireArg(a.rebuildMode != 2 || a.d_rebuildNow != nullptr, "rebuildMode 2 needs d_rebuildNow");
  requireArg(!a.integrate || a.streams.streams == static_cast<std::size_t>(n) * a.list.replicas,
             "one random stream per bead of every replica");
  requireArg(
      !a.integrate || (a.d_step != nullptr && a.d_stepNext != nullptr && a.d_stepNext != a.d_step),
      "integrate needs distinct d_step and d_stepNext");
  requireArg(!a.external.indentation ||
                 (a.external.d_tip && a.external.d_tipPartial && a.external.d_tipDone),
             "indentation needs d_tip, d_tipPartial and d_tipDone");
  const dim3 grid(static_cast<unsigned int>(sopStepBlocksPerReplica(n)), a.list.replicas);
  const auto launch = [&](void (*kernel)(SopStepArgs<R>)) {
    launchMaybeProgrammatic(kernel, grid, dim3(kSopStepBlock), stream, a.programmatic, a);
  };
  if (!a.integrate) {
    if (a.list.shortIndices)
      launch(sopStepKernel<R, std::uint16_t, RngKind::Philox, false>);
    else
      launch(sopStepKernel<R, int, RngKind::Philox, false>);
  } else {
    dispatchRngKind(a.streams.kind, [&](auto kind) {
      constexpr RngKind K = decltype(kind)::value;
      if (a.list.shortIndices)
        launch(sopStepKernel<R, std::uint16_t, K, true>);
      else
        launch(sopStepKernel<R, int, K, true>);
    });
  }
}

template <class R>
void launchSopPersistentSteps(const SopStepArgs<R>& a, int steps, cudaStream_t stream) {
  const int n = a.topology.beads;
  requireArg(steps >= 1, "persistent steps must be >= 1");
  requireArg(n > 0, "topology.beads must be > 0");
  requireArg(a.list.replicas > 0, "replicas must be > 0");
  requireArg(
      static_cast<double>(n) * a.list.replicas * sopListCapacity(a.list.maxNeighbours) < INT_MAX,
      "beads x replicas x maxNeighbours must stay below 2^31");
  requireArg(!a.list.shortIndices || n <= 65536, "16-bit neighbour indices need <= 65536 beads");
  requireArg(a.integrate && a.d_beadEnergy == nullptr, "persistent steps integrate");
  requireArg(a.rebuildMode == 0 && a.d_rebuildNext == nullptr,
             "persistent steps keep the list (fixed rebuild interval, no rebuild inside)");
  requireArg(
      a.streams.kind != RngKind::LaggedFibonacci,
      "persistent steps: Lagged Fibonacci moves its ring offset every step (plain launches)");
  requireArg(a.d_posIn != nullptr && a.d_posOut != nullptr && a.d_posOut != a.d_posIn &&
                 a.list.d_neighbour != nullptr && a.list.d_neighbourCount != nullptr &&
                 a.list.d_posAtBuild != nullptr,
             "positions and neighbour-list pointers must be set");
  requireArg(a.streams.streams == static_cast<std::size_t>(n) * a.list.replicas,
             "one random stream per bead of every replica");
  requireArg(a.d_step != nullptr && a.d_stepNext != nullptr,
             "persistent steps need d_step and d_stepNext");
  requireArg(!a.external.indentation ||
                 (a.external.d_tip && a.external.d_tipPartial && a.external.d_tipDone),
             "indentation needs d_tip, d_tipPartial and d_tipDone");
  int device = 0, cooperative = 0, sms = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  LANDSCAPE_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  LANDSCAPE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (cooperative == 0)
    throw std::runtime_error("SOP persistent steps: the device has no cooperative launch");
  const long tiles = static_cast<long>(sopStepBlocksPerReplica(n)) * a.list.replicas;
  dispatchRngKind(a.streams.kind, [&](auto kind) {
    constexpr RngKind K = decltype(kind)::value;
    if constexpr (K != RngKind::LaggedFibonacci) {
      auto launch = [&](auto kernel) {
        // Every block must be resident at once (the grid barrier): at most the blocks the
        // device holds, and no more than there are tiles.
        int perSm = 0;
        LANDSCAPE_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kSopStepBlock, 0));
        if (perSm < 1) throw std::runtime_error("SOP persistent steps: the kernel does not fit");
        const unsigned int blocks =
            static_cast<unsigned int>(std::min<long>(tiles, static_cast<long>(perSm) * sms));
        SopStepArgs<R> args = a;
        int count = steps;
        void* params[] = {&args, &count};
        LANDSCAPE_CUDA_CHECK(cudaLaunchCooperativeKernel(
            reinterpret_cast<void*>(kernel), dim3(blocks), dim3(kSopStepBlock), params, 0, stream));
      };
      if (a.list.shortIndices)
        launch(sopPersistentKernel<R, std::uint16_t, K>);
      else
        launch(sopPersistentKernel<R, int, K>);
    }
  });
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

template <class R>
void launchSopCells(const SopCellArgs<R>& a, cudaStream_t stream) {
  requireArg(a.beads > 0 && a.list.replicas > 0, "beads and replicas must be > 0");
  requireArg(a.d_pos != nullptr && a.list.d_grid && a.list.d_cellStart && a.list.d_cellBeads &&
                 a.list.d_beadCell && a.list.d_cellFill && a.list.d_status,
             "cell-list pointers must be set");
  requireArg(!a.conditional || a.d_rebuildFlag != nullptr, "a conditional build needs the flags");
  requireArg(a.list.maxCells >= 1, "maxCells must be >= 1");
  if (a.compact)
    sopCellsKernel<R, kSopCompactCellBlock, kSopCompactSharedCells>
        <<<a.list.replicas, kSopCompactCellBlock, 0, stream>>>(a);
  else
    sopCellsKernel<R, kSopCellBlock, kSopSharedCells>
        <<<a.list.replicas, kSopCellBlock, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchSopEnergySum(const double* d_beadEnergy, int beads, int replicas, double* d_energy,
                        cudaStream_t stream) {
  requireArg(d_beadEnergy && d_energy && beads > 0 && replicas > 0, "bad energy-sum arguments");
  sopEnergySumKernel<<<replicas, kSopSumBlock, 0, stream>>>(d_beadEnergy, beads, replicas,
                                                            d_energy);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

template <class R>
void launchSopPack(const double* d_x, int beads, SopPos4<R>* d_pos, const SopPos4<R>* d_posAtBuild,
                   R halfSkin2, int* d_flag, cudaStream_t stream) {
  requireArg(d_x && d_pos && beads > 0, "bad pack arguments");
  sopPackKernel<R>
      <<<(beads + 255) / 256, 256, 0, stream>>>(d_x, beads, d_pos, d_posAtBuild, halfSkin2, d_flag);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

template <class R>
void launchSopUnpack(const SopPos4<R>* d_pos, int beads, double* d_x, cudaStream_t stream) {
  requireArg(d_x && d_pos && beads > 0, "bad unpack arguments");
  sopUnpackKernel<R><<<(beads + 255) / 256, 256, 0, stream>>>(d_pos, beads, d_x);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

#define LANDSCAPE_SOP_INSTANTIATE(R)                                                          \
  template void launchSopStep<R>(const SopStepArgs<R>&, cudaStream_t);                        \
  template void launchSopCells<R>(const SopCellArgs<R>&, cudaStream_t);                       \
  template void launchSopPersistentSteps<R>(const SopStepArgs<R>&, int, cudaStream_t);        \
  template void launchSopPack<R>(const double*, int, SopPos4<R>*, const SopPos4<R>*, R, int*, \
                                 cudaStream_t);                                               \
  template void launchSopUnpack<R>(const SopPos4<R>*, int, double*, cudaStream_t);
LANDSCAPE_SOP_INSTANTIATE(float)
LANDSCAPE_SOP_INSTANTIATE(double)
#undef LANDSCAPE_SOP_INSTANTIATE

}  // namespace landscape
