#pragma once
// How `mpirun -n K gmin` spreads a walker run over K ranks (docs/cluster.md). Every rank
// runs the same WalkerEnsemble: every walker's Markov chain, the shared lowest list and the
// replica exchanges, on the same quench results. Only the quenches are divided
// (src/common/DistributedMinimiser.h: rank r quenches its contiguous block of the walkers, then every
// rank receives every block), so every rank makes the same decisions, and the run -- `lowest`,
// minima.h5, the checkpoint, the target walker, the round it stops at -- is the one-process run's
// for any K. Rank 0 alone prints and writes the output files; a stop (signal, --max-time) is agreed
// by all ranks at the end of a round (a rank's signal handler only records the signal,
// src/common/LongRun.h deferStopRequests(), so that no rank's loops end on their own).
#include <memory>

#include "landscape/search/WalkerEnsemble.h"
#include "src/common/Communicator.h"
#include "src/common/FaultDrill.h"
#include "src/gmin/GminStopRule.h"

namespace landscape {

/// `local` with each minimiser it makes split over `ranks` (unchanged for one rank).
BatchedMinimiserMaker distributedMinimiserMaker(BatchedMinimiserMaker local, Communicator& ranks);

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
  bool stopRequested() override { return m_stopRule.stop(); }

 private:
  GminStopRule& m_stopRule;
};

}  // namespace landscape
