// Batched alignments (landscape/geometry/BatchedAlignment.h): the search program written once for
// host and device (AlignmentTeamTerms.h), its CPU twin against alignStructures() (the independent
// host search: the same starts, an SVD instead of Horn's quaternion, the Hungarian solver of
// Hungarian.cpp), and the GPU kernel against its twin bit for bit (skipped without a device).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/AlignmentTwin.h"
#include "landscape/geometry/BatchedAlignment.h"
#include "tests/GminLowestFile.h"
#include "tests/Lj38Example.h"
#include "tests/TestData.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedAlignmentCuda.h"
#endif

namespace landscape {
namespace {

std::vector<std::vector<double>> lj38Lowest() {
  return readGminLowest(std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/lj38/gmin/lowest");
}

// b rotated, translated, permuted (and inverted): a copy of a that only the search recognises.
std::vector<double> movedCopy(const std::vector<double>& a, unsigned seed, bool invert) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  const Eigen::Matrix3d r =
      Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
  const std::size_t n = a.size() / 3;
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<double> b(a.size());
  for (std::size_t i = 0; i < n; ++i) {
    Eigen::Vector3d x(a[3 * perm[i]], a[3 * perm[i] + 1], a[3 * perm[i] + 2]);
    if (invert) x = -x;
    const Eigen::Vector3d y = r * x + Eigen::Vector3d(0.3, -1.1, 2.0);
    for (int k = 0; k < 3; ++k) b[3 * i + k] = y[k];
  }
  return b;
}

// a with `moved` atoms displaced by up to `by` per coordinate: a neighbouring structure.
std::vector<double> displaced(const std::vector<double>& a, int moved, double by, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-by, by);
  std::vector<double> b = a;
  for (int i = 0; i < moved; ++i)
    for (int k = 0; k < 3; ++k) b[3 * static_cast<std::size_t>(i) + k] += u(rng);
  return b;
}

std::vector<double> randomCluster(int atoms, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.6, 1.6);
  std::vector<double> x(3 * static_cast<std::size_t>(atoms));
  for (double& v : x) v = u(rng);
  return x;
}

// Pairs of every kind the search meets: copies (plain and inverted), neighbours, unrelated
// structures, both LJ38 minima of GMIN's lowest file against each other and their copies.
struct PairSet {
  std::vector<std::vector<double>> a, b;
  std::vector<AlignmentPair> pairs() const {
    std::vector<AlignmentPair> p;
    for (std::size_t k = 0; k < a.size(); ++k) p.push_back({&a[k], &b[k]});
    return p;
  }
};

PairSet lj38Pairs() {
  const std::vector<std::vector<double>> minima = lj38Lowest();
  PairSet set;
  if (minima.size() < 2) return set;
  const auto add = [&](const std::vector<double>& x, const std::vector<double>& y) {
    set.a.push_back(x);
    set.b.push_back(y);
  };
  add(minima[0], minima[1]);
  add(minima[1], minima[0]);
  for (unsigned seed = 1; seed <= 3; ++seed) {
    add(minima[0], movedCopy(minima[0], seed, seed == 2));
    add(minima[1], movedCopy(displaced(minima[1], 3, 0.4, seed), seed + 10, false));
    add(minima[0], movedCopy(minima[1], seed + 20, seed == 3));
    add(randomCluster(38, seed), randomCluster(38, seed + 100));
  }
  return set;
}

// The twin and the host search run the same starts and refinements: the distances agree to
// round-off, and so do the permutations (none of these pairs has tied assignments).
TEST(AlignmentTwin, AgreesWithAlignStructuresOnLj38Pairs) {
  const PairSet set = lj38Pairs();
  if (set.a.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest not found";
  AlignmentTwin twin(38, 2);
  for (const bool inversion : {true, false}) {
    AlignmentParams params;
    params.inversion = inversion;
    std::vector<AlignmentResult> out;
    twin.align(params, set.pairs(), out);
    ASSERT_EQ(out.size(), set.a.size());
    for (std::size_t k = 0; k < out.size(); ++k) {
      const AlignmentResult host = alignStructures(set.a[k], set.b[k], params);
      const std::string which = "pair " + std::to_string(k) + (inversion ? "" : " (no inversion)");
      EXPECT_NEAR(out[k].distance, host.distance, 1e-12 * std::max(1.0, host.distance)) << which;
      EXPECT_EQ(out[k].permutation, host.permutation) << which;
      EXPECT_EQ(out[k].inverted, host.inverted) << which;
      EXPECT_LT((out[k].rotation - host.rotation).norm(), 1e-9) << which;
      EXPECT_NEAR(out[k].rotation.determinant(), 1.0, 1e-12) << which;
      // The aligned copy is b moved as the result says, at the stated distance from a.
      double squared = 0.0;
      for (std::size_t i = 0; i < set.a[k].size(); ++i) {
        const double d = set.a[k][i] - out[k].alignedB[i];
        squared += d * d;
      }
      EXPECT_NEAR(std::sqrt(squared), out[k].distance, 1e-12 * std::max(1.0, out[k].distance));
    }
  }
}

// What alignStructures() guarantees holds for the twin as well: a moved, permuted (inverted) copy
// at ~0, d(a, b) == d(b, a) (one canonical direction), and never above the fit in the given order.
TEST(AlignmentTwin, KeepsTheSearchsGuarantees) {
  const PairSet set = lj38Pairs();
  if (set.a.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest not found";
  AlignmentTwin twin(38);
  std::vector<AlignmentResult> out, swapped;
  PairSet reversed;
  reversed.a = set.b;
  reversed.b = set.a;
  twin.align({}, set.pairs(), out);
  twin.align({}, reversed.pairs(), swapped);
  AlignmentParams inOrder;
  inOrder.permutations = false;
  std::vector<AlignmentResult> fixedOrder;
  twin.align(inOrder, set.pairs(), fixedOrder);
  for (std::size_t k = 0; k < out.size(); ++k) {
    EXPECT_NEAR(out[k].distance, swapped[k].distance, 1e-12 * std::max(1.0, out[k].distance))
        << "pair " << k;
    EXPECT_LE(out[k].distance, fixedOrder[k].distance) << "pair " << k;
    EXPECT_NEAR(fixedOrder[k].distance, alignStructures(set.a[k], set.b[k], inOrder).distance,
                1e-12 * std::max(1.0, fixedOrder[k].distance));
  }
  for (std::size_t k : {2u, 6u, 10u}) EXPECT_LT(out[k].distance, 1e-8) << "copy " << k;
}

// A pair's result does not depend on the pairs beside it in the call, nor on the threads.
TEST(AlignmentTwin, APairsBitsDoNotDependOnItsCompany) {
  const PairSet set = lj38Pairs();
  if (set.a.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest not found";
  AlignmentTwin one(38, 1), three(38, 3);
  std::vector<AlignmentResult> all, again;
  one.align({}, set.pairs(), all);
  three.align({}, set.pairs(), again);
  for (std::size_t k = 0; k < set.a.size(); k += 3) {
    std::vector<AlignmentResult> alone;
    one.align({}, {{&set.a[k], &set.b[k]}}, alone);
    EXPECT_EQ(alone[0].alignedB, all[k].alignedB) << "pair " << k;
    EXPECT_EQ(again[k].alignedB, all[k].alignedB) << "pair " << k;
    EXPECT_EQ(again[k].permutation, all[k].permutation) << "pair " << k;
  }
}

// DNEB's thorough endpoint alignment of OPTIM's LJ38 example (128 of 256 orientations): the
// twin finds the 3.136 alignment, the one whose band converges to OPTIM's path
// (docs/benchmarks.md), as alignStructures() does.
TEST(AlignmentTwin, FindsTheLj38ExamplesEndpointAlignment) {
  const std::optional<Lj38Example> example = lj38Example();
  if (!example) GTEST_SKIP() << "tests/data/lj38/optim not found";
  const AlignmentParams params = example->params.alignment;
  AlignmentTwin twin(38);
  std::vector<AlignmentResult> out;
  twin.align(params, {{&example->start, &example->finish}}, out);
  const AlignmentResult host = alignStructures(example->start, example->finish, params);
  EXPECT_NEAR(out[0].distance, 3.136, 0.001);
  EXPECT_NEAR(out[0].distance, host.distance, 1e-12 * host.distance);
  EXPECT_EQ(out[0].permutation, host.permutation);
}

// Small clusters, where the frame starts are few or absent (fewer than 3 atoms).
TEST(AlignmentTwin, AlignsOneTwoAndThreeAtoms) {
  for (int atoms : {1, 2, 3, 5}) {
    const std::vector<double> a = randomCluster(atoms, 7);
    const std::vector<double> b = movedCopy(a, 3, atoms == 5);
    const std::vector<double> c = randomCluster(atoms, 8);
    AlignmentTwin twin(atoms);
    std::vector<AlignmentResult> out;
    twin.align({}, {{&a, &b}, {&a, &c}}, out);
    EXPECT_LT(out[0].distance, 1e-8) << atoms << " atoms";
    EXPECT_NEAR(out[1].distance, alignStructures(a, c).distance, 1e-12) << atoms << " atoms";
  }
}

// A batch keeps the random starts once for all its pairs: the numbered ones are exactly the
// rotations the search draws for each pair, for any seed and chirality; a pair whose generator
// drew otherwise (every atom on its centroid: no frame starts, no lottery) gets them drawn.
TEST(AlignmentStarts, NumberedRandomStartsAreTheDrawnOnes) {
  const PairSet set = lj38Pairs();
  ASSERT_FALSE(set.a.empty());
  for (const bool inversion : {true, false}) {
    AlignmentParams params;
    params.inversion = inversion;
    params.randomOrientations = 17;
    params.seed = inversion ? 5 : 1234567;
    const int draws = usualDrawsBeforeRandomStarts(38);
    const std::vector<Eigen::Matrix3d> table = randomAlignmentRotations(params, draws);
    ASSERT_EQ(table.size(), static_cast<std::size_t>((inversion ? 2 : 1) * 17));
    for (std::size_t k = 0; k < set.a.size(); ++k) {
      const CentredPair pair = centredPair(set.a[k], set.b[k]);
      const std::vector<AlignmentStart> drawn = alignmentStarts(pair, params);
      const std::vector<AlignmentStart> numbered = alignmentStarts(pair, params, draws);
      ASSERT_EQ(drawn.size(), numbered.size());
      int randoms = 0;
      for (std::size_t s = 0; s < drawn.size(); ++s) {
        EXPECT_EQ(drawn[s].random, -1);
        EXPECT_EQ(drawn[s].inverted, numbered[s].inverted);
        EXPECT_EQ(drawn[s].inOrderOf, numbered[s].inOrderOf);
        if (numbered[s].random < 0) {
          EXPECT_EQ(drawn[s].rotation, numbered[s].rotation) << "start " << s;
          continue;
        }
        EXPECT_EQ(numbered[s].random, randoms) << "start " << s;
        EXPECT_EQ(drawn[s].rotation, table[static_cast<std::size_t>(randoms)]) << "start " << s;
        ++randoms;
      }
      EXPECT_EQ(randoms, static_cast<int>(table.size())) << "pair " << k;
    }
  }
  const std::vector<double> point(3 * 38, 0.25);
  const CentredPair degenerate = centredPair(point, point);
  for (const AlignmentStart& start :
       alignmentStarts(degenerate, {}, usualDrawsBeforeRandomStarts(38)))
    EXPECT_EQ(start.random, -1);
  AlignmentTwin twin(38);
  std::vector<AlignmentResult> out;
  twin.align({}, {{&set.a[0], &set.b[0]}, {&point, &point}}, out);
  EXPECT_NEAR(out[0].distance, alignStructures(set.a[0], set.b[0]).distance, 1e-12);
  EXPECT_LT(out[1].distance, 1e-12);
}

// Packing spreads the pairs over a pool: the call's arrays are the same for any threads, and a
// refused pair is still the first one refused.
TEST(AlignmentTeamBatch, PacksTheSameOnAnyThreads) {
  const PairSet set = lj38Pairs();
  ASSERT_FALSE(set.a.empty());
  const std::vector<AlignmentPair> pairs = set.pairs();
  const AlignmentTeamBatch one(AlignmentParams{}, pairs, 38);
  ThreadPool pool(3);
  const AlignmentTeamBatch three(AlignmentParams{}, pairs, 38, &pool);
  EXPECT_EQ(one.coordinates(), three.coordinates());
  EXPECT_EQ(one.startRotations(), three.startRotations());
  EXPECT_EQ(one.randomRotations(), three.randomRotations());
  EXPECT_EQ(one.startFlags(), three.startFlags());
  EXPECT_EQ(one.firstStart(), three.firstStart());
  std::vector<double> bad = set.b[3], shorter(3 * 37, 0.0);
  bad[5] = std::nan("");
  std::vector<AlignmentPair> refused = pairs;
  refused[3].b = &bad;
  refused[7].b = &shorter;
  try {
    const AlignmentTeamBatch batch(AlignmentParams{}, refused, 38, &pool);
    ADD_FAILURE() << "a pair with a NaN was packed";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pair 3"), std::string::npos) << e.what();
  }
}

TEST(AlignmentTwin, RefusesWhatItCannotAlign) {
  const std::vector<double> a = randomCluster(4, 1), b = randomCluster(4, 2),
                            c = randomCluster(5, 3);
  AlignmentTwin twin(4);
  std::vector<AlignmentResult> out;
  try {
    twin.align({}, {{&a, &b}, {&a, &c}}, out);
    ADD_FAILURE() << "a pair of the wrong size was aligned";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pair 1"), std::string::npos) << e.what();
  }
  AlignmentParams groups;
  groups.permutationGroups = {{{0, 1}, {}}};
  EXPECT_THROW(twin.align(groups, {{&a, &b}}, out), std::invalid_argument);
  AlignmentParams box;
  for (double& edge : box.box.length) edge = 5.0;
  EXPECT_THROW(twin.align(box, {{&a, &b}}, out), std::invalid_argument);
  std::vector<double> bad = b;
  bad[2] = std::nan("");
  EXPECT_THROW(twin.align({}, {{&a, &bad}}, out), std::invalid_argument);
  EXPECT_THROW(AlignmentTwin(0), std::invalid_argument);
}

// Horn's quaternion gives the proper rotation of the Kabsch SVD (Kabsch 1976, the host search's)
// to round-off, for well-determined fits, and never a worse fit in any case (planar structures,
// reflections, noise).
TEST(AlignmentTeamTerms, HornsRotationIsKabschs) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 3 + trial % 40;
    Eigen::Matrix3Xd a(3, n), b(3, n);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) {
        a(k, i) = g(rng);
        b(k, i) = g(rng) * (trial % 3 == 0 ? 1.0 : 0.05);
      }
    const bool related = trial % 3 != 0;
    if (related) {
      const Eigen::Matrix3d r0 =
          Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
      b = r0.transpose() * a + b;
    }
    if (trial % 7 == 0) b.row(2).setZero();
    const Eigen::Matrix3d m = b * a.transpose();
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
    if ((svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0) d(2, 2) = -1.0;
    const Eigen::Matrix3d kabsch = svd.matrixV() * d * svd.matrixU().transpose();
    double s[9], r[9];
    for (int x = 0; x < 3; ++x)
      for (int y = 0; y < 3; ++y) s[3 * x + y] = m(x, y);
    alignmentRotationFromCorrelation(s, r);
    const Eigen::Matrix3d horn = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(r);
    EXPECT_NEAR(horn.determinant(), 1.0, 1e-12) << "trial " << trial;
    EXPECT_LT((horn * horn.transpose() - Eigen::Matrix3d::Identity()).norm(), 1e-12);
    const double fitHorn = (a - horn * b).squaredNorm(), fitKabsch = (a - kabsch * b).squaredNorm();
    EXPECT_LE(fitHorn, fitKabsch * (1.0 + 1e-12) + 1e-12) << "trial " << trial;
    if (related && trial % 7 != 0) EXPECT_LT((horn - kabsch).norm(), 1e-12) << "trial " << trial;
  }
}

#ifdef LANDSCAPE_HAVE_CUDA
// The kernel runs the twin's program: every pair's bits are the twin's, with the default search
// and DNEB's thorough one, whatever warps the block has.
TEST(BatchedAlignmentCuda, IsItsTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  const PairSet set = lj38Pairs();
  if (set.a.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest not found";
  AlignmentParams thorough;
  thorough.orientationTrials = 128;
  thorough.randomOrientations = 256;
  AlignmentTwin twin(38, 2);
  for (const AlignmentParams& params : {AlignmentParams{}, thorough}) {
    std::vector<AlignmentResult> expected;
    twin.align(params, set.pairs(), expected);
    for (int warps : {1, 8}) {
      BatchedAlignmentCuda device(38, warps);
      std::vector<AlignmentResult> out;
      device.align(params, set.pairs(), out);
      ASSERT_EQ(out.size(), expected.size());
      for (std::size_t k = 0; k < out.size(); ++k) {
        EXPECT_EQ(out[k].alignedB, expected[k].alignedB)
            << "pair " << k << ", " << warps << " warps";
        EXPECT_EQ(out[k].permutation, expected[k].permutation) << "pair " << k;
        EXPECT_EQ(out[k].inverted, expected[k].inverted) << "pair " << k;
      }
    }
  }
}
#endif

}  // namespace
}  // namespace landscape
