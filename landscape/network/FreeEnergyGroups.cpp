#include "landscape/network/FreeEnergyGroups.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

#include "landscape/network/HarmonicRates.h"

namespace landscape {

namespace {

constexpr double kTwoPi = 6.28318530717958647692;

/// -kT ln sum exp(-F / kT) of `values`, stably.
double combine(const std::vector<double>& values, double kT) {
  const double lowest = *std::min_element(values.begin(), values.end());
  double sum = 0.0;
  for (double f : values) sum += std::exp(-(f - lowest) / kT);
  return lowest - kT * std::log(sum);
}

struct Partition {
  std::vector<int> group;  // per minimum: representative
  int find(int x) {
    while (group[x] != x) x = group[x] = group[group[x]];
    return x;
  }
};

/// The free energies of the current groups (by representative) and of their connecting TSs.
struct GroupEnergies {
  std::map<int, double> group;
  std::map<std::pair<int, int>, double> barrier;  // (I, J) with I < J -> F_IJ
};

GroupEnergies groupEnergies(Partition& p, const std::vector<double>& fMin,
                            const std::vector<double>& fTs,
                            const StoredTransitionNetwork& network, double kT) {
  std::map<int, std::vector<double>> byGroup;
  for (std::size_t m = 0; m < fMin.size(); ++m) byGroup[p.find(static_cast<int>(m))].push_back(fMin[m]);
  std::map<std::pair<int, int>, std::vector<double>> byPair;
  for (std::size_t t = 0; t < fTs.size(); ++t) {
    const int i = p.find(network.transitionStates[t].plusMinimum);
    const int j = p.find(network.transitionStates[t].minusMinimum);
    if (i != j) byPair[{std::min(i, j), std::max(i, j)}].push_back(fTs[t]);
  }
  GroupEnergies e;
  for (const auto& [g, values] : byGroup) e.group[g] = combine(values, kT);
  for (const auto& [pair, values] : byPair) e.barrier[pair] = combine(values, kT);
  return e;
}

FreeEnergyGroups numberGroups(Partition& p, const std::map<int, double>& energies,
                              std::size_t minima) {
  std::vector<std::pair<double, int>> order;
  for (const auto& [g, f] : energies) order.push_back({f, g});
  std::sort(order.begin(), order.end());
  std::map<int, int> number;
  FreeEnergyGroups out;
  for (const auto& [f, g] : order) {
    number[g] = static_cast<int>(out.freeEnergy.size());
    out.freeEnergy.push_back(f);
  }
  out.members.resize(out.freeEnergy.size());
  out.groupOfMinimum.resize(minima);
  for (std::size_t m = 0; m < minima; ++m) {
    out.groupOfMinimum[m] = number[p.find(static_cast<int>(m))];
    out.members[out.groupOfMinimum[m]].push_back(static_cast<int>(m));
  }
  return out;
}

}  // namespace

FreeEnergyGroups regroupFreeEnergy(const StoredTransitionNetwork& network, double kT,
                                   double threshold, double planck) {
  if (!(kT > 0.0) || !std::isfinite(kT) || !(threshold >= 0.0) || !std::isfinite(threshold)) {
    throw std::invalid_argument("regroupFreeEnergy: kT must be > 0 and the threshold >= 0");
  }
  if (!(planck >= 0.0) || !std::isfinite(planck)) {
    throw std::invalid_argument("regroupFreeEnergy: Planck's constant must be >= 0 (0: left out)");
  }
  // Eyring's prefactor kT / h in the rate graph's inverse time unit (PATHSAMPLE's PLANCK).
  const double eyring = planck > 0.0 ? kT * std::log(kT / planck) : 0.0;
  harmonicRateGraph(network, kT);  // the same checks of log products and orders
  std::vector<double> fMin, fTs;
  for (const StoredNetworkMinimum& m : network.minima) {
    fMin.push_back(-kT * harmonicLogOccupation(m.energy, m.properties.logProductOfPositiveEigenvalues,
                                               m.properties.pointGroupOrder, kT));
  }
  for (const StoredTransitionState& ts : network.transitionStates) {
    fTs.push_back(ts.energy + kT * (0.5 * ts.properties.logProductOfPositiveEigenvalues +
                                    std::log(static_cast<double>(ts.properties.pointGroupOrder)) +
                                    std::log(kTwoPi)) +
                  eyring);
  }
  Partition p;
  p.group.resize(network.minima.size());
  std::iota(p.group.begin(), p.group.end(), 0);
  if (network.minima.empty()) return {};
  for (;;) {
    const GroupEnergies e = groupEnergies(p, fMin, fTs, network, kT);
    double best = HUGE_VAL;
    std::pair<int, int> merge{-1, -1};
    for (const auto& [pair, f] : e.barrier) {
      const double larger = std::max(f - e.group.at(pair.first), f - e.group.at(pair.second));
      if (larger <= threshold && larger < best) best = larger, merge = pair;
    }
    if (merge.first < 0) return numberGroups(p, e.group, network.minima.size());
    p.group[merge.second] = merge.first;
  }
}

}  // namespace landscape
