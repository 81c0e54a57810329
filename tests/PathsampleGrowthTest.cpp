// Network growth (`pathsample grow`): PATHSAMPLE's UNTRAP selection against the log of the
// wales-group LJ38 UNTRAP example, SHORTCUT / SHORTCUT BARRIER / DIJKSTRA on small networks whose
// answers follow from their construction, connect jobs independent of the thread count, the
// growth record in network.h5, optim keeping endpoint sets, and `pathsample grow` with --resume
// after kill -9.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "gpu/GpuDevice.h"
#include "landscape/core/ThreadPool.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/geometry/AlignmentTwin.h"
#include "landscape/network/Database.h"
#include "landscape/network/GraphTransformation.h"
#include "landscape/network/HarmonicRates.h"
#include "landscape/network/KineticPathPairs.h"
#include "landscape/network/UntrapPairs.h"
#include "landscape/paths/ConnectJobs.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/LennardJones.h"
#include "potentials/SharedBatchedPotential.h"
#include "src/common/Communicator.h"
#include "src/optim/OptimConfig.h"
#include "src/optim/OptimDatabase.h"
#include "src/optim/OptimSystem.h"
#include "src/pathsample/EndedConnectRuns.h"
#include "src/pathsample/PathsampleGrowth.h"
#include "src/pathsample/PathsampleOptions.h"
#include "tests/AshMinima.h"
#include "tests/TestData.h"
#include "tests/UnitNetworks.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

const std::string kUntrapInput = "/lj38/pathsample-untrap/input";

StoredTransitionNetwork untrapExample() {
  const std::string dir = testDataRoot() + kUntrapInput;
  return readPathsampleFiles(dir, pathsampleAtomCount(dir));
}

// The network of the example's connect settings (PERMDIST, RANROT 5, EDIFFTOL, GEOMDIFFTOL).
TransitionNetwork lj38Network(const StoredTransitionNetwork& stored) {
  TransitionNetwork network(optimLj38ExampleSettings().network);
  for (const StoredNetworkMinimum& m : stored.minima) network.addMinimum(m.coordinates, m.energy);
  return network;
}

// The same with the stored network's transition states too.
TransitionNetwork lj38NetworkWithStates(const StoredTransitionNetwork& stored) {
  TransitionNetwork network = lj38Network(stored);
  for (const StoredTransitionState& t : stored.transitionStates)
    network.addTransitionState(t.coordinates, t.energy, -1.0, t.plusMinimum, t.minusMinimum);
  return network;
}

// PATHSAMPLE's first UNTRAP lists (expected_output/pathsample_untrap.out, 1-based): "saved minima
// pairs and barriers" (candidate, highest product minimum, metric) and "sorted list" partners.
TEST(UntrapPairs, MatchesPathsampleLogOfLj38Example) {
  const StoredTransitionNetwork stored = untrapExample();
  const TransitionNetwork network = lj38Network(stored);
  UntrapParams p;
  p.energyIncrement = 0.035;
  p.energyThreshold = 3.0;
  const UntrapSelection s = untrapPairs(stored, stored.setA, p, {},
                                        [&](int a, int b) { return network.distance(a, b); });
  EXPECT_NEAR(s.lowestProduct, -173.9284266, 1e-7);
  EXPECT_NEAR(s.highestTransitionState, -168.2771069, 1e-7);
  const std::vector<std::array<double, 3>> saved = {
      {8, 2, 6.6621758504},  {10, 2, 3.9300927155}, {6, 2, 0.7643448619}, {9, 2, 0.7432085695},
      {7, 2, 0.2400055009},  {12, 2, 0.1202516846}, {3, 2, 0.0967204348}, {11, 2, 0.0734672422},
      {5, 2, 0.0284581710},  {1, 2, 0.0131871608},  {4, 2, 0.0061125879}};
  const std::vector<std::array<int, 2>> sorted = {{8, 2}, {10, 2}, {6, 4}, {9, 4},  {7, 9}, {12, 4},
                                                  {3, 1}, {11, 4}, {5, 11}, {1, 2}, {4, 2}};
  ASSERT_EQ(s.byMetric.size(), saved.size());
  ASSERT_EQ(s.pairs.size(), sorted.size());
  for (std::size_t i = 0; i < saved.size(); ++i) {
    EXPECT_EQ(s.byMetric[i].first + 1, saved[i][0]) << i;
    EXPECT_EQ(s.byMetric[i].second + 1, saved[i][1]) << i;
    EXPECT_NEAR(s.byMetric[i].score, saved[i][2], 6e-11) << i;  // printed F20.10
    EXPECT_EQ(s.pairs[i].first + 1, sorted[i][0]) << i;
    EXPECT_EQ(s.pairs[i].second + 1, sorted[i][1]) << i;
  }
  // A tried (candidate, first partner) pair is left out, as PATHSAMPLE's PAIR1/PAIR2 check.
  const UntrapSelection again = untrapPairs(stored, stored.setA, p, {{7, 1}},
                                            [&](int a, int b) { return network.distance(a, b); });
  ASSERT_EQ(again.pairs.size(), 10u);
  EXPECT_EQ(again.pairs[0].first, 9);
  EXPECT_THROW(untrapPairs(stored, {}, p, {}, [](int, int) { return 1.0; }), std::invalid_argument);
  p.energyIncrement = 0.0;
  EXPECT_THROW(untrapPairs(stored, stored.setA, p, {}, [](int, int) { return 1.0; }),
               std::invalid_argument);
}

// The distances a selection asks for, computed ahead on threads (TransitionNetwork::
// precomputeDistances, as pathsample grow does), change nothing: the same pairs, partners and
// scores bit for bit; a stop between two leaves the finished ones, and the rest come later.
TEST(UntrapPairs, DistancesComputedAheadOnThreadsChangeNothing) {
  const StoredTransitionNetwork stored = untrapExample();
  UntrapParams p;
  p.energyIncrement = 0.035;
  p.energyThreshold = 3.0;
  const TransitionNetwork alone = lj38Network(stored);
  const UntrapSelection one = untrapPairs(stored, stored.setA, p, {},
                                          [&](int a, int b) { return alone.distance(a, b); });
  const TransitionNetwork ahead = lj38Network(stored);
  ThreadPool pool(3);
  std::size_t asked = 0;
  const UntrapSelection two = untrapPairs(
      stored, stored.setA, p, {}, [&](int a, int b) { return ahead.distance(a, b); },
      [&](const std::vector<std::pair<int, int>>& pairs) {
        asked += pairs.size();
        EXPECT_TRUE(ahead.precomputeDistances(pairs, pool));
      });
  EXPECT_GT(asked, 10u);
  ASSERT_EQ(two.pairs.size(), one.pairs.size());
  for (std::size_t i = 0; i < one.pairs.size(); ++i) {
    EXPECT_EQ(two.pairs[i].first, one.pairs[i].first) << i;
    EXPECT_EQ(two.pairs[i].second, one.pairs[i].second) << i;
    EXPECT_EQ(two.pairs[i].score, one.pairs[i].score) << i;
  }
  const TransitionNetwork stopped = lj38Network(stored);
  std::vector<std::pair<int, int>> all;
  for (int a = 0; a < 12; ++a)
    for (int b = a + 1; b < 12; ++b) all.emplace_back(a, b);
  std::atomic<int> calls{0};
  EXPECT_FALSE(stopped.precomputeDistances(all, pool, [&] { return ++calls > 20; }));
  EXPECT_TRUE(stopped.precomputeDistances(all, pool));
  for (const auto& [a, b] : all) EXPECT_EQ(stopped.distance(a, b), alone.distance(a, b));
}

// The same distances computed ahead by a batched alignment (the CPU twin of the GPU kernel, as
// pathsample grow --alignments whole does on the device): every distance is the twin's own, within
// round-off of the host search's, and the UNTRAP selection's pairs are the same.
TEST(UntrapPairs, DistancesComputedAheadByABatchedAlignmentAreTheTwins) {
  const StoredTransitionNetwork stored = untrapExample();
  UntrapParams p;
  p.energyIncrement = 0.035;
  p.energyThreshold = 3.0;
  const TransitionNetwork alone = lj38Network(stored);
  const UntrapSelection one =
      untrapPairs(stored, stored.setA, p, {}, [&](int a, int b) { return alone.distance(a, b); });
  const TransitionNetwork batched = lj38Network(stored);
  AlignmentTwin twin(38, 2);
  std::vector<std::pair<int, int>> asked;
  const UntrapSelection two = untrapPairs(
      stored, stored.setA, p, {}, [&](int a, int b) { return batched.distance(a, b); },
      [&](const std::vector<std::pair<int, int>>& pairs) {
        asked.insert(asked.end(), pairs.begin(), pairs.end());
        EXPECT_TRUE(batched.precomputeDistances(pairs, twin));
      });
  ASSERT_GT(asked.size(), 10u);
  ASSERT_EQ(two.pairs.size(), one.pairs.size());
  for (std::size_t i = 0; i < one.pairs.size(); ++i) {
    EXPECT_EQ(two.pairs[i].first, one.pairs[i].first) << i;
    EXPECT_EQ(two.pairs[i].second, one.pairs[i].second) << i;
  }
  const AlignmentParams params = lj38Network(stored).params().alignment;
  for (std::size_t k = 0; k < asked.size(); k += 7) {
    const auto [a, b] = asked[k];
    const std::vector<double>& x = stored.minima[a].coordinates;
    const std::vector<double>& y = stored.minima[b].coordinates;
    std::vector<AlignmentResult> out;
    twin.align(params, {{a < b ? &x : &y, a < b ? &y : &x}}, out);
    EXPECT_EQ(batched.distance(a, b), out[0].distance) << a << " " << b;
    EXPECT_NEAR(batched.distance(a, b), alone.distance(a, b), 1e-12 * alone.distance(a, b));
  }
  // A stop before the first call leaves every distance to later.
  const TransitionNetwork stopped = lj38Network(stored);
  EXPECT_FALSE(stopped.precomputeDistances(asked, twin, [] { return true; }));
  EXPECT_TRUE(stopped.precomputeDistances(asked, twin));
  TransitionNetworkParams unaligned;
  unaligned.alignStructures = false;  // plain distances: not the batched alignment's to give
  EXPECT_THROW(TransitionNetwork(unaligned).precomputeDistances({}, twin), std::invalid_argument);
}

// A chain 4 - 3 - 2 - 1 - 0 (B = {4}, A = {0}) with a detour 4 - 5 - 0 over high barriers.
StoredTransitionNetwork chainNetwork() {
  // Barriers seen from the B side: 0.9, 0.5, 1.3, 0.9 (state 0 .. 3).
  StoredTransitionNetwork n =
      unitNetwork({0.0, 0.5, 0.2, 0.6, 0.1, 0.3},
                  {{1.0, 4, 3}, {1.1, 3, 2}, {1.5, 2, 1}, {1.4, 1, 0}, {5.0, 4, 5}, {5.0, 5, 0}});
  n.setA = {0};
  n.setB = {4};
  return n;
}

double chainDistance(int a, int b) { return std::abs(a - b) + (a == 5 || b == 5 ? 10.0 : 0.0); }

TEST(KineticPathPairs, BestPathAndShortcuts) {
  const StoredTransitionNetwork n = chainNetwork();
  const KineticPath path = bestKineticPath(n, 0.1);
  EXPECT_EQ(path.minima, (std::vector<int>{4, 3, 2, 1, 0}));
  EXPECT_EQ(path.transitionStates, (std::vector<int>{0, 1, 2, 3}));
  // SHORTCUT 2: pairs 2 or more steps apart, closest first (ties in path order); (3, 1) tried.
  const std::vector<CandidatePair> s =
      shortcutPairs(n, 0.1, 2, false, 100, {{1, 3}}, chainDistance);
  const std::vector<std::array<int, 2>> expected = {{4, 2}, {2, 0}, {4, 1}, {3, 0}, {4, 0}};
  ASSERT_EQ(s.size(), expected.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(s[i].first, expected[i][0]) << i;
    EXPECT_EQ(s[i].second, expected[i][1]) << i;
    EXPECT_EQ(s[i].score, chainDistance(expected[i][0], expected[i][1]));
  }
  // SHORTCUT 2 BARRIER: steps by barrier 1.3 (2-1), 0.9 (4-3), 0.9 (1-0), 0.5 (3-2); for each the
  // minima either side of its transition state, then one further out (clamped to the ends).
  const std::vector<CandidatePair> b = shortcutPairs(n, 0.1, 2, true, 100, {}, chainDistance);
  const std::vector<std::array<int, 2>> expectedB = {{2, 1}, {3, 0}, {4, 3}, {4, 2},
                                                     {1, 0}, {2, 0}, {3, 2}, {4, 1}};
  ASSERT_EQ(b.size(), expectedB.size());
  for (std::size_t i = 0; i < b.size(); ++i) {
    EXPECT_EQ(b[i].first, expectedB[i][0]) << i;
    EXPECT_EQ(b[i].second, expectedB[i][1]) << i;
  }
  EXPECT_NEAR(b[0].score, 1.3, 1e-12);
  EXPECT_EQ(shortcutPairs(n, 0.1, 2, true, 3, {}, chainDistance).size(), 3u);
}

TEST(KineticPathPairs, DijkstraProposesTheMissingLinks) {
  // Known: 0 - 1 and 2 - 3; A = {0}, B = {3}. Distances: 1 - 2 is 1, everything else 10.
  StoredTransitionNetwork n = chainNetwork();
  n.minima.resize(4);
  n.transitionStates = {n.transitionStates[3], n.transitionStates[1]};  // 1-0, 3-2
  n.setA = {0};
  n.setB = {3};
  const auto distance = [](int a, int b) {
    return (std::min(a, b) == 1 && std::max(a, b) == 2) ? 1.0 : 10.0;
  };
  const std::vector<CandidatePair> p = dijkstraPairs(n, 0.1, 1.0, {}, distance);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].first, 2);
  EXPECT_EQ(p[0].second, 1);
  EXPECT_EQ(p[0].score, 1.0);
  // Once (1, 2) was tried, the cheapest route uses one of the links of length 10.
  const std::vector<CandidatePair> q = dijkstraPairs(n, 0.1, 1.0, {{1, 2}}, distance);
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0].score, 10.0);
  EXPECT_FALSE(q[0].first == 2 && q[0].second == 1);
  // Disconnected sets: SHORTCUT has no path to work on.
  EXPECT_TRUE(shortcutPairs(n, 0.1, 1, false, 10, {}, distance).empty());
}

// The connect runs of the UNTRAP example's odata.connect: NEWCONNECT 4 1 20.0 20.0 5 5.0 0.025.
Connect untrapExampleConnect() {
  OptimSettings settings = optimLj38ExampleSettings();
  settings.connect.maxCycles = 4;
  settings.connect.dneb.maxImages = 5;
  return Connect(settings.connect);
}

// The merge sorts every transition state a run found: new to the network, known before the cycle,
// or found by an earlier run of the same cycle (a run merged twice repeats all it added).
TEST(ConnectJobs, MergeTellsKnownStatesFromThoseRepeatedInTheCycle) {
  const StoredTransitionNetwork stored = untrapExample();
  const Connect connect = untrapExampleConnect();
  const PotentialMaker lj = [] { return std::make_unique<LennardJones>(38); };
  TransitionNetwork network = lj38NetworkWithStates(stored);
  ThreadPool pool(1);
  const std::vector<ConnectJobResult> jobs = runConnectJobs(connect, lj, network, {{9, 1}}, pool);
  ASSERT_TRUE(jobs[0].ran);
  const std::size_t before = network.transitionStates().size();
  const MergeCounts first = mergeConnectJob(network, jobs[0], before);
  const MergeCounts again = mergeConnectJob(network, jobs[0], before);
  const int found = static_cast<int>(jobs[0].transitionStates.size());
  EXPECT_GT(first.newTransitionStates, 0);
  EXPECT_EQ(first.repeatedInCycle, 0);
  EXPECT_EQ(first.newTransitionStates + first.knownTransitionStates, found);
  EXPECT_EQ(again.newTransitionStates, 0);
  EXPECT_EQ(again.repeatedInCycle, first.newTransitionStates);
  EXPECT_EQ(again.knownTransitionStates, first.knownTransitionStates);
  EXPECT_EQ(network.transitionStates().size(), before + first.newTransitionStates);
}

// A cycle merged with its lookups made ahead on two threads gives the network of the plain merge,
// entry for entry: the jobs appear twice, so the second copies find their points among the entries
// the first copies added after the lookups (the endpoints are known before the cycle).
TEST(ConnectJobs, MergeWithLookupsAheadGivesThePlainMerge) {
  const StoredTransitionNetwork stored = untrapExample();
  const Connect connect = untrapExampleConnect();
  const PotentialMaker lj = [] { return std::make_unique<LennardJones>(38); };
  TransitionNetwork start = lj38NetworkWithStates(stored);
  ThreadPool pool(2);
  std::vector<ConnectJobResult> jobs =
      runConnectJobs(connect, lj, start, {{7, 1}, {9, 1}, {6, 3}}, pool);
  const std::vector<ConnectJobResult> once = jobs;
  jobs.insert(jobs.end(), once.begin(), once.end());
  TransitionNetwork plain = start, ahead = start;
  const std::size_t before = start.transitionStates().size();
  const std::vector<JobLookups> lookups = lookUpCycleAhead(ahead, jobs, pool);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const MergeCounts a = mergeConnectJob(plain, jobs[j], before);
    const MergeCounts b = mergeConnectJob(ahead, jobs[j], before, &lookups[j]);
    EXPECT_EQ(a.newMinima, b.newMinima) << "job " << j;
    EXPECT_EQ(a.newTransitionStates, b.newTransitionStates) << "job " << j;
    EXPECT_EQ(a.knownTransitionStates, b.knownTransitionStates) << "job " << j;
    EXPECT_EQ(a.repeatedInCycle, b.repeatedInCycle) << "job " << j;
  }
  EXPECT_GT(plain.minima().size(), start.minima().size());
  EXPECT_GT(plain.transitionStates().size(), start.transitionStates().size());
  ASSERT_EQ(plain.minima().size(), ahead.minima().size());
  ASSERT_EQ(plain.transitionStates().size(), ahead.transitionStates().size());
  for (std::size_t m = 0; m < plain.minima().size(); ++m)
    EXPECT_EQ(plain.minima()[m].coordinates, ahead.minima()[m].coordinates);
  for (std::size_t t = 0; t < plain.transitionStates().size(); ++t) {
    EXPECT_EQ(plain.transitionStates()[t].coordinates, ahead.transitionStates()[t].coordinates);
    EXPECT_EQ(plain.transitionStates()[t].plusMinimum, ahead.transitionStates()[t].plusMinimum);
    EXPECT_EQ(plain.transitionStates()[t].minusMinimum, ahead.transitionStates()[t].minusMinimum);
  }
}

// Two connect runs of the UNTRAP example's first pairs, on one thread and on two: the merged
// networks are the same, entry for entry.
TEST(ConnectJobs, MergedNetworkDoesNotDependOnThreads) {
  const StoredTransitionNetwork stored = untrapExample();
  const Connect connect = untrapExampleConnect();
  const PotentialMaker lj = [] { return std::make_unique<LennardJones>(38); };
  std::vector<std::vector<double>> energies;
  for (int threads : {1, 2}) {
    TransitionNetwork network = lj38NetworkWithStates(stored);
    ThreadPool pool(threads);
    const auto jobs = runConnectJobs(connect, lj, network, {{7, 1}, {9, 1}, {6, 3}}, pool);
    std::vector<double> e;
    for (const ConnectJobResult& job : jobs) {
      EXPECT_TRUE(job.ran);
      const MergeCounts c = mergeConnectJob(network, job);
      e.push_back(c.newMinima);
      e.push_back(c.newTransitionStates);
    }
    for (const NetworkMinimum& m : network.minima()) e.push_back(m.energy);
    for (const NetworkTransitionState& t : network.transitionStates()) e.push_back(t.energy);
    energies.push_back(e);
    EXPECT_GT(network.minima().size(), stored.minima.size());  // pair 10-2 finds new minima
  }
  EXPECT_EQ(energies[0], energies[1]);
  // A stop requested before the runs start leaves every run out.
  TransitionNetwork network = lj38Network(stored);
  ThreadPool pool(1);
  for (const ConnectJobResult& job :
       runConnectJobs(connect, lj, network, {{7, 1}}, pool, [] { return true; }))
    EXPECT_FALSE(job.ran);
}

// The progress callbacks (growth's progress lines): every run's end once, with its pair index,
// and every DNEB attempt as it is made, so that the transition states counted while the runs go
// on add up to those the runs end with (before the merge).
TEST(ConnectJobs, ProgressHearsEveryAttemptAndEveryRun) {
  const StoredTransitionNetwork stored = untrapExample();
  const Connect connect = untrapExampleConnect();
  const PotentialMaker lj = [] { return std::make_unique<LennardJones>(38); };
  TransitionNetwork network = lj38Network(stored);
  const std::vector<std::array<int, 2>> pairs = {{7, 1}, {9, 1}, {6, 3}};
  ThreadPool pool(2);
  std::mutex mutex;
  std::vector<int> ended(pairs.size(), 0);
  long attempts = 0, found = 0;
  ConnectJobProgress progress;
  progress.runEnded = [&](std::size_t i, const ConnectJobResult& job) {
    std::lock_guard<std::mutex> lock(mutex);
    ASSERT_LT(i, pairs.size());
    ++ended[i];
    EXPECT_TRUE(job.ran);
  };
  progress.attemptMade = [&](const ConnectAttempt& attempt) {
    std::lock_guard<std::mutex> lock(mutex);
    ++attempts;
    found += attempt.newTransitionStates;
  };
  const auto jobs =
      runConnectJobs(connect, potentialOnly(lj), network, pairs, pool, 2, {}, progress);
  long dnebRuns = 0, states = 0;
  for (const ConnectJobResult& job : jobs) {
    dnebRuns += job.result.dnebRuns;
    states += static_cast<long>(job.transitionStates.size());
  }
  EXPECT_EQ(ended, std::vector<int>(pairs.size(), 1));
  EXPECT_EQ(attempts, dnebRuns);
  EXPECT_EQ(found, states);
  EXPECT_GT(found, 0);
}

// Every minimum's and transition state's energy and coordinates, in network order: two networks
// are the same bits when these are equal.
std::vector<double> energiesAndCoordinates(const TransitionNetwork& network) {
  std::vector<double> values;
  for (const NetworkMinimum& m : network.minima()) {
    values.push_back(m.energy);
    values.insert(values.end(), m.coordinates.begin(), m.coordinates.end());
  }
  for (const NetworkTransitionState& t : network.transitionStates()) {
    values.push_back(t.energy);
    values.insert(values.end(), t.coordinates.begin(), t.coordinates.end());
  }
  return values;
}

// Connect runs in flight sharing one batched potential (SharedBatchedPotential: each run's
// potential, band images and descents are views of a member, and its band's candidates are
// searched side by side by members of their own) add the same minima and transition
// states, bit for bit, as runs with potentials of their own, for 1 and 3 runs in flight on one
// thread (fibres) and 3 on two threads: a structure's bits do not depend on the calls it shares.
TEST(ConnectJobs, RunsSharingBatchedCallsMatchRunsAlone) {
  const StoredTransitionNetwork stored = untrapExample();
  const Connect connect = untrapExampleConnect();
  const std::vector<std::array<int, 2>> pairs{{7, 1}, {9, 1}, {6, 3}};
  const auto grown = [&](const ConnectEngineMaker& engine, int threads, int inFlight) {
    TransitionNetwork network = lj38NetworkWithStates(stored);
    ThreadPool pool(threads);
    for (const ConnectJobResult& job :
         runConnectJobs(connect, engine, network, pairs, pool, inFlight)) {
      EXPECT_TRUE(job.ran);
      mergeConnectJob(network, job);
    }
    return energiesAndCoordinates(network);
  };
  const std::vector<double> alone =
      grown(potentialOnly([] { return std::make_unique<LennardJones>(38); }), 1, 1);
  BatchedLennardJones batched(38, 2);
  SharedBatchedPotential shared(batched);
  const ConnectEngineMaker member = [&] {
    return sharedConnectEngine(shared, connect.params().descent.minimiser, 3);
  };
  EXPECT_EQ(grown(member, 1, 1), alone);
  const SharedBatchStatistics one = shared.statistics();
  EXPECT_EQ(grown(member, 1, 3), alone);
  const SharedBatchStatistics fibres = shared.statistics();
  EXPECT_EQ(grown(member, 2, 3), alone);
  EXPECT_GT(shared.statistics().structures, shared.statistics().calls);  // images share calls
  // The same structures; three runs' fibres on one thread share calls, so fewer of them.
  EXPECT_EQ(fibres.structures - one.structures, one.structures);
  EXPECT_LT(fibres.calls - one.calls, one.calls);
}

// A connect run on the example's 12 minima (no transition states), whose Dijkstra paths have
// several missing links: with the shared engine every link's band and searches of a cycle run side
// by side before the links are taken in order, and the network is the plain run's, bit for bit.
TEST(Connect, CycleLinksSideBySideGrowTheSameNetwork) {
  const StoredTransitionNetwork stored = untrapExample();
  OptimSettings settings = optimLj38ExampleSettings();
  settings.connect.maxCycles = 3;
  settings.connect.dneb.maxImages = 5;
  const Connect connect(settings.connect);
  const auto grown = [&](Potential& potential, const ConnectBatching& batching, int& multiLink) {
    TransitionNetwork network = lj38Network(stored);
    ConnectObserver observer;
    observer.onCycle = [&](const ConnectCycle& c) { multiLink += c.missingLinks.size() > 1; };
    connect.connect(potential, network, 7, 1, observer, batching);
    return energiesAndCoordinates(network);
  };
  LennardJones lj(38);
  int plainLinks = 0, sharedLinks = 0;
  const std::vector<double> plain = grown(lj, {}, plainLinks);
  BatchedLennardJones batched(38, 2);
  SharedBatchedPotential shared(batched);
  const ConnectJobEngine e = sharedConnectEngine(shared, settings.connect.descent.minimiser, 3);
  EXPECT_EQ(grown(*e.potential, e.batching(), sharedLinks), plain);
  EXPECT_GE(plainLinks, 1);  // a cycle with several missing links was run
  EXPECT_EQ(sharedLinks, plainLinks);
}

TEST(GrowthRecord, RoundTripsThroughNetworkFile) {
  StoredTransitionNetwork n = untrapExample();
  n.growth.cycles = 3;
  n.growth.settings = "pair-selection=untrap\n";
  n.growth.triedPairs = {{7, 1}, {9, 1}, {5, 3}};
  n.growth.pendingPairs = {{8, 3}};
  DatabaseMetadata m;
  m.atoms = 38;
  m.energyUnit = "reduced (epsilon)";
  m.lengthUnit = "reduced (sigma)";
  m.potential = "lj";
  m.program = "test";
  const std::string path =
      (fs::temp_directory_path() / ("growth-record-" + std::to_string(getpid()) + ".h5")).string();
  TransitionNetworkDatabase::write(path, m, n);
  const StoredTransitionNetwork back = TransitionNetworkDatabase::read(path);
  EXPECT_EQ(back.growth.cycles, 3);
  EXPECT_EQ(back.growth.settings, n.growth.settings);
  EXPECT_EQ(back.growth.triedPairs, n.growth.triedPairs);
  EXPECT_EQ(back.growth.pendingPairs, n.growth.pendingPairs);
  n.growth.pendingPairs = {{8, 12}};  // minimum 12 does not exist (0-based)
  EXPECT_THROW(TransitionNetworkDatabase::write(path, m, n), std::invalid_argument);
  fs::remove(path);
}

// optim rewriting a network.h5 keeps its endpoint sets (and growth record), mapped through the
// loaded indices: here minimum 3 of the file duplicates minimum 1 and disappears.
TEST(OptimDatabase, RewriteKeepsEndpointSets) {
  StoredTransitionNetwork n = untrapExample();
  n.minima.insert(n.minima.begin() + 3, n.minima[1]);  // a duplicate of A's minimum 1 at row 3
  for (StoredTransitionState& t : n.transitionStates) {
    if (t.plusMinimum >= 3) ++t.plusMinimum;
    if (t.minusMinimum >= 3) ++t.minusMinimum;
  }
  n.setA = {1, 3};
  n.setB = {8};  // the example's B (row 7) after the insertion
  n.growth.cycles = 1;
  n.growth.triedPairs = {{8, 3}};
  DatabaseMetadata m;
  m.atoms = 38;
  m.energyUnit = "reduced (epsilon)";
  m.lengthUnit = "reduced (sigma)";
  m.potential = "lj";
  m.program = "test";
  const std::string path =
      (fs::temp_directory_path() / ("optim-sets-" + std::to_string(getpid()) + ".h5")).string();
  TransitionNetworkDatabase::write(path, m, n);
  OptimConfig config;
  OptimSettings settings = config.settings;
  const OptimSystem system = makeOptimSystem(config, nullptr, 38, settings);
  TransitionNetwork network(settings.network);
  DatabaseMetadata read;
  const KnownEntries known = loadDatabase(path, system, 38, network, read, true);
  const StoredTransitionNetwork out =
      completeNetwork(system, network, known, settings.characterisation);
  EXPECT_EQ(out.minima.size(), 12u);
  EXPECT_EQ(out.setA, std::vector<int>{1});
  EXPECT_EQ(out.setB, std::vector<int>{7});
  EXPECT_EQ(out.growth.triedPairs, (TriedPairs{{7, 1}}));
  fs::remove(path);
}

#ifdef LANDSCAPE_PATHSAMPLE_EXECUTABLE
std::string program() {
  const char* env = std::getenv("LANDSCAPE_PATHSAMPLE_EXECUTABLE");
  return env && *env ? env : LANDSCAPE_PATHSAMPLE_EXECUTABLE;
}

int run(const std::string& arguments, const fs::path& log) {
  const int status =
      std::system((program() + " " + arguments + " > " + log.string() + " 2>&1").c_str());
  return status == -1 ? -1 : WEXITSTATUS(status);
}

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The growth command of the example: its pathdata and odata.connect, `cycles` cycles.
std::string growArguments(const fs::path& work, int cycles) {
  const std::string input = testDataRoot() + kUntrapInput;
  return "grow --database " + (work / "in.h5").string() + " --pathdata " + input +
         "/pathdata --odata " + input + "/odata.connect --cycles " + std::to_string(cycles);
}

// Two grown networks hold the same minima and transition states, bit for bit, in one order.
void expectSameNetworks(const fs::path& a, const fs::path& b) {
  const StoredTransitionNetwork x = TransitionNetworkDatabase::read(a.string());
  const StoredTransitionNetwork y = TransitionNetworkDatabase::read(b.string());
  EXPECT_EQ(x.growth.triedPairs, y.growth.triedPairs);
  ASSERT_EQ(x.minima.size(), y.minima.size());
  ASSERT_EQ(x.transitionStates.size(), y.transitionStates.size());
  for (std::size_t i = 0; i < x.minima.size(); ++i) {
    EXPECT_EQ(x.minima[i].energy, y.minima[i].energy) << i;
    EXPECT_EQ(x.minima[i].coordinates, y.minima[i].coordinates) << i;
  }
  for (std::size_t i = 0; i < x.transitionStates.size(); ++i) {
    EXPECT_EQ(x.transitionStates[i].energy, y.transitionStates[i].energy) << i;
    EXPECT_EQ(x.transitionStates[i].coordinates, y.transitionStates[i].coordinates) << i;
    EXPECT_EQ(x.transitionStates[i].plusMinimum, y.transitionStates[i].plusMinimum) << i;
    EXPECT_EQ(x.transitionStates[i].minusMinimum, y.transitionStates[i].minusMinimum) << i;
  }
}

struct GrowthWork {
  fs::path dir;
  explicit GrowthWork(const std::string& name)
      : dir(fs::temp_directory_path() / (name + "-" + std::to_string(getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string input = testDataRoot() + kUntrapInput;
    EXPECT_EQ(run("import --directory " + input + " --database " + (dir / "in.h5").string(),
                  dir / "log"),
              0);
  }
  ~GrowthWork() { fs::remove_all(dir); }
};

int savedCycles(const fs::path& file) {
  try {
    return TransitionNetworkDatabase::read(file.string()).growth.cycles;
  } catch (const std::exception&) {
    return -1;  // not written yet
  }
}

// Two cycles: PATHSAMPLE's first two UNTRAP pairs (8-2 and 10-2), a progress line per cycle, the
// growth record in network.h5.
TEST(PathsampleGrowth, TwoUntrapCyclesOnLj38) {
  const GrowthWork w("pathsample-grow");
  const fs::path log = w.dir / "grow.log";
  ASSERT_EQ(run(growArguments(w.dir, 2) + " --output " + (w.dir / "run").string(), log), 0)
      << readAll(log);
  const std::string text = readAll(log);
  EXPECT_NE(text.find("cycle 1  pairs 1 "), std::string::npos) << text;
  EXPECT_NE(text.find("pairs: 8-2"), std::string::npos) << text;
  EXPECT_NE(text.find("pairs: 10-2"), std::string::npos) << text;
  const StoredTransitionNetwork grown =
      TransitionNetworkDatabase::read((w.dir / "run" / "network.h5").string());
  EXPECT_EQ(grown.growth.cycles, 2);
  EXPECT_EQ(grown.growth.triedPairs, (TriedPairs{{7, 1}, {9, 1}}));
  EXPECT_EQ(grown.growth.pendingPairs.size(), 9u);
  EXPECT_GE(grown.minima.size(), 12u);
  EXPECT_EQ(grown.setA, std::vector<int>{1});
  EXPECT_EQ(grown.setB, std::vector<int>{7});
  for (const StoredNetworkMinimum& m : grown.minima)  // new minima characterised: rates work
    EXPECT_TRUE(std::isfinite(m.properties.logProductOfPositiveEigenvalues));
  // Resuming with other settings is refused.
  EXPECT_EQ(run(growArguments(w.dir, 3) + " --resume " + (w.dir / "run").string() +
                    " --untrap-threshold 2.0",
                log),
            1);
  EXPECT_NE(readAll(log).find("other growth settings"), std::string::npos) << readAll(log);
}

// DIRECTION BA: B (minimum 8) is the product, so UNTRAP's first pair is the first of the
// selection towards B, computed here in-process.
TEST(PathsampleGrowth, DirectionBaGrowsTowardsB) {
  const GrowthWork w("pathsample-grow-ba");
  const fs::path log = w.dir / "grow.log";
  ASSERT_EQ(run(growArguments(w.dir, 1) + " --direction BA --output " + (w.dir / "run").string(),
                log), 0) << readAll(log);
  const StoredTransitionNetwork stored = untrapExample();
  const TransitionNetwork network = lj38Network(stored);
  UntrapParams p;
  p.energyIncrement = 0.035;
  p.energyThreshold = 3.0;
  const UntrapSelection towardsB = untrapPairs(
      stored, stored.setB, p, {}, [&](int a, int b) { return network.distance(a, b); });
  ASSERT_FALSE(towardsB.pairs.empty());
  const StoredTransitionNetwork grown =
      TransitionNetworkDatabase::read((w.dir / "run" / "network.h5").string());
  ASSERT_EQ(grown.growth.triedPairs.size(), 1u);
  EXPECT_EQ(grown.growth.triedPairs[0][0], towardsB.pairs[0].first);
  EXPECT_EQ(grown.growth.triedPairs[0][1], towardsB.pairs[0].second);
  EXPECT_NE(grown.growth.triedPairs[0], (std::array<int, 2>{7, 1}));  // AB's first pair, 8-2
  EXPECT_NE(grown.growth.settings.find("direction=BA"), std::string::npos);
}

// --connect-cycles N replaces NEWCONNECT's nconmax of the odata file (4 in the example) and of
// optim's defaults, for every connect run, and --ts-steps N the STEPS of every transition-state
// search (200 in the example, HybridEigenvectorFollowingParams's 1000 for molecules); each is a
// growth setting, so a resume without it is refused.
TEST(PathsampleGrowth, ConnectCyclesAndTsStepsReplaceTheOdatasAndTheDefaults) {
  PathsampleConfig config;
  config.odataFile = testDataRoot() + kUntrapInput + "/odata.connect";
  const auto quiet = [](const std::string&) {};
  EXPECT_EQ(growthConnectSettings(config, quiet).settings.connect.maxCycles, 4);
  config.connectCycles = 2;
  EXPECT_EQ(growthConnectSettings(config, quiet).settings.connect.maxCycles, 2);
  PathsampleConfig defaults;
  defaults.connectCycles = 7;
  EXPECT_EQ(growthConnectSettings(defaults, quiet).settings.connect.maxCycles, 7);
  const auto tsSteps = [&](const PathsampleConfig& c) {
    return growthConnectSettings(c, quiet).settings.connect.transitionStateSearch.maxIterations;
  };
  EXPECT_EQ(tsSteps(config), 200);
  config.tsSteps = 30;
  EXPECT_EQ(tsSteps(config), 30);
  PathsampleConfig molecule;
  molecule.prmtopFile = testDataRoot() + "/gb/trpcage/prmtop";
  EXPECT_EQ(tsSteps(molecule), 1000);
  molecule.tsSteps = 150;
  EXPECT_EQ(tsSteps(molecule), 150);

  const GrowthWork w("pathsample-grow-connect-cycles");
  const fs::path log = w.dir / "grow.log";
  const fs::path dir = w.dir / "run";
  ASSERT_EQ(
      run(growArguments(w.dir, 1) + " --connect-cycles 1 --ts-steps 150 --output " + dir.string(),
          log),
      0)
      << readAll(log);
  const StoredTransitionNetwork grown =
      TransitionNetworkDatabase::read((dir / "network.h5").string());
  EXPECT_NE(grown.growth.settings.find("connect-cycles=1\nts-steps=150\n"), std::string::npos)
      << grown.growth.settings;
  for (const std::string& partial : {" --ts-steps 150", " --connect-cycles 1"}) {
    EXPECT_EQ(run(growArguments(w.dir, 2) + partial + " --resume " + dir.string(), log), 1);
    EXPECT_NE(readAll(log).find("other growth settings"), std::string::npos) << readAll(log);
  }
  EXPECT_EQ(
      run(growArguments(w.dir, 2) + " --connect-cycles 1 --ts-steps 150 --resume " + dir.string(),
          log),
      0)
      << readAll(log);
}

// SHORTCUT n BARRIER in a pathdata file and --shortcut-by barrier are one setting: the growth
// record says "barrier", and a record that spells it "BARRIER" (written before the setting was
// typed) still resumes.
TEST(PathsampleGrowth, ShortcutBarrierRecordsResumeInEitherSpelling) {
  const GrowthWork w("pathsample-grow-barrier");
  const fs::path pathdata = w.dir / "pathdata";
  std::ofstream(pathdata) << "SHORTCUT 2 BARRIER\nCYCLES 1\n";
  const std::string grow = "grow --database " + (w.dir / "in.h5").string() + " --odata " +
                           testDataRoot() + kUntrapInput + "/odata.connect --pair-list-size 5 ";
  const fs::path log = w.dir / "grow.log";
  const fs::path run1 = w.dir / "run";
  ASSERT_EQ(run(grow + "--pathdata " + pathdata.string() + " --output " + run1.string(), log), 0)
      << readAll(log);
  const std::string file = (run1 / "network.h5").string();
  DatabaseMetadata metadata;
  StoredTransitionNetwork saved = TransitionNetworkDatabase::read(file, &metadata);
  const std::string now = "shortcut=2 barrier\n";
  const std::size_t at = saved.growth.settings.find(now);
  ASSERT_NE(at, std::string::npos) << saved.growth.settings;
  saved.growth.settings.replace(at, now.size(), "shortcut=2 BARRIER\n");
  TransitionNetworkDatabase::write(file, metadata, saved);
  ASSERT_EQ(run(grow + "--pair-selection shortcut --shortcut-by barrier --shortcut-steps 2 "
                       "--cycles 2 --resume " + run1.string(),
                log),
            0)
      << readAll(log);
  EXPECT_EQ(TransitionNetworkDatabase::read(file).growth.cycles, 2);
  // Another setting is still refused.
  EXPECT_EQ(run(grow + "--pair-selection shortcut --shortcut-steps 2 --cycles 3 --resume " +
                    run1.string(),
                log),
            1);
  EXPECT_NE(readAll(log).find("other growth settings"), std::string::npos) << readAll(log);
}

// kill -9 once network.h5 records 2 cycles, then --resume: the same network as a run never
// interrupted (connect runs are deterministic and the record holds the pair lists).
TEST(PathsampleGrowth, ResumeAfterKillNineMatchesUninterruptedRun) {
  const GrowthWork w("pathsample-resume");
  const int cycles = 5;
  ASSERT_EQ(run(growArguments(w.dir, cycles) + " --output " + (w.dir / "whole").string(),
                w.dir / "whole.log"),
            0);
  const fs::path killed = w.dir / "killed";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const std::string command = "exec " + program() + " " + growArguments(w.dir, cycles) +
                                " --output " + killed.string() + " > /dev/null 2>&1";
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  bool exited = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (savedCycles(killed / "network.h5") < 2 && std::chrono::steady_clock::now() < deadline) {
    if (waitpid(child, &status, WNOHANG) == child) {
      exited = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!exited) {
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
  }
  const int before = savedCycles(killed / "network.h5");
  ASSERT_GE(before, 2);
  const fs::path log = w.dir / "resume.log";
  ASSERT_EQ(run(growArguments(w.dir, cycles) + " --resume " + killed.string(), log), 0)
      << readAll(log);
  const StoredTransitionNetwork a = TransitionNetworkDatabase::read((w.dir / "whole/network.h5").string());
  const StoredTransitionNetwork b = TransitionNetworkDatabase::read((killed / "network.h5").string());
  EXPECT_EQ(b.growth.cycles, cycles);
  EXPECT_EQ(a.growth.pendingPairs, b.growth.pendingPairs);
  expectSameNetworks(w.dir / "whole/network.h5", killed / "network.h5");
}

// The same scheduler on the CPU: three connect runs in flight whose structures share calls of
// two CPU potentials give the network of runs with potentials of their own, bit for bit, and so
// do two lanes of shared calls (each thread's runs in calls of their own).
TEST(PathsampleGrowth, RunsInFlightOnTheCpuGrowTheSameNetwork) {
  const GrowthWork w("pathsample-in-flight");
  const std::string common = growArguments(w.dir, 2) + " --pairs-per-cycle 3 --output ";
  ASSERT_EQ(run(common + (w.dir / "alone").string(), w.dir / "alone.log"), 0)
      << readAll(w.dir / "alone.log");
  const fs::path log = w.dir / "shared.log";
  ASSERT_EQ(run(common + (w.dir / "shared").string() + " --jobs-in-flight 3 --threads 2", log), 0)
      << readAll(log);
  EXPECT_NE(readAll(log).find("on 3 in flight on 2 threads, their structures in shared calls of"),
            std::string::npos)
      << readAll(log);
  expectSameNetworks(w.dir / "alone" / "network.h5", w.dir / "shared" / "network.h5");
  const fs::path lanesLog = w.dir / "lanes.log";
  ASSERT_EQ(run(common + (w.dir / "lanes").string() + " --jobs-in-flight 3 --threads 2 " +
                    "--call-lanes 2",
                lanesLog),
            0)
      << readAll(lanesLog);
  EXPECT_NE(readAll(lanesLog).find("(2 lanes)"), std::string::npos) << readAll(lanesLog);
  expectSameNetworks(w.dir / "alone" / "network.h5", w.dir / "lanes" / "network.h5");
}

// --backend cuda: two pairs per cycle in flight together, the DNEB bands relaxed whole and the
// hybrid EF searches run whole on the device (--ts-searches whole), the descents' structures in
// shared calls of the device's batched potential.
// The pairs are UNTRAP's (they do not depend on the backend), and every stationary point saved is
// one on the CPU potential too: minima to the odata's BFGSMIN 1e-6, transition states to BFGSTS's
// 1e-4, with one negative Hessian eigenvalue. The network is the same bit for bit with one run in
// flight and one lane of calls (against two by default; whichever new points were characterised
// ahead, as runs ended). Without a device the run stops with one sentence.
TEST(PathsampleGrowth, CudaBackendRunsEachConnectOnTheBatchedEngines) {
  const GrowthWork w("pathsample-grow-cuda");
  const fs::path log = w.dir / "grow.log";
  const std::string arguments = growArguments(w.dir, 2) + " --pairs-per-cycle 2 --threads 2 " +
                                "--backend cuda --ts-searches whole --output " +
                                (w.dir / "run").string();
  if (!gpuAvailable()) {
    ASSERT_EQ(run(arguments, log), 1) << readAll(log);
    const std::string text = readAll(log);
#ifdef LANDSCAPE_HAVE_CUDA
    EXPECT_NE(text.find("no CUDA device found"), std::string::npos) << text;
#else
    EXPECT_NE(text.find("this build has no CUDA support"), std::string::npos) << text;
#endif
    return;
  }
  ASSERT_EQ(run(arguments, log), 0) << readAll(log);
  EXPECT_NE(readAll(log).find("on 2 in flight on 2 threads, their structures in shared calls of"),
            std::string::npos)
      << readAll(log);
  // cuda takes 4 lanes by default, at most one per thread running runs: 2 here.
  EXPECT_NE(readAll(log).find("(2 lanes)"), std::string::npos) << readAll(log);
  EXPECT_NE(readAll(log).find("batch fill"), std::string::npos) << readAll(log);
  // Lennard-Jones on cuda: the DNEB bands relaxed whole on the device (--dneb-bands whole).
  EXPECT_NE(readAll(log).find("whole bands"), std::string::npos) << readAll(log);
  // ... and their hybrid EF searches run whole (--ts-searches whole).
  EXPECT_NE(readAll(log).find("whole searches"), std::string::npos) << readAll(log);
  // The runs' points were characterised as they ended (the cycle's tail), and taken at the merge.
  EXPECT_NE(readAll(log).find(" points done ahead)"), std::string::npos) << readAll(log);
  ASSERT_EQ(run(growArguments(w.dir, 2) + " --pairs-per-cycle 2 --jobs-in-flight 1 --backend " +
                    "cuda --ts-searches whole --output " + (w.dir / "one").string(),
                w.dir / "one.log"),
            0)
      << readAll(w.dir / "one.log");
  expectSameNetworks(w.dir / "run" / "network.h5", w.dir / "one" / "network.h5");
  const StoredTransitionNetwork grown =
      TransitionNetworkDatabase::read((w.dir / "run" / "network.h5").string());
  EXPECT_EQ(grown.growth.cycles, 2);
  ASSERT_GE(grown.growth.triedPairs.size(), 2u);
  EXPECT_EQ(grown.growth.triedPairs[0], (std::array<int, 2>{7, 1}));
  EXPECT_EQ(grown.growth.triedPairs[1], (std::array<int, 2>{9, 1}));
  EXPECT_GT(grown.minima.size(), 12u) << readAll(log);
  EXPECT_GT(grown.transitionStates.size(), 11u) << readAll(log);
  LennardJones cpu(38);
  std::vector<double> g(3 * 38);
  auto rms = [&g] {
    double sum = 0.0;
    for (double v : g) sum += v * v;
    return std::sqrt(sum / static_cast<double>(g.size()));
  };
  for (std::size_t i = 12; i < grown.minima.size(); ++i) {
    EXPECT_NEAR(cpu.energyGradient(grown.minima[i].coordinates.data(), g.data()), grown.minima[i].energy, 1e-8)
        << "minimum " << i;
    EXPECT_LT(rms(), 1e-5) << "minimum " << i;
  }
  for (std::size_t i = 11; i < grown.transitionStates.size(); ++i) {
    const StoredTransitionState& ts = grown.transitionStates[i];
    EXPECT_NEAR(cpu.energyGradient(ts.coordinates.data(), g.data()), ts.energy, 1e-8) << "state " << i;
    EXPECT_LT(rms(), 2e-4) << "state " << i;
    EXPECT_LT(ts.eigenvalue, 0.0) << "state " << i;
  }
}

#ifdef LANDSCAPE_OPTIM_EXECUTABLE
int runOptim(const std::string& arguments, const fs::path& log) {
  const int status = std::system((std::string(LANDSCAPE_OPTIM_EXECUTABLE) + " " + arguments +
                                  " > " + log.string() + " 2>&1")
                                     .c_str());
  return status == -1 ? -1 : WEXITSTATUS(status);
}

// optim and the endpoint sets: a run on a database with sets A and B keeps them through every
// save (it used to drop them after its first cycle's save), and a new database gets the run's
// endpoints as A and B (STARTFROMPATH), so that pathsample can grow it. The endpoints are the two
// minima of the example's first transition state (one connect cycle).
TEST(OptimDatabase, KeepsEndpointSetsOrTakesTheRunsEndpoints) {
  const GrowthWork w("optim-sets");
  const StoredTransitionNetwork example =
      TransitionNetworkDatabase::read((w.dir / "in.h5").string());
  const StoredTransitionState& ts = example.transitionStates.front();
  writeXyz((w.dir / "a.xyz").string(), example.minima[ts.plusMinimum].coordinates, "plus");
  writeXyz((w.dir / "b.xyz").string(), example.minima[ts.minusMinimum].coordinates, "minus");
  const std::string ends = "--lj 38 --start " + (w.dir / "a.xyz").string() + " --finish " +
                           (w.dir / "b.xyz").string() + " --quiet ";
  const fs::path log = w.dir / "log";
  ASSERT_EQ(runOptim(ends + "--database " + (w.dir / "in.h5").string() + " --output " +
                         (w.dir / "o1").string(),
                     log),
            0)
      << readAll(log);
  const StoredTransitionNetwork kept = TransitionNetworkDatabase::read((w.dir / "in.h5").string());
  EXPECT_EQ(kept.setA, example.setA);
  EXPECT_EQ(kept.setB, example.setB);
  ASSERT_EQ(runOptim(ends + "--output " + (w.dir / "o2").string(), log), 0) << readAll(log);
  const StoredTransitionNetwork fresh =
      TransitionNetworkDatabase::read((w.dir / "o2" / "network.h5").string());
  ASSERT_GE(fresh.minima.size(), 2u);
  EXPECT_EQ(fresh.setA, std::vector<int>{0});
  EXPECT_EQ(fresh.setB, std::vector<int>{1});
  EXPECT_NEAR(fresh.minima[0].energy, example.minima[ts.plusMinimum].energy, 1e-6);
  EXPECT_NEAR(fresh.minima[1].energy, example.minima[ts.minusMinimum].energy, 1e-6);
}

// A molecule's network grows too (--prmtop; kcal/mol and Angstrom): optim connects two chi1
// rotamers of ash into a database whose sets are its endpoints (A the start, B the finish);
// SHORTCUT 2 proposes the pair two steps apart on the best path, which growth connects with the
// molecule's connect settings. Every stationary point of the result is one of the CPU AMBER-GB
// potential, with its mass-weighted log product. (ash has nothing more to find: the connect run
// finds the path's known states again.)
TEST(PathsampleGrowth, ConnectsAMoleculesPairs) {
  const std::optional<AshMinima> ash = makeAshMinima(1e-4);
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  const GrowthWork w("pathsample-grow-ash");
  writeAmberRestart((w.dir / "a.rst7").string(), ash->first, "ash minimum");
  writeAmberRestart((w.dir / "b.rst7").string(), ash->second, "ash chi1 rotamer");
  const fs::path log = w.dir / "log";
  ASSERT_EQ(runOptim("--prmtop '" + ash->prmtop + "' --start " + (w.dir / "a.rst7").string() +
                         " --finish " + (w.dir / "b.rst7").string() + " --quiet --output " +
                         (w.dir / "o").string(),
                     log),
            0)
      << readAll(log);
  const std::string grow = "grow --database " + (w.dir / "o" / "network.h5").string() +
                           " --prmtop '" + ash->prmtop + "' --pair-selection shortcut " +
                           "--shortcut-steps 2 --temperature 298 --cycles 2 --output " +
                           (w.dir / "run").string();
  ASSERT_EQ(run(grow, log), 0) << readAll(log);
  const StoredTransitionNetwork grown =
      TransitionNetworkDatabase::read((w.dir / "run" / "network.h5").string());
  ASSERT_GE(grown.growth.cycles, 1) << readAll(log);
  EXPECT_EQ(grown.growth.triedPairs.size(), static_cast<std::size_t>(grown.growth.cycles));
  EXPECT_EQ(grown.setA, std::vector<int>{0});
  EXPECT_EQ(grown.setB, std::vector<int>{1});
  AmberGb cpu(ash->topology);
  std::vector<double> g(ash->first.size());
  auto rms = [&g] {
    double sum = 0.0;
    for (double v : g) sum += v * v;
    return std::sqrt(sum / static_cast<double>(g.size()));
  };
  ASSERT_GE(grown.minima.size(), 3u);
  for (const StoredNetworkMinimum& m : grown.minima) {
    EXPECT_NEAR(cpu.energyGradient(m.coordinates.data(), g.data()), m.energy, 1e-6);
    EXPECT_LT(rms(), 1e-3);
    EXPECT_TRUE(std::isfinite(m.properties.logProductOfPositiveEigenvalues));
  }
  ASSERT_GE(grown.transitionStates.size(), 2u);
  for (const StoredTransitionState& ts : grown.transitionStates) {
    EXPECT_NEAR(cpu.energyGradient(ts.coordinates.data(), g.data()), ts.energy, 1e-6);
    EXPECT_LT(rms(), 1e-3);
    EXPECT_LT(ts.eigenvalue, 0.0);
  }
}
#endif

// SIGINT between connect runs: the run saves what it found and says how to continue.
TEST(PathsampleGrowth, SigintStopsAndSaves) {
  const GrowthWork w("pathsample-sigint");
  const fs::path out = w.dir / "run";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const std::string command = "exec " + program() + " " + growArguments(w.dir, 50) +
                                " --output " + out.string() + " > " + (w.dir / "log").string() +
                                " 2>&1";
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (savedCycles(out / "network.h5") < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(child, SIGINT);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  const int cycles = savedCycles(out / "network.h5");
  if (cycles == 50) GTEST_SKIP() << "the run ended before the signal";
  EXPECT_EQ(WEXITSTATUS(status), 130) << readAll(w.dir / "log");
  EXPECT_NE(readAll(w.dir / "log").find("continue with --resume"), std::string::npos);
  EXPECT_GE(cycles, 1);
}

// The command line's words, as a shell would split them.
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

// A stop request while a cycle's pairs are chosen (in a big network a new UNTRAP list takes
// minutes of distances) ends the run there: the growth record as the last cycle saved it, and
// --resume grows the network of the uninterrupted run.
TEST(PathsampleGrowth, StopWhileChoosingPairsEndsTheRunAndResumes) {
  const GrowthWork w("pathsample-stop-choosing");
  const std::string part = (w.dir / "part").string(), whole = (w.dir / "whole").string();
  std::vector<std::string> printed;
  const ProgressPrinter print = [&printed](const std::string& line) { printed.push_back(line); };
  SoloCommunicator solo;
  // The first question is the one before cycle 1; the next come from the distance threads.
  std::atomic<int> asked{0};
  const bool stopped = growNetwork(
      parsePathsampleCommandLine(words(growArguments(w.dir, 3) + " --output " + part)), print,
      [&asked] { return ++asked > 1; }, solo);
  EXPECT_TRUE(stopped);
  EXPECT_GT(asked.load(), 1);
  bool said = false;
  for (const std::string& line : printed)
    said = said || line.find("cycle 1 stopped while its pairs were chosen") != std::string::npos;
  EXPECT_TRUE(said);
  const StoredTransitionNetwork saved =
      TransitionNetworkDatabase::read(part + "/network.h5");
  EXPECT_EQ(saved.growth.cycles, 0);
  EXPECT_TRUE(saved.growth.triedPairs.empty());
  EXPECT_TRUE(saved.growth.pendingPairs.empty());
  const std::function<bool()> never = [] { return false; };
  EXPECT_FALSE(growNetwork(
      parsePathsampleCommandLine(words(growArguments(w.dir, 3) + " --resume " + part)), print,
      never, solo));
  EXPECT_FALSE(growNetwork(
      parsePathsampleCommandLine(words(growArguments(w.dir, 3) + " --output " + whole)), print,
      never, solo));
  expectSameNetworks(part + "/network.h5", whole + "/network.h5");
}

// UNTRAP lists of 3 pairs, 2 per cycle: the list runs out every cycle or two, so the networks the
// lists are chosen from show in the pairs.
std::string overlappingGrowth(const fs::path& work, int cycles, int cyclesInFlight) {
  return growArguments(work, cycles) + " --pairs-per-cycle 2 --pair-list-size 3" +
         " --cycles-in-flight " + std::to_string(cyclesInFlight);
}

// --cycles-in-flight D: cycle k's pairs are taken from PATHSAMPLE's candidate list, recomputed
// when it runs out from the network as it stood once cycle k - D had merged. The test replays
// that rule with its own UNTRAP selections on the networks the run saved after each cycle and
// gets the run's pairs; the same rule with lag 1 does not.
TEST(PathsampleGrowth, CyclesInFlightTakePairsFromTheNetworkOfCycleKMinusD) {
  const GrowthWork w("pathsample-cycles-lag");
  const int cycles = 6, lag = 2;
  const std::string out = (w.dir / "run").string();
  const PathsampleConfig config =
      parsePathsampleCommandLine(words(overlappingGrowth(w.dir, cycles, lag) + " --output " + out));
  std::vector<StoredTransitionNetwork> after;  // after[k]: the network once k cycles merged
  const ProgressPrinter print = [&](const std::string& line) {
    if (line.rfind("grow> ", 0) == 0 && line.find(" minima, ") != std::string::npos)
      after.push_back(TransitionNetworkDatabase::read(out + "/network.h5"));
    if (line.rfind("cycle ", 0) == 0 && line.find("  pairs ") != std::string::npos)
      after.push_back(TransitionNetworkDatabase::read(out + "/network.h5"));
  };
  SoloCommunicator solo;
  ASSERT_FALSE(growNetwork(
      config, print, [] { return false; }, solo));
  ASSERT_EQ(after.size(), static_cast<std::size_t>(cycles + 1));
  const TriedPairs& ran = after.back().growth.triedPairs;
  ASSERT_EQ(ran.size(), 2u * cycles);
  const auto replay = [&](int d) {
    UntrapParams p = config.untrap;
    p.listSize = static_cast<std::size_t>(config.listSize);
    TriedPairs tried, pending;
    for (int k = 1; k <= cycles; ++k)
      for (int taken = 0; taken < config.pairsPerCycle; ++taken) {
        if (pending.empty()) {
          const StoredTransitionNetwork& net = after[static_cast<std::size_t>(std::max(0, k - d))];
          const TransitionNetwork distances = lj38Network(net);
          for (const CandidatePair& c : untrapPairs(net, net.setA, p, tried, [&](int a, int b) {
                                          return distances.distance(a, b);
                                        }).pairs)
            pending.push_back({c.first, c.second});
        }
        if (pending.empty()) return tried;
        tried.push_back(pending.front());
        pending.erase(pending.begin());
      }
    return tried;
  };
  EXPECT_EQ(replay(lag), ran);
  EXPECT_NE(replay(1), ran);  // the lag shows in these pairs
}

// --cycles-in-flight 2: the same network for one thread and for two runs in flight on two
// threads sharing batched calls; resuming with another D is refused.
TEST(PathsampleGrowth, CyclesInFlightGrowOneNetworkWhateverTheThreads) {
  const GrowthWork w("pathsample-cycles-threads");
  const fs::path log = w.dir / "shared.log";
  ASSERT_EQ(run(overlappingGrowth(w.dir, 4, 2) + " --output " + (w.dir / "one").string(),
                w.dir / "one.log"),
            0)
      << readAll(w.dir / "one.log");
  ASSERT_EQ(run(overlappingGrowth(w.dir, 4, 2) + " --jobs-in-flight 2 --threads 2 --output " +
                    (w.dir / "shared").string(),
                log),
            0)
      << readAll(log);
  EXPECT_NE(readAll(log).find("; 2 cycles in flight, each with these"), std::string::npos)
      << readAll(log);
  expectSameNetworks(w.dir / "one" / "network.h5", w.dir / "shared" / "network.h5");
  EXPECT_EQ(run(overlappingGrowth(w.dir, 5, 3) + " --resume " + (w.dir / "one").string(), log), 1);
  EXPECT_NE(readAll(log).find("other growth settings"), std::string::npos) << readAll(log);
}

// A stop in a cycle keeps the runs of it that had ended (DIR/ended-runs): --resume runs only the
// others and ends with the network of a run never interrupted, bit for bit; the file goes once
// its cycle has merged, and a damaged one is refused with its name.
TEST(PathsampleGrowth, StoppedCycleKeepsItsEndedRunsForResume) {
  const GrowthWork w("pathsample-ended-runs");
  const std::string whole = (w.dir / "whole").string(), part = (w.dir / "part").string();
  const auto grow = [&](const std::string& tail, const std::function<bool()>& stop,
                        const ProgressPrinter& print) {
    SoloCommunicator solo;
    return growNetwork(parsePathsampleCommandLine(words(growArguments(w.dir, 3) +
                                                        " --pairs-per-cycle 4 --threads 1" + tail)),
                       print, stop, solo);
  };
  const std::function<bool()> never = [] { return false; };
  ASSERT_FALSE(grow(" --output " + whole, never, [](const std::string&) {}));

  std::string log;
  bool secondCycle = false;
  std::atomic<bool> stop{false};
  const ProgressPrinter stopAfterTwoRuns = [&](const std::string& line) {
    log += line + "\n";
    if (line.rfind("cycle 1  pairs ", 0) == 0) secondCycle = true;
    if (secondCycle && line.rfind("run 2 of 4 ended", 0) == 0) stop = true;
  };
  ASSERT_TRUE(grow(
      " --output " + part, [&] { return stop.load(); }, stopAfterTwoRuns));
  EXPECT_NE(log.find("2 of those runs had ended and are kept"), std::string::npos) << log;
  EXPECT_EQ(TransitionNetworkDatabase::read(part + "/network.h5").growth.cycles, 1);
  const std::string file = part + "/ended-runs";
  ASSERT_TRUE(fs::exists(file));

  const std::string saved = readAll(file);
  const std::vector<EndedConnectRunsRecord> records = endedConnectRunsRecords(saved);
  ASSERT_EQ(records.size(), 3u);  // the settings and two runs
  std::string damaged = saved;
  damaged[records[1].start + 20] ^= 0x10;  // inside the first run's record: damage, not a cut
  std::ofstream(file, std::ios::binary | std::ios::trunc) << damaged;
  try {
    grow(" --resume " + part, never, [](const std::string&) {});
    ADD_FAILURE() << "a damaged " << file << " was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file + ": damaged"), std::string::npos) << e.what();
  }
  std::ofstream(file, std::ios::binary | std::ios::trunc) << saved;

  log.clear();
  ASSERT_FALSE(
      grow(" --resume " + part, never, [&](const std::string& line) { log += line + "\n"; }));
  EXPECT_NE(log.find("cycle 2: 2 of its 4 runs ended before the run was interrupted and are kept"),
            std::string::npos)
      << log;
  const std::string cycle2 = log.substr(0, log.find("cycle 2  pairs "));  // the kept runs' cycle
  EXPECT_NE(cycle2.find("run 3 of 4 ended"), std::string::npos) << log;
  EXPECT_EQ(cycle2.find("run 2 of 4 ended"), std::string::npos) << log;
  expectSameNetworks(whole + "/network.h5", part + "/network.h5");
  EXPECT_FALSE(fs::exists(file));
}

// A kill -9 in a cycle keeps the runs of it that had ended: each is appended to DIR/ended-runs and
// flushed before its line is printed, so the folder copied as "run 2 of 4 ended" of cycle 2 is
// printed is what a kill there leaves. Its --resume runs only the other two and ends with the
// network of a run never interrupted; with the last record cut short (a kill during the append)
// one run is kept and the cut is said; after the cycle's merge was saved, its runs are dropped.
TEST(PathsampleGrowth, KilledCycleKeepsTheRunsThatHadEnded) {
  const GrowthWork w("pathsample-killed-runs");
  const std::string whole = (w.dir / "whole").string();
  const auto grow = [&](const std::string& tail, const ProgressPrinter& print) {
    SoloCommunicator solo;
    return growNetwork(
        parsePathsampleCommandLine(
            words(growArguments(w.dir, 3) + " --pairs-per-cycle 4 --threads 1" + tail)),
        print, [] { return false; }, solo);
  };
  bool secondCycle = false, copied = false;
  const std::string killed = (w.dir / "killed").string(), cut = (w.dir / "cut").string();
  const std::string merged = (w.dir / "merged").string();
  ASSERT_FALSE(grow(" --output " + whole, [&](const std::string& line) {
    if (line.rfind("cycle 1  pairs ", 0) == 0) secondCycle = true;
    if (line.rfind("cycle 2  pairs ", 0) == 0) {  // saved, the file not yet rewritten
      fs::create_directories(merged);
      fs::copy_file(whole + "/network.h5", merged + "/network.h5");
    }
    if (!secondCycle || copied || line.rfind("run 2 of 4 ended", 0) != 0) return;
    copied = true;
    for (const std::string& copy : {killed, cut}) {
      fs::create_directories(copy);
      for (const char* name : {"network.h5", "ended-runs"})
        fs::copy_file(whole + "/" + name, copy + "/" + name);
    }
  }));
  EXPECT_FALSE(fs::exists(whole + "/ended-runs"));  // removed once cycle 2 had merged
  ASSERT_EQ(TransitionNetworkDatabase::read(killed + "/network.h5").growth.cycles, 1);
  const std::string journal = readAll(killed + "/ended-runs");
  ASSERT_EQ(endedConnectRunsRecords(journal).size(), 3u);  // the settings and two runs
  fs::copy_file(killed + "/ended-runs", w.dir / "killed-journal");

  std::string log;
  ASSERT_FALSE(grow(" --resume " + killed, [&](const std::string& line) { log += line + "\n"; }));
  EXPECT_NE(log.find("cycle 2: 2 of its 4 runs ended before the run was interrupted and are kept"),
            std::string::npos)
      << log;
  expectSameNetworks(whole + "/network.h5", killed + "/network.h5");

  std::ofstream(cut + "/ended-runs", std::ios::binary | std::ios::trunc)
      << journal.substr(0, journal.size() - 5);
  log.clear();
  ASSERT_FALSE(grow(" --resume " + cut, [&](const std::string& line) { log += line + "\n"; }));
  EXPECT_NE(log.find("its last run's record was cut short"), std::string::npos) << log;
  EXPECT_NE(log.find("cycle 2: 1 of its 4 runs ended before the run was interrupted and are kept"),
            std::string::npos)
      << log;
  expectSameNetworks(whole + "/network.h5", cut + "/network.h5");
  EXPECT_FALSE(fs::exists(cut + "/ended-runs"));

  // A kill after cycle 2's merge was saved but before the file was rewritten: its runs are of
  // tried pairs now, and are dropped.
  fs::copy_file(w.dir / "killed-journal", merged + "/ended-runs");
  log.clear();
  ASSERT_FALSE(grow(" --resume " + merged, [&](const std::string& line) { log += line + "\n"; }));
  EXPECT_EQ(log.find("are kept"), std::string::npos) << log;
  expectSameNetworks(whole + "/network.h5", merged + "/network.h5");
  EXPECT_FALSE(fs::exists(merged + "/ended-runs"));
}

// --cycles-in-flight 2 on cuda: both cycles' runs share the device's batched calls; the network
// is the same for one run in flight per cycle and for all of them.
TEST(PathsampleGrowth, CudaCyclesInFlightGrowOneNetworkForAnyRunsInFlight) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  const GrowthWork w("pathsample-cycles-cuda");
  const std::string common = overlappingGrowth(w.dir, 4, 2) + " --backend cuda --output ";
  for (const auto& [folder, runs] :
       {std::pair<std::string, std::string>{"one", " --jobs-in-flight 1"}, {"all", " --threads 2"}})
    ASSERT_EQ(run(common + (w.dir / folder).string() + runs, w.dir / "log"), 0)
        << readAll(w.dir / "log");
  expectSameNetworks(w.dir / "one" / "network.h5", w.dir / "all" / "network.h5");
  EXPECT_EQ(TransitionNetworkDatabase::read((w.dir / "all" / "network.h5").string()).growth.cycles,
            4);
}

// --alignments whole on cuda: the DNEB endpoints aligned on the device in shared calls (a block
// per pair) while the bands and descents go on, and the pair selection's distances in calls of
// their own; the network is the same for one run in flight and for all of them.
TEST(PathsampleGrowth, CudaAlignmentsOnTheDeviceGrowOneNetworkForAnyRunsInFlight) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  const GrowthWork w("pathsample-alignments-cuda");
  const std::string common =
      overlappingGrowth(w.dir, 2, 2) + " --backend cuda --alignments whole --output ";
  for (const auto& [folder, runs] :
       {std::pair<std::string, std::string>{"one", " --jobs-in-flight 1"}, {"all", " --threads 2"}})
    ASSERT_EQ(run(common + (w.dir / folder).string() + runs, w.dir / (folder + ".log")), 0)
        << readAll(w.dir / (folder + ".log"));
  EXPECT_NE(readAll(w.dir / "all.log").find("whole alignments"), std::string::npos)
      << readAll(w.dir / "all.log");
  expectSameNetworks(w.dir / "one" / "network.h5", w.dir / "all" / "network.h5");
}

// With cycles in flight, what is saved after each merge is the state before the cycles still in
// flight were taken: a copy of network.h5 taken as cycle 2's line is printed (a kill -9 there)
// resumes to the uninterrupted network, and so do runs stopped after 2, 5 and 9 stop checks
// (before runs, while pairs are chosen, between cycles: wherever the threads were then).
TEST(PathsampleGrowth, CyclesInFlightResumeAfterAKillOrAStop) {
  const GrowthWork w("pathsample-cycles-resume");
  const int cycles = 5;
  const std::string whole = (w.dir / "whole").string(), copy = (w.dir / "killed").string();
  const auto grow = [&](const std::string& tail, const std::function<bool()>& stop,
                        const ProgressPrinter& print) {
    SoloCommunicator solo;
    return growNetwork(
        parsePathsampleCommandLine(words(overlappingGrowth(w.dir, cycles, 2) + tail)), print, stop,
        solo);
  };
  const std::function<bool()> never = [] { return false; };
  const ProgressPrinter quiet = [](const std::string&) {};
  const ProgressPrinter killAtCycle2 = [&](const std::string& line) {
    if (line.rfind("cycle 2  pairs ", 0) != 0) return;
    fs::create_directories(copy);
    fs::copy_file(whole + "/network.h5", copy + "/network.h5");
  };
  ASSERT_FALSE(grow(" --output " + whole, never, killAtCycle2));
  const StoredTransitionNetwork done = TransitionNetworkDatabase::read(whole + "/network.h5");
  const TriedPairs& tried = done.growth.triedPairs;
  ASSERT_EQ(tried.size(), 2u * cycles);
  const StoredTransitionNetwork killed = TransitionNetworkDatabase::read(copy + "/network.h5");
  EXPECT_EQ(killed.growth.cycles, 2);
  EXPECT_EQ(killed.growth.triedPairs, TriedPairs(tried.begin(), tried.begin() + 4));
  ASSERT_GE(killed.growth.pendingPairs.size(), 2u);  // cycle 3's, in flight then, first again
  EXPECT_EQ(TriedPairs(killed.growth.pendingPairs.begin(), killed.growth.pendingPairs.begin() + 2),
            TriedPairs(tried.begin() + 4, tried.begin() + 6));
  ASSERT_FALSE(grow(" --resume " + copy, never, quiet));
  expectSameNetworks(whole + "/network.h5", copy + "/network.h5");
  for (int checks : {2, 5, 9}) {
    const std::string part = (w.dir / ("stopped" + std::to_string(checks))).string();
    std::atomic<int> asked{0};
    EXPECT_TRUE(grow(
        " --output " + part, [&] { return ++asked > checks; }, quiet))
        << checks;
    EXPECT_LT(TransitionNetworkDatabase::read(part + "/network.h5").growth.cycles, cycles);
    ASSERT_FALSE(grow(" --resume " + part, never, quiet));
    expectSameNetworks(whole + "/network.h5", part + "/network.h5");
  }
}

// The wales-group LJ38 UNTRAP example in full: 50 cycles of UNTRAP 0.035 3.0 from 12 minima and
// 11 transition states (PATHSAMPLE: 64 and 70). The grown network is of the same order and
// joins A and B (NGT rates at T = 0.1). About 20 s.
TEST(SlowPathsampleGrowth, Lj38UntrapFiftyCycles) {
  const GrowthWork w("pathsample-grow50");
  const fs::path log = w.dir / "grow.log";
  ASSERT_EQ(run(growArguments(w.dir, 50) + " --output " + (w.dir / "run").string(), log), 0)
      << readAll(log);
  const StoredTransitionNetwork grown =
      TransitionNetworkDatabase::read((w.dir / "run" / "network.h5").string());
  EXPECT_EQ(grown.growth.cycles, 50);
  EXPECT_GE(grown.minima.size(), 32u);
  EXPECT_LE(grown.minima.size(), 128u);
  EXPECT_GE(grown.transitionStates.size(), 35u);
  EXPECT_LE(grown.transitionStates.size(), 140u);
  const GraphTransformationResult r =
      graphTransformationRates(harmonicRateGraph(grown, 0.1), grown.setA, grown.setB);
  EXPECT_TRUE(std::isfinite(r.aFromB.k) && r.aFromB.k > 0.0);
  EXPECT_NEAR(r.detailedBalanceKSS(), 1.0, 1e-8);
}
#endif

}  // namespace
}  // namespace landscape
