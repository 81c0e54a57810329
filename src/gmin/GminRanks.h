#pragma once
// How `mpirun -n K gmin` spreads a walker run over K ranks (docs/cluster.md). Each rank owns a
// contiguous block of the walkers (landscape/core/IndexBlock.h) and runs their
// Markov chains and quenches on its own CPU threads or GPU; per round the ranks exchange only what
// couples the walkers (the new minima that can enter the lowest list, each walker's Markov energy
// and acceptance, the Markov states a replica exchange moves between ranks: WalkerEnsemble.h), so
// every rank keeps the same lowest list and takes the same decisions, and the run -- `lowest`,
// minima.h5, the checkpoint, the target walker, the round it stops at -- is the one-process run's
// for any K. Rank 0 gathers every walker's state for the checkpoint, prints and writes the output
// files; a stop (signal, --max-time) is agreed by all ranks at the end of a round (a rank's signal
// handler only records the signal, src/common/LongRun.h deferStopRequests(), so that no rank's
// loops end on their own).
#include <memory>
#include <vector>

#include "landscape/search/WalkerEnsemble.h"
#include "landscape/search/WalkerPeers.h"
#include "src/common/Communicator.h"
#include "src/common/FaultDrill.h"
#include "src/gmin/GminStopRule.h"

namespace landscape {

/// The ranks of a run as the walker ensemble's processes.
class RankWalkerPeers : public WalkerPeers {
 public:
  explicit RankWalkerPeers(Communicator& ranks) : m_ranks(ranks) {}
  int index() const override { return m_ranks.rank(); }
  int count() const override { return m_ranks.size(); }
  std::vector<std::vector<char>> allGather(const std::vector<char>& mine) override {
    return m_ranks.allGather(mine);
  }
  std::vector<std::vector<char>> allGather(const std::vector<char>& mine,
                                           const std::vector<std::size_t>& sizes) override {
    return m_ranks.allGather(mine, sizes);
  }
  std::vector<std::vector<char>> gather(const std::vector<char>& mine) override {
    return m_ranks.gather(mine);
  }

 private:
  Communicator& m_ranks;
};

/// The walker count of every rank: rank 0's (it owns the checkpoint; the ranks of a job on
/// different machines could count different cores).
int agreedWalkers(int walkers, Communicator& ranks);

/// The walkers' observer on every rank: forwards every report to `own` (rank 0's printer, which
/// writes the files; a StopOnlyObserver elsewhere) and asks all ranks whether to stop, so that
/// all stop after the same round. It runs the fault drill (src/common/FaultDrill.h) at the end of
/// each round.
class RankWalkerObserver : public WalkerObserver {
 public:
  RankWalkerObserver(WalkerObserver& own, Communicator& ranks);

  void onQuench(int walker, const QuenchReport& q) override { m_own.onQuench(walker, q); }
  void onStepAdjust(int walker, const StepAdjustReport& s) override {
    m_own.onStepAdjust(walker, s);
  }
  void onRestart(int walker, const RestartReport& r) override { m_own.onRestart(walker, r); }
  void onSymmetrisation(int walker, const SymmetrisationReport& r) override {
    m_own.onSymmetrisation(walker, r);
  }
  bool wantsWalkerReports() const override { return m_own.wantsWalkerReports(); }
  void onRound(const WalkerRoundReport& r) override;
  void onTightQuench(const TightQuenchReport& t) override { m_own.onTightQuench(t); }
  void onCheckpoint(const std::vector<StoredMinimum>& minima) override {
    m_own.onCheckpoint(minima);
  }
  void onState(const WalkerEnsembleState& state) override { m_own.onState(state); }
  /// Agreed by all ranks: a stop signal to any of them (then every rank calls requestStop() here,
  /// at the same point of the run), or `own`'s rule on any of them (rank 0's --max-time).
  bool stopRequested() override;

 private:
  WalkerObserver& m_own;
  Communicator& m_ranks;
  FaultDrill m_drill;
};

/// The observer of the ranks other than 0: silent, stops on a signal to this rank.
class StopOnlyObserver : public WalkerObserver {
 public:
  explicit StopOnlyObserver(GminStopRule& stopRule) : m_stopRule(stopRule) {}
  bool wantsWalkerReports() const override { return false; }
  bool stopRequested() override { return m_stopRule.stop(); }

 private:
  GminStopRule& m_stopRule;
};

}  // namespace landscape
