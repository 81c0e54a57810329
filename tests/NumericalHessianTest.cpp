// Finite-difference Hessian and rigid-body modes: exact answers on analytic surfaces, the six zero
// modes of a Lennard-Jones minimum.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "potentials/LennardJones.h"
#include "tests/BatchedStructures.h"
#include "tests/Lj7Structures.h"
#include "tests/ModelSurfaces.h"
#include "tests/TestPotentials.h"

namespace landscape {
namespace {

TEST(NumericalHessian, QuadraticIsExact) {
  SeparablePolynomial f({1.0, 3.0, 7.0}, {0.0, 0.0, 0.0});
  const Eigen::MatrixXd h = numericalHessian(f, {0.3, -0.2, 0.5});
  EXPECT_NEAR((h - Eigen::Vector3d(1.0, 3.0, 7.0).asDiagonal().toDenseMatrix()).norm(), 0.0, 1e-8);
}

TEST(NumericalHessian, CurvedDoubleWellSaddleHasEigenvaluesMinusFourAndKappa) {
  CurvedDoubleWell f(2.0, 0.5);
  const HessianSpectrum s = hessianSpectrum(numericalHessian(f, {0.0, 0.0}));
  ASSERT_EQ(s.eigenvalues.size(), 2);
  EXPECT_NEAR(s.eigenvalues[0], -4.0, 1e-7);
  EXPECT_NEAR(s.eigenvalues[1], 2.0, 1e-7);
  EXPECT_EQ(s.negativeCount(), 1);
  EXPECT_NEAR(s.logProductOfPositiveEigenvalues(), std::log(2.0), 1e-7);
  // The minimum (1, c): [[8 + 4 c^2 kappa, -2 c kappa], [-2 c kappa, kappa]].
  const Eigen::MatrixXd h = numericalHessian(f, {1.0, 0.5});
  EXPECT_NEAR(h(0, 0), 8.0 + 4.0 * 0.25 * 2.0, 1e-6);
  EXPECT_NEAR(h(0, 1), -2.0, 1e-6);
  EXPECT_NEAR(h(1, 1), 2.0, 1e-6);
}

TEST(RigidBodyModes, OrthonormalAndCountsForClusterLineAndAtom) {
  const std::vector<double> lj7 = lj7PentagonalBipyramid();
  const RigidBodyModes cluster(lj7);
  EXPECT_EQ(cluster.count(), 6);
  const Eigen::MatrixXd q = cluster.basis();
  EXPECT_NEAR((q.transpose() * q - Eigen::MatrixXd::Identity(6, 6)).norm(), 0.0, 1e-12);
  const Eigen::MatrixXd c = cluster.complementBasis();
  EXPECT_EQ(c.cols(), 15);
  EXPECT_NEAR((c.transpose() * q).norm(), 0.0, 1e-12);
  EXPECT_NEAR((c.transpose() * c - Eigen::MatrixXd::Identity(15, 15)).norm(), 0.0, 1e-12);
  EXPECT_EQ(RigidBodyModes(std::vector<double>{0, 0, 0, 1.1, 0.2, -0.3}).count(), 5);  // a line
  EXPECT_EQ(RigidBodyModes(std::vector<double>{0.4, 0.5, 0.6}).count(), 3);            // one atom
  EXPECT_THROW(RigidBodyModes(std::vector<double>{1.0, 2.0}), std::invalid_argument);
}

// An isolated cluster's energy is invariant to translation and rotation, so its gradient has no
// component along the modes anywhere.
TEST(RigidBodyModes, LennardJonesGradientIsOrthogonalToTheModes) {
  LennardJones lj(7);
  std::vector<double> x = lj7CappedOctahedron();
  x[0] += 0.1;
  x[10] -= 0.07;
  std::vector<double> g(x.size());
  lj.energyGradient(x.data(), g.data());
  const RigidBodyModes modes(x);
  const Eigen::Map<Eigen::VectorXd> gv(g.data(), g.size());
  EXPECT_LT((modes.basis().transpose() * gv).norm(), 1e-12 * gv.norm());
  std::vector<double> projected = g;
  modes.projectOut(projected.data());
  for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(projected[i], g[i], 1e-12);
}

// The eigenvalues alone are the full spectrum's bits (characterisation stores them): for the
// Hessians of an LJ38 minimum and of a displaced structure, and a random symmetric matrix.
TEST(NumericalHessian, EigenvaluesAloneAreTheSpectrumsBits) {
  LennardJones lj(38);
  std::vector<double> x = batchtest::quenchedMinimum(38, 5);
  std::vector<Eigen::MatrixXd> matrices{numericalHessian(lj, x)};
  for (std::size_t i = 0; i < x.size(); i += 7) x[i] += 0.05;
  matrices.push_back(numericalHessian(lj, x));
  Eigen::MatrixXd random = Eigen::MatrixXd::Random(60, 60);
  matrices.push_back(0.5 * (random + random.transpose()));
  for (const Eigen::MatrixXd& h : matrices) {
    const Eigen::VectorXd alone = hessianEigenvalues(h);
    const Eigen::VectorXd full = hessianSpectrum(h).eigenvalues;
    ASSERT_EQ(alone.size(), full.size());
    for (Eigen::Index i = 0; i < alone.size(); ++i)
      EXPECT_EQ(alone[i], full[i]) << "eigenvalue " << i;
  }
  EXPECT_THROW(hessianEigenvalues(Eigen::MatrixXd(2, 3)), std::invalid_argument);
}

TEST(NumericalHessian, LennardJonesMinimumHasSixZeroModesAndFifteenPositive) {
  LennardJones lj(7);
  const std::vector<double> x = lj7PentagonalBipyramid();
  const Eigen::MatrixXd h = numericalHessian(lj, x);
  const HessianSpectrum full = hessianSpectrum(h);
  int nearZero = 0;
  for (Eigen::Index i = 0; i < full.eigenvalues.size(); ++i) {
    nearZero += std::abs(full.eigenvalues[i]) < 1e-4;
  }
  EXPECT_EQ(nearZero, 6);
  const HessianSpectrum internal = hessianSpectrumWithoutRigidBodyModes(h, x);
  EXPECT_EQ(internal.removedModes, 6);
  ASSERT_EQ(internal.eigenvalues.size(), 15);
  EXPECT_EQ(internal.negativeCount(), 0);
  EXPECT_GT(internal.eigenvalues[0], 1.0);
  // The non-zero spectrum is the same with or without the projection.
  for (Eigen::Index i = 0; i < 15; ++i) {
    EXPECT_NEAR(internal.eigenvalues[i], full.eigenvalues[i + 6], 1e-6);
  }
  // Eigenvectors are returned in the full space and are eigenvectors of H there.
  const Eigen::VectorXd v = internal.eigenvectors.col(0);
  EXPECT_NEAR((h * v - internal.eigenvalues[0] * v).norm(), 0.0, 1e-6);
}

TEST(NumericalHessian, BadArgumentsAreRejected) {
  LennardJones lj(2);
  EXPECT_THROW(numericalHessian(lj, {0, 0, 0, 1.1, 0, 0}, 0.0), std::invalid_argument);
  EXPECT_THROW(numericalHessian(lj, {0, 0, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
