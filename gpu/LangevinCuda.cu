#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/LangevinCuda.h"
#include "gpu/LangevinKernels.cuh"
#include "gpu/RandomStreamsCuda.h"

namespace landscape {

namespace {

const LangevinParams& checked(const LangevinParams& params) {
  params.check();
  return params;
}

}  // namespace

struct LangevinCuda::DeviceState {
  DeviceState(Potential& potential, const LangevinParams& params)
      : potential(potential),
        params(checked(params)),
        particles(langevinParticles(potential.dimension())),
        streams(params.generator, params.seed, particles),
        x(3 * particles),
        g(3 * particles) {
    if (!potential.isDeviceResident()) {
      hostX.resize(3 * particles);
      hostG.resize(3 * particles);
    }
  }

  void evaluateGradient(const double* d_x) {
    if (potential.isDeviceResident()) {
      potential.energyGradientDevice(d_x, g.data());
      return;
    }
    LANDSCAPE_CUDA_CHECK(
        cudaMemcpy(hostX.data(), d_x, hostX.size() * sizeof(double), cudaMemcpyDeviceToHost));
    potential.energyGradient(hostX.data(), hostG.data());
    g.copyFromHost(hostG);
  }

  void runDevice(double* d_x, long steps) {
    if (steps < 0) throw std::invalid_argument("Langevin run: steps must be >= 0");
    if (d_x == nullptr) throw std::invalid_argument("LangevinCuda::runDevice: d_x is null");
    LangevinStepArgs args;
    args.d_x = d_x;
    args.d_g = g.data();
    args.particles = particles;
    args.mobilityStep = params.mobilityStep();
    args.noiseAmplitude = params.noiseAmplitude();
    for (long step = 0; step < steps; ++step) {
      evaluateGradient(d_x);
      args.streams = streams.view();
      launchLangevinStep(args, nullptr);
      streams.advance();
    }
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  Potential& potential;
  LangevinParams params;
  std::size_t particles;
  RandomStreamsCuda streams;
  DeviceBuffer<double> x, g;
  std::vector<double> hostX, hostG;  // host-only potentials
};

LangevinCuda::LangevinCuda(Potential& potential, const LangevinParams& params)
    : m_state(std::make_unique<DeviceState>(potential, params)) {}

LangevinCuda::~LangevinCuda() = default;

std::size_t LangevinCuda::dimension() const { return 3 * m_state->particles; }
const LangevinParams& LangevinCuda::params() const { return m_state->params; }
long LangevinCuda::stepsDone() const { return static_cast<long>(m_state->streams.step()); }

void LangevinCuda::run(double* x, long steps) {
  m_state->x.copyFromHost(x, dimension());
  m_state->runDevice(m_state->x.data(), steps);
  m_state->x.copyToHost(x, dimension());
}

void LangevinCuda::runDevice(double* d_x, long steps) { m_state->runDevice(d_x, steps); }

void LangevinCuda::reseed(std::uint64_t seed) {
  m_state->params.seed = seed;
  m_state->streams.reseed(seed);
}

}  // namespace landscape
