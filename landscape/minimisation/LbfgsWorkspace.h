#pragma once
// The vector side of L-BFGS as a backend operation: the workspace owns x, g, the search
// direction p and the history {s, y}; the outer loop (Lbfgs) only ever sees scalars. The CPU
// workspace uses Eigen; a GPU workspace keeps everything in device memory and returns the same
// scalars, so the loop of Algorithms 1-3 of Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016
// is written once.
#include <cmath>
#include <cstddef>
#include <functional>
#include <memory>

namespace landscape {

/// Scalars of a freshly computed search direction p.
struct DirectionSummary {
  double directionDotGradient;  ///< p . g (> 0 means uphill)
  double directionNorm;         ///< |p| (|p|_W with a diagonal metric, useDiagonalMetric)
};

class Potential;

class LbfgsWorkspace {
 public:
  virtual ~LbfgsWorkspace() = default;

  virtual std::size_t dimension() const = 0;
  virtual void setCoordinates(const double* x) = 0;  ///< host array of dimension() doubles
  virtual void getCoordinates(double* x) const = 0;
  virtual void getGradient(double* g) const = 0;

  /// Energy and gradient at the current x (stored); returns the energy.
  virtual double evaluateCurrent() = 0;
  /// |g|^2 at the current x.
  virtual double gradientNormSquared() const = 0;
  /// RMS gradient at the current x for the convergence test: the potential's own metric when it
  /// has one (Potential::hasGradientMetric, e.g. rigid bodies), else sqrt(|g|^2 / n) from the
  /// |g|^2 passed in (what acceptTrial() returned).
  virtual double rmsGradient(double gradientNormSquared) {
    return std::sqrt(gradientNormSquared / static_cast<double>(dimension()));
  }

  /// Switches the potential's diagonal metric w (Potential::diagonalMetric) on or off; call with
  /// an empty history. On: L-BFGS runs in the scaled coordinates u_i = sqrt(w_i) x_i, i.e.
  /// H0 = gamma W^-1 with gamma = s.y / (y^T W^-1 y), and the direction summary reports
  /// |p|_W = sqrt(p^T W p) and p.g (unchanged by the scaling), so maxStep caps the step in the
  /// metric's length. A no-op for potentials without a metric (the default: workspaces that wrap
  /// adapter potentials).
  virtual void useDiagonalMetric(bool) {}

  /// p = -H g by the two-loop recursion (Mantell et al. 2016, Algorithm 2) with H0 = gamma I (eq
  /// 2), or H0 = initialGuess I while the history is empty (both times W^-1 with a diagonal
  /// metric).
  virtual DirectionSummary computeDirection(double initialGuess) = 0;
  /// p = -p (uphill reversal of Algorithm 3).
  virtual void reverseDirection() = 0;

  /// Trial point x + c p: evaluates energy and gradient there and returns the energy; the
  /// current point is untouched until acceptTrial().
  virtual double evaluateTrial(double c) = 0;
  /// Moves to the trial point and stores s = x_new - x, y = g_new - g (dropping the oldest pair
  /// beyond m); returns |g_new|^2.
  virtual double acceptTrial() = 0;
  virtual void clearHistory() = 0;
  virtual int historyLength() const = 0;
};

/// Builds the workspace a minimiser runs on: the CPU one (LbfgsCpuWorkspace) or the device one
/// (gpu/LbfgsCudaWorkspace). Algorithms take one of these so that they never name a backend.
using LbfgsWorkspaceFactory =
    std::function<std::unique_ptr<LbfgsWorkspace>(Potential& potential, int historySize)>;

}  // namespace landscape
