// Point groups (landscape/PointGroup) of known structures, Schoenflies symbols of generated
// groups, and principal moments of inertia (landscape/InertiaTensor).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <vector>

#include "landscape/geometry/InertiaTensor.h"
#include "landscape/geometry/PointGroup.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/LennardJones.h"
#include "tests/Lj7Structures.h"

namespace landscape {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<double> minimised(std::vector<double> x) {
  LennardJones lj(x.size() / 3);
  LbfgsParams p;
  p.rmsTolerance = 1e-9;
  p.maxIterations = 20000;
  Lbfgs(p).minimize(lj, x);
  return x;
}

// LJ13: centre plus the 12 vertices (0, +-1, +-phi) and cyclic permutations, nearest-neighbour
// distance about 1.1 sigma; minimised to the Mackay icosahedron (-44.326801).
std::vector<double> lj13Icosahedron() {
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
  const double s = 1.1 / 2.0;  // the vertex spacing is 2 before scaling
  std::vector<double> x = {0, 0, 0};
  for (double a : {-1.0, 1.0}) {
    for (double b : {-phi, phi}) {
      x.insert(x.end(), {0.0, a * s, b * s, a * s, b * s, 0.0, b * s, 0.0, a * s});
    }
  }
  return minimised(x);
}

// LJ38: the fcc truncated octahedron, fcc sites (integer, even coordinate sum) at squared
// distances 1, 3 and 5 from the octahedral hole (1, 0, 0): 6 + 8 + 24 = 38 atoms; nearest
// neighbours sqrt(2) apart, scaled to 1.12 sigma. Minimised to the global minimum -173.928427.
std::vector<double> lj38TruncatedOctahedron() {
  const double scale = 1.12 / std::sqrt(2.0);
  std::vector<double> x;
  for (int i = -3; i <= 5; ++i) {
    for (int j = -3; j <= 3; ++j) {
      for (int k = -3; k <= 3; ++k) {
        if (((i + j + k) % 2 + 2) % 2 != 0) continue;
        const int r2 = (i - 1) * (i - 1) + j * j + k * k;
        if (r2 == 1 || r2 == 3 || r2 == 5) {
          x.insert(x.end(), {(i - 1) * scale, j * scale, k * scale});
        }
      }
    }
  }
  return minimised(x);
}

// Rotates and translates a structure and shuffles its atoms: the group must not change.
std::vector<double> moved(const std::vector<double>& x) {
  const Eigen::Matrix3d r =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1.0, 2.0, -0.5).normalized()).toRotationMatrix();
  const std::size_t n = x.size() / 3;
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = n - 1 - i;  // atoms in reverse order
    const Eigen::Vector3d p = r * Eigen::Vector3d(x[3 * j], x[3 * j + 1], x[3 * j + 2]) +
                              Eigen::Vector3d(3.0, -1.0, 0.25);
    for (int c = 0; c < 3; ++c) out[3 * i + c] = p[c];
  }
  return out;
}

TEST(PointGroup, Lj13IcosahedronIsIhOfOrder120) {
  const std::vector<double> x = lj13Icosahedron();
  LennardJones lj(13);
  EXPECT_NEAR(lj.energy(x.data()), -44.326801, 1e-5);
  const PointGroup g = findPointGroup(x);
  EXPECT_EQ(g.order, 120);
  EXPECT_EQ(g.symbol, "Ih");
  EXPECT_EQ(findPointGroup(moved(x)).order, 120);
}

TEST(PointGroup, Lj7PentagonalBipyramidIsD5hOfOrder20) {
  const PointGroup g = findPointGroup(lj7PentagonalBipyramid());
  EXPECT_EQ(g.order, 20);
  EXPECT_EQ(g.symbol, "D5h");
  const PointGroup capped = findPointGroup(lj7CappedOctahedron());
  EXPECT_EQ(capped.order, 6);
  EXPECT_EQ(capped.symbol, "C3v");
}

TEST(PointGroup, Lj38GlobalMinimumIsOhOfOrder48) {
  const std::vector<double> x = lj38TruncatedOctahedron();
  ASSERT_EQ(x.size(), 114u);
  LennardJones lj(38);
  EXPECT_NEAR(lj.energy(x.data()), -173.928427, 1e-5);
  const PointGroup g = findPointGroup(x);
  EXPECT_EQ(g.order, 48);
  EXPECT_EQ(g.symbol, "Oh");
  EXPECT_EQ(findPointGroup(moved(x)).symbol, "Oh");
  // The operations are orthogonal, map the structure onto itself and start with the identity.
  ASSERT_EQ(g.operations.size(), 48u);
  EXPECT_TRUE(g.operations[0].isIdentity());
  for (const Eigen::Matrix3d& op : g.operations) {
    EXPECT_TRUE((op * op.transpose()).isIdentity(1e-9));
  }
}

TEST(PointGroup, SmallPolyhedra) {
  const double a = 1.0;
  EXPECT_EQ(findPointGroup({a, a, a, a, -a, -a, -a, a, -a, -a, -a, a}).symbol,
            "Td");  // tetrahedron
  EXPECT_EQ(findPointGroup({a, a, a, a, -a, -a, -a, a, -a, -a, -a, a}).order, 24);
  const PointGroup octahedron =
      findPointGroup({a, 0, 0, -a, 0, 0, 0, a, 0, 0, -a, 0, 0, 0, a, 0, 0, -a});
  EXPECT_EQ(octahedron.order, 48);
  EXPECT_EQ(octahedron.symbol, "Oh");
  const PointGroup square = findPointGroup({a, 0, 0, -a, 0, 0, 0, a, 0, 0, -a, 0});
  EXPECT_EQ(square.order, 16);
  EXPECT_EQ(square.symbol, "D4h");
  const double h = std::sqrt(3.0) / 2.0;
  const PointGroup triangle = findPointGroup({0, 1, 0, h, -0.5, 0, -h, -0.5, 0});
  EXPECT_EQ(triangle.order, 12);
  EXPECT_EQ(triangle.symbol, "D3h");
  const PointGroup isosceles = findPointGroup({0, 1.2, 0, h, -0.5, 0, -h, -0.5, 0});
  EXPECT_EQ(isosceles.order, 4);
  EXPECT_EQ(isosceles.symbol, "C2v");
}

TEST(PointGroup, AtomTypesAndTolerance) {
  // An equilateral triangle of two kinds of atoms is only C2v.
  const double h = std::sqrt(3.0) / 2.0;
  const std::vector<double> triangle = {0, 1, 0, h, -0.5, 0, -h, -0.5, 0};
  PointGroupParams typed;
  typed.atomTypes = {8, 1, 1};
  EXPECT_EQ(findPointGroup(triangle, typed).symbol, "C2v");
  // A displacement above the tolerance breaks the symmetry, one below it does not.
  std::vector<double> x = lj7PentagonalBipyramid();
  x[0] += 5e-4;
  EXPECT_EQ(findPointGroup(x).order, 20);
  x[0] += 5e-2;
  EXPECT_LT(findPointGroup(x).order, 20);
  PointGroupParams loose;
  loose.distanceTolerance = 0.2;
  EXPECT_EQ(findPointGroup(x, loose).order, 20);
}

TEST(PointGroup, LinearAndSingleAtomConventions) {
  const PointGroup dimer = findPointGroup({0, 0, 0, 0, 0, 1.1});
  EXPECT_TRUE(dimer.linear);
  EXPECT_EQ(dimer.symbol, "D*h");
  EXPECT_EQ(dimer.order, 2);
  PointGroupParams typed;
  typed.atomTypes = {1, 2};
  EXPECT_EQ(findPointGroup({0, 0, 0, 0, 0, 1.1}, typed).symbol, "C*v");
  EXPECT_EQ(findPointGroup({0, 0, 0}).order, 1);
  EXPECT_THROW(findPointGroup({0, 0}), std::invalid_argument);
  EXPECT_THROW(findPointGroup({0, 0, NAN}), std::invalid_argument);
  typed.atomTypes = {1};
  EXPECT_THROW(findPointGroup({0, 0, 0, 1, 1, 1}, typed), std::invalid_argument);
  PointGroupParams bad;
  bad.distanceTolerance = 0.0;
  EXPECT_THROW(findPointGroup({0, 0, 0, 1, 1, 1}, bad), std::invalid_argument);
}

// ---- Schoenflies symbols of groups generated from their generators ----

std::vector<Eigen::Matrix3d> closure(const std::vector<Eigen::Matrix3d>& generators) {
  std::vector<Eigen::Matrix3d> group = {Eigen::Matrix3d::Identity()};
  for (bool grown = true; grown;) {
    grown = false;
    const std::vector<Eigen::Matrix3d> current = group;
    for (const auto& a : current) {
      for (const auto& g : generators) {
        const Eigen::Matrix3d p = a * g;
        bool known = false;
        for (const auto& b : group) known = known || (p - b).cwiseAbs().maxCoeff() < 1e-9;
        if (!known) {
          group.push_back(p);
          grown = true;
        }
      }
    }
  }
  return group;
}

Eigen::Matrix3d rotation(double angle, const Eigen::Vector3d& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}
Eigen::Matrix3d mirror(const Eigen::Vector3d& normal) {
  const Eigen::Vector3d n = normal.normalized();
  return Eigen::Matrix3d::Identity() - 2.0 * n * n.transpose();
}

TEST(PointGroup, SchoenfliesSymbolsOfGeneratedGroups) {
  const Eigen::Vector3d x = Eigen::Vector3d::UnitX(), z = Eigen::Vector3d::UnitZ();
  const Eigen::Matrix3d inversion = -Eigen::Matrix3d::Identity();
  const Eigen::Matrix3d c2z = rotation(kPi, z), c3z = rotation(2 * kPi / 3, z),
                        c4z = rotation(kPi / 2, z), c2x = rotation(kPi, x);
  struct Case {
    std::vector<Eigen::Matrix3d> generators;
    const char* symbol;
    std::size_t order;
  };
  const Eigen::Matrix3d c3diagonal = rotation(2 * kPi / 3, Eigen::Vector3d(1, 1, 1));
  const std::vector<Case> cases = {
      {{}, "C1", 1},
      {{inversion}, "Ci", 2},
      {{mirror(z)}, "Cs", 2},
      {{c2z}, "C2", 2},
      {{c2z, mirror(z)}, "C2h", 4},
      {{c2z, mirror(x)}, "C2v", 4},
      {{mirror(z) * c4z}, "S4", 4},
      {{c3z, inversion}, "S6", 6},
      {{c3z, c2x}, "D3", 6},
      {{mirror(z) * c4z, c2x}, "D2d", 8},
      {{c3z, c2x, inversion}, "D3d", 12},
      {{c2z, c2x, inversion}, "D2h", 8},
      {{c2z, c2x, c3diagonal}, "T", 12},
      {{c2z, c2x, c3diagonal, inversion}, "Th", 24},
      {{c2z, c2x, c3diagonal, mirror(Eigen::Vector3d(1, -1, 0))}, "Td", 24},
      {{c4z, c3diagonal}, "O", 24},
  };
  for (const Case& c : cases) {
    const std::vector<Eigen::Matrix3d> group = closure(c.generators);
    EXPECT_EQ(group.size(), c.order) << c.symbol;
    EXPECT_EQ(schoenfliesSymbol(group), c.symbol) << c.symbol;
  }
}

// ---- moments of inertia ----

TEST(InertiaTensor, PrincipalMomentsOfSimpleBodies) {
  const Eigen::Vector3d dimer = principalMomentsOfInertia({-1, 0, 0, 1, 0, 0});
  EXPECT_NEAR(dimer[0], 0.0, 1e-12);
  EXPECT_NEAR(dimer[1], 2.0, 1e-12);
  EXPECT_NEAR(dimer[2], 2.0, 1e-12);
  // Masses 1 and 3 at x = 0 and x = 4: centre of mass at 3, I = 1 * 9 + 3 * 1 = 12.
  const Eigen::Vector3d weighted = principalMomentsOfInertia({0, 0, 0, 4, 0, 0}, {1.0, 3.0});
  EXPECT_NEAR(weighted[1], 12.0, 1e-12);
  EXPECT_NEAR(weighted[2], 12.0, 1e-12);
  // A unit square in the xy plane: Ix = Iy = 2, Iz = 4 (perpendicular-axis theorem), translated.
  const Eigen::Vector3d square = principalMomentsOfInertia({6, 1, 2, 4, 1, 2, 5, 2, 2, 5, 0, 2});
  EXPECT_NEAR(square[0], 2.0, 1e-12);
  EXPECT_NEAR(square[1], 2.0, 1e-12);
  EXPECT_NEAR(square[2], 4.0, 1e-12);
  const PrincipalAxes axes = principalAxes({6, 1, 2, 4, 1, 2, 5, 2, 2, 5, 0, 2});
  EXPECT_NEAR(std::abs(axes.axes.col(2).dot(Eigen::Vector3d::UnitZ())), 1.0, 1e-12);
  EXPECT_NEAR(axes.axes.determinant(), 1.0, 1e-12);
  EXPECT_THROW(principalMomentsOfInertia({0, 0}), std::invalid_argument);
  EXPECT_THROW(principalMomentsOfInertia({0, 0, 0}, {0.0}), std::invalid_argument);
  EXPECT_THROW(principalMomentsOfInertia({0, 0, 0}, {1.0, 1.0}), std::invalid_argument);
}

TEST(InertiaTensor, Lj38GlobalMinimumIsASphericalTop) {
  // PATHSAMPLE's min.data of the wales-group example: 61.0912066 three times (unit masses).
  const Eigen::Vector3d moments = principalMomentsOfInertia(lj38TruncatedOctahedron());
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(moments[k], 61.0912066, 1e-5);
  const Eigen::Vector3d movedMoments = principalMomentsOfInertia(moved(lj38TruncatedOctahedron()));
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(movedMoments[k], moments[k], 1e-9);
}

}  // namespace
}  // namespace landscape
