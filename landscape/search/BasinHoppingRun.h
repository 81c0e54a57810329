#pragma once
// One run of basin-hopping (BasinHopping::run and ::resume): the Markov chain, the lowest minima,
// NEWRESTART and the counters that a checkpoint saves, with each part of a step as a named member.
// Internal to BasinHopping.cpp. A class rather than lambdas inside one long loop, so that every
// piece of state has one owner and every step reads as a sentence.
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

namespace landscape {

class BasinHoppingRun {
 public:
  /// params must have passed check(); radius is the container radius (infinity: none).
  BasinHoppingRun(Potential& potential, const BasinHoppingParams& params,
                  const BasinHoppingHooks& hooks, double radius,
                  const LbfgsWorkspaceFactory& workspaceFactory, BasinHoppingObserver& report);

  /// Quench 0 of a new run: `start` (a random cluster when empty) quenched, saved and made the
  /// Markov state. Returns the first basin-hopping step.
  long begin(std::vector<double> start);
  /// Takes over a checkpointed state. Returns the first step still to do.
  long restore(const BasinHoppingState& state);

  /// Basin-hopping step `step`: perturb, quench, accept or reject, adapt the step size, apply
  /// NEWRESTART, checkpoint.
  void step(long step);

  bool targetReached() const { return m_result.targetReached; }
  /// False when a stop request ended quench 0: there is no state to save yet.
  bool started() const { return m_started; }
  void stopEarly() { m_result.stoppedEarly = true; }
  /// Everything needed to continue the run (BasinHoppingState).
  BasinHoppingState state() const;
  /// Re-quenches the saved minima tightly (GMIN's TIGHTCONV) and returns the result.
  BasinHoppingResult finish();

 private:
  /// L-BFGS from x in place (then centred, CENTRE), counting its function calls.
  LbfgsResult quench(std::vector<double>& x, const Lbfgs& minimizer);
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
  /// The ASTEP per-atom energies of the Markov state (empty when ASTEP is off or unavailable).
  void refreshAtomEnergies();
  void checkTarget(long step, double energy);
  /// Every NACCEPT steps: step size toward the target acceptance ratio.
  void adjustStepSize(long step);
  /// A NEWRESTART decision other than None: reseed the chain or report the rejected step.
  void restart(long step, const NewRestart::Decision& decision);
  void checkpoint(long step);

  Potential& m_potential;
  const BasinHoppingParams& m_params;
  const BasinHoppingHooks& m_hooks;
  double m_radius;
  BasinHoppingObserver& m_report;

  Random m_random;
  const Lbfgs m_sloppy;
  const Lbfgs m_tight;
  const std::unique_ptr<LbfgsWorkspace> m_workspace;
  LowestMinima m_lowest;
  const ClusterStepTaker m_stepTaker;
  NewRestart m_newRestart;
  BasinHoppingResult m_result;

  std::vector<double> m_markov;
  double m_markovEnergy = 0.0;
  std::vector<double> m_atomEnergies;  ///< GMIN's VAT of the Markov state
  double m_stepSize;
  long m_acceptedInWindow = 0;
  bool m_started = true;
};

}  // namespace landscape
