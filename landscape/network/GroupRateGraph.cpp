#include "landscape/network/GroupRateGraph.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

namespace {

// ln sum exp(values), stably; -inf for none.
double logSumExp(const std::vector<double>& values) {
  if (values.empty()) return -HUGE_VAL;
  const double top = *std::max_element(values.begin(), values.end());
  if (top == -HUGE_VAL) return top;
  double sum = 0.0;
  for (double v : values) sum += std::exp(v - top);
  return top + std::log(sum);
}

}  // namespace

RateGraph groupRateGraph(const RateGraph& minima, const FreeEnergyGroups& groups) {
  minima.check();
  if (static_cast<int>(groups.groupOfMinimum.size()) != minima.nodes)
    throw std::invalid_argument("groupRateGraph: " + std::to_string(groups.groupOfMinimum.size()) +
                                " minima grouped, the rate graph has " +
                                std::to_string(minima.nodes));
  if (minima.logEquilibrium.empty())
    throw std::invalid_argument("groupRateGraph: the minima need equilibrium weights");
  const int count = static_cast<int>(groups.members.size());
  RateGraph out;
  out.nodes = count;
  out.logEquilibrium.resize(static_cast<std::size_t>(count));
  for (int g = 0; g < count; ++g) {
    std::vector<double> weights;
    for (int m : groups.members[static_cast<std::size_t>(g)])
      weights.push_back(minima.logEquilibrium[static_cast<std::size_t>(m)]);
    out.logEquilibrium[static_cast<std::size_t>(g)] = logSumExp(weights);
  }
  // One edge per minimum-to-minimum edge across groups; RateGraph adds parallel edges.
  for (const RateEdge& e : minima.edges) {
    const int from = groups.groupOfMinimum[static_cast<std::size_t>(e.from)];
    const int to = groups.groupOfMinimum[static_cast<std::size_t>(e.to)];
    if (from == to) continue;
    out.edges.push_back({from, to,
                         minima.logEquilibrium[static_cast<std::size_t>(e.from)] + e.logRate -
                             out.logEquilibrium[static_cast<std::size_t>(from)]});
  }
  return out;
}

std::vector<int> groupsOf(const std::vector<int>& set, const FreeEnergyGroups& groups) {
  std::vector<int> out;
  for (int m : set) {
    if (m < 0 || m >= static_cast<int>(groups.groupOfMinimum.size()))
      throw std::invalid_argument("groupsOf: minimum " + std::to_string(m) +
                                  " is not among the grouped minima");
    out.push_back(groups.groupOfMinimum[static_cast<std::size_t>(m)]);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace landscape
