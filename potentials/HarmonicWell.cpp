#include "potentials/HarmonicWell.h"

#include <cmath>
#include <stdexcept>

#include "potentials/HarmonicWellTerms.h"

namespace landscape {

void requireHarmonicWellArguments(std::size_t atoms, double springConstant) {
  if (atoms < 1) throw std::invalid_argument("a harmonic well needs at least 1 atom");
  if (!std::isfinite(springConstant) || springConstant <= 0.0)
    throw std::invalid_argument("harmonic well: the spring constant must be finite and > 0");
}

HarmonicWell::HarmonicWell(std::size_t atoms, double springConstant)
    : m_atoms(atoms), m_springConstant(springConstant) {
  requireHarmonicWellArguments(atoms, springConstant);
}

std::string HarmonicWell::name() const {
  return "harmonic well " + std::to_string(m_atoms) + " atoms (cpu)";
}

double HarmonicWell::energy(const double* x) {
  double e = 0.0;
  for (std::size_t k = 0; k < dimension(); ++k)
    e += harmonicWellTerm(x[k], m_springConstant).energy;
  return e;
}

double HarmonicWell::energyGradient(const double* x, double* g) {
  double e = 0.0;
  for (std::size_t k = 0; k < dimension(); ++k) {
    const HarmonicWellTerm t = harmonicWellTerm(x[k], m_springConstant);
    e += t.energy;
    g[k] = t.gradient;
  }
  return e;
}

}  // namespace landscape
