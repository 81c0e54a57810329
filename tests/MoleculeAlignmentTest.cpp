// Alignment of molecules: translation and rotation only (no inversion: a chiral molecule's mirror
// image is another molecule), permutations only within declared groups (perm.allow), swap sets
// following their group's atoms. Lennard-Jones clusters keep all-atom permutations and inversion.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "landscape/geometry/Alignment.h"
#include "potentials/AmberCoordinates.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

// x rotated about a random axis and shifted.
std::vector<double> moved(const std::vector<double>& x, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::Vector3d axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
  const Eigen::Matrix3d r = Eigen::AngleAxisd(3.0 * u(rng), axis).toRotationMatrix();
  const Eigen::Vector3d shift(u(rng) * 5.0, u(rng) * 5.0, u(rng) * 5.0);
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); i += 3) {
    const Eigen::Vector3d p = r * Eigen::Vector3d(x[i], x[i + 1], x[i + 2]) + shift;
    for (int k = 0; k < 3; ++k) out[i + k] = p[k];
  }
  return out;
}

std::vector<double> mirrored(std::vector<double> x) {
  for (std::size_t i = 0; i < x.size(); i += 3) x[i] = -x[i];
  return x;
}

void swapAtoms(std::vector<double>& x, int i, int j) {
  for (int k = 0; k < 3; ++k) std::swap(x[3 * i + k], x[3 * j + k]);
}

AlignmentParams moleculeParams() {
  AlignmentParams p;
  p.inversion = false;
  p.permutations = false;
  return p;
}

// Ace-Ash-Nme (25 atoms; 1-based: 1 HH31, 2 CH3, 3 HH32, 4 HH33, ..., 9 CA, ..., 22 CH3, 23-25
// HH3x). Its CA is a stereocentre.
std::vector<double> ash() {
  const auto path = testDataPath("gb/ash/ash.rst7");
  if (!path) return {};
  return readAmberCoordinates(*path).positions;
}

// The two methyl groups of ash as perm.allow declares them (0-based here).
std::vector<PermutationGroup> ashMethyls() { return {{{0, 2, 3}, {}}, {{22, 23, 24}, {}}}; }

TEST(MoleculeAlignment, MirrorImageOfAChiralMoleculeStaysDistinctWithoutInversion) {
  const std::vector<double> a = ash();
  if (a.empty()) GTEST_SKIP() << "gb/ash/ash.rst7 not found";
  const std::vector<double> copy = moved(a, 1);
  const std::vector<double> image = moved(mirrored(a), 2);

  AlignmentParams molecule = moleculeParams();
  EXPECT_LT(minimumDistance(a, copy, molecule), 1e-8);
  const double apart = minimumDistance(a, image, molecule);
  EXPECT_GT(apart, 1.0) << "Angstrom";
  // Permutations within the methyl groups cannot turn a mirror image into the molecule either.
  molecule.permutations = true;
  molecule.permutationGroups = ashMethyls();
  EXPECT_LT(minimumDistance(a, copy, molecule), 1e-8);
  EXPECT_GT(minimumDistance(a, image, molecule), 1.0);
  const AlignmentResult r = alignStructures(a, image, molecule);
  EXPECT_FALSE(r.inverted);
  EXPECT_NEAR(r.rotation.determinant(), 1.0, 1e-12);

  // Cluster settings (all atoms interchangeable, inversion allowed) do map the mirror image onto
  // the molecule, as they should for identical atoms.
  const AlignmentParams cluster;
  EXPECT_LT(minimumDistance(a, image, cluster), 1e-6);
  EXPECT_TRUE(alignStructures(a, image, cluster).inverted);
}

TEST(MoleculeAlignment, LennardJonesClustersStillFindMirrorImagesAndPermutations) {
  // A chiral 8-atom cluster: its mirror image is no rotation of it.
  const std::vector<double> x = {0.0, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 1.2, 0.0, 0.0, 0.0, 1.3,
                                 1.0, 1.1, 0.2, 0.3, 1.0, 1.2, 1.4, 0.1, 0.9, 0.7, 0.6, 0.5};
  std::vector<double> image = moved(mirrored(x), 3);
  swapAtoms(image, 0, 5);
  swapAtoms(image, 2, 7);
  EXPECT_LT(minimumDistance(x, image, AlignmentParams{}), 1e-8);
  AlignmentParams noInversion;
  noInversion.inversion = false;
  EXPECT_GT(minimumDistance(x, image, noInversion), 0.1);
}

TEST(MoleculeAlignment, PermutationsOnlyWithinGroups) {
  const std::vector<double> a = ash();
  if (a.empty()) GTEST_SKIP() << "gb/ash/ash.rst7 not found";
  std::vector<double> b = moved(a, 4);
  swapAtoms(b, 0, 3);    // two hydrogens of the ACE methyl
  swapAtoms(b, 22, 24);  // and of the NME methyl
  AlignmentParams p = moleculeParams();
  const double fixedOrder = minimumDistance(a, b, p);
  EXPECT_GT(fixedOrder, 1.0);
  p.permutations = true;
  p.permutationGroups = ashMethyls();
  const AlignmentResult r = alignStructures(a, b, p);
  EXPECT_LT(r.distance, 1e-8);
  EXPECT_EQ(r.permutation[0], 3);
  EXPECT_EQ(r.permutation[3], 0);
  EXPECT_EQ(r.permutation[22], 24);
  for (int i : {1, 4, 5, 6, 7, 8, 9, 10, 11, 12}) EXPECT_EQ(r.permutation[i], i);
  // Symmetric, and the other direction undoes the same swaps.
  EXPECT_NEAR(minimumDistance(b, a, p), r.distance, 1e-12);

  // Atoms outside every group never move: swapping CA (9) with HA (10) stays visible.
  std::vector<double> c = moved(a, 5);
  swapAtoms(c, 8, 9);
  EXPECT_GT(minimumDistance(a, c, p), 0.5);
  // Never worse than the fit in the given order.
  EXPECT_LE(minimumDistance(a, c, p), minimumDistance(a, c, moleculeParams()) + 1e-12);
}

TEST(MoleculeAlignment, SwapSetsFollowTheirGroupAndNestedGroupsPermuteAfterwards) {
  // Two "methyls" (carbon + 3 hydrogens) on a chiral frame of four further atoms.
  std::vector<double> x = {
      0.0,  0.0,  0.0,  1.5,  0.0,  0.0,  -0.5, 1.4,  0.1,  0.2,  -0.3, 1.6,  // frame 0-3
      2.2,  1.0,  0.3,  3.2,  0.9,  0.1,  2.0,  1.9,  -0.2, 2.1,  1.2,  1.4,  // C 4, H 5-7
      -1.2, -1.1, -0.4, -1.0, -2.1, -0.1, -2.2, -0.9, -0.2, -1.3, -1.0, -1.5  // C 8, H 9-11
  };
  std::vector<double> y = moved(x, 6);
  // Swap the two methyls whole (carbons and their hydrogens), then rotate the second methyl's
  // hydrogens among themselves.
  swapAtoms(y, 4, 8);
  for (int k = 0; k < 3; ++k) swapAtoms(y, 5 + k, 9 + k);
  swapAtoms(y, 9, 10);
  AlignmentParams p = moleculeParams();
  p.permutations = true;
  p.permutationGroups = {{{4, 8}, {{5, 9}, {6, 10}, {7, 11}}}};
  // Without the nested hydrogen group the swap of 9 and 10 remains.
  EXPECT_GT(minimumDistance(x, y, p), 0.5);
  p.permutationGroups.push_back({{5, 6, 7}, {}});
  p.permutationGroups.push_back({{9, 10, 11}, {}});
  EXPECT_LT(minimumDistance(x, y, p), 1e-8);
  // Without swap sets the carbons swap alone and the hydrogens stay behind.
  AlignmentParams bare = moleculeParams();
  bare.permutations = true;
  bare.permutationGroups = {{{4, 8}, {}}};
  EXPECT_GT(minimumDistance(x, y, bare), 1.0);
}

// A cluster of molecules, every atom in a group (no atom fixes the frame): a copy with the
// molecules shuffled, each one's two "hydrogens" swapped, turned by a large rotation and moved is
// recognised, so the orientation is searched, not only refined from the fit in the given order.
TEST(MoleculeAlignment, ClustersOfMoleculesFindAShuffledTurnedCopy) {
  std::mt19937 rng(20261201);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int molecules = 8;
  std::vector<double> x;
  for (int m = 0; m < molecules; ++m) {  // an "oxygen" on a loose grid, two "hydrogens" near it
    const double o[3] = {2.8 * (m % 2) + 0.3 * u(rng), 2.8 * ((m / 2) % 2) + 0.3 * u(rng),
                         2.8 * (m / 4) + 0.3 * u(rng)};
    x.insert(x.end(), o, o + 3);
    for (int h = 0; h < 2; ++h)
      for (int k = 0; k < 3; ++k) x.push_back(o[k] + 0.6 * u(rng));
  }
  AlignmentParams p;
  p.permutations = true;
  p.inversion = false;
  PermutationGroup oxygens;
  oxygens.swapSets.resize(2);
  for (int m = 0; m < molecules; ++m) {
    oxygens.atoms.push_back(3 * m);
    oxygens.swapSets[0].push_back(3 * m + 1);
    oxygens.swapSets[1].push_back(3 * m + 2);
  }
  p.permutationGroups.push_back(oxygens);
  for (int m = 0; m < molecules; ++m) p.permutationGroups.push_back({{3 * m + 1, 3 * m + 2}, {}});
  std::vector<double> y = moved(x, 11);
  const int order[molecules] = {5, 2, 7, 0, 3, 6, 1, 4};
  std::vector<double> shuffled(y.size());
  for (int m = 0; m < molecules; ++m)
    std::copy(y.begin() + 9 * order[m], y.begin() + 9 * order[m] + 9, shuffled.begin() + 9 * m);
  for (int m = 0; m < molecules; m += 2) swapAtoms(shuffled, 3 * m + 1, 3 * m + 2);
  EXPECT_LT(minimumDistance(x, shuffled, p), 1e-8);
}

TEST(MoleculeAlignment, RejectsBadGroups) {
  const std::vector<double> x(3 * 5, 0.0);
  std::vector<double> y = x;
  y[0] = 1.0;
  AlignmentParams p;
  p.permutationGroups = {{{0, 5}, {}}};  // atom 5 of a 5-atom system
  EXPECT_THROW(alignStructures(x, y, p), std::invalid_argument);
  p.permutationGroups = {{{0}, {}}};
  EXPECT_THROW(p.check(), std::invalid_argument);
  p.permutationGroups = {{{0, 1}, {}}, {{1, 2}, {}}};
  EXPECT_THROW(p.check(), std::invalid_argument);
  p.permutationGroups = {{{0, 1}, {{2}}}};
  EXPECT_THROW(p.check(), std::invalid_argument);
  p.permutationGroups = {{{0, 1}, {{1, 2}}}};
  EXPECT_THROW(p.check(), std::invalid_argument);
  p.permutationGroups = {{{0, -1}, {}}};
  EXPECT_THROW(p.check(), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
