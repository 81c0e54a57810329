#pragma once
// gmin's progress in GMIN's layout (one line per quench, one per step-size adjustment, one per
// NEWRESTART event) and its checkpoints: the minima through GminResultWriter and the state that
// `--resume` continues from. A BasinHoppingObserver, since the library itself never prints.
#include <chrono>
#include <string>
#include <vector>

#include "landscape/formats/CheckpointFile.h"
#include "landscape/search/BasinHopping.h"
#include "src/gmin/GminResultWriter.h"
#include "src/gmin/GminStopRule.h"

namespace landscape {

/// GMIN's progress line of one quench (and the reason it was rejected), after `prefix`
/// ("" for the single chain, "W 12 " for a walker).
void printQuenchLine(const char* prefix, const QuenchReport& q, double elapsedSeconds);
/// GMIN's "Final Quench i of n E= ... steps= ... RMS= ... t= ..." line of a tight re-quench.
void printFinalQuenchLine(const TightQuenchReport& t, double elapsedSeconds);
/// The end of a SYMMETRISE or SYMMETRISECSM attempt.
void printSymmetrisationLine(const char* prefix, const SymmetrisationReport& r);

class GminProgressPrinter : public BasinHoppingObserver {
 public:
  /// quiet: print nothing (checkpoints are still written); stopRule: ends the run after the
  /// current quench (signal, --max-time); steps: the run's --steps, saved with the state.
  GminProgressPrinter(bool quiet, const GminResultWriter& writer, std::string checkpointFile,
                      CheckpointFingerprint fingerprint, long steps, GminStopRule& stopRule);

  void onQuench(const QuenchReport& q) override;
  void onStepAdjust(const StepAdjustReport& s) override;
  void onRestart(const RestartReport& r) override;
  void onSymmetrisation(const SymmetrisationReport& r) override;
  void onTightQuench(const TightQuenchReport& t) override;
  void onCheckpoint(const std::vector<StoredMinimum>& minima) override { m_writer.write(minima); }
  void onState(const BasinHoppingState& state) override;
  bool stopRequested() override { return m_stopRule.stop(); }

 private:
  bool m_quiet;
  const GminResultWriter& m_writer;
  std::string m_checkpointFile;
  CheckpointFingerprint m_fingerprint;
  long m_steps;
  GminStopRule& m_stopRule;
};

}  // namespace landscape
