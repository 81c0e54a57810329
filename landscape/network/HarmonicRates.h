#pragma once
// Harmonic transition-state rates between minima as PATHSAMPLE defines them (docs/pathsample.md):
//
//   k(m -> n over ts) = o_m / (2 pi o_ts) * exp((F_m - F_ts) / 2) * exp(-(E_ts - E_m) / kT)
//   p_m  proportional to  exp(-E_m / kT - F_m / 2) / o_m
//
// with E the energies, F the log products of the positive Hessian eigenvalues (min.data/ts.data's
// second column; F/2 = ln of the product of the angular frequencies), o the point-group orders and
// kT the temperature in the energy unit. A transition state that links a minimum to itself is a
// degenerate rearrangement: PATHSAMPLE doubles its rate (ln 2), and the graph transformation leaves
// it out. The rates satisfy detailed balance, p_m k(m -> n) = p_n k(n -> m), exactly.
//
// Units: the rate unit is the inverse of the time unit the frequencies imply. Reduced units (LJ,
// unit masses): 1 / sqrt(m sigma^2 / epsilon). Molecules (kcal/mol, Angstrom, amu, log products of
// the mass-weighted Hessian): the frequency unit sqrt(kcal/mol / (amu Angstrom^2)) is
// kMolecularFrequencyPerSecond s^-1, and a temperature T in Kelvin is kT = kBoltzmannKcalPerMolK T;
// in kJ/mol (TIP4P water) the same with the kJ/mol constants (molecularKineticConstants).
#include <string>
#include <vector>

#include "landscape/network/RateGraph.h"
#include "landscape/network/StoredNetwork.h"

namespace landscape {

/// sqrt(kcal/mol / (amu Angstrom^2)) in s^-1 (CODATA 2018: 4184 J / N_A per amu Angstrom^2).
constexpr double kMolecularFrequencyPerSecond = 2.0454828280e13;
/// Boltzmann's constant in kcal/mol/K (R / 4184 J/kcal).
constexpr double kBoltzmannKcalPerMolK = 8.314462618 / 4184.0;
/// Boltzmann's constant in kJ/mol/K (R / 1000 J/kJ): TIP4P water's networks are in kJ/mol.
constexpr double kBoltzmannKjPerMolK = 8.314462618 / 1000.0;
/// sqrt(kJ/mol / (amu Angstrom^2)) in s^-1 (CODATA 2018: 1000 J / N_A per amu Angstrom^2, with
/// N_A amu = 0.99999999965e-3 kg/mol), kMolecularFrequencyPerSecond / sqrt(4.184).
constexpr double kKjMolecularFrequencyPerSecond = 1.0000000000e13;
/// Planck's constant in kcal/mol x s (CODATA 2018 h N_A / 4184 J/kcal): the value PATHSAMPLE's
/// PLANCK keyword needs with rates in s^-1 (its manual, "A Note on Units and Planck's Constant").
constexpr double kPlanckKcalPerMolSecond = 6.62607015e-34 * 6.02214076e23 / 4184.0;

/// Planck's constant in kJ/mol x s (CODATA 2018 h N_A / 1000 J/kJ).
constexpr double kPlanckKjPerMolSecond = 6.62607015e-34 * 6.02214076e23 / 1000.0;

/// The constants of molecular kinetics (temperatures in K, rates in s^-1, masses in amu, lengths
/// in Angstrom) in a network's energy unit: kcal/mol (AMBER, SOP, SSD water) or kJ/mol (TIP4P
/// water). A rate or a time does not depend on which: the energies, kT and the frequency unit
/// change together.
struct MolecularKineticConstants {
  std::string energyUnit;     ///< "kcal/mol" or "kJ/mol"
  double boltzmann;           ///< kT per K in the energy unit
  double frequencyPerSecond;  ///< sqrt(energy unit / (amu Angstrom^2)) in s^-1
  double planckSeconds;       ///< h N_A in the energy unit x s
};
/// Those of `energyUnit`; throws std::invalid_argument naming any unit but "kcal/mol" and
/// "kJ/mol".
MolecularKineticConstants molecularKineticConstants(const std::string& energyUnit);

/// ln k of one transition state from minimum `from` (the harmonic formula above).
double harmonicLogRate(double minimumEnergy, double minimumLogProduct, int minimumOrder,
                       double tsEnergy, double tsLogProduct, int tsOrder, double kT);

/// ln of the unnormalised equilibrium occupation of a minimum, -E/kT - F/2 - ln o.
double harmonicLogOccupation(double energy, double logProduct, int order, double kT);

/// The rate graph of `network` at temperature kT (> 0, energy unit): one node per minimum, two
/// edges per transition state (self-connections with PATHSAMPLE's ln 2). Throws
/// std::invalid_argument naming the first minimum or transition state whose log product is unknown
/// (NaN) or whose point-group order is unknown (0), or when kT is not positive and finite.
RateGraph harmonicRateGraph(const StoredTransitionNetwork& network, double kT);

}  // namespace landscape
