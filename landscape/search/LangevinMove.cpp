#include "landscape/search/LangevinMove.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "landscape/dynamics/RandomTerms.h"

namespace landscape {

namespace {

const LangevinParams& checked(const LangevinParams& params) {
  params.check();
  return params;
}

}  // namespace

LangevinMove::LangevinMove(const LangevinParams& params, LangevinIntegratorFactory factory)
    : m_params(checked(params)), m_factory(std::move(factory)) {}
LangevinMove::~LangevinMove() = default;
LangevinMove::LangevinMove(LangevinMove&&) noexcept = default;
LangevinMove& LangevinMove::operator=(LangevinMove&&) noexcept = default;

std::uint64_t LangevinMove::streamSeed(std::uint64_t stream) const {
  return rng::seedWord(m_params.seed, stream, 0x4d4f5645u);  // an independent seed per stream
}

void LangevinMove::perturb(Potential& potential, std::vector<double>& x, std::uint64_t stream) {
  if (x.size() != potential.dimension())
    throw std::invalid_argument("LangevinMove: x has " + std::to_string(x.size()) +
                                " coordinates but " + potential.name() + " has " +
                                std::to_string(potential.dimension()));
  if (m_integrator == nullptr || m_potential != &potential ||
      m_integrator->dimension() != potential.dimension()) {
    m_integrator = m_factory ? m_factory(potential, m_params)
                             : std::make_unique<LangevinCpu>(potential, m_params);
    m_potential = &potential;
  }
  m_integrator->reseed(streamSeed(stream));
  m_integrator->run(x.data(), m_params.steps);
  for (double value : x)
    if (!std::isfinite(value))
      throw std::runtime_error("LangevinMove: the run at kT = " + std::to_string(m_params.kT) +
                               " left non-finite coordinates; reduce the time step (" +
                               std::to_string(m_params.timeStep) + ")");
}

}  // namespace landscape
