#pragma once
// gmin's progress in GMIN's layout (one line per quench, one per step-size adjustment, one per
// NEWRESTART event) and its checkpoints: the minima through GminResultWriter and the state that
// `--resume` continues from. A BasinHoppingObserver, since the library itself never prints.
#include <chrono>
#include <csignal>
#include <string>
#include <vector>

#include "landscape/formats/CheckpointFile.h"
#include "landscape/search/BasinHopping.h"
#include "src/GminResultWriter.h"

namespace landscape {

class GminProgressPrinter : public BasinHoppingObserver {
 public:
  /// quiet: print nothing (checkpoints are still written); stopFlag: set by a signal handler to
  /// end the run after the current quench; steps: the run's --steps, saved with the state.
  GminProgressPrinter(bool quiet, const GminResultWriter& writer, std::string checkpointFile,
                      CheckpointFingerprint fingerprint, long steps,
                      const volatile std::sig_atomic_t& stopFlag);

  void onQuench(const QuenchReport& q) override;
  void onStepAdjust(const StepAdjustReport& s) override;
  void onRestart(const RestartReport& r) override;
  void onCheckpoint(const std::vector<StoredMinimum>& minima) override { m_writer.write(minima); }
  void onState(const BasinHoppingState& state) override;
  bool stopRequested() override { return m_stopFlag != 0; }

 private:
  double elapsed() const;

  bool m_quiet;
  const GminResultWriter& m_writer;
  std::string m_checkpointFile;
  CheckpointFingerprint m_fingerprint;
  long m_steps;
  const volatile std::sig_atomic_t& m_stopFlag;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

}  // namespace landscape
