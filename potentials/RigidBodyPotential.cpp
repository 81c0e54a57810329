#include "potentials/RigidBodyPotential.h"

#include <stdexcept>
#include <utility>

namespace landscape {

std::string describeRigidBodies(const RigidBodySystem& system) {
  return std::to_string(system.bodyCount()) + " rigid bodies (largest " +
         std::to_string(system.largestBody()) + " atoms), " +
         std::to_string(system.freeAtomCount()) + " free atoms";
}

RigidBodyPotential::RigidBodyPotential(Potential& atomistic, RigidBodySystem system)
    : m_atomistic(atomistic), m_system(std::move(system)) {
  if (m_atomistic.dimension() != 3 * m_system.atomCount())
    throw std::invalid_argument("rigid bodies: the potential " + m_atomistic.name() + " has " +
                                std::to_string(m_atomistic.atomCount()) +
                                " atoms, the rigid-body system " +
                                std::to_string(m_system.atomCount()));
  m_x.resize(m_atomistic.dimension());
  m_g.resize(m_atomistic.dimension());
}

std::string RigidBodyPotential::name() const {
  return m_atomistic.name() + " with " + describeRigidBodies(m_system);
}

double RigidBodyPotential::energy(const double* q) {
  m_system.toAtoms(q, m_x.data());
  return m_atomistic.energy(m_x.data());
}

double RigidBodyPotential::energyGradient(const double* q, double* g) {
  m_system.toAtoms(q, m_x.data());
  const double e = m_atomistic.energyGradient(m_x.data(), m_g.data());
  m_system.projectGradient(q, m_g.data(), g);
  return e;
}

std::vector<EnergyComponent> RigidBodyPotential::energyComponents(const double* q) {
  m_system.toAtoms(q, m_x.data());
  return m_atomistic.energyComponents(m_x.data());
}

double RigidBodyPotential::rmsGradient(const double* q, const double* g) {
  return m_system.rmsGradient(q, g);
}

}  // namespace landscape
