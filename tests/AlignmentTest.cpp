// Tests of the Hungarian assignment solver and of MINPERMDIST-style structure alignment.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "landscape/core/VectorDispatch.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/Hungarian.h"
#include "tests/GminLowestFile.h"

namespace {

using landscape::AlignmentParams;
using landscape::AlignmentResult;
using landscape::alignStructures;
using landscape::minimumDistance;
using landscape::readGminLowest;
using landscape::solveAssignment;

// ---------------------------------------------------------------- helpers

// A local lookup on purpose, independent of any shared test helper: env LANDSCAPE_TEST_DATA,
// else <source>/tests/data.
std::string testDataDir() {
  if (const char* env = std::getenv("LANDSCAPE_TEST_DATA"); env != nullptr && *env != '\0') {
    return env;
  }
  return std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data";
}

std::string lj38LowestPath() { return testDataDir() + "/lj38/gmin/lowest"; }

// Random cluster in a sphere, at roughly liquid density, with no two atoms closer than 0.8.
std::vector<double> randomCluster(int atoms, unsigned seed) {
  std::mt19937 rng(seed);
  const double radius = std::cbrt(static_cast<double>(atoms)) * 0.75;
  std::uniform_real_distribution<double> u(-radius, radius);
  std::vector<Eigen::Vector3d> placed;
  while (static_cast<int>(placed.size()) < atoms) {
    const Eigen::Vector3d p(u(rng), u(rng), u(rng));
    if (p.norm() > radius) continue;
    const bool clash = std::any_of(placed.begin(), placed.end(),
                                   [&](const Eigen::Vector3d& q) { return (p - q).norm() < 0.8; });
    if (!clash) placed.push_back(p);
  }
  std::vector<double> x;
  for (const Eigen::Vector3d& p : placed) x.insert(x.end(), p.data(), p.data() + 3);
  return x;
}

Eigen::Matrix3d randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> g;
  Eigen::Quaterniond q(g(rng), g(rng), g(rng), g(rng));
  q.normalize();
  return q.toRotationMatrix();
}

// A rigidly moved, relabelled (and optionally inverted) copy: copy atom k = s R x_order[k] + t.
std::vector<double> movedCopy(const std::vector<double>& x, unsigned seed, bool invert) {
  std::mt19937 rng(seed);
  const Eigen::Matrix3d r = randomRotation(rng);
  std::uniform_real_distribution<double> u(-5.0, 5.0);
  const Eigen::Vector3d t(u(rng), u(rng), u(rng));
  const std::size_t n = x.size() / 3;
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<double> y(x.size());
  for (std::size_t k = 0; k < n; ++k) {
    const Eigen::Vector3d p(x[3 * order[k]], x[3 * order[k] + 1], x[3 * order[k] + 2]);
    const Eigen::Vector3d q = (invert ? -1.0 : 1.0) * (r * p) + t;
    for (int c = 0; c < 3; ++c) y[3 * k + c] = q[c];
  }
  return y;
}

double maxAbsDifference(const std::vector<double>& x, const std::vector<double>& y) {
  double m = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) m = std::max(m, std::abs(x[i] - y[i]));
  return m;
}

Eigen::Vector3d centroid(const std::vector<double>& x) {
  const std::size_t n = x.size() / 3;
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < n; ++i) c += Eigen::Vector3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
  return c / static_cast<double>(n);
}

// Independent reference for the fixed-order distance: Horn's quaternion method (1987), from the
// largest eigenvalue of the 4x4 key matrix, where the library uses an SVD.
double hornDistance(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = a.size() / 3;
  const Eigen::Vector3d ca = centroid(a), cb = centroid(b);
  Eigen::Matrix3d s = Eigen::Matrix3d::Zero();
  double norms = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector3d p = Eigen::Vector3d(b[3 * i], b[3 * i + 1], b[3 * i + 2]) - cb;
    const Eigen::Vector3d q = Eigen::Vector3d(a[3 * i], a[3 * i + 1], a[3 * i + 2]) - ca;
    s += p * q.transpose();
    norms += p.squaredNorm() + q.squaredNorm();
  }
  Eigen::Matrix4d k;
  k << s(0, 0) + s(1, 1) + s(2, 2), s(1, 2) - s(2, 1), s(2, 0) - s(0, 2), s(0, 1) - s(1, 0),
      s(1, 2) - s(2, 1), s(0, 0) - s(1, 1) - s(2, 2), s(0, 1) + s(1, 0), s(2, 0) + s(0, 2),
      s(2, 0) - s(0, 2), s(0, 1) + s(1, 0), -s(0, 0) + s(1, 1) - s(2, 2), s(1, 2) + s(2, 1),
      s(0, 1) - s(1, 0), s(2, 0) + s(0, 2), s(1, 2) + s(2, 1), -s(0, 0) - s(1, 1) + s(2, 2);
  const double largest = Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d>(k).eigenvalues()(3);
  return std::sqrt(std::max(0.0, norms - 2.0 * largest));
}

// The result must describe itself: alignedB is b under the reported transformation, the
// rotation is proper, the permutation is one, and distance == |a - alignedB|.
void expectConsistent(const std::vector<double>& a, const std::vector<double>& b,
                      const AlignmentResult& r) {
  const std::size_t n = a.size() / 3;
  ASSERT_EQ(r.alignedB.size(), a.size());
  ASSERT_EQ(r.permutation.size(), n);
  std::vector<int> sorted = r.permutation;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], static_cast<int>(i));
  EXPECT_NEAR(r.rotation.determinant(), 1.0, 1e-12);
  EXPECT_LT((r.rotation * r.rotation.transpose() - Eigen::Matrix3d::Identity()).norm(), 1e-12);
  const Eigen::Vector3d ca = centroid(a), cb = centroid(b);
  double squared = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = static_cast<std::size_t>(r.permutation[i]);
    const Eigen::Vector3d p = Eigen::Vector3d(b[3 * j], b[3 * j + 1], b[3 * j + 2]) - cb;
    const Eigen::Vector3d expected = (r.inverted ? -1.0 : 1.0) * (r.rotation * p) + ca;
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(r.alignedB[3 * i + c], expected[c], 1e-10);
      const double d = a[3 * i + c] - r.alignedB[3 * i + c];
      squared += d * d;
    }
  }
  EXPECT_NEAR(r.distance, std::sqrt(squared), 1e-12);
}

// Cost of giving each row i of c the column assignment[i].
double assignmentCost(const Eigen::MatrixXd& c, const std::vector<int>& assignment) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < c.rows(); ++i) sum += c(i, assignment[static_cast<std::size_t>(i)]);
  return sum;
}

// Minimum over all injective row -> column maps: every permutation of the columns, of which the
// first rows() entries are used.
double bruteForceAssignment(const Eigen::MatrixXd& c) {
  std::vector<int> columns(static_cast<std::size_t>(c.cols()));
  std::iota(columns.begin(), columns.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  do {
    best = std::min(best, assignmentCost(c, columns));
  } while (std::next_permutation(columns.begin(), columns.end()));
  return best;
}

bool isInjective(const std::vector<int>& assignment, Eigen::Index cols) {
  std::vector<char> seen(static_cast<std::size_t>(cols), 0);
  for (int j : assignment) {
    if (j < 0 || j >= cols || seen[static_cast<std::size_t>(j)]) return false;
    seen[static_cast<std::size_t>(j)] = 1;
  }
  return true;
}

// ---------------------------------------------------------------- Hungarian

TEST(HungarianTest, MatchesBruteForceOnSmallSquareMatrices) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> real(0.0, 10.0);
  std::uniform_int_distribution<int> small(0, 3);  // many ties
  for (int n = 1; n <= 7; ++n) {
    for (int trial = 0; trial < 30; ++trial) {
      Eigen::MatrixXd c(n, n);
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) c(i, j) = trial % 3 == 0 ? small(rng) : real(rng) - 3.0;
      }
      const std::vector<int> assignment = solveAssignment(c);
      ASSERT_EQ(assignment.size(), static_cast<std::size_t>(n));
      ASSERT_TRUE(isInjective(assignment, n));
      EXPECT_NEAR(assignmentCost(c, assignment), bruteForceAssignment(c), 1e-12)
          << "n=" << n << " trial=" << trial;
    }
  }
}

TEST(HungarianTest, MatchesBruteForceOnRectangularMatrices) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> real(0.0, 1.0);
  for (int rows = 1; rows <= 5; ++rows) {
    for (int cols = rows; cols <= 7; ++cols) {
      Eigen::MatrixXd c(rows, cols);
      for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) c(i, j) = real(rng);
      }
      const std::vector<int> assignment = solveAssignment(c);
      ASSERT_EQ(assignment.size(), static_cast<std::size_t>(rows));
      ASSERT_TRUE(isInjective(assignment, cols));
      EXPECT_NEAR(assignmentCost(c, assignment), bruteForceAssignment(c), 1e-12);
    }
  }
}

TEST(HungarianTest, WarmStartGivesOptimalAssignments) {
  // Slowly changing matrices, each solved with the previous solve's potentials, as the
  // alignment's alternation does.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> real(0.0, 1.0);
  std::normal_distribution<double> drift(0.0, 0.1);
  for (int n = 2; n <= 7; ++n) {
    Eigen::MatrixXd c(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) c(i, j) = real(rng);
    }
    Eigen::VectorXd potentials;
    for (int step = 0; step < 20; ++step) {
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) c(i, j) += drift(rng);
      }
      const std::vector<int> assignment = solveAssignment(c, potentials);
      ASSERT_TRUE(isInjective(assignment, n));
      ASSERT_EQ(potentials.size(), n);
      EXPECT_NEAR(assignmentCost(c, assignment), bruteForceAssignment(c), 1e-12)
          << "n=" << n << " step=" << step;
    }
  }
}

TEST(HungarianTest, FindsHiddenPermutationInLargeMatrix) {
  // Zero cost on a shuffled diagonal, at least 0.1 elsewhere; rows 0 and 1 both have their
  // cheapest entry in the same column, so the augmenting-path phase has to run.
  const int n = 120;
  std::mt19937 rng(3);
  std::vector<int> hidden(n);
  std::iota(hidden.begin(), hidden.end(), 0);
  std::shuffle(hidden.begin(), hidden.end(), rng);
  std::uniform_real_distribution<double> real(0.5, 2.0);
  Eigen::MatrixXd c(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) c(i, j) = real(rng);
    c(i, hidden[i]) = 0.0;
  }
  c(1, hidden[0]) = 0.1;
  c(1, hidden[1]) = 0.2;
  EXPECT_EQ(solveAssignment(c), hidden);
}

TEST(HungarianTest, RejectsBadMatrices) {
  EXPECT_TRUE(solveAssignment(Eigen::MatrixXd(0, 0)).empty());
  EXPECT_THROW(solveAssignment(Eigen::MatrixXd::Zero(3, 2)), std::invalid_argument);
  Eigen::MatrixXd c = Eigen::MatrixXd::Ones(3, 3);
  c(1, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(solveAssignment(c), std::invalid_argument);
  c(1, 2) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(solveAssignment(c), std::invalid_argument);
}

// ---------------------------------------------------------------- alignment

class AlignmentCopyTest : public ::testing::TestWithParam<int> {};

TEST_P(AlignmentCopyTest, RecognisesMovedPermutedCopyOfRandomCluster) {
  const int atoms = GetParam();
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const std::vector<double> a = randomCluster(atoms, 100 * atoms + seed);
    const std::vector<double> b = movedCopy(a, seed, false);
    const AlignmentResult r = alignStructures(a, b);
    EXPECT_LT(r.distance, 1e-8) << "seed " << seed;
    EXPECT_LT(maxAbsDifference(r.alignedB, a), 1e-8) << "seed " << seed;
    expectConsistent(a, b, r);
  }
}

TEST_P(AlignmentCopyTest, RecognisesInvertedCopyOnlyWithInversion) {
  const int atoms = GetParam();
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const std::vector<double> a = randomCluster(atoms, 200 * atoms + seed);
    const std::vector<double> b = movedCopy(a, seed + 50, true);
    const AlignmentResult r = alignStructures(a, b);
    EXPECT_LT(r.distance, 1e-8) << "seed " << seed;
    EXPECT_TRUE(r.inverted);
    EXPECT_LT(maxAbsDifference(r.alignedB, a), 1e-8);
    expectConsistent(a, b, r);
    // A random cluster is chiral: without inversion its mirror image is a different structure.
    AlignmentParams proper;
    proper.inversion = false;
    const AlignmentResult p = alignStructures(a, b, proper);
    EXPECT_GT(p.distance, 0.1) << "seed " << seed;
    EXPECT_FALSE(p.inverted);
    expectConsistent(a, b, p);
  }
}

INSTANTIATE_TEST_SUITE_P(Clusters, AlignmentCopyTest, ::testing::Values(13, 38));

TEST(AlignmentTest, RecognisesCopiesOfDegenerateShapes) {
  // Shapes where atom-pair frames or principal axes are undefined: a line, a plane, and
  // symmetric polyhedra (hexagon, cube, octahedron) with degenerate or isotropic axes.
  const double h = std::sqrt(3.0) / 2.0;
  const std::vector<std::vector<double>> shapes = {
      {0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.5, 0.0, 0.0, 3.1, 0.0, 0.0, 5.0, 0.0, 0.0},
      {0.0, 0.0, 0.0, 1.2, 0.3, 0.0, -0.4, 1.1, 0.0, 2.0, 1.7, 0.0, 0.5, -1.3, 0.0},
      {1.0, 0.0, 0.0, 0.5, h, 0.0, -0.5, h, 0.0, -1.0, 0.0, 0.0, -0.5, -h, 0.0, 0.5, -h, 0.0},
      {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1},
      {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1}};
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    for (unsigned seed = 1; seed <= 5; ++seed) {
      for (bool invert : {false, true}) {
        const std::vector<double>& a = shapes[k];
        const std::vector<double> b = movedCopy(a, seed, invert);
        const AlignmentResult r = alignStructures(a, b);
        EXPECT_LT(r.distance, 1e-8) << "shape " << k << " seed " << seed;
        expectConsistent(a, b, r);
      }
    }
  }
}

TEST(AlignmentTest, DistanceIsSymmetric) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    for (int atoms : {13, 38}) {
      const std::vector<double> a = randomCluster(atoms, seed);
      const std::vector<double> b = randomCluster(atoms, seed + 1000);
      const AlignmentResult ab = alignStructures(a, b);
      const AlignmentResult ba = alignStructures(b, a);
      EXPECT_NEAR(ab.distance, ba.distance, 1e-8) << atoms << " atoms, seed " << seed;
      expectConsistent(a, b, ab);
      expectConsistent(b, a, ba);
    }
  }
}

TEST(AlignmentTest, NeverExceedsFixedOrderKabschDistance) {
  AlignmentParams fixedOrder;
  fixedOrder.permutations = false;
  fixedOrder.inversion = false;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    for (int atoms : {13, 38}) {
      const std::vector<double> a = randomCluster(atoms, 3 * seed);
      // A related structure (a noisy copy in the original order) and an unrelated one.
      std::vector<double> noisy = movedCopy(a, seed, false);
      std::mt19937 rng(seed);
      std::normal_distribution<double> g(0.0, 0.3);
      for (double& v : noisy) v += g(rng);
      for (const std::vector<double>& b : {noisy, randomCluster(atoms, 3 * seed + 1)}) {
        const double kabsch = hornDistance(a, b);
        const AlignmentResult plain = alignStructures(a, b, fixedOrder);
        EXPECT_NEAR(plain.distance, kabsch, 1e-9);
        expectConsistent(a, b, plain);
        for (std::size_t i = 0; i < plain.permutation.size(); ++i) {
          EXPECT_EQ(plain.permutation[i], static_cast<int>(i));
        }
        const AlignmentResult full = alignStructures(a, b);
        EXPECT_LE(full.distance, kabsch + 1e-12);
        expectConsistent(a, b, full);
      }
    }
  }
}

TEST(AlignmentTest, AlignsStructuresDifferingByAFewDisplacedAtoms) {
  // Neighbouring minima differ by a local rearrangement: most atoms stay, a few move by about a
  // bond length. Whatever the orientation and labelling of b, the alignment must do at least as
  // well as the correspondence known here (the original order).
  AlignmentParams fixedOrder;
  fixedOrder.permutations = false;
  fixedOrder.inversion = false;
  for (int displaced : {1, 2, 3}) {
    for (unsigned seed = 1; seed <= 10; ++seed) {
      const std::vector<double> a = randomCluster(38, 500 + seed);
      std::vector<double> b = a;
      std::mt19937 rng(seed);
      std::uniform_int_distribution<std::size_t> atom(0, 37);
      std::normal_distribution<double> g;
      for (int k = 0; k < displaced; ++k) {
        Eigen::Vector3d step(g(rng), g(rng), g(rng));
        step.normalize();
        const std::size_t i = atom(rng);
        for (int c = 0; c < 3; ++c) b[3 * i + c] += step[c];
      }
      const double known = minimumDistance(a, b, fixedOrder);
      EXPECT_LE(minimumDistance(a, movedCopy(b, seed + 20, false)), known + 1e-9)
          << displaced << " displaced atoms, seed " << seed;
    }
  }
}

TEST(AlignmentTest, OneAndTwoAtoms) {
  EXPECT_NEAR(minimumDistance({1.0, 2.0, 3.0}, {-4.0, 5.0, 0.5}), 0.0, 1e-14);
  // Two atoms: only the bond lengths matter; each atom ends |la - lb| / 2 from its partner.
  const std::vector<double> a = {0.0, 0.0, 0.0, 1.0, 0.0, 0.0};
  const std::vector<double> b = {3.0, 3.0, 3.0, 3.0, 4.5, 3.0};
  const double expected = 0.5 / std::sqrt(2.0);
  const AlignmentResult r = alignStructures(a, b);
  EXPECT_NEAR(r.distance, expected, 1e-12);
  expectConsistent(a, b, r);
  AlignmentParams fixedOrder;
  fixedOrder.permutations = false;
  fixedOrder.inversion = false;
  EXPECT_NEAR(minimumDistance(a, b, fixedOrder), expected, 1e-12);
  EXPECT_NEAR(minimumDistance(a, {3.0, 4.5, 3.0, 3.0, 3.0, 3.0}), expected, 1e-12);
}

TEST(AlignmentTest, RejectsBadSizesAndParameters) {
  const std::vector<double> six(6, 0.5);
  EXPECT_THROW(alignStructures(six, std::vector<double>(9, 0.0)), std::invalid_argument);
  EXPECT_THROW(alignStructures(std::vector<double>(5, 0.0), std::vector<double>(5, 0.0)),
               std::invalid_argument);
  EXPECT_THROW(alignStructures({}, {}), std::invalid_argument);
  std::vector<double> bad = six;
  bad[4] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(alignStructures(six, bad), std::invalid_argument);
  AlignmentParams params;
  params.orientationTrials = 0;
  EXPECT_THROW(alignStructures(six, six, params), std::invalid_argument);
  params = AlignmentParams{};
  params.maxIterations = 0;
  EXPECT_THROW(params.check(), std::invalid_argument);
  params = AlignmentParams{};
  params.convergence = -1.0;
  EXPECT_THROW(params.check(), std::invalid_argument);
  params = AlignmentParams{};
  params.randomOrientations = -1;
  EXPECT_THROW(params.check(), std::invalid_argument);
  EXPECT_NO_THROW(AlignmentParams{}.check());
}

// The sentences of a bad parameter or pair name the field and the value (they are made only when
// a check fails: landscape/core/Require.h).
TEST(AlignmentTest, RefusalsNameTheFieldAndTheValue) {
  const auto refusal = [](const std::function<void()>& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no refusal");
  };
  AlignmentParams params;
  params.orientationTrials = 0;
  EXPECT_EQ(refusal([&] { params.check(); }), "alignment orientationTrials must be >= 1, got 0");
  params = AlignmentParams{};
  params.box.length[1] = -2.5;
  EXPECT_EQ(refusal([&] { params.check(); }),
            "alignment box.length[1] must be finite and >= 0 (0 = open axis), got -2.5");
  params = AlignmentParams{};
  params.permutationGroups.push_back({{0, 1, 1}, {}});
  EXPECT_EQ(refusal([&] { params.check(); }),
            "alignment permutationGroups[0]: atom 1 appears twice (atoms and swap sets must all "
            "differ)");
  const std::vector<double> six(6, 0.5);
  EXPECT_EQ(refusal([&] { alignStructures(six, std::vector<double>(9, 0.0)); }),
            "alignStructures: both structures must have the same number of coordinates, got 6 "
            "and 9");
}

TEST(AlignmentTest, Lj38GlobalMinimumCopies) {
  const std::vector<std::vector<double>> minima = readGminLowest(lj38LowestPath());
  if (minima.empty()) GTEST_SKIP() << "LJ38 data not found at " << lj38LowestPath();
  const std::vector<double>& a = minima[0];
  ASSERT_EQ(a.size(), 38u * 3u);
  for (unsigned seed = 1; seed <= 10; ++seed) {
    for (bool invert : {false, true}) {
      const std::vector<double> b = movedCopy(a, seed, invert);
      const AlignmentResult r = alignStructures(a, b);
      EXPECT_LT(r.distance, 1e-8) << "seed " << seed << (invert ? " inverted" : "");
      EXPECT_LT(maxAbsDifference(r.alignedB, a), 1e-8);
      expectConsistent(a, b, r);
      EXPECT_NEAR(minimumDistance(b, a), r.distance, 1e-8);
    }
  }
}

TEST(AlignmentTest, Lj38LowestMinimaAreDistinct) {
  const std::vector<std::vector<double>> minima = readGminLowest(lj38LowestPath());
  if (minima.size() < 2) GTEST_SKIP() << "two LJ38 minima not found at " << lj38LowestPath();
  const std::vector<double>& a = minima[0];
  const std::vector<double>& b = minima[1];
  const AlignmentResult ab = alignStructures(a, b);
  const double ba = minimumDistance(b, a);
  AlignmentParams fixedOrder;
  fixedOrder.permutations = false;
  const double kabsch = minimumDistance(a, b, fixedOrder);
  // The search is heuristic: a moved copy of minimum 2 need not land in exactly the same local
  // optimum of the alignment, but it must come close.
  const double moved = minimumDistance(a, movedCopy(b, 5, true));
  std::cout << "[ info     ] LJ38 minimum 1 vs 2: MINPERMDIST distance " << ab.distance
            << " (reduced units; fixed atom order " << kabsch << "; vs a moved, inverted copy of "
            << "minimum 2: " << moved << ")\n";
  EXPECT_GT(ab.distance, 0.5);
  EXPECT_NEAR(ab.distance, ba, 1e-8);
  EXPECT_LE(ab.distance, kabsch + 1e-12);
  expectConsistent(a, b, ab);
  EXPECT_NEAR(moved, ab.distance, 0.05 * ab.distance);
}

// The search's O(N^2) loops and the assignment solver run AVX2 versions where the processor has
// AVX2 (core/VectorDispatch.h); results must not depend on which ran, down to the last bit and
// the choice among tied assignments.
TEST(VectorDispatchTest, AlignmentsAndAssignmentsAreTheSameBitsWithAndWithoutAvx2) {
  if (!landscape::cpuHasAvx2()) GTEST_SKIP() << "this processor has no AVX2: one version only";
  struct Outcome {
    std::vector<AlignmentResult> alignments;
    std::vector<std::vector<int>> assignments;
    std::vector<Eigen::VectorXd> potentials;
  };
  const auto run = [](bool baseline) {
    landscape::useBaselineLoops(baseline);
    Outcome out;
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> small(0, 3);  // many ties
    for (int t = 0; t < 400; ++t) {
      const int n = 1 + t % 23, m = n + (t / 23) % 4;
      Eigen::MatrixXd c(n, m);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) c(i, j) = t % 2 ? small(rng) : 0.25 * (small(rng) - 1.5);
      Eigen::VectorXd potentials;
      out.assignments.push_back(solveAssignment(c, potentials));
      c(0, 0) += 1.0;  // and warm-started on a changed matrix
      out.assignments.push_back(solveAssignment(c, potentials));
      out.potentials.push_back(potentials);
    }
    for (int atoms : {3, 13, 38, 75}) {
      for (unsigned seed = 1; seed <= 3; ++seed) {
        const std::vector<double> a = randomCluster(atoms, 7 * atoms + seed);
        out.alignments.push_back(alignStructures(a, movedCopy(a, seed, seed == 2)));
        out.alignments.push_back(alignStructures(a, randomCluster(atoms, 5 * atoms + seed)));
        std::vector<double> nudged = movedCopy(a, seed + 10, false);
        for (std::size_t k = 0; k < nudged.size(); k += 7) nudged[k] += 0.3;
        out.alignments.push_back(alignStructures(a, nudged));
      }
    }
    landscape::useBaselineLoops(false);
    return out;
  };
  const Outcome avx2 = run(false), baseline = run(true);
  EXPECT_EQ(avx2.assignments, baseline.assignments);
  for (std::size_t k = 0; k < avx2.potentials.size(); ++k)
    EXPECT_EQ(avx2.potentials[k], baseline.potentials[k]) << "problem " << k;
  for (std::size_t k = 0; k < avx2.alignments.size(); ++k) {
    EXPECT_EQ(avx2.alignments[k].distance, baseline.alignments[k].distance) << "case " << k;
    EXPECT_EQ(avx2.alignments[k].permutation, baseline.alignments[k].permutation) << "case " << k;
    EXPECT_EQ(avx2.alignments[k].rotation, baseline.alignments[k].rotation) << "case " << k;
    EXPECT_EQ(avx2.alignments[k].alignedB, baseline.alignments[k].alignedB) << "case " << k;
  }
}

// Not a pass/fail benchmark: prints the cost per call so that regressions show in the log.
TEST(AlignmentTest, TimingPerCallLj38) {
  std::vector<std::vector<double>> minima = readGminLowest(lj38LowestPath());
  const bool haveData = minima.size() >= 2;
  if (!haveData) minima = {randomCluster(38, 1), randomCluster(38, 2)};
  const std::vector<double>& a = minima[0];
  const std::vector<std::pair<std::string, std::vector<double>>> cases = {
      {"moved permuted copy", movedCopy(a, 9, false)},
      {"moved inverted copy", movedCopy(a, 10, true)},
      {"different minimum", movedCopy(minima[1], 11, false)}};
  for (const auto& [label, b] : cases) {
    const int calls = 200;
    double sum = 0.0;
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < calls; ++k) sum += minimumDistance(a, b);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "[ info     ] " << (haveData ? "LJ38 " : "random 38-atom ") << label << ": "
              << 1e6 * seconds / calls << " us per call (distance " << sum / calls << ")\n";
  }
}

}  // namespace
