// Rayleigh-Ritz smallest eigenvector from gradients (Mantell, Pitt and Wales, J. Chem. Theory
// Comput. 2016, eqs 11-14): exact on a quadratic, and the smallest non-zero eigenvalue of a
// finite-difference Hessian to 1e-4 relative on LJ7.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "landscape/geometry/Alignment.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"
#include "landscape/paths/RayleighRitz.h"
#include "potentials/LennardJones.h"
#include "tests/Lj7Structures.h"
#include "tests/TestPotentials.h"

namespace landscape {
namespace {

RayleighRitzParams tight() {
  RayleighRitzParams p;
  p.lbfgs.rmsTolerance = 1e-7;
  p.eigenvalueTolerance = 1e-6;
  return p;
}

// |H v - lambda v| / |lambda|: v need only lie in lambda's eigenspace (LJ7 minima are symmetric
// and have degenerate eigenvalues).
double relativeResidual(const Eigen::MatrixXd& h, const std::vector<double>& v, double lambda) {
  const Eigen::Map<const Eigen::VectorXd> vv(v.data(), v.size());
  return (h * vv - lambda * vv).norm() / std::abs(lambda);
}

TEST(RayleighRitz, QuadraticGivesItsSmallestEigenpairExactly) {
  SeparablePolynomial f({5.0, 2.0, 9.0}, {0.0, 0.0, 0.0});
  RayleighRitzParams p = tight();
  p.removeRigidBodyModes = false;
  const RayleighRitzResult r =
      RayleighRitz(p).smallestEigenvector(f, {0.1, 0.2, 0.3}, {1.0, 1.0, 1.0});
  ASSERT_TRUE(r.converged()) << lbfgsStatusName(r.status);
  EXPECT_NEAR(r.eigenvalue, 2.0, 1e-8);
  EXPECT_NEAR(std::abs(r.eigenvector[1]), 1.0, 1e-8);
  double norm2 = 0.0;
  for (double v : r.eigenvector) norm2 += v * v;
  EXPECT_NEAR(norm2, 1.0, 1e-14);
  EXPECT_EQ(r.gradientCalls % 2, 0);  // eq 14: two gradients per evaluation
}

// At a unit vector orthogonal to the rigid-body modes the adapter's gradient (eq 13) is the
// derivative of its own lambda (eq 14): compare with central differences (agreement to O(zeta^2),
// the finite-difference error of eq 13).
TEST(RayleighRitz, AdapterGradientIsTheDerivativeOfItsEigenvalueEstimate) {
  LennardJones lj(7);
  std::vector<double> x = lj7CappedOctahedron();
  x[2] += 0.05;
  RayleighRitzPotential ratio(lj, x, 1e-4, true);
  std::vector<double> v = randomUnitVector(21, 3);
  ratio.normalise(v);
  std::vector<double> g(21);
  const double lambda = ratio.energyGradient(v.data(), g.data());
  EXPECT_TRUE(std::isfinite(lambda));
  const double h = 1e-4;
  double gnorm = 0.0, diff = 0.0;
  for (int i = 0; i < 21; ++i) {
    std::vector<double> vp = v, vm = v;
    vp[i] += h;
    vm[i] -= h;
    const double fd = (ratio.energy(vp.data()) - ratio.energy(vm.data())) / (2.0 * h);
    diff += (fd - g[i]) * (fd - g[i]);
    gnorm += g[i] * g[i];
  }
  EXPECT_LT(std::sqrt(diff), 1e-4 * std::sqrt(gnorm));
  std::vector<double> scaled = v;
  for (double& vi : scaled) vi *= 3.0;
  EXPECT_NEAR(ratio.energy(scaled.data()), lambda, 1e-12 * std::abs(lambda));
}

TEST(RayleighRitz, SmallestNonzeroEigenvalueOfLj7MinimaToOneInTenThousand) {
  LennardJones lj(7);
  for (const std::vector<double>& x : {lj7PentagonalBipyramid(), lj7CappedOctahedron()}) {
    const Eigen::MatrixXd h = numericalHessian(lj, x);
    const HessianSpectrum s = hessianSpectrumWithoutRigidBodyModes(h, x);
    const RayleighRitzResult r =
        RayleighRitz(tight()).smallestEigenvector(lj, x, randomUnitVector(21, 11));
    ASSERT_TRUE(r.converged()) << lbfgsStatusName(r.status);
    EXPECT_NEAR(r.eigenvalue, s.eigenvalues[0], 1e-4 * std::abs(s.eigenvalues[0]))
        << "finite-difference Hessian spectrum starts " << s.eigenvalues[0] << " "
        << s.eigenvalues[1];
    EXPECT_LT(relativeResidual(h, r.eigenvector, r.eigenvalue), 1e-3);
    // Orthogonal to the rigid-body modes: not one of the six zero modes.
    const RigidBodyModes modes(x);
    const Eigen::Map<const Eigen::VectorXd> v(r.eigenvector.data(), 21);
    EXPECT_LT((modes.basis().transpose() * v).norm(), 1e-10);
  }
}

// Away from a stationary point the smallest eigenvalue is negative; Rayleigh-Ritz over vectors
// orthogonal to the rigid-body modes matches the Hessian restricted to their complement.
TEST(RayleighRitz, NegativeEigenvalueAwayFromAMinimum) {
  LennardJones lj(7);
  std::vector<double> x = lj7PentagonalBipyramid();
  const std::vector<double> y = alignStructures(x, lj7CappedOctahedron()).alignedB;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.5 * (x[i] + y[i]);  // a strained midpoint
  const Eigen::MatrixXd h = numericalHessian(lj, x);
  const HessianSpectrum s = hessianSpectrumWithoutRigidBodyModes(h, x);
  ASSERT_LT(s.eigenvalues[0], 0.0);
  const RayleighRitzResult r =
      RayleighRitz(tight()).smallestEigenvector(lj, x, randomUnitVector(21, 5));
  ASSERT_TRUE(r.converged());
  EXPECT_NEAR(r.eigenvalue, s.eigenvalues[0], 1e-4 * std::abs(s.eigenvalues[0]));
}

// At a first-order saddle (the LJ7 transition state found by DNEB + hybrid EF) the smallest
// non-zero eigenvalue is the negative one.
TEST(RayleighRitz, NegativeEigenvalueAtAnLj7TransitionState) {
  LennardJones lj(7);
  DnebParams dp;
  dp.images = 10;
  const DnebResult band = Dneb(dp).run(lj, lj7PentagonalBipyramid(), lj7CappedOctahedron());
  ASSERT_FALSE(band.candidates.empty());
  const TransitionStateResult ts = HybridEigenvectorFollowing(HybridEigenvectorFollowingParams{})
                                       .findTransitionState(lj, band.images[band.candidates[0]]);
  ASSERT_TRUE(ts.converged());
  const Eigen::MatrixXd h = numericalHessian(lj, ts.coordinates);
  const HessianSpectrum s = hessianSpectrumWithoutRigidBodyModes(h, ts.coordinates);
  ASSERT_EQ(s.negativeCount(), 1);
  const RayleighRitzResult r =
      RayleighRitz(tight()).smallestEigenvector(lj, ts.coordinates, randomUnitVector(21, 17));
  ASSERT_TRUE(r.converged());
  EXPECT_NEAR(r.eigenvalue, s.eigenvalues[0], 1e-4 * std::abs(s.eigenvalues[0]));
  EXPECT_LT(relativeResidual(h, r.eigenvector, r.eigenvalue), 1e-3);
}

// Mantell et al.'s settings (RMS 0.01, 1% on the eigenvalue) from a warm start take few iterations
// and report the eigenvalue as settled.
TEST(RayleighRitz, DefaultSettingsConvergeWithSettledEigenvalue) {
  LennardJones lj(7);
  const std::vector<double> x = lj7CappedOctahedron();
  const RayleighRitzResult cold =
      RayleighRitz(RayleighRitzParams{}).smallestEigenvector(lj, x, randomUnitVector(21, 2));
  ASSERT_TRUE(cold.converged());
  EXPECT_TRUE(cold.eigenvalueSettled);
  const RayleighRitzResult warm =
      RayleighRitz(RayleighRitzParams{}).smallestEigenvector(lj, x, cold.eigenvector);
  ASSERT_TRUE(warm.converged());
  EXPECT_LE(warm.iterations, 2);
  EXPECT_NEAR(warm.eigenvalue, cold.eigenvalue, 0.01 * std::abs(cold.eigenvalue));
}

// When the RMS criterion holds before lambda has settled, the search goes on with a tighter RMS
// tolerance; without tightenings allowed it reports the eigenvalue as unsettled.
TEST(RayleighRitz, LooseRmsToleranceIsTightenedUntilTheEigenvalueSettles) {
  LennardJones lj(7);
  const std::vector<double> x = lj7CappedOctahedron();
  RayleighRitzParams p;
  p.lbfgs.rmsTolerance = 3.0;
  p.eigenvalueTolerance = 1e-9;
  p.maxTightenings = 0;
  const RayleighRitzResult once =
      RayleighRitz(p).smallestEigenvector(lj, x, randomUnitVector(21, 2));
  EXPECT_EQ(once.status, LbfgsStatus::Converged);
  ASSERT_GE(once.iterations, 2);
  EXPECT_FALSE(once.eigenvalueSettled);
  EXPECT_FALSE(once.converged());
  p.maxTightenings = 10;
  const RayleighRitzResult tightened =
      RayleighRitz(p).smallestEigenvector(lj, x, randomUnitVector(21, 2));
  EXPECT_TRUE(tightened.converged());
  EXPECT_GT(tightened.iterations, once.iterations);
  EXPECT_NEAR(tightened.eigenvalue, 30.5644573, 1e-5);
}

TEST(RayleighRitz, BadParametersAndGuessesAreRejected) {
  RayleighRitzParams p;
  p.zeta = 0.0;
  try {
    RayleighRitz rr(p);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("zeta"), std::string::npos);
  }
  p = RayleighRitzParams{};
  p.lbfgs.historySize = 0;
  EXPECT_THROW(RayleighRitz{p}, std::invalid_argument);
  LennardJones lj(7);
  const std::vector<double> x = lj7CappedOctahedron();
  // A pure translation has nothing left after the projection.
  std::vector<double> translation(21, 0.0);
  for (int i = 0; i < 7; ++i) translation[3 * i] = 1.0;
  EXPECT_THROW(RayleighRitz(RayleighRitzParams{}).smallestEigenvector(lj, x, translation),
               std::invalid_argument);
  EXPECT_THROW(RayleighRitz(RayleighRitzParams{}).smallestEigenvector(lj, x, {1.0}),
               std::invalid_argument);
}

}  // namespace
}  // namespace landscape
