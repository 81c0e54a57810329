#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/LangevinKernels.cuh"
#include "landscape/dynamics/LangevinTerms.h"

namespace landscape {
namespace {

template <RngKind K>
__global__ void __launch_bounds__(kRandomBlockSize) langevinStepKernel(LangevinStepArgs args) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kRandomBlockSize + threadIdx.x;
  if (i >= args.particles) return;
  std::uint32_t w[4];
  drawStreamStep<K>(args.streams, i, w);
  double gauss[3];
  rng::particleGaussians(w, gauss);
  for (int c = 0; c < 3; ++c) {
    const std::size_t k = 3 * i + c;
    args.d_x[k] =
        langevinUpdate(args.d_x[k], args.d_g[k], args.mobilityStep, args.noiseAmplitude, gauss[c]);
  }
}

}  // namespace

void launchLangevinStep(const LangevinStepArgs& args, cudaStream_t stream) {
  if (args.particles == 0 || args.particles != args.streams.streams)
    throw std::invalid_argument("launchLangevinStep: " + std::to_string(args.particles) +
                                " particles but " + std::to_string(args.streams.streams) +
                                " random streams");
  if (args.d_x == nullptr || args.d_g == nullptr)
    throw std::invalid_argument("launchLangevinStep: d_x and d_g must be set");
  const std::size_t blocks = (args.particles + kRandomBlockSize - 1) / kRandomBlockSize;
  if (blocks > 0x7fffffffu)
    throw std::invalid_argument("launchLangevinStep: too many particles for one grid");
  dispatchRngKind(args.streams.kind, [&](auto kind) {
    langevinStepKernel<decltype(kind)::value>
        <<<static_cast<unsigned int>(blocks), kRandomBlockSize, 0, stream>>>(args);
  });
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
