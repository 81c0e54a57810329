// GMIN's SYMMETRISE candidates (landscape/geometry/CoreSymmetryCompletion; Oakley, Johnston and
// Wales, Phys. Chem. Chem. Phys. 15, 3965 (2013)): a vacancy of a known high-symmetry
// Lennard-Jones global minimum, whose atom sits outside as an adatom, is found as a hole of the
// symmetric core, and moving the adatom back quenches to the Cambridge Cluster Database minimum
// (LJ13 -44.326801, LJ38 -173.928427, LJ55 -279.248470).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/geometry/CoreSymmetryCompletion.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/LennardJones.h"
#include "tests/GminLowestFile.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

using Vec = Eigen::Vector3d;

constexpr double kLj13 = -44.326801;   // Mackay icosahedron (Ih)
constexpr double kLj38 = -173.928427;  // truncated octahedron (Oh)
constexpr double kLj55 = -279.248470;  // Mackay icosahedron (Ih)

Vec atom(const std::vector<double>& x, int i) { return Vec(x[3 * i], x[3 * i + 1], x[3 * i + 2]); }
void place(std::vector<double>& x, int i, const Vec& p) {
  for (int c = 0; c < 3; ++c) x[3 * i + c] = p[c];
}
Vec centroid(const std::vector<double>& x) {
  Vec c = Vec::Zero();
  for (std::size_t i = 0; i < x.size() / 3; ++i) c += atom(x, static_cast<int>(i));
  return c / static_cast<double>(x.size() / 3);
}

double quench(std::vector<double>& x) {
  LennardJones lj(x.size() / 3);
  LbfgsParams p;
  p.rmsTolerance = 1e-7;
  p.maxIterations = 20000;
  return Lbfgs(p).minimize(lj, x).energy;
}

double energy(const std::vector<double>& x) {
  LennardJones lj(x.size() / 3);
  return lj.energy(x.data());
}

std::vector<double> atomEnergies(const std::vector<double>& x) {
  LennardJones lj(x.size() / 3);
  std::vector<double> e(x.size() / 3);
  if (!lj.perAtomEnergies(x.data(), e.data())) throw std::runtime_error("no per-atom energies");
  return e;
}

// The lowest energy reached by quenching each candidate.
double lowestQuenched(const CoreSymmetryCompletion& result) {
  double lowest = std::numeric_limits<double>::infinity();
  for (std::vector<double> x : result.candidates) lowest = std::min(lowest, quench(x));
  return lowest;
}

// Distance from p to the nearest hole.
double nearestHole(const CoreSymmetryCompletion& result, const Vec& p) {
  double nearest = std::numeric_limits<double>::infinity();
  for (int h = 0; h < result.holes; ++h) {
    nearest = std::min(nearest, (atom(result.holeSites, h) - p).norm());
  }
  return nearest;
}


// Icosahedron vertices (0, +-1, +-phi) and cyclic permutations, scaled to length `radius`.
std::vector<Vec> icosahedronVertices(double radius) {
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Vec> v;
  for (double a : {-1.0, 1.0}) {
    for (double b : {-phi, phi}) {
      v.emplace_back(0.0, a, b);
      v.emplace_back(a, b, 0.0);
      v.emplace_back(b, 0.0, a);
    }
  }
  for (Vec& p : v) p *= radius / p.norm();
  return v;
}

// LJ13: centre plus 12 vertices about the LJ nearest-neighbour distance out, quenched.
std::vector<double> lj13() {
  std::vector<double> x = {0.0, 0.0, 0.0};
  for (const Vec& v : icosahedronVertices(1.1)) x.insert(x.end(), {v.x(), v.y(), v.z()});
  quench(x);
  return x;
}

// LJ55: centre, 12 inner vertices, 12 outer vertices at twice the radius and the 30 outer edge
// midpoints (sums of adjacent inner vertices), quenched.
std::vector<double> lj55() {
  const std::vector<Vec> v = icosahedronVertices(1.1);
  std::vector<double> x = {0.0, 0.0, 0.0};
  for (const Vec& p : v) x.insert(x.end(), {p.x(), p.y(), p.z()});
  for (const Vec& p : v) x.insert(x.end(), {2 * p.x(), 2 * p.y(), 2 * p.z()});
  for (std::size_t i = 0; i < v.size(); ++i) {
    for (std::size_t j = i + 1; j < v.size(); ++j) {
      if ((v[i] - v[j]).norm() > 1.2 * 1.1 * 1.0515) continue;  // edge = 1.0515 radius
      const Vec m = v[i] + v[j];
      x.insert(x.end(), {m.x(), m.y(), m.z()});
    }
  }
  quench(x);
  return x;
}

// Moves atom i radially (from the centroid) outwards by `height`: an adatom atop its own vacancy.
std::vector<double> liftedOut(const std::vector<double>& x, int i, double height) {
  std::vector<double> y = x;
  const Vec c = centroid(x);
  const Vec p = atom(x, i);
  place(y, i, p + height * (p - c).normalized());
  return y;
}

int farthestAtom(const std::vector<double>& x) {
  const Vec c = centroid(x);
  int best = 0;
  for (int i = 1; i < static_cast<int>(x.size() / 3); ++i) {
    if ((atom(x, i) - c).norm() > (atom(x, best) - c).norm()) best = i;
  }
  return best;
}

int neighbours(const std::vector<double>& x, int i, double within) {
  int count = 0;
  for (int j = 0; j < static_cast<int>(x.size() / 3); ++j) {
    count += j != i && (atom(x, j) - atom(x, i)).norm() < within;
  }
  return count;
}

// An adatom site away from atom v: a three-fold hollow over three mutually adjacent surface atoms
// (fewer than 12 neighbours), none of them v or next to it, at the nearest-neighbour distance
// 1.12 sigma from all three, on the side of the cluster farthest from v.
Vec hollowAwayFrom(const std::vector<double>& x, int v) {
  const int n = static_cast<int>(x.size() / 3);
  const Vec c = centroid(x);
  const Vec away = -(atom(x, v) - c).normalized();
  std::vector<int> surface;
  for (int i = 0; i < n; ++i) {
    if (i != v && neighbours(x, i, 1.3) < 12 && (atom(x, i) - atom(x, v)).norm() > 1.5) {
      surface.push_back(i);
    }
  }
  Vec hollow = c;
  double best = -std::numeric_limits<double>::infinity();
  for (int a : surface) {
    for (int b : surface) {
      for (int d : surface) {
        if (!(a < b && b < d)) continue;
        const Vec pa = atom(x, a), pb = atom(x, b), pd = atom(x, d);
        if ((pa - pb).norm() > 1.3 || (pb - pd).norm() > 1.3 || (pa - pd).norm() > 1.3) continue;
        const Vec mid = (pa + pb + pd) / 3.0;
        Vec normal = (pb - pa).cross(pd - pa).normalized();
        if (normal.dot(mid - c) < 0.0) normal = -normal;
        const double rho = (pa - mid).norm();
        const Vec site = mid + std::sqrt(1.12 * 1.12 - rho * rho) * normal;
        const double score = (site - c).normalized().dot(away);
        if (score > best) {
          best = score;
          hollow = site;
        }
      }
    }
  }
  if (best < 0.0) throw std::runtime_error("no hollow away from the atom");
  return hollow;
}

// x with atom v moved into hollowAwayFrom(x, v): a vacancy and an adatom far from it.
std::vector<double> vacancyAndAdatom(const std::vector<double>& x, int v) {
  std::vector<double> y = x;
  place(y, v, hollowAwayFrom(x, v));
  return y;
}

std::vector<double> lj38Minimum() {
  const std::optional<std::string> path = testDataPath("lj38/gmin/lowest");
  if (!path) return {};
  return readGminLowest(*path).front();
}

// A vertex of the truncated octahedron: 6 neighbours (1 inner octahedron atom, 2 (111) face
// centres, 3 vertices), the farthest shell from the octahedral hole.
int lj38Vertex(const std::vector<double>& x) {
  const int v = farthestAtom(x);
  EXPECT_EQ(neighbours(x, v, 1.3), 6)
      << "the farthest atom of the truncated octahedron is a vertex";
  return v;
}

TEST(CoreSymmetryCompletion, Lj38GlobalMinimumHasNoCandidates) {
  const std::vector<double> x = lj38Minimum();
  if (x.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest is absent";
  ASSERT_NEAR(energy(x), kLj38, 1e-5);
  const CoreSymmetryCompletion r = completeCoreSymmetry(x, atomEnergies(x), {});
  EXPECT_TRUE(r.candidates.empty());
  EXPECT_TRUE(r.coreAtoms == 38 || r.holes == 0) << r.coreAtoms << " core atoms, " << r.holes;
  EXPECT_EQ(r.coreAtoms, 38);
  EXPECT_EQ(r.order, 48);
  EXPECT_EQ(r.pointGroup, "Oh");
}

// A vertex moved to a three-fold hollow on the far side (a plain quench keeps the defect): the 14
// atoms inside the vertex shell (the octahedron and the (111) face centres) keep Oh, and the other
// vertices' images under it include the vacated site.
TEST(CoreSymmetryCompletion, Lj38VertexOnAHollowReturnsToTruncatedOctahedron) {
  const std::vector<double> x = lj38Minimum();
  if (x.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest is absent";
  const int v = lj38Vertex(x);
  const std::vector<double> y = vacancyAndAdatom(x, v);
  std::vector<double> plain = y;
  ASSERT_GT(quench(plain), kLj38 + 0.5) << "the defect must survive a plain quench";
  const CoreSymmetryCompletion r = completeCoreSymmetry(y, atomEnergies(y), {});
  EXPECT_GE(r.order, 8);
  EXPECT_EQ(48 % r.order, 0) << "a subgroup of Oh";
  EXPECT_EQ(r.pointGroup, "Oh");
  EXPECT_EQ(r.coreAtoms, 14);
  EXPECT_LT(nearestHole(r, atom(x, v)), 0.1) << "the vacated vertex site is a hole";
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_LE(r.candidates.size(), 20u);
  ASSERT_EQ(r.movedAtoms.size(), r.candidates.size());
  ASSERT_EQ(r.targetHoles.size(), r.candidates.size());
  // The least bound atom (the adatom) into the best coordinated hole (the vacancy) comes first,
  // and is the truncated octahedron before any quench.
  EXPECT_EQ(r.movedAtoms.front(), v);
  EXPECT_LT((atom(r.holeSites, r.targetHoles.front()) - atom(x, v)).norm(), 0.1);
  EXPECT_NEAR(energy(r.candidates.front()), kLj38, 1e-5);
  EXPECT_NEAR(lowestQuenched(r), kLj38, 1e-4);
}

// The brief's other placement, the vertex lifted 1 sigma straight out (a plain quench returns it
// too): the same core and vacancy.
TEST(CoreSymmetryCompletion, Lj38LiftedVertexFindsTheVacancy) {
  const std::vector<double> x = lj38Minimum();
  if (x.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest is absent";
  const int v = lj38Vertex(x);
  const std::vector<double> y = liftedOut(x, v, 1.0);
  const CoreSymmetryCompletion r = completeCoreSymmetry(y, atomEnergies(y), {});
  EXPECT_EQ(r.pointGroup, "Oh");
  EXPECT_LT(nearestHole(r, atom(x, v)), 0.1);
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.movedAtoms.front(), v);
  EXPECT_NEAR(energy(r.candidates.front()), kLj38, 1e-5);
}

// Without per-atom energies the floaters rank by distance from the centre: the adatom first.
TEST(CoreSymmetryCompletion, Lj38WithoutAtomEnergiesMovesTheFarthestAtom) {
  const std::vector<double> x = lj38Minimum();
  if (x.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest is absent";
  const int v = lj38Vertex(x);
  const CoreSymmetryCompletion r = completeCoreSymmetry(vacancyAndAdatom(x, v), {}, {});
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.movedAtoms.front(), v);
  std::vector<double> first = r.candidates.front();
  EXPECT_NEAR(quench(first), kLj38, 1e-4);
}

// DISTFAC weights the centre towards the compact core; Oh and the vacancy are found as well.
TEST(CoreSymmetryCompletion, Lj38CoreWeightedCentreFindsTheVacancy) {
  const std::vector<double> x = lj38Minimum();
  if (x.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest is absent";
  const int v = lj38Vertex(x);
  const std::vector<double> y = vacancyAndAdatom(x, v);
  CoreSymmetryParams p;
  p.centreDecay = 2.0;
  const CoreSymmetryCompletion r = completeCoreSymmetry(y, atomEnergies(y), p);
  EXPECT_EQ(r.pointGroup, "Oh");
  EXPECT_LT(nearestHole(r, atom(x, v)), 0.1);
  EXPECT_NEAR(lowestQuenched(r), kLj38, 1e-4);
}

// LJ55, the brief's scenario one shell out: an outer vertex of the Mackay icosahedron taken to a
// three-fold hollow of the surface. The 13-atom inner icosahedron keeps Ih (order 120), and the
// other vertices' images under it include the vacated vertex.
TEST(CoreSymmetryCompletion, Lj55VertexOnAFaceReturnsToMackayIcosahedron) {
  const std::vector<double> x = lj55();
  ASSERT_NEAR(energy(x), kLj55, 1e-5) << "construction of the Mackay icosahedron";
  const int v = farthestAtom(x);
  ASSERT_EQ(neighbours(x, v, 1.3), 6) << "an outer vertex: 5 edge atoms and 1 inner vertex";
  const Vec vertex = atom(x, v);
  const Vec hollow = hollowAwayFrom(x, v);
  std::vector<double> y = x;
  place(y, v, hollow);
  std::vector<double> plain = y;
  ASSERT_GT(quench(plain), kLj55 + 0.5) << "the defect must survive a plain quench";
  const CoreSymmetryCompletion r = completeCoreSymmetry(y, atomEnergies(y), {});
  EXPECT_EQ(r.order, 120);
  EXPECT_EQ(r.pointGroup, "Ih");
  EXPECT_LT(nearestHole(r, vertex), 0.1) << "the vacated vertex site is a hole";
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.movedAtoms.front(), v);
  EXPECT_NEAR(energy(r.candidates.front()), kLj55, 1e-5);
  EXPECT_NEAR(lowestQuenched(r), kLj55, 1e-4);
}

// LJ13: a vertex lifted 1 sigma out, atop its vacancy (a plain quench returns it too). The vacancy
// is in the outer shell itself, so it is found through the D5d core of the centre and the two
// pentagonal rings (11 atoms, order 20), whose inversion maps the opposite apex onto the vacancy.
// The rings are told apart by the centroid's shift of 1/13 sigma towards the adatom: their
// distances from it differ by about 0.89/13 = 0.069 sigma, and the far apex is 0.55/13 = 0.043
// beyond the far ring, so SYMTOL1 must be below 0.043.
TEST(CoreSymmetryCompletion, Lj13LiftedVertexFoundThroughD5dCore) {
  const std::vector<double> x = lj13();
  ASSERT_NEAR(energy(x), kLj13, 1e-5) << "construction of the icosahedron";
  const int v = 1;
  const std::vector<double> y = liftedOut(x, v, 1.0);
  CoreSymmetryParams p;
  p.orbitTolerance = 0.03;
  const CoreSymmetryCompletion r = completeCoreSymmetry(y, atomEnergies(y), p);
  EXPECT_EQ(r.coreAtoms, 11);
  EXPECT_EQ(r.order, 20);
  EXPECT_EQ(r.pointGroup, "D5d");
  EXPECT_LT(nearestHole(r, atom(x, v)), 0.1) << "the vacated vertex site is a hole";
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.movedAtoms.front(), v);
  EXPECT_NEAR(energy(r.candidates.front()), kLj13, 1e-6);
  EXPECT_NEAR(lowestQuenched(r), kLj13, 1e-4);
}

TEST(CoreSymmetryCompletion, SameInputGivesSameCandidates) {
  const std::vector<double> x = lj38Minimum();
  if (x.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest is absent";
  const std::vector<double> y = vacancyAndAdatom(x, lj38Vertex(x));
  const std::vector<double> e = atomEnergies(y);
  const CoreSymmetryCompletion a = completeCoreSymmetry(y, e, {});
  const CoreSymmetryCompletion b = completeCoreSymmetry(y, e, {});
  ASSERT_FALSE(a.candidates.empty());
  EXPECT_EQ(a.candidates, b.candidates);
  EXPECT_EQ(a.holeSites, b.holeSites);
  EXPECT_EQ(a.movedAtoms, b.movedAtoms);
  EXPECT_EQ(a.targetHoles, b.targetHoles);
}

// A rigid rotation and translation changes no energy: the candidates' energies (sorted: equal
// holes may be met in another order) are those of the unmoved input.
TEST(CoreSymmetryCompletion, CandidateEnergiesInvariantUnderRigidMotion) {
  const std::vector<double> x = lj38Minimum();
  if (x.empty()) GTEST_SKIP() << "tests/data/lj38/gmin/lowest is absent";
  const std::vector<double> y = vacancyAndAdatom(x, lj38Vertex(x));
  const Eigen::Matrix3d rotation =
      Eigen::AngleAxisd(1.1, Vec(0.3, -1.0, 0.7).normalized()).toRotationMatrix();
  std::vector<double> moved = y;
  for (int i = 0; i < 38; ++i) place(moved, i, rotation * atom(y, i) + Vec(2.5, -7.0, 0.4));
  CoreSymmetryParams p;
  p.maxCandidates = 1000;  // all of them, so that ties at the cut cannot differ
  const CoreSymmetryCompletion a = completeCoreSymmetry(y, atomEnergies(y), p);
  const CoreSymmetryCompletion b = completeCoreSymmetry(moved, atomEnergies(moved), p);
  EXPECT_EQ(a.coreAtoms, b.coreAtoms);
  EXPECT_EQ(a.order, b.order);
  EXPECT_EQ(a.holes, b.holes);
  ASSERT_EQ(a.candidates.size(), b.candidates.size());
  ASSERT_FALSE(a.candidates.empty());
  std::vector<double> ea, eb;
  for (const auto& c : a.candidates) ea.push_back(energy(c));
  for (const auto& c : b.candidates) eb.push_back(energy(c));
  EXPECT_NEAR(ea.front(), eb.front(), 1e-6);
  std::sort(ea.begin(), ea.end());
  std::sort(eb.begin(), eb.end());
  for (std::size_t k = 0; k < ea.size(); ++k) EXPECT_NEAR(ea[k], eb[k], 1e-6) << "candidate " << k;
}

// Fewer than 4 atoms, or no symmetric core: no candidates.
TEST(CoreSymmetryCompletion, SmallOrAsymmetricClustersGiveNoCandidates) {
  const CoreSymmetryCompletion three =
      completeCoreSymmetry({0, 0, 0, 1.1, 0, 0, 0.55, 0.95, 0}, {}, {});
  EXPECT_EQ(three.coreAtoms, 0);
  EXPECT_TRUE(three.candidates.empty());
  // An irregular tetrahedron (all six edges different) has only the identity.
  const CoreSymmetryCompletion four =
      completeCoreSymmetry({0, 0, 0, 1.0, 0, 0, 0.3, 1.2, 0, 0.2, 0.4, 1.4}, {}, {});
  EXPECT_EQ(four.order, 1);
  EXPECT_EQ(four.coreAtoms, 0);
  EXPECT_TRUE(four.candidates.empty());
}

void expectMessage(const CoreSymmetryParams& p, const std::string& part) {
  try {
    p.check();
    ADD_FAILURE() << "no error for " << part;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(CoreSymmetryCompletion, ParamsCheckNamesTheBadField) {
  EXPECT_NO_THROW(CoreSymmetryParams{}.check());
  CoreSymmetryParams p;
  p.orbitTolerance = 0.0;
  expectMessage(p, "orbitTolerance (SYMTOL1) must be finite and > 0");
  p = {};
  p.symmetryTolerance = std::nan("");
  expectMessage(p, "symmetryTolerance (SYMTOL2)");
  p = {};
  p.occupiedTolerance = -0.1;
  expectMessage(p, "occupiedTolerance (SYMTOL3)");
  p = {};
  p.holeMergeTolerance = std::numeric_limits<double>::infinity();
  expectMessage(p, "holeMergeTolerance (SYMTOL4)");
  p = {};
  p.overlapDistance = 0.0;
  expectMessage(p, "overlapDistance (SYMTOL5)");
  p = {};
  p.maxCandidates = 0;
  expectMessage(p, "maxCandidates (NSYMQMAX) must be >= 1, found 0");
  p = {};
  p.centreDecay = -1.0;
  expectMessage(p, "centreDecay (DISTFAC) must be finite and >= 0");
  p = {};
  p.centreDecay = std::nan("");
  expectMessage(p, "centreDecay (DISTFAC)");
}

TEST(CoreSymmetryCompletion, BadInputIsRefused) {
  const std::vector<double> square = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  EXPECT_NO_THROW(completeCoreSymmetry(square, {}, {}));
  auto message = [](const std::vector<double>& x, const std::vector<double>& e) {
    try {
      completeCoreSymmetry(x, e, {});
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({}, {}).find("0 coordinates is not a positive multiple of 3"),
            std::string::npos);
  EXPECT_NE(message({0, 0, 0, 1}, {}).find("4 coordinates"), std::string::npos);
  std::vector<double> bad = square;
  bad[7] = std::numeric_limits<double>::infinity();
  EXPECT_NE(message(bad, {}).find("atom 2 has a coordinate that is not finite"), std::string::npos);
  EXPECT_NE(message(square, {1.0, 2.0}).find("atomEnergies has 2 entries for 4 atoms"),
            std::string::npos);
  EXPECT_NE(message(square, {1.0, 2.0, std::nan(""), 0.0}).find("atomEnergies[2] is not finite"),
            std::string::npos);
  CoreSymmetryParams p;
  p.maxCandidates = -3;
  EXPECT_THROW(completeCoreSymmetry(square, {}, p), std::invalid_argument);
}

// Time per call (printed, not asserted): the LJ38 minimum, LJ38 with an adatom, and quenched
// random LJ98 and LJ150 minima.
TEST(CoreSymmetryCompletion, CostPerCall) {
  auto timeCall = [](const std::string& label, const std::vector<double>& x) {
    const std::vector<double> e = atomEnergies(x);
    const int repeats = 20;
    CoreSymmetryCompletion r;
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < repeats; ++k) r = completeCoreSymmetry(x, e, {});
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count() /
        repeats;
    std::cout << "[ timing ] " << label << ": " << ms << " ms per call (core " << r.coreAtoms
              << " atoms, " << r.pointGroup << ", " << r.holes << " holes, " << r.candidates.size()
              << " candidates)\n";
  };
  const std::vector<double> x38 = lj38Minimum();
  if (!x38.empty()) {
    timeCall("LJ38 global minimum", x38);
    timeCall("LJ38 with a vertex on a hollow", vacancyAndAdatom(x38, lj38Vertex(x38)));
  }
  const std::vector<double> x55 = lj55();
  timeCall("LJ55 with a vertex on a hollow", vacancyAndAdatom(x55, farthestAtom(x55)));
  for (const std::size_t atoms : {98u, 150u}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Random random(seed);
      std::vector<double> x = randomCluster(atoms, defaultContainerRadius(atoms), 0.7, random);
      quench(x);
      timeCall("LJ" + std::to_string(atoms) + " random minimum, seed " + std::to_string(seed), x);
    }
  }
}

}  // namespace
}  // namespace landscape
