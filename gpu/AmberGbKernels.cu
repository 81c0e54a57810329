#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpu/AmberGbKernels.cuh"
#include "gpu/CudaCheck.h"

namespace landscape {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;

__host__ __device__ inline int minInt(int a, int b) { return a < b ? a : b; }

/// Last column tile of chunk c.
__host__ __device__ inline int chunkLastTile(const GbPairLayout& l, int c) {
  return minInt(l.tiles - 1, c * l.chunk + l.chunk - 1);
}

/// A task (row block b, chunk c) exists when the chunk reaches the block's first row tile.
__host__ __device__ inline bool pairTaskExists(const GbPairLayout& l, int b, int c) {
  return chunkLastTile(l, c) >= b * kGbPairWarps;
}

__device__ inline double boxGap(double loA, double hiA, double loB, double hiB) {
  const double gap = fmax(loB - hiA, loA - hiB);
  return gap > 0.0 ? gap : 0.0;
}

// ---- 1: tile bounding boxes ----------------------------------------------------------------

__global__ void gbTileBoxesKernel(GbEvalArgs a) {
  const int tile = blockIdx.x * blockDim.x + threadIdx.x;
  const int n = static_cast<int>(a.atoms);
  if (tile >= a.layout.tiles) return;
  GbTileBox box;
  for (int c = 0; c < 3; ++c) {
    box.lo[c] = 1e300;
    box.hi[c] = -1e300;
  }
  const int end = minInt(n, (tile + 1) * kGbTile);
  for (int i = tile * kGbTile; i < end; ++i)
    for (int c = 0; c < 3; ++c) {
      const double v = a.d_x[3 * i + c];
      box.lo[c] = fmin(box.lo[c], v);
      box.hi[c] = fmax(box.hi[c], v);
    }
  a.d_tileBox[tile] = box;
}

// ---- 2: neighbour tiles within the descreening cutoff --------------------------------------

__global__ void gbTileNeighboursKernel(GbEvalArgs a) {
  const int tile = (blockIdx.x * blockDim.x + threadIdx.x) / kGbTile;
  const int lane = threadIdx.x % kGbTile;
  const int tiles = a.layout.tiles;
  if (tile >= tiles) return;  // the whole warp leaves together
  const GbTileBox mine = a.d_tileBox[tile];
  const double cut2 = a.descreenCutoff * a.descreenCutoff;
  int count = 0;
  for (int first = 0; first < tiles; first += kGbTile) {
    const int other = first + lane;
    bool near = false;
    if (other < tiles) {
      const GbTileBox box = a.d_tileBox[other];
      double d2 = 0.0;
      for (int c = 0; c < 3; ++c) {
        const double gap = boxGap(mine.lo[c], mine.hi[c], box.lo[c], box.hi[c]);
        d2 += gap * gap;
      }
      near = d2 <= cut2;
    }
    const unsigned ballot = __ballot_sync(kFullMask, near);
    if (near)
      a.d_neighbours[static_cast<long long>(tile) * tiles + count +
                     __popc(ballot & ((1u << lane) - 1u))] = other;
    count += __popc(ballot);
  }
  if (lane == 0) a.d_neighbourCount[tile] = count;
}

// ---- 3: Born radii and self terms ----------------------------------------------------------

template <typename Real>
__global__ void __launch_bounds__(kGbGatherWarps* kGbTile) gbBornRadiiKernel(GbEvalArgs a) {
  // One block per tile; warp w takes neighbour tiles w, w + kGbGatherWarps, ...; the partial sums
  // meet in shared memory and warp 0 adds them in warp order.
  __shared__ double partial[kGbGatherWarps][kGbTile];
  const int tile = blockIdx.x;
  const int warp = threadIdx.x / kGbTile, lane = threadIdx.x % kGbTile;
  const int n = static_cast<int>(a.atoms);
  const int tiles = a.layout.tiles;
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
  const Real rgbmax = Real(a.model.rgbmax);
  const Real cut2 = Real(a.descreenCutoff * a.descreenCutoff);
  double sum = 0.0;
  const int count = a.d_neighbourCount[tile];
  for (int k = warp; k < count; k += kGbGatherWarps) {
    const int other = a.d_neighbours[static_cast<long long>(tile) * tiles + k];
    const int j = other * kGbTile + lane;
    double xj = 0.0, yj = 0.0, zj = 0.0, sj = 0.0;
    if (j < n) {
      xj = a.d_x[3 * j];
      yj = a.d_x[3 * j + 1];
      zj = a.d_x[3 * j + 2];
      sj = a.params.d_screened[j];
    }
    const int width = minInt(kGbTile, n - other * kGbTile);
    Real tileSum = Real(0);  // one tile in Real, then FP64 (as in gbPairsKernel)
    for (int m = 0; m < width; ++m) {
      const double xm = __shfl_sync(kFullMask, xj, m);
      const double ym = __shfl_sync(kFullMask, yj, m);
      const double zm = __shfl_sync(kFullMask, zj, m);
      const double sm = __shfl_sync(kFullMask, sj, m);
      if (active && other * kGbTile + m != i) {
        const Real dx = Real(xi - xm), dy = Real(yi - ym), dz = Real(zi - zm);
        const Real r2 = dx * dx + dy * dy + dz * dz;
        if (r2 <= cut2) tileSum += amberDescreening<Real>(sqrt(r2), rhoI, Real(sm), rgbmax).value;
      }
    }
    sum += double(tileSum);
  }
  partial[warp][lane] = sum;
  __syncthreads();
  if (warp != 0 || !active) return;
  sum = 0.0;
  for (int w = 0; w < kGbGatherWarps; ++w) sum += partial[w][lane];
  const AmberBornRadius born = amberBornRadius(sum, a.params.d_radius[i], a.model);
  const AmberGbSelfTerm self = amberGbSelf(a.params.d_charge[i], born.radius, a.model);
  a.d_born[i] = born.radius;
  a.d_dBornDSum[i] = born.dRadiusDSum;
  a.d_selfEnergy[i] = self.energy;
  a.d_selfDEdB[i] = self.dEdB;
}

// ---- 4: bonded terms -----------------------------------------------------------------------

__device__ inline void storeSlot(double* slots, long long slot, const double* g, double scale) {
  for (int c = 0; c < 3; ++c) slots[3 * slot + c] = scale * g[c];
}

__global__ void __launch_bounds__(kGbBondedBlock)
    gbBondedKernel(GbBondedArgs a, GbBondedBlocks blocks) {
  const int block = blockIdx.x;
  const double* x = a.d_x;
  double e0 = 0.0, e1 = 0.0;
  const long long angleSlots = 2LL * a.bonds;
  const long long dihedralSlots = angleSlots + 3LL * a.angles;
  const long long pairSlots = dihedralSlots + 4LL * a.dihedrals;
  if (block < blocks.bonds) {
    const int t = block * kGbBondedBlock + threadIdx.x;
    if (t < a.bonds) {
      const AmberBondTerm b = a.d_bonds[t];
      double gi[3];
      e0 = amberBond(x + 3 * b.i, x + 3 * b.j, b.forceConstant, b.equilibrium, gi);
      storeSlot(a.d_slotGradient, 2LL * t, gi, 1.0);
      storeSlot(a.d_slotGradient, 2LL * t + 1, gi, -1.0);
    }
  } else if (block < blocks.bonds + blocks.angles) {
    const int t = (block - blocks.bonds) * kGbBondedBlock + threadIdx.x;
    if (t < a.angles) {
      const AmberAngleTerm g = a.d_angles[t];
      double gi[3], gk[3], gj[3];
      e0 = amberAngle(x + 3 * g.i, x + 3 * g.j, x + 3 * g.k, g.forceConstant, g.equilibrium, gi,
                      gk);
      for (int c = 0; c < 3; ++c) gj[c] = -gi[c] - gk[c];
      const long long s = angleSlots + 3LL * t;
      storeSlot(a.d_slotGradient, s, gi, 1.0);
      storeSlot(a.d_slotGradient, s + 1, gj, 1.0);
      storeSlot(a.d_slotGradient, s + 2, gk, 1.0);
    }
  } else if (block < blocks.bonds + blocks.angles + blocks.dihedrals) {
    const int t = (block - blocks.bonds - blocks.angles) * kGbBondedBlock + threadIdx.x;
    if (t < a.dihedrals) {
      const AmberDihedralTerm d = a.d_dihedrals[t];
      double g[12];
      e0 = amberDihedral(x + 3 * d.i, x + 3 * d.j, x + 3 * d.k, x + 3 * d.l, d, g);
      const long long s = dihedralSlots + 4LL * t;
      for (int k = 0; k < 4; ++k) storeSlot(a.d_slotGradient, s + k, g + 3 * k, 1.0);
    }
  } else {
    const int t =
        (block - blocks.bonds - blocks.angles - blocks.dihedrals) * kGbBondedBlock + threadIdx.x;
    if (t < a.pairs14) {
      const AmberPair14Term p = a.d_pairs14[t];
      const double d[3] = {x[3 * p.i] - x[3 * p.j], x[3 * p.i + 1] - x[3 * p.j + 1],
                           x[3 * p.i + 2] - x[3 * p.j + 2]};
      const double r2 = amberDot(d, d);
      const AmberPairTerm lj = amberLennardJones(r2, p.a, p.b);
      const AmberPairTerm el = amberCoulomb(r2, p.chargeProduct);
      e0 = lj.energy;
      e1 = el.energy;
      const double s = lj.dEdrOverR + el.dEdrOverR;
      storeSlot(a.d_slotGradient, pairSlots + 2LL * t, d, s);
      storeSlot(a.d_slotGradient, pairSlots + 2LL * t + 1, d, -s);
    }
  }
  using BlockReduce = cub::BlockReduce<double, kGbBondedBlock>;
  __shared__ typename BlockReduce::TempStorage storage;
  const double sum0 = BlockReduce(storage).Sum(e0);
  __syncthreads();
  const double sum1 = BlockReduce(storage).Sum(e1);
  if (threadIdx.x == 0) {
    a.d_blockEnergy[2 * block] = sum0;
    a.d_blockEnergy[2 * block + 1] = sum1;
  }
}

// ---- 5: all pairs --------------------------------------------------------------------------

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

template <typename Real>
__global__ void __launch_bounds__(kGbPairWarps* kGbTile, 3) gbPairsKernel(GbEvalArgs a) {
  // Column-tile positions relative to the tile's first atom, in Real: in mixed precision every
  // pair operation is FP32 (no conversion per pair), and the offsets stay small where precision
  // matters (close pairs).
  __shared__ Real sx[kGbTile], sy[kGbTile], sz[kGbTile];
  __shared__ Real sCharge[kGbTile], sBorn[kGbTile], sInverseBorn[kGbTile];
  __shared__ int sType[kGbTile];
  __shared__ Real sAcc[kGbPairWarps][kGbSlotValues][kGbTile];

  const GbPairLayout& layout = a.layout;
  const int2 task = a.d_tasks[blockIdx.x];
  const int rowBlock = task.x, chunk = task.y;
  const int warp = threadIdx.x / kGbTile, lane = threadIdx.x % kGbTile;
  const int n = static_cast<int>(a.atoms);
  const int row = rowBlock * kGbPairWarps + warp;
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
  const Real kappa = Real(a.model.kappa);
  const Real interiorInverse = Real(a.model.interiorInverse);
  const Real exteriorInverse = Real(a.model.exteriorInverse);

  // FP64 sums. In mixed precision each column tile is summed in FP32 first (t* below) and added
  // here, as in OpenMM's mixed mode; in double precision the t* sums are the FP64 sums themselves
  // (no second set of registers).
  constexpr bool kTileSums = std::is_same<Real, float>::value;
  double gx = 0.0, gy = 0.0, gz = 0.0, dEdB = 0.0;
  double eVdw = 0.0, eEel = 0.0, eGb = 0.0;
  Real tgx = Real(0), tgy = Real(0), tgz = Real(0), tdEdB = Real(0);
  Real tVdw = Real(0), tEel = Real(0), tGb = Real(0);
  const int firstColumn = chunk * layout.chunk;
  const int lastColumn = chunkLastTile(layout, chunk);
  for (int column = firstColumn; column <= lastColumn; ++column) {
    const double* origin = a.d_x + 3 * column * kGbTile;
    const double ox = origin[0], oy = origin[1], oz = origin[2];
    if (threadIdx.x < kGbTile) {
      const int j = column * kGbTile + threadIdx.x;
      if (j < n) {
        sx[threadIdx.x] = Real(a.d_x[3 * j] - ox);
        sy[threadIdx.x] = Real(a.d_x[3 * j + 1] - oy);
        sz[threadIdx.x] = Real(a.d_x[3 * j + 2] - oz);
        sCharge[threadIdx.x] = Real(a.params.d_charge[j]);
        sBorn[threadIdx.x] = Real(a.d_born[j]);
        sInverseBorn[threadIdx.x] = Real(1.0 / a.d_born[j]);
        sType[threadIdx.x] = a.params.d_ljType[j];
      }
    }
    for (int c = 0; c < kGbSlotValues; ++c) sAcc[warp][c][lane] = Real(0);
    __syncthreads();
    if (rowTile && row <= column) {
      const Real xr = Real(xi - ox), yr = Real(yi - oy), zr = Real(zi - oz);
      if constexpr (kTileSums) {
        tgx = tgy = tgz = tdEdB = tVdw = tEel = tGb = Real(0);
      }
      const unsigned mask = exclusionMask(a.exclusions, row, column, lane);
      const int width = minInt(kGbTile, n - column * kGbTile);
      // Lane l meets column atom (l + s) mod 32 at step s: in each step the lanes touch distinct
      // column accumulators, and every column atom's sum runs over s in a fixed order.
      for (int s = 0; s < kGbTile; ++s) {
        const int m = (lane + s) % kGbTile;
        if (active && m < width && (column != row || m > lane)) {
          const Real dx = xr - sx[m], dy = yr - sy[m], dz = zr - sz[m];
          const Real r2 = dx * dx + dy * dy + dz * dz;
          const Real qiqj = qi * sCharge[m];
          const AmberGbPairTermT<Real> gb =
              amberGbPair<Real>(r2, qiqj, bi, sBorn[m], inverseBi * sInverseBorn[m], kappa,
                                interiorInverse, exteriorInverse);
          tGb += gb.energy;
          tdEdB += gb.dEdBi;
          Real dEdrOverR = gb.dEdrOverR;
          if (!((mask >> m) & 1u)) {
            // One inverse square root serves LJ and Coulomb: no division in the pair loop.
            const Real ir = amberInverseSqrt<Real>(r2);
            const int type = typeRow + sType[m];
            const AmberPairTermT<Real> lj = amberLennardJonesFromInverse<Real>(
                ir * ir, Real(__ldg(a.params.d_ljA + type)), Real(__ldg(a.params.d_ljB + type)));
            const AmberPairTermT<Real> el = amberCoulombFromInverse<Real>(ir, qiqj * interiorInverse);
            tVdw += lj.energy;
            tEel += el.energy;
            dEdrOverR += lj.dEdrOverR + el.dEdrOverR;
          }
          const Real fx = dEdrOverR * dx, fy = dEdrOverR * dy, fz = dEdrOverR * dz;
          tgx += fx;
          tgy += fy;
          tgz += fz;
          sAcc[warp][0][m] -= fx;
          sAcc[warp][1][m] -= fy;
          sAcc[warp][2][m] -= fz;
          sAcc[warp][3][m] += gb.dEdBj;
        }
        __syncwarp();
      }
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
    if (threadIdx.x < kGbSlotValues * kGbTile) {
      const int c = threadIdx.x / kGbTile, l = threadIdx.x % kGbTile;
      double v = 0.0;
      for (int w = 0; w < kGbPairWarps; ++w) v += double(sAcc[w][c][l]);
      a.d_columnSlots[((static_cast<long long>(column) * layout.rowBlocks + rowBlock) *
                           kGbSlotValues +
                       c) *
                          kGbTile +
                      l] = v;
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
    const long long base =
        (static_cast<long long>(row) * layout.chunks + chunk) * kGbSlotValues * kGbTile + lane;
    a.d_rowSlots[base] = gx;
    a.d_rowSlots[base + kGbTile] = gy;
    a.d_rowSlots[base + 2 * kGbTile] = gz;
    a.d_rowSlots[base + 3 * kGbTile] = dEdB;
  }
  using BlockReduce = cub::BlockReduce<double, kGbPairWarps * kGbTile>;
  __shared__ typename BlockReduce::TempStorage storage;
  const double vdw = BlockReduce(storage).Sum(eVdw);
  __syncthreads();
  const double eel = BlockReduce(storage).Sum(eEel);
  __syncthreads();
  const double gbSum = BlockReduce(storage).Sum(eGb);
  if (threadIdx.x == 0) {
    a.d_pairBlockEnergy[3 * blockIdx.x] = vdw;
    a.d_pairBlockEnergy[3 * blockIdx.x + 1] = eel;
    a.d_pairBlockEnergy[3 * blockIdx.x + 2] = gbSum;
  }
}

// ---- 6: per-atom sums of the pair slots ----------------------------------------------------

/// The sum, in a fixed order, of the slots of one atom (tile, lane) in a row-slot and a
/// column-slot array of the pair-task layout: rows first (chunks ascending), then columns (row
/// blocks ascending).
__device__ void sumSlots(const GbPairLayout& layout, const double* rowSlots,
                         const double* columnSlots, int tile, int lane,
                         double v[kGbSlotValues]) {
  for (int k = 0; k < kGbSlotValues; ++k) v[k] = 0.0;
  const int myBlock = tile / kGbPairWarps;
  for (int c = 0; c < layout.chunks; ++c) {
    if (!pairTaskExists(layout, myBlock, c)) continue;
    const long long base =
        (static_cast<long long>(tile) * layout.chunks + c) * kGbSlotValues * kGbTile + lane;
    for (int k = 0; k < kGbSlotValues; ++k) v[k] += rowSlots[base + k * kGbTile];
  }
  const int myChunk = tile / layout.chunk;
  for (int b = 0; b < layout.rowBlocks; ++b) {
    if (!pairTaskExists(layout, b, myChunk)) break;  // row blocks beyond the chunk's last tile
    const long long base =
        (static_cast<long long>(tile) * layout.rowBlocks + b) * kGbSlotValues * kGbTile + lane;
    for (int k = 0; k < kGbSlotValues; ++k) v[k] += columnSlots[base + k * kGbTile];
  }
}

__global__ void gbPairReduceKernel(GbEvalArgs a) {
  const int atom = blockIdx.x * blockDim.x + threadIdx.x;
  const int n = static_cast<int>(a.atoms);
  if (atom >= n) return;
  double v[kGbSlotValues];
  sumSlots(a.layout, a.d_rowSlots, a.d_columnSlots, atom / kGbTile, atom % kGbTile, v);
  for (int c = 0; c < 3; ++c) a.d_pairGradient[3 * atom + c] = v[c];
  a.d_dEdSum[atom] = (v[3] + a.d_selfDEdB[atom]) * a.d_dBornDSum[atom];
}

// ---- 7: chain rule through the Born radii, and the final gradient --------------------------

template <typename Real>
__global__ void __launch_bounds__(kGbPairWarps* kGbTile)
    gbChainPairsKernel(GbEvalArgs a) {
  // The pair-task grid of gbPairsKernel, each pair i < j within rgbmax + max s once:
  // dE/dr_ij = dE/dI_i dI_ij/dr + dE/dI_j dI_ji/dr (dE/dI = a.d_dEdSum), applied to both atoms.
  // Tile pairs whose boxes lie beyond the cutoff are skipped; their slots are written as zeros.
  __shared__ Real sx[kGbTile], sy[kGbTile], sz[kGbTile];
  __shared__ Real sRho[kGbTile], sScreened[kGbTile], sdEdSum[kGbTile];
  __shared__ Real sAcc[kGbPairWarps][3][kGbTile];

  const GbPairLayout& layout = a.layout;
  const int2 task = a.d_tasks[blockIdx.x];
  const int rowBlock = task.x, chunk = task.y;
  const int warp = threadIdx.x / kGbTile, lane = threadIdx.x % kGbTile;
  const int n = static_cast<int>(a.atoms);
  const int row = rowBlock * kGbPairWarps + warp;
  const bool rowTile = row < layout.tiles;
  const int i = row * kGbTile + lane;
  const bool active = rowTile && i < n;
  double xi = 0.0, yi = 0.0, zi = 0.0;
  Real rhoI = Real(1), sI = Real(0), dEdSumI = Real(0);
  if (active) {
    xi = a.d_x[3 * i];
    yi = a.d_x[3 * i + 1];
    zi = a.d_x[3 * i + 2];
    rhoI = Real(a.params.d_rho[i]);
    sI = Real(a.params.d_screened[i]);
    dEdSumI = Real(a.d_dEdSum[i]);
  }
  GbTileBox rowBox{};
  if (rowTile) rowBox = a.d_tileBox[row];
  const Real rgbmax = Real(a.model.rgbmax);
  const double cutoff2 = a.descreenCutoff * a.descreenCutoff;
  const Real cut2 = Real(cutoff2);
  constexpr bool kTileSums = std::is_same<Real, float>::value;
  double gx = 0.0, gy = 0.0, gz = 0.0;
  Real tgx = Real(0), tgy = Real(0), tgz = Real(0);

  for (int column = chunk * layout.chunk; column <= chunkLastTile(layout, chunk); ++column) {
    const double* origin = a.d_x + 3 * column * kGbTile;
    const double ox = origin[0], oy = origin[1], oz = origin[2];
    if (threadIdx.x < kGbTile) {
      const int j = column * kGbTile + threadIdx.x;
      if (j < n) {
        sx[threadIdx.x] = Real(a.d_x[3 * j] - ox);
        sy[threadIdx.x] = Real(a.d_x[3 * j + 1] - oy);
        sz[threadIdx.x] = Real(a.d_x[3 * j + 2] - oz);
        sRho[threadIdx.x] = Real(a.params.d_rho[j]);
        sScreened[threadIdx.x] = Real(a.params.d_screened[j]);
        sdEdSum[threadIdx.x] = Real(a.d_dEdSum[j]);
      }
    }
    for (int c = 0; c < 3; ++c) sAcc[warp][c][lane] = Real(0);
    __syncthreads();
    bool near = rowTile && row <= column;
    if (near) {
      const GbTileBox box = a.d_tileBox[column];
      double d2 = 0.0;
      for (int c = 0; c < 3; ++c) {
        const double gap = boxGap(rowBox.lo[c], rowBox.hi[c], box.lo[c], box.hi[c]);
        d2 += gap * gap;
      }
      near = d2 <= cutoff2;  // the same for the whole warp
    }
    if (near) {
      const Real xr = Real(xi - ox), yr = Real(yi - oy), zr = Real(zi - oz);
      if constexpr (kTileSums) tgx = tgy = tgz = Real(0);
      const int width = minInt(kGbTile, n - column * kGbTile);
      for (int s = 0; s < kGbTile; ++s) {  // the rotation of gbPairsKernel
        const int m = (lane + s) % kGbTile;
        if (active && m < width && (column != row || m > lane)) {
          const Real dx = xr - sx[m], dy = yr - sy[m], dz = zr - sz[m];
          const Real r2 = dx * dx + dy * dy + dz * dz;
          if (r2 <= cut2) {
            const Real r = sqrt(r2);
            const Real dIij = amberDescreening<Real>(r, rhoI, sScreened[m], rgbmax).dValueDr;
            const Real dIji = amberDescreening<Real>(r, sRho[m], sI, rgbmax).dValueDr;
            const Real dEdrOverR = (dEdSumI * dIij + sdEdSum[m] * dIji) / r;
            const Real fx = dEdrOverR * dx, fy = dEdrOverR * dy, fz = dEdrOverR * dz;
            tgx += fx;
            tgy += fy;
            tgz += fz;
            sAcc[warp][0][m] -= fx;
            sAcc[warp][1][m] -= fy;
            sAcc[warp][2][m] -= fz;
          }
        }
        __syncwarp();
      }
      if constexpr (kTileSums) {
        gx += double(tgx);
        gy += double(tgy);
        gz += double(tgz);
      }
    }
    __syncthreads();
    if (threadIdx.x < kGbSlotValues * kGbTile) {
      const int c = threadIdx.x / kGbTile, l = threadIdx.x % kGbTile;
      double v = 0.0;
      if (c < 3)
        for (int w = 0; w < kGbPairWarps; ++w) v += double(sAcc[w][c][l]);
      a.d_chainColumnSlots[((static_cast<long long>(column) * layout.rowBlocks + rowBlock) *
                                kGbSlotValues +
                            c) *
                               kGbTile +
                           l] = v;
    }
    __syncthreads();
  }
  if constexpr (!kTileSums) {
    gx = tgx;
    gy = tgy;
    gz = tgz;
  }
  if (rowTile) {
    const long long base =
        (static_cast<long long>(row) * layout.chunks + chunk) * kGbSlotValues * kGbTile + lane;
    a.d_chainRowSlots[base] = gx;
    a.d_chainRowSlots[base + kGbTile] = gy;
    a.d_chainRowSlots[base + 2 * kGbTile] = gz;
    a.d_chainRowSlots[base + 3 * kGbTile] = 0.0;
  }
}

/// The final gradient of each atom: pair terms + chain rule (slot sums) + bonded slots.
__global__ void gbAssembleGradientKernel(GbEvalArgs a) {
  const int atom = blockIdx.x * blockDim.x + threadIdx.x;
  const int n = static_cast<int>(a.atoms);
  if (atom >= n) return;
  double v[kGbSlotValues];
  sumSlots(a.layout, a.d_chainRowSlots, a.d_chainColumnSlots, atom / kGbTile, atom % kGbTile, v);
  double g[3];
  for (int c = 0; c < 3; ++c) g[c] = a.d_pairGradient[3 * atom + c] + v[c];
  for (int k = a.d_atomSlotOffsets[atom]; k < a.d_atomSlotOffsets[atom + 1]; ++k) {
    const long long slot = a.d_atomSlots[k];
    for (int c = 0; c < 3; ++c) g[c] += a.d_slotGradient[3 * slot + c];
  }
  for (int c = 0; c < 3; ++c) a.d_g[3 * atom + c] = g[c];
}

// ---- 8: energy components ------------------------------------------------------------------

constexpr int kEnergyBlock = 256;
using EnergyReduce = cub::BlockReduce<double, kEnergyBlock>;

/// Sum of values[offset + stride k], k in [first, last): strided per thread, then one
/// BlockReduce; the same on every run. Returns the sum in thread 0.
__device__ double orderedSum(EnergyReduce::TempStorage& storage, const double* values, int first,
                             int last, int stride, int offset) {
  double partial = 0.0;
  for (int k = first + static_cast<int>(threadIdx.x); k < last; k += kEnergyBlock)
    partial += values[static_cast<long long>(stride) * k + offset];
  const double total = EnergyReduce(storage).Sum(partial);
  __syncthreads();
  return total;
}

__global__ void __launch_bounds__(kEnergyBlock) gbEnergyReduceKernel(GbEvalArgs a) {
  // Block c sums component c (BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, 1-4_EEL, EGB).
  __shared__ EnergyReduce::TempStorage storage;
  const GbBondedBlocks& b = a.bondedBlocks;
  const double* bonded = a.d_bondedBlockEnergy;
  const int angles = b.bonds, dihedrals = angles + b.angles, pairs = dihedrals + b.dihedrals;
  const int tasks = a.layout.taskCount;
  double value = 0.0;
  switch (blockIdx.x) {
    case 0: value = orderedSum(storage, bonded, 0, angles, 2, 0); break;
    case 1: value = orderedSum(storage, bonded, angles, dihedrals, 2, 0); break;
    case 2: value = orderedSum(storage, bonded, dihedrals, pairs, 2, 0); break;
    case 3: value = orderedSum(storage, a.d_pairBlockEnergy, 0, tasks, 3, 0); break;
    case 4: value = orderedSum(storage, a.d_pairBlockEnergy, 0, tasks, 3, 1); break;
    case 5: value = orderedSum(storage, bonded, pairs, pairs + b.pairs14, 2, 0); break;
    case 6: value = orderedSum(storage, bonded, pairs, pairs + b.pairs14, 2, 1); break;
    default: {
      const double self = orderedSum(storage, a.d_selfEnergy, 0, static_cast<int>(a.atoms), 1, 0);
      value = self + orderedSum(storage, a.d_pairBlockEnergy, 0, tasks, 3, 2);
    }
  }
  if (threadIdx.x == 0) a.d_energy[blockIdx.x] = value;
}

unsigned int blocksFor(long long items, int perBlock) {
  return static_cast<unsigned int>((items + perBlock - 1) / perBlock);
}

}  // namespace

GbPairLayout gbPairLayout(std::size_t atoms, int chunk) {
  if (atoms == 0) throw std::invalid_argument("gbPairLayout: atoms must be > 0");
  if (chunk < 1) throw std::invalid_argument("gbPairLayout: chunk must be >= 1");
  GbPairLayout l;
  l.tiles = static_cast<int>((atoms + kGbTile - 1) / kGbTile);
  l.chunk = chunk;
  l.rowBlocks = (l.tiles + kGbPairWarps - 1) / kGbPairWarps;
  l.chunks = (l.tiles + chunk - 1) / chunk;
  for (int b = 0; b < l.rowBlocks; ++b)
    for (int c = 0; c < l.chunks; ++c)
      if (pairTaskExists(l, b, c)) ++l.taskCount;
  return l;
}

GbBondedBlocks gbBondedBlocks(int bonds, int angles, int dihedrals, int pairs14) {
  GbBondedBlocks b;
  b.bonds = static_cast<int>(blocksFor(bonds, kGbBondedBlock));
  b.angles = static_cast<int>(blocksFor(angles, kGbBondedBlock));
  b.dihedrals = static_cast<int>(blocksFor(dihedrals, kGbBondedBlock));
  b.pairs14 = static_cast<int>(blocksFor(pairs14, kGbBondedBlock));
  return b;
}

void launchGbTileBoxes(const GbEvalArgs& args, cudaStream_t stream) {
  gbTileBoxesKernel<<<blocksFor(args.layout.tiles, 128), 128, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchGbTileNeighbours(const GbEvalArgs& args, cudaStream_t stream) {
  const int perBlock = kGbWarpsPerBlock * kGbTile;
  gbTileNeighboursKernel<<<blocksFor(args.layout.tiles, kGbWarpsPerBlock), perBlock, 0, stream>>>(
      args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launchGbBornRadii(const GbEvalArgs& args, cudaStream_t stream) {
  gbBornRadiiKernel<Real><<<args.layout.tiles, kGbGatherWarps * kGbTile, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchGbBonded(const GbBondedArgs& args, cudaStream_t stream) {
  const GbBondedBlocks blocks = gbBondedBlocks(args.bonds, args.angles, args.dihedrals,
                                               args.pairs14);
  if (blocks.total() == 0) return;
  gbBondedKernel<<<blocks.total(), kGbBondedBlock, 0, stream>>>(args, blocks);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launchGbPairs(const GbEvalArgs& args, cudaStream_t stream) {
  gbPairsKernel<Real><<<args.layout.taskCount, kGbPairWarps * kGbTile, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchGbPairReduce(const GbEvalArgs& args, cudaStream_t stream) {
  gbPairReduceKernel<<<blocksFor(static_cast<long long>(args.atoms), 128), 128, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launchGbChainRule(const GbEvalArgs& args, cudaStream_t stream) {
  gbChainPairsKernel<Real><<<args.layout.taskCount, kGbPairWarps * kGbTile, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  gbAssembleGradientKernel<<<blocksFor(static_cast<long long>(args.atoms), 128), 128, 0, stream>>>(
      args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchGbEnergyReduce(const GbEvalArgs& args, cudaStream_t stream) {
  gbEnergyReduceKernel<<<8, kEnergyBlock, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

template void launchGbBornRadii<double>(const GbEvalArgs&, cudaStream_t);
template void launchGbBornRadii<float>(const GbEvalArgs&, cudaStream_t);
template void launchGbPairs<double>(const GbEvalArgs&, cudaStream_t);
template void launchGbPairs<float>(const GbEvalArgs&, cudaStream_t);
template void launchGbChainRule<double>(const GbEvalArgs&, cudaStream_t);
template void launchGbChainRule<float>(const GbEvalArgs&, cudaStream_t);

}  // namespace landscape
