#include <cmath>
#include <stdexcept>
#include <utility>

#include "gpu/BatchedRigidBodyCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/PotentialBatchCuda.h"
#include "gpu/RigidBodyCuda.h"
#include "potentials/RigidBodyPotential.h"

namespace landscape {

// The batch of one: the atomistic Potential as a batch (its own device entry point, or staged
// through the host), under BatchedRigidBodyCuda, on the legacy default stream.
struct RigidBodyCuda::DeviceState {
  DeviceState(Potential& atomistic, const RigidBodySystem& s)
      : atoms(atomistic), rigid(atoms, s, 1), q(s.dimension()), g(s.dimension()), energy(1),
        scalar(1), atomCount(s.atomCount()) {}

  double evaluate(const double* d_q, double* d_g) {
    rigid.energyGradientDevice(1, d_q, d_g, energy.data(), nullptr, nullptr);
    return atoms.lastEnergy(0);  // the rigid energy is the atomistic one
  }

  double metricRms(const double* d_q, const double* d_g) {
    rigid.metricSumsDevice(1, d_q, d_g, scalar.data(), nullptr, nullptr);
    double sum = 0.0;
    scalar.copyToHost(&sum, 1);  // synchronous: reports errors of every kernel before it
    return std::sqrt(sum / static_cast<double>(3 * atomCount));
  }

  PotentialBatchCuda atoms;
  BatchedRigidBodyCuda rigid;
  DeviceBuffer<double> q, g;  // staging for the host entry points
  DeviceBuffer<double> energy, scalar;
  std::size_t atomCount;
};

RigidBodyCuda::RigidBodyCuda(Potential& atomistic, RigidBodySystem system)
    : m_atomistic(atomistic), m_system(std::move(system)) {
  if (m_atomistic.dimension() != 3 * m_system.atomCount())
    throw std::invalid_argument("rigid bodies (cuda): the potential " + m_atomistic.name() +
                                " has " + std::to_string(m_atomistic.atomCount()) +
                                " atoms, the rigid-body system " +
                                std::to_string(m_system.atomCount()));
  m_device = std::make_unique<DeviceState>(m_atomistic, m_system);
}

RigidBodyCuda::~RigidBodyCuda() = default;

std::string RigidBodyCuda::name() const {
  return m_atomistic.name() + " with " + describeRigidBodies(m_system) + " (cuda)";
}

double RigidBodyCuda::energy(const double* q) {
  m_device->q.copyFromHost(q, dimension());
  return m_device->evaluate(m_device->q.data(), m_device->g.data());
}

double RigidBodyCuda::energyGradient(const double* q, double* g) {
  m_device->q.copyFromHost(q, dimension());
  const double e = m_device->evaluate(m_device->q.data(), m_device->g.data());
  m_device->g.copyToHost(g, dimension());
  return e;
}

std::vector<EnergyComponent> RigidBodyCuda::energyComponents(const double* q) {
  return m_atomistic.energyComponents(
      m_system.toAtoms(std::vector<double>(q, q + dimension())).data());
}

double RigidBodyCuda::energyGradientDevice(const double* d_q, double* d_g) {
  if (d_q == nullptr || d_g == nullptr)
    throw std::invalid_argument(name() + ": energyGradientDevice needs device arrays, got null");
  return m_device->evaluate(d_q, d_g);
}

double RigidBodyCuda::rmsGradient(const double* q, const double* g) {
  return m_system.rmsGradient(q, g);
}

double RigidBodyCuda::rmsGradientDevice(const double* d_q, const double* d_g) {
  if (d_q == nullptr || d_g == nullptr)
    throw std::invalid_argument(name() + ": rmsGradientDevice needs device arrays, got null");
  return m_device->metricRms(d_q, d_g);
}

void RigidBodyCuda::toAtomsDevice(const double* d_q, double* d_x) {
  m_device->rigid.toAtomsDevice(1, d_q, d_x, nullptr, nullptr);
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

}  // namespace landscape
