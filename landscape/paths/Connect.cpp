#include "landscape/paths/Connect.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "landscape/core/Require.h"
#include "landscape/core/StopRequest.h"
#include "landscape/paths/TransitionStateSearches.h"

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
    case ConnectStatus::Stopped:
      return "stopped on request";
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

namespace {

// One connect run between two minima of a network: OPTIM's NEWCONNECT cycles, each a Dijkstra
// path whose missing links get a DNEB run, whose candidates get a transition-state search and a
// descent to their two minima. The attempt counts per pair grow with the network.
class ConnectRun {
 public:
  ConnectRun(const Connect& connect, Potential& potential, TransitionNetwork& network, int start,
             int finish, const ConnectObserver& observer, const ConnectBatching& batching)
      : m_connect(connect),
        m_params(connect.params()),
        m_potential(potential),
        m_network(network),
        m_start(start),
        m_finish(finish),
        m_observer(observer),
        m_batching(batching),
        m_size(network.minima().size()),
        m_tries(m_size * m_size, 0),
        m_search(m_params.transitionStateSearch),
        m_descent(m_params.descent) {}

  /// Takes over the counters and attempt counts of a run saved after progress.cycles cycles.
  void restore(const ConnectProgress& progress) {
    const std::size_t n = progress.triesSize;
    if (n > m_size || progress.tries.size() != n * n || progress.cycles < 0)
      throw std::invalid_argument(
          "connect: the saved progress does not fit the network (" + std::to_string(n) +
          " minima in the attempt counts, " + std::to_string(m_size) + " in the network)");
    m_tries = progress.tries;
    resizeTries(m_tries, n, m_size);
    m_result.cycles = progress.cycles;
    m_result.dnebRuns = progress.dnebRuns;
    m_result.transitionStateSearches = progress.transitionStateSearches;
    m_result.gradientCalls = progress.gradientCalls;
  }

  ConnectResult run() {
    for (int cycle = m_result.cycles + 1; cycle <= m_params.maxCycles; ++cycle) {
      if (m_network.connected(m_start, m_finish)) break;
      if (stopRequested()) {
        m_result.status = ConnectStatus::Stopped;
        return m_result;
      }
      m_result.cycles = cycle;
      if (!connectCycle(cycle)) {
        m_result.status = ConnectStatus::NoPairsLeft;
        return m_result;
      }
      if (stopRequested()) {
        m_result.status = ConnectStatus::Stopped;
        return m_result;
      }
      if (m_observer.onCycleEnd) m_observer.onCycleEnd(progress());
    }
    if (m_network.connected(m_start, m_finish)) {
      m_result.status = ConnectStatus::Connected;
      m_result.path = m_network.path(m_start, m_finish);
    }
    return m_result;
  }

 private:
  ConnectProgress progress() const {
    return {m_result.cycles, m_result.dnebRuns, m_result.transitionStateSearches,
            m_result.gradientCalls, m_size, m_tries};
  }

  // One cycle: the shortest path under the current costs and a DNEB run for each of its missing
  // links, until the endpoints are connected. False when no path is left.
  bool connectCycle(int cycle) {
    resizeTries(m_tries, m_size, m_network.minima().size());
    m_size = m_network.minima().size();
    if (m_batching.alignments && m_network.alignsClusters()) {
      std::vector<std::pair<int, int>> pairs;
      for (std::size_t a = 0; a < m_size; ++a)
        for (std::size_t b = a + 1; b < m_size; ++b)
          if (m_tries[a * m_size + b] < m_params.maxTriesPerPair &&
              !m_network.directlyConnected(static_cast<int>(a), static_cast<int>(b)))
            pairs.emplace_back(static_cast<int>(a), static_cast<int>(b));
      if (!m_network.precomputeDistances(pairs, *m_batching.alignments, stopRequested))
        return true;  // stopped: the cycle is abandoned
    }
    const std::vector<int> chain = m_connect.shortestPath(m_network, m_start, m_finish, m_tries);
    if (chain.empty()) return false;
    const ConnectCycle info = missingLinks(cycle, chain);
    if (m_observer.onCycle) m_observer.onCycle(info);
    std::vector<LinkWork> ahead;
    if (m_batching.searches && m_batching.descents && info.missingLinks.size() > 1) {
      ahead = bandsAndSearchesTogether(info);
      if (stopRequested()) return true;  // the cycle is abandoned
    }
    for (std::size_t link = 0; link < info.missingLinks.size(); ++link) {
      tryPair(cycle, info.missingLinks[link], info.distances[link],
              ahead.empty() ? nullptr : &ahead[link]);
      if (m_network.connected(m_start, m_finish) || stopRequested()) break;
    }
    return true;
  }

  // A missing link's DNEB band and the hybrid EF searches of its candidates, computed ahead.
  struct LinkWork {
    DnebResult band;
    std::vector<TransitionStateResult> found;  // one per band candidate
  };

  // The bands of every missing link of the cycle and their candidates' searches side by side
  // (each depends on its link's two minima alone, so each is what tryPair would compute when it
  // reached the link); tryPair then takes them in link order and the network grows exactly as
  // when links are tried one after the other. The links after the one that connects the
  // endpoints were computed for nothing (they are never reported or counted).
  std::vector<LinkWork> bandsAndSearchesTogether(const ConnectCycle& info) {
    std::vector<LinkWork> work(info.missingLinks.size());
    const bool firstRun = m_result.dnebRuns == 0;
    m_batching.searches->forEach(work.size(), [&](std::size_t k, SearchEngine& engine) {
      if (stopRequested()) return;
      const auto [a, b] = info.missingLinks[k];
      const Dneb dneb(bandParams(firstRun && k == 0));
      const std::vector<double>& from = m_network.minima()[a].coordinates;
      const std::vector<double>& to = m_network.minima()[b].coordinates;
      work[k].band = engine.bands ? dneb.run(from, to, *engine.bands)
                                  : dneb.run(engine.potential, from, to, {}, &engine.batched);
      if (stopRequested()) return;
      work[k].found = searchAll(work[k].band, engine.potential, engine.transitionStates);
    });
    return work;
  }

  // Hybrid EF from every candidate of a band: in one call of `whole` when given, else one search
  // after the other on `potential` (fewer results than candidates when a stop cut it short).
  std::vector<TransitionStateResult> searchAll(const DnebResult& band, Potential& potential,
                                               TransitionStateSearches* whole) const {
    std::vector<TransitionStateResult> found;
    if (whole) {
      std::vector<TransitionStateJob> jobs;
      for (int candidate : band.candidates) {
        const std::vector<double>& tangent = band.tangents[candidate];
        jobs.push_back({band.images[candidate].data(), tangent.empty() ? nullptr : tangent.data()});
      }
      whole->search(m_search.params(), jobs, found);
      return found;
    }
    for (int candidate : band.candidates) {
      if (stopRequested()) break;
      found.push_back(m_search.findTransitionState(potential, band.images[candidate],
                                                   band.tangents[candidate]));
    }
    return found;
  }

  // The DNEB settings of a run: the very first run of a connect with its own image and iteration
  // counts (OPTIM's NEWNEB line), later runs scaled with the distance by DnebParams.
  DnebParams bandParams(bool first) const {
    DnebParams dp = m_params.dneb;
    if (first) {
      if (m_params.firstImages > 0) dp.images = m_params.firstImages;
      if (m_params.firstIterations > 0) dp.iterations = m_params.firstIterations;
    }
    return dp;
  }

  ConnectCycle missingLinks(int cycle, const std::vector<int>& chain) const {
    ConnectCycle info{cycle, m_network.minima().size(), m_network.transitionStates().size(), 0.0,
                      {}, {}};
    for (std::size_t k = 0; k + 1 < chain.size(); ++k) {
      if (m_network.directlyConnected(chain[k], chain[k + 1])) continue;
      info.missingLinks.emplace_back(chain[k], chain[k + 1]);
      info.distances.push_back(m_network.distance(chain[k], chain[k + 1]));
      info.pathWeight += std::pow(info.distances.back(), m_params.distancePower);
    }
    return info;
  }

  // A DNEB run between minima a and b, then every candidate of the band; `ahead`: the band and
  // searches computed beforehand (bandsAndSearchesTogether), or null.
  void tryPair(int cycle, std::pair<int, int> pair, double distance, const LinkWork* ahead) {
    const auto [a, b] = pair;
    m_tries[static_cast<std::size_t>(a) * m_size + b] += 1;
    m_tries[static_cast<std::size_t>(b) * m_size + a] += 1;
    DnebResult computed;
    if (!ahead) {
      // Copies: the network may grow (and reallocate) while this pair is processed.
      const std::vector<double> from = m_network.minima()[a].coordinates;
      const std::vector<double> to = m_network.minima()[b].coordinates;
      const Dneb dneb(bandParams(m_result.dnebRuns == 0));
      computed = m_batching.bands ? dneb.run(from, to, *m_batching.bands)
                                  : dneb.run(m_potential, from, to, {}, m_batching.images);
    }
    const DnebResult& band = ahead ? ahead->band : computed;
    ++m_result.dnebRuns;
    m_result.gradientCalls += band.functionCalls;
    ConnectAttempt attempt{cycle,
                           a,
                           b,
                           distance,
                           band.interiorImages,
                           band.iterationLimit,
                           band.iterations,
                           band.rmsGradient,
                           static_cast<int>(band.candidates.size()),
                           0,
                           0,
                           0};
    if (m_batching.descents && !band.candidates.empty()) {
      if (searchCandidatesTogether(band, attempt, ahead ? &ahead->found : nullptr) &&
          m_observer.onAttempt)
        m_observer.onAttempt(attempt);
      return;
    }
    for (int candidate : band.candidates) {
      if (stopRequested()) return;  // the cycle is abandoned: no attempt to report
      searchCandidate(band, candidate, attempt);
    }
    if (m_observer.onAttempt) m_observer.onAttempt(attempt);
  }

  // Hybrid EF from a band maximum.
  TransitionStateResult search(const DnebResult& band, int candidate) {
    TransitionStateResult ts;
    if (m_batching.transitionStates) {
      const std::vector<double>& tangent = band.tangents[candidate];
      std::vector<TransitionStateResult> found;
      m_batching.transitionStates->search(
          m_search.params(),
          {{band.images[candidate].data(), tangent.empty() ? nullptr : tangent.data()}}, found);
      ts = std::move(found.front());
    } else {
      ts = m_search.findTransitionState(m_potential, band.images[candidate],
                                        band.tangents[candidate]);
    }
    ++m_result.transitionStateSearches;
    m_result.gradientCalls += ts.gradientCalls;
    return ts;
  }

  // A band maximum searched; a new transition state is descended to its two minima and joins the
  // network with them when they differ.
  void searchCandidate(const DnebResult& band, int candidate, ConnectAttempt& attempt) {
    const TransitionStateResult ts = search(band, candidate);
    if (!ts.converged()) return;
    ++attempt.convergedSearches;
    if (m_network.findTransitionState(ts.coordinates, ts.energy) >= 0) return;
    const TransitionStateDescentResult sides =
        m_descent.descend(m_potential, ts.coordinates, ts.eigenvector);
    countDescent(sides);
    addConnection(ts, sides, attempt);
  }

  // searchCandidate for every candidate of the band, the descents in one batch: every search
  // first (each depends on the band only), then both sides of every converged transition state
  // the network does not hold yet, then the network updates in candidate order exactly as
  // searchCandidate makes them (`ahead`: the searches made beforehand by
  // bandsAndSearchesTogether, or null). False when a stop request abandoned the cycle.
  bool searchCandidatesTogether(const DnebResult& band, ConnectAttempt& attempt,
                                const std::vector<TransitionStateResult>* ahead) {
    std::vector<TransitionStateResult> found;
    if (ahead || m_batching.searches) {
      if (ahead) {
        found = *ahead;
      } else if (m_batching.transitionStates) {
        found = searchAll(band, m_potential, m_batching.transitionStates);
      } else {
        found.resize(band.candidates.size());
        m_batching.searches->forEach(found.size(), [&](std::size_t k, SearchEngine& engine) {
          if (stopRequested()) return;
          const int candidate = band.candidates[k];
          found[k] = m_search.findTransitionState(engine.potential, band.images[candidate],
                                                  band.tangents[candidate]);
        });
      }
      if (stopRequested() || found.size() != band.candidates.size()) return false;
      for (const TransitionStateResult& ts : found) {  // counted as search() counts them
        ++m_result.transitionStateSearches;
        m_result.gradientCalls += ts.gradientCalls;
      }
    } else {
      for (int candidate : band.candidates) {
        if (stopRequested()) return false;
        found.push_back(search(band, candidate));
      }
    }
    std::vector<std::vector<double>> points, modes;
    std::vector<int> descentOf(found.size(), -1);  // index into the batch's results
    for (std::size_t k = 0; k < found.size(); ++k) {
      const TransitionStateResult& ts = found[k];
      if (!ts.converged() || m_network.findTransitionState(ts.coordinates, ts.energy) >= 0)
        continue;
      descentOf[k] = static_cast<int>(points.size());
      points.push_back(ts.coordinates);
      modes.push_back(ts.eigenvector);
    }
    const std::vector<TransitionStateDescentResult> sides =
        m_descent.descendTogether(m_potential, points, modes, *m_batching.descents);
    for (const TransitionStateDescentResult& s : sides) countDescent(s);
    for (std::size_t k = 0; k < found.size(); ++k) {
      if (stopRequested()) return false;
      if (!found[k].converged()) continue;
      ++attempt.convergedSearches;
      // An earlier candidate may have added this transition state since the batch was formed.
      if (descentOf[k] < 0 ||
          m_network.findTransitionState(found[k].coordinates, found[k].energy) >= 0)
        continue;
      addConnection(found[k], sides[descentOf[k]], attempt);
    }
    return true;
  }

  void countDescent(const TransitionStateDescentResult& sides) {
    m_result.gradientCalls +=
        sides.plus.minimisation.functionCalls + sides.minus.minimisation.functionCalls;
  }

  // The transition state and its two minima join the network when both sides converged to
  // different minima.
  void addConnection(const TransitionStateResult& ts, const TransitionStateDescentResult& sides,
                     ConnectAttempt& attempt) {
    if (!sides.converged()) return;
    const TransitionNetwork::Added plus =
        m_network.addMinimum(sides.plus.coordinates, sides.plus.energy);
    const TransitionNetwork::Added minus =
        m_network.addMinimum(sides.minus.coordinates, sides.minus.energy);
    attempt.newMinima += plus.isNew + minus.isNew;
    if (plus.index == minus.index) return;  // both sides in one basin: no connection
    const TransitionNetwork::Added added = m_network.addTransitionState(
        ts.coordinates, ts.energy, ts.eigenvalue, plus.index, minus.index);
    attempt.newTransitionStates += added.isNew;
  }

  const Connect& m_connect;
  const ConnectParams& m_params;
  Potential& m_potential;
  TransitionNetwork& m_network;
  const int m_start, m_finish;
  const ConnectObserver& m_observer;
  const ConnectBatching m_batching;
  ConnectResult m_result;
  std::size_t m_size;         // minima when m_tries was last resized
  std::vector<int> m_tries;   // DNEB attempts per pair, row-major m_size x m_size
  const HybridEigenvectorFollowing m_search;
  const TransitionStateDescent m_descent;
};

}  // namespace

void Connect::checkEndpoints(const Potential& potential, const TransitionNetwork& network,
                             int start, int finish) const {
  const int known = static_cast<int>(network.minima().size());
  if (start < 0 || start >= known || finish < 0 || finish >= known) {
    throw std::invalid_argument("connect: start " + std::to_string(start) + " and finish " +
                                std::to_string(finish) + " must be known minima (0.." +
                                std::to_string(known - 1) + ")");
  }
  if (network.minima().front().coordinates.size() != potential.dimension()) {
    throw std::invalid_argument("connect: the network's coordinates do not match the potential");
  }
}

ConnectResult Connect::connect(Potential& potential, TransitionNetwork& network, int start,
                               int finish, const ConnectObserver& observer,
                               const ConnectBatching& batching) const {
  checkEndpoints(potential, network, start, finish);
  return ConnectRun(*this, potential, network, start, finish, observer, batching).run();
}

ConnectResult Connect::resume(Potential& potential, TransitionNetwork& network, int start,
                              int finish, const ConnectProgress& progress,
                              const ConnectObserver& observer,
                              const ConnectBatching& batching) const {
  checkEndpoints(potential, network, start, finish);
  ConnectRun run(*this, potential, network, start, finish, observer, batching);
  run.restore(progress);
  return run.run();
}

}  // namespace landscape
