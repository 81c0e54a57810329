#include "landscape/network/KineticPathPairs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>

#include "landscape/core/Require.h"
#include "landscape/network/HarmonicRates.h"

namespace landscape {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// -ln P of the best transition state for each directly connected ordered pair.
struct KnownStep {
  double weight;
  int transitionState;
};
using KnownSteps = std::vector<std::map<int, KnownStep>>;

KnownSteps knownSteps(const StoredTransitionNetwork& network, double kT) {
  const RateGraph graph = harmonicRateGraph(network, kT);  // edges 2t, 2t + 1 belong to state t
  const int n = graph.nodes;
  std::vector<double> logOut(n, -kInfinity);  // ln of the total rate out of each minimum
  for (const RateEdge& e : graph.edges) {
    if (e.from == e.to) continue;  // a degenerate rearrangement leaves the minimum where it is
    const double hi = std::max(logOut[e.from], e.logRate);
    logOut[e.from] = hi + std::log(std::exp(logOut[e.from] - hi) + std::exp(e.logRate - hi));
  }
  KnownSteps steps(n);
  for (std::size_t i = 0; i < graph.edges.size(); ++i) {
    const RateEdge& e = graph.edges[i];
    if (e.from == e.to) continue;
    const double weight = std::max(0.0, logOut[e.from] - e.logRate);  // -ln P >= 0
    const auto found = steps[e.from].find(e.to);
    if (found == steps[e.from].end() || weight < found->second.weight)
      steps[e.from][e.to] = {weight, static_cast<int>(i / 2)};
  }
  return steps;
}

std::vector<char> membership(const std::vector<int>& set, int n, const char* name) {
  require(!set.empty(), std::string("the endpoint set ") + name + " is empty");
  std::vector<char> in(n, 0);
  for (int m : set) {
    require(m >= 0 && m < n, std::string("set ") + name + " names a minimum outside the network");
    in[m] = 1;
  }
  return in;
}

// Dense Dijkstra from every minimum of B to the first minimum of A reached; weight(u, v) returns
// infinity for no edge. The chain of minima, B first; empty when A cannot be reached.
template <class Weight>
std::vector<int> shortestChain(const StoredTransitionNetwork& network, Weight weight) {
  const int n = static_cast<int>(network.minima.size());
  const std::vector<char> inA = membership(network.setA, n, "A");
  membership(network.setB, n, "B");
  std::vector<double> cost(n, kInfinity);
  std::vector<int> previous(n, -1);
  std::vector<char> done(n, 0);
  for (int b : network.setB) cost[b] = 0.0;
  int reached = -1;
  for (int round = 0; round < n && reached < 0; ++round) {
    int u = -1;
    for (int i = 0; i < n; ++i)
      if (!done[i] && cost[i] < kInfinity && (u < 0 || cost[i] < cost[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    if (inA[u]) reached = u;
    for (int v = 0; v < n && reached < 0; ++v) {
      if (done[v]) continue;
      const double w = weight(u, v);
      if (cost[u] + w < cost[v]) {
        cost[v] = cost[u] + w;
        previous[v] = u;
      }
    }
  }
  std::vector<int> chain;
  for (int m = reached; m >= 0; m = previous[m]) chain.insert(chain.begin(), m);
  return chain;
}

bool listed(const std::vector<CandidatePair>& list, int a, int b) {
  for (const CandidatePair& p : list)
    if ((p.first == a && p.second == b) || (p.first == b && p.second == a)) return true;
  return false;
}

std::vector<CandidatePair> closestPairs(const KineticPath& path, int minSeparation,
                                        std::size_t listSize, const TriedPairIndex& tried,
                                        const MinimumDistance& distance) {
  std::vector<CandidatePair> list;
  const int count = static_cast<int>(path.minima.size());
  for (int i = 0; i < count; ++i) {
    for (int j = i + minSeparation; j < count; ++j) {
      const int a = path.minima[i], b = path.minima[j];
      if (a == b || tried.contains(a, b, true) || listed(list, a, b)) continue;
      const double d = distance(a, b);
      std::size_t at = 0;
      while (at < list.size() && !(d < list[at].score)) ++at;
      if (at >= listSize) continue;
      list.insert(list.begin() + static_cast<long>(at), CandidatePair{a, b, d});
      if (list.size() > listSize) list.pop_back();
    }
  }
  return list;
}

std::vector<CandidatePair> barrierPairs(const StoredTransitionNetwork& network,
                                        const KineticPath& path, int minSeparation,
                                        std::size_t listSize, const TriedPairIndex& tried) {
  const int steps = static_cast<int>(path.transitionStates.size());
  std::vector<double> height(steps);
  for (int s = 0; s < steps; ++s)  // the A<-B path climbs from minimum s to transition state s
    height[s] = network.transitionStates[path.transitionStates[s]].energy -
                network.minima[path.minima[s]].energy;
  std::vector<int> order(steps);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return height[a] > height[b]; });
  std::vector<CandidatePair> list;
  const int last = steps;  // index of the last minimum
  for (int s : order) {
    for (int k = 1; k <= minSeparation && list.size() < listSize; ++k) {
      // Minima k - 1 steps before and after step s: s - (k - 1) and s + 1 + (k - 1).
      const int before = s - (k - 1), after = s + k;
      if (before < 0 && after > last) break;
      const int a = path.minima[std::max(before, 0)], b = path.minima[std::min(after, last)];
      if (a == b || tried.contains(a, b, true) || listed(list, a, b)) continue;
      list.push_back({a, b, height[s]});
    }
    if (list.size() >= listSize) break;
  }
  return list;
}

}  // namespace

KineticPath bestKineticPath(const StoredTransitionNetwork& network, double kT) {
  const KnownSteps steps = knownSteps(network, kT);
  const std::vector<int> chain = shortestChain(network, [&](int u, int v) {
    const auto found = steps[u].find(v);
    return found == steps[u].end() ? kInfinity : found->second.weight;
  });
  KineticPath path;
  path.minima = chain;
  for (std::size_t s = 0; s + 1 < chain.size(); ++s)
    path.transitionStates.push_back(steps[chain[s]].at(chain[s + 1]).transitionState);
  return path;
}

std::vector<CandidatePair> shortcutPairs(const StoredTransitionNetwork& network, double kT,
                                         int minSeparation, bool barrier, std::size_t listSize,
                                         const TriedPairs& tried, const MinimumDistance& distance) {
  require(minSeparation >= 1, "SHORTCUT needs a separation of at least 1 step");
  const KineticPath path = bestKineticPath(network, kT);
  if (path.minima.empty()) return {};
  return barrier ? barrierPairs(network, path, minSeparation, listSize, TriedPairIndex(tried))
                 : closestPairs(path, minSeparation, listSize, TriedPairIndex(tried), distance);
}

std::vector<CandidatePair> dijkstraPairs(const StoredTransitionNetwork& network, double kT,
                                         double power, const TriedPairs& tried,
                                         const MinimumDistance& distance) {
  require(std::isfinite(power) && power > 0.0, "Dijkstra pairs need a distance power > 0");
  const KnownSteps steps = knownSteps(network, kT);
  const TriedPairIndex triedIndex(tried);
  const std::vector<int> chain = shortestChain(network, [&](int u, int v) {
    const auto found = steps[u].find(v);
    if (found != steps[u].end()) return found->second.weight;
    if (triedIndex.contains(u, v, true)) return kInfinity;
    return std::pow(distance(u, v), power);
  });
  std::vector<CandidatePair> pairs;
  for (std::size_t s = 0; s + 1 < chain.size(); ++s) {
    if (steps[chain[s]].count(chain[s + 1])) continue;
    pairs.push_back({chain[s], chain[s + 1], distance(chain[s], chain[s + 1])});
  }
  return pairs;
}

}  // namespace landscape
