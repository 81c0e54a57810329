#pragma once
// Pair selections along the best kinetic path between the endpoint sets (PATHSAMPLE's SHORTCUT,
// SHORTCUT BARRIER and DIJPAIR growth; docs/pathsample.md).
//
// The best path: Dijkstra's algorithm from the minima of B to the first minimum of A over the
// known transition states, a step m -> n over transition state t weighing -ln P, with
// P = k_t(m -> n) / sum of all rates out of m the branching probability (harmonic rates at kT,
// HarmonicRates.h; PATHSAMPLE's "best SS path", the path with the largest product of branching
// probabilities). Weights are >= 0, so Dijkstra applies.
//
// SHORTCUT n: the closest pairs (minimum distance) of minima on the best path that are n or
//   more steps apart there, shortest first.
// SHORTCUT n BARRIER: the steps of the best path sorted by their barrier, highest first (E_t minus
//   the energy of the minimum the A<-B path climbs from), and for each the pairs 1, 3, ..., 2n-1
//   positions either side of its transition state (clamped to the path's ends).
// DIJPAIR (power p): Dijkstra on the complete graph of minima, a known connection weighing -ln P as
//   above and a missing one distance^p (length^p; pairs tried before are excluded), from B to A;
//   the pairs are the missing links of that path, in path order.
// Pairs tried before (either order) are never proposed again; a pair appears once per list.
#include <cstddef>
#include <vector>

#include "landscape/network/GrowthPairs.h"
#include "landscape/network/StoredNetwork.h"

namespace landscape {

/// The best path from B to A: minima and transition states alternating, a minimum of B first and
/// a minimum of A last (0-based indices). Empty when no chain of transition states joins B to A.
/// Throws std::invalid_argument as harmonicRateGraph (unknown log products or point groups), or
/// when a set is empty.
struct KineticPath {
  std::vector<int> minima;            ///< n + 1 minima
  std::vector<int> transitionStates;  ///< n transition states; step s joins minima s and s + 1
};
KineticPath bestKineticPath(const StoredTransitionNetwork& network, double kT);

/// SHORTCUT minSeparation [BARRIER] on the best path at kT; at most listSize pairs.
std::vector<CandidatePair> shortcutPairs(const StoredTransitionNetwork& network, double kT,
                                         int minSeparation, bool barrier, std::size_t listSize,
                                         const TriedPairs& tried, const MinimumDistance& distance);

/// DIJPAIR: the missing links of the best path through known and missing connections.
std::vector<CandidatePair> dijkstraPairs(const StoredTransitionNetwork& network, double kT,
                                         double power, const TriedPairs& tried,
                                         const MinimumDistance& distance);

}  // namespace landscape
