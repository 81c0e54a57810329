#include "landscape/network/DisconnectivityGraph.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"

namespace landscape {

namespace {

class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : m_parent(n) {
    std::iota(m_parent.begin(), m_parent.end(), 0);
  }
  int find(int i) {
    while (m_parent[i] != i) i = m_parent[i] = m_parent[m_parent[i]];
    return i;
  }
  void join(int a, int b) { m_parent[find(a)] = find(b); }

 private:
  std::vector<int> m_parent;
};

struct Child {
  int node;     // index into nodes, or -1 for a minimum ending here
  int minimum;  // when node == -1
  double lowest;
};

struct Node {
  int level;
  std::vector<Child> children;
  double x = 0.0;
};

class Builder {
 public:
  Builder(const StoredTransitionNetwork& network, std::vector<double> levels)
      : m_network(network), m_levels(std::move(levels)) {}

  int build(int level, const std::vector<int>& members) {
    const int index = static_cast<int>(m_nodes.size());
    m_nodes.push_back({level, {}, 0.0});
    const int next = level + 1;
    const double below = next < static_cast<int>(m_levels.size()) ? m_levels[next] : -INFINITY;
    std::vector<Child> children;
    std::vector<int> rest;
    for (int m : members) {
      const double e = m_network.minima[m].energy;
      if (e >= below) {
        children.push_back({-1, m, e});
      } else {
        rest.push_back(m);
      }
    }
    // Superbasins of the next level: the remaining minima joined by transition states below it.
    std::map<int, int> position;
    for (std::size_t k = 0; k < rest.size(); ++k) position[rest[k]] = static_cast<int>(k);
    UnionFind sets(rest.size());
    for (const StoredTransitionState& ts : m_network.transitionStates) {
      if (ts.energy >= below) continue;
      const auto a = position.find(ts.plusMinimum), b = position.find(ts.minusMinimum);
      if (a != position.end() && b != position.end()) sets.join(a->second, b->second);
    }
    std::map<int, std::vector<int>> groups;
    for (std::size_t k = 0; k < rest.size(); ++k) {
      groups[sets.find(static_cast<int>(k))].push_back(rest[k]);
    }
    for (const auto& [root, group] : groups) {
      double lowest = INFINITY;
      for (int m : group) lowest = std::min(lowest, m_network.minima[m].energy);
      const int child = build(next, group);
      children.push_back({child, -1, lowest});
    }
    // Lowest in the middle, then alternately right and left.
    std::stable_sort(children.begin(), children.end(),
                     [](const Child& a, const Child& b) { return a.lowest < b.lowest; });
    std::deque<Child> arranged;
    for (std::size_t k = 0; k < children.size(); ++k) {
      if (k % 2 == 1) {
        arranged.push_back(children[k]);
      } else {
        arranged.push_front(children[k]);
      }
    }
    m_nodes[index].children.assign(arranged.begin(), arranged.end());
    return index;
  }

  // Leaves left to right; nodes at the mean of their children.
  double place(int node, std::vector<std::pair<int, int>>& order) {
    double sum = 0.0;
    for (const Child& c : m_nodes[node].children) {
      if (c.node >= 0) {
        sum += place(c.node, order);
      } else {
        order.push_back({c.minimum, static_cast<int>(order.size())});
        sum += static_cast<double>(order.size() - 1);  // provisional: leaf rank
      }
    }
    m_nodes[node].x = sum / static_cast<double>(m_nodes[node].children.size());
    return m_nodes[node].x;
  }

  /// Appends the segments below `node`; returns the minima below it.
  std::vector<int> segments(int node, double scale, const std::map<int, double>& leafX,
                            std::vector<DisconnectivitySegment>& out) const {
    const Node& n = m_nodes[node];
    const double x = (n.x + 0.5) * scale;
    std::vector<int> below;
    for (const Child& c : n.children) {
      if (c.node >= 0) {
        const Node& child = m_nodes[c.node];
        const std::size_t at = out.size();
        out.push_back({x, m_levels[n.level], (child.x + 0.5) * scale, m_levels[child.level], {}});
        out[at].minima = segments(c.node, scale, leafX, out);
        below.insert(below.end(), out[at].minima.begin(), out[at].minima.end());
      } else {
        out.push_back({x, m_levels[n.level], leafX.at(c.minimum),
                       m_network.minima[c.minimum].energy, {c.minimum}});
        below.push_back(c.minimum);
      }
    }
    return below;
  }

 private:
  const StoredTransitionNetwork& m_network;
  std::vector<double> m_levels;
  std::vector<Node> m_nodes;
};

}  // namespace

void DisconnectivityParams::check() const {
  require(levels >= 1, "disconnectivity levels must be >= 1");
  require(!std::isinf(topEnergy), "disconnectivity topEnergy must be finite or NaN (automatic)");
  require(std::isnan(levelSpacing) || (levelSpacing > 0.0 && std::isfinite(levelSpacing)),
          "disconnectivity levelSpacing must be positive and finite, or NaN (automatic)");
}

DisconnectivityGraph buildDisconnectivityGraph(const StoredTransitionNetwork& network,
                                               const DisconnectivityParams& params) {
  params.check();
  const int n = static_cast<int>(network.minima.size());
  if (n == 0) throw std::invalid_argument("disconnectivity graph: the network has no minima");
  for (std::size_t t = 0; t < network.transitionStates.size(); ++t) {
    const StoredTransitionState& ts = network.transitionStates[t];
    if (ts.plusMinimum < 0 || ts.plusMinimum >= n || ts.minusMinimum < 0 || ts.minusMinimum >= n) {
      throw std::invalid_argument("disconnectivity graph: transition state " + std::to_string(t) +
                                  " names a minimum that is not in the network");
    }
  }
  int lowest = 0;
  for (int m = 1; m < n; ++m) {
    if (network.minima[m].energy < network.minima[lowest].energy) lowest = m;
  }
  UnionFind all(static_cast<std::size_t>(n));
  for (const StoredTransitionState& ts : network.transitionStates) {
    all.join(ts.plusMinimum, ts.minusMinimum);
  }
  DisconnectivityGraph graph;
  for (int m = 0; m < n; ++m) {
    if (!params.connectedToLowestOnly || all.find(m) == all.find(lowest)) graph.minima.push_back(m);
  }
  graph.lowestEnergy = network.minima[lowest].energy;
  double highestState = -INFINITY;
  std::vector<bool> drawn(static_cast<std::size_t>(n), false);
  for (int m : graph.minima) drawn[m] = true;
  double highestMinimum = graph.lowestEnergy;
  for (int m : graph.minima) highestMinimum = std::max(highestMinimum, network.minima[m].energy);
  for (const StoredTransitionState& ts : network.transitionStates) {
    if (drawn[ts.plusMinimum] && drawn[ts.minusMinimum]) {
      highestState = std::max(highestState, ts.energy);
    }
  }
  double top = params.topEnergy;
  if (std::isnan(top)) {
    const double upper = std::max(highestState, highestMinimum);
    const double range = upper - graph.lowestEnergy;
    top = upper + (range > 0.0 ? 0.02 * range : 1.0);
  }
  if (!(top > graph.lowestEnergy)) {
    throw std::invalid_argument(
        "disconnectivity graph: topEnergy must lie above the lowest "
        "minimum");
  }
  const double spacing = std::isnan(params.levelSpacing)
                             ? (top - graph.lowestEnergy) / params.levels
                             : params.levelSpacing;
  for (int k = 0; k <= params.levels; ++k) graph.levels.push_back(top - k * spacing);

  // Minima at or above the top level cannot be drawn.
  std::vector<int> members;
  for (int m : graph.minima) {
    if (network.minima[m].energy < top) members.push_back(m);
  }
  graph.minima = members;
  Builder builder(network, graph.levels);
  const int root = builder.build(0, members);
  std::vector<std::pair<int, int>> order;
  builder.place(root, order);
  const double scale = 1.0 / static_cast<double>(std::max<std::size_t>(order.size(), 1));
  std::map<int, double> leafX;
  for (const auto& [minimum, rank] : order) leafX[minimum] = (rank + 0.5) * scale;
  for (int m : graph.minima) graph.minimumX.push_back(leafX.at(m));
  builder.segments(root, scale, leafX, graph.segments);
  return graph;
}

}  // namespace landscape
