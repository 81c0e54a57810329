// Compiled with -fmad=false (CMakeLists.txt): the CPU twin rounds every multiply and add alone.
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpu/BatchedLbfgsRoundsKernels.cuh"
#include "gpu/BatchedLbfgsRoundsTeam.cuh"
#include "gpu/CudaCheck.h"

namespace landscape {
namespace {

constexpr int kMaxWarps = 32;  // 1024 threads

// The direction p of an evaluating slot: K > 0 holds it in registers (DeviceOwnedTeam: K
// components per thread, the same components and the same sums as the rows' team), loaded from
// its row before the round's work and stored back after, so that the history's loads of the
// two-loop recursion do not wait behind stores to p that might alias them; K = 0 works on the row
// in global memory (launchBatchedRoundsAdvance chooses).
//
// Bounds: the largest team for p in global memory (ptxas: 64 registers, no spills on sm_90);
// teams of at most kRegisterTeamThreads for p in registers, whose registers a 1024-thread bound
// would spill, with room for 3 such blocks per multiprocessor (K = 4: 80 registers, 40 bytes
// spilled; unbounded it took 108 and a TIP4P (H2O)20 walker round was 2% slower than at 80,
// docs/benchmarks.md).
constexpr int kRegisterTeamThreads = 256;

template <int K>
__global__ void __launch_bounds__(K == 0 ? 32 * kMaxWarps : kRegisterTeamThreads, K == 0 ? 1 : 3)
    roundsAdvanceKernel(BatchedRoundsArgs a) {
  using Team = std::conditional_t<K == 0, RoundsRowTeam, DeviceOwnedTeam<K>>;
  __shared__ double scratch[6 * kMaxWarps];
  __shared__ unsigned int taken;
  const std::size_t r = blockIdx.x;
  LbfgsRoundsState s = a.slots.state[r];  // every thread its own copy of the same bits
  if (s.phase == kRoundsIdle) return;     // uniform: the whole block leaves
  const int n = a.settings.n, m = a.settings.m;
  Team team(n, scratch);
  const LbfgsTeamStorage st = roundsSlotStorage(a.slots, r, n, m);
  double* row = a.slots.p + r * static_cast<std::size_t>(n);
  if (lbfgsRoundsEvaluating(s.phase)) {
    if constexpr (K == 0) {
      typename Team::Owned p{row};
      lbfgsRoundsAdvance(team, st, p, s, a.slots.energy[r], a.settings, a.pending != nullptr,
                         a.metric, a.rms ? a.rms[r] : 0.0);
    } else {
      typename Team::Owned p = team.owned();
      team.forOwned([&](int c, int q) { p[q] = row[c]; });
      lbfgsRoundsAdvance(team, st, p, s, a.slots.energy[r], a.settings, a.pending != nullptr,
                         a.metric, a.rms ? a.rms[r] : 0.0);
      team.forOwned([&](int c, int q) { row[c] = p[q]; });
    }
  }
  const BatchedRoundsJob job = *a.d_job;
  if (s.phase == kRoundsFinished) {
    if (team.isLeader()) job.outcomes[s.structure] = lbfgsStepResult(s.step);
    double* out = job.x + static_cast<std::size_t>(s.structure) * n;
    team.forOwned([&](int c, int) { out[c] = st.x[c]; });  // own components, then reloaded
    s.phase = kRoundsEmpty;
  }
  if (s.phase == kRoundsEmpty) {
    if (threadIdx.x == 0) taken = atomicAdd(a.d_queue, 1u);
    __syncthreads();
    const unsigned int b = taken;
    if (b < job.batch)
      lbfgsRoundsLoad(team, st, job.x + static_cast<std::size_t>(b) * n, static_cast<int>(b), s);
    else
      s.phase = kRoundsIdle;
  }
  __syncthreads();  // every thread has read the state before the leader overwrites it
  if (team.isLeader()) {
    a.slots.state[r] = s;
    a.slots.active[r] = lbfgsRoundsEvaluating(s.phase) ? 1 : 0;
    if (a.pending) a.pending[r] = s.phase == kRoundsDirection ? 1 : 0;
  }
}

constexpr int kCountThreads = 256;

__global__ void __launch_bounds__(kCountThreads)
    roundsCountKernel(const std::uint8_t* active, std::size_t slots, int* count) {
  __shared__ int sums[kCountThreads];
  int c = 0;
  for (std::size_t i = threadIdx.x; i < slots; i += kCountThreads) c += active[i] != 0;
  sums[threadIdx.x] = c;
  __syncthreads();
  for (int o = kCountThreads / 2; o >= 1; o /= 2) {
    if (threadIdx.x < o) sums[threadIdx.x] += sums[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) *static_cast<volatile int*>(count) = sums[0];
}

__global__ void roundsStopKernel(BatchedRoundsArgs a) {
  const std::size_t r = blockIdx.x;
  LbfgsRoundsState s = a.slots.state[r];
  if (!lbfgsRoundsEvaluating(s.phase)) return;
  lbfgsRoundsStop(s, __longlong_as_double(0x7ff8000000000000LL));
  const BatchedRoundsJob job = *a.d_job;
  const int n = a.settings.n;
  const double* x = a.slots.x + r * static_cast<std::size_t>(n);
  double* out = job.x + static_cast<std::size_t>(s.structure) * n;
  for (int c = threadIdx.x; c < n; c += blockDim.x) out[c] = x[c];
  __syncthreads();
  if (threadIdx.x == 0) {
    job.outcomes[s.structure] = lbfgsStepResult(s.step);
    s.phase = kRoundsIdle;
    a.slots.state[r] = s;
    a.slots.active[r] = 0;
  }
}

__global__ void roundsStopWaitingKernel(const BatchedRoundsJob* d_job, std::size_t from) {
  const BatchedRoundsJob job = *d_job;
  const double nan = __longlong_as_double(0x7ff8000000000000LL);
  for (std::size_t b = from + blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       b < job.batch; b += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    job.outcomes[b] = lbfgsStoppedResult(nan);
}

constexpr int kPackMapThreads = 1024;

// Each thread counts the live slots of its own contiguous chunk; a scan of the counts gives each
// chunk its first place, so the map keeps slot order.
__global__ void __launch_bounds__(kPackMapThreads)
    roundsPackMapKernel(const LbfgsRoundsState* state, std::size_t slots, int* map, int* live) {
  __shared__ int offsets[kPackMapThreads];
  const std::size_t chunk = (slots + kPackMapThreads - 1) / kPackMapThreads;
  const std::size_t begin = threadIdx.x * chunk;
  const std::size_t end = begin + chunk < slots ? begin + chunk : slots;
  int count = 0;
  for (std::size_t r = begin; r < end; ++r) count += state[r].phase != kRoundsIdle;
  offsets[threadIdx.x] = count;
  __syncthreads();
  for (int o = 1; o < kPackMapThreads; o *= 2) {  // inclusive scan (Hillis and Steele)
    const int add = threadIdx.x >= o ? offsets[threadIdx.x - o] : 0;
    __syncthreads();
    offsets[threadIdx.x] += add;
    __syncthreads();
  }
  int j = offsets[threadIdx.x] - count;
  for (std::size_t r = begin; r < end; ++r)
    if (state[r].phase != kRoundsIdle) map[j++] = static_cast<int>(r);
  if (threadIdx.x == kPackMapThreads - 1) *static_cast<volatile int*>(live) = offsets[threadIdx.x];
}

template <class Word>
__global__ void roundsGatherRowsKernel(const Word* src, Word* dst, const int* map, std::size_t rows,
                                       std::size_t rowWords) {
  const std::size_t total = rows * rowWords;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t j = i / rowWords, c = i - j * rowWords;
    dst[i] = src[static_cast<std::size_t>(map[j]) * rowWords + c];
  }
}

__global__ void roundsIdleRowsKernel(LbfgsRoundsState* state, std::uint8_t* active,
                                     std::uint8_t* pending, std::size_t from, std::size_t to) {
  for (std::size_t r = from + blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       r < to; r += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    state[r].phase = kRoundsIdle;
    active[r] = 0;
    if (pending) pending[r] = 0;
  }
}

unsigned int gridFor(std::size_t items, int threads) {
  const std::size_t blocks = (items + threads - 1) / threads;
  return static_cast<unsigned int>(blocks < 65536 ? (blocks > 0 ? blocks : 1) : 65536);
}

void checkArgs(const BatchedRoundsArgs& a) {
  const BatchedRoundsSlots& s = a.slots;
  if (!s.x || !s.g || !s.xt || !s.gt || !s.p || !s.s || !s.y || !s.rho || !s.alpha || !s.energy ||
      !s.active || !s.state || !a.d_job || !a.d_queue)
    throw std::invalid_argument("batched L-BFGS rounds: every device pointer must be set");
  if (a.threads < 32 || a.threads > 32 * kMaxWarps || a.threads % 32 != 0)
    throw std::invalid_argument(
        "batched L-BFGS rounds: threads per structure must be a multiple of 32 in [32, 1024], "
        "not " +
        std::to_string(a.threads));
  if (s.slots < 1 || s.slots > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("batched L-BFGS rounds: slots must be in [1, " +
                                std::to_string(INT_MAX) + "], not " + std::to_string(s.slots));
  if (a.settings.n < 1 || a.settings.m < 1)
    throw std::invalid_argument("batched L-BFGS rounds: n and m must be at least 1");
  if ((a.pending == nullptr) != (a.compact == nullptr))
    throw std::invalid_argument(
        "batched L-BFGS rounds: the compact storage and the pending flags go together");
  if ((a.metric.sqrtW == nullptr) != (a.metric.invSqrtW == nullptr))
    throw std::invalid_argument(
        "batched L-BFGS rounds: the diagonal metric's two scale arrays go together");
  if (a.metric.sqrtW && a.compact)
    throw std::invalid_argument(
        "batched L-BFGS rounds: compact directions have no diagonal metric");
  if (a.metric.gradientMetric != (a.rms != nullptr))
    throw std::invalid_argument(
        "batched L-BFGS rounds: a gradient metric and the RMS gradients go together");
}

}  // namespace

void launchBatchedRoundsAdvance(const BatchedRoundsArgs& args, cudaStream_t stream) {
  checkArgs(args);
  const unsigned int blocks = static_cast<unsigned int>(args.slots.slots);
  const int owned = (args.settings.n + args.threads - 1) / args.threads;  // per thread
  // Registers where measured: 3 or 4 components per thread (rigid water's rows). With
  // 8 the kernel spills 342 bytes under the bound; with 1 or 2 it needs 70-76 registers against
  // the row's 64 (fewer warps per multiprocessor). Both keep the row until measured.
  if (args.threads <= kRegisterTeamThreads && owned >= 3 && owned <= 4)
    roundsAdvanceKernel<4><<<blocks, args.threads, 0, stream>>>(args);
  else
    roundsAdvanceKernel<0><<<blocks, args.threads, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchBatchedRoundsCount(const std::uint8_t* active, std::size_t slots, int* d_count,
                              cudaStream_t stream) {
  if (!active || !d_count)
    throw std::invalid_argument("launchBatchedRoundsCount: every device pointer must be set");
  roundsCountKernel<<<1, kCountThreads, 0, stream>>>(active, slots, d_count);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchBatchedRoundsPackMap(const LbfgsRoundsState* state, std::size_t slots, int* d_map,
                                int* d_live, cudaStream_t stream) {
  if (!state || !d_map || !d_live)
    throw std::invalid_argument("launchBatchedRoundsPackMap: every device pointer must be set");
  if (slots > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("launchBatchedRoundsPackMap: at most INT_MAX slots");
  roundsPackMapKernel<<<1, kPackMapThreads, 0, stream>>>(state, slots, d_map, d_live);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchBatchedRoundsGatherRows(const void* src, void* dst, const int* d_map, std::size_t rows,
                                   std::size_t rowBytes, cudaStream_t stream) {
  if (!src || !dst || !d_map)
    throw std::invalid_argument("launchBatchedRoundsGatherRows: every device pointer must be set");
  if (rows == 0 || rowBytes == 0) return;
  constexpr int kThreads = 256;
  const bool words = rowBytes % sizeof(double) == 0 &&
                     reinterpret_cast<std::uintptr_t>(src) % sizeof(double) == 0 &&
                     reinterpret_cast<std::uintptr_t>(dst) % sizeof(double) == 0;
  if (words) {
    const std::size_t rowWords = rowBytes / sizeof(double);
    roundsGatherRowsKernel<<<gridFor(rows * rowWords, kThreads), kThreads, 0, stream>>>(
        static_cast<const unsigned long long*>(src), static_cast<unsigned long long*>(dst), d_map,
        rows, rowWords);
  } else {
    roundsGatherRowsKernel<<<gridFor(rows * rowBytes, kThreads), kThreads, 0, stream>>>(
        static_cast<const unsigned char*>(src), static_cast<unsigned char*>(dst), d_map, rows,
        rowBytes);
  }
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchBatchedRoundsIdleRows(LbfgsRoundsState* state, std::uint8_t* active,
                                 std::uint8_t* pending, std::size_t from, std::size_t to,
                                 cudaStream_t stream) {
  if (!state || !active)
    throw std::invalid_argument("launchBatchedRoundsIdleRows: state and active must be set");
  if (from >= to) return;
  constexpr int kThreads = 256;
  roundsIdleRowsKernel<<<gridFor(to - from, kThreads), kThreads, 0, stream>>>(state, active,
                                                                              pending, from, to);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchBatchedRoundsStop(const BatchedRoundsArgs& args, std::size_t from, std::size_t batch,
                             cudaStream_t stream) {
  checkArgs(args);
  roundsStopKernel<<<static_cast<unsigned int>(args.slots.slots), 256, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  if (from < batch) {
    const std::size_t blocks = (batch - from + 255) / 256;
    roundsStopWaitingKernel<<<static_cast<unsigned int>(blocks < 4096 ? blocks : 4096), 256, 0,
                              stream>>>(args.d_job, from);
    LANDSCAPE_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace landscape
