#include "landscape/network/UntrapPairs.h"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"

namespace landscape {

namespace {

constexpr double kTiny = std::numeric_limits<double>::min();  // PATHSAMPLE's TINY(1.0D0)
// As PATHSAMPLE: once the list is full, at most this many distances per candidate.
constexpr int kMaxDistancesPerCandidate = 1000;

// Superbasins at one threshold: minima joined by transition states below it. basin[m] is the
// representative of m's superbasin, or -1 when no such transition state touches m.
struct Superbasins {
  std::vector<int> basin;
  std::vector<char> hasProduct;  ///< per representative: a product minimum belongs to it
};

int findRoot(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

Superbasins superbasins(const StoredTransitionNetwork& network, const std::vector<char>& isProduct,
                        double threshold) {
  const int n = static_cast<int>(network.minima.size());
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<char> touched(n, 0);
  for (const StoredTransitionState& ts : network.transitionStates) {
    if (!(ts.energy < threshold)) continue;
    touched[ts.plusMinimum] = touched[ts.minusMinimum] = 1;
    parent[findRoot(parent, ts.plusMinimum)] = findRoot(parent, ts.minusMinimum);
  }
  Superbasins s{std::vector<int>(n, -1), std::vector<char>(n, 0)};
  for (int m = 0; m < n; ++m) {
    if (!touched[m]) continue;
    s.basin[m] = findRoot(parent, m);
    if (isProduct[m]) s.hasProduct[s.basin[m]] = 1;
  }
  return s;
}

// PATHSAMPLE's thresholds: lowest, lowest + einc, ... while not above highest + einc. The visitor
// returns false to stop early.
template <class Visit>
void sweepThresholds(double lowest, double highest, double increment, Visit visit) {
  for (double threshold = lowest;;) {
    if (!visit(threshold)) return;
    threshold += increment;  // accumulated as PATHSAMPLE does, so the levels are its own
    if (threshold > highest + increment) return;
  }
}

struct Barriers {
  std::vector<double> barrier;  ///< -1: never joins a product superbasin
  std::vector<int> partner;     ///< highest product minimum of that superbasin
};

// PATHSAMPLE's GETBARRIER.
Barriers productBarriers(const StoredTransitionNetwork& network, const std::vector<int>& product,
                         const std::vector<char>& isProduct, const UntrapParams& p, double lowest,
                         double highest) {
  const int n = static_cast<int>(network.minima.size());
  Barriers b{std::vector<double>(n, -1.0), std::vector<int>(n, -1)};
  sweepThresholds(lowest, highest, p.energyIncrement, [&](double threshold) {
    const Superbasins s = superbasins(network, isProduct, threshold);
    for (int m = 0; m < n; ++m) {
      if (s.basin[m] < 0 || isProduct[m] || !s.hasProduct[s.basin[m]] || b.barrier[m] >= 0.0)
        continue;
      double barrier = threshold - network.minima[m].energy;
      if (threshold - lowest <= p.lowBarrier || barrier >= p.highBarrier) barrier = kTiny;
      b.barrier[m] = barrier;
      double highestPartner = -std::numeric_limits<double>::max();
      for (int a : product) {
        if (s.basin[a] == s.basin[m] && network.minima[a].energy > highestPartner) {
          highestPartner = network.minima[a].energy;
          b.partner[m] = a;
        }
      }
    }
    return true;
  });
  return b;
}

// The candidates, largest metric first (ties keep index order), at most listSize.
std::vector<CandidatePair> candidatesByMetric(const StoredTransitionNetwork& network,
                                              const Barriers& b, const UntrapParams& p,
                                              double lowest, const TriedPairIndex& tried) {
  std::vector<CandidatePair> list;
  for (int m = 0; m < static_cast<int>(network.minima.size()); ++m) {
    if (b.barrier[m] < 0.0 || b.partner[m] < 0) continue;
    const double above = std::fabs(network.minima[m].energy - lowest);
    const double metric = b.barrier[m] / (above > p.deltaMin ? above : std::fabs(p.deltaMin));
    if (tried.contains(m, b.partner[m], false)) continue;
    std::size_t at = 0;
    while (at < list.size() && !(metric > list[at].score)) ++at;
    if (at >= p.listSize) continue;
    list.insert(list.begin() + static_cast<long>(at), CandidatePair{m, b.partner[m], metric});
    if (list.size() > p.listSize) list.pop_back();
  }
  return list;
}

std::vector<std::vector<int>> neighboursOf(const StoredTransitionNetwork& network) {
  std::vector<std::vector<int>> neighbours(network.minima.size());
  for (const StoredTransitionState& ts : network.transitionStates) {
    neighbours[ts.plusMinimum].push_back(ts.minusMinimum);
    neighbours[ts.minusMinimum].push_back(ts.plusMinimum);
  }
  return neighbours;
}

// The partners whose distance PATHSAMPLE's min2 loop computes for candidate t: minima of an old
// superbasin holding a product, within energyThreshold above t, neither joined to t by a
// transition state nor tried with it; once the list is full, at most kMaxDistancesPerCandidate + 1.
std::vector<int> eligiblePartners(const StoredTransitionNetwork& network, int t,
                                  const std::vector<int>& oldBasin,
                                  const std::vector<char>& oldHasProduct,
                                  const std::vector<int>& neighbours, const UntrapParams& p,
                                  bool listFull, const TriedPairIndex& tried,
                                  std::vector<char>& isNeighbour) {
  for (int k : neighbours) isNeighbour[k] = 1;
  std::vector<int> partners;
  for (int j = 0; j < static_cast<int>(network.minima.size()); ++j) {
    if (oldBasin[j] < 0 || !oldHasProduct[oldBasin[j]]) continue;
    if (!(network.minima[j].energy - network.minima[t].energy < p.energyThreshold)) continue;
    if (isNeighbour[j] || tried.contains(t, j, true)) continue;
    partners.push_back(j);
    if (static_cast<int>(partners.size()) > kMaxDistancesPerCandidate && listFull) break;
  }
  for (int k : neighbours) isNeighbour[k] = 0;
  return partners;
}

// The closest of the partners (the first of equals); keeps the pair's partner when there is none.
void closestPartner(const std::vector<int>& partners, const MinimumDistance& distance,
                    CandidatePair& pair) {
  double best = 1e100;
  for (int j : partners) {
    const double d = distance(pair.first, j);
    if (d < best) {
      best = d;
      pair.second = j;
    }
  }
}

}  // namespace

void UntrapParams::check() const {
  require(std::isfinite(energyIncrement) && energyIncrement > 0.0,
          "UNTRAP energy increment einc must be > 0");
  require(!std::isnan(energyThreshold), "UNTRAP energy threshold ethresh must be a number");
  require(std::isfinite(deltaMin) && deltaMin != 0.0, "UNTRAP edeltamin must be finite and not 0");
  require(!std::isnan(lowBarrier) && !std::isnan(highBarrier), "UNTRAP elowbar and ehighbar must "
                                                               "be numbers");
  require(listSize >= 1, "UNTRAP list size must be >= 1");
}

UntrapSelection untrapPairs(const StoredTransitionNetwork& network, const std::vector<int>& product,
                            const UntrapParams& params, const TriedPairs& tried,
                            const MinimumDistance& distance, const DistancePrefetch& prefetch) {
  params.check();
  const int n = static_cast<int>(network.minima.size());
  require(!product.empty(), "UNTRAP needs a product set (min.A)");
  std::vector<char> isProduct(n, 0);
  UntrapSelection out;
  out.lowestProduct = std::numeric_limits<double>::max();
  for (int a : product) {
    require(a >= 0 && a < n, "UNTRAP: product minimum " + std::to_string(a) +
                                 " is not in the network");
    isProduct[a] = 1;
    out.lowestProduct = std::min(out.lowestProduct, network.minima[a].energy);
  }
  out.highestTransitionState = -1e100;
  for (const StoredTransitionState& ts : network.transitionStates)
    out.highestTransitionState = std::max(out.highestTransitionState, ts.energy);

  const double low = out.lowestProduct, high = out.highestTransitionState;
  const Barriers barriers = productBarriers(network, product, isProduct, params, low, high);
  const TriedPairIndex triedIndex(tried);
  out.byMetric = candidatesByMetric(network, barriers, params, low, triedIndex);
  out.pairs = out.byMetric;
  if (out.pairs.empty()) return out;

  const std::vector<std::vector<int>> neighbours = neighboursOf(network);
  const bool listFull = out.pairs.size() >= params.listSize;
  std::vector<char> done(out.pairs.size(), 0);
  std::size_t doneCount = 0;
  std::vector<int> oldBasin(n, -1);
  std::vector<char> oldHasProduct(n, 0);
  std::vector<char> isNeighbour(n, 0);  // eligiblePartners' scratch: the candidate's neighbours
  sweepThresholds(low, high, params.energyIncrement, [&](double threshold) {
    const Superbasins s = superbasins(network, isProduct, threshold);
    // The candidates that reach a product at this threshold, their partners, and every distance
    // they need told ahead, then each candidate's closest partner.
    std::vector<std::pair<std::size_t, std::vector<int>>> reached;
    std::vector<std::pair<int, int>> needed;
    for (std::size_t k = 0; k < out.pairs.size(); ++k) {
      const int t = out.pairs[k].first;
      if (done[k] || s.basin[t] < 0 || !s.hasProduct[s.basin[t]]) continue;
      reached.emplace_back(k, eligiblePartners(network, t, oldBasin, oldHasProduct, neighbours[t],
                                               params, listFull, triedIndex, isNeighbour));
      for (int j : reached.back().second) needed.emplace_back(t, j);
    }
    if (prefetch && !needed.empty()) prefetch(needed);
    for (auto& [k, partners] : reached) {
      closestPartner(partners, distance, out.pairs[k]);
      done[k] = 1;
      ++doneCount;
    }
    oldBasin = s.basin;
    oldHasProduct = s.hasProduct;
    return doneCount < out.pairs.size();
  });
  return out;
}

}  // namespace landscape
