#include "landscape/network/GraphTransformation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>

namespace landscape {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double logSumExp(const std::vector<double>& values) {
  double top = -HUGE_VAL;
  for (double v : values) top = std::max(top, v);
  if (top == -HUGE_VAL) return top;
  double sum = 0.0;
  for (double v : values) sum += std::exp(v - top);
  return top + std::log(sum);
}

/// Branching probabilities and waiting times of the minima still in the graph. A node's
/// self-branching probability is not stored: 1 - P(x -> x) is the sum of its `out` entries.
struct BranchingGraph {
  std::vector<std::map<int, double>> out;  // P(x -> y), y != x
  std::vector<std::set<int>> in;           // nodes b with an entry P(b -> x)
  std::vector<double> tau;                 // waiting times
  std::vector<bool> alive;

  double escape(int x) const {
    double sum = 0.0;
    for (const auto& [y, p] : out[x]) sum += p;
    return sum;
  }
};

/// What the removal of one node leaves for the committors' back-substitution.
struct Removal {
  int node;
  std::map<int, double> out;
  double escape;
};

Removal removeNode(BranchingGraph& g, int x) {
  const double escape = g.escape(x);
  const std::set<int> predecessors = g.in[x];
  for (int b : predecessors) {
    auto entry = g.out[b].find(x);
    const double factor = entry->second / escape;
    g.out[b].erase(entry);
    g.tau[b] += factor * g.tau[x];
    for (const auto& [y, p] : g.out[x]) {
      if (y == b) continue;  // back to b: joins b's self-branching probability
      g.out[b][y] += factor * p;
      g.in[y].insert(b);
    }
  }
  for (const auto& [y, p] : g.out[x]) g.in[y].erase(x);
  Removal removal{x, std::move(g.out[x]), escape};
  g.out[x].clear();
  g.in[x].clear();
  g.alive[x] = false;
  return removal;
}

/// Nodes reachable from `start` along edges of finite rate (undirected).
std::vector<bool> reachable(const RateGraph& graph, const std::vector<int>& start) {
  std::vector<std::vector<int>> neighbours(graph.nodes);
  for (const RateEdge& e : graph.edges) {
    if (e.from == e.to || e.logRate == -HUGE_VAL) continue;
    neighbours[e.from].push_back(e.to);
    neighbours[e.to].push_back(e.from);
  }
  std::vector<bool> seen(graph.nodes, false);
  std::queue<int> queue;
  for (int s : start) {
    if (!seen[s]) queue.push(s), seen[s] = true;
  }
  while (!queue.empty()) {
    const int x = queue.front();
    queue.pop();
    for (int y : neighbours[x]) {
      if (!seen[y]) queue.push(y), seen[y] = true;
    }
  }
  return seen;
}

BranchingGraph initialGraph(const RateGraph& graph, const std::vector<bool>& keep) {
  std::vector<std::map<int, std::vector<double>>> logRates(graph.nodes);
  for (const RateEdge& e : graph.edges) {
    if (e.from == e.to || e.logRate == -HUGE_VAL || !keep[e.from] || !keep[e.to]) continue;
    logRates[e.from][e.to].push_back(e.logRate);
  }
  BranchingGraph g;
  g.out.resize(graph.nodes);
  g.in.resize(graph.nodes);
  g.tau.assign(graph.nodes, kNaN);
  g.alive = keep;
  for (int x = 0; x < graph.nodes; ++x) {
    if (!keep[x]) continue;
    std::vector<double> perNeighbour, all;
    for (const auto& [y, list] : logRates[x]) perNeighbour.push_back(logSumExp(list));
    const double logTotal = logSumExp(perNeighbour);
    g.tau[x] = std::exp(-logTotal);
    std::size_t i = 0;
    for (const auto& [y, list] : logRates[x]) {
      g.out[x][y] = std::exp(perNeighbour[i++] - logTotal);
      g.in[y].insert(x);
    }
  }
  return g;
}

/// Removes every live node for which `remove` is true, fewest neighbours first (less fill-in).
std::vector<Removal> removeAll(BranchingGraph& g, const std::vector<bool>& remove) {
  std::set<std::pair<std::size_t, int>> queue;
  std::vector<std::size_t> degree(g.out.size(), 0);
  for (std::size_t x = 0; x < g.out.size(); ++x) {
    if (!g.alive[x] || !remove[x]) continue;
    degree[x] = g.out[x].size();
    queue.insert({degree[x], static_cast<int>(x)});
  }
  std::vector<Removal> removals;
  while (!queue.empty()) {
    const int x = queue.begin()->second;
    queue.erase(queue.begin());
    std::set<int> touched = g.in[x];
    removals.push_back(removeNode(g, x));
    for (int y : touched) {
      if (!remove[y] || !g.alive[y]) continue;
      queue.erase({degree[y], y});
      degree[y] = g.out[y].size();
      queue.insert({degree[y], y});
    }
  }
  return removals;
}

double logOccupation(const RateGraph& graph, int node) {
  return graph.logEquilibrium.empty() ? 0.0 : graph.logEquilibrium[node];
}

/// Rates from `source` to `target` on the graph reduced to A and B.
SetToSetRates ratesBetween(const RateGraph& graph, const BranchingGraph& reduced,
                           const std::vector<double>& originalTau, const std::vector<int>& source,
                           const std::vector<bool>& inTarget, double logSource) {
  SetToSetRates r;
  double connectedWeight = 0.0, weightedTime = 0.0;
  std::vector<bool> otherSources(reduced.out.size(), false);
  for (int s : source) otherSources[s] = reduced.alive[s];
  for (int s : source) {
    if (!reduced.alive[s]) continue;
    const double w = std::exp(logOccupation(graph, s) - logSource);
    double toTarget = 0.0;
    for (const auto& [y, p] : reduced.out[s]) toTarget += inTarget[y] ? p : 0.0;
    r.kNSS += w * toTarget / reduced.tau[s];
    r.kSS += w * toTarget / originalTau[s];
    BranchingGraph alone = reduced;  // only A and B are left: small
    otherSources[s] = false;
    removeAll(alone, otherSources);
    otherSources[s] = true;
    const double firstPassage = alone.tau[s] / alone.escape(s);
    r.k += w / firstPassage;
    connectedWeight += w;
    weightedTime += w * firstPassage;
  }
  r.meanFirstPassageTime = connectedWeight > 0.0 ? weightedTime / connectedWeight : HUGE_VAL;
  return r;
}

void checkSets(const RateGraph& graph, const std::vector<int>& a, const std::vector<int>& b) {
  if (a.empty() || b.empty()) {
    throw std::invalid_argument("graphTransformationRates: sets A and B must not be empty");
  }
  std::vector<int> label(graph.nodes, 0);
  for (int pass = 0; pass < 2; ++pass) {
    for (int x : pass == 0 ? a : b) {
      if (x < 0 || x >= graph.nodes) {
        throw std::invalid_argument("graphTransformationRates: set " +
                                    std::string(pass == 0 ? "A" : "B") + " names node " +
                                    std::to_string(x) + ", outside 0.." +
                                    std::to_string(graph.nodes - 1));
      }
      if (label[x] != 0) {
        throw std::invalid_argument("graphTransformationRates: node " + std::to_string(x) +
                                    " is listed twice in A and B");
      }
      label[x] = pass + 1;
    }
  }
}

}  // namespace

double GraphTransformationResult::detailedBalanceK() const {
  return aFromB.k * std::exp(logOccupationB - logOccupationA) / bFromA.k;
}
double GraphTransformationResult::detailedBalanceKSS() const {
  return aFromB.kSS * std::exp(logOccupationB - logOccupationA) / bFromA.kSS;
}
double GraphTransformationResult::detailedBalanceKNSS() const {
  return aFromB.kNSS * std::exp(logOccupationB - logOccupationA) / bFromA.kNSS;
}

GraphTransformationResult graphTransformationRates(const RateGraph& graph,
                                                   const std::vector<int>& a,
                                                   const std::vector<int>& b) {
  graph.check();
  checkSets(graph, a, b);
  const std::vector<bool> fromA = reachable(graph, a), fromB = reachable(graph, b);
  std::vector<bool> keep(graph.nodes), inA(graph.nodes, false), inB(graph.nodes, false);
  for (int x : a) inA[x] = true;
  for (int x : b) inB[x] = true;
  GraphTransformationResult result;
  for (int x = 0; x < graph.nodes; ++x) {
    keep[x] = fromA[x] && fromB[x];
    result.connectedNodes += keep[x] ? 1 : 0;
  }
  if (result.connectedNodes == 0) {
    throw std::runtime_error("no minimum of set A is connected to a minimum of set B");
  }
  BranchingGraph g = initialGraph(graph, keep);
  const std::vector<double> originalTau = g.tau;
  std::vector<bool> intermediate(graph.nodes);
  for (int x = 0; x < graph.nodes; ++x) intermediate[x] = !inA[x] && !inB[x];
  const std::vector<Removal> removals = removeAll(g, intermediate);

  auto logSum = [&](const std::vector<int>& set) {
    std::vector<double> logs;
    for (int x : set) logs.push_back(logOccupation(graph, x));
    return logSumExp(logs);
  };
  result.logOccupationA = logSum(a);
  result.logOccupationB = logSum(b);
  result.aFromB = ratesBetween(graph, g, originalTau, b, inA, result.logOccupationB);
  result.bFromA = ratesBetween(graph, g, originalTau, a, inB, result.logOccupationA);

  result.committorA.assign(graph.nodes, kNaN);
  for (int x = 0; x < graph.nodes; ++x) {
    if (keep[x] && (inA[x] || inB[x])) result.committorA[x] = inA[x] ? 1.0 : 0.0;
  }
  for (auto removal = removals.rbegin(); removal != removals.rend(); ++removal) {
    double sum = 0.0;
    for (const auto& [y, p] : removal->out) sum += p * result.committorA[y];
    result.committorA[removal->node] = sum / removal->escape;
  }
  return result;
}

}  // namespace landscape
