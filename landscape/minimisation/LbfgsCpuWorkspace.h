#pragma once
// The CPU (Eigen) L-BFGS workspace: the vectors x, g, p and the trial point, and the history
// (LbfgsHostHistory), over a potential's host entry point.
#include <Eigen/Dense>
#include <vector>

#include "landscape/minimisation/LbfgsHostHistory.h"
#include "landscape/minimisation/LbfgsWorkspace.h"
#include "potentials/Potential.h"

namespace landscape {

/// How the workspace forms and measures its direction.
struct LbfgsCpuWorkspaceOptions {
  /// 0: |p| is the length of the whole vector. b > 0: |p| is the largest length of the
  /// consecutive blocks of b components, so that maxStep caps each block alone (DNEB: one block
  /// per image, OPTIM's per-image step cap).
  Eigen::Index stepNormBlock = 0;
};

class LbfgsCpuWorkspace : public LbfgsWorkspace {
 public:
  /// The potential is evaluated on its host entry point; history size m >= 1.
  LbfgsCpuWorkspace(Potential& potential, int historySize,
                    const LbfgsCpuWorkspaceOptions& options = {});

  std::size_t dimension() const override { return static_cast<std::size_t>(m_x.size()); }
  void setCoordinates(const double* x) override;
  void getCoordinates(double* x) const override;
  void getGradient(double* g) const override;
  double evaluateCurrent() override;
  double gradientNormSquared() const override { return m_g.squaredNorm(); }
  double rmsGradient(double gradientNormSquared) override;
  void useDiagonalMetric(bool on) override;
  DirectionSummary computeDirection(double initialGuess) override;
  void reverseDirection() override { m_p = -m_p; }
  double evaluateTrial(double c) override;
  double acceptTrial() override;
  void clearHistory() override { m_history.clear(); }
  int historyLength() const override { return m_history.length(); }

 private:
  double stepNorm() const;

  Potential& m_potential;
  LbfgsCpuWorkspaceOptions m_options;
  Eigen::VectorXd m_x, m_g, m_p, m_xTrial, m_gTrial;
  LbfgsHostHistory m_history;
  // Diagonal metric (Potential::diagonalMetric): sqrt(w) and 1 / sqrt(w); empty when unused. The
  // history then holds s sqrt(w) and y / sqrt(w), the pairs of the scaled coordinates.
  std::vector<double> m_metricW;
  Eigen::VectorXd m_sqrtW, m_invSqrtW;
};

}  // namespace landscape
