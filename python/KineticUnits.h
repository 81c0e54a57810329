#pragma once
// What the kinetics bindings (BindKinetics.cpp) and network growth (BindPaths.cpp) share: the
// temperature's units as pathsample's --units reads them, and the check that every stationary
// point carries what harmonic rates need.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/network/Database.h"
#include "landscape/network/HarmonicRates.h"
#include "landscape/network/StoredNetwork.h"
#include "python/Arrays.h"

namespace landscape::python {

/// pathsample's --units: reduced (kT in the energy unit, rates in reduced time^-1) or molecular
/// (T in K, rates in s^-1 from the mass-weighted frequencies in sqrt(energy unit / (amu
/// Angstrom^2)), the network's energy unit kcal/mol or kJ/mol: MolecularKineticConstants).
/// 'auto': molecular when the network's Hessians are mass-weighted in amu (hessian_masses, as
/// optim writes AMBER and water networks).
struct KineticUnits {
  bool molecular = false;
  MolecularKineticConstants constants = molecularKineticConstants("kcal/mol");
  double kT(double temperature) const {
    return molecular ? constants.boltzmann * temperature : temperature;
  }
  double rateFactor() const { return molecular ? constants.frequencyPerSecond : 1.0; }
  std::string name() const { return molecular ? "molecular" : "reduced"; }
  std::string rateUnit() const { return molecular ? "s^-1" : "reduced time^-1"; }
  std::string timeUnit() const { return molecular ? "s" : "reduced time"; }
  std::string temperatureUnit() const { return molecular ? "K" : "energy unit (kT)"; }
  /// Planck's constant in the energy unit x the rate graph's time unit; NaN: the default
  /// (h N_A in the energy unit x s for molecular units, 0 = no kT ln(kT/h) term for reduced).
  double planck(double given) const {
    if (std::isnan(given)) return molecular ? constants.planckSeconds * rateFactor() : 0.0;
    return molecular ? given * rateFactor() : given;
  }
};

/// A network without an energy unit (a dict built by hand) is taken as kcal/mol's when molecular;
/// one in kJ/mol (TIP4P water) gets kJ/mol's constants; reduced units refuse kJ/mol, whose rates
/// they would report in the wrong unit.
inline KineticUnits unitsOf(const std::string& units, const DatabaseMetadata& metadata,
                            const std::string& what) {
  KineticUnits u;
  if (units == "auto") {
    u.molecular = metadata.hessianMasses == kAtomicMassesAmu;
  } else if (units == "molecular" || units == "reduced") {
    u.molecular = units == "molecular";
  } else {
    throw std::invalid_argument(what + ": units must be 'reduced', 'molecular' or 'auto', got '" +
                                units + "'");
  }
  const std::string& unit = metadata.energyUnit;
  if (u.molecular && (unit == "kcal/mol" || unit == "kJ/mol"))
    u.constants = molecularKineticConstants(unit);
  if (!u.molecular && unit == "kJ/mol")
    throw std::invalid_argument(what +
                                ": the network's energies are in kJ/mol; its kinetics "
                                "need units='molecular' (temperatures in K, rates in s^-1)");
  return u;
}

inline void requireTemperature(double t, const KineticUnits& u, const std::string& what) {
  if (!(t > 0.0) || !std::isfinite(t))
    throw std::invalid_argument(what + ": the temperature must be positive and finite (" +
                                u.temperatureUnit() + "), got " + numberText(t));
}

/// Every point needs its log product and point-group order (the harmonic rates).
template <typename Point>
void requireCharacterised(const std::vector<Point>& points, const char* kind,
                          const std::string& what) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    const StationaryPointProperties& p = points[i].properties;
    if (std::isnan(p.logProductOfPositiveEigenvalues) || p.pointGroupOrder <= 0)
      throw std::invalid_argument(
          what + ": " + kind + " " + std::to_string(i) + " (0-based) has no " +
          (std::isnan(p.logProductOfPositiveEigenvalues) ? "log product of Hessian eigenvalues"
                                                         : "point-group order") +
          "; harmonic rates need both for every minimum and transition state (connect(..., "
          "characterise=True), a network from optim, or min.data/ts.data)");
  }
}

}  // namespace landscape::python
