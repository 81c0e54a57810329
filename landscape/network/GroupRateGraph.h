#pragma once
// The rate graph between free-energy groups (FreeEnergyGroups.h): PATHSAMPLE's NGT after
// REGROUPFREE. A group I is one node with the equilibrium weight Z_I = sum_{m in I} p_m, and the
// rate from group I to group J is the equilibrium-weighted sum over the minima of I of their rates
// into J, k(I -> J) = sum_{m in I, n in J} p_m k(m -> n) / Z_I (regroupfree2's NEWKPLUS), so that
// detailed balance holds between groups; edges inside a group disappear. The sets A and B become
// the groups holding any of their minima.
#include <vector>

#include "landscape/network/FreeEnergyGroups.h"
#include "landscape/network/RateGraph.h"

namespace landscape {

/// The graph of the groups, from the graph of their minima (`minima`, with equilibrium weights,
/// one node per minimum of `groups`). Throws std::invalid_argument when the sizes disagree or
/// `minima` has no equilibrium weights.
RateGraph groupRateGraph(const RateGraph& minima, const FreeEnergyGroups& groups);

/// The groups holding the minima of `set`, ascending, each once.
std::vector<int> groupsOf(const std::vector<int>& set, const FreeEnergyGroups& groups);

}  // namespace landscape
