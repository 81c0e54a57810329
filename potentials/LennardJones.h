#pragma once
// Lennard-Jones cluster, CPU reference: all pairs, no cutoff, reduced units
// (energy in epsilon, length in sigma).
#include "potentials/Potential.h"

namespace landscape {

class LennardJones : public Potential {
 public:
  /// Throws std::invalid_argument for fewer than 2 atoms, std::runtime_error (requireMemory,
  /// landscape/core/InputChecks.h) when a run on that many atoms could not fit in memory (`gmin --lj
  /// 1000000000`): about 256 bytes per atom for coordinates, gradients and L-BFGS history.
  explicit LennardJones(std::size_t atoms);

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  bool perAtomEnergies(const double* x, double* atomEnergies) override;
  bool concurrentPerAtomEnergies() const override { return true; }

 private:
  std::size_t m_atoms;
};

}  // namespace landscape
