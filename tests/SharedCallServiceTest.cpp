// Whole DNEB bands and whole hybrid EF searches in shared calls (landscape/paths/SharedDnebBands,
// landscape/paths/SharedTransitionStateSearches, both landscape/paths/SharedCallService) over the
// kernels' CPU twins: runs as fibres and as threads, each with its own membership of a shared
// batched potential, ask for bands or searches while others evaluate structures; every job comes
// back with the bits the twin gives it alone (a job's arithmetic is its own), on one lane or
// several, nothing waits forever, and an error of the engine reaches every run of its call.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "landscape/core/Fibres.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/AlignmentTwin.h"
#include "landscape/paths/DnebBandTwin.h"
#include "landscape/paths/HybridEfTwin.h"
#include "landscape/paths/SharedDnebBands.h"
#include "landscape/paths/SharedTransitionStateSearches.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/SharedBatchedPotential.h"
#include "tests/BatchedStructures.h"

namespace landscape {
namespace {

constexpr std::size_t kAtoms = 13;

struct Ends {
  std::vector<std::vector<double>> minima;
  std::vector<DnebBandJob> jobs;  // band k: minima k -> k + 1 (aligned), 3 + k images
};

Ends endsOf(int bands) {
  Ends e;
  for (int k = 0; k <= bands; ++k) e.minima.push_back(batchtest::quenchedMinimum(kAtoms, 11 + k));
  for (int k = 0; k < bands; ++k)
    e.minima.push_back(alignStructures(e.minima[k], e.minima[k + 1], AlignmentParams{}).alignedB);
  for (int k = 0; k < bands; ++k)
    e.jobs.push_back({e.minima[k].data(), e.minima[bands + 1 + k].data(), 3 + k, 60});
  return e;
}

void expectSameBand(const DnebRelaxedBand& a, const DnebRelaxedBand& b) {
  EXPECT_EQ(a.band, b.band);
  EXPECT_EQ(a.energies, b.energies);
  EXPECT_EQ(a.tangents, b.tangents);
  EXPECT_EQ(a.outcome.run.iterations, b.outcome.run.iterations);
  EXPECT_EQ(a.outcome.run.functionCalls, b.outcome.run.functionCalls);
  EXPECT_EQ(a.outcome.rmsGradient, b.outcome.rmsGradient);
}

TEST(SharedDnebBands, FibresAndThreadsGetTheirOwnBandsWhileOthersEvaluate) {
  const Ends ends = endsOf(6);
  const DnebParams params;
  DnebBandTwin alone(kAtoms, 2);
  std::vector<DnebRelaxedBand> expected;
  alone.relax(params, ends.jobs, expected);

  BatchedLennardJones lj(kAtoms, 1);
  SharedBatchedPotential shared(lj);
  DnebBandTwin twin(kAtoms, 2);
  SharedDnebBands bands(twin);
  std::vector<DnebRelaxedBand> got(ends.jobs.size());
  std::vector<double> energies(ends.jobs.size());
  // Each run: an energy through the shared potential, its band, another energy.
  const auto run = [&](std::size_t k) {
    SharedBatchedPotential::Member member(shared);
    const std::unique_ptr<Potential> potential = member.potential();
    const std::unique_ptr<DnebBands> view = bands.view(member);
    std::vector<double> g(3 * kAtoms);
    energies[k] = potential->energyGradient(ends.minima[k].data(), g.data());
    std::vector<DnebRelaxedBand> out;
    view->relax(params, {ends.jobs[k]}, out);
    got[k] = out.front();
    energies[k] -= potential->energyGradient(ends.minima[k].data(), g.data());
  };
  std::vector<FibreScheduler::Task> fibres;
  for (std::size_t k = 0; k < 4; ++k) fibres.push_back([&, k] { run(k); });
  std::thread fibreThread([&] { FibreScheduler::run(fibres); });
  std::vector<std::thread> threads;
  for (std::size_t k = 4; k < ends.jobs.size(); ++k) threads.emplace_back(run, k);
  fibreThread.join();
  for (std::thread& t : threads) t.join();
  for (std::size_t k = 0; k < ends.jobs.size(); ++k) {
    SCOPED_TRACE("band " + std::to_string(k));
    expectSameBand(got[k], expected[k]);
    EXPECT_EQ(energies[k], 0.0);  // the same structure, the same bits, before and after
  }
  const SharedCallStatistics s = bands.statistics();
  EXPECT_EQ(s.jobs, static_cast<long>(ends.jobs.size()));
  EXPECT_GE(s.calls, 1);
  EXPECT_LE(s.calls, s.jobs);
}

// The twin of the whole-band kernel with its endpoints aligned by the alignment twin directly:
// what a run's view of SharedDnebBands with an endpoint alignment must reproduce.
class BandsAligningEndpoints : public DnebBands {
 public:
  BandsAligningEndpoints(DnebBands& bands, BatchedAlignment& alignment)
      : m_bands(bands), m_alignment(alignment) {}
  std::size_t imageSize() const override { return m_bands.imageSize(); }
  std::string name() const override { return m_bands.name(); }
  void relax(const DnebParams& params, const std::vector<DnebBandJob>& jobs,
             std::vector<DnebRelaxedBand>& out) override {
    m_bands.relax(params, jobs, out);
  }
  BatchedAlignment* endpointAlignment() override { return &m_alignment; }

 private:
  DnebBands& m_bands;
  BatchedAlignment& m_alignment;
};

// Runs as fibres and threads, each a DNEB run between a minimum and a rotated, permuted copy of
// the next: their endpoints are aligned in shared calls of the alignment twin, and every band is
// the one of the twins called directly, bit for bit; against alignStructures' endpoints the
// distance agrees to round-off.
TEST(SharedDnebBands, EndpointsAlignedInSharedCallsGiveTheTwinsBands) {
  const Ends ends = endsOf(6);
  std::vector<std::vector<double>> finishes;
  for (std::size_t k = 0; k + 1 < 7; ++k) {
    std::vector<double> moved(3 * kAtoms);
    for (std::size_t i = 0; i < kAtoms;
         ++i) {  // atom i from atom (5 i + 2) mod 13, turned 90 degrees
      const double* x = ends.minima[k + 1].data() + 3 * ((5 * i + 2) % kAtoms);
      moved[3 * i] = -x[1] + 0.5;
      moved[3 * i + 1] = x[0];
      moved[3 * i + 2] = x[2] - 1.0;
    }
    finishes.push_back(moved);
  }
  DnebParams params;
  params.images = 4;
  params.iterations = 60;
  DnebBandTwin bandTwin(kAtoms, 2);
  AlignmentTwin alignmentTwin(kAtoms);
  BandsAligningEndpoints direct(bandTwin, alignmentTwin);
  std::vector<DnebResult> expected;
  for (std::size_t k = 0; k < finishes.size(); ++k)
    expected.push_back(Dneb(params).run(ends.minima[k], finishes[k], direct));

  BatchedLennardJones lj(kAtoms, 1);
  SharedBatchedPotential shared(lj);
  DnebBandTwin twin(kAtoms, 2);
  AlignmentTwin alignment(kAtoms);
  SharedDnebBands bands(twin, &alignment);
  std::vector<DnebResult> got(finishes.size());
  const auto run = [&](std::size_t k) {
    SharedBatchedPotential::Member member(shared);
    const std::unique_ptr<DnebBands> view = bands.view(member);
    got[k] = Dneb(params).run(ends.minima[k], finishes[k], *view);
  };
  std::vector<FibreScheduler::Task> fibres;
  for (std::size_t k = 0; k < 3; ++k) fibres.push_back([&, k] { run(k); });
  std::thread fibreThread([&] { FibreScheduler::run(fibres); });
  std::vector<std::thread> threads;
  for (std::size_t k = 3; k < finishes.size(); ++k) threads.emplace_back(run, k);
  fibreThread.join();
  for (std::thread& t : threads) t.join();
  for (std::size_t k = 0; k < finishes.size(); ++k) {
    SCOPED_TRACE("run " + std::to_string(k));
    EXPECT_EQ(got[k].images, expected[k].images);
    EXPECT_EQ(got[k].energies, expected[k].energies);
    EXPECT_EQ(got[k].endpointDistance, expected[k].endpointDistance);
    const double host = alignStructures(ends.minima[k], finishes[k], params.alignment).distance;
    EXPECT_NEAR(got[k].endpointDistance, host, 1e-12 * host);
  }
  const SharedCallStatistics s = bands.alignmentStatistics();
  EXPECT_EQ(s.jobs, static_cast<long>(finishes.size()));
  EXPECT_GE(s.calls, 1);
}

// A relaxer that fails: every run of its call hears the error, and the service goes on.
class FailingBands : public DnebBands {
 public:
  std::size_t imageSize() const override { return 3 * kAtoms; }
  std::string name() const override { return "failing"; }
  void relax(const DnebParams&, const std::vector<DnebBandJob>&,
             std::vector<DnebRelaxedBand>&) override {
    throw std::runtime_error("device lost");
  }
};

TEST(SharedDnebBands, AnErrorReachesTheRunThatAsked) {
  const Ends ends = endsOf(1);
  BatchedLennardJones lj(kAtoms, 1);
  SharedBatchedPotential shared(lj);
  FailingBands failing;
  SharedDnebBands bands(failing);
  SharedBatchedPotential::Member member(shared);
  const std::unique_ptr<DnebBands> view = bands.view(member);
  std::vector<DnebRelaxedBand> out;
  for (int attempt = 0; attempt < 2; ++attempt)
    EXPECT_THROW(view->relax(DnebParams{}, ends.jobs, out), std::runtime_error);
  EXPECT_THROW(view->relax(DnebParams{}, {{ends.jobs[0].start, nullptr, 3, 5}}, out),
               std::invalid_argument);
}

// Runs as fibres and threads, each searching from the highest image of its band (with its
// tangent) while the others evaluate, over two lanes of twins: the searches' bits are the twin's
// alone.
TEST(SharedTransitionStateSearches, RunsGetTheirOwnSearchesOverSeveralLanes) {
  const Ends ends = endsOf(6);
  std::vector<DnebRelaxedBand> bands;
  DnebBandTwin(kAtoms, 2).relax(DnebParams{}, ends.jobs, bands);
  const std::size_t n = 3 * kAtoms;
  std::vector<TransitionStateJob> jobs;
  for (const DnebRelaxedBand& b : bands) {
    int top = 1;
    for (int i = 1; i + 1 < static_cast<int>(b.energies.size()); ++i)
      if (b.energies[i] > b.energies[top]) top = i;
    jobs.push_back({b.band.data() + (top - 1) * n, b.tangents.data() + (top - 1) * n});
  }
  HybridEigenvectorFollowingParams params;
  params.maxIterations = 30;
  std::vector<TransitionStateResult> expected;
  HybridEfTwin(kAtoms).search(params, jobs, expected);
  int converged = 0;
  for (const TransitionStateResult& r : expected) converged += r.converged() ? 1 : 0;
  EXPECT_GE(converged, 3);

  BatchedLennardJones lj(kAtoms, 1);
  SharedBatchedPotential shared(lj);
  std::vector<std::unique_ptr<TransitionStateSearches>> lanes;
  lanes.push_back(std::make_unique<HybridEfTwin>(kAtoms));
  lanes.push_back(std::make_unique<HybridEfTwin>(kAtoms));
  SharedTransitionStateSearches searches(std::move(lanes));
  std::vector<TransitionStateResult> got(jobs.size());
  std::vector<double> energies(jobs.size());
  const auto run = [&](std::size_t k) {
    SharedBatchedPotential::Member member(shared);
    const std::unique_ptr<Potential> potential = member.potential();
    const std::unique_ptr<TransitionStateSearches> view = searches.view(member);
    std::vector<double> g(n);
    energies[k] = potential->energyGradient(jobs[k].start, g.data());
    std::vector<TransitionStateResult> out;
    view->search(params, {jobs[k]}, out);
    got[k] = out.front();
    energies[k] -= potential->energyGradient(jobs[k].start, g.data());
  };
  std::vector<FibreScheduler::Task> fibres;
  for (std::size_t k = 0; k < 3; ++k) fibres.push_back([&, k] { run(k); });
  std::thread fibreThread([&] { FibreScheduler::run(fibres); });
  std::vector<std::thread> threads;
  for (std::size_t k = 3; k < jobs.size(); ++k) threads.emplace_back(run, k);
  fibreThread.join();
  for (std::thread& t : threads) t.join();
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    SCOPED_TRACE("search " + std::to_string(k));
    EXPECT_EQ(got[k].status, expected[k].status);
    EXPECT_EQ(got[k].coordinates, expected[k].coordinates);
    EXPECT_EQ(got[k].eigenvector, expected[k].eigenvector);
    EXPECT_EQ(got[k].gradientCalls, expected[k].gradientCalls);
    EXPECT_EQ(energies[k], 0.0);
  }
  const SharedCallStatistics s = searches.statistics();
  EXPECT_EQ(s.jobs, static_cast<long>(jobs.size()));
  EXPECT_GE(s.calls, 1);
  EXPECT_THROW(SharedTransitionStateSearches({}), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
