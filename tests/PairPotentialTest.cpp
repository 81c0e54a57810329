// The CPU pair potential (potentials/PairPotential): every law and cutoff convention against its
// formula, finite differences, the minimum image, the tabulated law against the analytic one, and
// the model's and table file's errors. The comparisons with independent codes (LAMMPS, ASE, pele)
// are in tests/PairReferenceTest.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/geometry/BoxGeometry.h"
#include "potentials/PairModel.h"
#include "potentials/PairPotential.h"
#include "tests/TempFile.h"

namespace landscape {
namespace {

/// n atoms in a box of edge `edge` (or a cube of that size for open clusters), no two closer than
/// minSeparation (minimum image when periodic); seeded random sequential addition.
std::vector<double> randomConfiguration(std::size_t n, double edge, bool periodic,
                                        double minSeparation, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, edge);
  PeriodicBox box;
  if (periodic) box.length[0] = box.length[1] = box.length[2] = edge;
  std::vector<double> x;
  while (x.size() < 3 * n) {
    const double p[3] = {u(rng), u(rng), u(rng)};
    bool ok = true;
    for (std::size_t j = 0; ok && j < x.size() / 3; ++j) {
      double d[3] = {p[0] - x[3 * j], p[1] - x[3 * j + 1], p[2] - x[3 * j + 2]};
      box.minimumImage(d);
      ok = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= minSeparation * minSeparation;
    }
    if (ok) x.insert(x.end(), p, p + 3);
  }
  return x;
}

/// Largest |g - central difference| over every coordinate, relative to max(1, max |g|).
double finiteDifferenceError(Potential& potential, std::vector<double> x, double h = 1e-6) {
  std::vector<double> g(x.size());
  potential.energyGradient(x.data(), g.data());
  double worst = 0.0, scale = 1.0;
  for (double v : g) scale = std::max(scale, std::abs(v));
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double keep = x[k];
    x[k] = keep + h;
    const double up = potential.energy(x.data());
    x[k] = keep - h;
    const double down = potential.energy(x.data());
    x[k] = keep;
    worst = std::max(worst, std::abs((up - down) / (2 * h) - g[k]));
  }
  return worst / scale;
}

PairModel kobAndersen(std::size_t n, PairCutoff convention, double edge) {
  PeriodicBox box;
  box.length[0] = box.length[1] = box.length[2] = edge;
  return kobAndersenModel(n, 2.5, convention, box);
}

double dimerEnergy(const PairModel& model, double r) {
  PairModel m = model;
  PairPotential p(std::move(m));
  const std::vector<double> x = {0, 0, 0, r, 0, 0};
  return p.energy(x.data());
}

TEST(PairPotential, LennardJonesDimerMatchesTheFormula) {
  for (double r : {0.95, std::pow(2.0, 1.0 / 6.0), 1.5, 2.5, 4.0}) {
    const double expected = 4.0 * (std::pow(r, -12) - std::pow(r, -6));
    EXPECT_NEAR(dimerEnergy(lennardJonesModel(2), r), expected, 1e-14 * std::max(1.0, std::abs(expected)));
  }
}

TEST(PairPotential, MorseDimerMatchesGminsFormula) {
  // GMIN's MORSE: V = e^{rho(1-r)} (e^{rho(1-r)} - 2), minimum -1 at r = 1.
  for (double rho : {3.0, 6.0, 14.0})
    for (double r : {0.8, 1.0, 1.3, 2.0}) {
      const double e = std::exp(rho * (1.0 - r));
      EXPECT_NEAR(dimerEnergy(morseModel(2, rho), r), e * (e - 2.0), 1e-14 * std::max(1.0, e * e));
    }
  EXPECT_DOUBLE_EQ(dimerEnergy(morseModel(2, 6.0), 1.0), -1.0);
}

// Each convention's defining property at the cutoff, on the A-B pair of Kob-Andersen (rc = 2.0).
TEST(PairPotential, CutoffConventionsMeetTheirDefinitions) {
  const double rc = 2.5 * 0.8, below = rc * (1 - 1e-9);
  auto ab = [&](PairCutoff convention, double r) {
    PairModel m = kobAndersenModel(2, 2.5, convention, PeriodicBox{});
    m.species = {0, 1};
    return dimerEnergy(m, r);
  };
  auto bare = [](double r) { return 4 * 1.5 * (std::pow(0.8 / r, 12) - std::pow(0.8 / r, 6)); };
  auto slope = [&](PairCutoff c, double r) { return (ab(c, r + 1e-6) - ab(c, r - 1e-6)) / 2e-6; };
  // truncated: the bare law below rc, nothing at or beyond
  EXPECT_NEAR(ab(PairCutoff::Truncated, 1.2), bare(1.2), 1e-14);
  EXPECT_NEAR(ab(PairCutoff::Truncated, below), bare(rc), 1e-9);  // V' (rc) rc 1e-9 ~ 1.5e-10
  EXPECT_EQ(ab(PairCutoff::Truncated, rc), 0.0);
  EXPECT_EQ(ab(PairCutoff::Truncated, rc + 0.1), 0.0);
  // shifted: continuous energy, bare law minus V(rc)
  EXPECT_NEAR(ab(PairCutoff::Shifted, 1.2), bare(1.2) - bare(rc), 1e-14);
  EXPECT_NEAR(ab(PairCutoff::Shifted, below), 0.0, 1e-9);
  EXPECT_GT(std::abs(slope(PairCutoff::Shifted, rc - 1e-3)), 1e-3);  // the force still jumps
  // force-shifted and quadratic-smoothed: energy and slope both vanish at rc
  for (PairCutoff c : {PairCutoff::ForceShifted, PairCutoff::QuadraticSmoothed}) {
    EXPECT_NEAR(ab(c, below), 0.0, 1e-10) << pairCutoffName(c);
    EXPECT_NEAR(slope(c, rc - 1e-5), 0.0, 1e-4) << pairCutoffName(c);
  }
  // force-shifted: V(r) - V(rc) - (r - rc) V'(rc)
  const double dv = (bare(rc + 1e-6) - bare(rc - 1e-6)) / 2e-6;
  EXPECT_NEAR(ab(PairCutoff::ForceShifted, 1.2), bare(1.2) - bare(rc) - (1.2 - rc) * dv, 1e-8);
}

TEST(PairPotential, GradientsMatchFiniteDifferencesForEveryLawAndConvention) {
  // A Kob-Andersen box (periodic, every convention), a binary cluster, a Morse cluster and box.
  for (PairCutoff c : {PairCutoff::Truncated, PairCutoff::Shifted, PairCutoff::ForceShifted,
                       PairCutoff::QuadraticSmoothed}) {
    PairPotential ka(kobAndersen(100, c, 5.1));
    // A pair within the step h of its truncation's jump would spoil the difference: with 100
    // atoms and h = 1e-6 the chance is about 1e-4, and this seed has none.
    EXPECT_LT(finiteDifferenceError(ka, randomConfiguration(100, 5.1, true, 0.75, 7)), 1e-6)
        << pairCutoffName(c);
  }
  PairPotential cluster(binaryLennardJonesModel(20, 13, 1.5, 0.5, 0.8, 0.88, 0.0, PairCutoff::None));
  EXPECT_LT(finiteDifferenceError(cluster, randomConfiguration(20, 2.6, false, 0.8, 8)), 1e-6);
  PairPotential morse(morseModel(20, 6.0));
  EXPECT_LT(finiteDifferenceError(morse, randomConfiguration(20, 2.4, false, 0.8, 9)), 1e-6);
  PairModel box = morseModel(30, 6.0);
  box.cutoff = PairCutoff::ForceShifted;
  box.pairs[0].cutoff = 1.5;
  box.box.length[0] = box.box.length[1] = box.box.length[2] = 3.1;
  PairPotential morseBox(box);
  EXPECT_LT(finiteDifferenceError(morseBox, randomConfiguration(30, 3.1, true, 0.8, 10)), 1e-6);
}

TEST(PairPotential, PeriodicEnergyIgnoresTranslationsAndImages) {
  PairPotential ka(kobAndersen(120, PairCutoff::Shifted, 5.3));
  std::vector<double> x = randomConfiguration(120, 5.3, true, 0.8, 11);
  const double e = ka.energy(x.data());
  std::vector<double> moved = x;
  for (std::size_t i = 0; i < moved.size(); ++i)
    moved[i] += (i % 3 == 0 ? 0.37 : i % 3 == 1 ? -1.91 : 2.2) + 5.3 * static_cast<int>(i % 5);
  EXPECT_NEAR(ka.energy(moved.data()), e, 1e-12 * std::abs(e));
  // A cluster interaction is not periodic: the same shift of one atom changes the energy there.
  PairModel open = kobAndersen(120, PairCutoff::Shifted, 5.3);
  open.box = PeriodicBox{};
  PairPotential cluster(open);
  std::vector<double> one = x;
  one[0] += 5.3;
  EXPECT_NE(cluster.energy(one.data()), cluster.energy(x.data()));
}

TEST(PairPotential, SpeciesChooseTheirPairParameters) {
  // A-B at 1.0: 4 * 1.5 * ((0.8)^12 - (0.8)^6); B-B at 1.0 uses epsilon 0.5, sigma 0.88.
  PairModel m = binaryLennardJonesModel(2, 1, 1.5, 0.5, 0.8, 0.88, 0.0, PairCutoff::None);
  EXPECT_NEAR(dimerEnergy(m, 1.0), 6.0 * (std::pow(0.8, 12) - std::pow(0.8, 6)), 1e-15);
  m.species = {1, 1};
  EXPECT_NEAR(dimerEnergy(m, 1.0), 2.0 * (std::pow(0.88, 12) - std::pow(0.88, 6)), 1e-15);
}

TEST(PairPotential, PerAtomEnergiesSumToTwiceTheEnergy) {
  PairPotential ka(kobAndersen(100, PairCutoff::QuadraticSmoothed, 5.0));
  const std::vector<double> x = randomConfiguration(100, 5.0, true, 0.8, 12);
  std::vector<double> perAtom(100);
  ASSERT_TRUE(ka.perAtomEnergies(x.data(), perAtom.data()));
  double sum = 0.0;
  for (double v : perAtom) sum += v;
  EXPECT_NEAR(sum, 2.0 * ka.energy(x.data()), 1e-12 * std::abs(sum));
}

// Quadratic interpolation error on three knots h = w/2 apart: |V - interpolant| <= |V'''| h^3 /
// (9 sqrt 3). For LJ on [0.8, 2.5] with 1024 pieces (h = 8.3e-4) |V'''| < 2.5e5 at 0.8, so the
// bound is 9e-6 there and 1.5e-6 from r = 0.9 on (docs/pair-potentials.md has the measured table).
TEST(PairPotential, TabulatedLennardJonesFollowsTheAnalyticLaw) {
  auto lj = [](double r) { return 4.0 * (std::pow(r, -12) - std::pow(r, -6)); };
  const double rc = 2.5;
  PairModel analytic = lennardJonesModel(40);
  analytic.cutoff = PairCutoff::Shifted;
  analytic.pairs[0].cutoff = rc;
  analytic.box.length[0] = analytic.box.length[1] = analytic.box.length[2] = 5.2;
  PairModel tabulated = analytic;
  tabulated.law = PairLaw::Tabulated;
  tabulated.tables = {tabulatePairFunction(lj, 0.8, rc, 1024, "LJ 0.8..2.5")};
  tabulated.pairs[0].table = 0;
  PairPotential a(analytic), t(tabulated);
  const std::vector<double> x = randomConfiguration(40, 5.2, true, 0.85, 13);
  std::vector<double> ga(x.size()), gt(x.size());
  const double ea = a.energyGradient(x.data(), ga.data());
  const double et = t.energyGradient(x.data(), gt.data());
  // Every pair (40 x 39 / 2 = 780) at its bound would still stay within 780 x 9e-6.
  EXPECT_NEAR(et, ea, 780 * 9e-6);
  EXPECT_GT(std::abs(et - ea), 0.0);  // and the interpolant is not the law itself
  double gradientError = 0.0;
  for (std::size_t k = 0; k < x.size(); ++k)
    gradientError = std::max(gradientError, std::abs(gt[k] - ga[k]));
  EXPECT_LT(gradientError, 1e-2);  // dV/dr of a quadratic piece errs by O(V''' w^2)
  EXPECT_LT(finiteDifferenceError(t, x, 1e-7), 1e-5);
  // Pointwise, every r of a fine grid obeys the bound with the largest |V'''| of its piece (V'''
  // = -8736 r^-15 + 1344 r^-9 rises monotonically up to r = 1.49, so an end of the piece).
  const PairTable& table = tabulated.tables[0];
  auto third = [](double r) { return std::abs(-8736.0 * std::pow(r, -15) + 1344.0 * std::pow(r, -9)); };
  for (double r = 0.8; r < rc; r += 1.3e-5) {
    const double start = 0.8 + std::floor((r - 0.8) / table.width) * table.width;
    const double largest = std::max(third(start), third(start + table.width));
    const double h = table.width / 2;
    double v, dv;
    table.evaluate(r, v, dv);
    ASSERT_LE(std::abs(v - lj(r)), largest * h * h * h / (9 * std::sqrt(3.0)) + 1e-12) << r;
  }
  // Below the table the energy is NaN, never a guess.
  double v, dv;
  tabulated.tables[0].evaluate(0.7, v, dv);
  EXPECT_TRUE(std::isnan(v));
  tabulated.tables[0].evaluate(0.8, v, dv);
  EXPECT_EQ(v, lj(0.8));
}

TEST(PairPotential, TableFileIsReadAndCheckedLineByLine) {
  std::string text = "# r V(r), reduced units\n";
  for (int k = 0; k <= 8; ++k)
    text += std::to_string(1.0 + 0.25 * k) + " " + std::to_string((1.0 + 0.25 * k) * 2) + "\n";
  TempFile good(text);
  const PairTable t = readPairTable(good.path());
  EXPECT_EQ(t.pieces(), 4);
  EXPECT_DOUBLE_EQ(t.width, 0.5);
  double v, dv;
  t.evaluate(1.6, v, dv);
  EXPECT_NEAR(v, 3.2, 1e-14);  // a linear V is reproduced exactly
  EXPECT_NEAR(dv, 2.0, 1e-13);
  auto message = [](const std::string& text) {
    TempFile bad(text);
    try {
      readPairTable(bad.path());
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("1 2\n1.5 3\n2 x\n").find(":3: V(r) is 'x'"), std::string::npos);
  EXPECT_NE(message("1 2\n1.5 3\n").find("odd number of rows"), std::string::npos);
  EXPECT_NE(message("1 2\n1.5 3\n1.4 5\n").find(":3: r must increase"), std::string::npos);
  EXPECT_NE(message("1 2\n1.5 3\n2.2 5\n2.5 1\n3 1\n").find("evenly spaced"), std::string::npos);
  EXPECT_NE(message("1 2 3\n").find(":1: expected two numbers"), std::string::npos);
}

TEST(PairPotential, BadModelsAreRefusedWithTheReason) {
  auto reason = [](PairModel m) {
    try {
      PairPotential p(std::move(m));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  PairModel periodicNoCut = lennardJonesModel(10);
  periodicNoCut.box.length[0] = 5.0;
  EXPECT_NE(reason(periodicNoCut).find("periodic box needs a cutoff"), std::string::npos);
  EXPECT_NE(reason(kobAndersen(10, PairCutoff::Shifted, 4.9)).find("exceeds half the box"),
            std::string::npos);
  PairModel badSpecies = binaryLennardJonesModel(4, 2, 1.5, 0.5, 0.8, 0.88, 0.0, PairCutoff::None);
  badSpecies.species[3] = 2;
  EXPECT_NE(reason(badSpecies).find("atom 4 has species 2"), std::string::npos);
  PairModel badEpsilon = lennardJonesModel(3);
  badEpsilon.pairs[0].epsilon = -1.0;
  EXPECT_NE(reason(badEpsilon).find("epsilon must be > 0"), std::string::npos);
  EXPECT_NE(reason(morseModel(3, 0.0)).find("Morse rho must be > 0"), std::string::npos);
  PairModel cutWithoutConvention = lennardJonesModel(3);
  cutWithoutConvention.pairs[0].cutoff = 2.5;
  EXPECT_NE(reason(cutWithoutConvention).find("the convention is 'none'"), std::string::npos);
  PairModel asymmetric = binaryLennardJonesModel(4, 2, 1.5, 0.5, 0.8, 0.88, 0.0, PairCutoff::None);
  asymmetric.pairs[1].sigma = 0.9;
  EXPECT_NE(reason(asymmetric).find("differs from its mirror"), std::string::npos);
  EXPECT_NE(reason(lennardJonesModel(1)).find("at least 2 atoms"), std::string::npos);
  EXPECT_THROW(parsePairCutoff("smooth"), std::invalid_argument);
  EXPECT_EQ(parsePairCutoff("force-shifted"), PairCutoff::ForceShifted);
}

}  // namespace
}  // namespace landscape

namespace landscape {
namespace {

// The lattice start of dense boxes (landscape/geometry/BoxGeometry): the density asked for, fcc
// neighbours 2^(-1/2) a apart, so no pair closer than that less twice the displacement's length.
TEST(PerturbedLatticeInBox, FillsTheBoxAtTheDensityWithoutOverlaps) {
  double edge = 0.0;
  const std::vector<double> x = perturbedLatticeInBox(256, 1.2, 0.05, 4, &edge);
  ASSERT_EQ(x.size(), 3u * 256);
  EXPECT_NEAR(edge, std::cbrt(256 / 1.2), 1e-12);
  PeriodicBox box;
  box.length[0] = box.length[1] = box.length[2] = edge;
  const double nearest = edge / 4 / std::sqrt(2.0);
  double closest = 1e9;
  for (int i = 0; i < 256; ++i)
    for (int j = i + 1; j < 256; ++j) {
      double d[3] = {x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]};
      box.minimumImage(d);
      closest = std::min(closest, std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
    }
  EXPECT_GE(closest, nearest - 2 * std::sqrt(3.0) * 0.05);
  EXPECT_LT(closest, nearest + 2 * std::sqrt(3.0) * 0.05);
  EXPECT_EQ(perturbedLatticeInBox(256, 1.2, 0.05, 4), x);  // the seed fixes it
}

}  // namespace
}  // namespace landscape
