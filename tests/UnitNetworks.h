#pragma once
// Small transition networks for kinetics tests: every minimum and transition state with log
// product 0 and point-group order 1 (reduced units), so rates depend on the energies alone.
#include <vector>

#include "landscape/network/StoredNetwork.h"

namespace landscape {

/// One transition state: its energy and the two minima it joins (plus, minus).
struct UnitTransitionState {
  double energy;
  int plus, minus;
};

inline StoredTransitionNetwork unitNetwork(const std::vector<double>& minimumEnergies,
                                           const std::vector<UnitTransitionState>& states) {
  StoredTransitionNetwork n;
  for (double e : minimumEnergies) {
    StoredNetworkMinimum m;
    m.energy = e;
    m.properties.logProductOfPositiveEigenvalues = 0.0;
    m.properties.pointGroupOrder = 1;
    n.minima.push_back(m);
  }
  for (const UnitTransitionState& s : states) {
    StoredTransitionState t;
    t.energy = s.energy;
    t.plusMinimum = s.plus;
    t.minusMinimum = s.minus;
    t.properties.logProductOfPositiveEigenvalues = 0.0;
    t.properties.pointGroupOrder = 1;
    n.transitionStates.push_back(t);
  }
  return n;
}

}  // namespace landscape
