#include "potentials/Potential.h"

#include <cmath>
#include <stdexcept>

#include "landscape/core/InputChecks.h"

namespace landscape {

Backend parseBackend(const std::string& name) {
  if (name == "cpu") return Backend::Cpu;
  if (name == "cuda") return Backend::Cuda;
  throw std::invalid_argument("backend must be 'cpu' or 'cuda', not " + quoteInput(name));
}

std::string backendName(Backend backend) { return backend == Backend::Cpu ? "cpu" : "cuda"; }

std::vector<EnergyComponent> Potential::energyComponents(const double* x) {
  return {{"TOTAL", energy(x)}};
}

bool Potential::perAtomEnergies(const double*, double*) { return false; }

void Potential::energyGradients(std::size_t count, const double* x, double* g, double* energies) {
  const std::size_t n = dimension();
  for (std::size_t b = 0; b < count; ++b) energies[b] = energyGradient(x + b * n, g + b * n);
}

double Potential::energyGradientDevice(const double*, double*) {
  throw std::logic_error(name() + " has no device-resident entry point (it runs on the host)");
}

double Potential::rmsGradient(const double*, const double* g) {
  double sum = 0.0;
  for (std::size_t i = 0; i < dimension(); ++i) sum += g[i] * g[i];
  return std::sqrt(sum / static_cast<double>(dimension()));
}

bool Potential::overallMotionModes(const double*, std::vector<double>&) const { return false; }

bool Potential::diagonalMetric(std::vector<double>&) const { return false; }

double Potential::rmsGradientDevice(const double*, const double*) {
  throw std::logic_error(name() + " has no device-resident metric RMS gradient");
}

}  // namespace landscape
