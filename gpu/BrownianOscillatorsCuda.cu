#include <stdexcept>
#include <string>

#include "gpu/BrownianOscillatorsCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/RandomKernels.cuh"
#include "gpu/RandomStreamsCuda.h"

namespace landscape {
namespace {

/// Single-precision Box-Muller from the high 24 bits of each word (potentials/RandomTerms.h).
__device__ __forceinline__ void particleGaussiansFloat(const std::uint32_t w[4], float g[3]) {
  const float r0 = sqrtf(-2.0f * logf(rng::uniformFloat(w[0])));
  float s, c;
  sincospif(2.0f * rng::uniformFloat(w[1]), &s, &c);
  g[0] = r0 * c;
  g[1] = r0 * s;
  g[2] = sqrtf(-2.0f * logf(rng::uniformFloat(w[2]))) * cospif(2.0f * rng::uniformFloat(w[3]));
}

template <RngKind K>
__global__ void __launch_bounds__(kRandomBlockSize)
    fusedStepKernel(float4* d_position, std::size_t n, float decay, float amplitude,
                    RandomStreamsView streams) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kRandomBlockSize + threadIdx.x;
  if (i >= n) return;
  std::uint32_t w[4];
  drawStreamStep<K>(streams, i, w);
  float g[3];
  particleGaussiansFloat(w, g);
  float4 p = d_position[i];
  p.x = decay * p.x + amplitude * g[0];
  p.y = decay * p.y + amplitude * g[1];
  p.z = decay * p.z + amplitude * g[2];
  d_position[i] = p;
}

__global__ void __launch_bounds__(kRandomBlockSize)
    gaussianStepKernel(float4* d_position, std::size_t n, float decay, float amplitude,
                       const float* d_gaussians) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kRandomBlockSize + threadIdx.x;
  if (i >= n) return;
  float4 p = d_position[i];
  p.x = decay * p.x + amplitude * d_gaussians[3 * i];
  p.y = decay * p.y + amplitude * d_gaussians[3 * i + 1];
  p.z = decay * p.z + amplitude * d_gaussians[3 * i + 2];
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
      fusedStepKernel<decltype(kind)::value><<<s.blocks(), kRandomBlockSize, 0, nullptr>>>(
          s.position.data(), s.n, s.decay, s.amplitude, view);
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
