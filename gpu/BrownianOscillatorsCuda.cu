#include <stdexcept>
#include <string>

#include "gpu/BrownianOscillatorsCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/RandomKernels.cuh"
#include "gpu/RandomStreamsCuda.h"

namespace landscape {
namespace {

/// Single-precision Box-Muller from the high 24 bits of each word (landscape/dynamics/RandomTerms.h).
__device__ __forceinline__ void particleGaussiansFloat(const std::uint32_t w[4], float g[3]) {
  const float r0 = sqrtf(-2.0f * logf(rng::uniformFloat(w[0])));
  float s, c;
  sincospif(2.0f * rng::uniformFloat(w[1]), &s, &c);
  g[0] = r0 * c;
  g[1] = r0 * s;
  g[2] = sqrtf(-2.0f * logf(rng::uniformFloat(w[2]))) * cospif(2.0f * rng::uniformFloat(w[3]));
}

/// An L2 policy that keeps lines over others (createpolicy, sm_80 and later).
__device__ __forceinline__ std::uint64_t evictLastPolicy() {
  std::uint64_t policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

__device__ __forceinline__ float4 loadKeep(const float4* p, std::uint64_t policy) {
  float4 v;
  asm volatile("ld.global.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p), "l"(policy)
               : "memory");
  return v;
}

__device__ __forceinline__ void storeKeep(float4* p, float4 v, std::uint64_t policy) {
  asm volatile("st.global.L2::cache_hint.v4.f32 [%0], {%1, %2, %3, %4}, %5;" ::"l"(p), "f"(v.x),
               "f"(v.y), "f"(v.z), "f"(v.w), "l"(policy)
               : "memory");
}

/// One step of oscillator i. A matters for Lagged Fibonacci only: Sequential is the first
/// kernel (position loaded after the draw); the others load the position first, so that its
/// load is in flight with the ring's; StreamingKeepPositions keeps positions in L2.
/// x' = decay x + amplitude g with the rounding spelled out (one product, then one FMA), so that
/// every kernel variant gives the same bits whatever the compiler would contract.
__device__ __forceinline__ float oscillatorUpdate(float decay, float x, float amplitude, float g) {
  return __fmaf_rn(decay, x, __fmul_rn(amplitude, g));
}

template <RngKind K, LaggedFibonacciAccess A>
__global__ void __launch_bounds__(kRandomBlockSize)
    fusedStepKernel(float4* d_position, std::size_t n, float decay, float amplitude,
                    RandomStreamsView streams) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kRandomBlockSize + threadIdx.x;
  if (i >= n) return;
  constexpr bool keep = A == LaggedFibonacciAccess::StreamingKeepPositions;
  std::uint64_t policy = 0;
  float4 p;
  if constexpr (keep) {
    policy = evictLastPolicy();
    p = loadKeep(d_position + i, policy);
  } else if constexpr (A != LaggedFibonacciAccess::Sequential) {
    p = d_position[i];
  }
  std::uint32_t w[4];
  drawStreamStep<K, A>(streams, i, w);
  float g[3];
  particleGaussiansFloat(w, g);
  if constexpr (A == LaggedFibonacciAccess::Sequential) p = d_position[i];
  p.x = oscillatorUpdate(decay, p.x, amplitude, g[0]);
  p.y = oscillatorUpdate(decay, p.y, amplitude, g[1]);
  p.z = oscillatorUpdate(decay, p.z, amplitude, g[2]);
  if constexpr (keep)
    storeKeep(d_position + i, p, policy);
  else
    d_position[i] = p;
}

__global__ void __launch_bounds__(kRandomBlockSize)
    gaussianStepKernel(float4* d_position, std::size_t n, float decay, float amplitude,
                       const float* d_gaussians) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kRandomBlockSize + threadIdx.x;
  if (i >= n) return;
  float4 p = d_position[i];
  p.x = oscillatorUpdate(decay, p.x, amplitude, d_gaussians[3 * i]);
  p.y = oscillatorUpdate(decay, p.y, amplitude, d_gaussians[3 * i + 1]);
  p.z = oscillatorUpdate(decay, p.z, amplitude, d_gaussians[3 * i + 2]);
  d_position[i] = p;
}

}  // namespace

struct BrownianOscillatorsCuda::DeviceState {
  DeviceState(std::size_t n, RngKind kind, std::uint64_t seed, float decay, float amplitude)
      : n(n), decay(decay), amplitude(amplitude), streams(kind, seed, n), position(n) {
    if ((n + kRandomBlockSize - 1) / kRandomBlockSize > 0x7fffffffu)
      throw std::invalid_argument("BrownianOscillatorsCuda: too many oscillators for one grid");
    position.zero();
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }
  unsigned int blocks() const {
    return static_cast<unsigned int>((n + kRandomBlockSize - 1) / kRandomBlockSize);
  }

  std::size_t n;
  float decay, amplitude;
  LaggedFibonacciAccess access = kDefaultLaggedFibonacciAccess;
  RandomStreamsCuda streams;
  DeviceBuffer<float4> position;
};

BrownianOscillatorsCuda::BrownianOscillatorsCuda(std::size_t oscillators, RngKind kind,
                                                 std::uint64_t seed, float decay, float amplitude) {
  if (oscillators == 0)
    throw std::invalid_argument("BrownianOscillatorsCuda: oscillators must be >= 1");
  m_state = std::make_unique<DeviceState>(oscillators, kind, seed, decay, amplitude);
}

BrownianOscillatorsCuda::~BrownianOscillatorsCuda() = default;

std::size_t BrownianOscillatorsCuda::oscillators() const { return m_state->n; }
RngKind BrownianOscillatorsCuda::kind() const { return m_state->streams.kind(); }
std::size_t BrownianOscillatorsCuda::stateBytes() const { return m_state->streams.stateBytes(); }

void BrownianOscillatorsCuda::setLaggedFibonacciAccess(LaggedFibonacciAccess access) {
  m_state->access = access;
}

LaggedFibonacciAccess BrownianOscillatorsCuda::laggedFibonacciAccess() const {
  return m_state->access;
}

double BrownianOscillatorsCuda::floorBytesPerStep() const {
  const double n = static_cast<double>(m_state->n);
  double perOscillator = 2.0 * sizeof(float4);
  switch (kind()) {
    case RngKind::Lcg:
      perOscillator += 2.0 * 4.0;
      break;
    case RngKind::HybridTaus:
      perOscillator += 2.0 * 16.0;
      break;
    case RngKind::Ran2:
      perOscillator += 2.0 * 140.0;
      break;
    case RngKind::LaggedFibonacci:
      perOscillator += 4.0 * 12.0;
      break;
    case RngKind::Philox:
      break;
  }
  return perOscillator * n;
}

double BrownianOscillatorsCuda::floorBytesPerGaussianStep() const {
  return (2.0 * sizeof(float4) + 3.0 * sizeof(float)) * static_cast<double>(m_state->n);
}

void BrownianOscillatorsCuda::setPositions(const std::vector<float>& xyz) {
  if (xyz.size() != 3 * m_state->n)
    throw std::invalid_argument(
        "BrownianOscillatorsCuda::setPositions: need 3 N = " + std::to_string(3 * m_state->n) +
        " values, got " + std::to_string(xyz.size()));
  std::vector<float4> packed(m_state->n);
  for (std::size_t i = 0; i < m_state->n; ++i)
    packed[i] = make_float4(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], 0.0f);
  m_state->position.copyFromHost(packed);
}

std::vector<float> BrownianOscillatorsCuda::positions() const {
  const std::vector<float4> packed = m_state->position.toHost();
  std::vector<float> xyz(3 * packed.size());
  for (std::size_t i = 0; i < packed.size(); ++i) {
    xyz[3 * i] = packed[i].x;
    xyz[3 * i + 1] = packed[i].y;
    xyz[3 * i + 2] = packed[i].z;
  }
  return xyz;
}

void BrownianOscillatorsCuda::run(long steps) {
  DeviceState& s = *m_state;
  for (long step = 0; step < steps; ++step) {
    const RandomStreamsView view = s.streams.view();
    dispatchRngKind(view.kind, [&](auto kind) {
      constexpr RngKind K = decltype(kind)::value;
      auto launch = [&](auto access) {
        fusedStepKernel<K, decltype(access)::value><<<s.blocks(), kRandomBlockSize, 0, nullptr>>>(
            s.position.data(), s.n, s.decay, s.amplitude, view);
      };
      using Access = LaggedFibonacciAccess;
      if constexpr (K == RngKind::LaggedFibonacci) {
        switch (s.access) {
          case Access::Sequential:
            launch(std::integral_constant<Access, Access::Sequential>{});
            break;
          case Access::Batched:
            launch(std::integral_constant<Access, Access::Batched>{});
            break;
          case Access::Streaming:
            launch(std::integral_constant<Access, Access::Streaming>{});
            break;
          case Access::StreamingKeepPositions:
            launch(std::integral_constant<Access, Access::StreamingKeepPositions>{});
            break;
        }
      } else {
        launch(std::integral_constant<Access, Access::Sequential>{});  // the first kernel
      }
    });
    LANDSCAPE_CUDA_CHECK_LAUNCH();
    s.streams.advance();
  }
}

void BrownianOscillatorsCuda::stepWithGaussians(const float* d_gaussians) {
  if (d_gaussians == nullptr)
    throw std::invalid_argument("BrownianOscillatorsCuda::stepWithGaussians: null pointer");
  DeviceState& s = *m_state;
  gaussianStepKernel<<<s.blocks(), kRandomBlockSize, 0, nullptr>>>(s.position.data(), s.n, s.decay,
                                                                   s.amplitude, d_gaussians);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void BrownianOscillatorsCuda::synchronize() {
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

}  // namespace landscape
