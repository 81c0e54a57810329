#include "gpu/BatchedGuptaCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GuptaCuda.h"

namespace landscape {

// One structure is a batch of one: one code path for B = 1 and B > 1.
struct GuptaCuda::DeviceState {
  DeviceState(std::size_t atoms, const GuptaParams& params)
      : batched(atoms, params), x(3 * atoms), g(3 * atoms), energy(1) {}
  BatchedGuptaCuda batched;
  DeviceBuffer<double> x, g;  // for host callers
  DeviceBuffer<double> energy;
};

GuptaCuda::GuptaCuda(std::size_t atoms, const GuptaParams& params)
    : m_atoms(atoms), m_params(params), m_device(std::make_unique<DeviceState>(atoms, params)) {}

GuptaCuda::~GuptaCuda() = default;

std::string GuptaCuda::name() const {
  return "Gupta " + std::to_string(m_atoms) + " atoms (" + m_params.describe() + ") (cuda)";
}

double GuptaCuda::energyGradientDevice(const double* d_x, double* d_g) {
  DeviceState& d = *m_device;
  d.batched.energyGradientDevice(1, d_x, d_g, d.energy.data(), nullptr, nullptr);
  double e = 0.0;
  d.energy.copyToHost(&e, 1);  // synchronises (legacy stream) and reports a kernel fault here
  return e;
}

double GuptaCuda::energyGradient(const double* x, double* g) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, 3 * m_atoms);
  const double e = energyGradientDevice(d.x.data(), d.g.data());
  d.g.copyToHost(g, 3 * m_atoms);
  return e;
}

double GuptaCuda::energy(const double* x) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, 3 * m_atoms);
  return energyGradientDevice(d.x.data(), d.g.data());
}

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
