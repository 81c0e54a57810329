#pragma once
// CPU (Eigen) implementation of the L-BFGS vector operations.
#include <Eigen/Dense>
#include <vector>

#include "landscape/minimisation/LbfgsWorkspace.h"
#include "potentials/Potential.h"

namespace landscape {

class LbfgsCpuWorkspace : public LbfgsWorkspace {
 public:
  /// The potential is evaluated on its host entry point; history size m >= 1.
  LbfgsCpuWorkspace(Potential& potential, int historySize);

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
  void clearHistory() override;
  int historyLength() const override { return m_length; }

 private:
  Potential& m_potential;
  int m_historySize;
  Eigen::VectorXd m_x, m_g, m_p, m_xTrial, m_gTrial;
  double m_energyTrial = 0.0;
  // Circular history: pair k (0 = oldest) lives in column (m_oldest + k) % m.
  Eigen::MatrixXd m_s, m_y;
  std::vector<double> m_rho, m_alpha;
  int m_oldest = 0, m_length = 0;
  double m_gamma = 1.0;  // eq 2, from the newest pair
  // Diagonal metric (Potential::diagonalMetric): sqrt(w) and 1 / sqrt(w); empty when unused. The
  // history then holds s sqrt(w) and y / sqrt(w), the pairs of the scaled coordinates.
  std::vector<double> m_metricW;
  Eigen::VectorXd m_sqrtW, m_invSqrtW;
};

}  // namespace landscape
