#pragma once
// Interaction sites of rigid molecules, CPU reference: every pair of sites on different molecules
// interacts by SiteTerms.h (Lennard-Jones C12/r^12 - C6/r^6 plus Coulomb k q_i q_j / r, no cutoff);
// pairs on one molecule are excluded. The coordinates are the 3 x siteCount() site Cartesians
// (the model's length unit), so RigidBodyPotential wraps it to make each molecule one rigid body
// (potentials/WaterCluster for TIP4P: Jorgensen, Chandrasekhar, Madura, Impey and Klein, J. Chem.
// Phys. 79, 926 (1983)). Energies in the model's energy unit (kJ/mol for TIP4P).
#include "potentials/Potential.h"
#include "potentials/SiteModel.h"

namespace landscape {

class SitePotential : public Potential {
 public:
  /// Checks the model (SiteModel::check throws std::invalid_argument naming the bad field).
  explicit SitePotential(SiteModel model);

  const SiteModel& model() const { return m_model; }
  std::size_t dimension() const override { return 3 * m_model.siteCount(); }
  /// "<model name>: N sites of M rigid molecules, kJ/mol (cpu)".
  std::string name() const override;
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// "LJ" (the C6/C12 terms) and "COULOMB".
  std::vector<EnergyComponent> energyComponents(const double* x) override;

 private:
  SiteModel m_model;
};

}  // namespace landscape
