// Rigid bodies on an AMBER protein: make_rigid_bodies' groups for Trp-cage (peptide
// bonds, rings, sp2 centres; no overlaps, none above 11 atoms as in Mantell, Pitt and Wales, J.
// Chem. Theory Comput. 2016, Table 4), the large body of the Table 5 layout, the rigid gradient
// against central differences on AMBER-GB, and a rigidified Trp-cage minimised by L-BFGS to the
// angle-axis RMS tolerance. Skips without the data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "potentials/RigidBodyPotential.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

struct TrpCage {
  AmberTopology topology;
  std::vector<double> x;
};

std::optional<TrpCage> loadTrpCage() {
  const auto prmtop = testDataPath("gb/trpcage/prmtop");
  const auto inpcrd = testDataPath("gb/trpcage/inpcrd");
  if (!prmtop || !inpcrd) return std::nullopt;
  TrpCage t{readAmberTopology(*prmtop), {}};
  t.x = readAmberCoordinates(*inpcrd, t.topology).positions;
  return t;
}

#define LOAD_TRPCAGE(name)                                                          \
  auto name##Loaded = loadTrpCage();                                                \
  if (!name##Loaded) GTEST_SKIP() << "no gb/trpcage data under " << testDataRoot(); \
  TrpCage& name = *name##Loaded

TEST(RigidBodyFinder, TrpCageLocalGroups) {
  LOAD_TRPCAGE(trp);
  const RigidBodyFinderResult r = findRigidBodies(trp.topology, trp.x, {});
  EXPECT_EQ(r.peptideBonds, 19);               // 20 residues
  EXPECT_EQ(r.aromaticRings, 3);               // TYR3 ring, TRP6 benzene and pyrrole halves
  EXPECT_EQ(r.sp2Centres, 5);                  // ASN1, GLN5 amides, ASP9, ARG16, C-terminus
  const RigidBodySystem system(r.set, trp.x);  // no collinear bodies
  EXPECT_LE(system.largestBody(), 11u);
  EXPECT_EQ(r.set.bodyCount(), r.descriptions.size());
}

TEST(RigidBodyFinder, LargeBodyBeyondARadius) {
  LOAD_TRPCAGE(trp);
  RigidBodyFinderParams p;
  p.centreResidues = {6};
  p.atomisticRadius = 5.0;
  p.largeBodyRadius = 9.0;
  const RigidBodyFinderResult r = findRigidBodies(trp.topology, trp.x, p);
  EXPECT_GT(r.largeBodyAtoms, 10u);
  EXPECT_LT(r.largeBodyAtoms, trp.x.size() / 3);
  const RigidBodySystem system(r.set, trp.x);
  EXPECT_EQ(system.largestBody(), r.largeBodyAtoms);
  p.centreResidues = {21};
  EXPECT_THROW(findRigidBodies(trp.topology, trp.x, p), std::invalid_argument);
  p.centreResidues.clear();
  EXPECT_THROW(findRigidBodies(trp.topology, trp.x, p), std::invalid_argument);
}

TEST(RigidBodyProtein, TrpCageGradientMatchesCentralDifferences) {
  LOAD_TRPCAGE(trp);
  const RigidBodyFinderResult r = findRigidBodies(trp.topology, trp.x, {});
  AmberGb gb(trp.topology);
  RigidBodyPotential rigid(gb, RigidBodySystem(r.set, trp.x));
  std::vector<double> q = rigid.system().fromAtoms(trp.x);
  const std::size_t B = rigid.system().bodyCount();
  for (std::size_t b = 0; b < B; ++b) q[3 * B + 3 * b] += 0.05;  // away from p = 0
  std::vector<double> g(q.size());
  rigid.energyGradient(q.data(), g.data());
  const double h = 1e-5;
  // Centres, angle-axis components and free atoms of a few bodies/atoms.
  for (std::size_t i : {std::size_t{0}, std::size_t{4}, 3 * B, 3 * B + 7, 3 * B + 3 * (B - 1) + 2,
                        6 * B, 6 * B + 100}) {
    std::vector<double> plus = q, minus = q;
    plus[i] += h;
    minus[i] -= h;
    const double fd = (rigid.energy(plus.data()) - rigid.energy(minus.data())) / (2.0 * h);
    EXPECT_NEAR(g[i], fd, 1e-5 * std::max(1.0, std::fabs(fd))) << "component " << i;
  }
}

TEST(RigidBodyProtein, RigidTrpCageMinimisesToTheAngleAxisTolerance) {
  LOAD_TRPCAGE(trp);
  const RigidBodyFinderResult r = findRigidBodies(trp.topology, trp.x, {});
  AmberGb gb(trp.topology);
  RigidBodyPotential rigid(gb, RigidBodySystem(r.set, trp.x));
  std::vector<double> q = rigid.system().fromAtoms(trp.x);
  LbfgsParams p;
  p.historySize = 100;
  p.rmsTolerance = 1e-5;  // Mantell et al.'s tolerance (kcal/mol/A), in the angle-axis metric
  p.maxIterations = 50000;
  const LbfgsResult result = Lbfgs(p).minimize(rigid, q);
  std::printf("rigid trp-cage: %d steps, E %.6f\n", result.iterations, result.energy);
  EXPECT_TRUE(result.converged()) << lbfgsStatusName(result.status) << " after "
                                  << result.iterations << " steps, RMS " << result.rmsGradient;
  std::vector<double> g(q.size());
  const double e = rigid.energyGradient(q.data(), g.data());
  EXPECT_LT(rigid.rmsGradient(q.data(), g.data()), 1e-5);
  EXPECT_NEAR(e, gb.energy(rigid.system().toAtoms(q).data()), 1e-9);
  // Bodies stayed rigid: bonded distances inside each body equal the reference ones.
  const std::vector<double> x = rigid.system().toAtoms(q);
  for (std::size_t b = 0; b < r.set.bodyCount(); ++b) {
    const auto& atoms = r.set.body(b);
    auto dist = [&](const std::vector<double>& y, std::size_t i, std::size_t j) {
      double d2 = 0.0;
      for (int k = 0; k < 3; ++k) d2 += std::pow(y[3 * i + k] - y[3 * j + k], 2);
      return std::sqrt(d2);
    };
    EXPECT_NEAR(dist(x, atoms[0], atoms[1]), dist(trp.x, atoms[0], atoms[1]), 1e-9);
  }
}

// The large-body layout of Mantell et al. 2016, Table 5 on Trp-cage (site residue 1, local bodies
// from 4 A, one body of 265 atoms beyond 6 A, 34 free atoms) at GMIN's settings and m = 4. Without
// the diagonal metric the rigid L-BFGS needed 18075 steps (1 start, bench_rigid,
// docs/rigid-bodies.md) against 16774 atomistic ones and 875 at m = 100; with it 1642. The test
// asserts what must hold physically: the rigid minimisation (114 degrees of freedom) of the same
// start converges in the angle-axis metric in fewer steps than the atomistic one (912), and the
// mapped atoms give the same energy. Slow: the atomistic run takes ~1 minute on one core.
TEST(SlowRigidBodyProtein, LargeBodyTrpCageAtHistory4ConvergesFasterThanAtomistic) {
  LOAD_TRPCAGE(trp);
  RigidBodyFinderParams f;
  f.centreResidues = {1};
  f.atomisticRadius = 4.0;
  f.largeBodyRadius = 6.0;
  const RigidBodyFinderResult r = findRigidBodies(trp.topology, trp.x, f);
  ASSERT_GT(r.largeBodyAtoms, trp.x.size() / 6);  // most of the protein is one body
  AmberGb gb(trp.topology);
  RigidBodyPotential rigid(gb, RigidBodySystem(r.set, trp.x));
  Random random(1);
  std::vector<double> x = trp.x;
  for (double& v : x) v += 0.1 * random.symmetric();
  std::vector<double> q = rigid.system().fromAtoms(x);
  x = rigid.system().toAtoms(q);
  LbfgsParams p;
  p.historySize = 4;
  p.maxStep = 0.4;
  p.maxRise = 1e-4;
  p.rmsTolerance = 1e-5;
  p.maxIterations = 100000;
  const LbfgsResult rr = Lbfgs(p).minimize(rigid, q);
  const LbfgsResult ra = Lbfgs(p).minimize(gb, x);
  std::printf("large-body trp-cage, m = 4: rigid %d steps (E %.6f), atomistic %d (E %.6f)\n",
              rr.iterations, rr.energy, ra.iterations, ra.energy);
  ASSERT_TRUE(ra.converged()) << lbfgsStatusName(ra.status);
  ASSERT_TRUE(rr.converged()) << lbfgsStatusName(rr.status) << ", RMS " << rr.rmsGradient;
  EXPECT_LT(rr.iterations, ra.iterations);
  std::vector<double> g(q.size());
  const double e = rigid.energyGradient(q.data(), g.data());
  EXPECT_LT(rigid.rmsGradient(q.data(), g.data()), 1e-5);
  EXPECT_NEAR(e, gb.energy(rigid.system().toAtoms(q).data()), 1e-9);
}

}  // namespace
}  // namespace landscape
