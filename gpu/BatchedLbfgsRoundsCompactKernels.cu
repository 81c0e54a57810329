// The compact L-BFGS direction of the round-based batched engine (potentials/
// LbfgsRoundsCompactTerms.h) spread over the device: for every slot whose pending flag the advance
// set, passes 1-4 run a block per history pair, pass 5 a thread per component, so a long history (m
// = 1000) is read by the whole device instead of one block. Every sum has a fixed order (no
// atomics); the CPU twin runs the same functions in that order. Compiled with -fmad=false
// (CMakeLists.txt): the twin rounds every multiply and add alone.
#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedLbfgsRoundsKernels.cuh"
#include "gpu/BatchedLbfgsRoundsTeam.cuh"
#include "gpu/CudaCheck.h"
#include "landscape/minimisation/LbfgsRoundsCompactTerms.h"

namespace landscape {
namespace {

constexpr unsigned int kMaxGridY = 65535;

// The Rows of LbfgsRoundsCompactTerms.h: the block (kCompactRowThreads threads), thread t over
// terms begin + t, + kCompactRowThreads, ..., then the team reduction; every thread must reach
// sum() (rows leave block-uniformly).
class CompactRows {
 public:
  __device__ explicit CompactRows(double* scratch) : m_team(0, scratch) {}
  template <class F>
  __device__ double sum(int begin, int end, F term) {
    TeamSum<1> acc{{0.0}};
#pragma unroll 4
    for (int k = begin + static_cast<int>(threadIdx.x); k < end; k += kCompactRowThreads)
      acc.v[0] = term(k, acc.v[0]);
    return m_team.reduce(acc).v[0];
  }
  __device__ bool isLeader() const { return threadIdx.x == 0; }

 private:
  DeviceTeam<0> m_team;
};

__device__ LbfgsCompactStorage compactStorage(const BatchedRoundsArgs& a, std::size_t r) {
  const int n = a.settings.n, m = a.settings.m;
  return lbfgsCompactLayout(a.compact + r * static_cast<std::size_t>(lbfgsCompactSlotDoubles(n, m)),
                            n, m);
}

// The history order of slot r.
__device__ LbfgsHistory compactHistory(const BatchedRoundsArgs& a, std::size_t r) {
  return a.slots.state[r].history;
}

// Pass 1: block (r, slot) = blockIdx.x; the block's team order over n is the twin's
// HostTeam(n, kCompactPairThreads).
__global__ void __launch_bounds__(kCompactPairThreads) compactPairDotsKernel(BatchedRoundsArgs a) {
  __shared__ double scratch[6 * (kCompactPairThreads / kTeamWarpSize)];
  const int n = a.settings.n, m = a.settings.m;
  const std::size_t r = blockIdx.x / static_cast<unsigned int>(m);
  const int slot = static_cast<int>(blockIdx.x % static_cast<unsigned int>(m));
  if (!a.pending[r]) return;  // block-uniform
  const LbfgsHistory h = compactHistory(a, r);
  if (h.age(slot, m) >= h.length) return;
  RoundsRowTeam team(n, scratch);
  lbfgsCompactPairDots(team, roundsSlotStorage(a.slots, r, n, m), compactStorage(a, r), slot, h,
                       a.settings);
}

// Passes 2-4: block b handles row b % m of slot b / m.
template <int Pass>
__global__ void __launch_bounds__(kCompactRowThreads) compactRowsKernel(BatchedRoundsArgs a) {
  __shared__ double scratch[6 * (kCompactRowThreads / kTeamWarpSize)];
  const int m = a.settings.m;
  const std::size_t r = blockIdx.x / static_cast<unsigned int>(m);
  const int row = static_cast<int>(blockIdx.x % static_cast<unsigned int>(m));
  if (!a.pending[r]) return;  // block-uniform
  const LbfgsHistory h = compactHistory(a, r);
  if (h.age(row, m) >= h.length) return;
  const LbfgsCompactStorage cs = compactStorage(a, r);
  CompactRows rows(scratch);
  if (Pass == 2) lbfgsCompactInverseRow(rows, cs, row, h, m);
  if (Pass == 3) lbfgsCompactMiddleRow(rows, cs, row, h, m);
  if (Pass == 4) lbfgsCompactProjectRow(rows, cs, row, h, m);
}

// Pass 5a: blockIdx.x = (slot, chunk), blockIdx.y = block of components.
__global__ void __launch_bounds__(kCompactComponentThreads)
    compactChunksKernel(BatchedRoundsArgs a) {
  const int n = a.settings.n, m = a.settings.m;
  const unsigned int chunks = static_cast<unsigned int>(lbfgsCompactChunks(m));
  const std::size_t r = blockIdx.x / chunks;
  const int chunk = static_cast<int>(blockIdx.x % chunks);
  const int c = static_cast<int>(blockIdx.y) * kCompactComponentThreads + threadIdx.x;
  if (c >= n || !a.pending[r]) return;
  const LbfgsHistory h = compactHistory(a, r);
  if (chunk * kCompactPairsPerChunk >= h.length) return;
  const LbfgsCompactStorage cs = compactStorage(a, r);
  cs.parts[static_cast<std::size_t>(chunk) * n + c] =
      lbfgsCompactChunkPart(roundsSlotStorage(a.slots, r, n, m), cs, c, chunk, h, a.settings);
}

// Pass 5b: blockIdx.x = slot, blockIdx.y = block of components: p and the block's p.g, p.p.
__global__ void __launch_bounds__(kCompactComponentThreads)
    compactDirectionKernel(BatchedRoundsArgs a) {
  __shared__ double scratch[6 * (kCompactComponentThreads / kTeamWarpSize)];
  const int n = a.settings.n, m = a.settings.m;
  const std::size_t r = blockIdx.x;
  if (!a.pending[r]) return;  // block-uniform
  const LbfgsHistory h = compactHistory(a, r);
  const LbfgsTeamStorage st = roundsSlotStorage(a.slots, r, n, m);
  const LbfgsCompactStorage cs = compactStorage(a, r);
  const int c = static_cast<int>(blockIdx.y) * kCompactComponentThreads + threadIdx.x;
  TeamSum<2> acc{{0.0, 0.0}};
  if (c < n) {
    const double pc = lbfgsCompactComponent(st, cs, c, h, a.settings);
    a.slots.p[r * static_cast<std::size_t>(n) + c] = pc;
    acc.v[0] = fma(pc, st.g[c], acc.v[0]);
    acc.v[1] = fma(pc, pc, acc.v[1]);
  }
  DeviceTeam<0> team(n, scratch);
  const TeamSum<2> total = team.reduce(acc);
  if (threadIdx.x == 0) {
    cs.blockSums[2 * blockIdx.y] = total.v[0];
    cs.blockSums[2 * blockIdx.y + 1] = total.v[1];
  }
}

// Pass 5c-d: every block forms the same totals; block (slot, 0) moves the state to the trial.
__global__ void __launch_bounds__(kCompactComponentThreads)
    compactTrialKernel(BatchedRoundsArgs a) {
  const int n = a.settings.n, m = a.settings.m;
  const std::size_t r = blockIdx.x;
  if (!a.pending[r]) return;
  const LbfgsCompactStorage cs = compactStorage(a, r);
  const LbfgsTeamDirection d = lbfgsCompactTotals(cs, n);
  const LbfgsStepState decision = lbfgsCompactDecision(d, a.settings);
  const int c = static_cast<int>(blockIdx.y) * kCompactComponentThreads + threadIdx.x;
  if (c < n)
    lbfgsCompactTrialComponent(roundsSlotStorage(a.slots, r, n, m),
                               a.slots.p + r * static_cast<std::size_t>(n), c, decision);
  if (blockIdx.y == 0 && threadIdx.x == 0) {
    lbfgsCompactStartTrial(a.slots.state[r], d, a.settings);
    a.slots.active[r] = 1;
  }
}

unsigned int gridX(std::size_t slots, std::size_t perSlot, const char* what) {
  if (perSlot == 0 || slots > static_cast<std::size_t>(INT_MAX) / perSlot)
    throw std::invalid_argument(std::string("batched L-BFGS rounds, compact directions: ") + what +
                                " needs " + std::to_string(slots) + " x " +
                                std::to_string(perSlot) + " blocks, more than a grid holds (" +
                                std::to_string(INT_MAX) + "); use fewer resident structures");
  return static_cast<unsigned int>(slots * perSlot);
}

}  // namespace

void launchBatchedRoundsCompactDirection(const BatchedRoundsArgs& a, cudaStream_t stream) {
  if (!a.compact || !a.pending || !a.slots.p || !a.slots.x || !a.slots.g || !a.slots.xt ||
      !a.slots.s || !a.slots.y || !a.slots.state || !a.slots.active)
    throw std::invalid_argument(
        "batched L-BFGS rounds, compact directions: every device pointer must be set");
  const int n = a.settings.n, m = a.settings.m;
  if (n < 1 || m < 1)
    throw std::invalid_argument("batched L-BFGS rounds, compact directions: n and m must be >= 1");
  const unsigned int componentBlocks = static_cast<unsigned int>(lbfgsCompactBlocks(n));
  if (componentBlocks > kMaxGridY)
    throw std::invalid_argument(
        "batched L-BFGS rounds, compact directions: n = " + std::to_string(n) +
        " needs more than " + std::to_string(kMaxGridY) + " blocks of " +
        std::to_string(kCompactComponentThreads) + " components");
  const std::size_t slots = a.slots.slots;
  const unsigned int pairGrid = gridX(slots, static_cast<std::size_t>(m), "passes 1-4");
  const unsigned int chunkGrid =
      gridX(slots, static_cast<std::size_t>(lbfgsCompactChunks(m)), "pass 5");
  const unsigned int slotGrid = gridX(slots, 1, "pass 5");

  compactPairDotsKernel<<<pairGrid, kCompactPairThreads, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  compactRowsKernel<2><<<pairGrid, kCompactRowThreads, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  compactRowsKernel<3><<<pairGrid, kCompactRowThreads, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  compactRowsKernel<4><<<pairGrid, kCompactRowThreads, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  compactChunksKernel<<<dim3(chunkGrid, componentBlocks), kCompactComponentThreads, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  compactDirectionKernel<<<dim3(slotGrid, componentBlocks), kCompactComponentThreads, 0, stream>>>(
      a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  compactTrialKernel<<<dim3(slotGrid, componentBlocks), kCompactComponentThreads, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
