#pragma once
// W basin-hopping walkers: W independent GMIN Markov chains -- each a BasinHoppingRun
// with its own step-size adaptation, Metropolis test, NEWRESTART/AVOID state and random stream
// streamSeed(seed, w) -- that advance in rounds: every walker proposes its trial, the W trials are
// quenched together by one BatchedMinimiser call, then every walker, in index order, finishes its
// step (the reseed quenches of NEWRESTART go through the minimiser together too). Walker 0's
// stream is the seed itself, so W = 1 is BasinHopping's single chain quench for quench whenever
// the minimiser is Lbfgs's bit for bit (ParallelLbfgs, BatchedLbfgs). One lowest-minima list is
// shared; a walker's quenches depend on the others only through its cold-fusion test against that
// list, and that list takes a round's new minima at the end of each phase of the round (the trial
// quenches, then the reseeds), in walker order; the cold-fusion test reads it as it stood before the
// phase. With ParallelTemperingParams::enabled the walkers are the replicas of GMIN's BHPT
// (ParallelTempering.h). With BasinHoppingParams::crowdLimit the walkers also see one another at
// the end of every round: at most that many may hold one minimum, the others are reseeded with
// the NEWRESTART reseeds (in index order, so the run stays the same for a seed whatever the ranks
// or threads), and a funnel cannot swallow the whole population. The run stops at the end of the
// first round in which a walker reaches the target, or when the observer asks; the library never
// prints or reads clocks.
//
// Spread over several processes (WalkerPeers.h: gmin under mpirun), each process runs only its own
// walkers' chains and quenches, and per round they exchange only what couples the walkers: the new
// minima that can still enter the lowest list, a few numbers per walker (Markov energy and
// acceptance, for the crowd limit, the replica exchanges, the target and the progress line), and
// the Markov states that a replica exchange moves between processes. Every process rebuilds the same
// lowest list and takes the same decisions, so the run is the one-process run whatever the number
// of processes; process 0 gathers the whole state for checkpoints and the result.
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "landscape/core/IndexBlock.h"
#include "landscape/core/ThreadPool.h"
#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/BasinHoppingRun.h"
#include "landscape/search/LowestMinima.h"
#include "landscape/search/ParallelTempering.h"
#include "landscape/search/WalkerPeers.h"

namespace landscape {

/// Everything a walker run carries from one round to the next (the checkpoint's walkers).
struct WalkerEnsembleState {
  /// One per walker; walker 0's `lowest` is the shared list, the others' are empty.
  std::vector<BasinHoppingState> walkers;
  bool exchanges = false;  ///< BHPT on: `exchange` is meaningful
  ReplicaExchange::State exchange;
};

/// A summary of one round, for progress lines.
struct WalkerRoundReport {
  long round;           ///< the quench number every walker has reached
  long quenches;        ///< quenches of all walkers (steps, not counting quench 0 or reseeds)
  long functionCalls;   ///< energy + gradient evaluations of all walkers
  long failedQuenches;  ///< of all walkers
  long restarts;        ///< NEWRESTART reseeds of all walkers
  double bestEnergy;    ///< lowest saved minimum (+infinity while none)
  /// Acceptance ratio of each walker's steps so far: lowest, median and highest over the walkers.
  double minAcceptance, medianAcceptance, maxAcceptance;
};

class WalkerObserver {
 public:
  virtual ~WalkerObserver() = default;
  /// A walker's own reports (as BasinHoppingObserver's), for per-quench lines.
  virtual void onQuench(int /*walker*/, const QuenchReport&) {}
  virtual void onStepAdjust(int /*walker*/, const StepAdjustReport&) {}
  virtual void onRestart(int /*walker*/, const RestartReport&) {}
  virtual void onSymmetrisation(int /*walker*/, const SymmetrisationReport&) {}
  /// False when the four reports above do nothing (and may be called from several threads at
  /// once): the walkers then complete their steps on host threads; true keeps the reports in
  /// walker order, from one thread.
  virtual bool wantsWalkerReports() const { return true; }
  /// After every round.
  virtual void onRound(const WalkerRoundReport&) {}
  /// Each minimum of the shared list's final tight re-quench (GMIN's "Final Quench" lines).
  virtual void onTightQuench(const TightQuenchReport&) {}
  /// Every params.dumpInterval rounds (if > 0): the shared lowest minima, to be saved.
  virtual void onCheckpoint(const std::vector<StoredMinimum>&) {}
  /// The state to continue from, after each onCheckpoint and once when the rounds end.
  virtual void onState(const WalkerEnsembleState&) {}
  /// Polled once per round; true ends the run after it (results are still re-quenched).
  virtual bool stopRequested() { return false; }
};

struct WalkerEnsembleResult {
  /// Totals over the walkers (quenches, calls, reseeds, failed quenches), the shared list
  /// re-quenched tightly, stoppedEarly; targetQuench is the hit walker's quench number and
  /// targetFunctionCalls the calls of all walkers up to the end of that round.
  BasinHoppingResult total;
  int targetWalker = -1;          ///< lowest index among the walkers that reached the target
  long targetRoundQuenches = -1;  ///< quenches of all walkers up to the end of that round
  std::vector<long> failedPerWalker;
  std::vector<double> acceptancePerWalker;  ///< accepted / steps of each walker
  std::vector<double> temperatures;         ///< each walker's kT
  ReplicaExchange::State exchange;          ///< BHPT counts per pair (empty without BHPT)
};

/// Wall seconds of a run's rounds by phase, summed over the rounds after the first quench (for
/// benchmarks: how much of a walker step the host takes beside the quenches).
struct WalkerPhaseSeconds {
  double atomEnergies = 0.0;  ///< the chains' per-atom energies (ASTEP)
  double propose = 0.0;       ///< the chains' proposals
  double quench = 0.0;        ///< the batched minimiser's call
  double prepare = 0.0;       ///< the chains' tests of their quenches (prepareCompletion)
  double complete = 0.0;      ///< the chains' completions (Metropolis, saving, NEWRESTART)
  /// The rest of the round: saving into the shared list, reseeds and their quenches, the census,
  /// exchanges, the observer.
  double finish = 0.0;
  long rounds = 0;
};

/// Builds a batched minimiser for the given quench settings (sloppy or tight).
using BatchedMinimiserMaker =
    std::function<std::unique_ptr<BatchedMinimiser>(const LbfgsParams& params)>;

class WalkerEnsemble {
 public:
  /// `potential` serves the hooks, the ASTEP atom energies and the random starts (the host side);
  /// quenches go through the minimisers `makeMinimiser` builds. `walkers` counts all processes'
  /// walkers; with `peers` (which must outlive the ensemble) this process runs
  /// indexBlock(walkers, peers->index(), peers->count()) of them, and run(), resume() and the
  /// observer's onRound, onCheckpoint and onState are collective; the result and the states that
  /// onState reports are whole on process 0 only. Throws std::invalid_argument for walkers < 1,
  /// fewer walkers than processes or bad params.
  WalkerEnsemble(Potential& potential, const BasinHoppingParams& params, int walkers,
                 const ParallelTemperingParams& tempering, BatchedMinimiserMaker makeMinimiser,
                 BasinHoppingHooks hooks = {}, WalkerPeers* peers = nullptr);
  ~WalkerEnsemble();

  /// Every walker starts from `start` (a random cluster from its own stream when empty).
  WalkerEnsembleResult run(const std::vector<double>& start, WalkerObserver* observer = nullptr);
  /// Continues from a state that observer->onState reported (same settings; steps may be larger;
  /// every process gets the whole state). Throws std::invalid_argument when it does not fit.
  WalkerEnsembleResult resume(const WalkerEnsembleState& state, WalkerObserver* observer = nullptr);

  /// The minimisers of the final tight re-quench of the shared list (GMIN's TIGHTCONV), when
  /// they differ from the quenches' (gmin's AMBER-GB walkers quench in mixed precision and
  /// re-quench in double); empty: makeMinimiser's.
  void setTightMinimiserMaker(BatchedMinimiserMaker makeTight) {
    m_makeTight = std::move(makeTight);
  }
  /// Host threads on which the walkers propose their steps and test their quenches (default: every
  /// core; processes that share a node give each its share). Each walker's work touches only its
  /// own chain, so the run is the same for any number.
  void setHostThreads(int threads) { m_hostThreads = std::max(threads, 1); }
  int walkers() const { return m_walkers; }
  /// The walkers this process runs.
  IndexBlock slice() const { return m_slice; }
  double containerRadius() const { return m_radius; }
  const std::vector<double>& temperatures() const { return m_temperatures; }
  /// This process's rounds so far, by phase.
  const WalkerPhaseSeconds& phaseSeconds() const { return m_phaseSeconds; }

 private:
  class Relay;
  /// What the walkers report at the end of a phase, for decisions every process takes alike:
  /// each walker's Markov energy and acceptance, the totals of the round report and the first
  /// walker that reached the target (all processes' walkers, in walker order).
  struct Census {
    std::vector<double> markovEnergy, acceptance;
    long quenches = 0, functionCalls = 0, failedQuenches = 0, restarts = 0;
    int targetWalker = -1;
    long targetQuench = -1;
  };
  long begin(const std::vector<double>& start);
  long restore(const WalkerEnsembleState& state);
  /// One step of every walker; false when a stop request ended it (the round is undone, or, when
  /// the stop came in the reseed quenches, those reseeds are left pending in the state).
  bool round(long step);
  /// completeStep() of every chain of this process, x and q the quenches' output; the chains
  /// that reseed go into `reseeding`, in walker order.
  void completeSteps(long step, std::vector<std::vector<double>>& x,
                     const std::vector<LbfgsResult>& q, std::vector<std::size_t>& reseeding);
  /// The end of round `step` from its reseeds on: `starts` (this process's chains `reseeding`)
  /// quenched and completed, the minima offered, the target, BHPT exchange, report and checkpoint.
  /// False when a stop request ended the reseed quenches. Collective.
  bool reseedAndFinishRound(long step, const std::vector<std::size_t>& reseeding,
                            std::vector<std::vector<double>> starts);
  /// A resumed run: the reseeds that a stop left pending in round `step`, and the rest of that
  /// round. False when a stop request ended them again. Collective.
  bool finishStoppedRound(long step);
  /// work(w) for every chain w of this process: on the host threads when `concurrent` (the hooks,
  /// BasinHoppingHooks::concurrent, or the potential allow it), else one after the other.
  void forEachChain(bool concurrent, const std::function<void(std::size_t)>& work);
  /// work(i) for i in [0, count) on the host threads (work that touches nothing shared).
  void forEachIndex(std::size_t count, const std::function<void(std::size_t)>& work);
  /// Quenches the structures x[i] (moved in and out) with `minimiser`.
  std::vector<LbfgsResult> quench(BatchedMinimiser& minimiser, std::vector<std::vector<double>>& x);
  /// True on every process when a stop request ended a quench of `q` on any of them.
  bool anyStopped(const std::vector<LbfgsResult>& q);
  /// `mine` from every process, in process order (just `mine` without peers).
  std::vector<std::vector<char>> share(const std::vector<char>& mine);
  /// The minima the walkers saved since the last call, every process's, offered to the shared
  /// list in walker order. With `crowd`, also the census that crowdOut decides on (the walkers
  /// `reseeding`, this process's, count as +infinity).
  void offerSaved(const std::vector<std::size_t>* reseeding = nullptr, Census* crowd = nullptr);
  /// This process's walkers' part of a census, or (combine) every process's.
  Census localCensus() const;
  Census combinedCensus();
  void exchange(const Census& census);
  /// BasinHoppingParams::crowdLimit: walkers beyond the limit on one minimum join `reseeding`
  /// (this process's, kept in index order), decided on `census` (offerSaved's).
  void crowdOut(const Census& census, std::vector<std::size_t>& reseeding);
  /// After the quenches of `step`: the first walker (lowest index) that has reached the target,
  /// and the progress line.
  void noteTarget(long step, const Census& census);
  WalkerEnsembleState state() const;
  /// state() of every process, whole on process 0 (collective).
  WalkerEnsembleState gatheredState();
  WalkerRoundReport roundReport(long step, const Census& census) const;
  WalkerEnsembleResult finish();
  WalkerEnsembleResult runRounds(long firstStep, WalkerObserver& observer);

  Potential& m_potential;
  BasinHoppingParams m_common;
  BasinHoppingHooks m_hooks;
  BatchedMinimiserMaker m_makeMinimiser;
  BatchedMinimiserMaker m_makeTight;  ///< empty: m_makeMinimiser
  WalkerPeers* m_peers;
  int m_walkers;
  IndexBlock m_slice;
  double m_radius;
  std::vector<double> m_temperatures;        ///< every walker's
  std::vector<BasinHoppingParams> m_params;  ///< per walker of this process: its seed and kT
  std::unique_ptr<ReplicaExchange> m_exchange;
  long m_exchangeInterval = 0;
  LowestMinima m_lowest;
  /// The minima this process's walkers saved in the phase under way, in walker order.
  std::vector<StoredMinimum> m_saved;
  /// While chains complete their steps on several threads, each chain's saved minima wait here
  /// (by chain) and join m_saved in walker order afterwards.
  bool m_savingByChain = false;
  std::vector<std::vector<StoredMinimum>> m_savedByChain;
  std::vector<double> m_batch;  ///< quench()'s coordinates where the minimiser has no hostBatch
  std::vector<std::unique_ptr<Relay>> m_relays;
  std::vector<std::unique_ptr<BasinHoppingRun>> m_chains;  ///< this process's walkers
  std::unique_ptr<BatchedMinimiser> m_sloppy;
  /// Host threads for forEachChain, made at its first use.
  std::unique_ptr<ThreadPool> m_chainPool;
  int m_hostThreads;
  WalkerObserver* m_observer = nullptr;
  int m_targetWalker = -1;
  long m_targetQuench = -1;
  long m_targetRoundQuenches = -1;
  long m_targetFunctionCalls = -1;
  bool m_stoppedEarly = false;
  WalkerPhaseSeconds m_phaseSeconds;
  bool m_started = true;  ///< false when a stop request ended quench 0: no state to save
};

}  // namespace landscape
