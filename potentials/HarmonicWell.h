#pragma once
// N independent particles in the isotropic harmonic well U = (k / 2) sum_i |r_i|^2 (Zhmurov,
// Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, section IV.A: "Each particle evolves on a
// harmonic potential U(R_i) = k_sp R_i^2 / 2"). Under overdamped Langevin dynamics every coordinate
// is an Ornstein-Uhlenbeck process, the exact test of the random forces. CPU reference; the CUDA
// twin is gpu/HarmonicWellCuda.
//
// Units are the caller's: k in energy / length^2 (e.g. pN/nm with energies in pN nm).
#include "potentials/Potential.h"

namespace landscape {

class HarmonicWell : public Potential {
 public:
  /// atoms >= 1 and a finite springConstant > 0 (std::invalid_argument otherwise).
  HarmonicWell(std::size_t atoms, double springConstant);

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  double springConstant() const { return m_springConstant; }
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;

 private:
  std::size_t m_atoms;
  double m_springConstant;
};

/// Shared argument checks of HarmonicWell and its CUDA twin.
void requireHarmonicWellArguments(std::size_t atoms, double springConstant);

}  // namespace landscape
