#pragma once
// Interaction sites of rigid molecules: every molecule's sites, molecule-major, with per-site
// charges and Lennard-Jones coefficients; pairs of sites on one molecule are excluded (the molecule
// is rigid, its internal energy constant). Rigid TIP4P water (Jorgensen, Chandrasekhar, Madura,
// Impey and Klein, J. Chem. Phys. 79, 926 (1983)) is the first user: potentials/WaterCluster
// builds it, potentials/SitePotential evaluates it (CPU) and the pair law is
// potentials/SiteTerms.h. docs/water.md describes the model, units and GMIN's conventions.
// A molecule of one site is a point bead (an ion among the water molecules): the rigid layer
// leaves it a free atom, with no orientation.
#include <cstddef>
#include <string>
#include <vector>

namespace landscape {

struct SiteModel {
  /// Molecule index of each site (0 .. moleculeCount() - 1, non-decreasing: molecule-major);
  /// pairs within one molecule are excluded.
  std::vector<std::size_t> molecule;
  std::vector<double> charge;  ///< e
  /// Per-site Lennard-Jones coefficients (energy x length^6, energy x length^12); a pair uses
  /// sqrt(c6_i c6_j) and sqrt(c12_i c12_j) (SiteTerms.h); 0 = no Lennard-Jones on that site.
  std::vector<double> c6, c12;
  /// Coulomb constant k in energy x length / e^2 (TIP4P in kJ/mol and Angstrom: GMIN's
  /// 1389.354848).
  double coulomb = 0;
  std::string energyUnit, lengthUnit;  ///< e.g. "kJ/mol", "Angstrom"
  std::string name;                    ///< for logs, e.g. "TIP4P water x 8"

  std::size_t siteCount() const { return molecule.size(); }
  /// 1 + the last molecule index (0 without sites).
  std::size_t moleculeCount() const { return molecule.empty() ? 0 : molecule.back() + 1; }
  /// First site of each molecule and one past the last: moleculeCount() + 1 offsets (valid after
  /// check()).
  std::vector<std::size_t> moleculeStarts() const;

  /// Throws std::invalid_argument naming the bad field: no sites, fewer than 2 molecules, charge /
  /// c6 / c12 sizes that disagree with molecule, molecule indices that decrease or skip, a molecule
  /// of 2 sites (a rigid body needs 3 non-collinear points; a point bead has 1), negative or
  /// non-finite c6,
  /// c12 or charges, a negative or non-finite Coulomb constant, empty units.
  void check() const;
};

}  // namespace landscape
