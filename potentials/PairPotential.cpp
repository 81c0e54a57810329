#include "potentials/PairPotential.h"

#include "landscape/core/InputChecks.h"

namespace landscape {

PairPotential::PairPotential(PairModel model) : m_model(std::move(model)) {
  m_model.check();
  requireMemory("a pair potential of " + std::to_string(m_model.atoms()) + " atoms",
                static_cast<double>(m_model.atoms()), 256.0);
  m_coefficients = m_model.coefficients();
  m_tableCoefficients = m_model.tableCoefficients();
}

std::string PairPotential::name() const { return m_model.describe() + " (cpu)"; }

PairSystemView PairPotential::view() const {
  PairSystemView v;
  v.law = m_model.law;
  v.speciesCount = m_model.speciesCount();
  v.pairs = m_coefficients.data();
  v.species = m_model.species.data();
  v.box = m_model.box;
  v.tableCoefficients = m_tableCoefficients.data();
  v.needsDistance = m_model.needsDistance();
  return v;
}

double PairPotential::energy(const double* x) {
  const PairSystemView s = view();
  const int n = static_cast<int>(m_model.atoms());
  double e = 0.0;
  double d[3];
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) e += pairTerm(s, s.pair(i, j), pairSeparation(s, x, i, j, d)).energy;
  return e;
}

double PairPotential::energyGradient(const double* x, double* g) {
  const PairSystemView s = view();
  const int n = static_cast<int>(m_model.atoms());
  for (std::size_t k = 0; k < dimension(); ++k) g[k] = 0.0;
  double e = 0.0;
  double d[3];
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const PairTerm t = pairTerm(s, s.pair(i, j), pairSeparation(s, x, i, j, d));
      e += t.energy;
      for (int c = 0; c < 3; ++c) {
        g[3 * i + c] += t.dEdrOverR * d[c];
        g[3 * j + c] -= t.dEdrOverR * d[c];
      }
    }
  }
  return e;
}

bool PairPotential::perAtomEnergies(const double* x, double* atomEnergies) {
  const PairSystemView s = view();
  const int n = static_cast<int>(m_model.atoms());
  for (int i = 0; i < n; ++i) atomEnergies[i] = 0.0;
  double d[3];
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const double v = pairTerm(s, s.pair(i, j), pairSeparation(s, x, i, j, d)).energy;
      atomEnergies[i] += v;
      atomEnergies[j] += v;
    }
  return true;
}

}  // namespace landscape
