#include "potentials/BatchedPotential.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

void BatchedPotential::energyGradientDevice(std::size_t, const double*, double*, double*,
                                            const std::uint8_t*, DeviceStream) {
  throw std::logic_error(name() + " has no device entry point (it is not device resident)");
}

bool BatchedPotential::diagonalMetric(std::vector<double>&) const { return false; }

void BatchedPotential::rmsGradients(std::size_t batch, const double*, const double* g,
                                    double* rms, const std::uint8_t* active) {
  const std::size_t n = dimension();
  for (std::size_t b = 0; b < batch; ++b) {
    if (active && !active[b]) continue;
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += g[b * n + i] * g[b * n + i];
    rms[b] = std::sqrt(sum / static_cast<double>(n));
  }
}

void BatchedPotential::rmsGradientsDevice(std::size_t, const double*, const double*, double*,
                                          const std::uint8_t*, DeviceStream) {
  throw std::logic_error(name() + " has no device RMS gradient (it is not device resident)");
}

std::size_t evaluateBatch(BatchedPotential& potential, const std::vector<double>& x,
                          std::vector<double>& g, std::vector<double>& energy,
                          const std::vector<std::uint8_t>& active) {
  const std::size_t n = potential.dimension();
  const std::string where = potential.name() + ": ";
  if (x.empty() || n == 0 || x.size() % n != 0)
    throw std::invalid_argument(
        where + "the coordinates must hold a whole number (at least one) of " + "structures of " +
        std::to_string(n) + " values, not " + std::to_string(x.size()));
  const std::size_t batch = x.size() / n;
  if (g.size() != x.size())
    throw std::invalid_argument(where + "the gradients must hold as many values as the " +
                                "coordinates (" + std::to_string(x.size()) + "), not " +
                                std::to_string(g.size()));
  if (energy.size() != batch)
    throw std::invalid_argument(where + "the energies must hold one value per structure (" +
                                std::to_string(batch) + "), not " + std::to_string(energy.size()));
  if (!active.empty() && active.size() != batch)
    throw std::invalid_argument(where + "the active mask must hold one flag per structure (" +
                                std::to_string(batch) + ") or none, not " +
                                std::to_string(active.size()));
  potential.energyGradient(batch, x.data(), g.data(), energy.data(),
                           active.empty() ? nullptr : active.data());
  return batch;
}

}  // namespace landscape
