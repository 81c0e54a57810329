#pragma once
// One structure's GMIN L-BFGS cut open at every energy evaluation, so that a batch of structures
// can share each potential call (BatchedLbfgs). The decisions are LbfgsStep.h's and the vector
// arithmetic is LbfgsCpuWorkspace's (the same LbfgsHostHistory on the same Eigen types), so the
// iterates are bit for bit those of Lbfgs on the CPU with the structure alone.
//
// Protocol: start(x), then the potential evaluates at trialPoint() into trialGradient() and the
// caller passes the energy (and, under a gradient metric, the potential's RMS gradient there) to
// advance(); repeat while needsEvaluation().
//
// A potential's metric as LbfgsCpuWorkspace takes it: a diagonal metric (LbfgsDiagonalMetric,
// when LbfgsParams::useDiagonalMetric is set and the potential has one) scales the direction, the
// step length and the history; a gradient metric (BatchedPotential::hasGradientMetric) replaces
// sqrt(|g|^2 / n) by the RMS the caller passes.
#include <Eigen/Dense>

#include "landscape/minimisation/LbfgsDiagonalMetric.h"
#include "landscape/minimisation/LbfgsHostHistory.h"
#include "landscape/minimisation/LbfgsParams.h"
#include "landscape/minimisation/LbfgsStep.h"

namespace landscape {

class LbfgsStructureRun {
 public:
  /// n degrees of freedom; params already checked. `metric` (n scales or none, not owned: it
  /// must outlive the run) is the potential's diagonal metric; `gradientMetric`: the RMS gradient
  /// comes from advance()'s argument.
  LbfgsStructureRun(int n, const LbfgsParams& params, const LbfgsDiagonalMetric* metric = nullptr,
                    bool gradientMetric = false);

  /// Starts from x (n doubles); the first evaluation is at x itself.
  void start(const double* x);
  bool needsEvaluation() const { return m_next != LbfgsNext::Finish; }
  /// Where to evaluate next (n doubles) and where the gradient goes.
  const double* trialPoint() const { return m_evaluatingStart ? m_x.data() : m_xTrial.data(); }
  double* trialGradient() { return m_evaluatingStart ? m_g.data() : m_gTrial.data(); }
  /// The energy at trialPoint(), its gradient already in trialGradient(); `metricRms` is the
  /// potential's RMS gradient there, read only under a gradient metric.
  void advance(double energy, double metricRms = 0.0);

  /// Ends the run now, as Lbfgs::minimize ends on a stop request: status Stopped, coordinates and
  /// energy of the last accepted point (energy and RMS NaN when the start was never evaluated).
  /// Nothing happens to a finished run.
  void stop();

  LbfgsResult result() const { return lbfgsStepResult(m_state); }
  void getCoordinates(double* x) const;

 private:
  // Carries out m_next until the next evaluation or the end.
  void proceed();
  // Computes p (LbfgsCpuWorkspace::computeDirection) and passes it to the step control.
  void direction();
  double rms(double gradientNormSquared, double metricRms) const;

  LbfgsParams m_params;
  LbfgsStepLimits m_limits;
  Eigen::VectorXd m_x, m_g, m_p, m_xTrial, m_gTrial;
  LbfgsHostHistory m_history;
  const LbfgsDiagonalMetric* m_metric;  // null or off: plain Cartesians
  bool m_gradientMetric;
  double m_metricRms = 0.0;  // the potential's RMS at the point evaluated last
  LbfgsStepState m_state{};
  LbfgsNext m_next = LbfgsNext::Finish;
  bool m_evaluatingStart = false;
};

}  // namespace landscape
