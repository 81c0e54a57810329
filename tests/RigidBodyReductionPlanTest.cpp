// The GPU reduction plan (gpu/RigidBodyReductionPlan) executed on the host with the kernels'
// arithmetic replaced by plain sums: every body ends with exactly the sums of eqs 6-7 that the CPU
// projection computes, for bodies on the warp path (<= 32 atoms), one block (<= 256), two or more
// blocks (257, 1024) and three passes (70000 atoms: 274 chunks, then 2, then 1). Runs without GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "gpu/RigidBodyReductionPlan.h"
#include "landscape/core/Random.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/RigidBodyTerms.h"

namespace landscape {
namespace {

void expectPlanReproducesProjection(const std::vector<std::size_t>& sizes, std::size_t freeAtoms) {
  const std::size_t n = std::accumulate(sizes.begin(), sizes.end(), freeAtoms);
  Random random(3);
  std::vector<double> x(3 * n), gAtoms(3 * n);
  for (double& v : x) v = 10.0 * random.symmetric();
  for (double& v : gAtoms) v = random.symmetric();
  RigidBodySet set(n);
  std::size_t next = 0;
  for (std::size_t s : sizes) {
    std::vector<std::size_t> atoms(s);
    std::iota(atoms.begin(), atoms.end(), next);
    set.addBody(atoms);
    next += s;
  }
  const RigidBodySystem system(set, x);
  std::vector<double> q = system.fromAtoms(x);
  for (std::size_t i = 3 * system.bodyCount(); i < 6 * system.bodyCount(); ++i)
    q[i] += 0.3 * random.symmetric();
  std::vector<double> expected(system.dimension());
  system.projectGradient(q.data(), gAtoms.data(), expected.data());

  // The per-entry terms the kernels form (chainTerms).
  const std::size_t B = system.bodyCount();
  std::vector<double> terms(6 * system.bodyAtoms().size());
  for (std::size_t b = 0; b < B; ++b) {
    double R[9], D[3][9];
    rotationMatrixAndDerivatives(&q[3 * B + 3 * b], R, D[0], D[1], D[2]);
    for (std::size_t e = system.bodyStart()[b]; e < system.bodyStart()[b + 1]; ++e) {
      const double* g = &gAtoms[3 * system.bodyAtoms()[e]];
      for (int k = 0; k < 3; ++k) {
        terms[6 * e + k] = g[k];
        double d[3];
        matVec3(D[k], &system.referenceOffsets()[3 * e], d);
        terms[6 * e + 3 + k] = g[0] * d[0] + g[1] * d[1] + g[2] * d[2];
      }
    }
  }
  std::vector<double> got(6 * B, std::nan(""));
  auto write = [&](int b, const double* s) {
    for (int c = 0; c < 6; ++c) got[6 * b + c] = s[c];
  };
  const RigidReductionPlan plan = makeRigidReductionPlan(system);
  for (int b : plan.warpBodies) {
    ASSERT_LE(system.bodySize(b), 32u);
    double s[6] = {0, 0, 0, 0, 0, 0};
    for (std::size_t e = system.bodyStart()[b]; e < system.bodyStart()[b + 1]; ++e)
      for (int c = 0; c < 6; ++c) s[c] += terms[6 * e + c];
    write(b, s);
  }
  std::vector<double> in, out;
  for (std::size_t k = 0; k < plan.passes.size(); ++k) {
    out.assign(6 * plan.maxPartials, std::nan(""));
    for (const RigidPassBlock& blk : plan.passes[k]) {
      ASSERT_GE(blk.count, 1);
      ASSERT_LE(blk.count, kRigidBlockSize);
      const std::vector<double>& src = k == 0 ? terms : in;
      ASSERT_LE(6 * static_cast<std::size_t>(blk.begin + blk.count), src.size());
      double s[6] = {0, 0, 0, 0, 0, 0};
      for (int t = 0; t < blk.count; ++t)
        for (int c = 0; c < 6; ++c) s[c] += src[6 * (blk.begin + t) + c];
      if (blk.out < 0) {
        write(blk.body, s);
      } else {
        ASSERT_LT(static_cast<std::size_t>(blk.out), plan.maxPartials);
        for (int c = 0; c < 6; ++c) out[6 * blk.out + c] = s[c];
      }
    }
    in = out;
  }
  for (std::size_t b = 0; b < B; ++b)
    for (int c = 0; c < 6; ++c) {
      const double want = c < 3 ? expected[3 * b + c] : expected[3 * B + 3 * b + c - 3];
      EXPECT_NEAR(got[6 * b + c], want, 1e-9 * (1.0 + std::fabs(want)))
          << "body " << b << " (" << system.bodySize(b) << " atoms), component " << c;
    }
}

TEST(RigidBodyReductionPlan, WarpPathBodies) { expectPlanReproducesProjection({3, 11, 32}, 5); }

TEST(RigidBodyReductionPlan, OneBlockBodies) { expectPlanReproducesProjection({33, 256, 4}, 0); }

TEST(RigidBodyReductionPlan, TwoPassBodies) {
  expectPlanReproducesProjection({257, 1024, 5000, 3}, 7);
}

TEST(RigidBodyReductionPlan, ThreePassBody) {
  expectPlanReproducesProjection({70000, 300, 12}, 2);
  RigidBodySet set(70000);
  std::vector<std::size_t> all(70000);
  std::iota(all.begin(), all.end(), std::size_t{0});
  set.addBody(all);
  std::vector<double> x(3 * 70000);
  Random random(1);
  for (double& v : x) v = random.symmetric();
  EXPECT_EQ(makeRigidReductionPlan(RigidBodySystem(set, x)).passes.size(), 3u);
}

}  // namespace
}  // namespace landscape
