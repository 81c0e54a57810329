// Free-energy regrouping (landscape/network/FreeEnergyGroups) on a three-minimum network whose
// group free energies and barriers follow by hand from the definitions in FreeEnergyGroups.h.
#include <gtest/gtest.h>

#include <cmath>

#include "landscape/formats/PathsampleKineticsFiles.h"
#include "landscape/network/FreeEnergyGroups.h"
#include "landscape/network/HarmonicRates.h"
#include "tests/UnitNetworks.h"

namespace landscape {
namespace {

StoredTransitionNetwork threeMinima() {
  return unitNetwork({0.0, 0.1, 0.0}, {{0.3, 0, 1}, {2.0, 1, 2}});
}

void mergesWhenBothBarriersAreBelowTheThreshold(double kT);

TEST(FreeEnergyGroups, MergesWhenBothBarriersAreBelowTheThreshold) {
  // kT = 1e-4 too: Boltzmann factors exp(-0.1 / kT) = exp(-1000) underflow, the group free
  // energies (log-sum-exp) and barriers do not.
  for (double kT : {0.1, 0.002, 1e-4}) {
    SCOPED_TRACE(kT);
    mergesWhenBothBarriersAreBelowTheThreshold(kT);
  }
  EXPECT_THROW(regroupFreeEnergy(threeMinima(), 0.0, 1.0), std::invalid_argument);
}

void mergesWhenBothBarriersAreBelowTheThreshold(double kT) {
  const double twoPi = 6.283185307179586;
  // F_ts(0,1) = 0.3 + kT ln 2 pi; barriers 0.3 + kT ln 2 pi (from 0) and 0.2 + kT ln 2 pi (from 1).
  const double larger = 0.3 + kT * std::log(twoPi);
  const FreeEnergyGroups merged = regroupFreeEnergy(threeMinima(), kT, larger + 1e-9);
  ASSERT_EQ(merged.members.size(), 2u);
  const double groupF = -kT * std::log1p(std::exp(-0.1 / kT));  // minima at 0 and 0.1
  EXPECT_NEAR(merged.freeEnergy[0], groupF, 1e-12);
  EXPECT_EQ(merged.members[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(merged.members[1], (std::vector<int>{2}));
  EXPECT_NEAR(merged.freeEnergy[1], 0.0, 1e-12);
  EXPECT_EQ(merged.groupOfMinimum, (std::vector<int>{0, 0, 1}));
  const FreeEnergyGroups apart = regroupFreeEnergy(threeMinima(), kT, larger - 1e-9);
  EXPECT_EQ(apart.members.size(), 3u);
  // A threshold above the second barrier (from the merged group) joins everything.
  const double second = 2.0 + kT * std::log(twoPi) - groupF;
  EXPECT_EQ(regroupFreeEnergy(threeMinima(), kT, second + 1e-9).members.size(), 1u);
  EXPECT_EQ(regroupFreeEnergy(threeMinima(), kT, second - 1e-9).members.size(), 2u);
}

// A molecular pair of minima (kcal/mol, log products of the mass-weighted Hessian in
// ln(kcal/mol/(amu A^2)), T = 300 K), regrouped as PATHSAMPLE's regroupfree2 does: the
// transition-state free energy follows from the rate in s^-1 and Planck's constant in kcal/mol s,
// F_ts = F_m - kT ln(k h / kT) (Eyring), so the barrier out of minimum 0 is -kT ln(k_0 h / kT).
// Hand-computed from the rate formula of HarmonicRates.h: with h = 0 (no Eyring term) the
// barrier would be 0.71 kcal/mol higher and the threshold below would not merge the pair.
TEST(FreeEnergyGroups, MolecularBarriersUsePlancksConstantAsPathsample) {
  StoredTransitionNetwork n;
  const double energies[2] = {0.0, 1.5}, logProducts[2] = {-20.0, -18.0};
  for (int i = 0; i < 2; ++i) {
    StoredNetworkMinimum m;
    m.energy = energies[i];
    m.properties.logProductOfPositiveEigenvalues = logProducts[i];
    m.properties.pointGroupOrder = 1;
    n.minima.push_back(m);
  }
  StoredTransitionState t;
  t.energy = 6.0;
  t.plusMinimum = 0;
  t.minusMinimum = 1;
  t.properties.logProductOfPositiveEigenvalues = -23.0;
  t.properties.pointGroupOrder = 2;
  n.transitionStates.push_back(t);
  const double kT = 300.0 * 8.314462618 / 4184.0;  // kcal/mol
  const double pi = 3.141592653589793;
  // k(0 -> 1) in s^-1: o_m / (2 pi o_ts) exp((F_m - F_ts)/2) exp(-(E_ts - E_m)/kT) x 2.0454828e13
  // (sqrt(kcal/mol / (amu A^2)) in s^-1); h = 6.62607015e-34 J s x N_A / 4184 J/kcal.
  const double k0 = 1.0 / (2.0 * pi * 2.0) * std::exp((-20.0 + 23.0) / 2.0) *
                    std::exp(-6.0 / kT) * 2.0454828280e13;
  const double h = 6.62607015e-34 * 6.02214076e23 / 4184.0;
  const double barrier0 = -kT * std::log(k0 * h / kT);
  // F_1 - F_0 = E_1 - E_0 + kT (F_vib,1 - F_vib,0) / 2: the barrier from 1 is lower by that.
  const double barrier1 = barrier0 - (1.5 + kT * (-18.0 + 20.0) / 2.0);
  ASSERT_GT(barrier0, barrier1);
  EXPECT_NEAR(barrier0, 5.90792, 1e-5);  // the same formula evaluated in Python
  const double planck = kPlanckKcalPerMolSecond * kMolecularFrequencyPerSecond;
  EXPECT_EQ(regroupFreeEnergy(n, kT, barrier0 + 1e-9, planck).members.size(), 1u);
  EXPECT_EQ(regroupFreeEnergy(n, kT, barrier0 - 1e-9, planck).members.size(), 2u);
  // Without Planck's constant (h = 0) the barrier is -kT ln(k_0 / 2.0454828e13 s^-1): higher.
  const double withoutH = -kT * std::log(k0 / 2.0454828280e13);
  EXPECT_NEAR(withoutH - barrier0, kT * std::log(2.0454828280e13 * h / kT), 1e-12);
  EXPECT_NEAR(withoutH - barrier0, 0.706737, 1e-6);
  EXPECT_EQ(regroupFreeEnergy(n, kT, barrier0 + 1e-9).members.size(), 2u);
  EXPECT_EQ(regroupFreeEnergy(n, kT, withoutH + 1e-9).members.size(), 1u);
  EXPECT_THROW(regroupFreeEnergy(n, kT, 1.0, -1.0), std::invalid_argument);
}

TEST(PathsampleKineticsFiles, CommitDataUsesPathsampleColumns) {
  // The zero lines of tests/data/lj38/pathsample-untrap/expected_output/commit.data (G20.10).
  EXPECT_EQ(formatCommitData({0.0, std::nan(""), 1.0}),
            "     0.000000000    \n     0.000000000    \n     1.000000000    \n");
}

}  // namespace
}  // namespace landscape
