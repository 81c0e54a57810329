#include "potentials/BatchedRigidBodyPotential.h"

#include <stdexcept>
#include <utility>

#include "potentials/RigidBodyPotential.h"

namespace landscape {

BatchedRigidBodyPotential::BatchedRigidBodyPotential(BatchedPotential& atomistic,
                                                     RigidBodySystem system, int threads)
    : m_atomistic(atomistic), m_system(std::move(system)), m_pool(threads) {
  if (m_atomistic.dimension() != 3 * m_system.atomCount())
    throw std::invalid_argument("batched rigid bodies: the potential " + m_atomistic.name() +
                                " has " + std::to_string(m_atomistic.dimension() / 3) +
                                " atoms, the rigid-body system " +
                                std::to_string(m_system.atomCount()));
}

std::string BatchedRigidBodyPotential::name() const {
  return m_atomistic.name() + " with " + describeRigidBodies(m_system) + " (cpu, " +
         std::to_string(m_pool.threads()) + (m_pool.threads() == 1 ? " thread)" : " threads)");
}

void BatchedRigidBodyPotential::energyGradient(std::size_t batch, const double* q, double* g,
                                               double* energy, const std::uint8_t* active) {
  if (batch == 0) return;
  if (q == nullptr || g == nullptr || energy == nullptr)
    throw std::invalid_argument("batched rigid bodies: null array for a batch of " +
                                std::to_string(batch));
  const std::size_t n = dimension(), atomsN = 3 * m_system.atomCount();
  if (m_x.size() < batch * atomsN) {
    m_x.assign(batch * atomsN, 0.0);  // rows of inactive structures stay defined
    m_g.assign(batch * atomsN, 0.0);
  }
  m_pool.forEach(batch, [&](std::size_t b) {
    if (active && !active[b]) return;
    m_system.toAtoms(q + b * n, m_x.data() + b * atomsN);
  });
  m_atomistic.energyGradient(batch, m_x.data(), m_g.data(), energy, active);
  m_pool.forEach(batch, [&](std::size_t b) {
    if (active && !active[b]) return;
    m_system.projectGradient(q + b * n, m_g.data() + b * atomsN, g + b * n);
  });
}

void BatchedRigidBodyPotential::rmsGradients(std::size_t batch, const double* q, const double* g,
                                             double* rms, const std::uint8_t* active) {
  if (batch == 0) return;
  if (q == nullptr || g == nullptr || rms == nullptr)
    throw std::invalid_argument("batched rigid bodies: null array for the RMS gradients of " +
                                std::to_string(batch) + " structures");
  const std::size_t n = dimension();
  m_pool.forEach(batch, [&](std::size_t b) {
    if (active && !active[b]) return;
    rms[b] = m_system.rmsGradient(q + b * n, g + b * n);
  });
}

}  // namespace landscape
