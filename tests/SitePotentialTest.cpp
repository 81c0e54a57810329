// Interaction sites of rigid molecules on the CPU (potentials/SiteModel, SiteTerms.h,
// SitePotential): the pair law against its closed form, the exclusion of pairs within a molecule
// against a hand sum, central finite differences of the site gradient and of RigidBodyPotential's
// angle-axis gradient over it, and the model's input errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/SiteModel.h"
#include "potentials/SitePotential.h"
#include "potentials/SiteTerms.h"
#include "potentials/WaterCluster.h"

namespace landscape {
namespace {

TEST(SiteTerms, PairLawIsLennardJonesPlusCoulomb) {
  // C6 = 4 eps s^6, C12 = 4 eps s^12 turns the pair into 4 eps ((s/r)^12 - (s/r)^6).
  const double eps = 0.7, s = 3.1, r = 2.9, qi = 0.52, qj = -1.04, k = 1389.354848;
  const double c6 = 4.0 * eps * std::pow(s, 6), c12 = 4.0 * eps * std::pow(s, 12);
  // Per-site values whose geometric means are c6 and c12.
  const SitePairTerm t = sitePair(r * r, 2.0 * c6, 4.0 * c12, qi, 0.5 * c6, 0.25 * c12, qj, k);
  const double lj = 4.0 * eps * (std::pow(s / r, 12) - std::pow(s / r, 6));
  const double coulomb = k * qi * qj / r;
  EXPECT_NEAR(t.energy, lj + coulomb, 1e-12 * std::abs(lj + coulomb));
  EXPECT_NEAR(t.coulomb, coulomb, 1e-12 * std::abs(coulomb));
  const double dVdr = 4.0 * eps * (-12.0 * std::pow(s / r, 12) + 6.0 * std::pow(s / r, 6)) / r -
                      k * qi * qj / (r * r);
  EXPECT_NEAR(t.dEdrOverR * r, dVdr, 1e-12 * std::abs(dVdr));
  // A site without Lennard-Jones (c6 = c12 = 0) leaves only Coulomb.
  const SitePairTerm c = sitePair(r * r, c6, c12, qi, 0.0, 0.0, qj, k);
  EXPECT_DOUBLE_EQ(c.energy, coulomb);
}

// Two molecules of 3 unit charges: (0,0,0), (1,0,0), (0,1,0) and the same at z = 3; k = 1, no
// Lennard-Jones. Only the 9 intermolecular pairs count: 3 at distance 3, 4 at sqrt(10), 2 at
// sqrt(11).
SiteModel twoTriangles() {
  SiteModel m;
  m.molecule = {0, 0, 0, 1, 1, 1};
  m.charge = std::vector<double>(6, 1.0);
  m.c6 = m.c12 = std::vector<double>(6, 0.0);
  m.coulomb = 1.0;
  m.energyUnit = "e^2/length";
  m.lengthUnit = "length";
  m.name = "two triangles";
  return m;
}

TEST(SitePotential, ExcludesPairsWithinAMolecule) {
  SitePotential p(twoTriangles());
  const std::vector<double> x = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 3, 1, 0, 3, 0, 1, 3};
  const double expected = 3.0 / 3.0 + 4.0 / std::sqrt(10.0) + 2.0 / std::sqrt(11.0);
  EXPECT_NEAR(p.energy(x.data()), expected, 1e-14);
  std::vector<double> g(x.size());
  EXPECT_NEAR(p.energyGradient(x.data(), g.data()), expected, 1e-14);
  const std::vector<EnergyComponent> parts = p.energyComponents(x.data());
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].name, "LJ");
  EXPECT_EQ(parts[0].value, 0.0);
  EXPECT_NEAR(parts[1].value, expected, 1e-14);
  EXPECT_EQ(p.name(), "two triangles: 6 sites of 2 rigid molecules, e^2/length (cpu)");
}

// Random TIP4P (H2O)n: oxygens on a jittered cubic grid 2.9 Angstrom apart, random orientations.
std::vector<double> randomWaterSites(const WaterCluster& w, std::uint64_t seed) {
  Random rng(seed);
  const std::size_t n = w.moleculeCount();
  std::vector<double> gmin(6 * n);
  for (std::size_t m = 0; m < n; ++m) {
    const double grid[3] = {double(m % 2), double((m / 2) % 2), double(m / 4)};
    for (int c = 0; c < 3; ++c) {
      gmin[3 * m + c] = 2.9 * grid[c] + 0.2 * (rng.uniform() - 0.5);
      gmin[3 * (n + m) + c] = 4.0 * (rng.uniform() - 0.5);
    }
  }
  return w.gminToSites(gmin);
}

TEST(SitePotential, GradientMatchesCentralDifferences) {
  const WaterCluster w = tip4pCluster(6);
  SitePotential p(w.model);
  const std::vector<double> x = randomWaterSites(w, 11);
  std::vector<double> g(x.size());
  p.energyGradient(x.data(), g.data());
  const double h = 1e-5;
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::vector<double> xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    const double fd = (p.energy(xp.data()) - p.energy(xm.data())) / (2.0 * h);
    EXPECT_NEAR(g[i], fd, 1e-6 * std::max(1.0, std::abs(fd))) << "coordinate " << i;
  }
  // Components sum to the energy.
  double sum = 0.0;
  for (const EnergyComponent& c : p.energyComponents(x.data())) sum += c.value;
  EXPECT_NEAR(sum, p.energy(x.data()), 1e-10);
}

TEST(SitePotential, GradientOverwritesAndEnergiesAgree) {
  const WaterCluster w = tip4pCluster(4);
  SitePotential p(w.model);
  const std::vector<double> x = randomWaterSites(w, 13);
  std::vector<double> g1(x.size(), std::numeric_limits<double>::quiet_NaN()), g2(x.size(), 7.0);
  const double e1 = p.energyGradient(x.data(), g1.data());
  const double e2 = p.energyGradient(x.data(), g2.data());
  EXPECT_EQ(e1, e2);
  EXPECT_EQ(g1, g2);
  EXPECT_NEAR(p.energy(x.data()), e1, 1e-12 * (1.0 + std::abs(e1)));
  // No net force or torque on an isolated cluster: the gradient sums to zero.
  for (int c = 0; c < 3; ++c) {
    double sum = 0.0;
    for (std::size_t i = 0; i < x.size() / 3; ++i) sum += g1[3 * i + c];
    EXPECT_NEAR(sum, 0.0, 1e-9);
  }
}

TEST(SitePotential, RigidAngleAxisGradientMatchesCentralDifferences) {
  const WaterCluster w = tip4pCluster(6);
  SitePotential sites(w.model);
  RigidBodyPotential rigid(sites, w.rigidSystem());
  const std::vector<double> q = w.rigidSystem().fromAtoms(randomWaterSites(w, 12));
  ASSERT_EQ(q.size(), 36u);
  std::vector<double> g(q.size());
  const double e = rigid.energyGradient(q.data(), g.data());
  EXPECT_NEAR(e, sites.energy(w.rigidSystem().toAtoms(q).data()), 1e-10);
  const double h = 1e-5;
  for (std::size_t i = 0; i < q.size(); ++i) {
    std::vector<double> qp = q, qm = q;
    qp[i] += h;
    qm[i] -= h;
    const double fd = (rigid.energy(qp.data()) - rigid.energy(qm.data())) / (2.0 * h);
    EXPECT_NEAR(g[i], fd, 1e-6 * std::max(1.0, std::abs(fd))) << "rigid coordinate " << i;
  }
}

void expectCheckError(const SiteModel& m, const std::string& part) {
  try {
    m.check();
    FAIL() << "no error; expected '" << part << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
  EXPECT_THROW(SitePotential{m}, std::invalid_argument);
}

TEST(SiteModel, CheckNamesTheBadField) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NO_THROW(twoTriangles().check());
  SiteModel m = twoTriangles();
  m.c6[2] = -1.0;
  expectCheckError(m, "c6 of site 2");
  m = twoTriangles();
  m.c12[4] = nan;
  expectCheckError(m, "c12 of site 4");
  m = twoTriangles();
  m.charge[1] = nan;
  expectCheckError(m, "charge of site 1 is not finite");
  m = twoTriangles();
  m.charge.pop_back();
  expectCheckError(m, "charge has 5 entries for 6 sites");
  m = twoTriangles();
  m.c12.push_back(0.0);
  expectCheckError(m, "c12 has 7 entries for 6 sites");
  m = twoTriangles();
  m.c6.clear();
  expectCheckError(m, "c6 has 0 entries");
  m = twoTriangles();
  m.molecule = {0, 0, 0, 1, 1, 2};
  expectCheckError(m, "molecule 1 has 2 sites");
  m = twoTriangles();
  m.molecule = {0, 0, 0, 1, 2, 2};
  expectCheckError(m,
                   "molecule 2 has 2 sites; a rigid molecule needs at least 3 (a point bead "
                   "has 1)");
  m = twoTriangles();
  m.molecule = {0, 0, 0, 1, 2, 3};  // a triangle and three point beads
  EXPECT_NO_THROW(m.check());
  m = twoTriangles();
  m.molecule = {0, 0, 0, 2, 2, 2};
  expectCheckError(m, "molecule-major");
  m = twoTriangles();
  m.molecule = {0, 0, 0, 0, 0, 0};
  expectCheckError(m, "only one molecule");
  m = twoTriangles();
  m.coulomb = -1.0;
  expectCheckError(m, "coulomb constant");
  m = twoTriangles();
  m.energyUnit.clear();
  expectCheckError(m, "energyUnit");
  m = SiteModel();
  expectCheckError(m, "no sites");
  EXPECT_THROW(tip4pCluster(1), std::invalid_argument);
}

TEST(SiteModel, MoleculeStarts) {
  EXPECT_EQ(twoTriangles().moleculeStarts(), (std::vector<std::size_t>{0, 3, 6}));
  EXPECT_EQ(tip4pCluster(3).model.moleculeStarts(), (std::vector<std::size_t>{0, 4, 8, 12}));
}

}  // namespace
}  // namespace landscape
