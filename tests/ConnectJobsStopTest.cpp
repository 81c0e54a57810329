// A stop request (landscape/core/StopRequest.h) during a batch of connect runs
// (landscape/paths/ConnectJobs): a run it cuts short counts as one never started (ran = false,
// nothing of it kept), so that network growth puts the pair back and a resumed run repeats it from
// scratch; the repeat finds what an uninterrupted run finds. The stop is requested after a given
// number of energy+gradient calls, never by a timer.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "landscape/core/StopRequest.h"
#include "landscape/paths/ConnectJobs.h"
#include "potentials/LennardJones.h"
#include "tests/Lj7Structures.h"

namespace landscape {
namespace {

// Lennard-Jones that requests a stop at the `stopAt`-th energy+gradient call counted over all the
// potentials sharing `calls` (never when < 0), as SIGTERM would in the middle of a run.
class StopAfterSharedCalls : public LennardJones {
 public:
  StopAfterSharedCalls(std::shared_ptr<long> calls, long stopAt)
      : LennardJones(7), m_calls(std::move(calls)), m_stopAt(stopAt) {}
  double energyGradient(const double* x, double* g) override {
    if (++*m_calls == m_stopAt) requestStop();
    return LennardJones::energyGradient(x, g);
  }

 private:
  std::shared_ptr<long> m_calls;
  long m_stopAt;
};

class ConnectJobsStop : public ::testing::Test {
 protected:
  void SetUp() override { clearStopRequest(); }
  void TearDown() override { clearStopRequest(); }

  // LJ7's two lowest minima (pentagonal bipyramid -16.505384, capped octahedron -15.935043).
  static TransitionNetwork lj7Ends() {
    TransitionNetwork network;
    network.addMinimum(lj7PentagonalBipyramid(), -16.505384);
    network.addMinimum(lj7CappedOctahedron(), -15.935043);
    return network;
  }
  static ConnectParams params() {
    ConnectParams p;
    p.firstImages = 0;
    p.firstIterations = 0;
    return p;
  }
  std::vector<ConnectJobResult> run(long stopAt, std::shared_ptr<long> calls) {
    const TransitionNetwork network = lj7Ends();
    ThreadPool pool(1);
    const PotentialMaker lj = [calls, stopAt] {
      return std::make_unique<StopAfterSharedCalls>(calls, stopAt);
    };
    // Both directions: on one thread the second run starts after the first one's stop.
    return runConnectJobs(Connect(params()), lj, network, {{0, 1}, {1, 0}}, pool);
  }
};

TEST_F(ConnectJobsStop, ARunStoppedInFlightCountsAsNotRunAndRepeatsToTheSameResult) {
  const auto referenceCalls = std::make_shared<long>(0);
  const std::vector<ConnectJobResult> reference = run(-1, referenceCalls);
  ASSERT_EQ(reference.size(), 2u);
  for (const ConnectJobResult& job : reference) {
    ASSERT_TRUE(job.ran);
    ASSERT_TRUE(job.result.connected());
    ASSERT_GE(job.transitionStates.size(), 1u);
  }
  const long firstRunCalls = reference[0].result.gradientCalls;
  ASSERT_GT(firstRunCalls, 10);

  // The stop comes halfway through the first run: neither run is kept.
  const auto calls = std::make_shared<long>(0);
  const std::vector<ConnectJobResult> stopped = run(firstRunCalls / 2, calls);
  ASSERT_TRUE(stopRequested());
  EXPECT_LT(*calls, *referenceCalls) << "the runs ended early";
  for (const ConnectJobResult& job : stopped) {
    EXPECT_FALSE(job.ran);
    EXPECT_TRUE(job.minima.empty());
    EXPECT_TRUE(job.transitionStates.empty());
  }

  // A stop requested before the batch: no run is kept (the program's own callback is not needed).
  const std::vector<ConnectJobResult> none = run(-1, std::make_shared<long>(0));
  for (const ConnectJobResult& job : none) EXPECT_FALSE(job.ran);

  // Run again once the request is cleared (a resumed growth): the uninterrupted runs' results.
  clearStopRequest();
  const std::vector<ConnectJobResult> again = run(-1, std::make_shared<long>(0));
  ASSERT_EQ(again.size(), reference.size());
  for (std::size_t i = 0; i < again.size(); ++i) {
    EXPECT_TRUE(again[i].ran);
    ASSERT_EQ(again[i].transitionStates.size(), reference[i].transitionStates.size());
    for (std::size_t t = 0; t < again[i].transitionStates.size(); ++t)
      EXPECT_EQ(again[i].transitionStates[t].energy, reference[i].transitionStates[t].energy);
    ASSERT_EQ(again[i].minima.size(), reference[i].minima.size());
    for (std::size_t m = 0; m < again[i].minima.size(); ++m)
      EXPECT_EQ(again[i].minima[m].coordinates, reference[i].minima[m].coordinates);
  }
}

}  // namespace
}  // namespace landscape
