#include "gpu/AmberGbCuda.h"
#include "gpu/BatchedAmberGbCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"

namespace landscape {

// One structure is a batch of one: one code path for B = 1 and B > 1.
struct AmberGbCuda::DeviceState {
  DeviceState(const AmberTopology& topology, const AmberGbParams& params, Precision precision)
      : batched(topology, params, precision, 1) {}
  BatchedAmberGbCuda batched;
  DeviceBuffer<double> x, g;  // for host callers
  DeviceBuffer<double> total{1};
};

AmberGbCuda::AmberGbCuda(const AmberTopology& topology, const AmberGbParams& params,
                         Precision precision)
    : m_topology(topology),
      m_params(params),
      m_precision(precision),
      m_atoms(static_cast<std::size_t>(topology.atomCount)),
      m_device(std::make_unique<DeviceState>(topology, params, precision)) {
  m_device->x = DeviceBuffer<double>(3 * m_atoms);
  m_device->g = DeviceBuffer<double>(3 * m_atoms);
}

AmberGbCuda::~AmberGbCuda() = default;

std::string AmberGbCuda::name() const {
  return "AMBER GB igb=" + std::to_string(m_params.igb) + " " + std::to_string(m_atoms) +
         " atoms (cuda, " + precisionName(m_precision) + ")";
}

int AmberGbCuda::pairChunk() const { return m_device->batched.pairChunk(); }

double AmberGbCuda::evaluate(const double* d_x, double* d_g) {
  DeviceState& d = *m_device;
  d.batched.energyGradientDevice(1, d_x, d_g, d.total.data(), nullptr, nullptr);
  // The components' copy synchronises (legacy default stream) and reports any kernel fault here.
  m_last = d.batched.breakdown(0);
  return m_last.total();
}

double AmberGbCuda::energyGradientDevice(const double* d_x, double* d_g) {
  return evaluate(d_x, d_g);
}

double AmberGbCuda::energyGradient(const double* x, double* g) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, 3 * m_atoms);
  const double e = evaluate(d.x.data(), d.g.data());
  d.g.copyToHost(g, 3 * m_atoms);
  return e;
}

double AmberGbCuda::energy(const double* x) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, 3 * m_atoms);
  return evaluate(d.x.data(), d.g.data());
}

AmberEnergyBreakdown AmberGbCuda::breakdown(const double* x) {
  energy(x);
  return m_last;
}

std::vector<EnergyComponent> AmberGbCuda::energyComponents(const double* x) {
  const AmberEnergyBreakdown e = breakdown(x);
  return {{"BOND", e.bond}, {"ANGLE", e.angle},   {"DIHED", e.dihedral}, {"VDWAALS", e.vdw},
          {"EELEC", e.eel}, {"1-4_VDW", e.vdw14}, {"1-4_EEL", e.eel14},  {"EGB", e.egb}};
}

bool AmberGbCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  if (!m_reference) m_reference = std::make_unique<AmberGb>(m_topology, m_params);
  return m_reference->perAtomEnergies(x, atomEnergies);
}

std::vector<double> AmberGbCuda::bornRadii(const double* x) {
  energy(x);
  return m_device->batched.bornRadii(0);
}

}  // namespace landscape
