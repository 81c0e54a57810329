#include "potentials/LennardJones.h"

#include <stdexcept>
#include <string>

#include "landscape/core/InputChecks.h"
#include "potentials/LennardJonesTerms.h"

namespace landscape {

LennardJones::LennardJones(std::size_t atoms) : m_atoms(atoms) {
  if (atoms < 2) throw std::invalid_argument("a Lennard-Jones cluster needs at least 2 atoms");
  requireMemory("a Lennard-Jones cluster of " + std::to_string(atoms) + " atoms",
                static_cast<double>(atoms), 256.0);
}

std::string LennardJones::name() const {
  return "Lennard-Jones " + std::to_string(m_atoms) + " atoms (cpu)";
}

double LennardJones::energy(const double* x) {
  double e = 0.0;
  for (std::size_t i = 0; i < m_atoms; ++i) {
    for (std::size_t j = i + 1; j < m_atoms; ++j) {
      const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
                   dz = x[3 * i + 2] - x[3 * j + 2];
      e += lennardJonesPair(dx * dx + dy * dy + dz * dz).energy;
    }
  }
  return e;
}

double LennardJones::energyGradient(const double* x, double* g) {
  for (std::size_t k = 0; k < dimension(); ++k) g[k] = 0.0;
  double e = 0.0;
  for (std::size_t i = 0; i < m_atoms; ++i) {
    for (std::size_t j = i + 1; j < m_atoms; ++j) {
      const double d[3] = {x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1],
                           x[3 * i + 2] - x[3 * j + 2]};
      const LennardJonesPairTerm t = lennardJonesPair(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      e += t.energy;
      for (int c = 0; c < 3; ++c) {
        g[3 * i + c] += t.dEdrOverR * d[c];
        g[3 * j + c] -= t.dEdrOverR * d[c];
      }
    }
  }
  return e;
}

bool LennardJones::perAtomEnergies(const double* x, double* atomEnergies) {
  for (std::size_t i = 0; i < m_atoms; ++i) atomEnergies[i] = 0.0;
  for (std::size_t i = 0; i < m_atoms; ++i) {
    for (std::size_t j = i + 1; j < m_atoms; ++j) {
      const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
                   dz = x[3 * i + 2] - x[3 * j + 2];
      const double v = lennardJonesPair(dx * dx + dy * dy + dz * dz).energy;
      atomEnergies[i] += v;
      atomEnergies[j] += v;
    }
  }
  return true;
}

}  // namespace landscape
