// Hybrid eigenvector-following (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, section 2.2,
// eq 15): converges to the exact saddle of an analytic double well, to Mueller-Brown's two saddles,
// and, from the highest DNEB image between the two lowest LJ7 minima, to a transition state with
// exactly one negative Hessian eigenvalue whose descent gives two distinct minima.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"
#include "landscape/paths/TransitionStateDescent.h"
#include "potentials/LennardJones.h"
#include "tests/Lj7Structures.h"
#include "tests/ModelSurfaces.h"

namespace landscape {
namespace {

HybridEigenvectorFollowingParams surfaceParams() {
  HybridEigenvectorFollowingParams p;
  p.rayleighRitz.removeRigidBodyModes = false;
  p.rayleighRitz.lbfgs.rmsTolerance = 1e-6;
  return p;
}

TEST(HybridEigenvectorFollowing, TangentSpaceGradientIsOrthogonalToTheEigenvector) {
  CurvedDoubleWell f;
  TangentSpacePotential t(f, {3.0, 4.0});  // normalised to (0.6, 0.8)
  const double x[2] = {0.4, 0.7};
  double g[2], gt[2];
  const double e = f.energyGradient(x, g);
  EXPECT_DOUBLE_EQ(t.energyGradient(x, gt), e);
  EXPECT_NEAR(0.6 * gt[0] + 0.8 * gt[1], 0.0, 1e-15);
  const double along = 0.6 * g[0] + 0.8 * g[1];  // eq 15: G - (G . x) x
  EXPECT_NEAR(gt[0], g[0] - along * 0.6, 1e-15);
  EXPECT_NEAR(gt[1], g[1] - along * 0.8, 1e-15);
  EXPECT_THROW(TangentSpacePotential(f, {0.0, 0.0}), std::invalid_argument);
}

TEST(HybridEigenvectorFollowing, CurvedDoubleWellConvergesToTheExactSaddle) {
  CurvedDoubleWell f(2.0, 0.5);
  std::vector<HefIteration> its;
  const TransitionStateResult ts =
      HybridEigenvectorFollowing(surfaceParams())
          .findTransitionState(f, {0.3, 0.2}, {},
                               [&](const HefIteration& it) { its.push_back(it); });
  ASSERT_TRUE(ts.converged()) << transitionStateStatusName(ts.status);
  EXPECT_NEAR(ts.coordinates[0], 0.0, 1e-6);
  EXPECT_NEAR(ts.coordinates[1], 0.0, 1e-6);
  EXPECT_NEAR(ts.energy, 1.0, 1e-10);
  EXPECT_NEAR(ts.eigenvalue, -4.0, 1e-5);
  EXPECT_NEAR(std::abs(ts.eigenvector[0]), 1.0, 1e-6);
  EXPECT_LT(ts.rmsGradient, 1e-5);
  EXPECT_LT(ts.lastUphillStep, 0.02);
  ASSERT_EQ(static_cast<int>(its.size()), ts.iterations);
  for (const HefIteration& it : its) {
    EXPECT_GE(it.maxUphillStep, 0.01);
    EXPECT_LE(it.maxUphillStep, 0.5);
    EXPECT_LE(std::abs(it.uphillStep), 0.5 + 1e-15);
  }
}

// From inside a basin (positive curvature along the softest mode) the search climbs at the
// maximum step until the curvature turns negative. With a stiff valley (kappa = 20) the softest
// mode at the minimum points along the valley, towards the saddle; with kappa = 2 it would point
// up the valley wall, which never turns over.
TEST(HybridEigenvectorFollowing, ClimbsOutOfABasin) {
  CurvedDoubleWell f(20.0, 0.2);
  std::vector<HefIteration> its;
  const TransitionStateResult ts =
      HybridEigenvectorFollowing(surfaceParams())
          .findTransitionState(f, {0.9, 0.15}, {},
                               [&](const HefIteration& it) { its.push_back(it); });
  ASSERT_FALSE(its.empty());
  EXPECT_GT(its.front().eigenvalue, 0.0);
  ASSERT_TRUE(ts.converged()) << transitionStateStatusName(ts.status);
  EXPECT_NEAR(ts.coordinates[0], 0.0, 1e-6);
  EXPECT_NEAR(ts.energy, 1.0, 1e-10);
}

std::vector<double> minimised(Potential& f, std::vector<double> x) {
  LbfgsParams p;
  p.maxStep = 0.05;
  p.rmsTolerance = 1e-9;
  p.maxIterations = 10000;
  Lbfgs(p).minimize(f, x);
  return x;
}

double distance2d(const std::vector<double>& a, const std::vector<double>& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1]);
}

TEST(HybridEigenvectorFollowing, MullerBrownSaddlesAndTheMinimaTheyConnect) {
  MullerBrown f;
  const std::vector<double> ma = minimised(f, {-0.55, 1.45});
  const std::vector<double> mb = minimised(f, {0.62, 0.03});
  const std::vector<double> mc = minimised(f, {-0.05, 0.47});
  EXPECT_NEAR(f.energy(ma.data()), -146.70, 0.01);
  EXPECT_NEAR(f.energy(mb.data()), -108.17, 0.01);
  EXPECT_NEAR(f.energy(mc.data()), -80.77, 0.01);
  struct Case {
    std::vector<double> start;
    double energy;
    const std::vector<double>* one;
    const std::vector<double>* other;
  };
  HybridEigenvectorFollowingParams p = surfaceParams();
  p.maxUphillStep = 0.1;  // Mueller-Brown's features are ~0.3 wide
  p.initialUphillStep = 0.05;
  TransitionStateDescentParams dp;
  dp.pushoff = 0.01;
  dp.minimiser.maxStep = 0.05;
  for (const Case& c :
       {Case{{-0.8, 0.6}, -40.665, &ma, &mc}, Case{{0.25, 0.3}, -72.249, &mc, &mb}}) {
    const TransitionStateResult ts = HybridEigenvectorFollowing(p).findTransitionState(f, c.start);
    ASSERT_TRUE(ts.converged()) << transitionStateStatusName(ts.status);
    EXPECT_NEAR(ts.energy, c.energy, 1e-3);
    const HessianSpectrum s = hessianSpectrum(numericalHessian(f, ts.coordinates));
    EXPECT_EQ(s.negativeCount(), 1);
    EXPECT_NEAR(ts.eigenvalue, s.eigenvalues[0], 1e-4 * std::abs(s.eigenvalues[0]));
    const TransitionStateDescentResult d =
        TransitionStateDescent(dp).descend(f, ts.coordinates, ts.eigenvector);
    ASSERT_TRUE(d.converged());
    const bool forward = distance2d(d.plus.coordinates, *c.one) < 1e-5 &&
                         distance2d(d.minus.coordinates, *c.other) < 1e-5;
    const bool backward = distance2d(d.plus.coordinates, *c.other) < 1e-5 &&
                          distance2d(d.minus.coordinates, *c.one) < 1e-5;
    EXPECT_TRUE(forward || backward)
        << "descent reached (" << d.plus.coordinates[0] << ", " << d.plus.coordinates[1]
        << ") and (" << d.minus.coordinates[0] << ", " << d.minus.coordinates[1] << ")";
  }
}

// A whole connect step on LJ7: DNEB between the pentagonal bipyramid and the capped octahedron, the
// highest image refined by hybrid EF, the transition state checked against a finite-difference
// Hessian and descended to the two minima it connects.
TEST(HybridEigenvectorFollowing, Lj7DnebMaximumConvergesToATransitionState) {
  LennardJones lj(7);
  const std::vector<double> pbp = lj7PentagonalBipyramid();
  const std::vector<double> co = lj7CappedOctahedron();
  DnebParams dp;
  dp.images = 10;
  dp.iterations = 500;
  const DnebResult band = Dneb(dp).run(lj, pbp, co);
  ASSERT_FALSE(band.candidates.empty());
  const int top = band.candidates.front();

  HybridEigenvectorFollowingParams hp;
  hp.rayleighRitz.lbfgs.rmsTolerance = 1e-4;
  const TransitionStateResult ts =
      HybridEigenvectorFollowing(hp).findTransitionState(lj, band.images[top], band.tangents[top]);
  ASSERT_TRUE(ts.converged()) << transitionStateStatusName(ts.status);
  EXPECT_LT(ts.rmsGradient, 1e-5);
  EXPECT_GT(ts.energy, -16.505384);

  const Eigen::MatrixXd h = numericalHessian(lj, ts.coordinates);
  const HessianSpectrum s = hessianSpectrumWithoutRigidBodyModes(h, ts.coordinates);
  EXPECT_EQ(s.removedModes, 6);
  EXPECT_EQ(s.negativeCount(), 1) << "lowest eigenvalues " << s.eigenvalues[0] << " "
                                  << s.eigenvalues[1];
  EXPECT_NEAR(ts.eigenvalue, s.eigenvalues[0], 1e-3 * std::abs(s.eigenvalues[0]));

  const TransitionStateDescentResult d = TransitionStateDescent(TransitionStateDescentParams{})
                                             .descend(lj, ts.coordinates, ts.eigenvector);
  ASSERT_TRUE(d.converged());
  for (const DescentSide* side : {&d.plus, &d.minus}) {
    EXPECT_LT(side->energy, ts.energy);
    const HessianSpectrum m = hessianSpectrumWithoutRigidBodyModes(
        numericalHessian(lj, side->coordinates), side->coordinates);
    EXPECT_EQ(m.negativeCount(), 0) << "descent from the TS must end in a minimum";
  }
  EXPECT_GT(minimumDistance(d.plus.coordinates, d.minus.coordinates), 0.1)
      << "the two sides must be different minima";
  std::cout << "LJ7 DNEB (" << band.interiorImages << " images, " << band.iterations
            << " iterations, RMS " << band.rmsGradient << ") image " << top << " E "
            << band.energies[top] << " -> TS E " << ts.energy << " lambda " << ts.eigenvalue << " ("
            << ts.iterations << " EF iterations, " << ts.gradientCalls
            << " gradient calls) -> minima " << d.plus.energy << " and " << d.minus.energy << "\n";
}

// optim --lbfgs-backend gpu: the eigenvector search, the tangent-space minimisation and the
// descents with their L-BFGS vectors on the device reach the CPU's transition state and minima
// (the iterates differ by round-off only; the LJ7 search has no near-tie decision to flip).
TEST(HybridEigenvectorFollowingGpu, DeviceWorkspacesReachTheCpuTransitionStateAndMinima) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  LennardJones lj(7);
  DnebParams dp;
  dp.images = 10;
  dp.iterations = 500;
  const DnebResult band = Dneb(dp).run(lj, lj7PentagonalBipyramid(), lj7CappedOctahedron());
  ASSERT_FALSE(band.candidates.empty());
  const int top = band.candidates.front();

  HybridEigenvectorFollowingParams cpu;
  cpu.rayleighRitz.lbfgs.rmsTolerance = 1e-4;
  cpu.tangentSpace.historySize = 100;  // a long history, as Mantell et al.'s Table 7
  HybridEigenvectorFollowingParams gpu = cpu;
  const LbfgsWorkspaceFactory device = lbfgsWorkspaceFactory(LbfgsBackend::Gpu);
  gpu.tangentWorkspace = device;
  gpu.rayleighRitz.workspace = device;
  const TransitionStateResult a =
      HybridEigenvectorFollowing(cpu).findTransitionState(lj, band.images[top], band.tangents[top]);
  const TransitionStateResult b =
      HybridEigenvectorFollowing(gpu).findTransitionState(lj, band.images[top], band.tangents[top]);
  ASSERT_TRUE(a.converged()) << transitionStateStatusName(a.status);
  ASSERT_TRUE(b.converged()) << transitionStateStatusName(b.status);
  EXPECT_NEAR(b.energy, a.energy, 1e-8 * std::abs(a.energy));
  EXPECT_NEAR(b.eigenvalue, a.eigenvalue, 1e-4 * std::abs(a.eigenvalue));
  EXPECT_LT(minimumDistance(a.coordinates, b.coordinates), 1e-4);

  TransitionStateDescentParams onDevice;
  onDevice.workspace = device;
  const TransitionStateDescentResult da = TransitionStateDescent(TransitionStateDescentParams{})
                                              .descend(lj, a.coordinates, a.eigenvector);
  const TransitionStateDescentResult db =
      TransitionStateDescent(onDevice).descend(lj, a.coordinates, a.eigenvector);
  ASSERT_TRUE(da.converged());
  ASSERT_TRUE(db.converged());
  EXPECT_NEAR(db.plus.energy, da.plus.energy, 1e-8 * std::abs(da.plus.energy));
  EXPECT_NEAR(db.minus.energy, da.minus.energy, 1e-8 * std::abs(da.minus.energy));
}

TEST(HybridEigenvectorFollowing, BadParametersAreRejectedWithTheFieldName) {
  HybridEigenvectorFollowingParams p;
  p.minUphillStep = 0.6;  // above maxUphillStep
  try {
    HybridEigenvectorFollowing hef(p);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("UphillStep"), std::string::npos) << e.what();
  }
  p = HybridEigenvectorFollowingParams{};
  p.tangentSpace.maxStep = -1.0;
  EXPECT_THROW(HybridEigenvectorFollowing{p}, std::invalid_argument);
}

}  // namespace
}  // namespace landscape
