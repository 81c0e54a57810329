#pragma once
// GMIN-style basin-hopping for atomic clusters (Mantell, Pitt and Wales, J. Chem. Theory Comput.
// 2016, section 2.1, eq 1): perturb, quench with L-BFGS, Metropolis accept/reject at kT, adapt the
// step size toward the target acceptance, keep the lowest distinct minima, reseed after NEWRESTART
// quenches without improvement, and avoid the taboo list of structures that triggered earlier
// reseeds (AVOID). The library never prints: progress goes to an observer.
// Reseeding and taboo rules follow GMIN's NEWRESTART/AVOID exactly (landscape/search/NewRestart.h).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/LbfgsWorkspace.h"
#include "landscape/network/StoredMinimum.h"
#include "landscape/search/BasinHoppingParams.h"
#include "landscape/search/BasinHoppingState.h"
#include "landscape/search/Symmetrisation.h"
#include "potentials/Potential.h"

namespace landscape {

struct QuenchReport {
  long quench;    ///< 0 = the starting structure, then 1..steps
  double energy;  ///< quenched energy
  int lbfgsIterations;
  double rmsGradient;
  LbfgsStatus status;
  double markovEnergy;  ///< energy of the current Markov state after the accept/reject
  bool accepted;
  bool evaporated;           ///< an atom ended outside the container, or a hook rejected the
                             ///< structure (step rejected; see rejectReason)
  std::string rejectReason;  ///< why the structure was rejected, empty otherwise
  bool taboo;                ///< near a taboo structure (AVOID): step rejected or chain reseeded
  long functionCalls;        ///< cumulative energy + gradient evaluations
  /// The minimiser failed (non-finite energy or gradient, iteration cap, cold fusion; the reason
  /// is rejectReason): the structure is neither saved nor accepted. Quench 0 failing leaves the
  /// start as the Markov state with energy +infinity, so that the first good quench replaces it.
  bool failed = false;
  long failedQuenches = 0;  ///< failed quenches so far
  /// The quench was of a symmetrisation candidate (SYMMETRISE, SYMMETRISECSM; Symmetrisation.h):
  /// never accepted by Metropolis, the episode's end decides (onSymmetrisation).
  bool symmetrisation = false;
};

struct StepAdjustReport {
  long quench;
  double acceptanceRatio;  ///< over the last stepAdjustInterval quenches
  double stepSize;         ///< new step size
};

/// A NEWRESTART event (see NewRestart.h): a reseed, or a step rejected by the taboo rules.
struct RestartReport {
  enum class Reason { NoImprovement, Taboo, Crowded };
  long quench;
  Reason reason;
  bool reseeded;           ///< a new random chain was started (else the step was rejected)
  double chainBestEnergy;  ///< best energy of the chain at the decision
  double markovEnergy;     ///< Markov energy afterwards (the new chain's start when reseeded)
  std::size_t tabooSize;   ///< taboo structures saved (AVOID)
};

/// One minimum of the final tight re-quench (GMIN's TIGHTCONV "Final Quench" lines).
struct TightQuenchReport {
  std::size_t index, count;  ///< 1-based index among count saved minima
  double savedEnergy;        ///< as the sloppy quench saved it
  double energy;             ///< after the tight quench
  int lbfgsIterations;
  double rmsGradient;
  LbfgsStatus status;
  std::string failure;  ///< why the quench failed (the minimum is kept as saved); else empty
};

class BasinHoppingObserver {
 public:
  virtual ~BasinHoppingObserver() = default;
  virtual void onQuench(const QuenchReport&) {}
  virtual void onStepAdjust(const StepAdjustReport&) {}
  virtual void onRestart(const RestartReport&) {}
  virtual void onTightQuench(const TightQuenchReport&) {}
  /// A symmetrisation episode ended (its candidate quenches were reported by onQuench).
  virtual void onSymmetrisation(const SymmetrisationReport&) {}
  /// Every params.dumpInterval quenches (if > 0): the current lowest minima, to be saved.
  virtual void onCheckpoint(const std::vector<StoredMinimum>&) {}
  /// The complete state to continue from, after each onCheckpoint and once more when the loop
  /// ends (all steps done, target reached or stop requested), before the tight re-quench.
  virtual void onState(const BasinHoppingState&) {}
  /// Polled once per quench, as is landscape::stopRequested() (SIGINT/SIGTERM), which also ends
  /// a quench under way (LbfgsStatus::Stopped: the step is undone, as if it had not begun) and the
  /// tight re-quench: a run stopped so returns its saved minima, those not re-quenched as saved.
  virtual bool stopRequested() { return false; }
};

struct BasinHoppingResult {
  /// Re-quenched tightly, lowest first; empty when no quench succeeded.
  std::vector<StoredMinimum> lowest;
  long quenches = 0;          ///< basin-hopping steps done (not counting quench 0)
  bool stoppedEarly = false;  ///< the observer or a stop request ended the run
  long functionCalls = 0;     ///< all energy + gradient evaluations, tight re-quench included
  long restarts = 0;          ///< reseeds from random structures
  /// Quenches rejected because the minimiser failed (QuenchReport::failed), reseed quenches and
  /// tight re-quenches included; a failed tight re-quench keeps the minimum as the run saved it.
  long failedQuenches = 0;
  bool targetReached = false;
  long targetQuench = -1;         ///< quench at which the target was first reached
  long targetFunctionCalls = -1;  ///< function calls up to that quench
  double finalStepSize = 0.0;
};

/// System-specific additions to the cluster moves (e.g. AMBER side-chain rotations and
/// stereochemistry checks, landscape/search/ProteinMoves.h) and replacements of what assumes a
/// cluster of identical atoms (random starts, AVOID's distance). All are optional.
struct BasinHoppingHooks {
  /// Applied to the perturbed structure after the Cartesian displacement, before the quench.
  std::function<void(std::vector<double>& x, Random& random)> extraMove;
  /// Empty when the quenched structure may be kept; otherwise why it is rejected (it is then
  /// neither saved nor accepted, as GMIN does for changed chirality or cis/trans states).
  std::function<std::string(const std::vector<double>& x)> rejectReason;
  /// For coordinates that are not 3N Cartesians (rigid bodies): CENTRE's translation to the
  /// origin, and the largest distance of an atom from the origin for the container test. Empty:
  /// removeCentreOfMass() and maxRadius() of x (ClusterGeometry.h).
  std::function<void(std::vector<double>& x)> centre;
  std::function<double(const std::vector<double>& x)> maxRadius;
  /// A random structure for a run without a start and for every reseed (NEWRESTART, the walkers'
  /// crowd limit), drawn from the chain's generator (atoms in a periodic box: uniform in the box,
  /// BoxGeometry.h). Empty: randomCluster() inside the container (ClusterGeometry.h).
  std::function<std::vector<double>(Random& random)> randomStructure;
  /// The distance AVOID compares a new chain best with its taboo structures by (a binary mixture:
  /// permutations within each species; a periodic box: minimum-image distances over translations
  /// modulo the box, Alignment.h). Empty: minimumDistance() of a cluster of identical atoms.
  std::function<double(const std::vector<double>& a, const std::vector<double>& b)> distance;
  /// Whether the hooks may run for several chains at once (each with its own coordinates and
  /// generator): walker ensembles then propose and test their steps on host threads. False for a
  /// hook that keeps state of its own or evaluates the shared potential (gmin's Langevin move).
  bool concurrent = true;
};

class BasinHopping {
 public:
  /// Throws std::invalid_argument if params.check() fails. Quenches run on the workspaces the
  /// factory builds (default: the CPU L-BFGS).
  BasinHopping(Potential& potential, const BasinHoppingParams& params,
               LbfgsWorkspaceFactory workspaceFactory = {}, BasinHoppingHooks hooks = {});

  /// Runs from `start` (3N coordinates), or from a random cluster inside the container drawn
  /// from the seed when `start` is empty.
  BasinHoppingResult run(std::vector<double> start, BasinHoppingObserver* observer = nullptr);

  /// Continues a run from a state that observer->onState reported (same potential and params;
  /// params.steps may be larger): quench numbering, random numbers, step size, NEWRESTART and the
  /// lowest minima carry on as if the run had never stopped. Throws std::invalid_argument when
  /// the state does not fit the potential or the params.
  BasinHoppingResult resume(const BasinHoppingState& state,
                            BasinHoppingObserver* observer = nullptr);

  double containerRadius() const { return m_radius; }

 private:
  BasinHoppingResult runFrom(std::vector<double> start, const BasinHoppingState* resumed,
                             BasinHoppingObserver* observer);

  Potential& m_potential;
  BasinHoppingParams m_params;
  LbfgsWorkspaceFactory m_workspaceFactory;
  BasinHoppingHooks m_hooks;
  double m_radius;
};

}  // namespace landscape
