#pragma once
// GMIN's L-BFGS (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, Algorithms 1-3): the
// readable single-structure reference loop. The decisions are the step control of LbfgsStep.h,
// which every batched engine runs too; the vector work is an LbfgsWorkspace's, so that the CPU
// and the device workspace share this loop. Convergence on the RMS gradient sqrt(|g|^2 / n). Potentials with a diagonal metric
// (rigid bodies, Potential::diagonalMetric) are minimised in the scaled coordinates sqrt(w) x when
// LbfgsParams::useDiagonalMetric is set: H0 = gamma W^-1 and the step capped in |.|_W
// (docs/rigid-bodies.md).
#include <functional>
#include <string>
#include <vector>

#include "landscape/minimisation/LbfgsParams.h"
#include "landscape/minimisation/LbfgsStep.h"
#include "landscape/minimisation/LbfgsWorkspace.h"
#include "potentials/Potential.h"

namespace landscape {

/// A sentence for each status (progress lines and errors).
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
