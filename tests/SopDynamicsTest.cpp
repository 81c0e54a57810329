// SOP Langevin dynamics (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, eq 1) and
// force spectroscopy (Zhmurov et al. 2011, section V) on the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "landscape/dynamics/SopDynamics.h"
#include "potentials/SopTopology.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

/// n isolated beads, 1000 A apart: no bonds, no contacts, no repulsion.
SopTopology freeBeads(int n) {
  std::vector<SopBead> beads(n);
  std::vector<int> starts;
  for (int i = 0; i < n; ++i) {
    beads[i].residueName = "GLY";
    beads[i].residueNumber = i + 1;
    beads[i].x = 1000.0 * i;
    starts.push_back(i);
  }
  return makeSopTopology(beads, starts, SopParams{});
}

TEST(SopDynamics, FrictionPresetsFollowSeed000) {
  // xi = zeta m / tau_L = 50 x 3e-22 g / 3 ps = 5e-12 kg/s; 1 kcal ps/(mol A^2) = 6.9477e-13 kg/s.
  const double kcalPsPerMolA2 = 4184.0 / 6.02214076e23 * 1e-12 / 1e-20;
  EXPECT_NEAR(sopFrictionPreset("sop-gpu"), 50 * 3e-25 / 3e-12 / kcalPsPerMolA2, 1e-3);
  // 7.0e5 pN ps/nm = 7e5 x 1e-12 N x 1e-12 s / 1e-9 m.
  EXPECT_NEAR(sopFrictionPreset("bulk-water"), 7.0e5 * 1e-12 * 1e-12 / 1e-9 / kcalPsPerMolA2, 0.1);
  EXPECT_THROW(sopFrictionPreset("honey"), std::invalid_argument);
}

TEST(SopDynamics, FreeBeadRecoversDiffusionCoefficientKTOverXi) {
  const SopTopology t = freeBeads(50);
  SopDynamicsParams p;
  p.replicas = 40;  // 2000 independent beads
  p.langevin.seed = 5;
  SopDynamicsCpu md(t, t.nativeCoordinates(), p);
  const long steps = 200;
  md.run(steps);
  double msd = 0;
  const std::vector<double> x0 = t.nativeCoordinates();
  for (int r = 0; r < p.replicas; ++r) {
    const std::vector<double> x = md.positions(r);
    for (std::size_t k = 0; k < x.size(); ++k) msd += (x[k] - x0[k]) * (x[k] - x0[k]);
  }
  msd /= 50.0 * p.replicas;
  const double time = steps * p.langevin.timeStep;
  const double d = msd / (6.0 * time);
  // Relative standard error of a mean of 2000 chi^2_3 / 3 variables: sqrt(2 / 6000) = 1.8%.
  EXPECT_NEAR(d / (p.langevin.kT / p.langevin.friction), 1.0, 0.06);
  EXPECT_DOUBLE_EQ(md.time(), time);
}

TEST(SopDynamics, ReplicasAreIndependentAndReproducible) {
  const SopTopology t = freeBeads(3);
  SopDynamicsParams p;
  p.replicas = 2;
  SopDynamicsCpu a(t, t.nativeCoordinates(), p), b(t, t.nativeCoordinates(), p);
  a.run(10);
  b.run(10);
  EXPECT_EQ(a.positions(0), b.positions(0));
  EXPECT_NE(a.positions(0), a.positions(1));
}

TEST(SopDynamics, ParamsCheckNamesTheField) {
  SopDynamicsParams p;
  p.replicas = 0;
  EXPECT_THROW(p.check(), std::invalid_argument);
  p.replicas = 1;
  p.pulling.enabled = p.indentation.enabled = true;
  EXPECT_THROW(p.check(), std::invalid_argument);
  p.pulling.enabled = false;
  p.cudaPersistentSteps = -1;
  try {
    p.check();
    ADD_FAILURE() << "a negative cudaPersistentSteps was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cudaPersistentSteps"), std::string::npos) << e.what();
  }
  p.cudaPersistentSteps = 7;  // any count: the kernel takes odd runs too
  EXPECT_NO_THROW(p.check());
}

/// Titin I27 pulled by its C terminus with the N terminus fixed: the force rises to a peak while
/// the structure resists, then Q drops as the beta sheets shear apart.
struct PullResult {
  double peakForce = 0, peakExtension = 0, finalQ = 1, finalExtension = 0, startForce = 0;
};

PullResult pullTitin(long steps, double speed, long sampleEvery) {
  const auto path = testDataPath("sop/1TIT.pdb");
  PullResult out;
  if (!path) return out;
  const SopTopology t = readSopTopology(*path);
  SopDynamicsParams p;
  p.pulling.enabled = true;
  p.pulling.springK = 0.1;
  p.pulling.speed = speed;
  p.langevin.seed = 2;
  SopDynamicsCpu md(t, t.nativeCoordinates(), p);
  for (long s = 0; s < steps; s += sampleEvery) {
    md.run(sampleEvery);
    const SopSample sample =
        sampleSop(t, md.protocol(), md.positions(0).data(), 0.0, md.time(), 2.0);
    if (sample.force > out.peakForce) {
      out.peakForce = sample.force;
      out.peakExtension = sample.extension;
    }
    out.finalQ = sample.q;
    out.finalExtension = sample.extension;
  }
  return out;
}

// Default suite: 1.5e5 steps of 0.05 ps at 2e-2 A/ps (2e6 um/s), spring 0.1 kcal/mol/A^2
// (69.5 pN/nm): the anchor travels 150 A; the peak (~6.6 kcal/mol/A = 460 pN) comes at ~57 A.
TEST(SopDynamics, TitinPulledFastShowsAForcePeakThenQDrops) {
  if (!testDataPath("sop/1TIT.pdb")) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const PullResult r = pullTitin(150000, 2e-2, 500);
  std::printf("titin pull: peak %.3f kcal/mol/A at %.1f A, final Q %.3f at %.1f A\n", r.peakForce,
              r.peakExtension, r.finalQ, r.finalExtension);
  EXPECT_GT(r.peakForce, 3.0);  // kcal/mol/A (210 pN)
  EXPECT_LT(r.finalQ, 0.6);
  EXPECT_GT(r.finalExtension, r.peakExtension);
}

// Forced unfolding: within 1e6 steps of 0.05 ps at 5e-3 A/ps (5e5 um/s), spring 0.1 kcal/mol/A^2,
// titin unfolds: a force peak (~6 kcal/mol/A = 420 pN at ~58 A), then Q falls to a few per cent.
TEST(SlowSopDynamics, TitinPulledWithin1e6StepsUnfolds) {
  if (!testDataPath("sop/1TIT.pdb")) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const PullResult r = pullTitin(1000000, 5e-3, 5000);
  std::printf("titin pull: peak %.3f kcal/mol/A at %.1f A, final Q %.3f at %.1f A\n", r.peakForce,
              r.peakExtension, r.finalQ, r.finalExtension);
  EXPECT_GT(r.peakForce, 3.0);
  EXPECT_LT(r.finalQ, 0.2);
  EXPECT_GT(r.finalExtension, r.peakExtension + 100.0);
}

}  // namespace
}  // namespace landscape
