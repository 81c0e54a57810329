#pragma once
// Settings of GMIN's L-BFGS (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, Algorithms
// 1-3). Lengths and energies are in the potential's units (reduced units for Lennard-Jones;
// Angstrom and kcal/mol for AMBER/SOP).
#include <string>

#include "landscape/minimisation/LbfgsStep.h"

namespace landscape {

/// The L-BFGS history size m (stored {s, y} pairs) wherever nothing else is asked for: the m = 4
/// of Mantell et al. 2016. The programs' option for it is --lbfgs-m (GMIN/OPTIM keyword UPDATES).
inline constexpr int kLbfgsHistorySize = 4;

struct LbfgsParams {
  int historySize = kLbfgsHistorySize;  ///< m, number of stored {s, y} pairs (>= 1)
  double initialGuess = 0.1;   ///< H0 of the very first step (GMIN's DGUESS), length^2/energy
  double maxStep = 0.4;        ///< cap on the step length |c p| (length)
  double maxRise = 1e-4;       ///< largest energy rise accepted on a step (energy)
  int maxBacktracks = 10;      ///< divisions of c by 10 before the history is cleared
  int maxIterations = 1000;    ///< iteration cap
  double rmsTolerance = 1e-5;  ///< converged when sqrt(|g|^2 / n) < rmsTolerance (energy/length)
  /// Precondition with the potential's diagonal metric when it has one (rigid bodies: centres
  /// weighted by their atom count, angle-axis components by the body's second moment; see
  /// Potential::diagonalMetric). maxStep then caps the step in that metric, an approximate
  /// Cartesian displacement norm (length). No effect on Cartesian potentials.
  bool useDiagonalMetric = true;

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
  /// The fields the step control reads (LbfgsStep.h).
  LbfgsStepLimits stepLimits() const {
    return {maxStep, maxRise, rmsTolerance, maxBacktracks, maxIterations};
  }
};

}  // namespace landscape
