#pragma once
// The two minima a transition state connects (OPTIM's PUSHOFF followed by minimisation): step
// off the saddle by +pushoff and -pushoff along the eigenvector of its negative Hessian
// eigenvalue, then minimise each side with GMIN's L-BFGS. A side whose displaced point is not
// below the transition-state energy (an inaccurate eigenvector, or a pushoff lost in roundoff)
// retries with the pushoff doubled, up to maxPushoffDoublings times.
//
// OPTIM follows the steepest-descent path (PATH) to report path lengths; minimising from the
// pushed-off points finds the same minima for well-behaved saddles at a fraction of the cost.
//
// descendTogether() descends several transition states at once: the pushoffs as above, then all
// 2 K sides minimised as one batch through a BatchedMinimiser (docs/batched.md); with ParallelLbfgs
// each side is the single-structure minimisation bit for bit, so each result is descend()'s.
#include <vector>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/LbfgsParams.h"
#include "potentials/Potential.h"

namespace landscape {

struct TransitionStateDescentParams {
  double pushoff = 0.02;        ///< initial displacement along the eigenvector (length; PUSHOFF)
  int maxPushoffDoublings = 4;  ///< retries with 2x the pushoff when the energy did not drop
  /// Minimiser of each side (OPTIM example: BFGSMIN 1e-6, BFGSSTEPS 5000, MAXBFGS 0.2, UPDATES 10).
  LbfgsParams minimiser = defaultMinimiser();
  /// Where the minimiser's vectors live (backends/LbfgsWorkspaceFactory); empty: the host.
  LbfgsWorkspaceFactory workspace;

  static LbfgsParams defaultMinimiser();
  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

/// One side of the saddle.
struct DescentSide {
  std::vector<double> coordinates;  ///< the minimum reached
  double energy = 0.0;
  double pushoff = 0.0;  ///< displacement used (length), signed: + or - side
  LbfgsResult minimisation;
  bool converged() const { return minimisation.converged(); }
};

struct TransitionStateDescentResult {
  DescentSide plus;   ///< from ts + pushoff * eigenvector
  DescentSide minus;  ///< from ts - pushoff * eigenvector
  bool converged() const { return plus.converged() && minus.converged(); }
};

class TransitionStateDescent {
 public:
  /// Throws std::invalid_argument if params.check() fails.
  explicit TransitionStateDescent(const TransitionStateDescentParams& params);
  const TransitionStateDescentParams& params() const { return m_params; }

  /// `eigenvector` need not be normalised (it is, here). Throws std::invalid_argument on size
  /// mismatches or a zero eigenvector.
  TransitionStateDescentResult descend(Potential& potential,
                                       const std::vector<double>& transitionState,
                                       const std::vector<double>& eigenvector) const;

  /// descend() for transitionStates[k] with eigenvectors[k], k = 0..K-1, the 2 K minimisations
  /// (plus and minus side of each, in that order) one batch of `minimiser`, whose dimension must
  /// be the potential's and whose parameters should be params().minimiser (the workspace field is
  /// then the minimiser's business). Throws std::invalid_argument as descend() does, or when the
  /// lists differ in length or the minimiser in dimension.
  std::vector<TransitionStateDescentResult> descendTogether(
      Potential& potential, const std::vector<std::vector<double>>& transitionStates,
      const std::vector<std::vector<double>>& eigenvectors, BatchedMinimiser& minimiser) const;

 private:
  /// The unit direction of `eigenvector` and the energy of the transition state, checked.
  std::vector<double> unitDirection(Potential& potential, const std::vector<double>& ts,
                                    const std::vector<double>& eigenvector) const;
  /// A side's start: its coordinates and signed pushoff, not minimised yet.
  DescentSide pushOff(Potential& potential, const std::vector<double>& ts, double tsEnergy,
                      const std::vector<double>& direction, double sign) const;
  TransitionStateDescentParams m_params;
};

}  // namespace landscape
