#include "landscape/network/KineticMonteCarlo.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace landscape {

namespace {

/// Per node: neighbours and the cumulative branching probabilities to them, and the mean waiting
/// time. Rates are summed in linear space relative to the node's largest rate (exp of the log
/// differences), so that no rate overflows.
struct Jumps {
  std::vector<int> to;
  std::vector<double> cumulative;
  double meanWait = 0.0;
};

std::vector<Jumps> jumpsOf(const RateGraph& graph) {
  std::vector<std::vector<RateEdge>> out(graph.nodes);
  for (const RateEdge& e : graph.edges)
    if (e.from != e.to) out[e.from].push_back(e);
  std::vector<Jumps> jumps(graph.nodes);
  for (int x = 0; x < graph.nodes; ++x) {
    if (out[x].empty()) continue;
    double largest = out[x].front().logRate;
    for (const RateEdge& e : out[x]) largest = std::max(largest, e.logRate);
    double sum = 0.0;
    for (const RateEdge& e : out[x]) {
      sum += std::exp(e.logRate - largest);
      jumps[x].to.push_back(e.to);
      jumps[x].cumulative.push_back(sum);
    }
    for (double& c : jumps[x].cumulative) c /= sum;
    jumps[x].cumulative.back() = 1.0;
    jumps[x].meanWait = std::exp(-largest) / sum;  // 1 / sum_y k(x -> y)
  }
  return jumps;
}

}  // namespace

std::vector<KmcPassage> kmcFirstPassages(const RateGraph& graph, const std::vector<int>& a,
                                         const std::vector<int>& b, int runs, std::uint64_t seed,
                                         long long maxSteps) {
  graph.check();
  if (a.empty() || b.empty()) throw std::invalid_argument("kmcFirstPassages: empty set A or B");
  if (runs < 1) throw std::invalid_argument("kmcFirstPassages: runs must be >= 1");
  std::vector<char> inA(graph.nodes, 0);
  for (int x : a) {
    if (x < 0 || x >= graph.nodes) throw std::invalid_argument("kmcFirstPassages: bad node in A");
    inA[x] = 1;
  }
  for (int x : b) {
    if (x < 0 || x >= graph.nodes || inA[x])
      throw std::invalid_argument("kmcFirstPassages: a node of B is out of range or in A");
  }
  const std::vector<Jumps> jumps = jumpsOf(graph);
  // Every trajectory must be able to end: some minimum of A reachable from the starts.
  std::vector<char> seen(graph.nodes, 0);
  std::vector<int> stack(b.begin(), b.end());
  bool reachable = false;
  while (!stack.empty() && !reachable) {
    const int x = stack.back();
    stack.pop_back();
    if (seen[x]) continue;
    seen[x] = 1;
    reachable = inA[x] != 0;
    for (int y : jumps[x].to) stack.push_back(y);
  }
  if (!reachable)
    throw std::runtime_error("no minimum of set A can be reached from a minimum of set B");
  // Starts: p_b / p_B over B (equal weights when the graph has none).
  std::vector<double> startWeights;
  double largest = -INFINITY;
  for (int x : b) largest = std::max(largest, graph.logEquilibrium.empty() ? 0.0 : graph.logEquilibrium[x]);
  for (int x : b)
    startWeights.push_back(graph.logEquilibrium.empty() ? 1.0
                                                        : std::exp(graph.logEquilibrium[x] - largest));
  std::mt19937_64 random(seed);
  std::discrete_distribution<int> start(startWeights.begin(), startWeights.end());
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::exponential_distribution<double> wait(1.0);
  std::vector<KmcPassage> passages;
  passages.reserve(runs);
  for (int run = 0; run < runs; ++run) {
    KmcPassage p;
    int x = b[start(random)];
    while (!inA[x]) {
      const Jumps& j = jumps[x];
      if (j.to.empty())  // only a start without connections can get here
        throw std::runtime_error("a minimum of set B (node " + std::to_string(x + 1) +
                                 ") has no connections");
      if (++p.steps > maxSteps)
        throw std::runtime_error("a kinetic Monte Carlo trajectory made more than " +
                                 std::to_string(maxSteps) +
                                 " transitions without reaching A; the graph transformation "
                                 "(rates) gives the mean first-passage time without sampling");
      p.time += j.meanWait * wait(random);
      const double u = uniform(random);
      x = j.to[std::upper_bound(j.cumulative.begin(), j.cumulative.end(), u) -
               j.cumulative.begin()];
    }
    passages.push_back(p);
  }
  return passages;
}

}  // namespace landscape
