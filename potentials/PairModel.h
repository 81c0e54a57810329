#pragma once
// A system of atoms interacting by one pair law with per-species parameters, an optional cutoff
// with a named convention and an optional orthorhombic periodic box: binary Lennard-Jones clusters
// (GMIN's BLJCLUSTER and BINARY), the Kob-Andersen 80:20 mixture (Kob and Andersen, Phys. Rev. E
// 51, 4626 (1995)), Morse clusters (GMIN's MORSE rho), and tabulated pairs. This header describes;
// potentials/PairPotential evaluates (CPU) and gpu/PairPotentialCuda, gpu/BatchedPairPotentialCuda
// on the GPU.
//
// Units: reduced (epsilon and sigma of the first species pair, or r0 for Morse) unless the model
// is built from a table in other units; every length (sigma, r0, cutoffs, box) in one unit.
#include <cstddef>
#include <string>
#include <vector>

#include "potentials/PairTable.h"
#include "potentials/PairTerms.h"
#include "potentials/PeriodicBox.h"

namespace landscape {

/// Cutoff conventions (PairTerms.h gives their formulas).
enum class PairCutoff {
  None,               ///< every pair, no cutoff (clusters only)
  Truncated,          ///< V(r) below rc, 0 beyond: the energy jumps at rc
  Shifted,            ///< truncated and shifted: V(r) - V(rc) (LAMMPS pair_modify shift yes)
  ForceShifted,       ///< V(r) - V(rc) - (r - rc) V'(rc): V and V' continuous
  QuadraticSmoothed,  ///< V(r) + A0 + A2 r^2 with V, V' zero at rc (GMIN BLJCLUSTER, pele BLJCut)
};

/// "none", "truncated", "shifted", "force-shifted", "quadratic-smoothed".
std::string pairCutoffName(PairCutoff cutoff);
/// The inverse; throws std::invalid_argument listing the names.
PairCutoff parsePairCutoff(const std::string& name);
/// "lennard-jones", "morse", "tabulated".
std::string pairLawName(PairLaw law);
PairLaw parsePairLaw(const std::string& name);

/// One species pair.
struct PairParameters {
  double epsilon = 1.0;  ///< well depth (Lennard-Jones, Morse)
  double sigma = 1.0;    ///< Lennard-Jones sigma; Morse r0, the pair's equilibrium distance
  double rho = 6.0;      ///< Morse range (dimensionless, GMIN's RHO: e^{rho (1 - r / r0)})
  double cutoff = 0.0;   ///< cutoff distance rc (length, absolute); 0 with PairCutoff::None
  int table = -1;        ///< Tabulated: index into PairModel::tables
};

struct PairModel {
  PairLaw law = PairLaw::LennardJones;
  PairCutoff cutoff = PairCutoff::None;
  std::vector<int> species;               ///< per atom, 0 .. speciesCount() - 1
  std::vector<std::string> speciesNames;  ///< one per species ("A", "B", ...)
  std::vector<PairParameters> pairs;      ///< speciesCount()^2, row-major, symmetric
  PeriodicBox box;                        ///< open (the default) or periodic axes
  std::vector<PairTable> tables;          ///< Tabulated: the tables pairs[].table index

  std::size_t atoms() const { return species.size(); }
  int speciesCount() const { return static_cast<int>(speciesNames.size()); }
  const PairParameters& pair(int a, int b) const { return pairs[a * speciesCount() + b]; }
  /// Sets the pair (a, b) and its mirror (b, a).
  void setPair(int a, int b, const PairParameters& p);

  /// Throws std::invalid_argument naming the first problem: fewer than 2 atoms, a species out of
  /// range, asymmetric or non-positive parameters, a cutoff missing (or given with None), a
  /// periodic box without a cutoff, a cutoff above half a periodic edge (the minimum image would
  /// miss pairs), a table index out of range or a table ending before the cutoff.
  void check() const;
  /// One line for logs: "binary Lennard-Jones 80 A + 20 B, shifted at 2.5 sigma_ab, box 4.7 x
  /// 4.7 x 4.7".
  std::string describe() const;

  /// The per-pair constants of PairTerms.h (speciesCount()^2) and the tables' coefficients
  /// concatenated in the order PairCoefficients::tableOffset refers to.
  std::vector<PairCoefficients> coefficients() const;
  std::vector<double> tableCoefficients() const;
  /// Whether a pair term needs r (Morse, tables, the force-shifted correction), not only r^2.
  bool needsDistance() const;
};

/// N atoms of one species (Lennard-Jones, epsilon = sigma = 1, no cutoff, open).
PairModel lennardJonesModel(std::size_t atoms);
/// GMIN's binary Lennard-Jones (keywords BLJCLUSTER and BINARY): the first typeA atoms are A
/// (epsilon = sigma = 1), the rest B; cutoffInSigma > 0 cuts each pair at cutoffInSigma sigma_ab
/// with `convention`, 0 leaves every pair uncut (BINARY).
PairModel binaryLennardJonesModel(std::size_t atoms, std::size_t typeA, double epsilonAB,
                                  double epsilonBB, double sigmaAB, double sigmaBB,
                                  double cutoffInSigma, PairCutoff convention);
/// The Kob-Andersen 80:20 mixture: the first round(0.8 N) atoms A, epsilon_AB = 1.5, sigma_AB =
/// 0.8, epsilon_BB = 0.5, sigma_BB = 0.88 (Kob and Andersen 1995), cut at cutoffInSigma sigma_ab.
PairModel kobAndersenModel(std::size_t atoms, double cutoffInSigma, PairCutoff convention,
                           const PeriodicBox& box);
/// A Morse cluster in GMIN's units (epsilon = r0 = 1, range rho), no cutoff unless given.
PairModel morseModel(std::size_t atoms, double rho);

}  // namespace landscape
