#include "landscape/network/TransitionNetwork.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"

namespace landscape {

namespace {

// Pairs per call of a batched alignment in precomputeDistances: enough to fill a GPU (a block per
// pair), few enough that a stop request is heard within a call of default alignments.
constexpr std::size_t kBatchedDistances = 2048;

// The entry an add duplicates. Entries are only ever appended, so an equal one among the first
// `held` that an earlier lookup found is the first equal one of all, and where it found none only
// the entries added since are left to compare. `findFrom(k)`: the first equal one from index k on.
template <class FindFrom>
int duplicated(const TransitionNetwork::EarlierLookup* earlier, FindFrom findFrom) {
  if (earlier == nullptr) return findFrom(0);
  if (earlier->found >= 0) return earlier->found;
  return findFrom(earlier->held);
}

}  // namespace

void TransitionNetworkParams::check() const {
  require(std::isfinite(energyTolerance) && energyTolerance >= 0.0,
          "network energyTolerance (EDIFFTOL) must be >= 0 (energy)");
  require(std::isfinite(geometryTolerance) && geometryTolerance >= 0.0,
          "network geometryTolerance (GEOMDIFFTOL) must be >= 0 (length)");
  if (alignStructures) {
    try {
      alignment.check();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("network alignment: ") + e.what());
    }
  }
}

TransitionNetwork::TransitionNetwork(const TransitionNetworkParams& params) : m_params(params) {
  m_params.check();
}

double TransitionNetwork::structureDistance(const std::vector<double>& a,
                                            const std::vector<double>& b) const {
  if (m_params.toCartesian) {
    const std::vector<double> ca = m_params.toCartesian(a), cb = m_params.toCartesian(b);
    if (m_params.alignStructures) return minimumDistance(ca, cb, m_params.alignment);
    double s = 0.0;
    for (std::size_t i = 0; i < ca.size(); ++i) s += (ca[i] - cb[i]) * (ca[i] - cb[i]);
    return std::sqrt(s);
  }
  if (m_params.alignStructures) return minimumDistance(a, b, m_params.alignment);
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s);
}

template <class Entry>
int TransitionNetwork::findFrom(const std::vector<Entry>& entries,
                                const EnergyWindowIndex& energies,
                                const std::vector<double>& coordinates, double energy,
                                int from) const {
  for (int i : energies.within(energy, m_params.energyTolerance))
    if (i >= from &&
        structureDistance(entries[i].coordinates, coordinates) < m_params.geometryTolerance)
      return i;
  return -1;
}

int TransitionNetwork::findMinimum(const std::vector<double>& coordinates, double energy) const {
  return findFrom(m_minima, m_minimumEnergies, coordinates, energy, 0);
}

int TransitionNetwork::findTransitionState(const std::vector<double>& coordinates,
                                           double energy) const {
  return findFrom(m_transitionStates, m_transitionStateEnergies, coordinates, energy, 0);
}

TransitionNetwork::EarlierLookup TransitionNetwork::lookUpMinimum(
    const std::vector<double>& coordinates, double energy) const {
  return {findFrom(m_minima, m_minimumEnergies, coordinates, energy, 0),
          static_cast<int>(m_minima.size())};
}

TransitionNetwork::EarlierLookup TransitionNetwork::lookUpTransitionState(
    const std::vector<double>& coordinates, double energy) const {
  return {findFrom(m_transitionStates, m_transitionStateEnergies, coordinates, energy, 0),
          static_cast<int>(m_transitionStates.size())};
}

TransitionNetwork::Added TransitionNetwork::addMinimum(std::vector<double> coordinates,
                                                       double energy,
                                                       const EarlierLookup* earlier) {
  if (!m_minima.empty() && coordinates.size() != m_minima.front().coordinates.size()) {
    throw std::invalid_argument("network: minimum has " + std::to_string(coordinates.size()) +
                                " coordinates, the network holds " +
                                std::to_string(m_minima.front().coordinates.size()));
  }
  if (coordinates.empty()) throw std::invalid_argument("network: a minimum needs coordinates");
  const int known = duplicated(earlier, [&](int from) {
    return findFrom(m_minima, m_minimumEnergies, coordinates, energy, from);
  });
  if (known >= 0) return {known, false};
  m_minimumEnergies.add(energy, static_cast<int>(m_minima.size()));
  m_minima.push_back({energy, std::move(coordinates)});
  m_edges.emplace_back();
  return {static_cast<int>(m_minima.size()) - 1, true};
}

void TransitionNetwork::checkMinimum(int index, const char* what) const {
  if (index < 0 || index >= static_cast<int>(m_minima.size())) {
    throw std::invalid_argument(std::string("network: ") + what + " " + std::to_string(index) +
                                " is not a known minimum (0.." +
                                std::to_string(static_cast<int>(m_minima.size()) - 1) + ")");
  }
}

TransitionNetwork::Added TransitionNetwork::addTransitionState(std::vector<double> coordinates,
                                                               double energy, double eigenvalue,
                                                               int plusMinimum, int minusMinimum,
                                                               const EarlierLookup* earlier) {
  checkMinimum(plusMinimum, "plus minimum");
  checkMinimum(minusMinimum, "minus minimum");
  if (coordinates.size() != m_minima.front().coordinates.size()) {
    throw std::invalid_argument("network: transition state has " +
                                std::to_string(coordinates.size()) + " coordinates, expected " +
                                std::to_string(m_minima.front().coordinates.size()));
  }
  const int known = duplicated(earlier, [&](int from) {
    return findFrom(m_transitionStates, m_transitionStateEnergies, coordinates, energy, from);
  });
  if (known >= 0) return {known, false};
  const int index = static_cast<int>(m_transitionStates.size());
  m_transitionStateEnergies.add(energy, index);
  m_transitionStates.push_back(
      {energy, std::move(coordinates), eigenvalue, plusMinimum, minusMinimum});
  m_edges[plusMinimum].emplace_back(minusMinimum, index);
  if (minusMinimum != plusMinimum) m_edges[minusMinimum].emplace_back(plusMinimum, index);
  return {index, true};
}

double TransitionNetwork::distance(int a, int b) const {
  checkMinimum(a, "minimum");
  checkMinimum(b, "minimum");
  if (a == b) return 0.0;
  if (const double* known = m_distances.find(a, b)) return *known;
  const double d =
      structureDistance(m_minima[std::min(a, b)].coordinates, m_minima[std::max(a, b)].coordinates);
  m_distances.add(a, b, d);
  return d;
}

std::vector<std::pair<int, int>> TransitionNetwork::missingDistances(
    const std::vector<std::pair<int, int>>& pairs) const {
  std::vector<std::pair<int, int>> missing;
  for (const auto& [a, b] : pairs) {
    checkMinimum(a, "minimum");
    checkMinimum(b, "minimum");
    const std::pair<int, int> key(std::min(a, b), std::max(a, b));
    if (a != b && !m_distances.find(a, b)) missing.push_back(key);
  }
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  return missing;
}

bool TransitionNetwork::precomputeDistances(const std::vector<std::pair<int, int>>& pairs,
                                            ThreadPool& pool,
                                            const std::function<bool()>& stop) const {
  const std::vector<std::pair<int, int>> missing = missingDistances(pairs);
  std::vector<double> d(missing.size());
  std::vector<char> computed(missing.size(), 0);
  pool.forEach(missing.size(), [&](std::size_t i) {
    if (stop && stop()) return;
    d[i] = structureDistance(m_minima[missing[i].first].coordinates,
                             m_minima[missing[i].second].coordinates);
    computed[i] = 1;
  });
  bool all = true;
  for (std::size_t i = 0; i < missing.size(); ++i) {
    if (computed[i])
      m_distances.add(missing[i].first, missing[i].second, d[i]);
    else
      all = false;
  }
  return all;
}

bool TransitionNetwork::precomputeDistances(const std::vector<std::pair<int, int>>& pairs,
                                            BatchedAlignment& alignment,
                                            const std::function<bool()>& stop) const {
  require(alignsClusters(),
          "precomputeDistances: a batched alignment aligns clusters only (alignStructures on, "
          "Cartesian coordinates, no permutation groups or periodic box)");
  const std::vector<std::pair<int, int>> missing = missingDistances(pairs);
  std::vector<AlignmentPair> call;
  std::vector<AlignmentResult> aligned;
  for (std::size_t first = 0; first < missing.size(); first += kBatchedDistances) {
    if (stop && stop()) return false;
    const std::size_t last = std::min(missing.size(), first + kBatchedDistances);
    call.clear();
    for (std::size_t i = first; i < last; ++i)
      call.push_back(
          {&m_minima[missing[i].first].coordinates, &m_minima[missing[i].second].coordinates});
    alignment.align(m_params.alignment, call, aligned);
    for (std::size_t i = first; i < last; ++i)
      m_distances.add(missing[i].first, missing[i].second, aligned[i - first].distance);
  }
  return true;
}

bool TransitionNetwork::directlyConnected(int a, int b) const {
  checkMinimum(a, "minimum");
  checkMinimum(b, "minimum");
  for (const auto& edge : m_edges[a]) {
    if (edge.first == b) return true;
  }
  return false;
}

std::vector<PathStep> TransitionNetwork::path(int a, int b) const {
  checkMinimum(a, "minimum");
  checkMinimum(b, "minimum");
  if (a == b) return {};
  // Breadth-first search: fewest transition states.
  std::vector<int> viaState(m_minima.size(), -1), previous(m_minima.size(), -1);
  std::vector<bool> seen(m_minima.size(), false);
  std::deque<int> queue{a};
  seen[a] = true;
  while (!queue.empty() && !seen[b]) {
    const int m = queue.front();
    queue.pop_front();
    for (const auto& [neighbour, ts] : m_edges[m]) {
      if (seen[neighbour]) continue;
      seen[neighbour] = true;
      previous[neighbour] = m;
      viaState[neighbour] = ts;
      queue.push_back(neighbour);
    }
  }
  if (!seen[b]) return {};
  std::vector<PathStep> steps;
  for (int m = b; m != a; m = previous[m]) steps.push_back({previous[m], viaState[m], m});
  std::reverse(steps.begin(), steps.end());
  return steps;
}

bool TransitionNetwork::connected(int a, int b) const { return a == b || !path(a, b).empty(); }

}  // namespace landscape
