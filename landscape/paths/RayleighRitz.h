#pragma once
// Smallest Hessian eigenvalue and eigenvector from gradients alone (Mantell, Pitt and Wales, J.
// Chem. Theory Comput. 2016, section 2.2, eqs 11-14): the Rayleigh-Ritz ratio lambda(x) = x^T H x /
// x^2 (eq 11) is minimised over x by GMIN's L-BFGS, with lambda from the gradient difference of eq
// 14 and its derivative in the form of eq 13,
//   lambda(x)       = [grad V(X + zeta x) - grad V(X - zeta x)] . x / (2 zeta)          (eq 14)
//   d lambda / d x  = [grad V(X + zeta x) - grad V(X - zeta x)] / zeta - 2 lambda x      (eq 13)
// for a unit vector x; two gradient calls per evaluation. As every search that needs a minimiser
// (docs/architecture.md, house rules), it is an adapter Potential (RayleighRitzPotential)
// minimised by the same Lbfgs as everything else.
//
// Overall translations and rotations (RigidBodyModes at X) are projected out of x and of the
// gradient, so the result is the smallest non-zero eigenvalue of a cluster. x is normalised at
// every iteration (Mantell et al. 2016, section 2.2): the adapter evaluates eqs 13-14 at the unit
// vector xhat = P x / |P x| (P the projector), so lambda is exactly invariant to the scale of x and
// the gradient it returns is eq 13 at xhat, and the L-BFGS workspace renormalises the iterate after
// every accepted step. Renormalising moves x only along itself, where lambda is flat, so the
// stored gradient stays valid; the {s, y} pairs keep the steps actually taken, as in OPTIM.
//
// Convergence (Mantell et al. 2016, section 3.3): RMS of d lambda / d x below lbfgs.rmsTolerance
// and the relative change of lambda below eigenvalueTolerance on each of the final two iterations.
// The L-BFGS loop stops on the RMS condition alone, so when lambda is still moving at that point
// the search continues from where it stopped with a ten times tighter RMS tolerance.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/LbfgsParams.h"
#include "potentials/Potential.h"

namespace landscape {

struct RayleighRitzParams {
  /// zeta of eqs 12-14: the finite-difference displacement along the unit vector x (length; > 0,
  /// << 1). 1e-6 balances the O(zeta^2) truncation against roundoff O(eps |g| / zeta) in double
  /// precision for Lennard-Jones and small molecules.
  double zeta = 1e-6;
  /// Project the overall translations and rotations out of x and d lambda / d x (clusters and
  /// molecules in vacuum); requires 3N coordinates. Off for model surfaces and periodic systems.
  bool removeRigidBodyModes = true;
  /// With removeRigidBodyModes: project out the three overall translations only (atoms in a
  /// periodic box, potentials/PeriodicBox.h, where rotations are not symmetries and their
  /// directions carry real curvature).
  bool translationsOnly = false;
  /// Converged once |lambda_k - lambda_{k-1}| <= eigenvalueTolerance |lambda_k| on each of the
  /// last two iterations (Mantell et al. 2016: 1%, "percentage change ... below 1% for the final
  /// two steps").
  double eigenvalueTolerance = 0.01;
  /// The minimiser of lambda(x). rmsTolerance is on the RMS of d lambda / d x (energy/length^2;
  /// Mantell et al. 2016: 0.01 kcal/mol/A^3 with maxIterations 1000); maxRise on lambda
  /// (energy/length^2); maxStep on the change of the (unit) iterate.
  LbfgsParams lbfgs = defaultLbfgs();
  /// Renewed RMS-tolerance tightenings (x 0.1 each) allowed while lambda has not settled (>= 0).
  int maxTightenings = 5;
  /// Where the L-BFGS vectors of the search live (backends/LbfgsWorkspaceFactory); empty: the host.
  LbfgsWorkspaceFactory workspace;

  static LbfgsParams defaultLbfgs();
  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

struct RayleighRitzResult {
  double eigenvalue = 0.0;          ///< lambda, energy / length^2
  std::vector<double> eigenvector;  ///< unit vector, orthogonal to the rigid-body modes if removed
  double rmsGradient = 0.0;         ///< RMS of d lambda / d x at the end
  int iterations = 0;               ///< L-BFGS iterations over all runs
  long gradientCalls = 0;           ///< gradient calls of the underlying potential
  LbfgsStatus status = LbfgsStatus::MaxIterations;  ///< of the last L-BFGS run
  bool eigenvalueSettled = false;  ///< the relative-change criterion held (or < 2 steps needed)
  bool converged() const { return status == LbfgsStatus::Converged && eigenvalueSettled; }
};

/// lambda(x) of eq 14 with d lambda / d x of eq 13 as a Potential over x (dimension n of the
/// wrapped potential), at fixed coordinates X. "Energy" is lambda (energy/length^2).
class RayleighRitzPotential : public Potential {
 public:
  /// X = coordinates (copied); zeta > 0 (length). With removeRigidBodyModes the modes are those of
  /// X (RigidBodyModes; throws std::invalid_argument unless X has 3N coordinates), the overall
  /// translations alone with translationsOnly (a periodic box).
  RayleighRitzPotential(Potential& potential, const std::vector<double>& coordinates, double zeta,
                        bool removeRigidBodyModes, bool translationsOnly = false);

  std::size_t dimension() const override { return m_x.size(); }
  std::string name() const override;
  double energy(const double* x) override;
  /// lambda of eq 14 at xhat = P x / |P x|; the gradient is eq 13 at xhat, projected (the
  /// derivative with respect to x where |x| = 1). Returns NaN (and a zero gradient) if P x = 0,
  /// which L-BFGS treats as a rejected step.
  double energyGradient(const double* x, double* g) override;

  /// x <- P x / |P x|; throws std::invalid_argument if |P x| <= 1e-10 |x| (nothing left to follow
  /// once the rigid-body modes are removed) or x has the wrong size.
  void normalise(std::vector<double>& x) const;
  /// Gradient calls of the wrapped potential so far (two per evaluation).
  long gradientCalls() const { return m_gradientCalls; }

 private:
  Potential& m_potential;
  std::vector<double> m_x;
  double m_zeta;
  std::optional<RigidBodyModes> m_modes;  ///< empty when not projecting
  std::vector<double> m_unit, m_scratch;
  std::vector<double> m_displaced, m_gradients;  // [2 x n]: X + zeta xhat, then X - zeta xhat
  double m_energies[2] = {0.0, 0.0};
  long m_gradientCalls = 0;
};

class RayleighRitz {
 public:
  /// Throws std::invalid_argument if params.check() fails.
  explicit RayleighRitz(const RayleighRitzParams& params);
  const RayleighRitzParams& params() const { return m_params; }

  /// Smallest (non-zero, with removeRigidBodyModes) eigenvalue of the Hessian at `coordinates`,
  /// starting from `initialGuess` (any non-zero vector with a component outside the rigid-body
  /// modes; the previous eigenvector in eigenvector-following). Throws std::invalid_argument on
  /// size mismatches or an unusable guess.
  RayleighRitzResult smallestEigenvector(Potential& potential,
                                         const std::vector<double>& coordinates,
                                         const std::vector<double>& initialGuess) const;

 private:
  RayleighRitzParams m_params;
};

/// A reproducible random unit vector of `dimension` entries (uniform components in [-1, 1),
/// normalised), for a first eigenvector guess when nothing better is known.
std::vector<double> randomUnitVector(std::size_t dimension, std::uint64_t seed);

}  // namespace landscape
