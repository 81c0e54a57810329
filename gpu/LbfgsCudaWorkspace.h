#pragma once
// GPU implementation 1 of Mantell, Pitt and Wales (J. Chem. Theory Comput. 2016): the whole L-BFGS
// state on the device (x, g, the direction, the history S and Y, and the small matrices of the
// compact representation), with the potential evaluated through its device-resident entry point.
// The host sees only the scalars the outer loop (landscape/Lbfgs) needs: energies, p.g, |p| and
// |g|^2.
//
// The direction uses the compact representation (landscape/minimisation/LbfgsHostHistory's compact
// direction is the CPU twin): per step two GEMMs read S and Y once for S^T[g y s] and Y^T[g y s], a
// few O(m^2) kernels and cuBLAS triangular solves work on the m x m matrices, and two GEMVs read S
// and Y once more to combine: a fixed number of launches whatever m is, instead of 4m for the
// two-loop recursion.
//
// Potentials without a device entry point are evaluated through their host entry point (copies),
// so step-control tests can use analytic test functions. With the potential's diagonal metric
// (useDiagonalMetric) the history holds the pairs of the scaled coordinates u = sqrt(w) x and
// W's first column g / sqrt(w), exactly as in LbfgsCpuWorkspace. Header free of CUDA types (pimpl).
#include <memory>

#include "landscape/minimisation/LbfgsWorkspace.h"
#include "potentials/Potential.h"

namespace landscape {

class LbfgsCudaWorkspace : public LbfgsWorkspace {
 public:
  /// Allocates 2 m n doubles of history plus O(n + m^2) on the current device.
  LbfgsCudaWorkspace(Potential& potential, int historySize);
  ~LbfgsCudaWorkspace() override;

  std::size_t dimension() const override;
  void setCoordinates(const double* x) override;
  void getCoordinates(double* x) const override;
  void getGradient(double* g) const override;
  double evaluateCurrent() override;
  double gradientNormSquared() const override;
  double rmsGradient(double gradientNormSquared) override;
  void useDiagonalMetric(bool on) override;
  DirectionSummary computeDirection(double initialGuess) override;
  void reverseDirection() override;
  double evaluateTrial(double c) override;
  double acceptTrial() override;
  void clearHistory() override;
  int historyLength() const override;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
