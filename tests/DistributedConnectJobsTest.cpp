// src/common/DistributedConnectJobs: connect runs spread over K ranks (threads standing in for them)
// give every rank the runs of one process, bit for bit; merged in pair order, every rank's network
// is the one-process network, it holds everything the ranks reported, and no stationary point
// twice (tests/MpiPathsampleTest.cpp's check, at the level of the jobs).
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "landscape/paths/ConnectJobs.h"
#include "potentials/LennardJones.h"
#include "src/common/DistributedConnectJobs.h"
#include "tests/Lj7Structures.h"
#include "tests/ThreadRanks.h"

namespace landscape {
namespace {

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

void expectSameJob(const ConnectJobResult& a, const ConnectJobResult& b) {
  EXPECT_EQ(a.ran, b.ran);
  EXPECT_EQ(a.result.status, b.result.status);
  EXPECT_EQ(a.result.cycles, b.result.cycles);
  EXPECT_EQ(a.result.gradientCalls, b.result.gradientCalls);
  ASSERT_EQ(a.result.path.size(), b.result.path.size());
  for (std::size_t i = 0; i < a.result.path.size(); ++i)
    EXPECT_EQ(a.result.path[i].transitionState, b.result.path[i].transitionState);
  ASSERT_EQ(a.minima.size(), b.minima.size());
  for (std::size_t i = 0; i < a.minima.size(); ++i)
    EXPECT_TRUE(sameBits(a.minima[i].coordinates, b.minima[i].coordinates)) << "minimum " << i;
  ASSERT_EQ(a.transitionStates.size(), b.transitionStates.size());
  for (std::size_t i = 0; i < a.transitionStates.size(); ++i) {
    const NetworkTransitionState &s = a.transitionStates[i], &t = b.transitionStates[i];
    EXPECT_TRUE(sameBits({s.energy, s.eigenvalue}, {t.energy, t.eigenvalue})) << "ts " << i;
    EXPECT_TRUE(sameBits(s.coordinates, t.coordinates)) << "ts " << i;
    EXPECT_EQ(s.plusMinimum, t.plusMinimum);
    EXPECT_EQ(s.minusMinimum, t.minusMinimum);
  }
}

// The two lowest LJ7 minima; the pair connected both ways and once more, so that runs on
// different ranks report the same stationary points.
struct Lj7Growth {
  TransitionNetwork network;
  Connect connect{[] {
    ConnectParams p;
    p.firstImages = 0;  // distance-scaled from the first run
    p.firstIterations = 0;
    return p;
  }()};
  PotentialMaker lj = [] { return std::make_unique<LennardJones>(7); };
  std::vector<std::array<int, 2>> pairs = {{0, 1}, {1, 0}, {0, 1}};
  Lj7Growth() {
    network.addMinimum(lj7PentagonalBipyramid(), -16.505384);
    network.addMinimum(lj7CappedOctahedron(), -15.935043);
  }
};

TEST(DistributedConnectJobs, EveryRankGetsTheRunsOfOneProcessAndTheSameNetwork) {
  Lj7Growth one;
  ThreadPool pool(1);
  const std::vector<ConnectJobResult> expected =
      runConnectJobs(one.connect, one.lj, one.network, one.pairs, pool);
  ASSERT_TRUE(expected[0].result.connected());
  for (const ConnectJobResult& job : expected) mergeConnectJob(one.network, job);

  for (int size : {2, 3}) {
    std::vector<std::vector<ConnectJobResult>> got(static_cast<std::size_t>(size));
    std::vector<TransitionNetwork> networks(static_cast<std::size_t>(size));
    onThreadRanks(size, [&](Communicator& ranks) {
      Lj7Growth g;
      ThreadPool own(1);
      const std::size_t r = static_cast<std::size_t>(ranks.rank());
      got[r] = runConnectJobsOverRanks(g.connect, potentialOnly(g.lj), g.network, g.pairs, own,
                                       1, ranks);
      for (const ConnectJobResult& job : got[r]) mergeConnectJob(g.network, job);
      networks[r] = g.network;
    });
    for (int r = 0; r < size; ++r) {
      const std::size_t i = static_cast<std::size_t>(r);
      ASSERT_EQ(got[i].size(), expected.size());
      for (std::size_t j = 0; j < expected.size(); ++j) expectSameJob(got[i][j], expected[j]);
      const TransitionNetwork& net = networks[i];
      ASSERT_EQ(net.minima().size(), one.network.minima().size()) << "rank " << r;
      ASSERT_EQ(net.transitionStates().size(), one.network.transitionStates().size());
      for (std::size_t m = 0; m < net.minima().size(); ++m)
        EXPECT_TRUE(sameBits(net.minima()[m].coordinates, one.network.minima()[m].coordinates));
      // Every transition state any rank reported is in the network; every network entry is one
      // reported (or an endpoint); no two entries are the same stationary point.
      for (const ConnectJobResult& job : got[i])
        for (const NetworkTransitionState& t : job.transitionStates)
          if (t.plusMinimum != t.minusMinimum)
            EXPECT_GE(net.findTransitionState(t.coordinates, t.energy), 0);
      for (std::size_t t = 0; t < net.transitionStates().size(); ++t) {
        const NetworkTransitionState& s = net.transitionStates()[t];
        EXPECT_EQ(net.findTransitionState(s.coordinates, s.energy), static_cast<int>(t));
      }
      for (std::size_t m = 0; m < net.minima().size(); ++m)
        EXPECT_EQ(net.findMinimum(net.minima()[m].coordinates, net.minima()[m].energy),
                  static_cast<int>(m));
    }
  }
  // The three runs found the same path: the merge stored its states once.
  EXPECT_EQ(one.network.transitionStates().size(), expected[0].transitionStates.size());
}

TEST(DistributedConnectJobs, RunsRoundTripThroughTheWireAndShortMessagesAreRefused) {
  ConnectJobResult job;
  job.ran = true;
  job.result.status = ConnectStatus::Connected;
  job.result.cycles = 3;
  job.result.gradientCalls = 12345;
  job.result.path = {{0, 0, 2}, {2, 1, 1}};
  job.minima = {{-1.5, {0.1, 0.2, 0.3}}, {-2.5, {1.0, 2.0, 3.0}}, {-0.5, {4.0, 5.0, 6.0}}};
  job.transitionStates = {{-0.25, {7.0, 8.0, 9.0}, -0.75, 0, 2}, {-0.125, {1, 1, 1}, -2.0, 2, 1}};
  ByteWriter out;
  putConnectJob(out, job);
  ByteReader in(out.bytes(), "test");
  expectSameJob(getConnectJob(in), job);
  EXPECT_TRUE(in.done());
  std::vector<char> cut(out.bytes().begin(), out.bytes().end() - 5);
  ByteReader shortIn(cut, "rank 1's connect runs");
  EXPECT_THROW(
      {
        try {
          getConnectJob(shortIn);
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("rank 1's connect runs: message ends early"),
                    std::string::npos);
          throw;
        }
      },
      std::runtime_error);
}

}  // namespace
}  // namespace landscape
