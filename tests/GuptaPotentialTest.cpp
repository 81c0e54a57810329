// The Gupta potential on the CPU (potentials/GuptaPotential): pele's Gupta13 energy, ASAP's
// energies and gradients (an independent code: tests/data/clusters/gupta_asap.txt), the dimer in
// closed form, central differences, invariance under rotations and translations, components that
// sum to the energy and per-atom energies to twice it (as a pair potential's), the named metals
// and the parameter checks.
//
// Tolerances: pele's energy to 1e-8 absolute (it is quoted to 8 decimals); ASAP's energies to
// 1e-12 relative and gradients to 1e-10 of max(1, max |g|) (double rounding in another summation
// order); central differences (h = 1e-5 r0, second order) to 1e-6 of max(1, max |g|).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "GuptaReferenceCases.h"
#include "backends/PotentialFactory.h"
#include "potentials/GuptaPotential.h"

namespace landscape {
namespace {

constexpr double kPeleGupta13 = -64.91633912;  // pele/potentials/tests/test_gupta.py

GuptaParams platinum() { return guptaMetalParams(GuptaMetal::Platinum); }

double maxAbs(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}


TEST(GuptaPotential, Gupta13MatchesPele) {
  const std::vector<double> x = readGupta13Coordinates();
  if (x.empty()) GTEST_SKIP() << "tests/data/clusters/gupta13_x0.txt not found";
  ASSERT_EQ(x.size(), 39u);
  GuptaPotential potential(13, platinum());
  EXPECT_NEAR(potential.energy(x.data()), kPeleGupta13, 1e-8);
  std::vector<double> g(x.size());
  EXPECT_NEAR(potential.energyGradient(x.data(), g.data()), kPeleGupta13, 1e-8);
  // pele's x0 is a minimum quenched loosely: its gradient is small.
  EXPECT_LT(maxAbs(g), 1e-3);
}

TEST(GuptaPotential, MatchesAsapEnergiesAndGradients) {
  const std::vector<GuptaReferenceCase> cases = readGuptaReferenceCases();
  if (cases.empty()) GTEST_SKIP() << "tests/data/clusters/gupta_asap.txt not found";
  ASSERT_EQ(cases.size(), 4u);
  for (const GuptaReferenceCase& c : cases) {
    SCOPED_TRACE(c.name);
    GuptaPotential potential(c.atoms(), c.params);
    std::vector<double> g(c.x.size());
    const double e = potential.energyGradient(c.x.data(), g.data());
    EXPECT_NEAR(e, c.energy, 1e-12 * std::fabs(c.energy));
    const double scale = std::max(1.0, maxAbs(c.g));
    for (std::size_t k = 0; k < g.size(); ++k) EXPECT_NEAR(g[k], c.g[k], 1e-10 * scale) << k;
  }
}

TEST(GuptaPotential, DimerIsTheClosedForm) {
  // Two atoms: rho = e^{2q(1 - r/r0)} each, so E = 2 [A e^{p(1 - r/r0)} - xi e^{q(1 - r/r0)}].
  GuptaParams params = guptaMetalParams(GuptaMetal::Gold);
  params.r0 = 2.884;
  GuptaPotential potential(2, params);
  for (double r : {2.0, 2.884, 3.5, 6.0}) {
    const std::vector<double> x = {0.1, -0.2, 0.3, 0.1 + r, -0.2, 0.3};
    const double s = 1.0 - r / params.r0;
    const double expected =
        2.0 * (params.a * std::exp(params.p * s) - params.xi * std::exp(params.q * s));
    const double dEdr = 2.0 *
                        (-params.a * params.p * std::exp(params.p * s) +
                         params.xi * params.q * std::exp(params.q * s)) /
                        params.r0;
    std::vector<double> g(6);
    EXPECT_NEAR(potential.energyGradient(x.data(), g.data()), expected,
                1e-13 * std::fabs(expected));
    EXPECT_NEAR(g[3], dEdr, 1e-12 * std::max(1.0, std::fabs(dEdr)));
    EXPECT_NEAR(g[0], -dEdr, 1e-12 * std::max(1.0, std::fabs(dEdr)));
    EXPECT_EQ(g[1], 0.0);
    EXPECT_EQ(g[5], 0.0);
  }
}

TEST(GuptaPotential, GradientMatchesCentralDifferences) {
  for (GuptaMetal metal : guptaMetals()) {
    SCOPED_TRACE(guptaMetalName(metal));
    GuptaParams params = guptaMetalParams(metal);
    params.r0 = metal == GuptaMetal::Gold ? 2.884 : 1.0;  // one case with lengths not in r0
    const std::vector<double> x0 = guptaRandomCluster(19, 11 + static_cast<unsigned>(metal), params.r0);
    GuptaPotential potential(19, params);
    std::vector<double> g(x0.size());
    potential.energyGradient(x0.data(), g.data());
    const double h = 1e-5 * params.r0, scale = std::max(1.0, maxAbs(g));
    for (std::size_t k = 0; k < x0.size(); ++k) {
      std::vector<double> x = x0;
      x[k] = x0[k] + h;
      const double up = potential.energy(x.data());
      x[k] = x0[k] - h;
      const double down = potential.energy(x.data());
      EXPECT_NEAR(g[k], (up - down) / (2 * h), 1e-6 * scale) << k;
    }
  }
}

TEST(GuptaPotential, InvariantUnderRotationAndTranslation) {
  const std::vector<double> x = guptaRandomCluster(30, 5);
  GuptaPotential potential(30, platinum());
  std::vector<double> g(x.size()), gMoved(x.size());
  const double e = potential.energyGradient(x.data(), g.data());
  // A rotation by 0.7 rad about (1, 2, 2)/3 (Rodrigues) and a translation.
  const double n[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3}, c = std::cos(0.7), s = std::sin(0.7);
  double rot[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) rot[i][j] = (i == j ? c : 0.0) + (1 - c) * n[i] * n[j];
  rot[0][1] -= s * n[2];
  rot[0][2] += s * n[1];
  rot[1][0] += s * n[2];
  rot[1][2] -= s * n[0];
  rot[2][0] -= s * n[1];
  rot[2][1] += s * n[0];
  const double shift[3] = {3.5, -12.25, 7.0};
  std::vector<double> moved(x.size());
  for (std::size_t a = 0; a < x.size(); a += 3)
    for (int i = 0; i < 3; ++i)
      moved[a + i] = rot[i][0] * x[a] + rot[i][1] * x[a + 1] + rot[i][2] * x[a + 2] + shift[i];
  const double eMoved = potential.energyGradient(moved.data(), gMoved.data());
  EXPECT_NEAR(eMoved, e, 1e-12 * std::fabs(e));
  const double scale = std::max(1.0, maxAbs(g));
  for (std::size_t a = 0; a < x.size(); a += 3)
    for (int i = 0; i < 3; ++i) {
      const double rotated = rot[i][0] * g[a] + rot[i][1] * g[a + 1] + rot[i][2] * g[a + 2];
      EXPECT_NEAR(gMoved[a + i], rotated, 1e-11 * scale);
    }
}

TEST(GuptaPotential, ComponentsSumToTheEnergyAndAtomEnergiesToTwice) {
  const std::vector<double> x = guptaRandomCluster(25, 9);
  GuptaPotential potential(25, guptaMetalParams(GuptaMetal::Copper));
  const double e = potential.energy(x.data());
  double sum = 0.0;
  const std::vector<EnergyComponent> parts = potential.energyComponents(x.data());
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].name, "REPULSION");
  EXPECT_EQ(parts[1].name, "BAND");
  EXPECT_GT(parts[0].value, 0.0);
  EXPECT_LT(parts[1].value, 0.0);
  for (const EnergyComponent& c : parts) sum += c.value;
  EXPECT_NEAR(sum, e, 1e-12 * std::fabs(e));
  std::vector<double> atoms(25);
  ASSERT_TRUE(potential.perAtomEnergies(x.data(), atoms.data()));
  sum = 0.0;
  for (double v : atoms) sum += v;
  EXPECT_NEAR(sum, 2.0 * e, 1e-12 * std::fabs(e));  // every atom's share counted as pairs are
}

TEST(GuptaPotential, GradientIsOverwrittenAndAFarAtomHasNone) {
  // The last atom 1000 r0 away: its density underflows to 0 and its gradient is 0, not NaN.
  std::vector<double> x = guptaRandomCluster(6, 3);
  x.insert(x.end(), {1000.0, 0.0, 0.0});
  GuptaPotential potential(7, platinum());
  std::vector<double> g(x.size(), 123.0);
  const double e = potential.energyGradient(x.data(), g.data());
  EXPECT_TRUE(std::isfinite(e));
  for (double v : g) EXPECT_TRUE(std::isfinite(v));
  EXPECT_EQ(g[18], 0.0);
  EXPECT_EQ(g[19], 0.0);
  GuptaPotential six(6, platinum());
  EXPECT_NEAR(e, six.energy(x.data()), 1e-12 * std::fabs(e));
}

TEST(GuptaPotential, NamedMetalsAndGminTypes) {
  EXPECT_EQ(guptaMetals().size(), 5u);
  EXPECT_EQ(parseGuptaMetal("pt"), GuptaMetal::Platinum);
  EXPECT_EQ(parseGuptaMetal("Au"), GuptaMetal::Gold);
  EXPECT_THROW(parseGuptaMetal("Rh"), std::invalid_argument);
  const GuptaParams pt = guptaMetalParams(GuptaMetal::Platinum);
  EXPECT_EQ(pt.p, 10.612);
  EXPECT_EQ(pt.q, 4.004);
  EXPECT_EQ(pt.a, 0.2975);
  EXPECT_EQ(pt.xi, 2.695);
  EXPECT_EQ(pt.r0, 1.0);
  GuptaMetal metal{};
  ASSERT_TRUE(guptaMetalOfGminType(7, metal));
  EXPECT_EQ(metal, GuptaMetal::Platinum);
  ASSERT_TRUE(guptaMetalOfGminType(1, metal));
  EXPECT_EQ(metal, GuptaMetal::Nickel);
  EXPECT_FALSE(guptaMetalOfGminType(3, metal));  // rhodium: not confirmed here
  EXPECT_EQ(guptaGminTypes(), (std::vector<long long>{1, 2, 4, 7, 8}));
}

TEST(GuptaPotential, BadParametersAndSizesAreRefused) {
  GuptaParams p = platinum();
  p.q = 0.0;
  try {
    p.check();
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("GuptaParams.q"), std::string::npos) << e.what();
  }
  p = platinum();
  p.r0 = -1.0;
  EXPECT_THROW(GuptaPotential(13, p), std::invalid_argument);
  p = platinum();
  p.xi = std::nan("");
  EXPECT_THROW(p.check(), std::invalid_argument);
  EXPECT_THROW(GuptaPotential(1, platinum()), std::invalid_argument);
}

TEST(GuptaPotential, FactoryBuildsItOnTheCpu) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Gupta;
  spec.atoms = 13;
  spec.gupta = platinum();
  const std::unique_ptr<Potential> potential = makePotential(spec, Backend::Cpu);
  EXPECT_EQ(potential->dimension(), 39u);
  const std::vector<double> x = readGupta13Coordinates();
  if (!x.empty()) EXPECT_NEAR(potential->energy(x.data()), kPeleGupta13, 1e-8);
  spec.atoms = 1;
  EXPECT_THROW(makePotential(spec, Backend::Cpu), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
