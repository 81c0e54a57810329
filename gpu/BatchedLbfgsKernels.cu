// Compiled with -fmad=false (CMakeLists.txt): the CPU twin rounds every multiply and add alone.
#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedLbfgsKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/TeamDevice.cuh"
#include "gpu/TeamLennardJones.cuh"

namespace landscape {
namespace {

constexpr int kMaxTeamThreads = 256;  // 8 warps

// The Team of lbfgsTeamMinimise on the device: sums and barriers of DeviceTeamBase, evaluations
// by teamLennardJones.
class LennardJonesLbfgsTeam : public DeviceTeamBase {
 public:
  __device__ LennardJonesLbfgsTeam(int dimension, double* scratch, const TeamPairSchedule& s)
      : DeviceTeamBase(dimension, scratch), m_schedule(s) {}
  __device__ double evaluate(const double* x, double* g) {
    return teamLennardJones(*this, m_schedule, x, g);
  }

 private:
  TeamPairSchedule m_schedule;
};

__global__ void __launch_bounds__(kMaxTeamThreads) batchedLbfgsKernel(BatchedLbfgsArgs args) {
  extern __shared__ double shared[];
  __shared__ unsigned int taken;
  const int n = args.settings.n, m = args.settings.m;
  LennardJonesLbfgsTeam team(n, lbfgsTeamScratch(shared, n, m), args.schedule);
  for (;;) {
    if (threadIdx.x == 0) taken = atomicAdd(args.d_queue, 1u);
    __syncthreads();
    const unsigned int b = taken;
    __syncthreads();  // every thread has read `taken` before thread 0 writes it again
    if (b >= args.batch) return;
    LbfgsTeamStorage st = lbfgsTeamLayout(shared, n, m);
    double* xb = args.d_x + static_cast<std::size_t>(b) * n;
    team.forEach([&](int c) { st.x[c] = xb[c]; });
    const LbfgsTeamOutcome outcome = lbfgsTeamMinimise(team, st, args.settings);
    team.forEach([&](int c) { xb[c] = st.x[c]; });  // own components: no barrier needed
    if (team.isLeader()) args.d_outcomes[b] = outcome;
  }
}

// What the occupancy query needs: a consistent team shape.
void checkShape(const BatchedLbfgsArgs& a) {
  if (a.warps < 1 || 32 * a.warps > kMaxTeamThreads ||
      a.schedule.groups * a.schedule.tileWidth != 32 * a.warps || !a.schedule.slots)
    throw std::invalid_argument("launchBatchedLbfgs: the schedule must be built for " +
                                std::to_string(32 * a.warps) + " threads (1 to 8 warps)");
  if (a.settings.n != 3 * a.schedule.atoms || a.settings.m < 1)
    throw std::invalid_argument("launchBatchedLbfgs: n must be 3 x atoms and m >= 1");
}

void checkArgs(const BatchedLbfgsArgs& a) {
  checkShape(a);
  if (!a.d_x || !a.d_outcomes || !a.d_queue)
    throw std::invalid_argument("launchBatchedLbfgs: every device pointer must be set");
  if (a.batch > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("launchBatchedLbfgs: at most " + std::to_string(INT_MAX) +
                                " structures per launch, got " + std::to_string(a.batch));
}

}  // namespace

std::size_t batchedLbfgsSharedBytes(const BatchedLbfgsArgs& args) {
  return sizeof(double) * static_cast<std::size_t>(lbfgsTeamStorageDoubles(
                              args.settings.n, args.settings.m, args.warps));
}

int batchedLbfgsBlocksPerSm(const BatchedLbfgsArgs& args) {
  checkShape(args);
  const std::size_t bytes = batchedLbfgsSharedBytes(args);
  int device = 0, optin = 0;
  LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
  LANDSCAPE_CUDA_CHECK(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (bytes > static_cast<std::size_t>(optin)) return 0;
  LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(
      batchedLbfgsKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  int blocks = 0;
  LANDSCAPE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, batchedLbfgsKernel,
                                                                     32 * args.warps, bytes));
  return blocks;
}

void launchBatchedLbfgs(const BatchedLbfgsArgs& args, int blocks, cudaStream_t stream) {
  checkArgs(args);
  if (args.batch == 0) return;
  if (blocks < 1 || static_cast<std::size_t>(blocks) > args.batch)
    throw std::invalid_argument("launchBatchedLbfgs: blocks must be in [1, batch], got " +
                                std::to_string(blocks));
  batchedLbfgsKernel<<<blocks, 32 * args.warps, batchedLbfgsSharedBytes(args), stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
