#pragma once
// GMIN's L-BFGS (seed 001, Algorithms 1-3): two-loop direction with H0 = gamma I (eq 2), uphill
// reversal, step capped at maxStep, step divided by 10 while the energy rises by more than
// maxRise; if the energy still rises the history is cleared and the step retried along -g.
// Convergence on the RMS gradient sqrt(|g|^2 / n). The vector work is delegated to an
// LbfgsWorkspace so that CPU and GPU backends share this loop. Potentials with a diagonal metric
// (rigid bodies, Potential::diagonalMetric) are minimised in the scaled coordinates sqrt(w) x when
// LbfgsParams::useDiagonalMetric is set: H0 = gamma W^-1 and the step capped in |.|_W
// (docs/rigid-bodies.md).
#include <functional>
#include <string>
#include <vector>

#include "landscape/minimisation/LbfgsParams.h"
#include "landscape/minimisation/LbfgsWorkspace.h"
#include "potentials/Potential.h"

namespace landscape {

enum class LbfgsStatus {
  Converged,          ///< RMS gradient below the tolerance
  MaxIterations,      ///< iteration cap reached
  LineSearchFailed,   ///< the energy rose even along the steepest-descent direction
  NonFiniteEnergy,    ///< the potential returned NaN/inf at the current point
  /// A stop was requested (landscape/core/StopRequest.h, SIGINT/SIGTERM): the run ended before
  /// its next iteration. Not converged; callers neither accept nor save the point.
  Stopped,
};
std::string lbfgsStatusName(LbfgsStatus status);

/// What one iteration did; passed to the observer (tests and verbose logs).
struct LbfgsIteration {
  int iteration;            ///< 1-based
  double energy;            ///< after the step
  double rmsGradient;       ///< after the step
  double stepLength;        ///< |c p| of the accepted step
  int backtracks;           ///< divisions of c by 10 on the accepted direction
  bool reversed;            ///< the L-BFGS direction pointed uphill and was reversed
  bool cappedAtMaxStep;     ///< |p| exceeded maxStep and c was reduced to meet it
  bool historyCleared;      ///< all backtracks failed; history cleared and -g tried
};

struct LbfgsResult {
  double energy = 0.0;
  double rmsGradient = 0.0;
  int iterations = 0;
  long functionCalls = 0;   ///< energy + gradient evaluations
  LbfgsStatus status = LbfgsStatus::MaxIterations;
  bool converged() const { return status == LbfgsStatus::Converged; }
};

class Lbfgs {
 public:
  using Observer = std::function<void(const LbfgsIteration&)>;

  /// Throws std::invalid_argument if params.check() fails.
  explicit Lbfgs(const LbfgsParams& params);
  const LbfgsParams& params() const { return m_params; }

  /// Minimises from the workspace's current coordinates; the workspace holds the result.
  LbfgsResult minimize(LbfgsWorkspace& workspace, const Observer& observer = {}) const;

  /// Convenience: CPU workspace over `potential`, x updated in place.
  LbfgsResult minimize(Potential& potential, std::vector<double>& x,
                       const Observer& observer = {}) const;
  /// As above on the workspace `factory` builds (the CPU one when `factory` is empty), so that an
  /// algorithm can run its minimisations where the caller chose (--lbfgs-backend).
  LbfgsResult minimize(Potential& potential, std::vector<double>& x,
                       const LbfgsWorkspaceFactory& factory, const Observer& observer = {}) const;

 private:
  LbfgsParams m_params;
};

}  // namespace landscape
