#include "potentials/PerStructureBatchedPotential.h"

#include <atomic>
#include <stdexcept>

namespace landscape {

namespace {

std::size_t commonDimension(const std::vector<Potential*>& potentials) {
  if (potentials.empty())
    throw std::invalid_argument("a per-structure batched potential needs at least one potential");
  for (const Potential* p : potentials)
    if (!p || p->dimension() != potentials.front()->dimension())
      throw std::invalid_argument(
          "a per-structure batched potential needs potentials of one system (same dimension)");
  return potentials.front()->dimension();
}

}  // namespace

PerStructureBatchedPotential::PerStructureBatchedPotential(std::vector<Potential*> potentials)
    : m_potentials(std::move(potentials)),
      m_dimension(commonDimension(m_potentials)),
      m_pool(static_cast<int>(m_potentials.size())) {}

std::string PerStructureBatchedPotential::name() const {
  return "batch of " + m_potentials.front()->name() + " (" + std::to_string(threads()) +
         (threads() == 1 ? " thread)" : " threads)");
}

void PerStructureBatchedPotential::energyGradient(std::size_t batch, const double* x, double* g,
                                                  double* energy, const std::uint8_t* active) {
  const std::size_t n = m_dimension;
  std::atomic<std::size_t> next{0};
  // Item t is thread slot t: it owns potential t and pulls structures until the batch is done.
  m_pool.forEach(m_potentials.size(), [&](std::size_t slot) {
    Potential& potential = *m_potentials[slot];
    for (std::size_t b = next++; b < batch; b = next++) {
      if (active && !active[b]) continue;
      energy[b] = potential.energyGradient(x + b * n, g + b * n);
    }
  });
}

}  // namespace landscape
