#include "landscape/network/HarmonicRates.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

namespace {

constexpr double kPi = 3.14159265358979323846;

void requireKnown(const StationaryPointProperties& p, const std::string& what) {
  if (std::isnan(p.logProductOfPositiveEigenvalues)) {
    throw std::invalid_argument(what +
                                " has no log product of Hessian eigenvalues (unknown); rates need "
                                "it (import min.data/ts.data with frequencies, or run optim with "
                                "Hessians)");
  }
  if (p.pointGroupOrder <= 0) {
    throw std::invalid_argument(what + " has an unknown point-group order; rates need it");
  }
}

}  // namespace

MolecularKineticConstants molecularKineticConstants(const std::string& energyUnit) {
  if (energyUnit == "kcal/mol")
    return {energyUnit, kBoltzmannKcalPerMolK, kMolecularFrequencyPerSecond,
            kPlanckKcalPerMolSecond};
  if (energyUnit == "kJ/mol")
    return {energyUnit, kBoltzmannKjPerMolK, kKjMolecularFrequencyPerSecond, kPlanckKjPerMolSecond};
  throw std::invalid_argument("molecular kinetics: energies in '" + energyUnit +
                              "'; the constants are known for kcal/mol and kJ/mol");
}

double harmonicLogRate(double minimumEnergy, double minimumLogProduct, int minimumOrder,
                       double tsEnergy, double tsLogProduct, int tsOrder, double kT) {
  return std::log(static_cast<double>(minimumOrder) / (2.0 * kPi * tsOrder)) +
         0.5 * (minimumLogProduct - tsLogProduct) - (tsEnergy - minimumEnergy) / kT;
}

double harmonicLogOccupation(double energy, double logProduct, int order, double kT) {
  return -energy / kT - 0.5 * logProduct - std::log(static_cast<double>(order));
}

RateGraph harmonicRateGraph(const StoredTransitionNetwork& network, double kT) {
  if (!(kT > 0.0) || !std::isfinite(kT)) {
    throw std::invalid_argument("harmonicRateGraph: the temperature kT must be positive and "
                                "finite, got " + std::to_string(kT));
  }
  RateGraph graph;
  graph.nodes = static_cast<int>(network.minima.size());
  graph.logEquilibrium.reserve(network.minima.size());
  for (std::size_t i = 0; i < network.minima.size(); ++i) {
    const StoredNetworkMinimum& m = network.minima[i];
    requireKnown(m.properties, "minimum " + std::to_string(i + 1));
    graph.logEquilibrium.push_back(harmonicLogOccupation(
        m.energy, m.properties.logProductOfPositiveEigenvalues, m.properties.pointGroupOrder, kT));
  }
  for (std::size_t t = 0; t < network.transitionStates.size(); ++t) {
    const StoredTransitionState& ts = network.transitionStates[t];
    const std::string what = "transition state " + std::to_string(t + 1);
    requireKnown(ts.properties, what);
    if (ts.plusMinimum < 0 || ts.plusMinimum >= graph.nodes || ts.minusMinimum < 0 ||
        ts.minusMinimum >= graph.nodes) {
      throw std::invalid_argument(what + " names a minimum that is not in the network");
    }
    const double degenerate = ts.plusMinimum == ts.minusMinimum ? std::log(2.0) : 0.0;
    for (int side = 0; side < 2; ++side) {
      const int from = side == 0 ? ts.plusMinimum : ts.minusMinimum;
      const int to = side == 0 ? ts.minusMinimum : ts.plusMinimum;
      const StoredNetworkMinimum& m = network.minima[from];
      graph.edges.push_back(
          {from, to,
           harmonicLogRate(m.energy, m.properties.logProductOfPositiveEigenvalues,
                           m.properties.pointGroupOrder, ts.energy,
                           ts.properties.logProductOfPositiveEigenvalues,
                           ts.properties.pointGroupOrder, kT) +
               degenerate});
    }
  }
  return graph;
}

}  // namespace landscape
