#include "potentials/Potential.h"

#include <stdexcept>

namespace landscape {

Backend parseBackend(const std::string& name) {
  if (name == "cpu") return Backend::Cpu;
  if (name == "cuda") return Backend::Cuda;
  throw std::invalid_argument("backend must be 'cpu' or 'cuda', not '" + name + "'");
}

std::string backendName(Backend backend) { return backend == Backend::Cpu ? "cpu" : "cuda"; }

std::vector<EnergyComponent> Potential::energyComponents(const double* x) {
  return {{"TOTAL", energy(x)}};
}

bool Potential::perAtomEnergies(const double*, double*) { return false; }

double Potential::energyGradientDevice(const double*, double*) {
  throw std::logic_error(name() + " has no device-resident entry point (it runs on the host)");
}

}  // namespace landscape
