// The checks on a minima database's or a transition network's contents before they are written
// (DatabaseValidation.h).
#include "landscape/network/DatabaseValidation.h"

#include <array>
#include <cmath>
#include <stdexcept>

#include "landscape/core/InputChecks.h"

namespace landscape::database {

void validateInput(const std::string& function, const std::string& path,
                   const DatabaseMetadata& metadata, const std::vector<StoredMinimum>& minima) {
  const std::string where = "MinimaDatabase::" + function + "('" + path + "'): ";
  if (metadata.atoms == 0) throw std::invalid_argument(where + "metadata.atoms must be > 0");
  if (metadata.energyUnit.empty()) {
    throw std::invalid_argument(where +
                                "metadata.energyUnit must name the energy unit "
                                "(e.g. \"reduced (epsilon)\" or \"kcal/mol\")");
  }
  if (metadata.lengthUnit.empty()) {
    throw std::invalid_argument(where +
                                "metadata.lengthUnit must name the length unit "
                                "(e.g. \"reduced (sigma)\" or \"Angstrom\")");
  }
  if (metadata.hessianMasses != kUnitMasses && metadata.hessianMasses != kAtomicMassesAmu) {
    throw std::invalid_argument(where + "metadata.hessianMasses must be \"" + kUnitMasses +
                                "\" or \"" + kAtomicMassesAmu + "\", got " +
                                quoteInput(metadata.hessianMasses));
  }
  for (std::size_t i = 0; i < minima.size(); ++i) {
    if (minima[i].coordinates.size() != 3 * metadata.atoms) {
      throw std::invalid_argument(
          where + "minimum " + std::to_string(i) + " has " +
          std::to_string(minima[i].coordinates.size()) + " coordinates, but metadata.atoms = " +
          std::to_string(metadata.atoms) + " needs " + std::to_string(3 * metadata.atoms));
    }
    // What read() refuses is not written either.
    bool finite = std::isfinite(minima[i].energy);
    for (double x : minima[i].coordinates) finite = finite && std::isfinite(x);
    if (!finite) {
      throw std::invalid_argument(where + "minimum " + std::to_string(i) +
                                  " has a non-finite energy or coordinate");
    }
  }
}

void validateNetwork(const std::string& path, const DatabaseMetadata& metadata,
                     const StoredTransitionNetwork& network) {
  std::vector<StoredMinimum> plain;  // the checks of the minima database
  validateInput("write", path, metadata, plain);
  const std::string where = "TransitionNetworkDatabase::write('" + path + "'): ";
  const std::size_t width = 3 * metadata.atoms;
  auto checkPoint = [&](const std::string& what, double energy,
                        const std::vector<double>& coordinates,
                        const StationaryPointProperties& properties) {
    bool finite = std::isfinite(energy);  // what read() refuses is not written either
    for (double x : coordinates) finite = finite && std::isfinite(x);
    if (!finite) {
      throw std::invalid_argument(where + what + " has a non-finite energy or coordinate");
    }
    if (coordinates.size() != width) {
      throw std::invalid_argument(
          where + what + " has " + std::to_string(coordinates.size()) +
          " coordinates, but metadata.atoms = " + std::to_string(metadata.atoms) + " needs " +
          std::to_string(width));
    }
    if (!properties.hessianEigenvalues.empty() && properties.hessianEigenvalues.size() != width) {
      throw std::invalid_argument(where + what + " has " +
                                  std::to_string(properties.hessianEigenvalues.size()) +
                                  " Hessian eigenvalues, expected 0 or " + std::to_string(width));
    }
    if (properties.pointGroupOrder < 0) {
      throw std::invalid_argument(where + what + " has a negative point-group order");
    }
  };
  for (std::size_t i = 0; i < network.minima.size(); ++i) {
    checkPoint("minimum " + std::to_string(i), network.minima[i].energy,
               network.minima[i].coordinates, network.minima[i].properties);
  }
  const int n = static_cast<int>(network.minima.size());
  for (const std::vector<int>* set : {&network.setA, &network.setB}) {
    for (int index : *set) {
      if (index < 0 || index >= n) {
        throw std::invalid_argument(where + "endpoint set " + (set == &network.setA ? "A" : "B") +
                                    " names minimum " + std::to_string(index) +
                                    ", but the network has " + std::to_string(n) +
                                    " minima (0-based)");
      }
    }
  }
  for (const auto* pairs : {&network.growth.triedPairs, &network.growth.pendingPairs}) {
    for (const std::array<int, 2>& pair : *pairs) {
      if (pair[0] < 0 || pair[0] >= n || pair[1] < 0 || pair[1] >= n) {
        throw std::invalid_argument(where + "growth pair (" + std::to_string(pair[0]) + ", " +
                                    std::to_string(pair[1]) + ") is outside the network's " +
                                    std::to_string(n) + " minima (0-based)");
      }
    }
  }
  for (std::size_t i = 0; i < network.transitionStates.size(); ++i) {
    const StoredTransitionState& ts = network.transitionStates[i];
    const std::string what = "transition state " + std::to_string(i);
    checkPoint(what, ts.energy, ts.coordinates, ts.properties);
    if (ts.plusMinimum < 0 || ts.plusMinimum >= n || ts.minusMinimum < 0 || ts.minusMinimum >= n) {
      throw std::invalid_argument(where + what + " connects minima " +
                                  std::to_string(ts.plusMinimum) + " and " +
                                  std::to_string(ts.minusMinimum) + ", but the network has " +
                                  std::to_string(n) + " minima (0-based)");
    }
  }
}

}  // namespace landscape::database
