#include "landscape/dynamics/Langevin.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"
#include "landscape/dynamics/LangevinTerms.h"

namespace landscape {

void LangevinParams::check() const {
  require(std::isfinite(timeStep) && timeStep > 0.0,
          "Langevin time step (timeStep) must be finite and > 0 (time unit)");
  require(std::isfinite(friction) && friction > 0.0,
          "Langevin friction xi (friction) must be finite and > 0 (energy x time / length^2)");
  require(std::isfinite(kT) && kT >= 0.0,
          "Langevin temperature kT (kT) must be finite and >= 0 (energy unit)");
  require(steps >= 0, "Langevin steps (steps) must be >= 0, got " + std::to_string(steps));
  (void)rngKindName(generator);  // throws for a value outside the enumeration
}

double LangevinParams::noiseAmplitude() const {
  return langevinNoiseAmplitude(kT, timeStep, friction);
}

void LangevinIntegrator::run(std::vector<double>& x, long steps) {
  if (x.size() != dimension())
    throw std::invalid_argument("Langevin run: x has " + std::to_string(x.size()) +
                                " coordinates, the potential " + std::to_string(dimension()));
  run(x.data(), steps);
}

std::size_t langevinParticles(std::size_t dimension) {
  if (dimension == 0 || dimension % 3 != 0)
    throw std::invalid_argument(
        "Langevin dynamics needs 3 coordinates per particle, but the potential has dimension " +
        std::to_string(dimension));
  return dimension / 3;
}

namespace {

const LangevinParams& checked(const LangevinParams& params) {
  params.check();
  return params;
}

}  // namespace

LangevinCpu::LangevinCpu(Potential& potential, const LangevinParams& params)
    : m_potential(potential),
      m_params(checked(params)),
      m_streams(params.generator, params.seed, langevinParticles(potential.dimension())),
      m_g(potential.dimension()),
      m_words(kWordsPerStreamStep * m_streams.streams()) {}

void LangevinCpu::run(double* x, long steps) {
  if (steps < 0) throw std::invalid_argument("Langevin run: steps must be >= 0");
  const std::size_t n = m_streams.streams();
  const double mobility = m_params.mobilityStep(), amplitude = m_params.noiseAmplitude();
  for (long step = 0; step < steps; ++step) {
    m_potential.energyGradient(x, m_g.data());
    m_streams.nextStep(m_words.data());
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t w[4] = {m_words[i], m_words[n + i], m_words[2 * n + i],
                                  m_words[3 * n + i]};
      double gauss[3];
      rng::particleGaussians(w, gauss);
      for (int c = 0; c < 3; ++c)
        x[3 * i + c] = langevinUpdate(x[3 * i + c], m_g[3 * i + c], mobility, amplitude, gauss[c]);
    }
  }
}

void LangevinCpu::reseed(std::uint64_t seed) {
  m_params.seed = seed;
  m_streams.reseed(seed);
}

}  // namespace landscape
