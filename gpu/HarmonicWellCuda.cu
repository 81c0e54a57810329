#include <stdexcept>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/HarmonicWellCuda.h"
#include "gpu/HarmonicWellKernels.cuh"
#include "potentials/HarmonicWell.h"

namespace landscape {

struct HarmonicWellCuda::DeviceState {
  explicit DeviceState(std::size_t coordinates)
      : x(coordinates),
        g(coordinates),
        blockEnergy(harmonicWellBlockCount(coordinates)),
        energy(1),
        coordinates(coordinates) {}

  double evaluate(const double* d_x, double* d_g, double springConstant) {
    HarmonicWellArgs args;
    args.d_x = d_x;
    args.d_g = d_g;
    args.d_blockEnergy = blockEnergy.data();
    args.d_energy = energy.data();
    args.coordinates = coordinates;
    args.springConstant = springConstant;
    launchHarmonicWell(args, nullptr);
    double e = 0.0;
    energy.copyToHost(&e, 1);  // synchronous: waits for the kernels, reports their errors
    return e;
  }

  DeviceBuffer<double> x, g;  // staging for the host entry points
  DeviceBuffer<double> blockEnergy;
  DeviceBuffer<double> energy;
  std::size_t coordinates;
};

HarmonicWellCuda::HarmonicWellCuda(std::size_t atoms, double springConstant)
    : m_atoms(atoms), m_springConstant(springConstant) {
  requireHarmonicWellArguments(atoms, springConstant);
  m_device = std::make_unique<DeviceState>(3 * atoms);
}

HarmonicWellCuda::~HarmonicWellCuda() = default;

std::string HarmonicWellCuda::name() const {
  return "harmonic well " + std::to_string(m_atoms) + " atoms (cuda)";
}

double HarmonicWellCuda::energy(const double* x) {
  m_device->x.copyFromHost(x, dimension());
  return m_device->evaluate(m_device->x.data(), m_device->g.data(), m_springConstant);
}

double HarmonicWellCuda::energyGradient(const double* x, double* g) {
  m_device->x.copyFromHost(x, dimension());
  const double e = m_device->evaluate(m_device->x.data(), m_device->g.data(), m_springConstant);
  m_device->g.copyToHost(g, dimension());
  return e;
}

double HarmonicWellCuda::energyGradientDevice(const double* d_x, double* d_g) {
  if (d_x == nullptr || d_g == nullptr)
    throw std::invalid_argument(name() +
                                ": energyGradientDevice needs device pointers d_x and d_g");
  return m_device->evaluate(d_x, d_g, m_springConstant);
}

}  // namespace landscape
