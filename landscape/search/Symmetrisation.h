#pragma once
// When and how a basin-hopping chain tries GMIN's symmetry-adapted moves (SymmetrisationParams.h;
// Oakley, Johnston and Wales, Phys. Chem. Chem. Phys. 15, 3965 (2013)).
//
// An attempt is an episode of steps, each quenching one candidate structure instead of a
// perturbed Markov state: SYMMETRISE's candidates are the Markov minimum with one outer atom moved
// into a vacant site of its symmetric core (CoreSymmetryCompletion.h), up to NSYMQMAX of them;
// SYMMETRISECSM's first candidate is the Markov minimum averaged with its inversion image
// (CsmSymmetrisation.h), followed by CSMQUENCHES-1 downhill steps from the lowest so far. Every
// candidate quench counts as a quench (saved, TARGET checked), as in GMIN. When the episode ends
// (or the target is reached), its lowest minimum replaces the Markov state if it lies more than
// EDIFF below it -- downhill only, no Metropolis test -- and a regular step follows before the
// next attempt (GMIN does the symmetrisation and then the ordinary step of the same cycle).
// Candidate quenches do not enter NEWRESTART's count or the step-size window: GMIN's NEWRES and
// acceptance ratio see the ordinary steps only.
//
// An attempt is due before step s when no episode is under way, the previous step was an ordinary
// one, (s - 1) is a multiple of NSYMINTERVAL, the Markov energy is finite and, for SYMMETRISE, it
// changed by more than EDIFF since the last attempt (SYMMETRISECSM tries every interval, as GMIN
// does). Candidates are computed from the Markov state without drawing from the chain's random
// numbers, so that a run stopped in a candidate's quench resumes identically.
#include <limits>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/search/ClusterStepTaker.h"
#include "landscape/search/SymmetrisationParams.h"

namespace landscape {

/// What an ended episode did (BasinHoppingObserver::onSymmetrisation).
struct SymmetrisationReport {
  long quench = 0;             ///< the quench that ended the episode
  std::string scheme;          ///< "SYMMETRISE" or "SYMMETRISECSM"
  std::string detail;          ///< the core (atoms, point group) or the CSM value
  int candidates = 0;          ///< quenches of the episode
  double bestEnergy = 0.0;     ///< lowest candidate minimum (+infinity when none succeeded)
  bool changedMarkov = false;  ///< it replaced the Markov state
  double markovEnergy = 0.0;   ///< the Markov energy afterwards
};

class Symmetrisation {
 public:
  /// Everything a checkpoint needs to continue an episode (BasinHoppingState::symmetrisation).
  struct State {
    double lastAttemptEnergy = std::numeric_limits<double>::quiet_NaN();  ///< GMIN's ELASTSYM
    bool ordinaryStepOwed = false;  ///< an episode just ended: the next step is an ordinary one
    std::vector<std::vector<double>> candidates;  ///< still to quench, next first
    int downhillStepsLeft = 0;                     ///< SYMMETRISECSM steps after the candidates
    int quenched = 0;                              ///< candidate quenches of this episode
    double bestEnergy = std::numeric_limits<double>::infinity();
    std::vector<double> best;  ///< lowest candidate minimum of the episode
    std::string detail;        ///< for the report
    bool inEpisode() const { return !candidates.empty() || downhillStepsLeft > 0; }
  };

  /// params must have passed check(); ediff is BasinHoppingParams::energyDifference.
  Symmetrisation(const SymmetrisationParams& params, double ediff);

  bool on() const { return m_params.on(); }
  /// Before step `step`: starts an episode when one is due (above). True when the step quenches a
  /// symmetrisation candidate. atomEnergies: the Markov state's (SYMMETRISE ranks outer atoms by
  /// them; may be empty).
  bool prepare(long step, const std::vector<double>& markov, double markovEnergy,
               const std::vector<double>& atomEnergies);
  /// The structure this step quenches (prepare() returned true): the next candidate, or a
  /// SYMMETRISECSM downhill step from the episode's lowest minimum (draws from `random`).
  std::vector<double> candidate(const ClusterStepTaker& stepTaker, double stepSize,
                                Random& random) const;
  /// The candidate's quench ended: energy and x of its minimum when `valid` (the minimiser
  /// succeeded and the structure may be kept), else nothing is learnt.
  void record(double energy, std::vector<double> x, bool valid);
  /// True when the episode has no candidate left, or the target was reached.
  bool episodeOver(bool targetReached) const;
  /// Ends the episode: the report, and its lowest minimum in `markov`/`markovEnergy` when more
  /// than EDIFF below them.
  SymmetrisationReport finishEpisode(long quench, std::vector<double>& markov,
                                     double& markovEnergy);
  /// An ordinary step completed.
  void ordinaryStepDone() { m_state.ordinaryStepOwed = false; }

  const State& state() const { return m_state; }
  void restore(const State& state);

 private:
  bool due(long step, double markovEnergy) const;

  SymmetrisationParams m_params;
  double m_ediff;
  State m_state;
};

}  // namespace landscape
