#pragma once
// Hybrid eigenvector-following (Munro and Wales, Phys. Rev. B 59, 3969 (1999); Mantell, Pitt and
// Wales, J. Chem. Theory Comput. 2016, section 2.2 and the settings of section 3.3): refines a
// transition-state candidate (a DNEB maximum) to a first-order saddle. Each iteration
//   1. finds the smallest non-zero Hessian eigenvalue lambda and its eigenvector v from gradients
//      (RayleighRitz, eqs 11-14), starting from the previous v;
//   2. steps uphill along v by the eigenvector-following step
//        h = 2 F / (|lambda| (1 + sqrt(1 + 4 F^2 / lambda^2))),  F = g . v,
//      capped at a maximum step that a trust ratio adapts between minUphillStep and maxUphillStep
//      (OPTIM's rule: compare the change of F with its prediction lambda h; shrink by 1.1 when the
//      relative error exceeds trustRatio, grow by 1.1 otherwise). With lambda >= 0 the step is the
//      full maximum step uphill (the quadratic model has no maximum along v);
//   3. minimises the energy in the subspace orthogonal to v with GMIN's L-BFGS on the gradient
//      projected by eq 15, P g = g - (g . v) v (TangentSpacePotential): at most
//      tangentIterationsBefore iterations until the eigenvector has converged (overlap |v . v_old|
//      above overlapConvergence), tangentIterationsAfter from then on.
// Converged when the RMS gradient and the uphill step are both below their tolerances and lambda
// is negative.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "landscape/minimisation/LbfgsParams.h"
#include "landscape/minimisation/LbfgsWorkspace.h"
#include "landscape/paths/RayleighRitz.h"
#include "landscape/paths/TransitionStateStatus.h"
#include "potentials/Potential.h"

namespace landscape {

/// The energy V(X) with the gradient projected by eq 15 onto the subspace orthogonal to a unit
/// vector v: the objective of the tangent-space minimisation.
class TangentSpacePotential : public Potential {
 public:
  /// `direction` must have the potential's dimension; it is normalised here (throws
  /// std::invalid_argument if it is zero or the size is wrong).
  TangentSpacePotential(Potential& potential, std::vector<double> direction);

  std::size_t dimension() const override { return m_direction.size(); }
  std::string name() const override;
  double energy(const double* x) override { return m_potential.energy(x); }
  double energyGradient(const double* x, double* g) override;

 private:
  Potential& m_potential;
  std::vector<double> m_direction;
};

struct HybridEigenvectorFollowingParams {
  /// Eigenvector search of step 1 (Mantell et al. 2016: 1000 iterations, RMS 0.01, 1% on the
  /// eigenvalue).
  RayleighRitzParams rayleighRitz;
  /// Minimiser of step 3; its maxIterations is replaced by the two counts below. Energies and
  /// lengths in the potential's units.
  LbfgsParams tangentSpace = defaultTangentSpace();
  /// Where the tangent-space L-BFGS vectors live (backends/LbfgsWorkspaceFactory); empty: the host.
  /// The eigenvector search has its own (rayleighRitz.workspace).
  LbfgsWorkspaceFactory tangentWorkspace;
  int tangentIterationsBefore = 20;    ///< tangent-space iterations while v is still turning
  int tangentIterationsAfter = 200;    ///< ... once |v . v_old| > overlapConvergence
  double overlapConvergence = 0.9999;  ///< in (0, 1]
  double initialUphillStep = 0.2;      ///< first maximum uphill step (length)
  double minUphillStep = 0.01;         ///< the trust ratio keeps the maximum step within
  double maxUphillStep = 0.5;          ///< [minUphillStep, maxUphillStep] (length)
  double trustRatio = 0.5;     ///< relative error of the predicted gradient change tolerated before
                               ///< the maximum step shrinks (dimensionless, > 0)
  double rmsTolerance = 1e-5;  ///< converged when the RMS gradient is below this (energy/length)
  double stepTolerance = 0.02;  ///< ... and the uphill step |h| is below this (length)
  int maxIterations = 1000;     ///< eigenvector-following iterations
  std::uint64_t seed = 1;       ///< of the random first eigenvector when no guess is given

  static LbfgsParams defaultTangentSpace();
  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

std::string transitionStateStatusName(TransitionStateStatus status);

/// What one iteration did (observer; verbose logs in the spirit of OPTIM's BFGSTS output).
struct HefIteration {
  int iteration;              ///< 1-based
  double energy;              ///< after the tangent-space minimisation
  double rmsGradient;         ///< of the full gradient, after the tangent-space minimisation
  double eigenvalue;          ///< lambda of step 1
  double overlap;             ///< |v . v_old| (0 on the first iteration)
  double uphillStep;          ///< signed h of step 2 (length)
  double maxUphillStep;       ///< trust-adapted cap after this iteration (length)
  int eigenvectorIterations;  ///< Rayleigh-Ritz L-BFGS iterations of step 1
  int tangentIterations;      ///< L-BFGS iterations of step 3
};

struct TransitionStateResult {
  TransitionStateStatus status = TransitionStateStatus::MaxIterations;
  double energy = 0.0;
  std::vector<double> coordinates;
  double eigenvalue = 0.0;  ///< smallest non-zero Hessian eigenvalue at the end (< 0 at a TS)
  std::vector<double> eigenvector;  ///< its unit eigenvector (the reaction coordinate)
  double rmsGradient = 0.0;
  double lastUphillStep = 0.0;  ///< |h| of the final iteration (length)
  int iterations = 0;
  long gradientCalls = 0;  ///< energy+gradient calls of the potential, eigenvector search included
  bool converged() const { return status == TransitionStateStatus::Converged; }
};

class HybridEigenvectorFollowing {
 public:
  using Observer = std::function<void(const HefIteration&)>;

  /// Throws std::invalid_argument if params.check() fails.
  explicit HybridEigenvectorFollowing(const HybridEigenvectorFollowingParams& params);
  const HybridEigenvectorFollowingParams& params() const { return m_params; }

  /// Refines `start` to a transition state. `eigenvectorGuess` (e.g. the DNEB tangent at the
  /// candidate image) seeds the first eigenvector search; empty = a seeded random vector. After the
  /// loop a final eigenvector search at the returned coordinates gives the reported eigenpair.
  /// Throws std::invalid_argument on size mismatches.
  TransitionStateResult findTransitionState(Potential& potential, const std::vector<double>& start,
                                            const std::vector<double>& eigenvectorGuess = {},
                                            const Observer& observer = {}) const;

 private:
  HybridEigenvectorFollowingParams m_params;
};

}  // namespace landscape
