#pragma once
// PATHSAMPLE's UNTRAP pair selection (its GETBARRIER and GETUPAIR; keyword UNTRAP einc ethresh
// [edeltamin [elowbar [ehighbar]]]): connect the minima that are kinetic traps, those whose
// potential-energy barrier to the product set is large compared with how far they lie above it.
//
// A superbasin analysis at thresholds E = E_low, E_low + einc, E_low + 2 einc, ... (E_low the
// lowest product minimum; until E exceeds the highest transition state + einc) joins minima
// through the transition states below E. The first threshold at which minimum m (not a product
// minimum) shares a superbasin with a product minimum gives its barrier E - E_m (tiny when
// E - E_low <= elowbar or when the barrier is >= ehighbar) and a first partner: the highest product
// minimum of that superbasin. The metric is barrier / |E_m - E_low| (barrier / edeltamin when
// |E_m - E_low| <= edeltamin); the largest metrics are the candidates. A second sweep over the
// same thresholds then picks for each candidate the minimum closest to it (minimum distance) among
// those that were in a product superbasin at the previous threshold, lie less than ethresh above
// it, are not directly connected to it and were not tried with it; when there is none the
// partner stays the highest product minimum. Pairs already tried (candidate, first partner) are
// left out. As PATHSAMPLE, at most 1000 distances per candidate once the list is full.
#include <cstddef>
#include <limits>
#include <vector>

#include "landscape/network/GrowthPairs.h"
#include "landscape/network/StoredNetwork.h"

namespace landscape {

struct UntrapParams {
  double energyIncrement = 0.0;  ///< einc: threshold step of the superbasin analysis (energy)
  double energyThreshold = 0.0;  ///< ethresh: partners lie less than this above the candidate
  double deltaMin = std::numeric_limits<double>::min();   ///< edeltamin (energy, not 0)
  double lowBarrier = std::numeric_limits<double>::min();  ///< elowbar (energy)
  double highBarrier = std::numeric_limits<double>::max();  ///< ehighbar (energy)
  std::size_t listSize = 1000;  ///< most candidates kept (PATHSAMPLE's pairs per list)

  /// Throws std::invalid_argument naming the first bad field.
  void check() const;
};

struct UntrapSelection {
  double lowestProduct = 0.0;         ///< energy of the lowest product minimum
  double highestTransitionState = 0.0;
  /// Candidates with their first partner (the highest product minimum of their superbasin),
  /// largest metric first: PATHSAMPLE's "saved minima pairs and barriers".
  std::vector<CandidatePair> byMetric;
  /// The same candidates with their final partners: the pairs to connect, in order.
  std::vector<CandidatePair> pairs;
};

/// The UNTRAP pairs of `network` towards the minima of `product` (set A for rates A<-B,
/// PATHSAMPLE's DIRECTION AB). Throws std::invalid_argument when the product set is empty or
/// names a minimum outside the network, or the parameters fail their check. `prefetch` hears of
/// each energy threshold's distances before they are asked for.
UntrapSelection untrapPairs(const StoredTransitionNetwork& network, const std::vector<int>& product,
                            const UntrapParams& params, const TriedPairs& tried,
                            const MinimumDistance& distance,
                            const DistancePrefetch& prefetch = {});

}  // namespace landscape
