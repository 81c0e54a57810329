#pragma once
// gmin's progress for walker runs (--walkers, --bhpt): one summary line about once a second
// (rounds, quenches per second, best energy, spread of the walkers' acceptance ratios, failed
// quenches, reseeds), flushed; with --verbose also every walker's per-quench lines. Checkpoints
// the shared minima and every walker's state. A WalkerObserver, since the library never prints.
#include <string>
#include <vector>

#include "landscape/formats/CheckpointFile.h"
#include "landscape/search/WalkerEnsemble.h"
#include "src/gmin/GminResultWriter.h"
#include "src/gmin/GminStopRule.h"

namespace landscape {

class GminWalkerPrinter : public WalkerObserver {
 public:
  /// `checkpoint` carries the fingerprint and --steps written with every state.
  GminWalkerPrinter(bool quiet, bool verbose, const GminResultWriter& writer,
                    std::string checkpointFile, Checkpoint checkpoint, GminStopRule& stopRule);

  void onQuench(int walker, const QuenchReport& q) override;
  void onStepAdjust(int walker, const StepAdjustReport& s) override;
  void onRestart(int walker, const RestartReport& r) override;
  void onSymmetrisation(int walker, const SymmetrisationReport& r) override;
  bool wantsWalkerReports() const override { return m_verbose; }
  void onRound(const WalkerRoundReport& r) override;
  void onTightQuench(const TightQuenchReport& t) override;
  void onCheckpoint(const std::vector<StoredMinimum>& minima) override { m_writer.write(minima); }
  void onState(const WalkerEnsembleState& state) override;
  bool stopRequested() override { return m_stopRule.stop(); }

  /// The last round's summary line, printed whatever the time since the previous one.
  void printLastRound();

 private:
  void printRound(const WalkerRoundReport& r);

  bool m_quiet, m_verbose;
  const GminResultWriter& m_writer;
  std::string m_checkpointFile;
  Checkpoint m_checkpoint;
  GminStopRule& m_stopRule;
  double m_lastPrint = -1.0;
  WalkerRoundReport m_last{};
  bool m_lastPrinted = true;
};

}  // namespace landscape
