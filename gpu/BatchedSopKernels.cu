#include <algorithm>
#include <climits>
#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>

#include "gpu/BatchedSopKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/SopDevice.cuh"

namespace landscape {
namespace {

constexpr int kPackBlock = 256;
/// Threads per block of the gradient kernel: kSopLanes per bead, every thread with a bead.
constexpr int kGradientBlock = 256;
constexpr int kGradientBeads = kGradientBlock / kSopLanes;
static_assert(kGradientBlock % 32 == 0, "whole warps: laneSum shuffles with the full mask");
constexpr int kEnergyBlock = 128;
/// Beads up to which a structure's cell list is built by a 128-thread block (SopCellArgs::compact:
/// more structures in flight per SM; the same lists).
constexpr int kCompactCellsUpTo = 1024;
/// Structures per launch: the y extent of a grid.
constexpr std::size_t kMaxGridY = 65535;

__device__ __forceinline__ bool inactive(const SopBatchArgs& a, std::size_t b) {
  return a.d_active != nullptr && a.d_active[b] == 0;
}

__global__ void __launch_bounds__(kPackBlock)
    sopBatchPackKernel(SopBatchArgs a, std::size_t first) {
  const std::size_t b = first + blockIdx.y;
  if (inactive(a, b)) return;  // uniform over the block
  const int n = a.topology.beads;
  const int i = blockIdx.x * kPackBlock + threadIdx.x;
  if (i >= n) return;
  const double* x = a.d_x + b * 3 * n + 3 * static_cast<std::size_t>(i);
  a.d_pos[b * n + i] = SopPos4<double>{x[0], x[1], x[2], 0.0};
}

/// Bead i of structure b: FENE, natives and the cell scan's repulsion, summed per lane in a fixed
/// order and combined by laneSum; lane 0 writes the gradient and the bead's halved energies.
__global__ void __launch_bounds__(kGradientBlock)
    sopBatchGradientKernel(SopBatchArgs a, std::size_t first) {
  const std::size_t b = first + blockIdx.y;
  if (inactive(a, b)) return;  // uniform over the block: the shuffles below see whole warps
  const SopTopologyView<double>& top = a.topology;
  const int n = top.beads;
  const int lane = threadIdx.x % kSopLanes;
  const int i = blockIdx.x * kGradientBeads + threadIdx.x / kSopLanes;
  const SopPos4<double>* pos = a.d_pos + b * n;
  double gx = 0, gy = 0, gz = 0, eFene = 0, eNative = 0, eRep = 0;
  if (i < n) {
    const SopPos4<double> p = sopLoad(pos, i);
    auto add = [&](const SopTerm<double>& t, double dx, double dy, double dz) {
      gx += t.dEdrOverR * dx;
      gy += t.dEdrOverR * dy;
      gz += t.dEdrOverR * dz;
    };
    if (lane < 2) {  // FENE bonds to the previous and next bead of the chain
      const int j = lane == 0 ? top.d_bondPrev[i] : top.d_bondNext[i];
      if (j >= 0) {
        const double r0 = lane == 0 ? top.d_bondPrevR0[i] : top.d_bondNextR0[i];
        const SopPos4<double> q = sopLoad(pos, j);
        const double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
        const SopTerm<double> t = sopFene(dx * dx + dy * dy + dz * dz, r0, top.feneK, top.feneR0sq);
        add(t, dx, dy, dz);
        eFene += 0.5 * t.energy;
      }
    }
    const int natives = top.d_nativeCount[i];
    for (int k = lane; k < natives; k += kSopLanes) {
      const std::size_t slot = sopNativeSlot(k, i, n);
      const int j = __ldg(top.d_nativeIndex + slot);
      const SopPos4<double> q = sopLoad(pos, j);
      const double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
      const SopTerm<double> t = sopNativeFromInverse(
          sopRecip(dx * dx + dy * dy + dz * dz), __ldg(top.d_nativeR0sq + slot), top.nativeEpsilon);
      add(t, dx, dy, dz);
      eNative += 0.5 * t.energy;
    }
    // Repulsion: every bead of the 27 cells around i (cells at least rc wide hold every partner
    // within rc), the arithmetic of the dynamics' pair loop (one rsqrt, the cutoff by a min).
    const SopRepulsion<double> rep = top.repulsion;
    const SopListView<double>& cl = a.cells;
    const SopCellGrid<double> grid = cl.d_grid[b];
    const int* cellStart = cl.d_cellStart + b * (static_cast<std::size_t>(cl.maxCells) + 1);
    const int* cellBeads = cl.d_cellBeads + b * n;
    const std::uint32_t* exclusionRow =
        a.d_exclusionMask + static_cast<std::size_t>(i) * a.exclusionWords;
    const int cx = cellCoord(p.x, grid.lo[0], grid.cellSize, grid.dims[0]);
    const int cy = cellCoord(p.y, grid.lo[1], grid.cellSize, grid.dims[1]);
    const int cz = cellCoord(p.z, grid.lo[2], grid.cellSize, grid.dims[2]);
    for (int z = max(cz - 1, 0); z <= min(cz + 1, grid.dims[2] - 1); ++z)
      for (int y = max(cy - 1, 0); y <= min(cy + 1, grid.dims[1] - 1); ++y)
        for (int x = max(cx - 1, 0); x <= min(cx + 1, grid.dims[0] - 1); ++x) {
          const int cell = (z * grid.dims[1] + y) * grid.dims[0] + x;
          const int end = cellStart[cell + 1];
          for (int s = cellStart[cell] + lane; s < end; s += kSopLanes) {
            const int j = cellBeads[s];
            const SopPos4<double> q = sopLoad(pos, j);
            const double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
            const double r2 = dx * dx + dy * dy + dz * dz;
            if (!(r2 < rep.cutoff2) || j == i) continue;
            if (a.d_exclusionMask != nullptr ? (__ldg(exclusionRow + (j >> 5)) >> (j & 31)) & 1u
                                             : sopExcluded(top, i, j))
              continue;
            const double rinv = sopRsqrt(r2);
            const double f = fmin(sopRepulsiveDEdrOverR(rinv, rep), 0.0);
            gx += f * dx;
            gy += f * dy;
            gz += f * dz;
            eRep += 0.5 * sopRepulsiveEnergy(r2, rinv, rep);
          }
        }
  }
  gx = laneSum(gx);  // every thread of the block takes part (beads past N add zeros)
  gy = laneSum(gy);
  gz = laneSum(gz);
  eFene = laneSum(eFene);
  eNative = laneSum(eNative);
  eRep = laneSum(eRep);
  if (i < n && lane == 0) {
    double* g = a.d_g + b * 3 * n + 3 * static_cast<std::size_t>(i);
    g[0] = gx;
    g[1] = gy;
    g[2] = gz;
    double* e = a.d_beadEnergy + b * 3 * n;
    e[i] = eFene;
    e[n + i] = eNative;
    e[2 * n + i] = eRep;
  }
}

/// Structure `first + blockIdx.x`: each component over the beads in a fixed order (thread t adds
/// beads t, t + kEnergyBlock, ..., then the block tree), the total as the CPU adds it.
__global__ void __launch_bounds__(kEnergyBlock)
    sopBatchEnergyKernel(SopBatchArgs a, std::size_t first) {
  const std::size_t b = first + blockIdx.x;
  if (inactive(a, b)) return;
  using BlockReduce = cub::BlockReduce<double, kEnergyBlock>;
  __shared__ typename BlockReduce::TempStorage storage;
  const int n = a.topology.beads;
  const double* e = a.d_beadEnergy + b * 3 * n;
  double sums[3];
  for (int c = 0; c < 3; ++c) {
    double s = 0.0;
    for (int i = threadIdx.x; i < n; i += kEnergyBlock) s += e[c * n + i];
    sums[c] = BlockReduce(storage).Sum(s);  // valid in thread 0
    __syncthreads();                        // storage is reused
  }
  if (threadIdx.x == 0) {
    for (int c = 0; c < 3; ++c) a.d_components[3 * b + c] = sums[c];
    a.d_energy[b] = sums[0] + sums[1] + sums[2];
  }
}

void requireArg(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("batched SOP kernels: ") + what);
}

}  // namespace

void launchSopBatchEnergyGradient(const SopBatchArgs& a, cudaStream_t stream) {
  const int n = a.topology.beads;
  requireArg(n >= 2, "the topology needs at least 2 beads");
  requireArg(a.batch >= 1 && a.batch <= static_cast<std::size_t>(INT_MAX),
             "the batch must hold 1 .. 2^31 - 1 structures");
  requireArg(static_cast<std::size_t>(a.cells.replicas) == a.batch,
             "the cell arrays must be sized for the batch (cells.replicas = batch)");
  requireArg(a.d_x && a.d_g && a.d_energy && a.d_pos && a.d_beadEnergy && a.d_components,
             "coordinate, gradient, energy and scratch arrays must be set");
  requireArg(a.exclusionWords == (a.d_exclusionMask == nullptr ? 0 : (n + 31) / 32),
             "an exclusion mask needs (N + 31) / 32 words per bead (none: 0)");
  requireArg(a.cells.listRadius2 >= a.topology.repulsion.cutoff2,
             "cells must be at least the repulsive cutoff wide");
  SopCellArgs<double> cells;
  cells.list = a.cells;
  cells.beads = n;
  cells.d_pos = a.d_pos;
  cells.d_active = a.d_active;
  cells.compact = n <= kCompactCellsUpTo;
  const unsigned int packBlocks = static_cast<unsigned int>((n + kPackBlock - 1) / kPackBlock);
  const unsigned int beadBlocks =
      static_cast<unsigned int>((n + kGradientBeads - 1) / kGradientBeads);
  for (std::size_t first = 0; first < a.batch; first += kMaxGridY) {
    const unsigned int count = static_cast<unsigned int>(std::min(kMaxGridY, a.batch - first));
    sopBatchPackKernel<<<dim3(packBlocks, count), kPackBlock, 0, stream>>>(a, first);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  }
  launchSopCells(cells, stream);  // one block per structure (a 1-D grid: no 65535 limit)
  for (std::size_t first = 0; first < a.batch; first += kMaxGridY) {
    const unsigned int count = static_cast<unsigned int>(std::min(kMaxGridY, a.batch - first));
    sopBatchGradientKernel<<<dim3(beadBlocks, count), kGradientBlock, 0, stream>>>(a, first);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  }
  sopBatchEnergyKernel<<<static_cast<unsigned int>(a.batch), kEnergyBlock, 0, stream>>>(a, 0);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
