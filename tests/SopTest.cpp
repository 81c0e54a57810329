// The SOP model (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, Appendix B): PDB
// topology, energy and gradient of eq B1 on the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "potentials/Sop.h"
#include "potentials/SopTerms.h"
#include "potentials/SopTopology.h"
#include "tests/TempFile.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

SopTopology loadOrSkip(const std::string& name, const SopParams& params = SopParams{}) {
  const auto path = testDataPath("sop/" + name);
  if (!path) return {};
  return readSopTopology(*path, params);
}

#define SKIP_WITHOUT(topology, name) \
  if ((topology).beads.empty()) GTEST_SKIP() << "test data sop/" << name << " not found"

std::string atomLine(int serial, const char* atom, const char* res, char chain, int resSeq,
                     double x, double y, double z, const char* seg = "") {
  char buf[128];
  std::snprintf(buf, sizeof buf,
                "ATOM  %5d %-4s %3s %c%4d    %8.3f%8.3f%8.3f  1.00  0.00      %-4s", serial, atom,
                res, chain, resSeq, x, y, z, seg);
  return std::string(buf) + "\n";
}

// ---- topology ----------------------------------------------------------------------------------

TEST(SopTopology, TitinI27HasOneChainOfCAlphaBeads) {
  const SopTopology t = loadOrSkip("1TIT.pdb");
  SKIP_WITHOUT(t, "1TIT.pdb");
  EXPECT_EQ(t.beadCount(), 89u);  // all-atom NMR structure, residues 1-89
  EXPECT_EQ(t.chainCount(), 1u);
  EXPECT_EQ(t.bonds.size(), 88u);
  EXPECT_GT(t.contacts.size(), 100u);
  for (const SopContact& c : t.contacts) {
    EXPECT_GT(c.j - c.i, 2);
    EXPECT_LT(c.r0, 8.0);
  }
  for (const SopBond& b : t.bonds) EXPECT_NEAR(b.r0, 3.8, 0.3);
}

TEST(SopTopology, ProtofilamentChainsDifferOnlyBySegment) {
  const SopTopology t = loadOrSkip("PF8_protofilament_ca.pdb");
  SKIP_WITHOUT(t, "PF8_protofilament_ca.pdb");
  EXPECT_EQ(t.beadCount(), 6928u);
  EXPECT_EQ(t.chainCount(), 16u);  // 8 alpha/beta dimers: A1 B1 A14 B14 ... (chain IDs repeat)
  EXPECT_EQ(t.bonds.size(), 6928u - 16u);
}

TEST(SopTopology, ChainBreaksAtTerResetsGapsAndIdChanges) {
  std::string pdb;
  int s = 1;
  // chain A: residues 1-3; TER; residues 4-5 (TER break); residue 1 again (reset); a 10 A gap;
  // chain B; same chain with a new segment.
  double x = 0;
  auto add = [&](char chain, int res, const char* seg = "", double jump = 3.8) {
    x += jump;
    pdb += atomLine(s++, " N", "ALA", chain, res, x - 1.0, 0.5, 0.0, seg);
    pdb += atomLine(s++, " CA", "ALA", chain, res, x, 0.0, 0.0, seg);
  };
  add('A', 1);
  add('A', 2);
  add('A', 3);
  pdb += "TER\n";
  add('A', 4);
  add('A', 5);
  add('A', 1);            // residue-number reset
  add('A', 2, "", 10.0);  // gap
  add('B', 3);            // chain change
  add('B', 4, "S2");      // segment change
  add('B', 5, "S2");
  TempFile file(pdb, ".pdb");
  const SopTopology t = readSopTopology(file.path());
  EXPECT_EQ(t.beadCount(), 10u);
  EXPECT_EQ(t.chainStart, (std::vector<int>{0, 3, 5, 6, 7, 8, 10}));
  EXPECT_EQ(t.bonds.size(), 4u);
}

TEST(SopTopology, MissingCAlphaIsAnErrorNamingTheResidue) {
  std::string pdb =
      atomLine(1, " CA", "ALA", 'A', 1, 0, 0, 0) + atomLine(2, " N", "GLY", 'A', 2, 3, 0, 0) +
      atomLine(3, " C", "GLY", 'A', 2, 3.5, 0, 0) + atomLine(4, " CA", "ALA", 'A', 3, 7.6, 0, 0);
  TempFile file(pdb, ".pdb");
  try {
    readSopTopology(file.path());
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("GLY 2"), std::string::npos) << what;
    EXPECT_NE(what.find(":2:"), std::string::npos) << what;
  }
  TempFile empty("REMARK nothing\n", ".pdb");
  EXPECT_THROW(readSopTopology(empty.path()), std::runtime_error);
}

TEST(SopTopology, ParamsCheckNamesTheField) {
  SopParams p;
  p.feneR0 = -1;
  try {
    p.check();
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("feneR0"), std::string::npos);
  }
}

// ---- energy and gradient -----------------------------------------------------------------------

/// The cut and force-shifted repulsion written independently, with std::pow from r.
double referenceRepulsion(double r, const SopParams& p) {
  const double rc = p.repulsiveCutoff;
  if (r >= rc) return 0.0;
  const double e = p.repulsiveEpsilon, s = p.sigma;
  return e * std::pow(s / r, 6) - e * std::pow(s / rc, 6) +
         6.0 * e * std::pow(s, 6) / std::pow(rc, 7) * (r - rc);
}

/// Sum of referenceRepulsion over every pair that is neither bonded nor native.
double referenceRepulsiveEnergy(const SopTopology& t, const std::vector<double>& x) {
  const int n = static_cast<int>(t.beadCount());
  std::vector<std::vector<bool>> skip(n, std::vector<bool>(n, false));
  for (const SopBond& b : t.bonds) skip[b.i][b.j] = true;
  for (const SopContact& c : t.contacts) skip[c.i][c.j] = true;
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (!skip[i][j])
        e += referenceRepulsion(std::hypot(x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1],
                                           x[3 * i + 2] - x[3 * j + 2]),
                                t.params);
  return e;
}

TEST(SopPotential, NativeEnergyIsMinusEpsNTimesContactsPlusRepulsion) {
  const SopTopology t = loadOrSkip("1TIT.pdb");
  SKIP_WITHOUT(t, "1TIT.pdb");
  Sop sop(t);
  const std::vector<double> x = t.nativeCoordinates();
  const double repulsive = referenceRepulsiveEnergy(t, x);
  const double expected = -1.5 * static_cast<double>(t.contacts.size()) + repulsive;
  EXPECT_NEAR(sop.energy(x.data()), expected, 1e-10 * std::abs(expected));
  const auto comps = sop.energyComponents(x.data());
  ASSERT_EQ(comps.size(), 3u);
  EXPECT_EQ(comps[0].name, "FENE");
  EXPECT_NEAR(comps[0].value, 0.0, 1e-12);
  EXPECT_NEAR(comps[1].value, -1.5 * static_cast<double>(t.contacts.size()), 1e-9);
  EXPECT_NEAR(comps[2].value, repulsive, 1e-9);
}

TEST(SopPotential, FeneAndNativeGradientsVanishAtTheNativeStructure) {
  SopParams p;
  p.repulsiveEpsilon = 0.0;  // leaves the FENE and native-contact terms
  const SopTopology t = loadOrSkip("1TIT.pdb", p);
  SKIP_WITHOUT(t, "1TIT.pdb");
  Sop sop(t);
  const std::vector<double> x = t.nativeCoordinates();
  std::vector<double> g(x.size(), 1.0);
  sop.energyGradient(x.data(), g.data());
  for (double gk : g) EXPECT_NEAR(gk, 0.0, 1e-12);
}

std::vector<double> perturbed(std::vector<double> x, double amplitude, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  for (double& v : x) v += u(rng);
  return x;
}

TEST(SopPotential, GradientMatchesCentralDifferences) {
  const SopTopology t = loadOrSkip("1TIT.pdb");
  SKIP_WITHOUT(t, "1TIT.pdb");
  Sop sop(t);
  std::vector<double> x = perturbed(t.nativeCoordinates(), 0.3, 7);
  std::vector<double> g(x.size());
  sop.energyGradient(x.data(), g.data());
  double gmax = 1.0;
  for (double gk : g) gmax = std::max(gmax, std::abs(gk));
  const double h = 1e-6;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double saved = x[k];
    x[k] = saved + h;
    const double ep = sop.energy(x.data());
    x[k] = saved - h;
    const double em = sop.energy(x.data());
    x[k] = saved;
    EXPECT_NEAR((ep - em) / (2 * h), g[k], 1e-6 * gmax) << "coordinate " << k;
  }
}

TEST(SopPotential, EnergyAndForceAreContinuousAtTheRepulsiveCutoff) {
  SopParams p;
  const SopRepulsion<double> rep = makeSopRepulsion<double>(1.0, p.sigma, p.repulsiveCutoff);
  const double rc = p.repulsiveCutoff;
  const SopTerm<double> below = sopRepulsive((rc - 1e-7) * (rc - 1e-7), rep);
  EXPECT_NEAR(below.energy, 0.0, 1e-12);
  EXPECT_NEAR(below.dEdrOverR, 0.0, 1e-10);
  EXPECT_EQ(sopRepulsive(rc * rc, rep).energy, 0.0);
}

TEST(SopPotential, DivisionFreeFormsEqualTheReferenceTerms) {
  // The GPU pair loop evaluates the repulsion from 1/r and the native term from 1/r^2.
  for (double rc : {8.0, 20.0}) {
    SopParams p;
    const SopRepulsion<double> rep = makeSopRepulsion<double>(p.repulsiveEpsilon, p.sigma, rc);
    for (double r = 2.0; r < rc; r *= 1.07) {
      const SopTerm<double> t = sopRepulsive(r * r, rep);
      const double rinv = 1.0 / std::sqrt(r * r);
      EXPECT_NEAR(sopRepulsiveDEdrOverR(rinv, rep), t.dEdrOverR,
                  1e-13 * std::abs(t.dEdrOverR) + 1e-300)
          << "r " << r;
      EXPECT_NEAR(sopRepulsiveEnergy(r * r, rinv, rep), t.energy,
                  1e-12 * std::abs(rep.energyAtCutoff) + 1e-13 * std::abs(t.energy))
          << "r " << r;
      EXPECT_NEAR(sopRepulsiveCutDEdrOverR(rinv, rep), t.dEdrOverR,
                  1e-13 * std::abs(t.dEdrOverR) + 1e-300)
          << "r " << r;
      const SopTerm<double> n = sopNative(r * r, 36.0, 1.5);
      const SopTerm<double> m = sopNativeFromInverse(1.0 / (r * r), 36.0, 1.5);
      EXPECT_EQ(n.energy, m.energy);
      EXPECT_EQ(n.dEdrOverR, m.dEdrOverR);
    }
  }
}

TEST(SopPotential, CutForceFromTheMinIsZeroBeyondTheCutoff) {
  // The GPU pair loop cuts the repulsion by min(force, 0): the shifted force must change sign at
  // the cutoff, in double and in float.
  SopParams p;
  for (double rc : {8.0, 20.0}) {
    const SopRepulsion<double> rep = makeSopRepulsion<double>(p.repulsiveEpsilon, p.sigma, rc);
    const SopRepulsion<float> repf = makeSopRepulsion<float>(p.repulsiveEpsilon, p.sigma, rc);
    for (double r = rc * (1 + 1e-6); r < 4 * rc; r *= 1.01) {
      EXPECT_GT(sopRepulsiveDEdrOverR(1.0 / r, rep), 0.0) << "r " << r;
      EXPECT_EQ(sopRepulsiveCutDEdrOverR(1.0 / r, rep), 0.0);
      EXPECT_EQ(sopRepulsiveCutDEdrOverR(static_cast<float>(1.0 / r), repf), 0.0f);
    }
    for (double r = 2.0; r < rc * (1 - 1e-3); r *= 1.01) {
      EXPECT_LT(sopRepulsiveDEdrOverR(1.0 / r, rep), 0.0) << "r " << r;
      EXPECT_LT(sopRepulsiveDEdrOverR(static_cast<float>(1.0 / r), repf), 0.0f) << "r " << r;
    }
  }
}

TEST(SopPotential, GradientOverwritesAndEnergyAgrees) {
  const SopTopology t = loadOrSkip("1TIT.pdb");
  SKIP_WITHOUT(t, "1TIT.pdb");
  Sop sop(t);
  const std::vector<double> x = perturbed(t.nativeCoordinates(), 0.5, 3);
  std::vector<double> g1(x.size(), 0.0), g2(x.size(), 123.0);
  const double e1 = sop.energyGradient(x.data(), g1.data());
  const double e2 = sop.energyGradient(x.data(), g2.data());
  EXPECT_EQ(g1, g2);
  EXPECT_EQ(e1, e2);
  EXPECT_NEAR(sop.energy(x.data()), e1, 1e-12 * std::abs(e1));
}

TEST(SopPotential, CellListEqualsAllPairs) {
  SopParams p;
  p.repulsiveCutoff = 12.0;
  const SopTopology t = loadOrSkip("PF8_protofilament_ca.pdb", p);
  SKIP_WITHOUT(t, "PF8_protofilament_ca.pdb");
  Sop sop(t);
  const std::vector<double> x = perturbed(t.nativeCoordinates(), 1.0, 11);
  const auto cells = sop.repulsivePairs(x.data(), p.repulsiveCutoff, false);
  const auto all = sop.repulsivePairs(x.data(), p.repulsiveCutoff, true);
  EXPECT_EQ(cells, all);
  EXPECT_GT(cells.size(), 10000u);
}

TEST(SopPotential, NativeContactFractionIsOneAtNativeAndDropsWhenStretched) {
  const SopTopology t = loadOrSkip("1TIT.pdb");
  SKIP_WITHOUT(t, "1TIT.pdb");
  std::vector<double> x = t.nativeCoordinates();
  EXPECT_DOUBLE_EQ(nativeContactFraction(t, x.data(), 2.0), 1.0);
  for (double& v : x) v *= 2.0;
  EXPECT_LT(nativeContactFraction(t, x.data(), 2.0), 0.5);
}

}  // namespace
}  // namespace landscape
