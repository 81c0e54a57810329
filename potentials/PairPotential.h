#pragma once
// A PairModel (potentials/PairModel.h) on the CPU: the reference every GPU twin is compared with.
// Every pair i < j once, in order, at its minimum-image separation; pairs beyond their cutoff add
// nothing. O(N^2): meant for clusters and boxes up to a few thousand atoms.
#include "potentials/PairModel.h"
#include "potentials/Potential.h"

namespace landscape {

class PairPotential : public Potential {
 public:
  /// Throws std::invalid_argument (PairModel::check) for a bad model and std::runtime_error when
  /// the atoms could not fit in memory.
  explicit PairPotential(PairModel model);

  std::size_t dimension() const override { return 3 * m_model.atoms(); }
  std::string name() const override;
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  bool perAtomEnergies(const double* x, double* atomEnergies) override;
  bool concurrentPerAtomEnergies() const override { return true; }

  const PairModel& model() const { return m_model; }

 private:
  PairSystemView view() const;

  PairModel m_model;
  std::vector<PairCoefficients> m_coefficients;
  std::vector<double> m_tableCoefficients;
};

}  // namespace landscape
