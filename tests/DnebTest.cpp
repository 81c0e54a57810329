// Doubly nudged elastic band (Trygubenko and Wales 2004; Mantell, Pitt and Wales, J. Chem. Theory
// Comput. 2016, section 2.2): OPTIM's image and iteration densities, the projections of the band
// gradient, bands on analytic surfaces whose saddles are known, and LJ7 with aligned endpoints.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "landscape/geometry/Alignment.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"
#include "potentials/LennardJones.h"
#include "tests/Lj7Structures.h"
#include "tests/ModelSurfaces.h"

namespace landscape {
namespace {

DnebParams surfaceParams(int images) {
  DnebParams p;
  p.alignEndpoints = false;
  p.images = images;
  return p;
}

// OPTIM's NEWCONNECT 100 1 20.0 20.0 30 (tests/data/lj38/optim/odata): ImageDensity 20,
// IterDensity 20, ImageMax 30. Its optim.out shows "180-iteration DNEB run ... using 9 images"
// for minima 0.49 apart, 19 images / 380 iterations at 0.99, 12 / 240 at 0.64, 30 / 600 beyond.
TEST(Dneb, ImageAndIterationCountsFollowOptimsDensities) {
  const Dneb dneb{DnebParams{}};
  EXPECT_EQ(dneb.imageCount(0.49), 9);
  EXPECT_EQ(dneb.iterationCount(9), 180);
  EXPECT_EQ(dneb.imageCount(0.64), 12);
  EXPECT_EQ(dneb.iterationCount(12), 240);
  EXPECT_EQ(dneb.imageCount(0.99), 19);
  EXPECT_EQ(dneb.iterationCount(19), 380);
  EXPECT_EQ(dneb.imageCount(2.22), 30);
  EXPECT_EQ(dneb.iterationCount(30), 600);
  EXPECT_EQ(dneb.imageCount(0.001), 1);  // minImages
  DnebParams fixed;
  fixed.images = 50;
  fixed.iterations = 500;  // OPTIM's NEWNEB 50 500 for the first run
  EXPECT_EQ(Dneb(fixed).imageCount(3.14), 50);
  EXPECT_EQ(Dneb(fixed).iterationCount(50), 500);
  DnebParams capped;
  capped.maxIterations = 100;
  EXPECT_EQ(Dneb(capped).iterationCount(30), 100);
}

// For every image: the component along the tangent is the spring's alone (true gradient's
// projected out), the true gradient enters only through g_perp, and the doubly nudged extra term
// is orthogonal to both the tangent and g_perp.
TEST(Dneb, BandGradientProjectsTrueAndSpringGradients) {
  MullerBrown f;
  const std::vector<double> a = {-0.55, 1.44}, b = {0.62, 0.03};
  const std::vector<double> band = {-0.5, 1.1, -0.2, 0.9, 0.0, 0.45, 0.3, 0.2};  // 4 images
  for (bool doubly : {false, true}) {
    DnebBand dneb(f, a, b, 4, 10.0, doubly);
    std::vector<double> g(8);
    dneb.energyGradient(band.data(), g.data());
    const std::vector<double>& tau = dneb.tangents();
    for (int i = 0; i < 4; ++i) {
      const double* x = &band[2 * i];
      const double* xp = i == 0 ? a.data() : &band[2 * (i - 1)];
      const double* xn = i == 3 ? b.data() : &band[2 * (i + 1)];
      double gTrue[2];
      f.energyGradient(x, gTrue);
      const double t[2] = {tau[2 * i], tau[2 * i + 1]};
      EXPECT_NEAR(std::hypot(t[0], t[1]), 1.0, 1e-14);
      double spring[2], perp[2];
      for (int k = 0; k < 2; ++k) spring[k] = 10.0 * (2.0 * x[k] - xp[k] - xn[k]);
      const double trueAlong = gTrue[0] * t[0] + gTrue[1] * t[1];
      const double springAlong = spring[0] * t[0] + spring[1] * t[1];
      for (int k = 0; k < 2; ++k) perp[k] = gTrue[k] - trueAlong * t[k];
      const double gi[2] = {g[2 * i], g[2 * i + 1]};
      EXPECT_NEAR(gi[0] * t[0] + gi[1] * t[1], springAlong, 1e-10);
      const double extra[2] = {gi[0] - perp[0] - springAlong * t[0],
                               gi[1] - perp[1] - springAlong * t[1]};
      if (!doubly) {
        EXPECT_NEAR(std::hypot(extra[0], extra[1]), 0.0, 1e-10);
      } else {
        EXPECT_NEAR(extra[0] * t[0] + extra[1] * t[1], 0.0, 1e-10);
        EXPECT_NEAR(extra[0] * perp[0] + extra[1] * perp[1], 0.0,
                    1e-10 * (1.0 + std::hypot(perp[0], perp[1])));
      }
    }
  }
}

// Henkelman and Jonsson's parallel spring: -k (|x_{i+1} - x_i| - |x_i - x_{i-1}|) along tau.
TEST(Dneb, SegmentSpringsPullTowardsEqualSpacing) {
  MullerBrown f;
  const std::vector<double> a = {-0.55, 1.44}, b = {0.62, 0.03};
  const std::vector<double> band = {-0.5, 1.1, -0.2, 0.9};  // 2 images
  DnebBand dneb(f, a, b, 2, 10.0, true, true);
  std::vector<double> g(4);
  dneb.energyGradient(band.data(), g.data());
  for (int i = 0; i < 2; ++i) {
    const double* x = &band[2 * i];
    const double* xp = i == 0 ? a.data() : &band[0];
    const double* xn = i == 1 ? b.data() : &band[2];
    const double expected =
        -10.0 * (std::hypot(xn[0] - x[0], xn[1] - x[1]) - std::hypot(x[0] - xp[0], x[1] - xp[1]));
    const double along =
        g[2 * i] * dneb.tangents()[2 * i] + g[2 * i + 1] * dneb.tangents()[2 * i + 1];
    EXPECT_NEAR(along, expected, 1e-10) << "image " << i;
  }
}

TEST(Dneb, ImprovedTangentPointsUphillOnAMonotonicStretch) {
  CurvedDoubleWell f(2.0, 0.0);  // V = (x^2 - 1)^2 + y^2
  // Images at x = -0.8 (E rising towards x = 0) with neighbours off-axis in different directions.
  const std::vector<double> a = {-1.0, 0.3}, b = {-0.6, -0.2};
  DnebBand dneb(f, a, b, 1, 1.0, true);
  const std::vector<double> band = {-0.8, 0.0};
  std::vector<double> g(2);
  dneb.energyGradient(band.data(), g.data());
  // E(b) > E(image) > E(a): tangent = b - image, normalised.
  ASSERT_GT(dneb.energies()[2], dneb.energies()[1]);
  ASSERT_GT(dneb.energies()[1], dneb.energies()[0]);
  const double n = std::hypot(0.2, -0.2);
  EXPECT_NEAR(dneb.tangents()[0], 0.2 / n, 1e-14);
  EXPECT_NEAR(dneb.tangents()[1], -0.2 / n, 1e-14);
}

TEST(Dneb, CurvedDoubleWellBandFollowsTheValleyAndPeaksAtTheSaddle) {
  CurvedDoubleWell f(2.0, 0.5);
  DnebParams p = surfaceParams(9);
  p.iterations = 2000;
  p.rmsTolerance = 1e-3;
  p.maxStepPerImage = 0.05;
  std::vector<LbfgsIteration> its;
  const DnebResult r =
      Dneb(p).run(f, {-1.0, 0.5}, {1.0, 0.5}, [&](const LbfgsIteration& it) { its.push_back(it); });
  ASSERT_TRUE(r.converged()) << lbfgsStatusName(r.status) << " RMS " << r.rmsGradient;
  ASSERT_EQ(r.images.size(), 11u);
  ASSERT_EQ(r.candidates.size(), 1u);
  const std::vector<double>& top = r.images[r.candidates[0]];
  EXPECT_LT(std::hypot(top[0], top[1]), 0.12);  // the saddle lies between images 0.2 apart
  EXPECT_NEAR(r.energies[r.candidates[0]], 1.0, 0.05);
  // The straight line would cross x = 0 at y = 0.5 (V = 1.25); the converged band lies on the
  // minimum-energy path instead: no true gradient perpendicular to it.
  for (std::size_t i = 1; i + 1 < r.images.size(); ++i) {
    double g[2];
    f.energyGradient(r.images[i].data(), g);
    const double along = g[0] * r.tangents[i][0] + g[1] * r.tangents[i][1];
    EXPECT_LT(std::hypot(g[0] - along * r.tangents[i][0], g[1] - along * r.tangents[i][1]), 0.01)
        << "image " << i;
  }
  for (const LbfgsIteration& it : its) EXPECT_LE(it.stepLength, 0.05 + 1e-15);
  EXPECT_NEAR(r.endpointDistance, 2.0, 1e-15);
  EXPECT_LT(r.spacingDeviation, 25.0);
}

// Mueller-Brown from minimum A to minimum B passes the intermediate minimum C: the band has two
// maxima, and hybrid EF refines each to one of the two known saddles.
TEST(Dneb, MullerBrownBandHasBothSaddlesAsCandidates) {
  MullerBrown f;
  LbfgsParams lp;
  lp.maxStep = 0.05;
  lp.rmsTolerance = 1e-9;
  std::vector<double> ma = {-0.55, 1.45}, mb = {0.62, 0.03};
  Lbfgs(lp).minimize(f, ma);
  Lbfgs(lp).minimize(f, mb);
  DnebParams p = surfaceParams(20);
  p.iterations = 1000;
  p.springConstant = 100.0;  // Mueller-Brown's energies are ~100x Lennard-Jones'
  p.rmsTolerance = 0.1;
  p.maxStepPerImage = 0.05;
  const DnebResult r = Dneb(p).run(f, ma, mb);
  ASSERT_EQ(r.candidates.size(), 2u) << "RMS " << r.rmsGradient;
  HybridEigenvectorFollowingParams hp;
  hp.rayleighRitz.removeRigidBodyModes = false;
  hp.maxUphillStep = 0.1;
  hp.initialUphillStep = 0.05;
  std::vector<double> energies;
  for (int c : r.candidates) {
    const TransitionStateResult ts =
        HybridEigenvectorFollowing(hp).findTransitionState(f, r.images[c], r.tangents[c]);
    ASSERT_TRUE(ts.converged()) << transitionStateStatusName(ts.status);
    energies.push_back(ts.energy);
  }
  EXPECT_NEAR(energies[0], -40.665, 1e-3);  // candidates come highest first: S1, then S2
  EXPECT_NEAR(energies[1], -72.249, 1e-3);
}

TEST(Dneb, Lj7EndpointsAreAlignedAndTheImageCountScalesWithTheirDistance) {
  LennardJones lj(7);
  const std::vector<double> pbp = lj7PentagonalBipyramid();
  std::vector<double> co = lj7CappedOctahedron();
  // Scramble the finish: a permuted, rotated copy must give the same band.
  std::swap(co[0], co[12]);
  std::swap(co[1], co[13]);
  std::swap(co[2], co[14]);
  for (std::size_t i = 0; i < co.size(); i += 3) {
    const double x = co[i], y = co[i + 1];
    co[i] = 0.6 * x - 0.8 * y + 3.0;
    co[i + 1] = 0.8 * x + 0.6 * y;
  }
  const Dneb dneb{DnebParams{}};
  const DnebResult r = dneb.run(lj, pbp, co);
  const double d = minimumDistance(pbp, co);
  EXPECT_NEAR(r.endpointDistance, d, 1e-9);
  EXPECT_EQ(r.interiorImages, dneb.imageCount(d));
  EXPECT_EQ(r.iterationLimit, dneb.iterationCount(r.interiorImages));
  ASSERT_EQ(static_cast<int>(r.images.size()), r.interiorImages + 2);
  EXPECT_NEAR(r.energies.front(), -16.505384, 1e-6);
  EXPECT_NEAR(r.energies.back(), -15.935043, 1e-6);
  double diff = 0.0;
  for (std::size_t i = 0; i < pbp.size(); ++i) diff += std::abs(r.images.back()[i] - pbp[i]);
  EXPECT_GT(diff, 0.1);  // the aligned finish is the capped octahedron, not the start
  EXPECT_NEAR(minimumDistance(r.images.back(), co), 0.0, 1e-9);
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_GT(r.energies[r.candidates.front()], r.energies.back());
  EXPECT_TRUE(r.tangents.front().empty());
  EXPECT_EQ(r.tangents[1].size(), 21u);
}

TEST(Dneb, BadParametersAreRejectedWithTheFieldName) {
  DnebParams p;
  p.maxImages = 0;
  try {
    Dneb dneb(p);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("maxImages"), std::string::npos) << e.what();
  }
  p = DnebParams{};
  p.springConstant = -1.0;
  EXPECT_THROW(Dneb{p}, std::invalid_argument);
  CurvedDoubleWell f;
  EXPECT_THROW(Dneb(DnebParams{}).run(f, {-1.0, 0.0}, {1.0, 0.0}), std::invalid_argument)
      << "alignment needs 3N coordinates";
}

}  // namespace
}  // namespace landscape
