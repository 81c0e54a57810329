#pragma once
// When a gmin run stops before its steps are done: SIGINT/SIGTERM (landscape/core/StopRequest,
// set by src/common/LongRun's handlers) or the --max-time wall-clock limit. Shared by the single-chain
// and the walker printers.
#include <chrono>

#include "landscape/core/StopRequest.h"

namespace landscape {

class GminStopRule {
 public:
  /// maxSeconds 0: no time limit.
  explicit GminStopRule(double maxSeconds) : m_maxSeconds(maxSeconds) {}

  /// Seconds since the rule was made (the start of the run).
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  }
  bool signalled() const { return stopRequested(); }
  /// Polled once per step; remembers that the time limit ended the run.
  bool stop() {
    if (m_maxSeconds > 0.0 && elapsed() >= m_maxSeconds) m_timeUp = true;
    return signalled() || m_timeUp;
  }
  bool timeUp() const { return m_timeUp; }
  double maxSeconds() const { return m_maxSeconds; }

 private:
  double m_maxSeconds;
  bool m_timeUp = false;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

}  // namespace landscape
