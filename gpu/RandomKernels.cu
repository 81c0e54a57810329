#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/RandomKernels.cuh"

namespace landscape {
namespace {

__global__ void seedKernel(RandomStreamsView v) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  switch (v.kind) {
    case RngKind::Lcg:
      if (i < v.streams) v.d_lcg[i] = rng::lcgStreamStart(v.seed, i, v.streams);
      break;
    case RngKind::HybridTaus:
      if (i < v.streams) {
        const rng::HybridTausState s = rng::hybridTausStreamState(v.seed, i);
        reinterpret_cast<uint4*>(v.d_taus)[i] = make_uint4(s.z1, s.z2, s.z3, s.z4);
      }
      break;
    case RngKind::Ran2:
      if (i < v.streams) {
        rng::Ran2State s;
        rng::ran2Seed(s, rng::ran2StreamSeed(v.seed, i));
        const std::size_t n = v.streams;
        v.d_ran2[i] = s.idum;
        v.d_ran2[n + i] = s.idum2;
        v.d_ran2[2 * n + i] = s.iy;
        for (int j = 0; j < rng::kRan2TableSize; ++j) v.d_ran2[(3 + j) * n + i] = s.iv[j];
      }
      break;
    case RngKind::LaggedFibonacci:
      if (i < static_cast<std::size_t>(v.groups) * v.longLag)
        v.d_ring[i] = rng::laggedFibonacciInitialWord(v.seed, i % v.longLag, i / v.longLag);
      break;
    case RngKind::Philox:
      break;
  }
}

template <RngKind K, LaggedFibonacciAccess A>
__global__ void drawWordsKernel(RandomStreamsView v, std::uint32_t* d_words) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= v.streams) return;
  std::uint32_t w[4];
  drawStreamStep<K, A>(v, i, w);
  for (int j = 0; j < 4; ++j) d_words[j * v.streams + i] = w[j];
}

unsigned int blocksFor(std::size_t threads) {
  const std::size_t blocks = (threads + kRandomBlockSize - 1) / kRandomBlockSize;
  if (blocks == 0 || blocks > 0x7fffffffu)
    throw std::invalid_argument("random streams: " + std::to_string(threads) +
                                " threads cannot be launched");
  return static_cast<unsigned int>(blocks);
}

}  // namespace

void launchSeedRandomStreams(const RandomStreamsView& view, cudaStream_t stream) {
  const std::size_t threads = view.kind == RngKind::LaggedFibonacci
                                  ? static_cast<std::size_t>(view.groups) * view.longLag
                                  : view.streams;
  if (view.kind == RngKind::Philox) return;
  seedKernel<<<blocksFor(threads), kRandomBlockSize, 0, stream>>>(view);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchDrawRandomWords(const RandomStreamsView& view, std::uint32_t* d_words,
                           cudaStream_t stream, LaggedFibonacciAccess access) {
  if (d_words == nullptr) throw std::invalid_argument("launchDrawRandomWords: d_words is null");
  dispatchRngKind(view.kind, [&](auto kind) {
    constexpr RngKind K = decltype(kind)::value;
    const unsigned int blocks = blocksFor(view.streams);
    if constexpr (K == RngKind::LaggedFibonacci) {
      switch (access) {
        case LaggedFibonacciAccess::Sequential:
          drawWordsKernel<K, LaggedFibonacciAccess::Sequential>
              <<<blocks, kRandomBlockSize, 0, stream>>>(view, d_words);
          break;
        case LaggedFibonacciAccess::Batched:
          drawWordsKernel<K, LaggedFibonacciAccess::Batched>
              <<<blocks, kRandomBlockSize, 0, stream>>>(view, d_words);
          break;
        case LaggedFibonacciAccess::Streaming:
        case LaggedFibonacciAccess::StreamingKeepPositions:  // the same draw; no positions here
          drawWordsKernel<K, LaggedFibonacciAccess::Streaming>
              <<<blocks, kRandomBlockSize, 0, stream>>>(view, d_words);
          break;
      }
    } else {
      drawWordsKernel<K, kDefaultLaggedFibonacciAccess>
          <<<blocks, kRandomBlockSize, 0, stream>>>(view, d_words);
    }
  });
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
