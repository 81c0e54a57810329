// Local rigid bodies on the CPU: the rigid-body file, Rodrigues' formula and its
// derivatives (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, eqs 3-10) including the
// small-angle limit and an angle of pi, the projected gradient against central differences, the
// energy of the mapped atoms, and the angle-axis RMS gradient of Ruehle, Kusumaatmaja, Chakrabarti
// and Wales (J. Chem. Theory Comput. 2013).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/search/RigidBodyMoves.h"
#include "potentials/LennardJones.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/RigidBodyTerms.h"
#include "tests/FiniteDifferences.h"
#include "tests/TempFile.h"

namespace landscape {
namespace {

constexpr double kPi = 3.14159265358979323846;

// --- the file -----------------------------------------------------------------------------------

TEST(RigidBodyFile, ReadsGminGroups) {
  TempFile file("# two bodies\nGROUP 3\n1\n2\n3\n\ngroup 4\n5 6\n7 8  # a comment\n");
  const RigidBodySet set = readRigidBodies(file.path(), 10);
  ASSERT_EQ(set.bodyCount(), 2u);
  EXPECT_EQ(set.body(0), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(set.body(1), (std::vector<std::size_t>{4, 5, 6, 7}));
  EXPECT_EQ(set.freeAtoms(), (std::vector<std::size_t>{3, 8, 9}));
}

TEST(RigidBodyFile, WriteThenReadRoundTrips) {
  RigidBodySet set(12);
  set.addBody({0, 1, 2});
  set.addBody({5, 7, 9, 11});
  TempFile file("");
  writeRigidBodies(file.path(), set, {"made by a test"});
  const RigidBodySet back = readRigidBodies(file.path(), 12);
  EXPECT_EQ(back.bodies(), set.bodies());
}

void expectFileError(const std::string& contents, std::size_t atoms, const std::string& part) {
  TempFile file(contents);
  try {
    readRigidBodies(file.path(), atoms);
    FAIL() << "no error for:\n" << contents;
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(file.path()), std::string::npos) << what;
    EXPECT_NE(what.find(part), std::string::npos) << what;
  }
}

TEST(RigidBodyFile, ErrorsNameFileLineAndProblem) {
  expectFileError("GROUP 3\n1\n2\n3\nGROUP 3\n3\n4\n5\n", 10, "already belongs to rigid body 1");
  expectFileError("GROUP 3\n1\n2\n11\n", 10, ":4: atom index 11 is out of range 1..10");
  expectFileError("GROUP 3\n1\n0\n2\n", 10, "out of range");
  expectFileError("GROUP 3\n1\nx\n2\n", 10, ":3: atom index 'x' is not an integer");
  expectFileError("GROUP 1\n1\n", 10, "at least 3 non-collinear atoms");
  expectFileError("GROUP 2\n1\n2\n", 10, "at least 3 non-collinear atoms");
  expectFileError("GROUP 3\n1\n1\n2\n", 10, "listed twice");
  expectFileError("GROUP 4\n1\n2\n3\n", 10, ":1: GROUP ends at the end of the file 1 atom");
  expectFileError("1\n2\n", 10, ":1: '1' is outside any GROUP block");
  expectFileError("GROUP -2\n", 10, "not a positive integer");
  expectFileError("GROUP 3\n1 2\nGROUP 3\n", 10, ":3: GROUP found while");
}

TEST(RigidBodyFile, MissingFileIsAnError) {
  EXPECT_THROW(readRigidBodies("/nonexistent/rbodyconfig", 5), std::runtime_error);
}

TEST(RigidBodySystem, RejectsCollinearBody) {
  RigidBodySet set(4);
  set.addBody({0, 1, 2});
  const std::vector<double> x = {0, 0, 0, 1, 1, 1, 2, 2, 2, 5, 0, 0};
  try {
    RigidBodySystem system(set, x);
    FAIL() << "collinear body accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("collinear"), std::string::npos) << e.what();
  }
}

// Spin axes: one per body, each a unit vector or zero; anything else is refused with a sentence.
// Bodies without one add no mode.
TEST(RigidBodySystem, SpinAxesAreUnitVectorsOrZeroOnePerBody) {
  RigidBodySet set(6);
  set.addBody({0, 1, 2});
  set.addBody({3, 4, 5});
  const std::vector<double> x = {0, 0, 0, 1, 0, 0, 0, 1, 0, 4, 0, 0, 5, 0, 0, 4, 1, 0};
  RigidBodySystem system(set, x);
  EXPECT_EQ(system.spinAxisCount(), 0u);
  for (const std::vector<double>& bad :
       {std::vector<double>{0, 0, 1}, std::vector<double>{0, 0, 2, 0, 0, 1},
        std::vector<double>{0, 0, 1, 0, 0.5, 0}}) {
    try {
      system.setSpinAxes(bad);
      FAIL() << "accepted " << bad.size() << " components";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("spin-axis"), std::string::npos) << e.what();
    }
  }
  system.setSpinAxes({0, 0, 0, 0, 0, 1});
  EXPECT_EQ(system.spinAxisCount(), 1u);
  std::vector<double> modes;
  system.overallMotionModes(system.fromAtoms(x).data(), modes);
  EXPECT_EQ(modes.size(), 7 * system.dimension());
}

// --- Rodrigues' formula -------------------------------------------------------------------------

std::vector<std::vector<double>> testRotationVectors() {
  return {{0.0, 0.0, 0.0},        {1e-9, -2e-9, 3e-9},
          {0.004, -0.007, 0.002}, {0.0499, 0.0, 0.0},
          {0.0501, 0.0, 0.0},     {0.3, -0.5, 0.9},
          {kPi, 0.0, 0.0},        {0.0, kPi / std::sqrt(2.0), kPi / std::sqrt(2.0)},
          {-1.7, 2.2, 0.4},       {3.5, -2.0, 1.0}};
}

TEST(RigidBodyTerms, RotationIsOrthogonalAndMatchesAxisAngle) {
  for (const auto& p : testRotationVectors()) {
    double R[9];
    rotationMatrix(p.data(), R);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double s = 0.0;
        for (int k = 0; k < 3; ++k) s += R[3 * i + k] * R[3 * j + k];
        EXPECT_NEAR(s, i == j ? 1.0 : 0.0, 1e-14);
      }
    // R p = p (the axis is fixed) and tr R = 1 + 2 cos(theta).
    double Rp[3];
    matVec3(R, p.data(), Rp);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(Rp[k], p[k], 1e-14);
    const double theta = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    EXPECT_NEAR(R[0] + R[4] + R[8], 1.0 + 2.0 * std::cos(theta), 1e-14);
  }
}

TEST(RigidBodyTerms, AngleZeroIsIdentity) {
  const double p[3] = {0.0, 0.0, 0.0};
  double R[9], D1[9], D2[9], D3[9];
  rotationMatrixAndDerivatives(p, R, D1, D2, D3);
  for (int e = 0; e < 9; ++e) EXPECT_EQ(R[e], (e % 4 == 0) ? 1.0 : 0.0);
  // dR/dp_k at 0 is the generator [e_k]_x.
  EXPECT_EQ(D1[7], 1.0);
  EXPECT_EQ(D1[5], -1.0);
  EXPECT_EQ(D2[2], 1.0);
  EXPECT_EQ(D3[3], 1.0);
}

TEST(RigidBodyTerms, DerivativesMatchCentralDifferences) {
  const double h = 1e-6;
  for (const auto& p : testRotationVectors()) {
    double R[9], D[3][9];
    rotationMatrixAndDerivatives(p.data(), R, D[0], D[1], D[2]);
    for (int k = 0; k < 3; ++k) {
      std::vector<double> plus = p, minus = p;
      plus[k] += h;
      minus[k] -= h;
      double Rp[9], Rm[9];
      rotationMatrix(plus.data(), Rp);
      rotationMatrix(minus.data(), Rm);
      for (int e = 0; e < 9; ++e)
        EXPECT_NEAR(D[k][e], (Rp[e] - Rm[e]) / (2.0 * h), 2e-9)
            << "p = " << p[0] << " " << p[1] << " " << p[2] << ", k " << k << ", entry " << e;
    }
  }
}

TEST(RigidBodyTerms, SeriesAndClosedFormAgreeAtTheSwitch) {
  const double below = kRigidSmallAngle * (1.0 - 1e-12), above = kRigidSmallAngle * (1.0 + 1e-12);
  const RodriguesCoefficients a = rodriguesCoefficients(below * below);
  const RodriguesCoefficients b = rodriguesCoefficients(above * above);
  EXPECT_NEAR(a.a, b.a, 1e-13);
  EXPECT_NEAR(a.b, b.b, 1e-13);
  EXPECT_NEAR(a.da, b.da, 1e-12);
  EXPECT_NEAR(a.db, b.db, 1e-12);
}

TEST(RigidBodyTerms, RotationVectorRoundTripsIncludingZeroAndPi) {
  for (auto p : testRotationVectors()) {
    double t = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    if (t > kPi) {  // the log returns the equivalent vector with |p| <= pi
      for (double& c : p) c *= 1.0 - 2.0 * kPi / t;
      t = std::fabs(t - 2.0 * kPi);
    }
    double R[9], back[3], R2[9];
    rotationMatrix(p.data(), R);
    rotationVectorOf(R, back);
    rotationMatrix(back, R2);
    for (int e = 0; e < 9; ++e) EXPECT_NEAR(R2[e], R[e], 1e-12);
    if (t < kPi - 1e-6)
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(back[k], p[k], 1e-10);
  }
}

// The composed rotation vector against the product of the two matrices (every pair of the test
// vectors, which include 0, 1e-9, pi and beyond pi, and the turn that undoes p, whose product is
// the identity), with its length at most pi.
TEST(RigidBodyTerms, TurnedRotationVectorIsTheProductOfTheRotations) {
  std::vector<std::vector<double>> turns = testRotationVectors();
  turns.push_back({-0.3, 0.5, -0.9});
  for (const auto& p : testRotationVectors())
    for (const auto& turn : turns) {
      double Rt[9], Rp[9], R[9], Rc[9], c[3] = {p[0], p[1], p[2]};
      rotationMatrix(turn.data(), Rt);
      rotationMatrix(p.data(), Rp);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          R[3 * i + j] = Rt[3 * i] * Rp[j] + Rt[3 * i + 1] * Rp[3 + j] + Rt[3 * i + 2] * Rp[6 + j];
      turnRotationVector(turn.data(), c);
      rotationMatrix(c, Rc);
      for (int e = 0; e < 9; ++e) EXPECT_NEAR(Rc[e], R[e], 1e-13) << e;
      EXPECT_LE(std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), kPi + 1e-12);
    }
}

// --- the adapter potential ---------------------------------------------------------------------

// 30 LJ atoms: bodies of 3 and 11 atoms and 16 free atoms.
struct Lj30Rigid {
  Lj30Rigid() : atoms(randomCluster(30, defaultContainerRadius(30), 1.0, random)), lj(30) {
    RigidBodySet set(30);
    set.addBody({0, 1, 2});
    set.addBody({3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13});
    system = std::make_unique<RigidBodySystem>(set, atoms);
    potential = std::make_unique<RigidBodyPotential>(lj, *system);
    q = system->fromAtoms(atoms);
  }
  Random random{7};
  std::vector<double> atoms;
  LennardJones lj;
  std::unique_ptr<RigidBodySystem> system;
  std::unique_ptr<RigidBodyPotential> potential;
  std::vector<double> q;
};

TEST(RigidBodyPotential, GradientMatchesCentralDifferences) {
  Lj30Rigid s;
  ASSERT_EQ(s.potential->dimension(), 6u * 2u + 3u * 16u);
  // Rotate the bodies away from p = 0 so every term of eq 9 is exercised.
  s.q[6] = 0.4;
  s.q[7] = -0.8;
  s.q[8] = 1.1;
  s.q[9] = -2.0;
  s.q[11] = 0.5;
  expectGradientMatchesDifferences(*s.potential, s.q, 1e-6);
}

TEST(RigidBodyPotential, GradientAtAnglesZeroAndPi) {
  Lj30Rigid s;
  for (int k = 0; k < 6; ++k) s.q[6 + k] = 0.0;
  expectGradientMatchesDifferences(*s.potential, s.q, 1e-6);
  s.q[6] = kPi;
  s.q[10] = kPi / std::sqrt(2.0);
  s.q[11] = -kPi / std::sqrt(2.0);
  expectGradientMatchesDifferences(*s.potential, s.q, 1e-6);
}

TEST(RigidBodyPotential, EnergyEqualsAtomisticEnergyOfMappedAtoms) {
  Lj30Rigid s;
  s.q[6] = 0.3;
  s.q[10] = -1.2;
  s.q[0] += 0.1;
  const std::vector<double> x = s.system->toAtoms(s.q);
  EXPECT_DOUBLE_EQ(s.potential->energy(s.q.data()), s.lj.energy(x.data()));
  // Atoms of the reference structure map to themselves.
  const std::vector<double> ref = s.system->toAtoms(s.system->fromAtoms(s.atoms));
  for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(ref[i], s.atoms[i], 1e-12);
  // Rigid coordinates round-trip through atoms.
  const std::vector<double> back = s.system->fromAtoms(x);
  for (std::size_t i = 0; i < back.size(); ++i) EXPECT_NEAR(back[i], s.q[i], 1e-10) << i;
}

TEST(RigidBodyPotential, GradientOverwritesTheOutput) {
  Lj30Rigid s;
  std::vector<double> g1(s.q.size(), 0.0), g2(s.q.size(), 123.0);
  s.potential->energyGradient(s.q.data(), g1.data());
  s.potential->energyGradient(s.q.data(), g2.data());
  EXPECT_EQ(g1, g2);
}

// Rotates all atoms about the origin by R and translates by t.
std::vector<double> moveRigidly(const std::vector<double>& x, const double R[9],
                                const double t[3]) {
  std::vector<double> y(x.size());
  for (std::size_t a = 0; a < x.size() / 3; ++a) {
    matVec3(R, &x[3 * a], &y[3 * a]);
    for (int k = 0; k < 3; ++k) y[3 * a + k] += t[k];
  }
  return y;
}

TEST(RigidBodyPotential, MetricRmsIsInvariantToOverallRotationAndTranslation) {
  Lj30Rigid s;
  s.q[6] = 0.7;
  s.q[9] = -0.4;
  std::vector<double> g(s.q.size());
  s.potential->energyGradient(s.q.data(), g.data());
  const double rms = s.potential->rmsGradient(s.q.data(), g.data());
  const double p[3] = {1.1, -0.6, 2.0}, t[3] = {3.0, -1.0, 0.5};
  double R[9];
  rotationMatrix(p, R);
  std::vector<double> q2 = s.system->fromAtoms(moveRigidly(s.system->toAtoms(s.q), R, t));
  std::vector<double> g2(q2.size());
  s.potential->energyGradient(q2.data(), g2.data());
  EXPECT_NEAR(s.potential->rmsGradient(q2.data(), g2.data()), rms, 1e-9 * rms);
}

TEST(RigidBodyPotential, MetricRmsIsTheSmallestAtomisticGradient) {
  // An all-free system gives the Cartesian RMS; a body whose atoms feel the gradient of a rigid
  // motion gives that gradient's Cartesian RMS.
  Lj30Rigid s;
  RigidBodySet none(30);
  RigidBodySystem freeSystem(none, s.atoms);
  RigidBodyPotential free(s.lj, freeSystem);
  std::vector<double> q = freeSystem.fromAtoms(s.atoms), g(q.size());
  s.lj.energyGradient(s.atoms.data(), g.data());
  double sum = 0.0;
  for (double v : g) sum += v * v;
  std::vector<double> gq(q.size());
  free.energyGradient(q.data(), gq.data());
  EXPECT_NEAR(free.rmsGradient(q.data(), gq.data()), std::sqrt(sum / 90.0), 1e-12);

  // Atom gradients of an infinitesimal rigid motion (w x r_i + v) of body 2: the projection
  // loses nothing, so the metric RMS equals their Cartesian RMS.
  std::vector<double> gAtoms(90, 0.0);
  const double w[3] = {0.3, -0.2, 0.7}, v[3] = {0.1, 0.4, -0.3};
  const std::vector<double> x = s.system->toAtoms(s.q);
  double c[3] = {0, 0, 0};
  for (std::size_t a = 3; a <= 13; ++a)
    for (int k = 0; k < 3; ++k) c[k] += x[3 * a + k] / 11.0;
  double cart = 0.0;
  for (std::size_t a = 3; a <= 13; ++a) {
    const double r[3] = {x[3 * a] - c[0], x[3 * a + 1] - c[1], x[3 * a + 2] - c[2]};
    const double m[3] = {w[1] * r[2] - w[2] * r[1] + v[0], w[2] * r[0] - w[0] * r[2] + v[1],
                         w[0] * r[1] - w[1] * r[0] + v[2]};
    for (int k = 0; k < 3; ++k) {
      gAtoms[3 * a + k] = m[k];
      cart += m[k] * m[k];
    }
  }
  std::vector<double> gRigid(s.q.size());
  s.system->projectGradient(s.q.data(), gAtoms.data(), gRigid.data());
  EXPECT_NEAR(s.system->rmsGradient(s.q.data(), gRigid.data()), std::sqrt(cart / 90.0), 1e-12);
}

TEST(RigidBodyPotential, CanonicaliseKeepsTheRotation) {
  Lj30Rigid s;
  s.q[6] = 4.0;
  s.q[7] = 2.0;
  s.q[9] = -7.0;
  std::vector<double> c = s.q;
  s.system->canonicalise(c);
  for (int b = 0; b < 2; ++b) {
    const double* p = &c[6 + 3 * b];
    EXPECT_LE(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), kPi + 1e-12);
  }
  const std::vector<double> x1 = s.system->toAtoms(s.q), x2 = s.system->toAtoms(c);
  for (std::size_t i = 0; i < x1.size(); ++i) EXPECT_NEAR(x1[i], x2[i], 1e-11);
}

TEST(RigidBodyPotential, LbfgsMinimisesInRigidCoordinates) {
  Lj30Rigid s;
  LbfgsParams params;
  params.maxIterations = 5000;
  params.rmsTolerance = 1e-6;
  const LbfgsResult r = Lbfgs(params).minimize(*s.potential, s.q);
  EXPECT_TRUE(r.converged()) << lbfgsStatusName(r.status);
  std::vector<double> g(s.q.size());
  s.potential->energyGradient(s.q.data(), g.data());
  EXPECT_LT(s.potential->rmsGradient(s.q.data(), g.data()), 1e-6);
  EXPECT_NEAR(r.energy, s.lj.energy(s.system->toAtoms(s.q).data()), 1e-10);
}

}  // namespace
}  // namespace landscape

namespace landscape {
namespace {

TEST(RigidBodyPotential, OverallMotionModesLeaveTheEnergyUnchanged) {
  Lj30Rigid s;
  s.q[6] = 0.9;
  s.q[10] = -2.5;
  std::vector<double> modes;
  ASSERT_TRUE(s.potential->overallMotionModes(s.q.data(), modes));
  const std::size_t n = s.q.size();
  ASSERT_EQ(modes.size(), 6 * n);
  std::vector<double> g(n);
  s.potential->energyGradient(s.q.data(), g.data());
  double gNorm = 0.0;
  for (double v : g) gNorm += v * v;
  gNorm = std::sqrt(gNorm);
  for (int k = 0; k < 6; ++k) {
    double dot = 0.0, norm = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      dot += g[i] * modes[k * n + i];
      norm += modes[k * n + i] * modes[k * n + i];
    }
    EXPECT_NEAR(dot, 0.0, 1e-9 * gNorm * std::sqrt(norm)) << "mode " << k;
  }
  // A small step along a rotation mode moves the atoms rigidly: every distance is kept.
  std::vector<double> q2 = s.q;
  for (std::size_t i = 0; i < n; ++i) q2[i] += 1e-4 * modes[4 * n + i];
  const std::vector<double> a = s.system->toAtoms(s.q), b = s.system->toAtoms(q2);
  for (std::size_t i : {0, 5, 13, 29})
    for (std::size_t j : {2, 7, 20}) {
      double da = 0.0, db = 0.0;
      for (int k = 0; k < 3; ++k) {
        da += std::pow(a[3 * i + k] - a[3 * j + k], 2);
        db += std::pow(b[3 * i + k] - b[3 * j + k], 2);
      }
      EXPECT_NEAR(std::sqrt(da), std::sqrt(db), 1e-7);
    }
}

}  // namespace
}  // namespace landscape

namespace landscape {
namespace {

TEST(RigidBodyMoves, RotationAboutTheCentreAndTranslationWithinBounds) {
  Lj30Rigid s;
  const std::vector<double> before = s.system->toAtoms(s.q);
  RigidBodyMoveParams rotateOnly;
  rotateOnly.rotation = 0.5;
  std::vector<double> q = s.q;
  Random random(4);
  moveRigidBodies(*s.system, rotateOnly, q, random);
  const std::vector<double> after = s.system->toAtoms(q);
  for (std::size_t b = 0; b < 2; ++b) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(q[3 * b + k], s.q[3 * b + k]);  // centres kept
    // Each atom turned about its body's centre by at most 0.5 rad.
    const double* p = &q[6 + 3 * b];
    EXPECT_LE(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), kPi + 1e-12);
  }
  for (std::size_t i = 14 * 3; i < before.size(); ++i) EXPECT_EQ(after[i], before[i]);  // free
  double turned = 0.0;
  for (std::size_t i = 0; i < 14 * 3; ++i) turned += std::fabs(after[i] - before[i]);
  EXPECT_GT(turned, 1e-3);

  RigidBodyMoveParams shiftOnly;
  shiftOnly.translation = 0.3;
  q = s.q;
  moveRigidBodies(*s.system, shiftOnly, q, random);
  for (std::size_t b = 0; b < 2; ++b) {
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) d2 += std::pow(q[3 * b + k] - s.q[3 * b + k], 2);
    EXPECT_LE(std::sqrt(d2), 0.3);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(q[6 + 3 * b + k], s.q[6 + 3 * b + k]);
  }
  for (std::size_t i = 12; i < q.size(); ++i) EXPECT_EQ(q[i], s.q[i]);  // free atoms kept
  // Point beads among rigid molecules: the free atoms take the translations too, each by at most
  // the translation, after the bodies (whose moves draw the same numbers as without them).
  RigidBodyMoveParams beads = shiftOnly;
  beads.freeAtoms = true;
  std::vector<double> withBeads = s.q;
  q = s.q;
  Random a(9), b(9);
  moveRigidBodies(*s.system, shiftOnly, q, a);
  moveRigidBodies(*s.system, beads, withBeads, b);
  for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(withBeads[i], q[i]);
  std::size_t moved = 0;
  for (std::size_t f = 0; f < s.system->freeAtomCount(); ++f) {
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) d2 += std::pow(withBeads[12 + 3 * f + k] - s.q[12 + 3 * f + k], 2);
    EXPECT_LE(std::sqrt(d2), 0.3);
    moved += d2 > 0.0;
  }
  EXPECT_EQ(moved, s.system->freeAtomCount());  // probability 1
  RigidBodyMoveParams bad;
  bad.rotation = 4.0;
  EXPECT_THROW(bad.check(), std::invalid_argument);
}

// Uniform rotations (Haar measure) have E[R] = 0, so E[trace R] = 0; a uniform angle about a
// uniform axis would give E[trace R] = 1 + 2 E[cos angle] = 1. 2000 bodies: each mean has a
// standard error sqrt(1/3 / 2000) = 0.013 (trace: sqrt(1 / 2000) = 0.022).
TEST(RigidBodyMoves, RandomStartHasCentresInTheBallAndUniformOrientations) {
  const std::size_t bodies = 2000;
  RigidBodySet set(3 * bodies);
  std::vector<double> reference;
  for (std::size_t b = 0; b < bodies; ++b) {
    set.addBody({3 * b, 3 * b + 1, 3 * b + 2});
    for (double v : {0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0}) reference.push_back(v + b);
  }
  const RigidBodySystem system(set, reference);
  Random random(11);
  const std::vector<double> q = randomRigidStructure(system, 3.0, random);
  ASSERT_EQ(q.size(), system.dimension());
  double meanR[9] = {0.0}, trace = 0.0;
  for (std::size_t b = 0; b < bodies; ++b) {
    EXPECT_LE(std::sqrt(q[3 * b] * q[3 * b] + q[3 * b + 1] * q[3 * b + 1] +
                        q[3 * b + 2] * q[3 * b + 2]),
              3.0);
    const double* p = &q[3 * bodies + 3 * b];
    EXPECT_LE(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), kPi + 1e-12);
    double R[9];
    rotationMatrix(p, R);
    for (int k = 0; k < 9; ++k) meanR[k] += R[k] / bodies;
    trace += (R[0] + R[4] + R[8]) / bodies;
  }
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(meanR[k], 0.0, 0.06) << k;
  EXPECT_NEAR(trace, 0.0, 0.1);
  EXPECT_THROW(randomRigidStructure(system, 0.0, random), std::invalid_argument);
}

}  // namespace
}  // namespace landscape

// --- the diagonal metric that preconditions L-BFGS ----------------------------------------------

namespace landscape {
namespace {

// Atoms of a jittered simple cubic lattice (side^3 sites, spacing 1.1 sigma, near the LJ minimum
// distance); one large body holds every site with x index >= freeLayers (a slab of radius ~3
// sigma, like the large body of Mantell et al. 2016, Table 5), the first layers stay free atoms.
struct LjSlab {
  LjSlab(std::size_t side, std::size_t freeLayers) : lj(side * side * side) {
    const std::size_t n = side * side * side;
    Random random(3);
    RigidBodySet set(n);
    std::vector<std::size_t> body;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t c[3] = {i % side, (i / side) % side, i / (side * side)};
      for (int k = 0; k < 3; ++k)
        atoms.push_back(1.1 * static_cast<double>(c[k]) + 0.05 * random.symmetric());
      if (c[0] >= freeLayers) body.push_back(i);
    }
    set.addBody(body);
    system = std::make_unique<RigidBodySystem>(set, atoms);
    potential = std::make_unique<RigidBodyPotential>(lj, *system);
  }
  std::vector<double> atoms;
  LennardJones lj;
  std::unique_ptr<RigidBodySystem> system;
  std::unique_ptr<RigidBodyPotential> potential;
};

TEST(RigidBodyMetric, WeightsAreTheCartesianDisplacementOfTranslationsAndRotations) {
  Lj30Rigid s;  // fitted to its own reference: p = 0, where the rotation weight is exact on average
  const RigidBodySystem& sys = *s.system;
  const std::vector<double> w = sys.diagonalMetric();
  ASSERT_EQ(w.size(), sys.dimension());
  const std::size_t B = sys.bodyCount();
  const std::vector<double> x0 = sys.toAtoms(s.q);
  auto displacement2 = [&](std::size_t i, double h) {
    std::vector<double> q = s.q;
    q[i] += h;
    const std::vector<double> x = sys.toAtoms(q);
    double d2 = 0.0;
    for (std::size_t k = 0; k < x.size(); ++k) d2 += (x[k] - x0[k]) * (x[k] - x0[k]);
    return d2;
  };
  const double h = 1e-5;
  for (std::size_t b = 0; b < B; ++b) {
    double rotation = 0.0;
    for (int k = 0; k < 3; ++k) {
      // Translating a centre by h moves each of its N_I atoms by h.
      EXPECT_NEAR(displacement2(3 * b + k, h) / (h * h), w[3 * b + k], 1e-6 * w[3 * b + k]);
      EXPECT_DOUBLE_EQ(w[3 * b + k], static_cast<double>(sys.bodySize(b)));
      rotation += displacement2(3 * B + 3 * b + k, h) / (h * h) / 3.0;
      EXPECT_EQ(w[3 * B + 3 * b + k], w[3 * B + 3 * b]);  // isotropic
    }
    // The mean over the three axes of |dx|^2 / dp^2.
    EXPECT_NEAR(rotation, w[3 * B + 3 * b], 1e-4 * w[3 * B + 3 * b]);
  }
  for (std::size_t i = 6 * B; i < w.size(); ++i) EXPECT_EQ(w[i], 1.0);
}

// The failure this metric fixes (docs/rigid-bodies.md): one large body made the rigid L-BFGS at
// small m slower than the atomistic one, because a rotation component moves the body's atoms ~R
// times farther than a centre or free-atom component of the same size. The rigid minimisation has
// 6 + 3 x 98 degrees of freedom against 3 x 343; preconditioned, it needs no more steps than the
// atomistic one from the same start. Measured (343 LJ atoms, body of 245, m = 4, RMS 1e-6):
// atomistic 739 steps, rigid 244, rigid without the metric 1678 (the assertion failed before).
TEST(RigidBodyMetric, LargeBodyAtSmallHistoryNeedsNoMoreStepsThanAtomistic) {
  LjSlab s(7, 2);
  Random random(9);
  std::vector<double> start = s.atoms;
  for (double& v : start) v += 0.1 * random.symmetric();
  std::vector<double> q0 = s.system->fromAtoms(start);
  std::vector<double> x0 = s.system->toAtoms(q0);  // the same structure for both
  LbfgsParams p;
  p.historySize = 4;
  p.rmsTolerance = 1e-6;
  p.maxIterations = 20000;
  std::vector<double> x = x0, q = q0, qPlain = q0;
  const LbfgsResult atomistic = Lbfgs(p).minimize(s.lj, x);
  const LbfgsResult rigid = Lbfgs(p).minimize(*s.potential, q);
  LbfgsParams plain = p;
  plain.useDiagonalMetric = false;
  const LbfgsResult unpreconditioned = Lbfgs(plain).minimize(*s.potential, qPlain);
  std::printf(
      "LJ343, body of 245, m = 4: atomistic %d steps, rigid %d (without the metric %d, "
      "%s)\n",
      atomistic.iterations, rigid.iterations, unpreconditioned.iterations,
      lbfgsStatusName(unpreconditioned.status).c_str());
  ASSERT_TRUE(atomistic.converged());
  ASSERT_TRUE(rigid.converged()) << lbfgsStatusName(rigid.status);
  EXPECT_LE(rigid.iterations, atomistic.iterations);
  std::vector<double> g(q.size());
  s.potential->energyGradient(q.data(), g.data());
  EXPECT_LT(s.potential->rmsGradient(q.data(), g.data()), p.rmsTolerance);
}

}  // namespace
}  // namespace landscape
