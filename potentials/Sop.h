#pragma once
// The SOP coarse-grained protein model (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B
// 2011, Appendix B, eq B1), CPU reference in double precision: FENE bonds and native contacts from
// the stored lists, the cut and shifted repulsion of every other pair found with a cell list (or
// all pairs, for tests). Units: kcal/mol, Angstrom.
#include <cstddef>
#include <utility>
#include <vector>

#include "potentials/Potential.h"
#include "potentials/SopTopology.h"

namespace landscape {

class Sop : public Potential {
 public:
  /// topology.params.check() must pass (std::invalid_argument otherwise).
  explicit Sop(SopTopology topology);

  std::size_t dimension() const override { return 3 * m_topology.beadCount(); }
  std::string name() const override;
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// FENE, NATIVE, REPULSIVE (kcal/mol).
  std::vector<EnergyComponent> energyComponents(const double* x) override;
  /// Each bead's FENE, native and repulsive terms summed over its partners (sums to 2E).
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  const SopTopology& topology() const { return m_topology; }
  /// True for a bonded or native pair (no repulsion between them).
  bool excluded(int i, int j) const;
  /// The pairs (i < j) that feel the repulsion and are closer than `cutoff` (A) at x, in order of
  /// i then j; by a cell list, or by the all-pairs double loop when allPairs is set.
  std::vector<std::pair<int, int>> repulsivePairs(const double* x, double cutoff,
                                                  bool allPairs = false) const;
  /// Use the all-pairs loop instead of the cell list for the repulsion (tests).
  void setAllPairs(bool allPairs) { m_allPairs = allPairs; }

 private:
  double evaluate(const double* x, double* g, double components[3], double* atomEnergies = nullptr);

  SopTopology m_topology;
  std::vector<std::vector<int>> m_excluded;  // per bead, sorted partners without repulsion
  bool m_allPairs = false;
};

}  // namespace landscape
