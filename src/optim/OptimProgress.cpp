#include "src/optim/OptimProgress.h"

#include <cstdio>

namespace landscape {

OptimProgress::OptimProgress(const TransitionNetwork& network, bool quiet)
    : m_network(network), m_quiet(quiet) {}

ConnectObserver OptimProgress::observer() {
  ConnectObserver o;
  o.onCycle = [this](const ConnectCycle& c) { cycle(c); };
  o.onAttempt = [this](const ConnectAttempt& a) { attempt(a); };
  return o;
}

double OptimProgress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

void OptimProgress::cycle(const ConnectCycle& c) {
  m_minimaBefore = m_network.minima().size();
  m_statesBefore = m_network.transitionStates().size();
  if (m_quiet) return;
  std::printf(
      " >>>>>>>>>>>>>>>>>>>>> CONNECT CYCLE %d >>>>>>>>>>>>>>>>>>>>> %zu minima and %zu "
      "ts are known >>>>>>>>>>>>>>>>>>>>\n",
      c.cycle, c.minima, c.transitionStates);
  std::printf(" decide> Shortest path in Dijkstra has %6zu missing connections, weight= %10.4f\n",
              c.missingLinks.size(), c.pathWeight);
  std::printf(" decide> The unconnected minima in the chain and their distances are:\n");
  for (std::size_t k = 0; k < c.missingLinks.size(); ++k) {
    std::printf(" %5d %11.2f %5d", c.missingLinks[k].first + 1, c.distances[k],
                c.missingLinks[k].second + 1);
  }
  std::printf("\n");
}

void OptimProgress::attempt(const ConnectAttempt& a) {
  if (m_quiet) return;
  std::printf(
      " tryconnect> %d-iteration DNEB run for minima %d and %d using %d images: "
      "%d iterations, RMS= %.4f, %d candidates, %d converged to a TS  time= %.2f\n",
      a.iterationLimit, a.from + 1, a.to + 1, a.images, a.iterations, a.dnebRms, a.candidates,
      a.convergedSearches, elapsed());
  const auto& states = m_network.transitionStates();
  const auto& minima = m_network.minima();
  for (std::size_t t = m_statesBefore; t < states.size(); ++t) {
    const NetworkTransitionState& ts = states[t];
    const double ePlus = minima[ts.plusMinimum].energy, eMinus = minima[ts.minusMinimum].energy;
    std::printf(
        " ts %4zu:  E+ %16.7f  Ets - E+ %12.5g  Ets %16.7f  Ets - E- %12.5g  E- %16.7f"
        "   minima %d%s and %d%s\n",
        t + 1, ePlus, ts.energy - ePlus, ts.energy, ts.energy - eMinus, eMinus, ts.plusMinimum + 1,
        isNew(ts.plusMinimum) ? " *NEW*" : "", ts.minusMinimum + 1,
        isNew(ts.minusMinimum) ? " *NEW*" : "");
  }
  m_statesBefore = states.size();
  m_minimaBefore = minima.size();
  std::fflush(stdout);
}

}  // namespace landscape
