#include "gpu/BatchOfOne.cuh"
#include "gpu/BatchedGuptaCuda.h"
#include "gpu/GuptaCuda.h"

namespace landscape {

// One structure is a batch of one (gpu/BatchOfOne.cuh).
struct GuptaCuda::DeviceState : BatchOfOne<BatchedGuptaCuda> {
  using BatchOfOne::BatchOfOne;
};

GuptaCuda::GuptaCuda(std::size_t atoms, const GuptaParams& params)
    : m_atoms(atoms), m_params(params), m_device(std::make_unique<DeviceState>(atoms, params)) {}

GuptaCuda::~GuptaCuda() = default;

std::string GuptaCuda::name() const {
  return "Gupta " + std::to_string(m_atoms) + " atoms (" + m_params.describe() + ") (cuda)";
}

double GuptaCuda::energyGradientDevice(const double* d_x, double* d_g) {
  return m_device->energyGradientDevice(d_x, d_g);
}

double GuptaCuda::energyGradient(const double* x, double* g) {
  return m_device->energyGradient(x, g);
}

double GuptaCuda::energy(const double* x) { return m_device->energyOnly(x); }

GuptaPotential& GuptaCuda::reference() {
  if (!m_reference) m_reference = std::make_unique<GuptaPotential>(m_atoms, m_params);
  return *m_reference;
}

std::vector<EnergyComponent> GuptaCuda::energyComponents(const double* x) {
  return reference().energyComponents(x);
}

bool GuptaCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  return reference().perAtomEnergies(x, atomEnergies);
}

}  // namespace landscape
