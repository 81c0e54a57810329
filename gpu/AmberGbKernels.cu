#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpu/AmberGbKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/ProgrammaticLaunch.cuh"
#include "potentials/AmberGb.h"

namespace landscape {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;

__host__ __device__ inline int minInt(int a, int b) { return a < b ? a : b; }

// ---- the batch: which structure a block works on -------------------------------------------

/// p moved by `bytes` (the scratch arena's stride is in doubles, the tile boxes are 48 bytes).
template <typename T>
__device__ __forceinline__ T* byteShift(T* p, long long bytes) {
  using Byte = typename std::conditional<std::is_const<T>::value, const char, char>::type;
  return reinterpret_cast<T*>(reinterpret_cast<Byte*>(p) + bytes);
}

/// The structure of this block (grid.y), and whether the mask skips it (every block of a skipped
/// structure returns before it reads or writes anything of it).
__device__ __forceinline__ long long blockStructure(const GbEvalArgs& a) {
  return a.batch.first + static_cast<long long>(blockIdx.y);
}
__device__ __forceinline__ bool structureSkipped(const GbEvalArgs& a, long long s) {
  return a.batch.d_active != nullptr && a.batch.d_active[s] == 0;
}

/// The arguments of structure s: its coordinates, gradient, energy, scratch and tickets; the
/// shared tables unchanged.
__device__ __forceinline__ GbEvalArgs gbAtStructure(const GbEvalArgs& a, long long s) {
  GbEvalArgs r = a;
  const long long coordinates = s * 3LL * static_cast<long long>(a.atoms);
  const long long scratch = s * a.batch.scratchStride;
  const long long tickets = s * a.batch.ticketStride;
  r.d_x = a.d_x + coordinates;
  r.d_g = a.d_g + coordinates;
  r.d_total = a.d_total + s;
  r.d_tileBox = byteShift(a.d_tileBox, scratch * static_cast<long long>(sizeof(double)));
  r.d_bornPartial = a.d_bornPartial + scratch;
  r.d_tileTickets = a.d_tileTickets + tickets;
  r.d_born = a.d_born + scratch;
  r.d_dBornDSum = a.d_dBornDSum + scratch;
  r.d_tileSelfEnergy = a.d_tileSelfEnergy + scratch;
  r.d_selfDEdB = a.d_selfDEdB + scratch;
  r.d_rowSlots = a.d_rowSlots + scratch;
  r.d_columnSlots = a.d_columnSlots + scratch;
  r.d_pairBlockEnergy = a.d_pairBlockEnergy + scratch;
  r.d_pairGradient = a.d_pairGradient + scratch;
  r.d_dEdSum = a.d_dEdSum + scratch;
  r.d_chainRowSlots = a.d_chainRowSlots + scratch;
  r.d_chainColumnSlots = a.d_chainColumnSlots + scratch;
  r.d_slotGradient = a.d_slotGradient + scratch;
  r.d_bondedBlockEnergy = a.d_bondedBlockEnergy + scratch;
  r.d_energy = a.d_energy + scratch;
  if (a.d_descreenSlopes) r.d_descreenSlopes = a.d_descreenSlopes + scratch;
  r.bonded.d_x = r.d_x;
  r.bonded.d_slotGradient = a.bonded.d_slotGradient + scratch;
  r.bonded.d_blockEnergy = a.bonded.d_blockEnergy + scratch;
  return r;
}

/// A block of the pair grids: task (row block, chunk) and the part of the rotation steps it takes.
struct PairTask {
  int index;  ///< task x parts + part: the block's energy partials
  int rowBlock, chunk, part;
};

__device__ inline PairTask pairTask(const GbEvalArgs& a, int block) {
  const int2 task = a.d_tasks[block / a.layout.parts];
  return {block, task.x, task.y, block % a.layout.parts};
}

/// First of the kGbSlotValues x 32 slot values of row tile `row`, task chunk `chunk`, part `part`.
__device__ inline long long rowSlotBase(const GbPairLayout& l, int row, int chunk, int part) {
  return ((static_cast<long long>(row) * l.chunks + chunk) * l.parts + part) * kGbSlotValues *
         kGbTile;
}

/// First of the slot values of column tile `column`, task row block `rowBlock`, part `part`.
__device__ inline long long columnSlotBase(const GbPairLayout& l, int column, int rowBlock,
                                           int part) {
  return ((static_cast<long long>(column) * l.rowBlocks + rowBlock) * l.parts + part) *
         kGbSlotValues * kGbTile;
}

__device__ inline double boxGap(double loA, double hiA, double loB, double hiB) {
  const double gap = fmax(loB - hiA, loA - hiB);
  return gap > 0.0 ? gap : 0.0;
}

/// Whether two tile boxes lie within distance sqrt(cut2) of each other (uniform across a warp).
__device__ inline bool boxesNear(const GbTileBox& a, const GbTileBox& b, double cut2) {
  double d2 = 0.0;
  for (int c = 0; c < 3; ++c) {
    const double gap = boxGap(a.lo[c], a.hi[c], b.lo[c], b.hi[c]);
    d2 += gap * gap;
  }
  return d2 <= cut2;
}

/// Elects the block that finishes a sum over several blocks: every block calls this (all its
/// threads) after writing its partials; it returns true in exactly one block, the last to arrive,
/// which then reads the partials of the others (through L2: __ldcg) in a fixed order. The counter
/// is reset for the next launch. Only the election is atomic; the sums are not.
__device__ bool lastBlockToArrive(unsigned* counter, unsigned blocks) {
  __shared__ bool last;
  __threadfence();  // this thread's partials are visible device-wide before the ticket is taken
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned ticket = atomicAdd(counter, 1u);
    last = ticket + 1u == blocks;
    if (last) *counter = 0u;
  }
  __syncthreads();
  if (last) __threadfence();
  return last;
}

/// Fixed-order sum over the 32 lanes of a warp; the result is in lane 0.
__device__ inline double warpSum(double v) {
  for (int offset = kGbTile / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// Every kernel but the first of a sequence is a programmatic dependent launch on sm_90+
// (gpu/ProgrammaticLaunch.cuh; docs/benchmarks.md, "Small and mid sizes, step 2") and calls
// awaitPreviousKernel before it touches global memory.

// ---- 1: tile bounding boxes ----------------------------------------------------------------

__global__ void gbTileBoxesKernel(GbEvalArgs batchArgs) {
  awaitPreviousKernel();
  const long long structure = blockStructure(batchArgs);
  if (structureSkipped(batchArgs, structure)) return;
  const GbEvalArgs a = gbAtStructure(batchArgs, structure);
  // One warp per tile; min and max are exact, so the order of the warp reduction is irrelevant.
  const int tile = (blockIdx.x * blockDim.x + threadIdx.x) / kGbTile;
  const int lane = threadIdx.x % kGbTile;
  if (tile >= a.layout.tiles) return;  // the whole warp leaves together
  const int i = tile * kGbTile + lane;
  const bool valid = i < static_cast<int>(a.atoms);
  double lo[3], hi[3];
  for (int c = 0; c < 3; ++c) {
    lo[c] = valid ? a.d_x[3 * i + c] : 1e300;
    hi[c] = valid ? a.d_x[3 * i + c] : -1e300;
  }
  for (int offset = kGbTile / 2; offset > 0; offset /= 2)
    for (int c = 0; c < 3; ++c) {
      lo[c] = fmin(lo[c], __shfl_xor_sync(kFullMask, lo[c], offset));
      hi[c] = fmax(hi[c], __shfl_xor_sync(kFullMask, hi[c], offset));
    }
  if (lane == 0) {
    GbTileBox box;
    for (int c = 0; c < 3; ++c) {
      box.lo[c] = lo[c];
      box.hi[c] = hi[c];
    }
    a.d_tileBox[tile] = box;
  }
}

// ---- 2: Born radii and self terms ----------------------------------------------------------

/// The table of kept slopes dI_ij/dr of one structure (GbEvalArgs::d_descreenSlopes) in the
/// pass's arithmetic: tile pair (I, J) is a block of 32 x 32, row atom lane l and column atom m at
/// [(m - l) mod 32][l], the rotation step s at which lane l meets m (m = l + s mod 32) in the
/// Born-radius and chain-rule passes alike.
template <typename Real>
__device__ __forceinline__ Real* slopeBlock(const GbEvalArgs& a, int rowTile, int columnTile) {
  return reinterpret_cast<Real*>(a.d_descreenSlopes) +
         (static_cast<long long>(rowTile) * a.layout.tiles + columnTile) * kGbTile * kGbTile;
}

/// I_i summed over the work units (column tile, column part) of warp `worker` of row tile `tile`.
/// SLOPES: each pair's dI_ij/dr goes to the slope table as well (0 beyond the cutoff).
template <typename Real, bool SLOPES>
__device__ __forceinline__ double bornUnitsSum(const GbEvalArgs& a, const GbTileBox& rowBox,
                                               int tile, int worker, int lane) {
  const int n = static_cast<int>(a.atoms);
  const int tiles = a.layout.tiles;
  const int parts = a.gather.columnParts;
  const int workers = a.gather.blocksPerTile * kGbGatherWarps;
  const int steps = kGbTile / parts;
  const int i = tile * kGbTile + lane;
  const bool active = i < n;
  double xi = 0.0, yi = 0.0, zi = 0.0;
  Real rhoI = Real(1);
  if (active) {
    xi = a.d_x[3 * i];
    yi = a.d_x[3 * i + 1];
    zi = a.d_x[3 * i + 2];
    rhoI = Real(a.params.d_rho[i]);
  }
  const double cutoff2 = a.descreenCutoff * a.descreenCutoff;
  const Real rgbmax = Real(a.model.rgbmax);
  const Real cut2 = Real(cutoff2);
  double sum = 0.0;
  for (int unit = worker; unit < tiles * parts; unit += workers) {
    const int other = unit / parts;
    if (!boxesNear(rowBox, a.d_tileBox[other], cutoff2)) continue;  // warp-uniform
    // In mixed precision, positions relative to the column tile's first atom (as in
    // gbPairsKernel); in double, absolute (x - 0 = x: no registers for relative row positions).
    constexpr bool kRelative = std::is_same<Real, float>::value;
    const double* origin = a.d_x + 3 * other * kGbTile;
    const double ox = kRelative ? origin[0] : 0.0;
    const double oy = kRelative ? origin[1] : 0.0;
    const double oz = kRelative ? origin[2] : 0.0;
    const int j = other * kGbTile + lane;
    Real xj = Real(0), yj = Real(0), zj = Real(0), sj = Real(0);
    if (j < n) {
      xj = Real(a.d_x[3 * j] - ox);
      yj = Real(a.d_x[3 * j + 1] - oy);
      zj = Real(a.d_x[3 * j + 2] - oz);
      sj = Real(a.params.d_screened[j]);
    }
    const Real xr = Real(xi - ox), yr = Real(yi - oy), zr = Real(zi - oz);
    // The unit's rotation steps: at step s lane l meets column atom (l + s) mod 32, as in the
    // pair and chain-rule passes (the slopes are then stored as the chain rule reads them).
    const int first = (unit % parts) * steps;
    const int width = minInt(kGbTile, n - other * kGbTile);
    Real* slopes = SLOPES ? slopeBlock<Real>(a, tile, other) : nullptr;
    Real unitSum = Real(0);  // one unit in Real, then FP64
    for (int s = first; s < first + steps; ++s) {
      const int m = (lane + s) & (kGbTile - 1);
      const Real xm = __shfl_sync(kFullMask, xj, m);
      const Real ym = __shfl_sync(kFullMask, yj, m);
      const Real zm = __shfl_sync(kFullMask, zj, m);
      const Real sm = __shfl_sync(kFullMask, sj, m);
      Real slope = Real(0);
      if (active && m < width && other * kGbTile + m != i) {
        const Real dx = xr - xm, dy = yr - ym, dz = zr - zm;
        const Real r2 = dx * dx + dy * dy + dz * dz;
        if (r2 <= cut2) {
          // The twins of amberDescreening, one reciprocal of r for every branch; 1/r by the
          // reciprocal square root and r = r^2 / r from it (no square root, no division).
          const Real ir = amberInverseSqrt<Real>(r2);
          if constexpr (SLOPES) {
            const AmberDescreeningT<Real> d =
                amberDescreeningValueAndDerivative<Real>(r2 * ir, ir, rhoI, sm, rgbmax);
            unitSum += d.value;
            slope = d.dValueDr;
          } else {
            unitSum += amberDescreeningValue<Real>(r2 * ir, ir, rhoI, sm, rgbmax);
          }
        }
      }
      // Every entry of a near tile pair is written (0 where no pair), so the chain-rule pass
      // may load a step's slopes before it knows whether it needs them.
      if constexpr (SLOPES) slopes[s * kGbTile + lane] = slope;  // coalesced
    }
    sum += double(unitSum);
  }
  return sum;
}

template <typename Real, bool SLOPES>
__global__ void __launch_bounds__(kGbGatherWarps* kGbTile, 2)
    gbBornRadiiKernel(GbEvalArgs batchArgs) {
  awaitPreviousKernel();
  const long long structure = blockStructure(batchArgs);
  if (structureSkipped(batchArgs, structure)) return;
  const GbEvalArgs a = gbAtStructure(batchArgs, structure);
  // Block p of tile I: warp w is worker p kGbGatherWarps + w. The warp partials meet in shared
  // memory (warp order), the block partials in d_bornPartial (block order, by the last block).
  // The row box lives in shared memory, not in 12 registers per thread (occupancy).
  __shared__ double partial[kGbGatherWarps][kGbTile];
  __shared__ GbTileBox rowBox;
  const int blocksPerTile = a.gather.blocksPerTile;
  const int tile = blockIdx.x / blocksPerTile, block = blockIdx.x % blocksPerTile;
  const int warp = threadIdx.x / kGbTile, lane = threadIdx.x % kGbTile;
  if (threadIdx.x == 0) rowBox = a.d_tileBox[tile];
  __syncthreads();
  partial[warp][lane] =
      bornUnitsSum<Real, SLOPES>(a, rowBox, tile, block * kGbGatherWarps + warp, lane);
  __syncthreads();
  if (warp == 0) {
    double sum = 0.0;
    for (int w = 0; w < kGbGatherWarps; ++w) sum += partial[w][lane];
    a.d_bornPartial[static_cast<long long>(blockIdx.x) * kGbTile + lane] = sum;
  }
  if (!lastBlockToArrive(a.d_tileTickets + tile, static_cast<unsigned>(blocksPerTile))) return;
  if (warp != 0) return;
  double sum = 0.0;
  for (int b = 0; b < blocksPerTile; ++b)
    sum += __ldcg(a.d_bornPartial + (static_cast<long long>(tile) * blocksPerTile + b) * kGbTile +
                  lane);
  const int i = tile * kGbTile + lane;
  double selfEnergy = 0.0;
  if (i < static_cast<int>(a.atoms)) {
    const AmberBornRadius born = amberBornRadius(sum, a.params.d_radius[i], a.model);
    const AmberGbSelfTerm self = amberGbSelf(a.params.d_charge[i], born.radius, a.model);
    a.d_born[i] = born.radius;
    a.d_dBornDSum[i] = born.dRadiusDSum;
    a.d_selfDEdB[i] = self.dEdB;
    selfEnergy = self.energy;
  }
  selfEnergy = warpSum(selfEnergy);
  if (lane == 0) a.d_tileSelfEnergy[tile] = selfEnergy;
}

// ---- 3: bonded terms -----------------------------------------------------------------------

__device__ inline void storeSlot(double* slots, long long slot, const double* g, double scale) {
  for (int c = 0; c < 3; ++c) slots[3 * slot + c] = scale * g[c];
}

/// Term k (< kGbBondedBlock) of bonded block `block`: its gradient slots, its energy added to e0
/// (1-4 pairs: VDW to e0, EEL to e1).
__device__ __forceinline__ void gbBondedTerm(const GbBondedArgs& a, const GbBondedBlocks& blocks,
                                             int block, int k, double& e0, double& e1) {
  const double* x = a.d_x;
  const long long angleSlots = 2LL * a.bonds;
  const long long dihedralSlots = angleSlots + 3LL * a.angles;
  const long long pairSlots = dihedralSlots + 4LL * a.dihedrals;
  if (block < blocks.bonds) {
    const int t = block * kGbBondedBlock + k;
    if (t < a.bonds) {
      const AmberBondTerm b = a.d_bonds[t];
      double gi[3];
      e0 += amberBond(x + 3 * b.i, x + 3 * b.j, b.forceConstant, b.equilibrium, gi);
      storeSlot(a.d_slotGradient, 2LL * t, gi, 1.0);
      storeSlot(a.d_slotGradient, 2LL * t + 1, gi, -1.0);
    }
  } else if (block < blocks.bonds + blocks.angles) {
    const int t = (block - blocks.bonds) * kGbBondedBlock + k;
    if (t < a.angles) {
      const AmberAngleTerm g = a.d_angles[t];
      double gi[3], gk[3], gj[3];
      e0 +=
          amberAngle(x + 3 * g.i, x + 3 * g.j, x + 3 * g.k, g.forceConstant, g.equilibrium, gi, gk);
      for (int c = 0; c < 3; ++c) gj[c] = -gi[c] - gk[c];
      const long long s = angleSlots + 3LL * t;
      storeSlot(a.d_slotGradient, s, gi, 1.0);
      storeSlot(a.d_slotGradient, s + 1, gj, 1.0);
      storeSlot(a.d_slotGradient, s + 2, gk, 1.0);
    }
  } else if (block < blocks.bonds + blocks.angles + blocks.dihedrals) {
    const int t = (block - blocks.bonds - blocks.angles) * kGbBondedBlock + k;
    if (t < a.dihedrals) {
      const AmberDihedralTerm d = a.d_dihedrals[t];
      double g[12];
      e0 += amberDihedral(x + 3 * d.i, x + 3 * d.j, x + 3 * d.k, x + 3 * d.l, d, g);
      const long long s = dihedralSlots + 4LL * t;
      for (int q = 0; q < 4; ++q) storeSlot(a.d_slotGradient, s + q, g + 3 * q, 1.0);
    }
  } else {
    const int t = (block - blocks.bonds - blocks.angles - blocks.dihedrals) * kGbBondedBlock + k;
    if (t < a.pairs14) {
      const AmberPair14Term p = a.d_pairs14[t];
      const double d[3] = {x[3 * p.i] - x[3 * p.j], x[3 * p.i + 1] - x[3 * p.j + 1],
                           x[3 * p.i + 2] - x[3 * p.j + 2]};
      const double r2 = amberDot(d, d);
      const AmberPairTerm lj = amberLennardJones(r2, p.a, p.b);
      const AmberPairTerm el = amberCoulomb(r2, p.chargeProduct);
      e0 += lj.energy;
      e1 += el.energy;
      const double s = lj.dEdrOverR + el.dEdrOverR;
      storeSlot(a.d_slotGradient, pairSlots + 2LL * t, d, s);
      storeSlot(a.d_slotGradient, pairSlots + 2LL * t + 1, d, -s);
    }
  }
}

/// Block `block` of the bonded terms (run by the first blocks of the pair grid; every thread of
/// the block calls it): kGbBondedBlock terms of one kind, on THREADS threads (the pair grid's
/// block), each thread taking terms threadIdx.x, + THREADS, ... and adding their energies in that
/// order (one term each when THREADS = kGbBondedBlock).
template <int THREADS>
__device__ __forceinline__ void gbBondedBlock(const GbBondedArgs& a, const GbBondedBlocks& blocks,
                                              int block) {
  static_assert(kGbBondedBlock % THREADS == 0, "a bonded block's terms divide over its threads");
  double e0 = 0.0, e1 = 0.0;
  for (int k = threadIdx.x; k < kGbBondedBlock; k += THREADS)
    gbBondedTerm(a, blocks, block, k, e0, e1);
  using BlockReduce = cub::BlockReduce<double, THREADS>;
  __shared__ typename BlockReduce::TempStorage storage;
  const double sum0 = BlockReduce(storage).Sum(e0);
  __syncthreads();
  const double sum1 = BlockReduce(storage).Sum(e1);
  if (threadIdx.x == 0) {
    a.d_blockEnergy[2 * block] = sum0;
    a.d_blockEnergy[2 * block + 1] = sum1;
  }
}

// ---- 3: all pairs --------------------------------------------------------------------------

/// Exclusion bits of row atom `lane` of tile `row` against column tile `column` (0: none).
__device__ inline unsigned exclusionMask(const GbExclusions& e, int row, int column, int lane) {
  int lo = e.d_excludedTileOffsets[row], hi = e.d_excludedTileOffsets[row + 1];
  while (lo < hi) {  // binary search: rows hold few, ascending column tiles
    const int mid = (lo + hi) / 2;
    const int tile = e.d_excludedTile[mid];
    if (tile == column) return e.d_excludedMask[kGbTile * mid + lane];
    if (tile < column)
      lo = mid + 1;
    else
      hi = mid;
  }
  return 0u;
}

/// LJ coefficients (A, B) of type pair `type` in the pair loop's arithmetic: the FP64 table, or
/// its float copy (no FP64 conversion per pair in mixed precision); one load each.
__device__ __forceinline__ void pairLj(const GbAtomParams& p, int type, double& ljA, double& ljB) {
  const double2 ab = __ldg(p.d_lj + type);
  ljA = ab.x;
  ljB = ab.y;
}
__device__ __forceinline__ void pairLj(const GbAtomParams& p, int type, float& ljA, float& ljB) {
  const float2 ab = __ldg(p.d_ljFloat + type);
  ljA = ab.x;
  ljB = ab.y;
}

/// The model constants of the pair loop (kappa, 1/eps_in, 1/eps_out) in its arithmetic: FP64
/// from the model, float from the kernel parameters' float copy (GbFloatModel).
template <typename Real>
struct PairConstants {
  Real kappa, interiorInverse, exteriorInverse, cutoff2;
  __device__ explicit PairConstants(const GbEvalArgs& a) {
    if constexpr (std::is_same<Real, float>::value) {
      kappa = a.floatModel.kappa;
      interiorInverse = a.floatModel.interiorInverse;
      exteriorInverse = a.floatModel.exteriorInverse;
      cutoff2 = a.floatModel.cutoff2;
    } else {
      kappa = a.model.kappa;
      interiorInverse = a.model.interiorInverse;
      exteriorInverse = a.model.exteriorInverse;
      cutoff2 = a.model.cutoff2;
    }
  }
};

/// Shared memory of a pair-kernel block: the column tile's atoms and the warps' column sums, in
/// one object: every access in the rotation loop is then one base address plus a constant offset
/// (separate __shared__ arrays each cost an address computation per step).
static_assert((kGbTile & (kGbTile - 1)) == 0, "the rotation takes lane + s mod kGbTile by a mask");

template <typename Real, int ROWS>
struct PairShared {
  // Column-tile positions relative to the tile's first atom, charge, B, 1/B, LJ type.
  Real x[kGbTile], y[kGbTile], z[kGbTile], charge[kGbTile], born[kGbTile], inverseBorn[kGbTile];
  int type[kGbTile];
  /// Each warp's column sums dE/dx, dE/dy, dE/dz, dE/dB of the tile (zero for a warp that skips).
  Real acc[ROWS][kGbSlotValues][kGbTile];
};

// ROWS row tiles (warps) per block, GbPairLayout::rows; at most 85 registers per thread (3 blocks
// of 8 warps per SM, the same registers for any ROWS).
template <typename Real, int ROWS>
__global__ void __launch_bounds__(ROWS* kGbTile, 3 * kGbPairWarps / ROWS)
    gbPairsKernel(GbEvalArgs batchArgs) {
  awaitPreviousKernel();
  const long long structure = blockStructure(batchArgs);
  if (structureSkipped(batchArgs, structure)) return;
  const GbEvalArgs a = gbAtStructure(batchArgs, structure);
  const int bondedBlocks = a.bondedBlocks.total();
  if (static_cast<int>(blockIdx.x) < bondedBlocks) {  // the bonded terms first: no tail
    gbBondedBlock<ROWS * kGbTile>(a.bonded, a.bondedBlocks, static_cast<int>(blockIdx.x));
    return;
  }
  // Column-tile positions relative to the tile's first atom, in Real: in mixed precision every
  // pair operation is FP32 (no conversion per pair), and the offsets stay small where precision
  // matters (close pairs).
  __shared__ PairShared<Real, ROWS> sh;

  const GbPairLayout& layout = a.layout;
  const PairTask task = pairTask(a, static_cast<int>(blockIdx.x) - bondedBlocks);
  const int rowBlock = task.rowBlock, chunk = task.chunk;
  const int stepCount = kGbTile / layout.parts, firstStep = task.part * stepCount;
  const int warp = threadIdx.x / kGbTile, lane = threadIdx.x % kGbTile;
  const int n = static_cast<int>(a.atoms);
  const int row = rowBlock * ROWS + warp;
  const bool rowTile = row < layout.tiles;
  const int i = row * kGbTile + lane;
  const bool active = rowTile && i < n;

  double xi = 0.0, yi = 0.0, zi = 0.0;
  Real qi = Real(0), bi = Real(1), inverseBi = Real(1);
  int typeRow = 0;
  if (active) {
    xi = a.d_x[3 * i];
    yi = a.d_x[3 * i + 1];
    zi = a.d_x[3 * i + 2];
    qi = Real(a.params.d_charge[i]);
    bi = Real(a.d_born[i]);
    inverseBi = Real(1.0 / a.d_born[i]);
    typeRow = a.params.d_ljType[i] * a.params.ljTypeCount;
  }
  const PairConstants<Real> model(a);
  const Real kappa = model.kappa;
  const Real interiorInverse = model.interiorInverse;
  const Real exteriorInverse = model.exteriorInverse;
  const Real cutoff2 = model.cutoff2;
  // With a finite cut, a tile pair whose boxes lie farther apart than cut has no pair within it
  // (the boxes of this evaluation's positions, as the Born-radius kernels use them).
  const bool cutTiles = a.model.cutoff2 < 1e300;
  __shared__ GbTileBox sRowBox[ROWS];
  if (cutTiles && rowTile && lane == 0) sRowBox[warp] = a.d_tileBox[row];

  // FP64 sums. In mixed precision each column tile is summed in FP32 first (t* below) and added
  // here, as in OpenMM's mixed mode; in double precision the t* sums are the FP64 sums themselves
  // (no second set of registers).
  constexpr bool kTileSums = std::is_same<Real, float>::value;
  double gx = 0.0, gy = 0.0, gz = 0.0, dEdB = 0.0;
  double eVdw = 0.0, eEel = 0.0, eGb = 0.0;
  Real tgx = Real(0), tgy = Real(0), tgz = Real(0), tdEdB = Real(0);
  Real tVdw = Real(0), tEel = Real(0), tGb = Real(0);
  const int firstColumn = chunk * layout.chunk;
  const int lastColumn = gbChunkLastTile(layout, chunk);
  for (int column = firstColumn; column <= lastColumn; ++column) {
    const double* origin = a.d_x + 3 * column * kGbTile;
    const double ox = origin[0], oy = origin[1], oz = origin[2];
    if (threadIdx.x < kGbTile) {
      const int j = column * kGbTile + threadIdx.x;
      if (j < n) {
        sh.x[threadIdx.x] = Real(a.d_x[3 * j] - ox);
        sh.y[threadIdx.x] = Real(a.d_x[3 * j + 1] - oy);
        sh.z[threadIdx.x] = Real(a.d_x[3 * j + 2] - oz);
        sh.charge[threadIdx.x] = Real(a.params.d_charge[j]);
        sh.born[threadIdx.x] = Real(a.d_born[j]);
        sh.inverseBorn[threadIdx.x] = Real(1.0 / a.d_born[j]);
        sh.type[threadIdx.x] = a.params.d_ljType[j];
      }
    }
    for (int c = 0; c < kGbSlotValues; ++c) sh.acc[warp][c][lane] = Real(0);
    __syncthreads();
    // The same for the whole warp.
    const bool near = rowTile && row <= column &&
                      (!cutTiles || boxesNear(sRowBox[warp], a.d_tileBox[column], a.model.cutoff2));
    if (near) {
      const Real xr = Real(xi - ox), yr = Real(yi - oy), zr = Real(zi - oz);
      if constexpr (kTileSums) {
        tgx = tgy = tgz = tdEdB = tVdw = tEel = tGb = Real(0);
      }
      const unsigned mask = exclusionMask(a.exclusions, row, column, lane);
      const int width = minInt(kGbTile, n - column * kGbTile);
      // Lane l meets column atom (l + s) mod 32 at step s, and every column atom's sum runs over s
      // in a fixed order. This block takes steps [firstStep, firstStep + stepCount). The column
      // atom's accumulators travel with it: lane l holds those of atom (l + s) mod 32 and passes
      // them to lane l - 1 after the step (a shuffle per value instead of a shared-memory
      // read-modify-write; the same additions in the same order), then they land in sh.acc.
      Real cx = Real(0), cy = Real(0), cz = Real(0), cb = Real(0);
      for (int s = firstStep; s < firstStep + stepCount; ++s) {
        const int m = (lane + s) & (kGbTile - 1);  // (lane + s) mod 32, one instruction
        bool pair = active && m < width && (column != row || m > lane);
        Real dx = Real(0), dy = Real(0), dz = Real(0), r2 = Real(0), inverseBb = Real(0);
        if (pair) {
          dx = xr - sh.x[m];
          dy = yr - sh.y[m];
          dz = zr - sh.z[m];
          r2 = dx * dx + dy * dy + dz * dz;
          inverseBb = inverseBi * sh.inverseBorn[m];
          pair = !(r2 > cutoff2);  // sander's cut (egb.F90, Step 2 keeps r^2 <= cut^2); NaN stays
        }
        // Far pairs (x = r^2 / (4 BiBj) > X, potentials/AmberGbTerms.h): f = r and dE/dB = 0,
        // so no exp(-x), one inverse square root for GB, LJ and Coulomb, and no dE/dB sums. The
        // warp takes that path only when all its pairs of this step are far (a vote: no
        // divergence); the far and near expressions agree there to the arithmetic's rounding.
        const bool far = __all_sync(kFullMask, !pair || amberGbPairIsFar<Real>(r2, inverseBb));
        if (pair) {
          const Real qiqj = qi * sh.charge[m];
          const bool excluded = (mask >> m) & 1u;
          Real dEdrOverR, ir = Real(0);
          if (far) {
            ir = amberInverseSqrt<Real>(r2);
            const AmberPairTermT<Real> gb =
                amberGbPairFar<Real>(r2, ir, qiqj, kappa, interiorInverse, exteriorInverse);
            tGb += gb.energy;
            dEdrOverR = gb.dEdrOverR;
          } else {
            const AmberGbPairTermT<Real> gb = amberGbPair<Real>(
                r2, qiqj, bi, sh.born[m], inverseBb, kappa, interiorInverse, exteriorInverse);
            tGb += gb.energy;
            tdEdB += gb.dEdBi;
            cb += gb.dEdBj;
            dEdrOverR = gb.dEdrOverR;
            // One inverse square root serves LJ and Coulomb: no division in the pair loop.
            if (!excluded) ir = amberInverseSqrt<Real>(r2);
          }
          if (!excluded) {
            const int type = typeRow + sh.type[m];
            Real ljA, ljB;
            pairLj(a.params, type, ljA, ljB);
            const AmberPairTermT<Real> lj = amberLennardJonesFromInverse<Real>(ir * ir, ljA, ljB);
            const AmberPairTermT<Real> el =
                amberCoulombFromInverse<Real>(ir, qiqj * interiorInverse);
            tVdw += lj.energy;
            tEel += el.energy;
            dEdrOverR += lj.dEdrOverR + el.dEdrOverR;
          }
          const Real fx = dEdrOverR * dx, fy = dEdrOverR * dy, fz = dEdrOverR * dz;
          tgx += fx;
          tgy += fy;
          tgz += fz;
          cx -= fx;
          cy -= fy;
          cz -= fz;
        }
        const int next = (lane + 1) & (kGbTile - 1);
        cx = __shfl_sync(kFullMask, cx, next);
        cy = __shfl_sync(kFullMask, cy, next);
        cz = __shfl_sync(kFullMask, cz, next);
        cb = __shfl_sync(kFullMask, cb, next);
      }
      const int held = (lane + firstStep + stepCount) & (kGbTile - 1);  // the atom lane l holds
      sh.acc[warp][0][held] = cx;
      sh.acc[warp][1][held] = cy;
      sh.acc[warp][2][held] = cz;
      sh.acc[warp][3][held] = cb;
      if constexpr (kTileSums) {
        gx += double(tgx);
        gy += double(tgy);
        gz += double(tgz);
        dEdB += double(tdEdB);
        eVdw += double(tVdw);
        eEel += double(tEel);
        eGb += double(tGb);
      }
    }
    __syncthreads();
    // The column sums of the block's warps, in warp order (blocks of fewer than kGbSlotValues
    // warps write several values per thread).
    for (int t = threadIdx.x; t < kGbSlotValues * kGbTile; t += ROWS * kGbTile) {
      const int c = t / kGbTile, l = t % kGbTile;
      double v = 0.0;
      for (int w = 0; w < ROWS; ++w) v += double(sh.acc[w][c][l]);
      a.d_columnSlots[columnSlotBase(layout, column, rowBlock, task.part) + c * kGbTile + l] = v;
    }
    __syncthreads();
  }
  if constexpr (!kTileSums) {
    gx = tgx;
    gy = tgy;
    gz = tgz;
    dEdB = tdEdB;
    eVdw = tVdw;
    eEel = tEel;
    eGb = tGb;
  }
  if (rowTile) {
    const long long base = rowSlotBase(layout, row, chunk, task.part) + lane;
    a.d_rowSlots[base] = gx;
    a.d_rowSlots[base + kGbTile] = gy;
    a.d_rowSlots[base + 2 * kGbTile] = gz;
    a.d_rowSlots[base + 3 * kGbTile] = dEdB;
  }
  using BlockReduce = cub::BlockReduce<double, ROWS * kGbTile>;
  __shared__ typename BlockReduce::TempStorage storage;
  const double vdw = BlockReduce(storage).Sum(eVdw);
  __syncthreads();
  const double eel = BlockReduce(storage).Sum(eEel);
  __syncthreads();
  const double gbSum = BlockReduce(storage).Sum(eGb);
  if (threadIdx.x == 0) {
    a.d_pairBlockEnergy[3 * task.index] = vdw;
    a.d_pairBlockEnergy[3 * task.index + 1] = eel;
    a.d_pairBlockEnergy[3 * task.index + 2] = gbSum;
  }
}

// ---- 3b: per-atom sums of the pair slots ---------------------------------------------------

/// The shape of a slot-sum grid whose sums are each formed by G warps (G = 1, 4 or 16): a block of
/// kWarps warps forms kSums sums; warp g of a sum forms partials g, g + G, ... (kOwn of them),
/// loading kRounds rounds of items (kOwn x kRounds >= 8 loads in flight) before it adds them.
template <int G>
struct SlotSumShape {
  static_assert(kGbSlotPartials % G == 0, "G divides the partials");
  static constexpr int kWarps = G > kGbSlotSumWarps ? G : kGbSlotSumWarps;
  static constexpr int kSums = kWarps / G;
  static constexpr int kOwn = kGbSlotPartials / G;
  static constexpr int kRounds = kOwn >= 8 ? 1 : 8 / kOwn;
};

/// Value `value` of the slots of one atom (tile, lane) in a row-slot and a column-slot array of
/// the pair-task layout (gbTileSlotItems: the items of existing tasks, row items first), added in
/// the fixed order of the slot sums: partial w takes items w, w + kGbSlotPartials, ... in index
/// order. Warp g of the G forming the sum adds the partials w = g + j G into own[j].
template <int G>
__device__ __forceinline__ void addPairSlots(const GbPairLayout& layout, const double* rowSlots,
                                             const double* columnSlots, int tile, int lane,
                                             int value, int g,
                                             double (&own)[SlotSumShape<G>::kOwn]) {
  constexpr int kOwn = SlotSumShape<G>::kOwn, kRounds = SlotSumShape<G>::kRounds;
  const GbTileSlotItems items = gbTileSlotItems(layout, tile);
  constexpr long long kItem = static_cast<long long>(kGbSlotValues) * kGbTile;
  const double* row = rowSlots + items.rowBase + value * kGbTile + lane;
  const double* column = columnSlots + items.columnBase + value * kGbTile + lane;
  const int count = items.rowCount + items.columnCount;
  for (int first = g; first < count; first += kRounds * kGbSlotPartials) {
    double loaded[kRounds][kOwn];
#pragma unroll
    for (int r = 0; r < kRounds; ++r)
#pragma unroll
      for (int j = 0; j < kOwn; ++j) {
        const int k = first + r * kGbSlotPartials + j * G;
        loaded[r][j] = k >= count           ? 0.0
                       : k < items.rowCount ? row[k * kItem]
                                            : column[(k - items.rowCount) * kItem];
      }
#pragma unroll
    for (int r = 0; r < kRounds; ++r)
#pragma unroll
      for (int j = 0; j < kOwn; ++j)
        if (first + r * kGbSlotPartials + j * G < count) own[j] += loaded[r][j];
  }
}

/// Component `value` (0..2) of the bonded gradient slots of `atom` (d_atomSlots[offsets[atom]
/// ..]), in the same order: partial w takes slots w, w + kGbSlotPartials, ...; the indices and
/// values of kRounds rounds of slots are loaded before they are added.
template <int G>
__device__ __forceinline__ void addBondedSlots(const GbEvalArgs& a, int atom, int value, int g,
                                               double (&own)[SlotSumShape<G>::kOwn]) {
  constexpr int kOwn = SlotSumShape<G>::kOwn, kRounds = SlotSumShape<G>::kRounds;
  const int end = a.d_atomSlotOffsets[atom + 1];
  for (int first = a.d_atomSlotOffsets[atom] + g; first < end; first += kRounds * kGbSlotPartials) {
    int slot[kRounds][kOwn];
#pragma unroll
    for (int r = 0; r < kRounds; ++r)
#pragma unroll
      for (int j = 0; j < kOwn; ++j) {
        const int k = first + r * kGbSlotPartials + j * G;
        slot[r][j] = k < end ? a.d_atomSlots[k] : -1;
      }
    double loaded[kRounds][kOwn];
#pragma unroll
    for (int r = 0; r < kRounds; ++r)
#pragma unroll
      for (int j = 0; j < kOwn; ++j)
        loaded[r][j] = slot[r][j] >= 0 ? a.d_slotGradient[3LL * slot[r][j] + value] : 0.0;
#pragma unroll
    for (int r = 0; r < kRounds; ++r)
#pragma unroll
      for (int j = 0; j < kOwn; ++j)
        if (slot[r][j] >= 0) own[j] += loaded[r][j];
  }
}

/// The partials of sum `sum` of the block (warps g = 0..G-1 holding own[j] = partial g + j G)
/// added in order; the result is in warp g = 0 (the others get 0). Every thread of the block
/// calls it.
template <int G>
__device__ __forceinline__ double addPartials(const double (&own)[SlotSumShape<G>::kOwn], int sum,
                                              int g, int lane) {
  double total = 0.0;
  if constexpr (G == 1) {
#pragma unroll
    for (int w = 0; w < kGbSlotPartials; ++w) total += own[w];
  } else {
    __shared__ double partial[SlotSumShape<G>::kSums][kGbSlotPartials][kGbTile];
#pragma unroll
    for (int j = 0; j < SlotSumShape<G>::kOwn; ++j) partial[sum][g + j * G][lane] = own[j];
    __syncthreads();
    if (g != 0) return 0.0;
#pragma unroll
    for (int w = 0; w < kGbSlotPartials; ++w) total += partial[sum][w][lane];
  }
  return total;
}

/// The 8 energy components (BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, 1-4_EEL, EGB) by one
/// block: warp c < 8 sums component c, lanes strided, then a fixed-order warp sum; then thread 0
/// writes their total. Every thread of the block calls it. Every term is known once the pair grid
/// (bonded and pair blocks) has run.
__device__ __forceinline__ void sumEnergyComponents(const GbEvalArgs& a, int warp, int lane) {
  static_assert(kGbSlotSumWarps >= 8, "one warp per energy component");
  __shared__ double component[8];
  if (warp < 8) {
    const GbBondedBlocks& b = a.bondedBlocks;
    const double* bonded = a.d_bondedBlockEnergy;
    const int angles = b.bonds, dihedrals = angles + b.angles, pairs = dihedrals + b.dihedrals;
    const int pairBlocks = a.layout.taskCount * a.layout.parts;
    // (values, first, last, stride, offset) of the component's terms; EGB adds a second set below.
    const double* values = a.d_pairBlockEnergy;
    int first = 0, last = pairBlocks, stride = 3, offset = warp - 3;
    if (warp < 3 || warp == 5 || warp == 6) {
      const int bounds[4] = {0, angles, dihedrals, pairs};
      values = bonded;
      stride = 2;
      first = warp < 3 ? bounds[warp] : pairs;
      last = warp < 2 ? bounds[warp + 1] : (warp == 2 ? pairs : pairs + b.pairs14);
      offset = warp == 6 ? 1 : 0;
    } else if (warp == 7) {
      offset = 2;
    }
    double partial = 0.0;
#pragma unroll 4
    for (int k = first + lane; k < last; k += kGbTile)
      partial += values[static_cast<long long>(stride) * k + offset];
    if (warp == 7)
      for (int t = lane; t < a.layout.tiles; t += kGbTile) partial += a.d_tileSelfEnergy[t];
    partial = warpSum(partial);
    if (lane == 0) {
      a.d_energy[warp] = partial;
      component[warp] = partial;
    }
  }
  __syncthreads();
  // Left to right, as AmberEnergyBreakdown::total() adds them on the host.
  if (threadIdx.x == 0)
    *a.d_total = component[0] + component[1] + component[2] + component[3] + component[4] +
                 component[5] + component[6] + component[7];
}

/// Sum (tile, value) of the pair slot sums for value < kGbSlotValues: dE/dx, dE/dy, dE/dz of the
/// pair terms, or dE/dB (then dE/dI_i = (dE/dB_i + self) dB_i/dI_i), by G warps; the last block
/// sums the energy components (they need nothing later than the pair grid).
template <int G>
__global__ void __launch_bounds__(SlotSumShape<G>::kWarps* kGbTile)
    gbPairReduceKernel(GbEvalArgs batchArgs) {
  using Shape = SlotSumShape<G>;
  awaitPreviousKernel();
  const long long structure = blockStructure(batchArgs);
  if (structureSkipped(batchArgs, structure)) return;
  const GbEvalArgs a = gbAtStructure(batchArgs, structure);
  const int warp = threadIdx.x / kGbTile, lane = threadIdx.x % kGbTile;
  const int sums = a.layout.tiles * kGbSlotValues;
  if (static_cast<int>(blockIdx.x) * Shape::kSums >= sums) {
    sumEnergyComponents(a, warp, lane);
    return;
  }
  const int inBlock = warp / G, g = warp % G;
  const int sum = static_cast<int>(blockIdx.x) * Shape::kSums + inBlock;
  const int tile = sum / kGbSlotValues, value = sum % kGbSlotValues;
  double own[Shape::kOwn] = {};
  if (sum < sums)
    addPairSlots<G>(a.layout, a.d_rowSlots, a.d_columnSlots, tile, lane, value, g, own);
  const double v = addPartials<G>(own, inBlock, g, lane);
  const int atom = tile * kGbTile + lane;
  if (g != 0 || sum >= sums || atom >= static_cast<int>(a.atoms)) return;
  if (value < 3)
    a.d_pairGradient[3 * atom + value] = v;
  else
    a.d_dEdSum[atom] = (v + a.d_selfDEdB[atom]) * a.d_dBornDSum[atom];
}

// ---- 4: chain rule through the Born radii, and the final gradient --------------------------

// At most 85 registers per thread, as gbPairsKernel (in double 24 warps per SM with a few spills
// outside the pair loop run faster than 16 without).
// SLOPES: the pairs' dI_ij/dr and dI_ji/dr come from the Born pass's slope table (two coalesced
// loads per step) instead of the branches of amberDescreeningDerivative.
template <typename Real, int ROWS, bool SLOPES>
__global__ void __launch_bounds__(ROWS* kGbTile, 3 * kGbPairWarps / ROWS)
    gbChainPairsKernel(GbEvalArgs batchArgs) {
  awaitPreviousKernel();
  const long long structure = blockStructure(batchArgs);
  if (structureSkipped(batchArgs, structure)) return;
  const GbEvalArgs a = gbAtStructure(batchArgs, structure);
  // The pair-task grid of gbPairsKernel, each pair i < j within rgbmax + max s once:
  // dE/dr_ij = dE/dI_i dI_ij/dr + dE/dI_j dI_ji/dr (dE/dI = a.d_dEdSum), applied to both atoms.
  // Tile pairs whose boxes lie beyond the cutoff are skipped; their slots are written as zeros.
  __shared__ Real sx[kGbTile], sy[kGbTile], sz[kGbTile];
  __shared__ Real sRho[kGbTile], sScreened[kGbTile], sdEdSum[kGbTile];
  __shared__ Real sAcc[ROWS][3][kGbTile];

  const GbPairLayout& layout = a.layout;
  const PairTask task = pairTask(a, static_cast<int>(blockIdx.x));
  const int rowBlock = task.rowBlock, chunk = task.chunk;
  const int stepCount = kGbTile / layout.parts, firstStep = task.part * stepCount;
  const int warp = threadIdx.x / kGbTile, lane = threadIdx.x % kGbTile;
  const int n = static_cast<int>(a.atoms);
  const int row = rowBlock * ROWS + warp;
  const bool rowTile = row < layout.tiles;
  const int i = row * kGbTile + lane;
  const bool active = rowTile && i < n;
  double xi = 0.0, yi = 0.0, zi = 0.0;
  Real rhoI = Real(1), sI = Real(0), dEdSumI = Real(0);
  if (active) {
    xi = a.d_x[3 * i];
    yi = a.d_x[3 * i + 1];
    zi = a.d_x[3 * i + 2];
    if (!SLOPES) {  // the kept slopes need no radii
      rhoI = Real(a.params.d_rho[i]);
      sI = Real(a.params.d_screened[i]);
    }
    dEdSumI = Real(a.d_dEdSum[i]);
  }
  // The row boxes in shared memory, not in 12 registers per thread (occupancy); read after the
  // first barrier of the column loop.
  __shared__ GbTileBox sRowBox[ROWS];
  if (rowTile && lane == 0) sRowBox[warp] = a.d_tileBox[row];
  const Real rgbmax = Real(a.model.rgbmax);
  const double cutoff2 = a.descreenCutoff * a.descreenCutoff;
  const Real cut2 = Real(cutoff2);
  constexpr bool kTileSums = std::is_same<Real, float>::value;
  double gx = 0.0, gy = 0.0, gz = 0.0;
  Real tgx = Real(0), tgy = Real(0), tgz = Real(0);

  for (int column = chunk * layout.chunk; column <= gbChunkLastTile(layout, chunk); ++column) {
    const double* origin = a.d_x + 3 * column * kGbTile;
    const double ox = origin[0], oy = origin[1], oz = origin[2];
    if (threadIdx.x < kGbTile) {
      const int j = column * kGbTile + threadIdx.x;
      if (j < n) {
        sx[threadIdx.x] = Real(a.d_x[3 * j] - ox);
        sy[threadIdx.x] = Real(a.d_x[3 * j + 1] - oy);
        sz[threadIdx.x] = Real(a.d_x[3 * j + 2] - oz);
        if (!SLOPES) {
          sRho[threadIdx.x] = Real(a.params.d_rho[j]);
          sScreened[threadIdx.x] = Real(a.params.d_screened[j]);
        }
        sdEdSum[threadIdx.x] = Real(a.d_dEdSum[j]);
      }
    }
    for (int c = 0; c < 3; ++c) sAcc[warp][c][lane] = Real(0);
    __syncthreads();
    // The same for the whole warp.
    const bool near =
        rowTile && row <= column && boxesNear(sRowBox[warp], a.d_tileBox[column], cutoff2);
    if (near) {
      const Real xr = Real(xi - ox), yr = Real(yi - oy), zr = Real(zi - oz);
      if constexpr (kTileSums) tgx = tgy = tgz = Real(0);
      const int width = minInt(kGbTile, n - column * kGbTile);
      // dI_ij/dr of (row atom, column atom) at [s][lane]; dI_ji/dr at [-s mod 32][column atom].
      const Real* rowSlopes = SLOPES ? slopeBlock<Real>(a, row, column) : nullptr;
      const Real* columnSlopes = SLOPES ? slopeBlock<Real>(a, column, row) : nullptr;
      // The rotation of gbPairsKernel, this block's part of it, the column atom's accumulators
      // travelling with it as there (the same additions in the same order as a shared-memory
      // read-modify-write per pair, without its loads and stores).
      Real cx = Real(0), cy = Real(0), cz = Real(0);
#pragma unroll 4
      for (int s = firstStep; s < firstStep + stepCount; ++s) {
        const int m = (lane + s) & (kGbTile - 1);
        // Loaded ahead of the test (every entry of a near tile pair is written): the unrolled
        // steps' loads are in flight together.
        Real keptIij = Real(0), keptIji = Real(0);
        if constexpr (SLOPES) {
          keptIij = rowSlopes[s * kGbTile + lane];
          keptIji = columnSlopes[((kGbTile - s) & (kGbTile - 1)) * kGbTile + m];
        }
        if (active && m < width && (column != row || m > lane)) {
          const Real dx = xr - sx[m], dy = yr - sy[m], dz = zr - sz[m];
          const Real r2 = dx * dx + dy * dy + dz * dz;
          if (r2 <= cut2) {
            // One reciprocal of r for both directions and the 1/r of dE/dr (the derivative-only
            // twin of amberDescreening multiplies where it divides), by the reciprocal square
            // root, and r = r^2 / r from it.
            const Real ir = amberInverseSqrt<Real>(r2);
            Real dIij, dIji;
            if constexpr (SLOPES) {
              dIij = keptIij;
              dIji = keptIji;
            } else {
              const Real r = r2 * ir;
              dIij = amberDescreeningDerivative<Real>(r, ir, rhoI, sScreened[m], rgbmax);
              dIji = amberDescreeningDerivative<Real>(r, ir, sRho[m], sI, rgbmax);
            }
            const Real dEdrOverR = (dEdSumI * dIij + sdEdSum[m] * dIji) * ir;
            const Real fx = dEdrOverR * dx, fy = dEdrOverR * dy, fz = dEdrOverR * dz;
            tgx += fx;
            tgy += fy;
            tgz += fz;
            cx -= fx;
            cy -= fy;
            cz -= fz;
          }
        }
        const int next = (lane + 1) & (kGbTile - 1);
        cx = __shfl_sync(kFullMask, cx, next);
        cy = __shfl_sync(kFullMask, cy, next);
        cz = __shfl_sync(kFullMask, cz, next);
      }
      const int held = (lane + firstStep + stepCount) & (kGbTile - 1);  // the atom lane l holds
      sAcc[warp][0][held] = cx;
      sAcc[warp][1][held] = cy;
      sAcc[warp][2][held] = cz;
      if constexpr (kTileSums) {
        gx += double(tgx);
        gy += double(tgy);
        gz += double(tgz);
      }
    }
    __syncthreads();
    for (int t = threadIdx.x; t < kGbSlotValues * kGbTile; t += ROWS * kGbTile) {
      const int c = t / kGbTile, l = t % kGbTile;
      double v = 0.0;
      if (c < 3)
        for (int w = 0; w < ROWS; ++w) v += double(sAcc[w][c][l]);
      a.d_chainColumnSlots[columnSlotBase(layout, column, rowBlock, task.part) + c * kGbTile + l] =
          v;
    }
    __syncthreads();
  }
  if constexpr (!kTileSums) {
    gx = tgx;
    gy = tgy;
    gz = tgz;
  }
  if (rowTile) {
    const long long base = rowSlotBase(layout, row, chunk, task.part) + lane;
    a.d_chainRowSlots[base] = gx;
    a.d_chainRowSlots[base + kGbTile] = gy;
    a.d_chainRowSlots[base + 2 * kGbTile] = gz;
    a.d_chainRowSlots[base + 3 * kGbTile] = 0.0;
  }
}

/// The final gradient: pair terms + chain rule (slot sums) + bonded slots, one sum per tile and
/// Cartesian component by G warps; each partial adds its chain slot items and then its bonded
/// slots.
template <int G>
__global__ void __launch_bounds__(SlotSumShape<G>::kWarps* kGbTile)
    gbAssembleGradientKernel(GbEvalArgs batchArgs) {
  using Shape = SlotSumShape<G>;
  awaitPreviousKernel();
  const long long structure = blockStructure(batchArgs);
  if (structureSkipped(batchArgs, structure)) return;
  const GbEvalArgs a = gbAtStructure(batchArgs, structure);
  const int warp = threadIdx.x / kGbTile, lane = threadIdx.x % kGbTile;
  const int inBlock = warp / G, g = warp % G;
  const int sum = static_cast<int>(blockIdx.x) * Shape::kSums + inBlock;
  const bool exists = sum < a.layout.tiles * 3;
  const int tile = sum / 3, value = sum % 3;
  const int atom = tile * kGbTile + lane;
  const bool active = exists && atom < static_cast<int>(a.atoms);
  double own[Shape::kOwn] = {};
  if (exists)
    addPairSlots<G>(a.layout, a.d_chainRowSlots, a.d_chainColumnSlots, tile, lane, value, g, own);
  if (active) addBondedSlots<G>(a, atom, value, g, own);
  const double v = addPartials<G>(own, inBlock, g, lane);
  if (g == 0 && active) a.d_g[3 * atom + value] = a.d_pairGradient[3 * atom + value] + v;
}

unsigned int blocksFor(long long items, int perBlock) {
  return static_cast<unsigned int>((items + perBlock - 1) / perBlock);
}

}  // namespace

GbPairLayout gbPairLayout(std::size_t atoms, int chunk, int parts, int rows) {
  if (atoms == 0) throw std::invalid_argument("gbPairLayout: atoms must be > 0");
  if (chunk < 1) throw std::invalid_argument("gbPairLayout: chunk must be >= 1");
  if (parts < 1 || parts > kGbTile || kGbTile % parts != 0)
    throw std::invalid_argument("gbPairLayout: parts must divide " + std::to_string(kGbTile));
  if (rows != 1 && rows != 2 && rows != 4 && rows != kGbPairWarps)
    throw std::invalid_argument("gbPairLayout: rows per block must be 1, 2, 4 or 8, got " +
                                std::to_string(rows));
  GbPairLayout l;
  l.rows = rows;
  l.tiles = static_cast<int>((atoms + kGbTile - 1) / kGbTile);
  l.chunk = chunk;
  l.rowBlocks = (l.tiles + rows - 1) / rows;
  l.chunks = (l.tiles + chunk - 1) / chunk;
  l.parts = parts;
  for (int b = 0; b < l.rowBlocks; ++b)
    for (int c = 0; c < l.chunks; ++c)
      if (gbPairTaskExists(l, b, c)) ++l.taskCount;
  return l;
}

namespace {

__global__ void __launch_bounds__(kGbBondedBlock)
    gbBondedKernel(GbBondedArgs a, GbBondedBlocks blocks) {
  gbBondedBlock<kGbBondedBlock>(a, blocks, static_cast<int>(blockIdx.x));
}

}  // namespace

void launchGbBonded(const GbBondedArgs& args, const GbBondedBlocks& blocks, cudaStream_t stream) {
  if (blocks.total() == 0) return;
  gbBondedKernel<<<static_cast<unsigned>(blocks.total()), kGbBondedBlock, 0, stream>>>(args,
                                                                                       blocks);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void gbBondedAtomSlots(const AmberGbTables& t, std::size_t atoms, std::vector<int>& offsets,
                       std::vector<int>& slots) {
  std::vector<std::vector<int>> perAtom(atoms);
  int slot = 0;
  for (const AmberBondTerm& b : t.bonds)
    for (int atom : {b.i, b.j}) perAtom[static_cast<std::size_t>(atom)].push_back(slot++);
  for (const AmberAngleTerm& a : t.angles)
    for (int atom : {a.i, a.j, a.k}) perAtom[static_cast<std::size_t>(atom)].push_back(slot++);
  for (const AmberDihedralTerm& d : t.dihedrals)
    for (int atom : {d.i, d.j, d.k, d.l}) perAtom[static_cast<std::size_t>(atom)].push_back(slot++);
  for (const AmberPair14Term& p : t.pairs14)
    for (int atom : {p.i, p.j}) perAtom[static_cast<std::size_t>(atom)].push_back(slot++);
  offsets.assign(1, 0);
  slots.clear();
  for (const std::vector<int>& list : perAtom) {
    slots.insert(slots.end(), list.begin(), list.end());
    offsets.push_back(static_cast<int>(slots.size()));
  }
}

GbBondedBlocks gbBondedBlocks(int bonds, int angles, int dihedrals, int pairs14) {
  GbBondedBlocks b;
  b.bonds = static_cast<int>(blocksFor(bonds, kGbBondedBlock));
  b.angles = static_cast<int>(blocksFor(angles, kGbBondedBlock));
  b.dihedrals = static_cast<int>(blocksFor(dihedrals, kGbBondedBlock));
  b.pairs14 = static_cast<int>(blocksFor(pairs14, kGbBondedBlock));
  return b;
}

namespace {

long long alignedDoubles(long long count) { return (count + 31) / 32 * 32; }  // 256 bytes

}  // namespace

GbScratchLayout gbScratchLayout(std::size_t atoms, const GbPairLayout& layout,
                                const GbGatherLayout& gather, std::size_t bondedSlots,
                                const GbBondedBlocks& bondedBlocks, bool descreenSlopes) {
  static_assert(sizeof(GbTileBox) == 6 * sizeof(double), "tile boxes are 6 doubles");
  const long long n = static_cast<long long>(atoms), tiles = layout.tiles;
  const long long slotBlock = static_cast<long long>(kGbSlotValues) * kGbTile * layout.parts;
  GbScratchLayout l;
  long long next = 0;
  auto take = [&next](long long count) {
    const long long at = next;
    next += alignedDoubles(count > 0 ? count : 1);
    return at;
  };
  l.tileBox = take(6 * tiles);
  l.bornPartial = take(tiles * gather.blocksPerTile * kGbTile);
  l.born = take(n);
  l.dBornDSum = take(n);
  l.selfDEdB = take(n);
  l.dEdSum = take(n);
  l.tileSelfEnergy = take(tiles);
  l.rowSlots = take(tiles * layout.chunks * slotBlock);
  l.chainRowSlots = take(tiles * layout.chunks * slotBlock);
  l.columnSlots = take(tiles * layout.rowBlocks * slotBlock);
  l.chainColumnSlots = take(tiles * layout.rowBlocks * slotBlock);
  l.pairBlockEnergy = take(3LL * layout.taskCount * layout.parts);
  l.pairGradient = take(3 * n);
  l.slotGradient = take(3 * static_cast<long long>(bondedSlots));
  l.bondedBlockEnergy = take(2LL * bondedBlocks.total());
  l.components = take(8);
  if (descreenSlopes) l.descreenSlopes = take(tiles * tiles * kGbTile * kGbTile);
  l.stride = next;
  l.tickets = tiles;
  return l;
}

void bindGbScratch(GbEvalArgs& a, const GbScratchLayout& l, double* scratch, unsigned* tickets) {
  a.batch.scratchStride = l.stride;
  a.batch.ticketStride = l.tickets;
  a.d_tileBox = reinterpret_cast<GbTileBox*>(scratch + l.tileBox);
  a.d_bornPartial = scratch + l.bornPartial;
  a.d_born = scratch + l.born;
  a.d_dBornDSum = scratch + l.dBornDSum;
  a.d_selfDEdB = scratch + l.selfDEdB;
  a.d_dEdSum = scratch + l.dEdSum;
  a.d_tileSelfEnergy = scratch + l.tileSelfEnergy;
  a.d_rowSlots = scratch + l.rowSlots;
  a.d_chainRowSlots = scratch + l.chainRowSlots;
  a.d_columnSlots = scratch + l.columnSlots;
  a.d_chainColumnSlots = scratch + l.chainColumnSlots;
  a.d_pairBlockEnergy = scratch + l.pairBlockEnergy;
  a.d_pairGradient = scratch + l.pairGradient;
  a.d_slotGradient = scratch + l.slotGradient;
  a.d_bondedBlockEnergy = scratch + l.bondedBlockEnergy;
  a.d_energy = scratch + l.components;
  a.d_descreenSlopes = l.descreenSlopes > 0 ? scratch + l.descreenSlopes : nullptr;
  a.bonded.d_slotGradient = scratch + l.slotGradient;
  a.bonded.d_blockEnergy = scratch + l.bondedBlockEnergy;
  a.d_tileTickets = tickets;
}

namespace {

/// One kernel of the sequence over `structures` rows of the grid; `programmatic`: may start while
/// the previous kernel in the stream runs (its blocks wait in awaitPreviousKernel).
void launchGbKernel(void (*kernel)(GbEvalArgs), unsigned blocks, unsigned structures, int threads,
                    cudaStream_t stream, bool programmatic, const GbEvalArgs& a) {
  launchMaybeProgrammatic(kernel, dim3(blocks, structures), dim3(static_cast<unsigned>(threads)),
                          stream, programmatic, a);
}

/// Calls f(std::integral_constant<int, R>{}) for the rows per block r (1, 2, 4 or 8).
template <class F>
void withPairRows(int r, F f) {
  switch (r) {
    case 1:
      f(std::integral_constant<int, 1>{});
      break;
    case 2:
      f(std::integral_constant<int, 2>{});
      break;
    case 4:
      f(std::integral_constant<int, 4>{});
      break;
    default:
      f(std::integral_constant<int, kGbPairWarps>{});
      break;
  }
}

/// Calls f(std::integral_constant<int, G>{}) for the warps G that form each of `sums` slot sums:
/// as many as keep about kGbSlotSumFillWarps warps busy (small batches: 16, each warp a few
/// loads; large batches: 1, no barrier). The bits do not depend on G.
template <class F>
void withSlotSumWarps(long long sums, F f) {
  if (sums >= kGbSlotSumFillWarps)
    f(std::integral_constant<int, 1>{});
  else if (4 * sums >= kGbSlotSumFillWarps)
    f(std::integral_constant<int, 4>{});
  else
    f(std::integral_constant<int, 16>{});
}

}  // namespace

template <typename Real>
void launchGbEnergyGradient(const GbEvalArgs& args, std::size_t batch, cudaStream_t stream,
                            bool programmatic) {
  const GbPairLayout& l = args.layout;
  const unsigned boxBlocks = blocksFor(l.tiles, 4);
  const unsigned bornBlocks =
      static_cast<unsigned>(l.tiles) * static_cast<unsigned>(args.gather.blocksPerTile);
  const unsigned pairBlocks =
      static_cast<unsigned>(args.bondedBlocks.total() + l.taskCount * l.parts);
  const unsigned chainBlocks = static_cast<unsigned>(l.taskCount * l.parts);
  GbEvalArgs a = args;
  a.floatModel.kappa = static_cast<float>(args.model.kappa);
  a.floatModel.interiorInverse = static_cast<float>(args.model.interiorInverse);
  a.floatModel.exteriorInverse = static_cast<float>(args.model.exteriorInverse);
  a.floatModel.cutoff2 = static_cast<float>(args.model.cutoff2);
  for (std::size_t first = 0; first < batch; first += kGbMaxGridY) {
    const unsigned count = static_cast<unsigned>(std::min<std::size_t>(kGbMaxGridY, batch - first));
    a.batch.first = static_cast<long long>(first);
    // The first kernel follows whatever the caller enqueued before, in the ordinary way.
    launchGbKernel(gbTileBoxesKernel, boxBlocks, count, 4 * kGbTile, stream, false, a);
    const bool slopes = a.d_descreenSlopes != nullptr;
    launchGbKernel(slopes ? gbBornRadiiKernel<Real, true> : gbBornRadiiKernel<Real, false>,
                   bornBlocks, count, kGbGatherWarps * kGbTile, stream, programmatic, a);
    withPairRows(l.rows, [&](auto rows) {
      launchGbKernel(gbPairsKernel<Real, rows.value>, pairBlocks, count, rows.value * kGbTile,
                     stream, programmatic, a);
    });
    withSlotSumWarps(l.tiles * kGbSlotValues * static_cast<long long>(count), [&](auto g) {
      using Shape = SlotSumShape<g.value>;
      // The grid ends with the block of the energy components.
      const unsigned blocks = blocksFor(l.tiles * kGbSlotValues, Shape::kSums) + 1;
      launchGbKernel(gbPairReduceKernel<g.value>, blocks, count, Shape::kWarps * kGbTile, stream,
                     programmatic, a);
    });
    withPairRows(l.rows, [&](auto rows) {
      launchGbKernel(slopes ? gbChainPairsKernel<Real, rows.value, true>
                            : gbChainPairsKernel<Real, rows.value, false>,
                     chainBlocks, count, rows.value * kGbTile, stream, programmatic, a);
    });
    withSlotSumWarps(l.tiles * 3LL * count, [&](auto g) {
      using Shape = SlotSumShape<g.value>;
      launchGbKernel(gbAssembleGradientKernel<g.value>, blocksFor(l.tiles * 3, Shape::kSums), count,
                     Shape::kWarps * kGbTile, stream, programmatic, a);
    });
  }
}

template void launchGbEnergyGradient<double>(const GbEvalArgs&, std::size_t, cudaStream_t, bool);
template void launchGbEnergyGradient<float>(const GbEvalArgs&, std::size_t, cudaStream_t, bool);

}  // namespace landscape
