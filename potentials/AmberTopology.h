#pragma once
// AMBER parameter/topology file (prmtop, the %FLAG/%FORMAT layout of Amber 7 and later; format
// description: ambermd.org/prmtop.pdf). Units as in the file: lengths in Angstrom, energies in
// kcal/mol, angles in radians, masses in amu, charges in AMBER's internal unit (electron charge
// times 18.2223, so that q_i q_j / r is in kcal/mol with r in Angstrom).
//
// The parsed topology keeps everything in flat arrays indexed from 0 (atoms, residues, types), so
// that a CUDA twin can upload them as they are, and keeps what protein moves need: the bond list
// including hydrogens, residue pointers and labels, atom names, atomic numbers and the
// excluded-atom lists. Sections that older files lack get AMBER's defaults: no SCEE_SCALE_FACTOR /
// SCNB_SCALE_FACTOR means 1.2 / 2.0 for every dihedral type (sander's scee/scnb defaults); no
// ATOMIC_NUMBER means atomic numbers inferred from the masses; no RADIUS_SET means an empty
// radiusSet. RADII and SCREEN are optional here (AmberGb requires them).
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace landscape {

/// A bond between atoms i and j (0-based); type indexes bondForceConstants/bondEquilibria.
struct AmberBond {
  int i, j;
  int type;
  bool hasHydrogen;  ///< from BONDS_INC_HYDROGEN (true) or BONDS_WITHOUT_HYDROGEN (false)
};

/// An angle i-j-k (j the vertex, 0-based); type indexes angleForceConstants/angleEquilibria.
struct AmberAngle {
  int i, j, k;
  int type;
};

/// One Fourier term of a dihedral i-j-k-l (0-based). A torsion with several terms appears as
/// several entries with the same atoms. improper: the prmtop's fourth index was negative.
/// computes14: the prmtop's third and fourth indices were both non-negative, i.e. this entry
/// carries the 1-4 nonbonded pair (i, l) (LEaP marks repeated terms and ring duplicates with a
/// negative third index so that each 1-4 pair is counted once).
struct AmberDihedral {
  int i, j, k, l;
  int type;
  bool improper;
  bool computes14;
};

struct AmberTopology {
  std::string path;       ///< file it was read from (for messages)
  std::string title;      ///< %FLAG TITLE, trimmed
  std::string radiusSet;  ///< %FLAG RADIUS_SET, trimmed; empty when the file has none

  int atomCount = 0;          ///< NATOM
  int typeCount = 0;          ///< NTYPES (Lennard-Jones atom types)
  int residueCount = 0;       ///< NRES
  int boxType = 0;            ///< IFBOX (0: no box)
  std::vector<int> pointers;  ///< %FLAG POINTERS as read

  // ---- per atom (atomCount entries) ----
  std::vector<std::string> atomNames;  ///< ATOM_NAME, trailing blanks removed
  std::vector<std::string> atomTypes;  ///< AMBER_ATOM_TYPE, trailing blanks removed
  std::vector<double> charges;         ///< CHARGE, e x 18.2223
  std::vector<double> masses;          ///< MASS, amu
  std::vector<int> atomicNumbers;      ///< ATOMIC_NUMBER, or inferred from MASS (0: unknown)
  bool atomicNumbersFromFile = false;  ///< false when inferred from the masses
  std::vector<int> ljTypes;            ///< ATOM_TYPE_INDEX - 1, in [0, typeCount)
  std::vector<double> gbRadii;         ///< RADII (Angstrom); empty when absent
  std::vector<double> gbScreen;        ///< SCREEN (dimensionless); empty when absent
  std::vector<int> residueOfAtom;      ///< 0-based residue of each atom

  // ---- residues ----
  std::vector<std::string> residueLabels;  ///< RESIDUE_LABEL, trailing blanks removed
  /// RESIDUE_POINTER - 1, plus a final entry atomCount: residue r holds atoms
  /// [residueFirstAtom[r], residueFirstAtom[r + 1]).
  std::vector<int> residueFirstAtom;

  // ---- Lennard-Jones ----
  /// NONBONDED_PARM_INDEX (typeCount^2, row-major by 0-based types): > 0 is a 1-based index into
  /// ljACoefficients/ljBCoefficients, < 0 a 1-based index into the 10-12 hbond tables, 0 none.
  std::vector<int> nonbondedParmIndex;
  std::vector<double> ljACoefficients;     ///< LENNARD_JONES_ACOEF, kcal/mol A^12
  std::vector<double> ljBCoefficients;     ///< LENNARD_JONES_BCOEF, kcal/mol A^6
  std::vector<double> hbondACoefficients;  ///< HBOND_ACOEF, kcal/mol A^12 (10-12 term)
  std::vector<double> hbondBCoefficients;  ///< HBOND_BCOEF, kcal/mol A^10

  // ---- bonded parameter tables (one entry per type) ----
  std::vector<double> bondForceConstants;      ///< k in k (r - r0)^2, kcal/mol/A^2
  std::vector<double> bondEquilibria;          ///< r0, Angstrom
  std::vector<double> angleForceConstants;     ///< k in k (theta - theta0)^2, kcal/mol/rad^2
  std::vector<double> angleEquilibria;         ///< theta0, radians
  std::vector<double> dihedralForceConstants;  ///< k in k (1 + cos(n phi - phase)), kcal/mol
  std::vector<double> dihedralPeriodicities;   ///< n
  std::vector<double> dihedralPhases;          ///< phase, radians
  std::vector<double> sceeScaleFactors;        ///< 1-4 electrostatics divisor (default 1.2)
  std::vector<double> scnbScaleFactors;        ///< 1-4 Lennard-Jones divisor (default 2.0)
  bool scaleFactorsFromFile = false;           ///< false when the defaults were applied

  // ---- terms ----
  std::vector<AmberBond> bonds;  ///< with hydrogen first (hasHydrogen), then without
  std::vector<AmberAngle> angles;
  std::vector<AmberDihedral> dihedrals;

  // ---- exclusions (sander's NUMEX/NATEX) ----
  /// Atoms excluded from the nonbonded (LJ and Coulomb) sums, in compressed rows: the partners of
  /// atom i are excludedAtoms[excludedOffsets[i] .. excludedOffsets[i + 1]), 0-based. The prmtop
  /// lists each excluded pair once, under its lower-numbered atom; its placeholder 0 entries
  /// (an atom with nothing excluded) are dropped here.
  std::vector<int> excludedOffsets;
  std::vector<int> excludedAtoms;

  /// Lennard-Jones A and B coefficients of the type pair (0-based types); {0, 0} when
  /// NONBONDED_PARM_INDEX is 0 or negative (a 10-12 pair).
  std::array<double, 2> ljCoefficients(int typeI, int typeJ) const;

  /// Bonded neighbours of every atom (hydrogens included), each list sorted.
  std::vector<std::vector<int>> bondedNeighbours() const;

  bool isHydrogen(int atom) const { return atomicNumbers[static_cast<std::size_t>(atom)] == 1; }
};

/// Reads a prmtop. Throws std::runtime_error whose message names the file, the %FLAG section or
/// line, and what was expected: missing required sections, counts that disagree with POINTERS,
/// malformed numbers, out-of-range atom/type indices, a truncated file. Files this reader cannot
/// represent exactly are refused with a sentence saying why: pre-Amber 7 files without %FLAG
/// sections, CHAMBER (CHARMM) topologies, CMAP terms, 12-6-4 LJ (LENNARD_JONES_CCOEF), extra
/// points (NUMEXTRA > 0), and perturbation data (IFPERT > 0).
AmberTopology readAmberTopology(const std::string& path);

/// Atomic number of the element whose standard atomic mass is within 0.5 amu of mass, else 0.
int atomicNumberFromMass(double mass);

/// Element symbol ("C", "Fe"); "X" for unknown atomic numbers (0 or beyond the table).
std::string elementSymbol(int atomicNumber);

}  // namespace landscape
