#pragma once
// AMBER force field with generalized Born implicit solvent, CPU reference (double precision,
// simple loops, always built: docs/architecture.md, "CPU first, GPU equal"). The energy is sander's
// for imin = 1, ntb = 0, igb = 1, 2 or 5 and any cut (AmberGbParams::cut; infinity by default):
//   BOND + ANGLE + DIHED (proper and improper torsions, several Fourier terms each)
//   + VDWAALS + EELEC (Lennard-Jones 12-6 with the prmtop's A/B coefficients and Coulomb over all
//     pairs not in the prmtop's exclusion list within cut)
//   + 1-4_VDW + 1-4_EEL (end atoms of proper torsions, divided by the prmtop's SCNB/SCEE)
//   + EGB (generalized Born over all atoms and the pairs within cut, Born radii from the HCT integral with
//     AMBER's rgbmax smooth cutoff, HCT or OBC rescaling, salt screening).
// Units: kcal/mol, Angstrom; gradients in kcal/mol/A. The model, its branches and the measured
// agreement with sander/OpenMM references are in docs/amber-gb.md.
#include <limits>
#include <string>
#include <vector>

#include "potentials/AmberGbTerms.h"
#include "potentials/AmberTopology.h"
#include "potentials/Potential.h"

namespace landscape {

struct AmberGbParams {
  /// GB model (sander's igb): 1 = HCT (Hawkins, Cramer, Truhlar 1996); 2 = OBC I (alpha, beta,
  /// gamma = 0.8, 0, 2.909125); 5 = OBC II (1.0, 0.8, 4.85) (Onufriev, Bashford, Case 2004).
  int igb = 2;
  /// Salt concentration, mol/L (sander's saltcon): kappa = 0.73 sqrt(0.10806 saltcon) 1/A.
  double saltcon = 0.2;
  /// Cutoff of the Born-radius integration, Angstrom (sander's rgbmax). sander's rule applies:
  /// rgbmax >= 5 x the largest screened radius S_j (R_j - 0.09) of the topology (about 8.2 A
  /// for proteins), checked by the AmberGb constructor.
  double rgbmax = 12.0;
  /// Non-bonded cutoff, Angstrom (sander's cut with igb > 0): a pair farther apart than cut has
  /// no EELEC, VDWAALS or GB off-diagonal term (plain truncation, no shift: msander
  /// src/msander/egb.F90, subroutine egb, Step 2 keeps the pairs with r^2 <= cut, cut having been
  /// squared in mdread.F90); the Born radii (egb_calc_radii: rgbmax alone), the GB self terms
  /// (egb, Step 3) and the 1-4 terms (ephi) are not cut. Infinity (the default, sander's 9999):
  /// every pair.
  double cut = std::numeric_limits<double>::infinity();
  double dielectricInterior = 1.0;   ///< solute dielectric eps_in (sander's intdiel)
  double dielectricExterior = 78.5;  ///< solvent dielectric eps_out (sander's extdiel)

  /// Debye-Hueckel parameter used in the GB terms, 1/A: 0.73 sqrt(0.10806 saltcon) (sander; the
  /// 0.73 is the empirical factor of Srinivasan, Trevathan, Beroza, Case 1999).
  double kappa() const;

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

/// Flat per-system arrays (0-based atoms) that the CPU loops iterate over and that a CUDA twin can
/// upload as they are. Built from a topology and parameters by buildAmberGbTables().
struct AmberGbTables {
  std::vector<AmberBondTerm> bonds;
  std::vector<AmberAngleTerm> angles;
  std::vector<AmberDihedralTerm> dihedrals;  ///< propers and impropers, one entry per term
  std::vector<AmberPair14Term> pairs14;
  std::vector<double> charges;  ///< e x 18.2223 (prmtop units)
  std::vector<int> ljTypes;     ///< per atom, in [0, ljTypeCount)
  int ljTypeCount = 0;
  std::vector<double> ljA;         ///< ljTypeCount^2, row-major, kcal/mol A^12
  std::vector<double> ljB;         ///< ljTypeCount^2, row-major, kcal/mol A^6
  std::vector<double> gbRadius;    ///< intrinsic radius R (RADII), A
  std::vector<double> gbRho;       ///< R - offset, A
  std::vector<double> gbScreened;  ///< SCREEN x (R - offset), A
  double gbScreenedMax = 0.0;      ///< largest gbScreened entry, A
  /// Nonbonded exclusions as sander applies them: pair (i, j), i < j, is excluded when j is in
  /// row i: exclusions[exclusionOffsets[i] .. exclusionOffsets[i + 1]), sorted.
  std::vector<int> exclusionOffsets;
  std::vector<int> exclusions;
  AmberGbModel model{};
};

/// Throws std::invalid_argument when params.check() fails, when the topology has no RADII/SCREEN,
/// when rgbmax is below sander's 5 x largest screened radius, when a 1-4 pair has a non-positive
/// SCEE/SCNB, or when a Lennard-Jones type pair uses a non-zero 10-12 hbond term (AMBER's GB code
/// skips those unless built with HAS_10_12; they are refused rather than silently dropped).
AmberGbTables buildAmberGbTables(const AmberTopology& topology, const AmberGbParams& params);

/// One component of the energy, by sander's name.
struct AmberEnergyBreakdown {
  double bond = 0.0, angle = 0.0, dihedral = 0.0, vdw = 0.0, eel = 0.0, vdw14 = 0.0, eel14 = 0.0,
         egb = 0.0;
  double total() const { return bond + angle + dihedral + vdw + eel + vdw14 + eel14 + egb; }
};

class AmberGb : public Potential {
 public:
  /// Throws std::invalid_argument as buildAmberGbTables() does.
  AmberGb(const AmberTopology& topology, const AmberGbParams& params = {});

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, 1-4_EEL, EGB (kcal/mol), in this order; they
  /// sum to energy(x) exactly (same additions in the same order).
  std::vector<EnergyComponent> energyComponents(const double* x) override;
  /// Each term's energy shared among its atoms so that the shares sum to twice the energy: a pair
  /// term (LJ, Coulomb, 1-4, GB pair) gives its energy to both atoms, a GB self term twice its
  /// energy to its atom, a bond/angle/torsion 2/2, 2/3 or 2/4 of its energy to each atom.
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  /// The components at x; total() equals energy(x).
  AmberEnergyBreakdown breakdown(const double* x);
  /// Per component, the sum of the absolute values of its terms at x (kcal/mol): the scale that
  /// tolerances on a component are relative to (EELEC and EGB cancel heavily).
  AmberEnergyBreakdown absoluteSums(const double* x);
  /// Effective Born radii at x (Angstrom), as used by the GB terms.
  std::vector<double> bornRadii(const double* x);

  const AmberTopology& topology() const { return m_topology; }
  const AmberGbParams& params() const { return m_params; }
  const AmberGbTables& tables() const { return m_tables; }

 private:
  /// The one evaluation routine: energies always; the gradient when g != nullptr; per-atom shares
  /// when atomEnergies != nullptr; per-component sums of |term| when magnitudes != nullptr.
  AmberEnergyBreakdown evaluate(const double* x, double* g, double* atomEnergies,
                                AmberEnergyBreakdown* magnitudes);

  AmberTopology m_topology;
  AmberGbParams m_params;
  AmberGbTables m_tables;
  std::size_t m_atoms;
  // Scratch, sized once (energy() is not const, as in every Potential).
  std::vector<double> m_sum, m_born, m_dBornDSum, m_dEdBorn;
  std::vector<int> m_excludedMark;
};

/// The single-point report of `gmin --energy-only`: one "NAME value" line per sander component
/// (BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, 1-4_EEL, EGB), then TOTAL, all in kcal/mol, then
/// RMS_GRADIENT = sqrt(|g|^2 / (3N)) in kcal/mol/A; values printed with 6 decimals ("%.6f").
/// Each line ends in '\n'. x has potential.dimension() entries (Angstrom). potential is an AMBER-GB
/// potential on any backend (its energyComponents() are the eight sander components).
std::string amberSinglePointReport(Potential& potential, const std::vector<double>& x);

}  // namespace landscape
