// Tests of alignment and duplicate detection in a periodic box: translations modulo the box and
// permutations of identical atoms, minimum-image distances
// (landscape/geometry/PeriodicAlignment.h).
#include "landscape/geometry/Alignment.h"
#include "potentials/PeriodicBox.h"

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using landscape::AlignmentParams;
using landscape::AlignmentResult;
using landscape::alignStructures;
using landscape::minimumDistance;
using landscape::PeriodicBox;
using landscape::PermutationGroup;

// ---------------------------------------------------------------- helpers

PeriodicBox cubicBox(double length) {
  PeriodicBox box;
  box.length[0] = box.length[1] = box.length[2] = length;
  return box;
}

// Edge of a cubic box holding `atoms` at number density 0.7: loose enough for random placement
// with a 0.9 minimum separation (a volume fraction of about 0.27).
double boxEdge(int atoms) { return std::cbrt(static_cast<double>(atoms) / 0.7); }

AlignmentParams periodicParams(const PeriodicBox& box) {
  AlignmentParams params;
  params.box = box;
  return params;
}

double imageNorm(const PeriodicBox& box, Eigen::Vector3d d) {
  box.minimumImage(d.data());
  return d.norm();
}

// Random atoms in the box, no two closer than 0.9 (minimum image), coordinates in [0, L) on the
// periodic axes; an open axis (length 0) is filled over [0, openExtent).
std::vector<double> randomConfiguration(int atoms, const PeriodicBox& box, unsigned seed,
                                        double openExtent = 0.0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Eigen::Vector3d> placed;
  while (static_cast<int>(placed.size()) < atoms) {
    Eigen::Vector3d p;
    for (int k = 0; k < 3; ++k) p[k] = u(rng) * (box.length[k] > 0.0 ? box.length[k] : openExtent);
    const bool clash = std::any_of(placed.begin(), placed.end(), [&](const Eigen::Vector3d& q) {
      return imageNorm(box, p - q) < 0.9;
    });
    if (!clash) placed.push_back(p);
  }
  std::vector<double> x;
  for (const Eigen::Vector3d& p : placed) x.insert(x.end(), p.data(), p.data() + 3);
  return x;
}

// A translated, relabelled copy, wrapped back into the box: copy atom k = wrap(x_order[k] + t).
// Labels are shuffled within each block [blockStarts[b], blockStarts[b + 1]) (one per species;
// one block over all atoms when empty).
std::vector<double> translatedCopy(const std::vector<double>& x, const PeriodicBox& box,
                                   unsigned seed, std::vector<std::size_t> blockStarts = {}) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-20.0, 20.0);
  const Eigen::Vector3d t(u(rng), u(rng), u(rng));
  const std::size_t n = x.size() / 3;
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (blockStarts.empty()) blockStarts = {0};
  blockStarts.push_back(n);
  for (std::size_t b = 0; b + 1 < blockStarts.size(); ++b) {
    std::shuffle(order.begin() + static_cast<std::ptrdiff_t>(blockStarts[b]),
                 order.begin() + static_cast<std::ptrdiff_t>(blockStarts[b + 1]), rng);
  }
  std::vector<double> y(x.size());
  for (std::size_t k = 0; k < n; ++k) {
    for (int c = 0; c < 3; ++c) y[3 * k + c] = box.wrapped(x[3 * order[k] + c] + t[c], c);
  }
  return y;
}

void addNoise(std::vector<double>& x, double sigma, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0.0, sigma);
  for (double& v : x) v += g(rng);
}

double maxImageDifference(const PeriodicBox& box, const std::vector<double>& x,
                          const std::vector<double>& y) {
  double m = 0.0;
  for (std::size_t i = 0; i < x.size(); i += 3) {
    m = std::max(
        m, imageNorm(box, Eigen::Vector3d(x[i] - y[i], x[i + 1] - y[i + 1], x[i + 2] - y[i + 2])));
  }
  return m;
}

// The result must describe itself: no rotation or inversion, a permutation, alignedB atom i is
// b atom permutation[i] + translation moved by whole box edges (none on open axes) to the image
// nearest a atom i, and distance == |a - alignedB|.
void expectConsistent(const PeriodicBox& box, const std::vector<double>& a,
                      const std::vector<double>& b, const AlignmentResult& r) {
  const std::size_t n = a.size() / 3;
  ASSERT_EQ(r.alignedB.size(), a.size());
  ASSERT_EQ(r.permutation.size(), n);
  std::vector<int> sorted = r.permutation;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], static_cast<int>(i));
  EXPECT_TRUE(r.rotation == Eigen::Matrix3d::Identity());
  EXPECT_FALSE(r.inverted);
  double squared = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = static_cast<std::size_t>(r.permutation[i]);
    for (int c = 0; c < 3; ++c) {
      const double L = box.length[c];
      const double shift = r.alignedB[3 * i + c] - (b[3 * j + c] + r.translation[c]);
      const double edges = L > 0.0 ? shift / L : 0.0;
      EXPECT_NEAR(edges, std::round(edges), 1e-9) << "atom " << i << " axis " << c;
      if (!(L > 0.0)) EXPECT_NEAR(shift, 0.0, 1e-9) << "atom " << i << " open axis " << c;
      const double d = a[3 * i + c] - r.alignedB[3 * i + c];
      if (L > 0.0) EXPECT_LE(std::abs(d), 0.5 * L + 1e-9) << "atom " << i << " axis " << c;
      squared += d * d;
    }
  }
  EXPECT_NEAR(r.distance, std::sqrt(squared), 1e-12);
}

// Independent reference for the fit in the given order: the best translation, axis by axis, by a
// scan of 1000 starts per edge (much closer than the breakpoints, 1/N of an edge apart on
// average), each polished by mean-shift steps of the minimum-image displacements (a descent,
// whose basin the scan finds). The library instead solves exactly over the breakpoints.
double givenOrderReference(const PeriodicBox& box, const std::vector<double>& a,
                           const std::vector<double>& b) {
  const std::size_t n = a.size() / 3;
  double total = 0.0;
  for (int c = 0; c < 3; ++c) {
    const double L = box.length[c];
    std::vector<double> d(n);
    for (std::size_t i = 0; i < n; ++i) d[i] = a[3 * i + c] - b[3 * i + c];
    const auto image = [L](double v) { return L > 0.0 ? v - L * std::round(v / L) : v; };
    const auto squares = [&](double t) {
      double s = 0.0;
      for (double v : d) s += image(v - t) * image(v - t);
      return s;
    };
    if (!(L > 0.0)) {
      const double mean = std::accumulate(d.begin(), d.end(), 0.0) / static_cast<double>(n);
      total += squares(mean);
      continue;
    }
    double best = std::numeric_limits<double>::infinity();
    const int points = 1000;
    for (int k = 0; k < points; ++k) {
      double t = L * k / points;
      for (int step = 0; step < 100; ++step) {
        double shift = 0.0;
        for (double v : d) shift += image(v - t);
        t += shift / static_cast<double>(n);
        if (std::abs(shift) < 1e-14) break;
      }
      best = std::min(best, squares(t));
    }
    total += best;
  }
  return std::sqrt(total);
}

std::vector<PermutationGroup> speciesGroups(std::size_t first, std::size_t atoms) {
  PermutationGroup a, b;
  for (std::size_t i = 0; i < atoms; ++i) (i < first ? a : b).atoms.push_back(static_cast<int>(i));
  return {a, b};
}

void expectSpeciesKept(const AlignmentResult& r, std::size_t first) {
  for (std::size_t i = 0; i < r.permutation.size(); ++i) {
    EXPECT_EQ(i < first, static_cast<std::size_t>(r.permutation[i]) < first)
        << "atom " << i << " took the place of atom " << r.permutation[i] << " of another species";
  }
}

// ---------------------------------------------------------------- tests

TEST(PeriodicAlignmentTest, RecognisesTranslatedPermutedWrappedCopies) {
  const PeriodicBox box = cubicBox(boxEdge(64));
  const AlignmentParams params = periodicParams(box);
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const std::vector<double> a = randomConfiguration(64, box, seed);
    const std::vector<double> b = translatedCopy(a, box, 100 + seed);
    const AlignmentResult r = alignStructures(a, b, params);
    EXPECT_LT(r.distance, 1e-12) << "seed " << seed;
    EXPECT_LT(maxImageDifference(box, r.alignedB, a), 1e-12) << "seed " << seed;
    expectConsistent(box, a, b, r);
    // Where a - alignedB is the minimum image, alignedB is a itself for a copy.
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(r.alignedB[i], a[i], 1e-12);
    EXPECT_LT(minimumDistance(b, a, params), 1e-12) << "seed " << seed;
  }
}

TEST(PeriodicAlignmentTest, RecognisesCopiesOfAPerfectCrystal) {
  // Every atom of a simple cubic lattice has the same environment: all images match exactly.
  const int edge = 4;
  const PeriodicBox box = cubicBox(1.1 * edge);
  std::vector<double> a;
  for (int i = 0; i < edge; ++i)
    for (int j = 0; j < edge; ++j)
      for (int k = 0; k < edge; ++k) a.insert(a.end(), {1.1 * i, 1.1 * j, 1.1 * k});
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const std::vector<double> b = translatedCopy(a, box, seed);
    const AlignmentResult r = alignStructures(a, b, periodicParams(box));
    EXPECT_LT(r.distance, 1e-12) << "seed " << seed;
    expectConsistent(box, a, b, r);
  }
}

TEST(PeriodicAlignmentTest, GivenOrderFitMatchesAnIndependentTranslationScan) {
  // Noisy copies in the original order, translated so that many atoms change images, and
  // unrelated configurations, whose displacements spread over the whole box: there the sum of
  // squared minimum-image displacements has many local minima in the translation, and iterating
  // the mean of the displacements ends in one of them.
  const PeriodicBox box = cubicBox(boxEdge(64));
  AlignmentParams fixedOrder = periodicParams(box);
  fixedOrder.permutations = false;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const std::vector<double> a = randomConfiguration(64, box, 20 + seed);
    std::vector<double> noisy = a;
    addNoise(noisy, 0.4 * seed / 10.0 + 0.05, seed);
    for (std::size_t i = 0; i < noisy.size(); ++i) {
      noisy[i] = box.wrapped(noisy[i] + 0.37 * box.length[i % 3] * (1.0 + (i % 3)),
                             static_cast<int>(i % 3));
    }
    for (const std::vector<double>& b : {noisy, randomConfiguration(64, box, 30 + seed)}) {
      const double reference = givenOrderReference(box, a, b);
      const AlignmentResult plain = alignStructures(a, b, fixedOrder);
      EXPECT_NEAR(plain.distance, reference, 1e-9) << "seed " << seed;
      expectConsistent(box, a, b, plain);
      for (std::size_t i = 0; i < plain.permutation.size(); ++i) {
        EXPECT_EQ(plain.permutation[i], static_cast<int>(i));
      }
    }
  }
}

TEST(PeriodicAlignmentTest, NeverExceedsTheGivenOrderFit) {
  const PeriodicBox box = cubicBox(boxEdge(64));
  const AlignmentParams params = periodicParams(box);
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const std::vector<double> a = randomConfiguration(64, box, 40 + seed);
    // A related structure (noisy, in the original order, moved across the box) and an unrelated
    // one.
    std::vector<double> noisy = a;
    addNoise(noisy, 0.3, seed);
    for (std::size_t i = 0; i < noisy.size(); ++i) {
      noisy[i] = box.wrapped(noisy[i] + 0.5 * box.length[0], static_cast<int>(i % 3));
    }
    for (const std::vector<double>& b : {noisy, randomConfiguration(64, box, 60 + seed)}) {
      const double reference = givenOrderReference(box, a, b);
      const AlignmentResult full = alignStructures(a, b, params);
      EXPECT_LE(full.distance, reference + 1e-12) << "seed " << seed;
      expectConsistent(box, a, b, full);
    }
  }
}

TEST(PeriodicAlignmentTest, DistanceIsSymmetric) {
  const PeriodicBox box = cubicBox(boxEdge(64));
  const AlignmentParams params = periodicParams(box);
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const std::vector<double> a = randomConfiguration(64, box, 80 + seed);
    std::vector<double> related = translatedCopy(a, box, seed);
    addNoise(related, 0.2, seed);
    for (const std::vector<double>& b : {related, randomConfiguration(64, box, 90 + seed)}) {
      const AlignmentResult ab = alignStructures(a, b, params);
      const AlignmentResult ba = alignStructures(b, a, params);
      EXPECT_NEAR(ab.distance, ba.distance, 1e-12) << "seed " << seed;
      expectConsistent(box, a, b, ab);
      expectConsistent(box, b, a, ba);
    }
  }
}

TEST(PeriodicAlignmentTest, DifferentStructuresArePositivelyApart) {
  const PeriodicBox box = cubicBox(boxEdge(64));
  const AlignmentParams params = periodicParams(box);
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const std::vector<double> a = randomConfiguration(64, box, 110 + seed);
    const std::vector<double> b = randomConfiguration(64, box, 120 + seed);
    EXPECT_GT(minimumDistance(a, b, params), 1.0) << "seed " << seed;
    // One atom moved by 0.5: the copy is no longer one, and the distance is at most the move.
    std::vector<double> moved = a;
    moved[3 * 7] += 0.5;
    const double d = minimumDistance(a, translatedCopy(moved, box, seed), params);
    EXPECT_GT(d, 0.1) << "seed " << seed;
    EXPECT_LE(d, 0.5 + 1e-12) << "seed " << seed;
  }
}

TEST(PeriodicAlignmentTest, AlignsStructuresDifferingByAFewDisplacedAtoms) {
  // Neighbouring minima differ by a local rearrangement: whatever the translation and labelling
  // of b, the alignment must do at least as well as the correspondence known here.
  const PeriodicBox box = cubicBox(boxEdge(64));
  const AlignmentParams params = periodicParams(box);
  for (int displaced : {1, 2, 3}) {
    for (unsigned seed = 1; seed <= 10; ++seed) {
      const std::vector<double> a = randomConfiguration(64, box, 130 + seed);
      std::vector<double> b = a;
      std::mt19937 rng(seed);
      std::uniform_int_distribution<std::size_t> atom(0, 63);
      std::normal_distribution<double> g;
      for (int k = 0; k < displaced; ++k) {
        Eigen::Vector3d step(g(rng), g(rng), g(rng));
        step.normalize();
        const std::size_t i = atom(rng);
        for (int c = 0; c < 3; ++c) b[3 * i + c] += step[c];
      }
      const double known = givenOrderReference(box, a, b);
      EXPECT_LE(minimumDistance(a, translatedCopy(b, box, seed + 20), params), known + 1e-9)
          << displaced << " displaced atoms, seed " << seed;
    }
  }
}

TEST(PeriodicAlignmentTest, BinaryMixtureNeverExchangesSpecies) {
  // Kob-Andersen proportions: 51 A atoms (0..50) and 13 B atoms (51..63), one group each.
  const std::size_t atoms = 64, first = 51;
  const PeriodicBox box = cubicBox(boxEdge(64));
  AlignmentParams params = periodicParams(box);
  params.permutationGroups = speciesGroups(first, atoms);
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const std::vector<double> a = randomConfiguration(static_cast<int>(atoms), box, 140 + seed);
    // A copy shuffled within each species is the same minimum.
    const std::vector<double> copy = translatedCopy(a, box, seed, {0, first});
    const AlignmentResult same = alignStructures(a, copy, params);
    EXPECT_LT(same.distance, 1e-12) << "seed " << seed;
    expectSpeciesKept(same, first);
    expectConsistent(box, a, copy, same);

    // Exchanging the positions of an A and a B atom gives the same point set, so ignoring species
    // the distance is zero; as a mixture it is a different configuration.
    std::vector<double> swapped = a;
    for (int c = 0; c < 3; ++c) std::swap(swapped[3 * 3 + c], swapped[3 * 60 + c]);
    const std::vector<double> b = translatedCopy(swapped, box, seed + 10, {0, first});
    EXPECT_LT(minimumDistance(a, b, periodicParams(box)), 1e-12) << "seed " << seed;
    const AlignmentResult mixture = alignStructures(a, b, params);
    EXPECT_GT(mixture.distance, 0.1) << "seed " << seed;
    expectSpeciesKept(mixture, first);
    expectConsistent(box, a, b, mixture);
    EXPECT_NEAR(minimumDistance(b, a, params), mixture.distance, 1e-12) << "seed " << seed;
  }
}

TEST(PeriodicAlignmentTest, SlabWithAnOpenAxis) {
  // Periodic in x and y, open in z: translations along z are free, but an atom moved by a box
  // length along z is not an image of itself.
  PeriodicBox box = cubicBox(boxEdge(64));
  box.length[2] = 0.0;
  const AlignmentParams params = periodicParams(box);
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const std::vector<double> a = randomConfiguration(64, box, 150 + seed, 4.0);
    const std::vector<double> b = translatedCopy(a, box, seed);
    const AlignmentResult r = alignStructures(a, b, params);
    EXPECT_LT(r.distance, 1e-12) << "seed " << seed;
    expectConsistent(box, a, b, r);

    std::vector<double> lifted = a;
    lifted[3 * 5 + 2] += 10.0;
    const AlignmentResult apart = alignStructures(a, translatedCopy(lifted, box, seed), params);
    EXPECT_GT(apart.distance, 1.0) << "seed " << seed;
    // The same shift along a periodic axis of edge 10 would be an image.
    PeriodicBox tall = box;
    tall.length[2] = 10.0;
    EXPECT_LT(minimumDistance(a, lifted, periodicParams(tall)), 1e-12) << "seed " << seed;
  }
}

TEST(PeriodicAlignmentTest, RejectsBadBoxes) {
  const std::vector<double> x = {0.1, 0.2, 0.3, 1.1, 1.2, 1.3};
  for (double bad :
       {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    for (int k = 0; k < 3; ++k) {
      AlignmentParams params = periodicParams(cubicBox(5.0));
      params.box.length[k] = bad;
      EXPECT_THROW(params.check(), std::invalid_argument);
      try {
        alignStructures(x, x, params);
        ADD_FAILURE() << "box edge " << bad << " on axis " << k << " accepted";
      } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("box.length[" + std::to_string(k) + "]"), std::string::npos)
            << message;
      }
    }
  }
  // Inversion and random orientations are simply not used in a box: the defaults are accepted.
  EXPECT_NO_THROW(periodicParams(cubicBox(5.0)).check());
}

TEST(PeriodicAlignmentTest, SmallCasesAndTheOpenBox) {
  const AlignmentParams params = periodicParams(cubicBox(3.0));
  EXPECT_LT(minimumDistance({0.1, 0.2, 0.3}, {2.9, 1.7, 0.0}, params), 1e-12);
  // Two atoms 1.0 apart in a and 2.0 apart (1.0 by the minimum image along x) in b.
  const std::vector<double> a = {0.0, 0.0, 0.0, 1.0, 0.0, 0.0};
  const std::vector<double> b = {0.5, 0.5, 0.5, 2.5, 0.5, 0.5};
  EXPECT_LT(minimumDistance(a, b, params), 1e-12);
  // An all-open box is the cluster alignment, rotations included.
  AlignmentParams open;
  open.box = PeriodicBox{};
  const std::vector<double> c = {0.0, 0.0, 0.0, 0.0, 1.0, 0.0};
  EXPECT_EQ(minimumDistance(a, c, open), minimumDistance(a, c));
  EXPECT_LT(minimumDistance(a, c, open), 1e-12);
  EXPECT_GT(minimumDistance(a, c, params), 0.5);  // a box does not rotate
  // The open alignment reports its translation too: alignedB = s R b_perm + translation.
  const std::vector<double> d = {0.3, -1.2, 0.7, 1.9, 0.4, -0.6, -0.8, 0.9, 1.1, 0.2, 0.1, -1.5};
  const std::vector<double> e = {2.1, 3.3, -0.4, 1.0, 2.2, 0.5, 2.6, 4.0, 1.2, 3.5, 2.9, 0.8};
  const AlignmentResult r = alignStructures(d, e);
  for (std::size_t i = 0; i < r.permutation.size(); ++i) {
    const std::size_t j = static_cast<std::size_t>(r.permutation[i]);
    const Eigen::Vector3d moved =
        (r.inverted ? -1.0 : 1.0) *
            (r.rotation * Eigen::Vector3d(e[3 * j], e[3 * j + 1], e[3 * j + 2])) +
        r.translation;
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(r.alignedB[3 * i + k], moved[k], 1e-12);
  }
}

// Not a pass/fail benchmark: prints the cost per call so that regressions show in the log.
TEST(PeriodicAlignmentTest, TimingPerCall) {
  for (int atoms : {64, 256}) {
    const PeriodicBox box = cubicBox(boxEdge(atoms));
    const AlignmentParams params = periodicParams(box);
    const std::vector<double> a = randomConfiguration(atoms, box, 7);
    std::vector<double> neighbour = a;
    for (int c = 0; c < 3; ++c) neighbour[3 * 11 + c] += 0.6;
    const std::vector<std::pair<std::string, std::vector<double>>> cases = {
        {"translated permuted copy", translatedCopy(a, box, 9)},
        {"one atom displaced", translatedCopy(neighbour, box, 10)},
        {"different configuration", randomConfiguration(atoms, box, 8)}};
    for (const auto& [label, b] : cases) {
      const int calls = atoms > 100 ? 3 : 20;
      double sum = 0.0;
      const auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < calls; ++k) sum += minimumDistance(a, b, params);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::cout << "[ info     ] " << atoms << " atoms, " << label << ": " << 1e3 * seconds / calls
                << " ms per call (distance " << sum / calls << ")\n";
      EXPECT_TRUE(std::isfinite(sum));
    }
  }
}

}  // namespace
