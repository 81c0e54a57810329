// Hybrid eigenvector-following run whole by a team (landscape/paths/HybridEfTeamTerms.h) on the
// candidates of the first DNEB band of OPTIM's LJ38 example (tests/data/lj38/optim; its
// optim.out refines five candidates, the highest transition state at -168.2771069): the CPU twin
// reaches the transition states HybridEigenvectorFollowing reaches with the CPU potential, a
// search's bits do not depend on the searches beside it, and the GPU kernel is the twin bit for
// bit. About 1 s.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/minimisation/LbfgsCpuWorkspace.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/HybridEfTwin.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"
#include "potentials/LennardJones.h"
#include "tests/Lj38Example.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedHybridEfCuda.h"
#endif

namespace landscape {
namespace {

// The example's first band and the jobs of its candidates (the images and their tangents).
struct Candidates {
  DnebResult band;
  std::vector<TransitionStateJob> jobs;
};

Candidates firstBandCandidates(const Lj38Example& example) {
  LennardJones lj(38);
  Candidates c{Dneb(example.params).run(lj, example.start, example.finish), {}};
  for (int k : c.band.candidates)
    c.jobs.push_back({c.band.images[k].data(), c.band.tangents[k].data()});
  return c;
}

double largestDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

TEST(HybridEfLj38, TwinReachesTheReferenceTransitionStates) {
  const std::optional<Lj38Example> example = lj38Example();
  if (!example) GTEST_SKIP() << "tests/data/lj38/optim not found";
  const Candidates c = firstBandCandidates(*example);
  ASSERT_GE(c.jobs.size(), 3u);
  const HybridEigenvectorFollowingParams& params = example->connect.transitionStateSearch;
  HybridEfTwin twin(38, 2, 2);
  std::vector<TransitionStateResult> got;
  twin.search(params, c.jobs, got);
  ASSERT_EQ(got.size(), c.jobs.size());
  LennardJones lj(38);
  const HybridEigenvectorFollowing reference(params);
  int converged = 0;
  for (std::size_t k = 0; k < c.jobs.size(); ++k) {
    SCOPED_TRACE("candidate " + std::to_string(k));
    const int image = c.band.candidates[k];
    const TransitionStateResult want =
        reference.findTransitionState(lj, c.band.images[image], c.band.tangents[image]);
    const TransitionStateResult& r = got[k];
    std::cout << "candidate " << k << ": twin " << transitionStateStatusName(r.status) << " E "
              << r.energy << " lambda " << r.eigenvalue << " after " << r.iterations << " ("
              << r.gradientCalls << " calls); reference " << transitionStateStatusName(want.status)
              << " E " << want.energy << " lambda " << want.eigenvalue << " after "
              << want.iterations << " (" << want.gradientCalls << " calls)\n";
    EXPECT_EQ(r.status, want.status);
    if (!want.converged() || !r.converged()) continue;
    ++converged;
    // The same saddle: energies to 1e-9 (the RMS gradient is below 1e-5 at both), coordinates to
    // 1e-5 sigma, the eigenvalue to 1% (the eigenvector search's own tolerance).
    EXPECT_NEAR(r.energy, want.energy, 1e-9);
    EXPECT_LT(largestDifference(r.coordinates, want.coordinates), 1e-5);
    EXPECT_NEAR(r.eigenvalue, want.eigenvalue, 0.01 * std::abs(want.eigenvalue));
    EXPECT_LT(r.eigenvalue, 0.0);
    EXPECT_LT(r.rmsGradient, params.rmsTolerance);
    // The point is stationary for the CPU potential too.
    std::vector<double> g(114);
    lj.energyGradient(r.coordinates.data(), g.data());
    double g2 = 0.0;
    for (double gi : g) g2 += gi * gi;
    EXPECT_LT(std::sqrt(g2 / 114.0), params.rmsTolerance);
    const double overlap = std::abs(std::inner_product(r.eigenvector.begin(), r.eigenvector.end(),
                                                       want.eigenvector.begin(), 0.0));
    EXPECT_GT(overlap, 0.99);
  }
  EXPECT_GE(converged, 3);
  EXPECT_NEAR(got.front().energy, -168.2771069, 1e-6);
}

// A search's bits do not depend on the searches beside it or on the twin's threads; a missing
// guess takes the seeded random vector; bad jobs and settings are refused with a sentence.
TEST(HybridEfLj38, TwinSearchesAreTheirOwn) {
  const std::optional<Lj38Example> example = lj38Example();
  if (!example) GTEST_SKIP() << "tests/data/lj38/optim not found";
  const Candidates c = firstBandCandidates(*example);
  ASSERT_GE(c.jobs.size(), 2u);
  HybridEigenvectorFollowingParams params = example->connect.transitionStateSearch;
  params.maxIterations = 12;
  HybridEfTwin one(38, 2, 1), two(38, 2, 2);
  std::vector<TransitionStateResult> alone, together;
  one.search(params, {c.jobs[1]}, alone);
  two.search(params, {c.jobs[0], c.jobs[1], c.jobs[0]}, together);
  ASSERT_EQ(together.size(), 3u);
  EXPECT_EQ(together[1].coordinates, alone[0].coordinates);
  EXPECT_EQ(together[1].eigenvector, alone[0].eigenvector);
  EXPECT_EQ(together[1].energy, alone[0].energy);
  EXPECT_EQ(together[1].gradientCalls, alone[0].gradientCalls);
  EXPECT_EQ(together[0].coordinates, together[2].coordinates);
  // Where the host search would keep its L-BFGS vectors (--lbfgs-backend) changes nothing here.
  HybridEigenvectorFollowingParams elsewhere = params;
  elsewhere.tangentWorkspace = [](Potential& p, int m) {
    return std::make_unique<LbfgsCpuWorkspace>(p, m);
  };
  std::vector<TransitionStateResult> same;
  one.search(elsewhere, {c.jobs[1]}, same);
  EXPECT_EQ(same[0].coordinates, alone[0].coordinates);
  std::vector<TransitionStateResult> random;
  one.search(params, {{c.jobs[0].start, nullptr}}, random);
  EXPECT_TRUE(std::isfinite(random[0].energy));
  EXPECT_THROW(one.search(params, {{nullptr, c.jobs[0].guess}}, random), std::invalid_argument);
  params.maxIterations = 0;
  EXPECT_THROW(one.search(params, c.jobs, random), std::invalid_argument);
  EXPECT_THROW(HybridEfTwin(38, 33), std::invalid_argument);
}

#ifdef LANDSCAPE_HAVE_CUDA
// The search kernel against its CPU twin: points, eigenvectors and scalars bit for bit for the
// band's candidates in one launch, for 1, 2 and 4 warps per search, the arrays in shared memory,
// in global memory, and in shared memory but for a long L-BFGS history (UPDATES 100). Skips
// without a device.
TEST(HybridEfLj38Cuda, SearchKernelIsItsTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  const std::optional<Lj38Example> example = lj38Example();
  if (!example) GTEST_SKIP() << "tests/data/lj38/optim not found";
  const Candidates c = firstBandCandidates(*example);
  std::vector<TransitionStateJob> jobs = c.jobs;
  jobs.push_back({c.jobs[0].start, nullptr});
  for (int variant = 0; variant < 5; ++variant) {
    const int warps = variant < 3 ? 1 << variant : (variant == 3 ? 2 : 1);
    const bool inShared = variant != 3;
    HybridEigenvectorFollowingParams params = example->connect.transitionStateSearch;
    if (variant == 4) params.rayleighRitz.lbfgs.historySize = params.tangentSpace.historySize = 100;
    SCOPED_TRACE("warps " + std::to_string(warps) + (inShared ? ", shared" : ", global") +
                 ", history " + std::to_string(params.tangentSpace.historySize));
    HybridEfTwin twin(38, warps, 2);
    HybridEfSearchesCuda device(38, warps, inShared);
    std::vector<TransitionStateResult> expected, got;
    twin.search(params, jobs, expected);
    device.search(params, jobs, got);
    ASSERT_EQ(got.size(), jobs.size());
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      SCOPED_TRACE("search " + std::to_string(k));
      EXPECT_EQ(got[k].status, expected[k].status);
      EXPECT_EQ(got[k].coordinates, expected[k].coordinates);
      EXPECT_EQ(got[k].eigenvector, expected[k].eigenvector);
      EXPECT_EQ(got[k].energy, expected[k].energy);
      EXPECT_EQ(got[k].eigenvalue, expected[k].eigenvalue);
      EXPECT_EQ(got[k].rmsGradient, expected[k].rmsGradient);
      EXPECT_EQ(got[k].lastUphillStep, expected[k].lastUphillStep);
      EXPECT_EQ(got[k].iterations, expected[k].iterations);
      EXPECT_EQ(got[k].gradientCalls, expected[k].gradientCalls);
    }
  }
}
#endif

}  // namespace
}  // namespace landscape
