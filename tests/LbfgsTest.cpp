// GMIN's L-BFGS (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, Algorithms 1-3): physics
// checks on Lennard-Jones and one test per step-control rule on small analytic functions whose
// behaviour can be worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/LbfgsCpuWorkspace.h"
#include "potentials/LennardJones.h"
#include "tests/TestPotentials.h"

namespace landscape {
namespace {

LbfgsParams defaults() { return LbfgsParams{}; }

TEST(Lbfgs, LennardJonesDimerMinimumAtTwoToTheSixth) {
  LennardJones lj(2);
  std::vector<double> x = {0.0, 0.0, 0.0, 1.5, 0.3, -0.2};
  LbfgsParams p = defaults();
  p.rmsTolerance = 1e-10;
  const LbfgsResult r = Lbfgs(p).minimize(lj, x);
  ASSERT_TRUE(r.converged()) << lbfgsStatusName(r.status);
  const double d = std::sqrt(std::pow(x[3] - x[0], 2) + std::pow(x[4] - x[1], 2) +
                             std::pow(x[5] - x[2], 2));
  EXPECT_NEAR(d, std::pow(2.0, 1.0 / 6.0), 1e-9);
  EXPECT_NEAR(r.energy, -1.0, 1e-14);
}

TEST(Lbfgs, LennardJones38ReachesRms1e6FromRandomStarts) {
  LennardJones lj(38);
  LbfgsParams p = defaults();
  p.rmsTolerance = 1e-6;
  p.maxIterations = 20000;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Random random(seed);
    std::vector<double> x = randomCluster(38, defaultContainerRadius(38), 0.7, random);
    const LbfgsResult r = Lbfgs(p).minimize(lj, x);
    EXPECT_TRUE(r.converged()) << "seed " << seed << ": " << lbfgsStatusName(r.status);
    std::vector<double> g(x.size());
    const double e = lj.energyGradient(x.data(), g.data());
    double g2 = 0.0;
    for (double v : g) g2 += v * v;
    EXPECT_LT(std::sqrt(g2 / g.size()), 1e-6) << "seed " << seed;  // independent recomputation
    EXPECT_DOUBLE_EQ(e, r.energy);
    EXPECT_LT(e, -150.0) << "LJ38 minima lie below -150 (global minimum -173.928427)";
  }
}

// On a quadratic, the first step is -initialGuess * g (H0 = DGUESS) and is capped at maxStep.
TEST(Lbfgs, FirstStepUsesInitialGuessAndIsCappedAtMaxStep) {
  SeparablePolynomial f({1.0, 1.0, 1.0}, {0.0, 0.0, 0.0});
  LbfgsParams p = defaults();
  p.maxIterations = 1;
  // |g| = |x| = 1 -> |0.1 g| = 0.1 < 0.4: uncapped, step length 0.1.
  std::vector<double> x = {1.0, 0.0, 0.0};
  std::vector<LbfgsIteration> its;
  Lbfgs(p).minimize(f, x, [&](const LbfgsIteration& it) { its.push_back(it); });
  ASSERT_EQ(its.size(), 1u);
  EXPECT_FALSE(its[0].cappedAtMaxStep);
  EXPECT_NEAR(its[0].stepLength, 0.1, 1e-15);
  EXPECT_NEAR(x[0], 0.9, 1e-15);
  // |g| = 10 -> |0.1 g| = 1 > 0.4: capped to exactly 0.4 along -g.
  its.clear();
  x = {0.0, 10.0, 0.0};
  Lbfgs(p).minimize(f, x, [&](const LbfgsIteration& it) { its.push_back(it); });
  ASSERT_EQ(its.size(), 1u);
  EXPECT_TRUE(its[0].cappedAtMaxStep);
  EXPECT_NEAR(its[0].stepLength, 0.4, 1e-15);
  EXPECT_NEAR(x[1], 9.6, 1e-14);
}

// f = sum k_i x_i^2 / 2 with k = 1, 100, 10^4 and the metric w = k. Preconditioned: the first
// step is -0.1 W^-1 g = -0.1 x (length 0.1 |x|_W in the metric), the second pair gives gamma = 1
// and H = W^-1, the exact inverse Hessian, so the second step lands on the minimum. Unscaled, the
// condition number 10^4 costs many steps; useDiagonalMetric = false must give exactly that.
TEST(Lbfgs, DiagonalMetricPreconditionsTheDirectionAndMeasuresTheStep) {
  const std::vector<double> k = {1.0, 100.0, 1e4};
  MetricPolynomial f(k, {0.0, 0.0, 0.0}, k);
  const std::vector<double> start = {0.1, 0.01, 0.001};
  LbfgsParams p = defaults();
  p.rmsTolerance = 1e-12;
  p.maxIterations = 1000;
  std::vector<double> x = start;
  std::vector<LbfgsIteration> its;
  const LbfgsResult r =
      Lbfgs(p).minimize(f, x, [&](const LbfgsIteration& it) { its.push_back(it); });
  ASSERT_TRUE(r.converged()) << lbfgsStatusName(r.status);
  EXPECT_EQ(r.iterations, 2);
  double normW = 0.0;
  for (std::size_t i = 0; i < 3; ++i) normW += k[i] * start[i] * start[i];
  EXPECT_NEAR(its[0].stepLength, 0.1 * std::sqrt(normW), 1e-15);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(x[i], 0.0, 1e-14);

  LbfgsParams plain = p;
  plain.useDiagonalMetric = false;
  SeparablePolynomial g(k, {0.0, 0.0, 0.0});
  std::vector<double> x1 = start, x2 = start;
  const LbfgsResult off = Lbfgs(plain).minimize(f, x1);
  const LbfgsResult cartesian = Lbfgs(plain).minimize(g, x2);
  EXPECT_EQ(off.iterations, cartesian.iterations);  // the switch restores the plain L-BFGS
  EXPECT_EQ(x1, x2);
  EXPECT_GT(off.iterations, 5 * r.iterations);
}

// k = 1000, x0 = 0.01: g = 10, step -0.1 g = -1 capped to -0.4 -> E = 76 (rise); /10 -> step
// -0.04 -> x = -0.03, E = 0.45 (rise > 1e-4 over E0 = 0.05); /10 -> x = 0.006, E = 0.018 (drop).
TEST(Lbfgs, EnergyRiseDividesTheStepByTen) {
  SeparablePolynomial f({1000.0}, {0.0});
  LbfgsParams p = defaults();
  p.maxIterations = 1;
  std::vector<double> x = {0.01};
  std::vector<LbfgsIteration> its;
  const LbfgsResult r = Lbfgs(p).minimize(f, x, [&](const LbfgsIteration& it) { its.push_back(it); });
  ASSERT_EQ(its.size(), 1u);
  EXPECT_EQ(its[0].backtracks, 2);
  EXPECT_NEAR(its[0].stepLength, 0.004, 1e-15);
  EXPECT_NEAR(x[0], 0.006, 1e-15);
  EXPECT_EQ(r.functionCalls, 4);  // start + three trial points
  EXPECT_FALSE(its[0].historyCleared);
}

// A rise smaller than maxRise is accepted: GMIN's step control is not a descent condition.
TEST(Lbfgs, RiseBelowMaxRiseIsAccepted) {
  SeparablePolynomial f({1000.0}, {0.0});
  LbfgsParams p = defaults();
  p.maxIterations = 1;
  p.maxRise = 100.0;  // the capped first step raises E from 0.05 to 76.05: accepted
  std::vector<double> x = {0.01};
  std::vector<LbfgsIteration> its;
  Lbfgs(p).minimize(f, x, [&](const LbfgsIteration& it) { its.push_back(it); });
  ASSERT_EQ(its.size(), 1u);
  EXPECT_EQ(its[0].backtracks, 0);
  EXPECT_NEAR(x[0], -0.39, 1e-15);
}

// In the concave region of f = -x^2/2 + x^4 (x < 1/sqrt(12)), s.y < 0 makes gamma negative, so
// the two-loop direction -gamma g points uphill and must be reversed (Algorithm 3, line 1).
TEST(Lbfgs, UphillDirectionIsReversed) {
  SeparablePolynomial f({-1.0}, {1.0});
  LbfgsParams p = defaults();
  p.maxIterations = 2;
  std::vector<double> x = {0.05};
  std::vector<LbfgsIteration> its;
  Lbfgs(p).minimize(f, x, [&](const LbfgsIteration& it) { its.push_back(it); });
  ASSERT_EQ(its.size(), 2u);
  EXPECT_FALSE(its[0].reversed);  // the first step is -0.1 g, always downhill
  EXPECT_TRUE(its[1].reversed);
  EXPECT_GT(x[0], 0.05);          // still going downhill, away from the maximum at 0
}

TEST(Lbfgs, PersistentRiseClearsHistoryAndRetriesAlongMinusGradient) {
  // Calls: 1 start, 2 first step, 3 second step, then 4..14 = 11 trials of iteration 3 all rise.
  ScriptedRise f(4, 14);
  LbfgsParams p = defaults();
  p.maxIterations = 3;
  std::vector<double> x = {1.0, 1.0};
  LbfgsCpuWorkspace ws(f, p.historySize);
  ws.setCoordinates(x.data());
  std::vector<LbfgsIteration> its;
  std::vector<int> historyBefore;
  const LbfgsResult r = Lbfgs(p).minimize(ws, [&](const LbfgsIteration& it) {
    its.push_back(it);
    historyBefore.push_back(ws.historyLength());
  });
  ASSERT_EQ(its.size(), 3u);
  EXPECT_FALSE(its[1].historyCleared);
  EXPECT_EQ(historyBefore[1], 2);
  EXPECT_TRUE(its[2].historyCleared);
  EXPECT_EQ(its[2].backtracks, 0);     // -g step succeeded at once
  EXPECT_EQ(historyBefore[2], 1);      // history restarted with just the new pair
  EXPECT_EQ(r.functionCalls, 15);
  EXPECT_LT(r.energy, 0.5 * 1.0 + 0.5 * 4.0);  // below the starting energy 2.5
}

TEST(Lbfgs, EnergyRiseOnSteepestDescentTooIsReportedNotHidden) {
  ScriptedRise f(2, 1000);  // every trial point rises
  LbfgsParams p = defaults();
  std::vector<double> x = {1.0, 1.0};
  const LbfgsResult r = Lbfgs(p).minimize(f, x);
  EXPECT_EQ(r.status, LbfgsStatus::LineSearchFailed);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.functionCalls, 1 + 2 * (p.maxBacktracks + 1));
  EXPECT_DOUBLE_EQ(x[0], 1.0);  // never moved to a rejected point
}

TEST(Lbfgs, HistorySizesFromOneToTwoThousandConverge) {
  LennardJones lj(13);
  for (int m : {1, 2, 4, 10, 100, 2000}) {
    Random random(7);
    std::vector<double> x = randomCluster(13, defaultContainerRadius(13), 0.7, random);
    LbfgsParams p = defaults();
    p.historySize = m;
    p.rmsTolerance = 1e-8;
    p.maxIterations = 5000;
    const LbfgsResult r = Lbfgs(p).minimize(lj, x);
    EXPECT_TRUE(r.converged()) << "m = " << m << ": " << lbfgsStatusName(r.status);
  }
}

TEST(Lbfgs, TwoLoopRecursionMatchesDenseBfgsInverseOnQuadratic) {
  // With m >= iterations, L-BFGS's H applied to g equals the BFGS inverse-Hessian update built
  // from the same pairs, starting from H0 = gamma I: check one direction against a dense build.
  SeparablePolynomial f({1.0, 3.0, 7.0}, {0.1, 0.0, 0.2});
  LbfgsParams p = defaults();
  p.historySize = 10;
  std::vector<double> x = {0.7, -0.4, 0.3};
  LbfgsCpuWorkspace ws(f, p.historySize);
  ws.setCoordinates(x.data());
  ws.evaluateCurrent();
  std::vector<Eigen::VectorXd> S, Y;
  Eigen::VectorXd xPrev(3), gPrev(3), xNow(3), gNow(3);
  ws.getCoordinates(xPrev.data());
  ws.getGradient(gPrev.data());
  for (int k = 0; k < 3; ++k) {
    ws.computeDirection(0.1);
    ws.evaluateTrial(0.5);
    ws.acceptTrial();
    ws.getCoordinates(xNow.data());
    ws.getGradient(gNow.data());
    S.push_back(xNow - xPrev);
    Y.push_back(gNow - gPrev);
    xPrev = xNow;
    gPrev = gNow;
  }
  const double gamma = S.back().dot(Y.back()) / Y.back().squaredNorm();
  Eigen::MatrixXd H = gamma * Eigen::MatrixXd::Identity(3, 3);
  for (std::size_t k = 0; k < S.size(); ++k) {
    const double rho = 1.0 / Y[k].dot(S[k]);
    const Eigen::MatrixXd V = Eigen::MatrixXd::Identity(3, 3) - rho * Y[k] * S[k].transpose();
    H = V.transpose() * H * V + rho * S[k] * S[k].transpose();
  }
  const Eigen::VectorXd expected = -H * gNow;
  const DirectionSummary d = ws.computeDirection(0.1);
  EXPECT_NEAR(d.directionDotGradient, expected.dot(gNow), 1e-12 * std::abs(expected.dot(gNow)));
  EXPECT_NEAR(d.directionNorm, expected.norm(), 1e-12 * expected.norm());
}

TEST(Lbfgs, BadParametersAreRejectedWithTheFieldName) {
  LbfgsParams p = defaults();
  p.historySize = 0;
  try {
    Lbfgs lbfgs(p);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("history size"), std::string::npos);
  }
}

}  // namespace
}  // namespace landscape

namespace landscape {
namespace {

// p = -H g by the compact representation (Byrd, Nocedal and Schnabel, Math. Prog. 63, 129 (1994),
// eq 3.1), the form the GPU directions take (gpu/LbfgsCudaWorkspace, the rounds engine's long
// histories), written out plainly for the pairs in the columns of S and Y (oldest first):
// H g = gamma g + S R^-T ((D + gamma Y^T Y) u - gamma b) - gamma Y u with a = S^T g, b = Y^T g,
// u = R^-1 a, R the upper triangle of S^T Y and D its diagonal; zero curvature s.y replaced by 1
// and gamma from the newest pair (GMIN's guards, as in the two-loop recursion).
Eigen::VectorXd compactLbfgsDirection(const Eigen::MatrixXd& S, const Eigen::MatrixXd& Y,
                                      const Eigen::VectorXd& g) {
  const Eigen::Index L = S.cols();
  Eigen::MatrixXd SY = S.transpose() * Y;
  for (Eigen::Index i = 0; i < L; ++i)
    if (SY(i, i) == 0.0) SY(i, i) = 1.0;
  const Eigen::MatrixXd YY = Y.transpose() * Y;
  const double yy = YY(L - 1, L - 1) == 0.0 ? 1.0 : YY(L - 1, L - 1);
  const double gamma = SY(L - 1, L - 1) / yy;
  const Eigen::VectorXd a = S.transpose() * g, b = Y.transpose() * g;
  const Eigen::VectorXd u = SY.triangularView<Eigen::Upper>().solve(a);
  const Eigen::VectorXd v = SY.diagonal().cwiseProduct(u) + gamma * (YY * u) - gamma * b;
  const Eigen::VectorXd p1 = SY.transpose().triangularView<Eigen::Lower>().solve(v);
  return -(gamma * g + S * p1 - gamma * (Y * u));
}

// The compact representation (the GPU directions' form) equals the two-loop recursion.
TEST(LbfgsCompact, EqualsTwoLoopRecursionOnLennardJones) {
  LennardJones lj(38);
  Random random(3);
  std::vector<double> x = randomCluster(38, defaultContainerRadius(38), 0.7, random);
  for (int m : {1, 4, 10}) {
    LbfgsCpuWorkspace ws(lj, m);
    ws.setCoordinates(x.data());
    ws.evaluateCurrent();
    const Eigen::Index n = static_cast<Eigen::Index>(lj.dimension());
    std::vector<Eigen::VectorXd> s, y;
    Eigen::VectorXd xPrev(n), gPrev(n), xNow(n), gNow(n);
    ws.getCoordinates(xPrev.data());
    ws.getGradient(gPrev.data());
    for (int it = 0; it < 15; ++it) {
      const DirectionSummary d = ws.computeDirection(0.1);
      if (d.directionDotGradient > 0) ws.reverseDirection();
      ws.evaluateTrial(std::min(1.0, 0.1 / d.directionNorm));
      ws.acceptTrial();
      ws.getCoordinates(xNow.data());
      ws.getGradient(gNow.data());
      s.push_back(xNow - xPrev);
      y.push_back(gNow - gPrev);
      if (static_cast<int>(s.size()) > m) {
        s.erase(s.begin());
        y.erase(y.begin());
      }
      xPrev = xNow;
      gPrev = gNow;
      Eigen::MatrixXd S(n, s.size()), Y(n, y.size());
      for (std::size_t k = 0; k < s.size(); ++k) {
        S.col(k) = s[k];
        Y.col(k) = y[k];
      }
      const Eigen::VectorXd compact = compactLbfgsDirection(S, Y, gNow);
      const DirectionSummary twoLoop = ws.computeDirection(0.1);
      EXPECT_NEAR(compact.dot(gNow), twoLoop.directionDotGradient,
                  1e-9 * std::abs(twoLoop.directionDotGradient))
          << "m " << m << " iteration " << it;
      EXPECT_NEAR(compact.norm(), twoLoop.directionNorm, 1e-9 * twoLoop.directionNorm);
    }
  }
}

}  // namespace
}  // namespace landscape
