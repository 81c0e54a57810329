#include "landscape/network/GraphTransformation.h"

#include <algorithm>
#include <cfloat>
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
constexpr double kLogZero = -HUGE_VAL;

// Every quantity of the transformation is a sum of products of positive numbers, so it is kept as
// its natural logarithm and sums become log-sum-exp: no subtraction (1 - P(x -> x) is the sum of
// the other branching probabilities, Sharpe and Wales, Phil. Trans. R. Soc. A (2023)), and no
// underflow or overflow whatever the spread of the rates (low temperatures, high barriers).

/// ln(e^a + e^b), exact to rounding for any a, b (either may be -inf).
double logAdd(double a, double b) {
  if (a < b) std::swap(a, b);
  if (b == kLogZero) return a;
  return a + std::log1p(std::exp(b - a));
}

double logSumExp(const std::vector<double>& values) {
  double top = kLogZero;
  for (double v : values) top = std::max(top, v);
  if (top == kLogZero) return top;
  double sum = 0.0;
  for (double v : values) sum += std::exp(v - top);
  return top + std::log(sum);
}

/// Branching probabilities and waiting times of the minima still in the graph, as logarithms. A
/// node's self-branching probability is not stored: 1 - P(x -> x) is the sum of its `logOut`
/// entries.
struct BranchingGraph {
  std::vector<std::map<int, double>> logOut;  // ln P(x -> y), y != x
  std::vector<std::set<int>> in;              // nodes b with an entry P(b -> x)
  std::vector<double> logTau;                 // ln of the waiting times
  std::vector<bool> alive;

  double logEscape(int x) const {
    std::vector<double> logs;
    logs.reserve(logOut[x].size());
    for (const auto& [y, lp] : logOut[x]) logs.push_back(lp);
    return logSumExp(logs);
  }
};

/// What the removal of one node leaves for the committors' back-substitution.
struct Removal {
  int node;
  std::map<int, double> logOut;
  double logEscape;
};

// Trygubenko and Wales (2006), eqs. for the removal of node x:
//   P(b -> g) += P(b -> x) P(x -> g) / (1 - P(x -> x)),  tau_b += P(b -> x) tau_x / (1 - P(x -> x))
Removal removeNode(BranchingGraph& g, int x) {
  const double logEscape = g.logEscape(x);
  const std::set<int> predecessors = g.in[x];
  for (int b : predecessors) {
    auto entry = g.logOut[b].find(x);
    const double logFactor = entry->second - logEscape;
    g.logOut[b].erase(entry);
    g.logTau[b] = logAdd(g.logTau[b], logFactor + g.logTau[x]);
    for (const auto& [y, lp] : g.logOut[x]) {
      if (y == b) continue;  // back to b: joins b's self-branching probability
      auto [slot, added] = g.logOut[b].emplace(y, logFactor + lp);
      if (!added) slot->second = logAdd(slot->second, logFactor + lp);
      g.in[y].insert(b);
    }
  }
  for (const auto& [y, lp] : g.logOut[x]) g.in[y].erase(x);
  Removal removal{x, std::move(g.logOut[x]), logEscape};
  g.logOut[x].clear();
  g.in[x].clear();
  g.alive[x] = false;
  return removal;
}

/// Nodes reachable from `start` along edges of non-zero rate (undirected).
std::vector<bool> reachable(const RateGraph& graph, const std::vector<int>& start) {
  std::vector<std::vector<int>> neighbours(graph.nodes);
  for (const RateEdge& e : graph.edges) {
    if (e.from == e.to || e.logRate == kLogZero) continue;
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
    if (e.from == e.to || e.logRate == kLogZero || !keep[e.from] || !keep[e.to]) continue;
    logRates[e.from][e.to].push_back(e.logRate);
  }
  BranchingGraph g;
  g.logOut.resize(graph.nodes);
  g.in.resize(graph.nodes);
  g.logTau.assign(graph.nodes, kNaN);
  g.alive = keep;
  for (int x = 0; x < graph.nodes; ++x) {
    if (!keep[x]) continue;
    std::vector<double> perNeighbour;
    for (const auto& [y, list] : logRates[x]) perNeighbour.push_back(logSumExp(list));
    const double logTotal = logSumExp(perNeighbour);
    g.logTau[x] = -logTotal;  // tau_x = 1 / sum_y k(x -> y)
    std::size_t i = 0;
    for (const auto& [y, list] : logRates[x]) {
      g.logOut[x][y] = perNeighbour[i++] - logTotal;  // P(x -> y) = k(x -> y) tau_x
      g.in[y].insert(x);
    }
  }
  return g;
}

/// Removes every live node for which `remove` is true, fewest neighbours first (less fill-in).
std::vector<Removal> removeAll(BranchingGraph& g, const std::vector<bool>& remove) {
  std::set<std::pair<std::size_t, int>> queue;
  std::vector<std::size_t> degree(g.logOut.size(), 0);
  for (std::size_t x = 0; x < g.logOut.size(); ++x) {
    if (!g.alive[x] || !remove[x]) continue;
    degree[x] = g.logOut[x].size();
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
      degree[y] = g.logOut[y].size();
      queue.insert({degree[y], y});
    }
  }
  return removals;
}

double logOccupation(const RateGraph& graph, int node) {
  return graph.logEquilibrium.empty() ? 0.0 : graph.logEquilibrium[node];
}

/// Rates from `source` to `target` on the graph reduced to A and B; for each source node, the
/// probability of reaching the target before returning to the source set.
SetToSetRates ratesBetween(const RateGraph& graph, const BranchingGraph& reduced,
                           const std::vector<double>& originalLogTau,
                           const std::vector<int>& source, const std::vector<bool>& inTarget,
                           double logSource, std::vector<double>& logOtherSetFirst) {
  std::vector<double> kTerms, kssTerms, knssTerms, weights, weightedTimes;
  std::vector<bool> otherSources(reduced.logOut.size(), false);
  for (int s : source) otherSources[s] = reduced.alive[s];
  for (int s : source) {
    if (!reduced.alive[s]) continue;
    const double logW = logOccupation(graph, s) - logSource;  // ln p_s / p_S
    std::vector<double> toTarget;
    for (const auto& [y, lp] : reduced.logOut[s])
      if (inTarget[y]) toTarget.push_back(lp);
    const double logCommit = logSumExp(toTarget);
    logOtherSetFirst[s] = logCommit;
    knssTerms.push_back(logW + logCommit - reduced.logTau[s]);
    kssTerms.push_back(logW + logCommit - originalLogTau[s]);
    BranchingGraph alone = reduced;  // only A and B are left: small
    otherSources[s] = false;
    removeAll(alone, otherSources);
    otherSources[s] = true;
    const double logFirstPassage = alone.logTau[s] - alone.logEscape(s);
    kTerms.push_back(logW - logFirstPassage);
    weights.push_back(logW);
    weightedTimes.push_back(logW + logFirstPassage);
  }
  SetToSetRates r;
  r.logK = logSumExp(kTerms);
  r.logKSS = logSumExp(kssTerms);
  r.logKNSS = logSumExp(knssTerms);
  r.logMeanFirstPassageTime =
      weights.empty() ? HUGE_VAL : logSumExp(weightedTimes) - logSumExp(weights);
  return r.inUnits(1.0);
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

/// Committors by back-substitution in reverse order of removal: q(x) = sum_y P(x -> y) q(y) /
/// (1 - P(x -> x)) over the neighbours x had when it was removed (all removed later or endpoints).
std::vector<double> logCommittors(const std::vector<Removal>& removals,
                                  std::vector<double> logCommittor) {
  for (auto removal = removals.rbegin(); removal != removals.rend(); ++removal) {
    std::vector<double> terms;
    for (const auto& [y, lp] : removal->logOut) terms.push_back(lp + logCommittor[y]);
    logCommittor[removal->node] = logSumExp(terms) - removal->logEscape;
  }
  return logCommittor;
}

}  // namespace

SetToSetRates SetToSetRates::inUnits(double rateFactor) const {
  const double lnFactor = std::log(rateFactor);
  SetToSetRates r = *this;
  r.logK += lnFactor;
  r.logKSS += lnFactor;
  r.logKNSS += lnFactor;
  r.logMeanFirstPassageTime -= lnFactor;
  r.k = std::exp(r.logK);
  r.kSS = std::exp(r.logKSS);
  r.kNSS = std::exp(r.logKNSS);
  r.meanFirstPassageTime = std::exp(r.logMeanFirstPassageTime);
  return r;
}

bool SetToSetRates::representable() const {
  for (double v : {k, kSS, kNSS, meanFirstPassageTime})
    if (!(v >= DBL_MIN && v <= DBL_MAX)) return false;
  return true;
}

double GraphTransformationResult::detailedBalanceK() const {
  return std::exp(aFromB.logK + logOccupationB - logOccupationA - bFromA.logK);
}
double GraphTransformationResult::detailedBalanceKSS() const {
  return std::exp(aFromB.logKSS + logOccupationB - logOccupationA - bFromA.logKSS);
}
double GraphTransformationResult::detailedBalanceKNSS() const {
  return std::exp(aFromB.logKNSS + logOccupationB - logOccupationA - bFromA.logKNSS);
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
  const std::vector<double> originalLogTau = g.logTau;
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
  std::vector<double> logOtherSetFirst(graph.nodes, kNaN);
  result.aFromB =
      ratesBetween(graph, g, originalLogTau, b, inA, result.logOccupationB, logOtherSetFirst);
  result.bFromA =
      ratesBetween(graph, g, originalLogTau, a, inB, result.logOccupationA, logOtherSetFirst);
  result.otherSetBeforeReturn.assign(graph.nodes, kNaN);
  for (int x = 0; x < graph.nodes; ++x) {
    if (!std::isnan(logOtherSetFirst[x]))
      result.otherSetBeforeReturn[x] = std::exp(logOtherSetFirst[x]);
  }

  // Committors to A and to B, each from its own boundary values so that neither is formed as one
  // minus the other (a committor of 1e-400 next to one of 1 - 1e-400 keeps its digits).
  std::vector<double> boundaryA(graph.nodes, kNaN), boundaryB(graph.nodes, kNaN);
  for (int x = 0; x < graph.nodes; ++x) {
    if (!keep[x] || !(inA[x] || inB[x])) continue;
    boundaryA[x] = inA[x] ? 0.0 : kLogZero;
    boundaryB[x] = inB[x] ? 0.0 : kLogZero;
  }
  const std::vector<double> logA = logCommittors(removals, boundaryA);
  const std::vector<double> logB = logCommittors(removals, boundaryB);
  result.committorA.assign(graph.nodes, kNaN);
  result.committorB.assign(graph.nodes, kNaN);
  for (int x = 0; x < graph.nodes; ++x) {
    if (!keep[x]) continue;
    result.committorA[x] = std::exp(logA[x]);
    result.committorB[x] = std::exp(logB[x]);
  }
  return result;
}

}  // namespace landscape
