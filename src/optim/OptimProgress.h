#pragma once
// optim's progress in the spirit of OPTIM's connect output: one block per connect cycle (the
// Dijkstra path's missing links) and one per DNEB attempt with the transition states it added,
// new minima marked. A ConnectObserver, since the library itself never prints.
#include <chrono>
#include <cstddef>

#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Connect.h"

namespace landscape {

class OptimProgress {
 public:
  OptimProgress(const TransitionNetwork& network, bool quiet);

  ConnectObserver observer();
  double elapsed() const;

 private:
  void cycle(const ConnectCycle& c);
  void attempt(const ConnectAttempt& a);
  bool isNew(int minimum) const { return static_cast<std::size_t>(minimum) >= m_minimaBefore; }

  const TransitionNetwork& m_network;
  bool m_quiet;
  std::size_t m_minimaBefore = 0, m_statesBefore = 0;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

}  // namespace landscape
