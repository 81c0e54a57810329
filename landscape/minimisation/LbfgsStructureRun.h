#pragma once
// One structure's GMIN L-BFGS cut open at every energy evaluation, so that a batch of structures
// can share each potential call (BatchedLbfgs). The decisions are LbfgsStep.h's and the vector
// arithmetic is LbfgsCpuWorkspace's (the same LbfgsHostHistory on the same Eigen types), so the
// iterates are bit for bit those of Lbfgs on the CPU with the structure alone.
//
// Protocol: start(x), then the potential evaluates at trialPoint() into trialGradient() and the
// caller passes the energy to advance(); repeat while needsEvaluation().
#include <Eigen/Dense>

#include "landscape/minimisation/LbfgsHostHistory.h"
#include "landscape/minimisation/LbfgsParams.h"
#include "landscape/minimisation/LbfgsStep.h"

namespace landscape {

class LbfgsStructureRun {
 public:
  /// n degrees of freedom; params already checked.
  LbfgsStructureRun(int n, const LbfgsParams& params);

  /// Starts from x (n doubles); the first evaluation is at x itself.
  void start(const double* x);
  bool needsEvaluation() const { return m_next != LbfgsNext::Finish; }
  /// Where to evaluate next (n doubles) and where the gradient goes.
  const double* trialPoint() const { return m_evaluatingStart ? m_x.data() : m_xTrial.data(); }
  double* trialGradient() { return m_evaluatingStart ? m_g.data() : m_gTrial.data(); }
  /// The energy at trialPoint(), its gradient already in trialGradient().
  void advance(double energy);

  /// Ends the run now, as Lbfgs::minimize ends on a stop request: status Stopped, coordinates and
  /// energy of the last accepted point (energy and RMS NaN when the start was never evaluated).
  /// Nothing happens to a finished run.
  void stop();

  LbfgsResult result() const { return lbfgsStepResult(m_state); }
  void getCoordinates(double* x) const;

 private:
  // Carries out m_next until the next evaluation or the end.
  void proceed();
  double rms(double gradientNormSquared) const;

  LbfgsParams m_params;
  LbfgsStepLimits m_limits;
  Eigen::VectorXd m_x, m_g, m_p, m_xTrial, m_gTrial;
  LbfgsHostHistory m_history;
  LbfgsStepState m_state{};
  LbfgsNext m_next = LbfgsNext::Finish;
  bool m_evaluatingStart = false;
};

}  // namespace landscape
