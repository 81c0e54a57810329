#include "potentials/BatchedLennardJones.h"

namespace landscape {

BatchedLennardJones::BatchedLennardJones(std::size_t atoms, int threads)
    : m_single(atoms), m_pool(threads) {}

std::string BatchedLennardJones::name() const {
  return "batched Lennard-Jones " + std::to_string(m_single.atomCount()) + " atoms (cpu, " +
         std::to_string(m_pool.threads()) + (m_pool.threads() == 1 ? " thread)" : " threads)");
}

void BatchedLennardJones::energyGradient(std::size_t batch, const double* x, double* g,
                                         double* energy, const std::uint8_t* active) {
  const std::size_t n = dimension();
  m_pool.forEach(batch, [&](std::size_t b) {
    if (active && !active[b]) return;
    energy[b] = m_single.energyGradient(x + b * n, g + b * n);
  });
}

}  // namespace landscape
