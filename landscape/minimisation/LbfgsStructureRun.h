#pragma once
// One structure's GMIN L-BFGS cut open at every energy evaluation, so that a batch of structures
// can share each potential call (BatchedLbfgs). The loop is Lbfgs::minimize and the vector
// arithmetic is LbfgsCpuWorkspace's, expression for expression on the same Eigen types, so the
// iterates are bit for bit those of Lbfgs on the CPU with the structure alone.
//
// Protocol: start(x), then the potential evaluates at trialPoint() into trialGradient() and the
// caller passes the energy to advance(); repeat while needsEvaluation().
#include <Eigen/Dense>
#include <vector>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/LbfgsParams.h"

namespace landscape {

class LbfgsStructureRun {
 public:
  /// n degrees of freedom; params already checked.
  LbfgsStructureRun(int n, const LbfgsParams& params);

  /// Starts from x (n doubles); the first evaluation is at x itself.
  void start(const double* x);
  bool needsEvaluation() const { return m_phase != Phase::Done; }
  /// Where to evaluate next (n doubles) and where the gradient goes.
  const double* trialPoint() const { return m_evaluatingCurrent ? m_x.data() : m_xTrial.data(); }
  double* trialGradient() { return m_evaluatingCurrent ? m_g.data() : m_gTrial.data(); }
  /// The energy at trialPoint(), its gradient already in trialGradient().
  void advance(double energy);

  /// Ends the run now, as Lbfgs::minimize ends on a stop request: status Stopped, coordinates and
  /// energy of the last accepted point (energy and RMS NaN when the start was never evaluated).
  /// Nothing happens to a finished run.
  void stop();

  const BatchedLbfgsResult& result() const { return m_result; }
  void getCoordinates(double* x) const;

 private:
  enum class Phase { Evaluating, Done };
  void afterStart(double energy);
  void afterTrial(double energy);
  void beginIteration();
  void beginStep();
  void setTrial();
  void finish();
  // LbfgsCpuWorkspace's operations.
  void computeDirection();
  double acceptTrial();
  void clearHistory();

  LbfgsParams m_params;
  Eigen::VectorXd m_x, m_g, m_p, m_xTrial, m_gTrial;
  Eigen::MatrixXd m_s, m_y;
  std::vector<double> m_rho, m_alpha;
  int m_oldest = 0, m_length = 0;
  double m_gamma = 1.0;
  // Lbfgs::minimize's loop state.
  Phase m_phase = Phase::Done;
  bool m_evaluatingCurrent = false;
  double m_energy = 0.0, m_rms = 0.0;
  double m_directionDotGradient = 0.0, m_directionNorm = 0.0;
  double m_scale = 1.0;  // c of Algorithm 3
  int m_iteration = 0, m_attempt = 0;
  bool m_cleared = false;
  BatchedLbfgsResult m_result;
};

}  // namespace landscape
