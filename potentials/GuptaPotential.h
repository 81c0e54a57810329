#pragma once
// The Gupta (second-moment tight-binding, RGL) many-body potential of a metal cluster, CPU
// reference: every pair, no cutoff, double precision (physics in potentials/GuptaTerms.h; Gupta,
// Phys. Rev. B 23, 6265 (1981); Cleri and Rosato, Phys. Rev. B 48, 22 (1993)).
//   E = sum_i [ A sum_{j != i} e^{p (1 - r_ij / r0)} - xi sqrt( sum_{j != i} e^{2 q (1 - r_ij /
//   r0)} ) ]
// Units: energies in those of A and xi (eV for the named metals), lengths in those of r0. The
// named metals use r0 = 1 as GMIN does: lengths in units of the bulk nearest-neighbour distance.
// The CUDA twin is gpu/BatchedGuptaCuda (its batch of one: gpu/GuptaCuda).
#include <cstddef>
#include <string>
#include <vector>

#include "potentials/GuptaTerms.h"
#include "potentials/Potential.h"

namespace landscape {

struct GuptaParams {
  double p = 10.612;  ///< repulsive range p (dimensionless, > 0)
  double q = 4.004;   ///< band range q (dimensionless, > 0); the density decays as e^{-2q r/r0}
  double a = 0.2975;  ///< repulsion energy A (energy, >= 0)
  double xi = 2.695;  ///< band energy xi (energy, >= 0)
  double r0 = 1.0;    ///< length unit of the exponents, the bulk nearest-neighbour distance (> 0)
  /// The defaults are platinum's (Cleri and Rosato), in reduced lengths (r0 = 1).

  /// Throws std::invalid_argument naming the first bad field (finite values, p, q, r0 > 0, A and
  /// xi >= 0).
  void check() const;
  /// "p 10.612, q 4.004, A 0.2975, xi 2.695, r0 1" for logs.
  std::string describe() const;
};

/// The constants of the loops (potentials/GuptaTerms.h).
GuptaConstants guptaConstants(const GuptaParams& params);

/// Fcc metals of Cleri and Rosato's parameter table (Phys. Rev. B 48, 22 (1993)), each number
/// confirmed in two transcriptions (docs/gupta.md lists them); A and xi in eV, r0 = 1.
enum class GuptaMetal : int { Nickel = 0, Copper = 1, Palladium = 2, Platinum = 3, Gold = 4 };

/// The metals above, in enum order.
const std::vector<GuptaMetal>& guptaMetals();
/// "Ni", "Cu", "Pd", "Pt", "Au".
std::string guptaMetalName(GuptaMetal metal);
/// The symbol in any case ("pt", "Pt"); throws std::invalid_argument listing the known ones.
GuptaMetal parseGuptaMetal(const std::string& symbol);
/// The metal's parameters, r0 = 1.
GuptaParams guptaMetalParams(GuptaMetal metal);
/// GMIN's and OPTIM's GUPTA keyword numbers the table's rows: 1 Ni, 2 Cu, 3 Rh, 4 Pd, 5 Ag, 6 Ir,
/// 7 Pt, 8 Au, 9 Al, 10 Pb, then hcp and others (GMIN's Gupta.f). The metal of `type`; false when
/// `type` names a metal not provided here.
bool guptaMetalOfGminType(long long type, GuptaMetal& metal);
/// The GMIN type numbers guptaMetalOfGminType accepts, ascending (1, 2, 4, 7, 8).
std::vector<long long> guptaGminTypes();

class GuptaPotential : public Potential {
 public:
  /// Throws std::invalid_argument for fewer than 2 atoms or bad parameters (GuptaParams::check),
  /// std::runtime_error when the atoms could not fit in memory.
  GuptaPotential(std::size_t atoms, const GuptaParams& params);

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// REPULSION (A sum of the pair exponentials) and BAND (-xi sum sqrt(rho_i)), Cleri and Rosato's
  /// E_R and E_B.
  std::vector<EnergyComponent> energyComponents(const double* x) override;
  /// Twice atom i's term of the sum above (its repulsions and its own band energy), so that the
  /// atoms' values sum to 2E as a pair potential's sums over partners do (Potential's contract;
  /// GMIN's VAT ranks atoms by it for the angular move).
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  const GuptaParams& params() const { return m_params; }

 private:
  /// The per-atom sums over j != i into m_repulsion and m_density.
  void atomSums(const double* x);

  std::size_t m_atoms;
  GuptaParams m_params;
  GuptaConstants m_constants;
  std::vector<double> m_repulsion, m_density;
};

}  // namespace landscape
