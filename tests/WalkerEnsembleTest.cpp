// Walkers (landscape/search/WalkerEnsemble.h): W basin-hopping chains whose quenches go
// through a batched minimiser together. Each walker must be exactly the single chain
// (BasinHopping) seeded with streamSeed(seed, w) -- quench for quench, reseed for reseed -- when
// the minimiser is Lbfgs's bit for bit, so W = 1 is today's run; a run stopped mid-way and resumed
// from its state (through the checkpoint file) must equal the uninterrupted run; the target stops
// the run at the first walker that reaches it; failed quenches are counted per walker and never
// saved; BHPT's ladder and exchange criterion follow their formulas.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/StopRequest.h"
#include "landscape/formats/CheckpointFile.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/minimisation/ParallelLbfgs.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/ParallelTempering.h"
#include "landscape/search/WalkerEnsemble.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/LennardJones.h"
#include "tests/WalkerTestParams.h"

namespace landscape {
namespace {

// A quench as a walker or a chain reports it, every number compared exactly.
struct Quench {
  long quench;
  double energy, markovEnergy;
  int iterations;
  bool accepted, failed, rejected;
  long calls;
  bool operator==(const Quench& o) const {
    return quench == o.quench && energy == o.energy && markovEnergy == o.markovEnergy &&
           iterations == o.iterations && accepted == o.accepted && failed == o.failed &&
           rejected == o.rejected && calls == o.calls;
  }
};
Quench quenchOf(const QuenchReport& q) {
  return {q.quench,   q.energy, q.markovEnergy, q.lbfgsIterations,
          q.accepted, q.failed, q.evaporated,   q.functionCalls};
}

class ChainRecorder : public BasinHoppingObserver {
 public:
  void onQuench(const QuenchReport& q) override { quenches.push_back(quenchOf(q)); }
  void onRestart(const RestartReport& r) override { reseeds += r.reseeded; }
  std::vector<Quench> quenches;
  int reseeds = 0;
};

class WalkerRecorder : public WalkerObserver {
 public:
  explicit WalkerRecorder(long stopAfterRound = -1) : m_stopAfter(stopAfterRound) {}
  void onQuench(int w, const QuenchReport& q) override { quenches[w].push_back(quenchOf(q)); }
  void onRestart(int w, const RestartReport& r) override { reseeds[w] += r.reseeded; }
  void onRound(const WalkerRoundReport& r) override { m_round = r.round; }
  void onState(const WalkerEnsembleState& s) override { states.push_back(s); }
  bool stopRequested() override { return m_stopAfter >= 0 && m_round >= m_stopAfter; }
  std::map<int, std::vector<Quench>> quenches;
  std::map<int, int> reseeds;
  std::vector<WalkerEnsembleState> states;

 private:
  long m_stopAfter;
  long m_round = -1;
};

// ParallelLbfgs over `threads` Lennard-Jones potentials of n atoms.
struct ParallelMaker {
  ParallelMaker(std::size_t atoms, int threads) {
    for (int t = 0; t < threads; ++t) potentials.push_back(std::make_unique<LennardJones>(atoms));
  }
  BatchedMinimiserMaker maker() {
    std::vector<Potential*> p;
    for (auto& q : potentials) p.push_back(q.get());
    return [p](const LbfgsParams& params) -> std::unique_ptr<BatchedMinimiser> {
      return std::make_unique<ParallelLbfgs>(p, params);
    };
  }
  std::vector<std::unique_ptr<Potential>> potentials;
};

// BHPT between kT 0.5 and 2 (LJ13's walkers exchange often there).
ParallelTemperingParams ladderFrom05To2(int interval) {
  ParallelTemperingParams pt;
  pt.enabled = true;
  pt.minTemperature = 0.5;
  pt.maxTemperature = 2.0;
  pt.interval = interval;
  return pt;
}

void expectSameMinima(const std::vector<StoredMinimum>& a, const std::vector<StoredMinimum>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].energy, b[i].energy) << "minimum " << i;
    EXPECT_EQ(a[i].coordinates, b[i].coordinates) << "minimum " << i;
    EXPECT_EQ(a[i].firstFoundStep, b[i].firstFoundStep) << "minimum " << i;
  }
}

TEST(WalkerEnsemble, StreamSeedsDependOnlyOnSeedAndIndex) {
  EXPECT_EQ(streamSeed(7, 0), 7u);  // walker 0 is the seed's own run
  EXPECT_EQ(streamSeed(7, 3), streamSeed(7, 3));
  EXPECT_NE(streamSeed(7, 3), streamSeed(7, 4));
  EXPECT_NE(streamSeed(7, 3), streamSeed(8, 3));
}

// W = 1 through ParallelLbfgs is BasinHopping's run quench for quench, minimum for minimum.
TEST(WalkerEnsemble, OneWalkerIsTheSingleChainBitForBit) {
  LennardJones lj(13);
  const BasinHoppingParams p = walkerParams(120, 5);
  ChainRecorder chain;
  const BasinHoppingResult single = BasinHopping(lj, p).run({}, &chain);
  ASSERT_GT(chain.reseeds, 0) << "the settings should reseed";

  ParallelMaker engine(13, 1);
  WalkerRecorder walkers;
  const WalkerEnsembleResult ensemble =
      WalkerEnsemble(lj, p, 1, {}, engine.maker()).run({}, &walkers);
  EXPECT_EQ(walkers.quenches[0], chain.quenches);
  EXPECT_EQ(walkers.reseeds[0], chain.reseeds);
  expectSameMinima(ensemble.total.lowest, single.lowest);
  EXPECT_EQ(ensemble.total.functionCalls, single.functionCalls);
  EXPECT_EQ(ensemble.total.quenches, single.quenches);
  EXPECT_EQ(ensemble.total.restarts, single.restarts);
}

// Walker w of W = 4 is the single chain of seed streamSeed(seed, w), with the round-based CPU
// reference (BatchedLbfgs, 2 threads) as the batched minimiser and its reseeds batched per round.
TEST(WalkerEnsemble, EachWalkerIsTheSingleChainOfItsStream) {
  LennardJones lj(13);
  const BasinHoppingParams p = walkerParams(60, 9);
  BatchedLennardJones batched(13, 2);
  WalkerRecorder walkers;
  const int w = 4;
  const WalkerEnsembleResult ensemble =
      WalkerEnsemble(lj, p, w, {},
                     [&batched](const LbfgsParams& params) -> std::unique_ptr<BatchedMinimiser> {
                       return std::make_unique<BatchedLbfgs>(batched, params, 2);
                     })
          .run({}, &walkers);
  long calls = 0;
  for (int i = 0; i < w; ++i) {
    BasinHoppingParams own = p;
    own.seed = streamSeed(p.seed, static_cast<std::uint64_t>(i));
    ChainRecorder chain;
    const BasinHoppingResult single = BasinHopping(lj, own).run({}, &chain);
    EXPECT_EQ(walkers.quenches[i], chain.quenches) << "walker " << i;
    EXPECT_EQ(walkers.reseeds[i], chain.reseeds) << "walker " << i;
    // The shared list holds every walker's lowest minimum (or one within EDIFF of it).
    bool found = false;
    for (const StoredMinimum& m : ensemble.total.lowest)
      found |= std::abs(m.energy - single.lowest.front().energy) < 2 * p.energyDifference ||
               m.energy < single.lowest.front().energy;
    EXPECT_TRUE(found) << "walker " << i;
    calls += chain.quenches.back().calls;
  }
  EXPECT_EQ(ensemble.total.quenches, 60 * w);
  EXPECT_GE(ensemble.total.functionCalls, calls);  // + the shared list's tight re-quench
}

// The walkers propose their steps and test their quenches on the ensemble's host threads
// (WalkerEnsemble::forEachChain): the run is the same, report for report and minimum for minimum,
// for 1, 3 and 16 threads, with NEWRESTART reseeds and BHPT exchanges under way.
TEST(WalkerEnsemble, EveryNumberOfHostThreadsGivesTheSameRun) {
  LennardJones lj(13);
  const BasinHoppingParams p = walkerParams(50, 17);
  const ParallelTemperingParams pt = ladderFrom05To2(/*interval=*/5);
  ParallelMaker engine(13, 2);
  std::vector<WalkerRecorder> recorders(3);
  std::vector<WalkerEnsembleResult> results;
  const int threads[] = {1, 3, 16};
  for (int t = 0; t < 3; ++t) {
    WalkerEnsemble ensemble(lj, p, 12, pt, engine.maker());
    ensemble.setHostThreads(threads[t]);
    results.push_back(ensemble.run({}, &recorders[t]));
  }
  int reseeds = 0;
  for (const auto& r : recorders[0].reseeds) reseeds += r.second;
  ASSERT_GT(reseeds, 0) << "the settings should reseed";
  for (int t = 1; t < 3; ++t) {
    for (int w = 0; w < 12; ++w) {
      EXPECT_EQ(recorders[t].quenches[w], recorders[0].quenches[w])
          << threads[t] << " threads, walker " << w;
      EXPECT_EQ(recorders[t].reseeds[w], recorders[0].reseeds[w]);
    }
    expectSameMinima(results[t].total.lowest, results[0].total.lowest);
    EXPECT_EQ(results[t].total.functionCalls, results[0].total.functionCalls);
    EXPECT_EQ(results[t].exchange.accepted, results[0].exchange.accepted);
  }
}

// Hooks that are not concurrent (a move that keeps a counter, as gmin's Langevin move does) run
// on the calling thread, one walker after the other, whatever the host threads.
TEST(WalkerEnsemble, HooksThatAreNotConcurrentRunOnTheCallingThreadInWalkerOrder) {
  LennardJones lj(13);
  const BasinHoppingParams p = walkerParams(6, 4);
  std::vector<std::thread::id> callers;
  std::vector<double> firstCoordinate;
  BasinHoppingHooks hooks;
  hooks.extraMove = [&](std::vector<double>& x, Random&) {
    callers.push_back(std::this_thread::get_id());
    firstCoordinate.push_back(x[0]);
  };
  hooks.concurrent = false;
  ParallelMaker engine(13, 2);
  WalkerEnsemble ensemble(lj, p, 8, {}, engine.maker(), hooks);
  ensemble.setHostThreads(4);
  ensemble.run({});
  ASSERT_EQ(callers.size(), 6u * 8u);  // steps 1..6 of 8 walkers
  for (const std::thread::id& id : callers) EXPECT_EQ(id, std::this_thread::get_id());

  // The same moves, in the same order, as one walker after the other on one thread.
  std::vector<double> sequential;
  hooks.extraMove = [&](std::vector<double>& x, Random&) { sequential.push_back(x[0]); };
  WalkerEnsemble one(lj, p, 8, {}, engine.maker(), hooks);
  one.setHostThreads(1);
  one.run({});
  EXPECT_EQ(sequential, firstCoordinate);
}

// With symmetrisation on, each walker computes its candidates on the ensemble's host threads
// before the round (WalkerEnsemble::round): still the single chain of its stream, quench by quench.
TEST(WalkerEnsemble, WalkersWithSymmetrisationAreTheSingleChainsOfTheirStreams) {
  LennardJones lj(13);
  for (const auto scheme :
       {SymmetrisationParams::Scheme::Csm, SymmetrisationParams::Scheme::CoreCompletion}) {
    BasinHoppingParams p = walkerParams(40, 21);
    p.symmetrisation.scheme = scheme;
    p.symmetrisation.interval = 2;
    p.symmetrisation.csmQuenches = 2;
    p.symmetrisation.core.orbitTolerance = 0.03;
    p.symmetrisation.core.overlapDistance = 0.7;
    p.symmetrisation.core.maxCandidates = 4;
    ParallelMaker maker(13, 3);
    WalkerRecorder walkers;
    const int w = 6;
    WalkerEnsemble(lj, p, w, {}, maker.maker()).run({}, &walkers);
    for (int i = 0; i < w; ++i) {
      BasinHoppingParams own = p;
      own.seed = streamSeed(p.seed, static_cast<std::uint64_t>(i));
      ChainRecorder chain;
      BasinHopping(lj, own).run({}, &chain);
      EXPECT_EQ(walkers.quenches[i], chain.quenches) << "walker " << i;
    }
  }
}

// A walker state written to a checkpoint file and read back, as gmin --resume reads it.
Checkpoint throughCheckpointFile(const WalkerEnsembleState& state, long steps) {
  Checkpoint c;
  c.steps = steps;
  c.setWalkerState(state);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("landscape-walkers-" + std::to_string(::getpid())))
          .string();
  writeCheckpointFile(path, c);
  const Checkpoint read = readCheckpointFile(path);
  std::filesystem::remove(path);
  return read;
}

// The bytes of a walker state's checkpoint file.
std::string checkpointBytes(const WalkerEnsembleState& state, long steps) {
  Checkpoint c;
  c.steps = steps;
  c.setWalkerState(state);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("landscape-walker-bytes-" + std::to_string(::getpid())))
                               .string();
  writeCheckpointFile(path, c);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::filesystem::remove(path);
  return bytes.str();
}

// Without per-walker reports (gmin without --verbose) the walkers complete their steps on host
// threads, but for symmetrisation candidates and quenches re-quenched near the target, which
// complete on the calling thread: the run must be the one of completions one after the other in
// walker order (an observer that records the reports), down to every walker's state in the final
// checkpoint and the saved minima. The target lies 0.02 below LJ13's global minimum, so that
// quenches near the minimum are re-quenched and none reaches it.
class QuietObserver : public WalkerObserver {
 public:
  bool wantsWalkerReports() const override { return false; }
  void onState(const WalkerEnsembleState& s) override { last = s; }
  WalkerEnsembleState last;
};

TEST(WalkerEnsemble, WalkersCompletingOnHostThreadsGiveTheRunOfOneAfterTheOther) {
  LennardJones lj(13);
  for (const bool symmetrise : {false, true}) {
    BasinHoppingParams p = walkerParams(60, 29);
    p.targetEnergy = -44.326801 - 0.02;
    if (symmetrise) {
      p.symmetrisation.scheme = SymmetrisationParams::Scheme::Csm;
      p.symmetrisation.interval = 2;
      p.symmetrisation.csmQuenches = 2;
    }
    const ParallelTemperingParams pt = ladderFrom05To2(/*interval=*/5);
    ParallelMaker engine(13, 2);
    WalkerRecorder recorded;
    WalkerEnsemble one(lj, p, 12, pt, engine.maker());
    one.setHostThreads(4);
    const WalkerEnsembleResult serial = one.run({}, &recorded);
    QuietObserver quiet;
    WalkerEnsemble many(lj, p, 12, pt, engine.maker());
    many.setHostThreads(4);
    const WalkerEnsembleResult threaded = many.run({}, &quiet);
    ASSERT_FALSE(recorded.states.empty());
    EXPECT_LT(serial.targetWalker, 0) << "the target must stay out of reach";
    EXPECT_EQ(checkpointBytes(quiet.last, p.steps),
              checkpointBytes(recorded.states.back(), p.steps))
        << (symmetrise ? "with" : "without") << " symmetrisation";
    expectSameMinima(threaded.total.lowest, serial.total.lowest);
    EXPECT_EQ(threaded.total.functionCalls, serial.total.functionCalls);
    EXPECT_EQ(threaded.exchange.accepted, serial.exchange.accepted);
    int reseeds = 0, nearTarget = 0;
    for (const auto& r : recorded.reseeds) reseeds += r.second;
    const double reach = *p.targetEnergy + p.energyDifference;
    for (const auto& [walker, quenches] : recorded.quenches)
      for (const Quench& q : quenches)
        nearTarget +=
            !q.rejected && q.energy > reach && q.energy <= reach + 10 * p.energyDifference;
    EXPECT_GT(reseeds, 0) << "NEWRESTART should reseed";
    EXPECT_GT(nearTarget, 0) << "some quenches should be re-quenched for the target";
  }
}

// Stopped after round 23, written to a checkpoint file and read back, resumed to round 70: the
// same quenches, exchanges and minima as the run that never stopped (8 walkers, BHPT on).
TEST(WalkerEnsemble, ResumedRunEqualsTheUninterruptedRun) {
  LennardJones lj(13);
  const BasinHoppingParams p = walkerParams(70, 3);
  const ParallelTemperingParams pt = ladderFrom05To2(/*interval=*/4);
  ParallelMaker engine(13, 2);
  WalkerRecorder full;
  const WalkerEnsembleResult reference =
      WalkerEnsemble(lj, p, 8, pt, engine.maker()).run({}, &full);

  WalkerRecorder first(23);
  WalkerEnsemble(lj, p, 8, pt, engine.maker()).run({}, &first);
  ASSERT_FALSE(first.states.empty());
  const Checkpoint read = throughCheckpointFile(first.states.back(), p.steps);
  ASSERT_EQ(read.walkers(), 8);
  WalkerRecorder second;
  const WalkerEnsembleResult resumed =
      WalkerEnsemble(lj, p, 8, pt, engine.maker()).resume(read.walkerState(), &second);
  for (int w = 0; w < 8; ++w) {
    std::vector<Quench> pieced = first.quenches[w];
    pieced.insert(pieced.end(), second.quenches[w].begin(), second.quenches[w].end());
    EXPECT_EQ(pieced, full.quenches[w]) << "walker " << w;
  }
  expectSameMinima(resumed.total.lowest, reference.total.lowest);
  EXPECT_EQ(resumed.total.functionCalls, reference.total.functionCalls);
  EXPECT_EQ(resumed.exchange.accepted, reference.exchange.accepted);
  long accepted = 0;
  for (long a : reference.exchange.accepted) accepted += a;
  EXPECT_GT(accepted, 0) << "the replicas should exchange";
}

// Random starts (quench 0 and NEWRESTART reseeds) as the chains draw them, with a stop request on
// call `stopAt` (0: never): the reseed quench that follows is cut short at its first iteration.
BasinHoppingHooks startsStoppingAt(int stopAt, std::shared_ptr<int> calls) {
  BasinHoppingHooks hooks;
  hooks.randomStructure = [stopAt, calls](Random& random) {
    if (++*calls == stopAt) requestStop();
    return randomCluster(13, defaultContainerRadius(13), 0.7, random);
  };
  return hooks;
}

struct ClearStopRequest {
  ~ClearStopRequest() { clearStopRequest(); }
};

// A stop request during a NEWRESTART reseed quench: the steps of that round are complete, the
// reseeds stay pending in the state (through the checkpoint file), and the resumed run quenches
// them first and ends exactly as the run that never stopped (before, the reseeded walker started
// where the stopped quench left it, with energy +infinity, and the runs parted).
TEST(WalkerEnsemble, StopInAReseedQuenchResumesToTheUninterruptedRun) {
  ClearStopRequest clear;
  LennardJones lj(13);
  const BasinHoppingParams p = walkerParams(70, 3);
  const int walkers = 4;
  ParallelMaker engine(13, 2);
  WalkerRecorder full;
  const WalkerEnsembleResult reference =
      WalkerEnsemble(lj, p, walkers, {}, engine.maker(),
                     startsStoppingAt(0, std::make_shared<int>(0)))
          .run({}, &full);
  int reseeds = 0;
  for (const auto& [w, n] : full.reseeds) reseeds += n;
  ASSERT_GT(reseeds, 1) << "the settings should reseed";

  // Calls 1-4 are the walkers' quench-0 starts; call 6 is the second reseed's.
  WalkerRecorder first;
  const WalkerEnsembleResult stopped = WalkerEnsemble(lj, p, walkers, {}, engine.maker(),
                                                      startsStoppingAt(6, std::make_shared<int>(0)))
                                           .run({}, &first);
  clearStopRequest();
  ASSERT_TRUE(stopped.total.stoppedEarly);
  ASSERT_FALSE(first.states.empty());
  int pending = 0;
  for (const BasinHoppingState& s : first.states.back().walkers)
    pending += !s.pendingReseedStart.empty();
  ASSERT_EQ(pending, 1) << "the stop should come in a reseed quench";
  const Checkpoint read = throughCheckpointFile(first.states.back(), p.steps);
  WalkerRecorder second;
  const WalkerEnsembleResult resumed = WalkerEnsemble(lj, p, walkers, {}, engine.maker(),
                                                      startsStoppingAt(0, std::make_shared<int>(0)))
                                           .resume(read.walkerState(), &second);
  for (int w = 0; w < walkers; ++w) {
    std::vector<Quench> pieced = first.quenches[w];
    pieced.insert(pieced.end(), second.quenches[w].begin(), second.quenches[w].end());
    EXPECT_EQ(pieced, full.quenches[w]) << "walker " << w;
    EXPECT_EQ(first.reseeds[w] + second.reseeds[w], full.reseeds[w]) << "walker " << w;
  }
  expectSameMinima(resumed.total.lowest, reference.total.lowest);
  EXPECT_EQ(resumed.total.functionCalls, reference.total.functionCalls);
}

// A stop request in a trial quench late in the run, thousands of random numbers after the chains'
// last generator marks (BasinHoppingRun::undoProposal): every walker's proposal of that round is
// undone, and the resumed run equals the run that never stopped.
TEST(WalkerEnsemble, StopInALateTrialQuenchResumesToTheUninterruptedRun) {
  ClearStopRequest clear;
  LennardJones lj(13);
  const BasinHoppingParams p = walkerParams(160, 11);
  const int walkers = 4;
  ParallelMaker engine(13, 2);
  auto stoppingAt = [](long stopAt) {
    BasinHoppingHooks hooks;
    auto calls = std::make_shared<std::atomic<long>>(0);
    hooks.extraMove = [stopAt, calls](std::vector<double>&, Random&) {
      if (++*calls == stopAt) requestStop();
    };
    return hooks;
  };
  WalkerRecorder full;
  const WalkerEnsembleResult reference =
      WalkerEnsemble(lj, p, walkers, {}, engine.maker(), stoppingAt(0)).run({}, &full);
  // Proposal 4 x 137 + 2: in round 138, about 5,000 draws into each chain.
  WalkerRecorder first;
  const WalkerEnsembleResult stopped =
      WalkerEnsemble(lj, p, walkers, {}, engine.maker(), stoppingAt(4 * 137 + 2)).run({}, &first);
  clearStopRequest();
  ASSERT_TRUE(stopped.total.stoppedEarly);
  ASSERT_FALSE(first.states.empty());
  const Checkpoint read = throughCheckpointFile(first.states.back(), p.steps);
  WalkerRecorder second;
  const WalkerEnsembleResult resumed =
      WalkerEnsemble(lj, p, walkers, {}, engine.maker(), stoppingAt(0))
          .resume(read.walkerState(), &second);
  for (int w = 0; w < walkers; ++w) {
    EXPECT_LT(first.quenches[w].size(), full.quenches[w].size()) << "walker " << w;
    std::vector<Quench> pieced = first.quenches[w];
    pieced.insert(pieced.end(), second.quenches[w].begin(), second.quenches[w].end());
    EXPECT_EQ(pieced, full.quenches[w]) << "walker " << w;
  }
  expectSameMinima(resumed.total.lowest, reference.total.lowest);
  EXPECT_EQ(resumed.total.functionCalls, reference.total.functionCalls);
}

// The same for one chain (BasinHopping): a reseed quench cut short is quenched first on resume.
TEST(WalkerEnsemble, OneChainStoppedInAReseedQuenchResumesToTheUninterruptedRun) {
  ClearStopRequest clear;
  LennardJones lj(13);
  const BasinHoppingParams p = walkerParams(120, 5);
  ChainRecorder full;
  const BasinHoppingResult reference =
      BasinHopping(lj, p, {}, startsStoppingAt(0, std::make_shared<int>(0))).run({}, &full);
  ASSERT_GT(full.reseeds, 1) << "the settings should reseed";

  class StateRecorder : public ChainRecorder {
   public:
    void onState(const BasinHoppingState& s) override { states.push_back(s); }
    std::vector<BasinHoppingState> states;
  } first;
  // Call 1 is quench 0's start; call 3 the second reseed's.
  const BasinHoppingResult stopped =
      BasinHopping(lj, p, {}, startsStoppingAt(3, std::make_shared<int>(0))).run({}, &first);
  clearStopRequest();
  ASSERT_TRUE(stopped.stoppedEarly);
  ASSERT_FALSE(first.states.empty());
  ASSERT_FALSE(first.states.back().pendingReseedStart.empty());
  ChainRecorder second;
  const BasinHoppingResult resumed =
      BasinHopping(lj, p, {}, startsStoppingAt(0, std::make_shared<int>(0)))
          .resume(first.states.back(), &second);
  std::vector<Quench> pieced = first.quenches;
  pieced.insert(pieced.end(), second.quenches.begin(), second.quenches.end());
  EXPECT_EQ(pieced, full.quenches);
  EXPECT_EQ(first.reseeds + second.reseeds, full.reseeds);
  expectSameMinima(resumed.lowest, reference.lowest);
  EXPECT_EQ(resumed.functionCalls, reference.functionCalls);
}

// The walkers' Markov states and their crowd-limit reseeds, round by round.
class CrowdRecorder : public WalkerObserver {
 public:
  void onRestart(int w, const RestartReport& r) override {
    if (r.reason == RestartReport::Reason::Crowded)
      crowded[r.quench].push_back({w, r.chainBestEnergy});
  }
  void onState(const WalkerEnsembleState& s) override {
    std::vector<double> energies;
    for (const BasinHoppingState& w : s.walkers) energies.push_back(w.markovEnergy);
    markov.push_back(energies);
  }
  std::map<long, std::vector<std::pair<int, double>>> crowded;  ///< round -> (walker, energy left)
  std::vector<std::vector<double>> markov;                      ///< after each round
};

// crowdLimit K: after every round at most K of the walkers that kept their Markov state share one
// minimum (energies within EDIFF), and every walker moved off a minimum left it to K lower-index
// walkers; the run is the same for a seed whatever the threads.
TEST(WalkerEnsemble, CrowdLimitKeepsAtMostKWalkersOnOneMinimum) {
  LennardJones lj(13);
  for (int limit : {1, 2}) {
    BasinHoppingParams p = walkerParams(40, 5);
    p.newRestartSteps = 0;  // every reseed is the crowd limit's
    p.avoidDistance = 0.0;
    p.crowdLimit = limit;
    p.dumpInterval = 1;  // the state after every round
    ParallelMaker engine(13, 2);
    CrowdRecorder walkers;
    const WalkerEnsembleResult r = WalkerEnsemble(lj, p, 12, {}, engine.maker()).run({}, &walkers);
    ASSERT_EQ(walkers.markov.size(), 41u);  // after every round, and once at the end
    std::size_t moved = 0;
    for (long round = 1; round <= 40; ++round) {
      const std::vector<double>& e = walkers.markov[static_cast<std::size_t>(round - 1)];
      std::vector<bool> reseeded(12, false);
      for (const auto& [w, left] : walkers.crowded[round]) {
        reseeded[static_cast<std::size_t>(w)] = true;
        int stayed = 0;  // lower-index walkers still on the minimum it left
        for (int v = 0; v < w; ++v)
          stayed += std::abs(e[static_cast<std::size_t>(v)] - left) < p.energyDifference;
        EXPECT_GE(stayed, limit) << "round " << round << " walker " << w;
        ++moved;
      }
      for (std::size_t a = 0; a < 12; ++a) {
        if (reseeded[a]) continue;
        int same = 1;
        for (std::size_t b = a + 1; b < 12; ++b)
          same += !reseeded[b] && std::abs(e[a] - e[b]) < p.energyDifference;
        EXPECT_LE(same, limit) << "round " << round << " walker " << a << " E " << e[a];
      }
    }
    EXPECT_GT(moved, 10u) << "LJ13's walkers gather on its global minimum: the limit must act";
    EXPECT_EQ(r.total.restarts, static_cast<long>(moved));
    ParallelMaker other(13, 3);
    CrowdRecorder again;
    const WalkerEnsembleResult s = WalkerEnsemble(lj, p, 12, {}, other.maker()).run({}, &again);
    EXPECT_EQ(again.markov, walkers.markov);
    expectSameMinima(s.total.lowest, r.total.lowest);
  }
}

// The run stops after the round in which the first walker reaches the target; the walker named is
// the lowest index among those whose quench reached it in that round, and none reached it before.
TEST(WalkerEnsemble, TargetStopsAtTheFirstWalkerThatReachesIt) {
  LennardJones lj(13);
  BasinHoppingParams p = walkerParams(500, 11);
  p.targetEnergy = -44.326801;  // LJ13 global minimum (Cambridge Cluster Database)
  ParallelMaker engine(13, 2);
  WalkerRecorder walkers;
  const WalkerEnsembleResult r = WalkerEnsemble(lj, p, 6, {}, engine.maker()).run({}, &walkers);
  ASSERT_GE(r.targetWalker, 0);
  const long round = r.total.targetQuench;
  EXPECT_LT(round, p.steps);
  EXPECT_EQ(r.targetRoundQuenches, round * 6);
  int first = -1;
  for (int w = 0; w < 6; ++w) {
    ASSERT_EQ(walkers.quenches[w].back().quench, round) << "all walkers finish the round";
    for (const Quench& q : walkers.quenches[w]) {
      const bool hit = !q.rejected && q.energy <= *p.targetEnergy + p.energyDifference;
      if (hit) EXPECT_EQ(q.quench, round) << "walker " << w << " reached it earlier";
      if (hit && first < 0) first = w;
    }
  }
  EXPECT_EQ(r.targetWalker, first);
  EXPECT_NEAR(r.total.lowest.front().energy, -44.326801, 1e-5);
}

// With a 3-iteration cap most quenches fail: each walker counts its own, as the single chain of its
// stream does, and no failed quench is ever saved.
TEST(WalkerEnsemble, FailedQuenchesAreCountedPerWalkerAndNeverSaved) {
  LennardJones lj(13);
  BasinHoppingParams p = walkerParams(30, 2);
  p.sloppyMaxIterations = 40;
  ParallelMaker engine(13, 2);
  WalkerRecorder walkers;
  const WalkerEnsembleResult r = WalkerEnsemble(lj, p, 3, {}, engine.maker()).run({}, &walkers);
  long total = 0;
  for (int w = 0; w < 3; ++w) {
    BasinHoppingParams own = p;
    own.seed = streamSeed(p.seed, static_cast<std::uint64_t>(w));
    ChainRecorder chain;
    BasinHopping(lj, own).run({}, &chain);
    long failed = 0;
    for (const Quench& q : walkers.quenches[w]) failed += q.failed;
    EXPECT_EQ(walkers.quenches[w], chain.quenches);
    EXPECT_GT(failed, 0) << "walker " << w;
    total += failed;
  }
  long perWalker = 0;
  for (long f : r.failedPerWalker) perWalker += f;
  EXPECT_GE(perWalker, total);  // + failed tight re-quenches, counted on walker 0
  for (const StoredMinimum& m : r.total.lowest) {
    bool fromGoodQuench = false;
    for (auto& [w, qs] : walkers.quenches)
      for (const Quench& q : qs)
        fromGoodQuench |= !q.failed && std::abs(q.energy - m.energy) < 1e-2;
    EXPECT_TRUE(fromGoodQuench) << m.energy;
  }
}

// GPU walkers (LJ38 on --backend cuda): 64 walkers whose quenches run in one BatchedLbfgsCuda
// launch per round make the same quenches, bit for bit, as with the kernel's CPU twin.
// The LJ38 team engine with one shape on both sides (one warp, tiles of 8: LJ38's automatic shape
// on the H100/H200), so that the GPU run is its CPU twin's bit for bit.
BatchedMinimiserMaker lj38TeamEngine(Backend backend) {
  return [backend](const LbfgsParams& params) {
    BatchedEngineOptions options;
    options.engine = BatchedEngine::Team;
    options.shape = {1, 8};
    return makeBatchedMinimiser({38}, params, backend, options);
  };
}

TEST(WalkerEnsembleCuda, EqualsTheCpuTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  LennardJones lj(38);
  BasinHoppingParams p = walkerParams(25, 8);
  p.newRestartSteps = 40;
  p.avoidDistance = 4.0;
  p.avoidMaxSaved = 20;
  WalkerRecorder twin, gpu;
  const WalkerEnsembleResult a =
      WalkerEnsemble(lj, p, 64, {}, lj38TeamEngine(Backend::Cpu)).run({}, &twin);
  const WalkerEnsembleResult b =
      WalkerEnsemble(lj, p, 64, {}, lj38TeamEngine(Backend::Cuda)).run({}, &gpu);
  for (int w = 0; w < 64; ++w) EXPECT_EQ(gpu.quenches[w], twin.quenches[w]) << "walker " << w;
  expectSameMinima(b.total.lowest, a.total.lowest);
}

// SYMMETRISECSM candidates quenched by the LJ team kernel: the GPU walkers remain the CPU twin's.
TEST(WalkerEnsembleCuda, WithSymmetrisationEqualsTheCpuTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device";
  LennardJones lj(38);
  BasinHoppingParams p = walkerParams(25, 8);
  p.symmetrisation.scheme = SymmetrisationParams::Scheme::Csm;
  p.symmetrisation.interval = 1;
  WalkerRecorder twin, gpu;
  const WalkerEnsembleResult a =
      WalkerEnsemble(lj, p, 64, {}, lj38TeamEngine(Backend::Cpu)).run({}, &twin);
  const WalkerEnsembleResult b =
      WalkerEnsemble(lj, p, 64, {}, lj38TeamEngine(Backend::Cuda)).run({}, &gpu);
  for (int w = 0; w < 64; ++w) EXPECT_EQ(gpu.quenches[w], twin.quenches[w]) << "walker " << w;
  expectSameMinima(b.total.lowest, a.total.lowest);
}

TEST(ParallelTempering, LadderIsGeometricFromTminToTmax) {
  const std::vector<double> t = temperatureLadder(5, 0.5, 8.0);
  ASSERT_EQ(t.size(), 5u);
  EXPECT_DOUBLE_EQ(t.front(), 0.5);
  EXPECT_DOUBLE_EQ(t.back(), 8.0);
  for (std::size_t i = 1; i < t.size(); ++i) EXPECT_NEAR(t[i] / t[i - 1], 2.0, 1e-12);
  EXPECT_EQ(temperatureLadder(1, 0.5, 8.0), std::vector<double>{0.5});
}

// The swap probability min(1, exp[(1/Ti - 1/Tj)(Ei - Ej)]): always downhill, and uphill at the
// Boltzmann ratio within 4 standard errors over 20000 trials.
TEST(ParallelTempering, ExchangeCriterionFollowsTheBoltzmannRatio) {
  Random random(1);
  EXPECT_TRUE(exchangeAccepted(-10.0, 1.0, -12.0, 2.0, random));  // cold replica higher: swap
  const double ei = -12.0, ej = -10.0, ti = 1.0, tj = 2.0;
  const double expected = std::exp((1.0 / ti - 1.0 / tj) * (ei - ej));  // e^-1
  int accepted = 0;
  const int trials = 20000;
  for (int k = 0; k < trials; ++k) accepted += exchangeAccepted(ei, ti, ej, tj, random);
  const double sigma = std::sqrt(expected * (1 - expected) / trials);
  EXPECT_NEAR(static_cast<double>(accepted) / trials, expected, 4 * sigma);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(exchangeAccepted(inf, ti, inf, tj, random));   // two failed states: no swap
  EXPECT_TRUE(exchangeAccepted(inf, ti, -10.0, tj, random));  // a failed cold state moves up
}

}  // namespace
}  // namespace landscape
