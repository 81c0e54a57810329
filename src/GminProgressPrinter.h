#pragma once
// gmin's progress in GMIN's layout (one line per quench, one per step-size adjustment, one per
// NEWRESTART event) and its checkpoints: the minima through GminResultWriter and the state that
// `--resume` continues from. A BasinHoppingObserver, since the library itself never prints.
#include <chrono>
#include <string>
#include <vector>

#include "landscape/formats/CheckpointFile.h"
#include "landscape/search/BasinHopping.h"
#include "src/GminResultWriter.h"

namespace landscape {

class GminProgressPrinter : public BasinHoppingObserver {
 public:
  /// quiet: print nothing (checkpoints are still written); steps: the run's --steps, saved with
  /// the state. Stop requests (SIGINT/SIGTERM) reach the run through landscape/core/StopRequest.
  GminProgressPrinter(bool quiet, const GminResultWriter& writer, std::string checkpointFile,
                      CheckpointFingerprint fingerprint, long steps);

  void onQuench(const QuenchReport& q) override;
  void onStepAdjust(const StepAdjustReport& s) override;
  void onRestart(const RestartReport& r) override;
  void onTightQuench(const TightQuenchReport& t) override;
  void onCheckpoint(const std::vector<StoredMinimum>& minima) override { m_writer.write(minima); }
  void onState(const BasinHoppingState& state) override;

 private:
  double elapsed() const;

  bool m_quiet;
  const GminResultWriter& m_writer;
  std::string m_checkpointFile;
  CheckpointFingerprint m_fingerprint;
  long m_steps;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

}  // namespace landscape
