// Soft-sticky-dipole water as rigid bodies of 4 markers (potentials/SoftStickyDipole,
// SoftStickyDipoleTerms.h): the marker and the rigid (angle-axis) gradients against central
// differences; the dipole-dipole and Lennard-Jones terms against their textbook closed forms; the
// sticky term against sin(theta) sin(2 theta) cos(2 phi) in polar angles, at its tetrahedral
// directions, and its switches continuous; invariance under overall rotation and translation; the
// energies of 22 configurations against OpenMD (an independent code; tests/data/water/README.md);
// bad parameters refused with a sentence.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "TestData.h"
#include "landscape/core/Random.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/RigidBodyTerms.h"
#include "potentials/SoftStickyDipole.h"
#include "tests/FiniteDifferences.h"

namespace landscape {
namespace {

const double kPi = 3.14159265358979323846;

// Markers of molecules at `centres` whose body->lab rotations are R (9 per molecule, row-major):
// marker m = centre + R f_m for the body-frame points f of the header.
std::vector<double> markersOf(const std::vector<double>& centres, const std::vector<double>& R) {
  const double h = kSoftStickyDipoleMarkerDistance;
  const double f[4][3] = {{0, 0, h}, {0, 0, -h}, {h, 0, 0}, {-h, 0, 0}};
  std::vector<double> x;
  for (std::size_t k = 0; k < centres.size() / 3; ++k)
    for (int m = 0; m < 4; ++m)
      for (int a = 0; a < 3; ++a) {
        double v = centres[3 * k + a];
        for (int b = 0; b < 3; ++b) v += R[9 * k + 3 * a + b] * f[m][b];
        x.push_back(v);
      }
  return x;
}

void appendRotation(const double p[3], std::vector<double>& R) {
  double m[9];
  rotationMatrix(p, m);
  R.insert(R.end(), m, m + 9);
}

// n molecules at random orientations, centres on a loose grid (2.6-3.4 A apart: inside the sticky
// switches).
std::vector<double> randomMarkers(std::size_t n, Random& random) {
  std::vector<double> centres, R;
  for (std::size_t k = 0; k < n; ++k) {
    centres.push_back(3.0 * static_cast<double>(k % 2) + 0.2 * random.symmetric());
    centres.push_back(3.0 * static_cast<double>((k / 2) % 2) + 0.2 * random.symmetric());
    centres.push_back(3.0 * static_cast<double>(k / 4) + 0.2 * random.symmetric());
    const double p[3] = {2.0 * random.symmetric(), 2.0 * random.symmetric(),
                         2.0 * random.symmetric()};
    appendRotation(p, R);
  }
  return markersOf(centres, R);
}

TEST(SoftStickyDipole, MarkerGradientMatchesCentralDifferences) {
  Random random(3);
  SoftStickyDipole ssd(SoftStickyDipoleParams(), 6);
  std::vector<double> x = randomMarkers(6, random);
  // The potential is a function of all 12 n Cartesians (the frame is built from any markers), so
  // non-rigid displacements test the chain rule through the whole construction.
  for (double& v : x) v += 0.05 * random.symmetric();
  expectGradientMatchesDifferences(ssd, x, 1e-7);
}

TEST(SoftStickyDipole, RigidGradientMatchesCentralDifferences) {
  Random random(4);
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), 5);
  SoftStickyDipole ssd(cluster.params, 5);
  RigidBodyPotential rigid(ssd, cluster.rigidSystem());
  std::vector<double> q = rigid.system().fromAtoms(randomMarkers(5, random));
  expectGradientMatchesDifferences(rigid, q, 1e-7);
  // The angle-axis vectors near |p| = pi too.
  for (std::size_t k = 0; k < 5; ++k) {
    double* p = &q[15 + 3 * k];
    const double len = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (int c = 0; c < 3; ++c) p[c] *= (kPi - 0.01) / len;
  }
  expectGradientMatchesDifferences(rigid, q, 1e-7);
}

// Two molecules far apart (no sticky term): Lennard-Jones plus the point-dipole energies of the
// textbook, -2 k mu^2 / d^3 head to tail and -k mu^2 / d^3 side by side antiparallel.
TEST(SoftStickyDipole, DipolesAndCoreFollowTheirClosedForms) {
  const SoftStickyDipoleParams params;
  SoftStickyDipole ssd(params, 2);
  const double d = 5.0;
  const double mu = params.dipole * params.debye;
  const double kmu2 = params.coulomb * mu * mu;
  const double sr6 = std::pow(params.sigma / d, 6);
  const double lj = 4.0 * params.epsilon * (sr6 * sr6 - sr6);
  const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::vector<double> R(identity, identity + 9);
  R.insert(R.end(), identity, identity + 9);
  const std::vector<double> headToTail = markersOf({0, 0, 0, 0, 0, d}, R);
  EXPECT_NEAR(ssd.energy(headToTail.data()), lj - 2.0 * kmu2 / (d * d * d), 1e-12);
  // j turned by pi about x: its dipole along -z, side by side along x.
  const double p[3] = {kPi, 0.0, 0.0};
  std::vector<double> R2(identity, identity + 9);
  appendRotation(p, R2);
  const std::vector<double> antiparallel = markersOf({0, 0, 0, d, 0, 0}, R2);
  EXPECT_NEAR(ssd.energy(antiparallel.data()), lj - kmu2 / (d * d * d), 1e-12);
  // The numbers themselves: k mu^2 = 332.0637 (2.35 x 0.2081943)^2 kcal/mol A^3.
  EXPECT_NEAR(kmu2, 79.4859, 1e-3);
}

// The sticky term in its published polar form: molecule j placed at (d, theta, phi) in molecule
// i's frame (identity), j's own frame chosen so that it sees i along its +z axis (w_j = 0,
// w'_j = (1 - 0.6)^2 (1 + 0.8)^2 - w0).
TEST(SoftStickyDipole, StickyTermFollowsThePolarForm) {
  SoftStickyDipoleParams params;
  params.dipole = 0.0;  // leave the sticky term and the core
  SoftStickyDipole ssd(params, 2);
  const double d = 2.7;  // inside both switches
  const double sr6 = std::pow(params.sigma / d, 6);
  const double lj = 4.0 * params.epsilon * (sr6 * sr6 - sr6);
  for (double theta : {0.3, 0.9553166181245093, 2.1862760354652844, 2.8}) {
    for (double phi : {0.0, 0.4, kPi / 2, 2.0}) {
      const double u[3] = {std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                           std::cos(theta)};
      // j's frame: ez_j = -u (towards i), any perpendicular ex_j.
      const double ex[3] = {std::cos(theta) * std::cos(phi), std::cos(theta) * std::sin(phi),
                            -std::sin(theta)};
      const double ez[3] = {-u[0], -u[1], -u[2]};
      const double ey[3] = {ez[1] * ex[2] - ez[2] * ex[1], ez[2] * ex[0] - ez[0] * ex[2],
                            ez[0] * ex[1] - ez[1] * ex[0]};
      const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
      std::vector<double> R(identity, identity + 9);
      // The columns of R are ex, ey, ez: row a is (ex_a, ey_a, ez_a).
      for (int a = 0; a < 3; ++a) R.insert(R.end(), {ex[a], ey[a], ez[a]});
      const std::vector<double> x = markersOf({0, 0, 0, d * u[0], d * u[1], d * u[2]}, R);
      const double wi = std::sin(theta) * std::sin(2.0 * theta) * std::cos(2.0 * phi);
      const double c = std::cos(theta);
      const double wpi = (c - 0.6) * (c - 0.6) * (c + 0.8) * (c + 0.8) - params.w0;
      const double wpj = 0.4 * 0.4 * 1.8 * 1.8 - params.w0;
      const double expected = lj + 0.5 * params.v0 * wi + 0.5 * params.v0Prime * (wpi + wpj);
      EXPECT_NEAR(ssd.energy(x.data()), expected, 1e-12) << theta << " " << phi;
    }
  }
}

// The switches: the energy and its gradient continuous through rL, rU and rU' (one molecule moved
// along a line through them).
TEST(SoftStickyDipole, SwitchesAreSmooth) {
  SoftStickyDipole ssd(SoftStickyDipoleParams(), 2);
  const double p[3] = {0.3, -1.1, 0.7};
  const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::vector<double> R(identity, identity + 9);
  appendRotation(p, R);
  const double dir[3] = {0.48, 0.6, 0.64};
  for (double edge : {2.75, 3.35, 4.0}) {
    double e[2], gradient[2];
    for (int side = 0; side < 2; ++side) {
      const double d = edge + (side == 0 ? -1e-9 : 1e-9);
      std::vector<double> x = markersOf({0, 0, 0, d * dir[0], d * dir[1], d * dir[2]}, R);
      std::vector<double> g(x.size());
      e[side] = ssd.energyGradient(x.data(), g.data());
      gradient[side] = g[12] * dir[0] + g[13] * dir[1] + g[14] * dir[2];
    }
    // 2e-9 A apart: a slope of 10 kcal/mol/A moves the energy by 2e-8; a jump would be O(0.1).
    EXPECT_NEAR(e[0], e[1], 1e-7) << edge;
    EXPECT_NEAR(gradient[0], gradient[1], 1e-6) << edge;
  }
}

TEST(SoftStickyDipole, InvariantUnderOverallRotationAndTranslation) {
  Random random(8);
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), 6);
  SoftStickyDipole ssd(cluster.params, 6);
  const std::vector<double> x = randomMarkers(6, random);
  const double p[3] = {0.4, -2.0, 1.3};
  double R[9];
  rotationMatrix(p, R);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size() / 3; ++i) {
    double v[3];
    matVec3(R, &x[3 * i], v);
    for (int c = 0; c < 3; ++c) y[3 * i + c] = v[c] + 7.5 - 2.0 * c;
  }
  EXPECT_NEAR(ssd.energy(x.data()), ssd.energy(y.data()), 1e-11);
}

// The SSD dimer's global minimum: -7.636642 kcal/mol with the centres 2.754521 A apart (the lowest
// of 300 BFGS minimisations from random starts of tools/utilities/ssd_reference.py, a numpy
// evaluation of the published formula written independently of SoftStickyDipoleTerms.h).
TEST(SoftStickyDipole, RigidDimerReachesItsGlobalMinimum) {
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), 2);
  SoftStickyDipole ssd(cluster.params, 2);
  RigidBodyPotential rigid(ssd, cluster.rigidSystem());
  Random random(11);
  LbfgsParams lp;
  lp.rmsTolerance = 1e-9;
  Lbfgs lbfgs(lp);
  double lowest = 0.0, distance = 0.0;
  for (int start = 0; start < 20; ++start) {
    std::vector<double> q = rigid.system().fromAtoms(cluster.referenceMarkers);
    for (std::size_t i = 3; i < 6; ++i) q[i] = q[i - 3] + random.symmetric();
    for (std::size_t i = 6; i < 12; ++i) q[i] = 3.0 * random.symmetric();
    const auto result = lbfgs.minimize(rigid, q);
    if (!result.converged() || result.energy >= lowest) continue;
    lowest = result.energy;
    distance =
        std::sqrt(std::pow(q[3] - q[0], 2) + std::pow(q[4] - q[1], 2) + std::pow(q[5] - q[2], 2));
  }
  EXPECT_NEAR(lowest, -7.636642, 1e-6);
  EXPECT_NEAR(distance, 2.754521, 1e-5);
}

struct OpenMdCase {
  std::vector<double> markers;
  std::size_t molecules;
  double total, lennardJones, dipole, sticky;
};

// tests/data/water/ssd_configs.txt (centres and rotations) with ssd_openmd.txt (OpenMD's
// energies, kcal/mol).
std::vector<OpenMdCase> openMdCases(const std::string& configs, const std::string& energies) {
  std::vector<OpenMdCase> cases;
  std::ifstream c(configs), e(energies);
  std::string line;
  std::vector<std::vector<double>> centres, rotations;
  while (std::getline(c, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string word;
    std::size_t index = 0, n = 0;
    in >> word >> index >> n;
    std::vector<double> centre, R;
    for (std::size_t k = 0; k < n; ++k) {
      std::getline(c, line);
      std::istringstream row(line);
      double v;
      for (int i = 0; i < 12 && row >> v; ++i) (i < 3 ? centre : R).push_back(v);
    }
    centres.push_back(centre);
    rotations.push_back(R);
  }
  while (std::getline(e, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::size_t index = 0;
    OpenMdCase t;
    in >> index >> t.molecules >> t.total >> t.lennardJones >> t.dipole >> t.sticky;
    if (index >= centres.size()) continue;
    t.markers = markersOf(centres[index], rotations[index]);
    cases.push_back(t);
  }
  return cases;
}

// The energies of 22 configurations against OpenMD, an independent code, term by term (each
// term alone by zeroing the others' strengths), with OpenMD's dipole prefactor 14.39325 kcal/mol
// A^3/D^2 (ours, 332.0637 x 0.2081943^2, is 1.1e-6 relative above it).
TEST(SoftStickyDipole, EnergiesMatchOpenMd) {
  const auto configs = testDataPath("water/ssd_configs.txt");
  const auto energies = testDataPath("water/ssd_openmd.txt");
  if (!configs || !energies) GTEST_SKIP() << "tests/data/water/ssd_*.txt not found";
  const std::vector<OpenMdCase> cases = openMdCases(*configs, *energies);
  ASSERT_EQ(cases.size(), 22u);
  SoftStickyDipoleParams openMd;
  openMd.debye = 1.0;
  openMd.coulomb = 14.39325;
  SoftStickyDipoleParams lennardJonesOnly = openMd, dipoleOnly = openMd, stickyOnly = openMd;
  lennardJonesOnly.dipole = lennardJonesOnly.v0 = lennardJonesOnly.v0Prime = 0.0;
  dipoleOnly.epsilon = 1e-300;  // > 0 as check() asks; 4 eps sigma^12 / d^12 stays below 1e-290
  dipoleOnly.v0 = dipoleOnly.v0Prime = 0.0;
  stickyOnly.epsilon = 1e-300;
  stickyOnly.dipole = 0.0;
  for (const OpenMdCase& t : cases) {
    ASSERT_EQ(t.markers.size(), 12 * t.molecules);
    const auto energyOf = [&t](const SoftStickyDipoleParams& p) {
      SoftStickyDipole ssd(p, t.molecules);
      return ssd.energy(t.markers.data());
    };
    EXPECT_NEAR(energyOf(openMd), t.total, 1e-10 * std::max(1.0, std::fabs(t.total)));
    EXPECT_NEAR(energyOf(lennardJonesOnly), t.lennardJones, 1e-10);
    EXPECT_NEAR(energyOf(dipoleOnly), t.dipole, 1e-10);
    EXPECT_NEAR(energyOf(stickyOnly), t.sticky, 1e-10);
    // With our constants the dipole term differs by its 1.1e-6 relative.
    EXPECT_NEAR(energyOf(SoftStickyDipoleParams()), t.total, 1.2e-6 * std::fabs(t.dipole) + 1e-10);
  }
}

TEST(SoftStickyDipole, BadParametersAreRefusedWithASentence) {
  const auto refused = [](SoftStickyDipoleParams p, const std::string& word) {
    try {
      p.check();
      ADD_FAILURE() << "accepted: " << word;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
    }
  };
  SoftStickyDipoleParams p;
  p.sigma = -1.0;
  refused(p, "sigma");
  p = SoftStickyDipoleParams();
  p.rU = 2.0;
  refused(p, "switch of w ");
  p = SoftStickyDipoleParams();
  p.v0Prime = std::nan("");
  refused(p, "v0'");
  EXPECT_THROW(SoftStickyDipole(SoftStickyDipoleParams(), 1), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
