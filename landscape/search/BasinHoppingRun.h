#pragma once
// One run of basin-hopping (BasinHopping::run and ::resume): the Markov chain, the lowest minima,
// NEWRESTART and the counters that a checkpoint saves, with each part of a step as a named member.
// A class rather than lambdas inside one long loop, so that every piece of state has one owner and
// every step reads as a sentence.
//
// One chain of a walker ensemble too (WalkerEnsemble.h): a step is cut at its quenches --
// proposeTrial(), the quench (here, or batched with the other walkers' elsewhere), completeStep(),
// and when NEWRESTART reseeds, reseedStart(), its quench and completeReseed() -- so that the
// walkers run exactly this chain code while their quenches go through a batched minimiser together.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/LbfgsWorkspace.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/ClusterStepTaker.h"
#include "landscape/search/LowestMinima.h"
#include "landscape/search/NewRestart.h"
#include "landscape/search/Symmetrisation.h"

namespace landscape {

class BasinHoppingRun {
 public:
  /// params must have passed check(); radius is the container radius (infinity: none). An empty
  /// workspaceFactory makes a chain whose quenches are all done by the caller (a walker): begin(),
  /// step() and finish() then throw std::logic_error. `shared`: the lowest-minima list of the
  /// walker ensemble; nullptr: the run's own.
  BasinHoppingRun(Potential& potential, const BasinHoppingParams& params,
                  const BasinHoppingHooks& hooks, double radius,
                  const LbfgsWorkspaceFactory& workspaceFactory, BasinHoppingObserver& report,
                  LowestMinima* shared = nullptr);

  /// Quench 0 of a new run: `start` (a random cluster when empty) quenched, saved and made the
  /// Markov state. Returns the first basin-hopping step.
  long begin(std::vector<double> start);
  /// Takes over a checkpointed state (its `lowest` only when the list is the run's own). Returns
  /// the first step still to do.
  long restore(const BasinHoppingState& state);

  /// Basin-hopping step `step`: perturb, quench, accept or reject, adapt the step size, apply
  /// NEWRESTART, checkpoint.
  void step(long step);

  // ---- the pieces of begin() and step() around their quenches (walkers) ----
  /// The structure quench 0 starts from: `start`, or a random cluster drawn from the chain's
  /// generator when empty. Throws std::invalid_argument when it does not fit the potential.
  std::vector<double> initialStructure(std::vector<double> start);
  /// Quench 0 done: x is the minimiser's output for initialStructure(), q its result.
  long beginWith(std::vector<double> x, const LbfgsResult& q);
  /// The trial of the next step: the Markov state perturbed (draws random numbers), or the next
  /// symmetrisation candidate when an episode is under way or due (Symmetrisation.h). Keeps the
  /// random source as it was before, for undoProposal(). Touches nothing but this chain (and the
  /// hooks, BasinHoppingHooks::concurrent), so walkers propose on several threads at once.
  std::vector<double> proposeTrial();
  /// The ASTEP per-atom energies of the Markov state (empty when ASTEP is off or unavailable),
  /// computed when the state has changed since they last were: a change only marks them, so that
  /// walkers compute them for every chain at once on host threads where the potential allows it
  /// (Potential::concurrentPerAtomEnergies). prepareSymmetrisation() and so proposeTrial() call it.
  void updateAtomEnergies();
  /// Starts the symmetrisation episode that proposeTrial() would start (Symmetrisation::prepare);
  /// draws no random numbers and touches nothing but this chain. True when the next step quenches
  /// a candidate.
  bool prepareSymmetrisation();
  /// Undoes the last proposeTrial() whose quench a stop request ended: the random source as it was
  /// before it, so that a resume repeats the step exactly.
  void undoProposal();
  /// The part of completeStep() that reads only this chain and the shared list's energies, which
  /// no chain changes until every walker has completed its step: x (the minimiser's output)
  /// centred, the quench's calls counted, its failure and rejection tests, NEWRESTART's decision
  /// (with AVOID's distances). Walkers run it on several threads, then completeStep() in walker
  /// order; completeStep() runs it itself when it has not run for this quench.
  void prepareCompletion(long step, std::vector<double>& x, const LbfgsResult& q);
  /// The rest of step `step` once the trial is quenched (x the minimiser's output, q its result):
  /// accept or reject, adapt the step size, NEWRESTART. True when NEWRESTART reseeds: the caller
  /// then quenches reseedStart() and hands it to completeReseed() before the next step.
  bool completeStep(long step, std::vector<double> x, const LbfgsResult& q);
  /// After prepareCompletion(): whether completeStep() for q touches nothing outside this chain
  /// but its offer sink and its observer, so that walkers may complete their steps on several
  /// threads. Not so for a symmetrisation candidate (its episode may quench on the potential) or a
  /// quench close enough to the target to be re-quenched tightly on the potential.
  bool completionIsLocal(const LbfgsResult& q) const;
  std::vector<double> reseedStart() { return randomStart(); }
  /// Another walker holds this chain's minimum (crowdLimit): the caller reseeds it as after
  /// completeStep() returned true.
  void crowdOut();
  /// The reseed quenched from reseedStart(): x the minimiser's output, q its result (never a
  /// stopped one: see keepReseedForResume).
  void completeReseed(long step, std::vector<double> x, const LbfgsResult& q);
  /// A stop request ended the reseed quench from `start` (reseedStart()'s structure): the reseed
  /// stays pending in state(), and a resumed run quenches it first (completePendingReseed, or
  /// the walker ensemble), so that it continues exactly as the run never stopped.
  void keepReseedForResume(std::vector<double> start);
  /// The structure of a reseed left pending by keepReseedForResume (empty: none).
  const std::vector<double>& pendingReseedStart() const { return m_unquenchedReseed; }
  /// Resumed single chain: quenches the pending reseed, if any, and completes the step it belongs
  /// to (its checkpoint included). False when a stop request ended that quench again.
  bool completePendingReseed();
  /// Tight re-quench done elsewhere: x[i] and q[i] are the minimiser's output for
  /// state().lowest[i]; failed ones are counted and keep the minimum as the run saved it.
  void keepRefined(std::vector<std::vector<double>> x, const std::vector<LbfgsResult>& q);

  /// The Markov state and its energy, for replica exchange (ParallelTempering.h).
  const std::vector<double>& markov() const { return m_markov; }
  double markovEnergy() const { return m_markovEnergy; }
  /// Takes over another chain's Markov state (replica exchange: configurations move, temperatures
  /// stay).
  void takeMarkovState(std::vector<double> x, double energy);
  /// Where the minima this chain saves go: the walker ensemble collects them during a phase of its
  /// round and offers them to the shared list afterwards, in walker order (WalkerEnsemble.h);
  /// unset: straight into the list.
  void setOfferSink(std::function<void(StoredMinimum)> sink) { m_offerSink = std::move(sink); }
  const BasinHoppingParams& params() const { return m_params; }
  const BasinHoppingResult& result() const { return m_result; }
  double stepSize() const { return m_stepSize; }

  bool targetReached() const { return m_result.targetReached; }
  /// False when a stop request ended quench 0: there is no state to save yet.
  bool started() const { return m_started; }
  void stopEarly() { m_result.stoppedEarly = true; }
  /// Everything needed to continue the run (BasinHoppingState).
  BasinHoppingState state() const;
  /// Re-quenches the saved minima tightly (GMIN's TIGHTCONV) and returns the result.
  BasinHoppingResult finish();

 private:
  /// L-BFGS from x in place on the run's workspace (settle() follows).
  LbfgsResult quench(std::vector<double>& x, const Lbfgs& minimizer);
  /// What every quench ends with, wherever it ran: x centred (CENTRE), its calls counted.
  void settle(std::vector<double>& x, const LbfgsResult& q);
  std::vector<double> randomStart();
  /// The Markov state perturbed: the cluster step, then the system's own moves.
  std::vector<double> perturbedMarkovState();
  /// Why a quench counts as a failed minimisation, empty when it does not: a non-finite energy or
  /// gradient, the iteration cap reached (RMS still above the tolerance), or an energy more than
  /// coldFusionDrop below the lowest saved minimum.
  std::string failure(const LbfgsResult& q) const;
  /// failure(q), counted in the result when not empty.
  std::string countFailure(const LbfgsResult& q);
  /// Why the quenched trial x, whose minimiser succeeded, may not be saved or accepted; empty
  /// when it may.
  std::string rejectReason(const std::vector<double>& x) const;
  /// Metropolis at kT; draws a random number only for an uphill step, as GMIN does.
  bool metropolis(double energy);
  void moveMarkovState(std::vector<double> x, double energy);
  /// Sets the target flags when `energy` (of the quenched `x`) reaches TARGET + EDIFF.
  void checkTarget(long step, double energy, const std::vector<double>& x);
  /// Whether checkTarget() re-quenches x tightly before it decides: a loose quench within 10
  /// EDIFF of TARGET + EDIFF or below it, when TIGHTCONV is tighter than SLOPPYCONV.
  bool requenchesForTarget(double energy) const;
  /// Every NACCEPT ordinary steps: step size toward the target acceptance ratio.
  void adjustStepSize(long step);
  /// What prepareCompletion() found for the quench that completeStep() takes next.
  struct Completion {
    bool prepared = false;
    bool failed = false;      ///< the minimiser failed (failure(q) not empty; counted)
    std::string whyRejected;  ///< the failure, or rejectReason(x); empty: x may be kept
    NewRestart::Decision decision;  ///< NEWRESTART's, for an ordinary step's quench that is kept
  };
  /// completeStep() for a symmetrisation candidate's quench.
  bool completeCandidate(long step, std::vector<double> x, const LbfgsResult& q,
                         const Completion& done);
  /// Reports a NEWRESTART decision other than None (after the reseed, when it reseeds).
  void reportRestart(long step, const NewRestart::Decision& decision);
  void checkpoint(long step);
  /// The minimum x of energy `energy` found at quench `step`, to save: to the offer sink when
  /// set, else to the list; dropped at once when the list would refuse it whatever comes first.
  void offerMinimum(double energy, const std::vector<double>& x, long step);

  Potential& m_potential;
  const BasinHoppingParams& m_params;
  const BasinHoppingHooks& m_hooks;
  double m_radius;
  BasinHoppingObserver& m_report;

  Random m_random;
  const Lbfgs m_sloppy;
  const Lbfgs m_tight;
  const std::unique_ptr<LbfgsWorkspace> m_workspace;  ///< null for a walker
  LowestMinima m_ownLowest;
  LowestMinima& m_lowest;  ///< m_ownLowest, or the walker ensemble's shared list
  std::function<void(StoredMinimum)> m_offerSink;
  const ClusterStepTaker m_stepTaker;
  NewRestart m_newRestart;
  BasinHoppingResult m_result;

  std::vector<double> m_markov;
  double m_markovEnergy = 0.0;
  std::vector<double> m_atomEnergies;  ///< GMIN's VAT of the Markov state
  bool m_atomEnergiesStale = true;     ///< the Markov state changed since they were computed
  double m_stepSize;
  long m_acceptedInWindow = 0;
  long m_stepsInWindow = 0;  ///< ordinary steps since the last step-size adjustment
  Symmetrisation m_symmetrisation;
  bool m_trialIsCandidate = false;  ///< proposeTrial() handed out a symmetrisation candidate
  /// m_random at an earlier proposal (renewed every kRandomMarkDraws draws) and its draws when
  /// the last proposeTrial() began: undoProposal() goes back to the mark and skips forward.
  Random m_randomMark;
  std::uint64_t m_drawsBeforeTrial = 0;
  Completion m_completion;          ///< of the quench of the trial under way
  NewRestart::Decision m_pendingReseed;  ///< between completeStep() and completeReseed()
  std::vector<double> m_unquenchedReseed;  ///< keepReseedForResume's start (empty: none)
  bool m_started = true;
};

}  // namespace landscape
