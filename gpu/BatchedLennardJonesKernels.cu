// Compiled with -fmad=false (CMakeLists.txt): the CPU twin rounds every multiply and add alone.
#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/BatchedLennardJonesKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/TeamDevice.cuh"

namespace landscape {
namespace {

constexpr int kMaxTeamThreads = 256;

template <int W>
__global__ void __launch_bounds__(kMaxTeamThreads)
    batchedLennardJonesKernel(BatchedLennardJonesArgs args) {
  const std::size_t b = blockIdx.x;
  if (args.d_active && !args.d_active[b]) return;  // the whole block leaves together
  extern __shared__ double shared[];
  const int n = 3 * args.schedule.atoms;
  double* x = shared;
  double* g = shared + n;
  DeviceTeamBase team(n, shared + 2 * n);
  const double* xb = args.d_x + b * n;
  team.forEach([&](int c) { x[c] = xb[c]; });
  const double energy = teamLennardJones<W>(team, args.schedule, x, g);
  double* gb = args.d_g + b * n;
  team.forEach([&](int c) { gb[c] = g[c]; });
  if (team.isLeader()) args.d_energy[b] = energy;
}

}  // namespace

void launchBatchedLennardJones(const BatchedLennardJonesArgs& args, cudaStream_t stream) {
  if (!args.d_x || !args.d_g || !args.d_energy || !args.schedule.slots)
    throw std::invalid_argument("launchBatchedLennardJones: every device pointer must be set");
  if (args.warps < 1 || 32 * args.warps > kMaxTeamThreads ||
      args.schedule.groups * args.schedule.tileWidth != 32 * args.warps)
    throw std::invalid_argument("launchBatchedLennardJones: the schedule must be built for " +
                                std::to_string(32 * args.warps) + " threads (1 to 8 warps)");
  if (args.batch > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("launchBatchedLennardJones: at most " + std::to_string(INT_MAX) +
                                " structures per launch, got " + std::to_string(args.batch));
  if (args.batch == 0) return;
  const std::size_t bytes = sizeof(double) * (6 * args.schedule.atoms + 6 * args.warps);
  withTileWidth(args.schedule.tileWidth, [&](auto w) {
    const auto kernel = batchedLennardJonesKernel<decltype(w)::value>;
    if (bytes > 48 * 1024)
      LANDSCAPE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(bytes)));
    kernel<<<static_cast<unsigned int>(args.batch), 32 * args.warps, bytes, stream>>>(args);
  });
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
