#include "landscape/paths/Connect.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "landscape/core/Require.h"

namespace landscape {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Grows a row-major n x n count matrix to m x m, keeping the counts.
void resizeTries(std::vector<int>& tries, std::size_t n, std::size_t m) {
  if (m == n) return;
  std::vector<int> grown(m * m, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) grown[i * m + j] = tries[i * n + j];
  }
  tries.swap(grown);
}

}  // namespace

void ConnectParams::check() const {
  require(maxCycles >= 1, "connect maxCycles must be >= 1");
  require(maxTriesPerPair >= 1, "connect maxTriesPerPair must be >= 1");
  require(std::isfinite(distancePower) && distancePower > 0.0, "connect distancePower must be > 0");
  require(firstImages >= 0, "connect firstImages must be >= 0 (0 = scaled with the distance)");
  require(firstIterations >= 0,
          "connect firstIterations must be >= 0 (0 = scaled with the image count)");
  const auto nested = [](const auto& params, const char* name) {
    try {
      params.check();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("connect ") + name + ": " + e.what());
    }
  };
  nested(dneb, "dneb");
  nested(transitionStateSearch, "transitionStateSearch");
  nested(descent, "descent");
}

std::string connectStatusName(ConnectStatus status) {
  switch (status) {
    case ConnectStatus::Connected:
      return "connected";
    case ConnectStatus::MaxCycles:
      return "cycle limit";
    case ConnectStatus::NoPairsLeft:
      return "no untried pairs left";
  }
  return "unknown";
}

Connect::Connect(const ConnectParams& params) : m_params(params) { m_params.check(); }

std::vector<int> Connect::shortestPath(const TransitionNetwork& network, int start, int finish,
                                       const std::vector<int>& tries) const {
  const int n = static_cast<int>(network.minima().size());
  if (start < 0 || start >= n || finish < 0 || finish >= n) {
    throw std::invalid_argument("connect: start and finish must be known minima");
  }
  if (tries.size() != static_cast<std::size_t>(n) * n) {
    throw std::invalid_argument("connect: the tries matrix must be minima x minima");
  }
  // Dense Dijkstra on the complete graph (O(n^2), distances cached by the network).
  std::vector<double> cost(n, kInfinity);
  std::vector<int> previous(n, -1);
  std::vector<bool> done(n, false);
  cost[start] = 0.0;
  for (int round = 0; round < n; ++round) {
    int u = -1;
    for (int i = 0; i < n; ++i) {
      if (!done[i] && cost[i] < kInfinity && (u < 0 || cost[i] < cost[u])) u = i;
    }
    if (u < 0 || u == finish) break;
    done[u] = true;
    for (int v = 0; v < n; ++v) {
      if (done[v] || v == u) continue;
      double w;
      if (network.directlyConnected(u, v)) {
        w = 0.0;  // a known connection
      } else if (tries[static_cast<std::size_t>(u) * n + v] >= m_params.maxTriesPerPair) {
        continue;  // tried enough: excluded
      } else {
        w = std::pow(network.distance(u, v), m_params.distancePower);
      }
      if (cost[u] + w < cost[v]) {
        cost[v] = cost[u] + w;
        previous[v] = u;
      }
    }
  }
  if (!(cost[finish] < kInfinity)) return {};
  std::vector<int> path;
  for (int m = finish; m != -1; m = previous[m]) path.insert(path.begin(), m);
  return path;
}

ConnectResult Connect::connect(Potential& potential, TransitionNetwork& network, int start,
                               int finish, const ConnectObserver& observer) const {
  const int known = static_cast<int>(network.minima().size());
  if (start < 0 || start >= known || finish < 0 || finish >= known) {
    throw std::invalid_argument("connect: start " + std::to_string(start) + " and finish " +
                                std::to_string(finish) + " must be known minima (0.." +
                                std::to_string(known - 1) + ")");
  }
  if (network.minima().front().coordinates.size() != potential.dimension()) {
    throw std::invalid_argument("connect: the network's coordinates do not match the potential");
  }
  ConnectResult result;
  std::size_t size = network.minima().size();
  std::vector<int> tries(size * size, 0);
  const HybridEigenvectorFollowing search(m_params.transitionStateSearch);
  const TransitionStateDescent descent(m_params.descent);

  for (int cycle = 1; cycle <= m_params.maxCycles; ++cycle) {
    if (network.connected(start, finish)) break;
    result.cycles = cycle;
    resizeTries(tries, size, network.minima().size());
    size = network.minima().size();
    const std::vector<int> chain = shortestPath(network, start, finish, tries);
    if (chain.empty()) {
      result.status = ConnectStatus::NoPairsLeft;
      return result;
    }
    ConnectCycle info{cycle, network.minima().size(), network.transitionStates().size(), 0.0, {},
                      {}};
    for (std::size_t k = 0; k + 1 < chain.size(); ++k) {
      if (network.directlyConnected(chain[k], chain[k + 1])) continue;
      info.missingLinks.emplace_back(chain[k], chain[k + 1]);
      info.distances.push_back(network.distance(chain[k], chain[k + 1]));
      info.pathWeight += std::pow(info.distances.back(), m_params.distancePower);
    }
    if (observer.onCycle) observer.onCycle(info);

    for (std::size_t link = 0; link < info.missingLinks.size(); ++link) {
      const auto [a, b] = info.missingLinks[link];
      tries[static_cast<std::size_t>(a) * size + b] += 1;
      tries[static_cast<std::size_t>(b) * size + a] += 1;
      DnebParams dp = m_params.dneb;
      if (result.dnebRuns == 0) {
        if (m_params.firstImages > 0) dp.images = m_params.firstImages;
        if (m_params.firstIterations > 0) dp.iterations = m_params.firstIterations;
      }
      // Copies: the network may grow (and reallocate) while this pair is processed.
      const std::vector<double> from = network.minima()[a].coordinates;
      const std::vector<double> to = network.minima()[b].coordinates;
      const DnebResult band = Dneb(dp).run(potential, from, to);
      ++result.dnebRuns;
      result.gradientCalls += band.functionCalls;

      ConnectAttempt attempt{cycle,
                             a,
                             b,
                             info.distances[link],
                             band.interiorImages,
                             band.iterationLimit,
                             band.iterations,
                             band.rmsGradient,
                             static_cast<int>(band.candidates.size()),
                             0,
                             0,
                             0};
      for (int candidate : band.candidates) {
        const TransitionStateResult ts =
            search.findTransitionState(potential, band.images[candidate], band.tangents[candidate]);
        ++result.transitionStateSearches;
        result.gradientCalls += ts.gradientCalls;
        if (!ts.converged()) continue;
        ++attempt.convergedSearches;
        if (network.findTransitionState(ts.coordinates, ts.energy) >= 0) continue;
        const TransitionStateDescentResult sides =
            descent.descend(potential, ts.coordinates, ts.eigenvector);
        result.gradientCalls +=
            sides.plus.minimisation.functionCalls + sides.minus.minimisation.functionCalls;
        if (!sides.converged()) continue;
        const TransitionNetwork::Added plus =
            network.addMinimum(sides.plus.coordinates, sides.plus.energy);
        const TransitionNetwork::Added minus =
            network.addMinimum(sides.minus.coordinates, sides.minus.energy);
        attempt.newMinima += plus.isNew + minus.isNew;
        if (plus.index == minus.index) continue;  // both sides in one basin: no connection
        const TransitionNetwork::Added added = network.addTransitionState(
            ts.coordinates, ts.energy, ts.eigenvalue, plus.index, minus.index);
        attempt.newTransitionStates += added.isNew;
      }
      if (observer.onAttempt) observer.onAttempt(attempt);
      if (network.connected(start, finish)) break;
    }
  }
  if (network.connected(start, finish)) {
    result.status = ConnectStatus::Connected;
    result.path = network.path(start, finish);
  }
  return result;
}

}  // namespace landscape
