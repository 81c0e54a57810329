// Walkers spread over processes (landscape/search/WalkerPeers.h, WalkerEnsemble.h): each process
// runs only its own block of the walkers and they exchange what couples them. The run must be the
// one-process run bit for bit for any number of processes -- every walker's quenches, the shared
// lowest list, the crowd limit's reseeds, BHPT's exchanges across process boundaries, the target
// walker and round, the checkpointed states and the totals -- and a state saved by one process
// count must resume on another. The processes are threads here (tests/ThreadRanks.h, through
// gmin's RankWalkerPeers), so this runs in every build, MPI or not; tests/MpiGminTest.cpp runs
// the same through mpirun.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "landscape/core/ByteStream.h"
#include "landscape/core/IndexBlock.h"
#include "landscape/minimisation/ParallelLbfgs.h"
#include "landscape/search/ParallelTempering.h"
#include "landscape/search/WalkerEnsemble.h"
#include "landscape/search/WalkerMessages.h"
#include "landscape/search/WalkerPeers.h"
#include "potentials/LennardJones.h"
#include "src/gmin/GminRanks.h"
#include "tests/WalkerTestParams.h"
#include "tests/ThreadRanks.h"

namespace landscape {
namespace {

TEST(WalkerPeers, SlicesCoverTheWalkersInProcessOrderAndDifferByAtMostOne) {
  for (std::size_t total : {1u, 5u, 7u, 64u, 1001u})
    for (int count = 1; count <= 5; ++count) {
      std::size_t next = 0, smallest = total, largest = 0;
      for (int p = 0; p < count; ++p) {
        const IndexBlock s = indexBlock(total, p, count);
        EXPECT_EQ(s.first, next) << total << " over " << count;
        next = s.last;
        smallest = std::min(smallest, s.count());
        largest = std::max(largest, s.count());
      }
      EXPECT_EQ(next, total);
      EXPECT_LE(largest - smallest, 1u);
    }
  EXPECT_THROW(indexBlock(5, 3, 3), std::invalid_argument);
}

// Every field of a walker's state, through the bytes and back.
TEST(WalkerPeers, StateTravelsWithEveryBit) {
  BasinHoppingState s;
  s.quench = 17;
  s.markov = {0.1, -2.5e-300, 3.0};
  s.markovEnergy = -44.3268;
  s.stepSize = 0.37;
  s.acceptedInWindow = 3;
  s.stepsInWindow = 5;
  s.functionCalls = 123456789012;
  s.restarts = 2;
  s.failedQuenches = 1;
  s.targetReached = true;
  s.targetQuench = 12;
  s.targetFunctionCalls = 99;
  s.random = "1 2 3 4";
  s.newRestart.best = -40.0;
  s.newRestart.previousBest = -39.0;
  s.newRestart.bestCoords = {1.0, 2.0};
  s.newRestart.previousBestCoords = {3.0};
  s.newRestart.bestStep = 8;
  s.newRestart.tabooEnergies = {-41.0, -42.0};
  s.newRestart.tabooCoords = {{1.0}, {2.0, 3.0}};
  s.newRestart.tabooNext = 1;
  s.symmetrisation.lastAttemptEnergy = -43.0;
  s.symmetrisation.ordinaryStepOwed = true;
  s.symmetrisation.candidates = {{4.0, 5.0}};
  s.symmetrisation.downhillStepsLeft = 2;
  s.symmetrisation.quenched = 3;
  s.symmetrisation.bestEnergy = -43.5;
  s.symmetrisation.best = {6.0};
  s.symmetrisation.detail = "C2v core";
  s.lowest = {{-44.0, {7.0, 8.0}, 3, 40}, {-43.0, {9.0}, 5, -1}};
  s.pendingReseedStart = {0.5, -0.25};
  s.pendingReseed = {NewRestart::Action::Reseed, NewRestart::Reason::Crowded, -42.5};
  ByteWriter out;
  putBasinHoppingState(out, s);
  ByteReader in(out.bytes(), "state");
  const BasinHoppingState t = getBasinHoppingState(in);
  EXPECT_TRUE(in.done());
  EXPECT_EQ(t.quench, s.quench);
  EXPECT_EQ(t.markov, s.markov);
  EXPECT_EQ(t.markovEnergy, s.markovEnergy);
  EXPECT_EQ(t.stepSize, s.stepSize);
  EXPECT_EQ(t.acceptedInWindow, s.acceptedInWindow);
  EXPECT_EQ(t.stepsInWindow, s.stepsInWindow);
  EXPECT_EQ(t.functionCalls, s.functionCalls);
  EXPECT_EQ(t.restarts, s.restarts);
  EXPECT_EQ(t.failedQuenches, s.failedQuenches);
  EXPECT_EQ(t.targetReached, s.targetReached);
  EXPECT_EQ(t.targetQuench, s.targetQuench);
  EXPECT_EQ(t.targetFunctionCalls, s.targetFunctionCalls);
  EXPECT_EQ(t.random, s.random);
  EXPECT_EQ(t.newRestart.best, s.newRestart.best);
  EXPECT_EQ(t.newRestart.previousBest, s.newRestart.previousBest);
  EXPECT_EQ(t.newRestart.bestCoords, s.newRestart.bestCoords);
  EXPECT_EQ(t.newRestart.previousBestCoords, s.newRestart.previousBestCoords);
  EXPECT_EQ(t.newRestart.bestStep, s.newRestart.bestStep);
  EXPECT_EQ(t.newRestart.tabooEnergies, s.newRestart.tabooEnergies);
  EXPECT_EQ(t.newRestart.tabooCoords, s.newRestart.tabooCoords);
  EXPECT_EQ(t.newRestart.tabooNext, s.newRestart.tabooNext);
  EXPECT_EQ(t.symmetrisation.lastAttemptEnergy, s.symmetrisation.lastAttemptEnergy);
  EXPECT_EQ(t.symmetrisation.ordinaryStepOwed, s.symmetrisation.ordinaryStepOwed);
  EXPECT_EQ(t.symmetrisation.candidates, s.symmetrisation.candidates);
  EXPECT_EQ(t.symmetrisation.downhillStepsLeft, s.symmetrisation.downhillStepsLeft);
  EXPECT_EQ(t.symmetrisation.quenched, s.symmetrisation.quenched);
  EXPECT_EQ(t.symmetrisation.bestEnergy, s.symmetrisation.bestEnergy);
  EXPECT_EQ(t.symmetrisation.best, s.symmetrisation.best);
  EXPECT_EQ(t.symmetrisation.detail, s.symmetrisation.detail);
  ASSERT_EQ(t.lowest.size(), 2u);
  EXPECT_EQ(t.lowest[1].coordinates, s.lowest[1].coordinates);
  EXPECT_EQ(t.lowest[1].functionCalls, -1);
  EXPECT_EQ(t.pendingReseedStart, s.pendingReseedStart);
  EXPECT_EQ(t.pendingReseed.action, NewRestart::Action::Reseed);
  EXPECT_EQ(t.pendingReseed.reason, NewRestart::Reason::Crowded);
  EXPECT_EQ(t.pendingReseed.chainBestEnergy, -42.5);
  std::vector<char> cut = out.bytes();
  cut.resize(cut.size() - 3);
  ByteReader shortIn(cut, "walker process 1's walker states");
  EXPECT_THROW(getBasinHoppingState(shortIn), std::runtime_error);
}

struct Quench {
  long quench;
  double energy, markovEnergy;
  bool accepted;
  long calls;
  bool operator==(const Quench& o) const {
    return quench == o.quench && energy == o.energy && markovEnergy == o.markovEnergy &&
           accepted == o.accepted && calls == o.calls;
  }
};

// What one process sees of a run: its walkers' quenches and reseeds, the rounds, the states.
class Recorder : public WalkerObserver {
 public:
  explicit Recorder(long stopAfterRound = -1) : m_stopAfter(stopAfterRound) {}
  void onQuench(int w, const QuenchReport& q) override {
    quenches[w].push_back({q.quench, q.energy, q.markovEnergy, q.accepted, q.functionCalls});
  }
  void onRestart(int w, const RestartReport& r) override { reseeds[w].push_back(r.quench); }
  void onRound(const WalkerRoundReport& r) override {
    rounds.push_back({static_cast<double>(r.round), static_cast<double>(r.quenches),
                      static_cast<double>(r.functionCalls), static_cast<double>(r.restarts),
                      r.bestEnergy, r.minAcceptance, r.medianAcceptance, r.maxAcceptance});
    m_round = r.round;
  }
  void onCheckpoint(const std::vector<StoredMinimum>& m) override { checkpoints.push_back(m); }
  void onState(const WalkerEnsembleState& s) override { states.push_back(s); }
  bool stopRequested() override { return m_stopAfter >= 0 && m_round >= m_stopAfter; }

  std::map<int, std::vector<Quench>> quenches;
  std::map<int, std::vector<long>> reseeds;
  std::vector<std::vector<double>> rounds;
  std::vector<std::vector<StoredMinimum>> checkpoints;
  std::vector<WalkerEnsembleState> states;

 private:
  long m_stopAfter;
  long m_round = -1;
};

void expectSameMinima(const std::vector<StoredMinimum>& a, const std::vector<StoredMinimum>& b,
                      const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].energy, b[i].energy) << what << " minimum " << i;
    EXPECT_EQ(a[i].coordinates, b[i].coordinates) << what << " minimum " << i;
    EXPECT_EQ(a[i].firstFoundStep, b[i].firstFoundStep) << what << " minimum " << i;
    EXPECT_EQ(a[i].functionCalls, b[i].functionCalls) << what << " minimum " << i;
  }
}

void expectSameStates(const WalkerEnsembleState& a, const WalkerEnsembleState& b,
                      const std::string& what) {
  ASSERT_EQ(a.walkers.size(), b.walkers.size()) << what;
  for (std::size_t w = 0; w < a.walkers.size(); ++w) {
    const BasinHoppingState &x = a.walkers[w], &y = b.walkers[w];
    const std::string at = what + " walker " + std::to_string(w);
    EXPECT_EQ(x.quench, y.quench) << at;
    EXPECT_EQ(x.markov, y.markov) << at;
    EXPECT_EQ(x.markovEnergy, y.markovEnergy) << at;
    EXPECT_EQ(x.stepSize, y.stepSize) << at;
    EXPECT_EQ(x.functionCalls, y.functionCalls) << at;
    EXPECT_EQ(x.restarts, y.restarts) << at;
    EXPECT_EQ(x.random, y.random) << at;
    EXPECT_EQ(x.newRestart.tabooEnergies, y.newRestart.tabooEnergies) << at;
    expectSameMinima(x.lowest, y.lowest, at);
  }
  EXPECT_EQ(a.exchange.accepted, b.exchange.accepted) << what;
  EXPECT_EQ(a.exchange.random, b.exchange.random) << what;
}

// One run's view from every process: process p's recorder and result.
struct SpreadRun {
  std::vector<Recorder> recorders;
  std::vector<WalkerEnsembleResult> results;
};

struct RunSetup {
  BasinHoppingParams params;
  ParallelTemperingParams tempering;
  int walkers = 7;
};

// The run on `processes` threads, each with its own LJ13 potentials, from the start or `from`.
SpreadRun runOn(int processes, const RunSetup& setup, long stopAfterRound = -1,
                const WalkerEnsembleState* from = nullptr) {
  SpreadRun run;
  run.recorders.assign(static_cast<std::size_t>(processes), Recorder(stopAfterRound));
  run.results.resize(static_cast<std::size_t>(processes));
  onThreadRanks(processes, [&](Communicator& ranks) {
    const auto p = static_cast<std::size_t>(ranks.rank());
    LennardJones lj(13), quenching(13);
    std::vector<Potential*> potentials{&quenching};
    RankWalkerPeers peers(ranks);
    WalkerEnsemble ensemble(
        lj, setup.params, setup.walkers, setup.tempering,
        [potentials](const LbfgsParams& q) -> std::unique_ptr<BatchedMinimiser> {
          return std::make_unique<ParallelLbfgs>(potentials, q);
        },
        {}, &peers);
    run.results[p] = from ? ensemble.resume(*from, &run.recorders[p])
                          : ensemble.run({}, &run.recorders[p]);
  });
  return run;
}

// Every process's walker reports put together: the one-process run's map.
std::map<int, std::vector<Quench>> allQuenches(const SpreadRun& run) {
  std::map<int, std::vector<Quench>> all;
  for (const Recorder& r : run.recorders)
    for (const auto& [w, q] : r.quenches) {
      EXPECT_EQ(all.count(w), 0u) << "walker " << w << " reported by two processes";
      all[w] = q;
    }
  return all;
}

void expectSameRun(const SpreadRun& spread, const SpreadRun& solo, const std::string& what) {
  const WalkerEnsembleResult &a = spread.results.front(), &b = solo.results.front();
  expectSameMinima(a.total.lowest, b.total.lowest, what);
  EXPECT_EQ(a.total.quenches, b.total.quenches) << what;
  EXPECT_EQ(a.total.functionCalls, b.total.functionCalls) << what;
  EXPECT_EQ(a.total.restarts, b.total.restarts) << what;
  EXPECT_EQ(a.total.failedQuenches, b.total.failedQuenches) << what;
  EXPECT_EQ(a.total.finalStepSize, b.total.finalStepSize) << what;
  EXPECT_EQ(a.failedPerWalker, b.failedPerWalker) << what;
  EXPECT_EQ(a.acceptancePerWalker, b.acceptancePerWalker) << what;
  EXPECT_EQ(a.targetWalker, b.targetWalker) << what;
  EXPECT_EQ(a.targetRoundQuenches, b.targetRoundQuenches) << what;
  EXPECT_EQ(a.total.targetQuench, b.total.targetQuench) << what;
  EXPECT_EQ(a.total.targetFunctionCalls, b.total.targetFunctionCalls) << what;
  EXPECT_EQ(a.exchange.accepted, b.exchange.accepted) << what;
  EXPECT_EQ(allQuenches(spread), allQuenches(solo)) << what;
  for (const Recorder& r : spread.recorders) {
    EXPECT_EQ(r.rounds, solo.recorders.front().rounds) << what << ": every process's rounds";
    ASSERT_EQ(r.checkpoints.size(), solo.recorders.front().checkpoints.size()) << what;
    for (std::size_t c = 0; c < r.checkpoints.size(); ++c)
      expectSameMinima(r.checkpoints[c], solo.recorders.front().checkpoints[c], what);
  }
  const Recorder& first = spread.recorders.front();
  ASSERT_EQ(first.states.size(), solo.recorders.front().states.size()) << what;
  for (std::size_t s = 0; s < first.states.size(); ++s)
    expectSameStates(first.states[s], solo.recorders.front().states[s],
                     what + " state " + std::to_string(s));
  for (std::size_t p = 1; p < spread.recorders.size(); ++p)
    for (const WalkerEnsembleState& s : spread.recorders[p].states)
      EXPECT_TRUE(s.walkers.empty()) << what << ": only process 0 holds the whole state";
}

// LJ13 walkers (tests/WalkerTestParams.h) checkpointed every 10 rounds.
RunSetup lj13(long steps, std::uint64_t seed) {
  RunSetup s;
  s.params = walkerParams(steps, seed);
  s.params.dumpInterval = 10;
  return s;
}

TEST(WalkerPeers, SpreadRunIsTheOneProcessRunBitForBit) {
  const RunSetup setup = lj13(40, 4);
  const SpreadRun solo = runOn(1, setup);
  EXPECT_EQ(solo.recorders.front().states.size(), 5u);  // rounds 10, 20, 30, 40 and the end
  for (int k : {2, 3}) expectSameRun(runOn(k, setup), solo, std::to_string(k) + " processes");
}

TEST(WalkerPeers, CrowdLimitDecidesAlikeOverProcesses) {
  RunSetup setup = lj13(30, 5);
  setup.params.newRestartSteps = 0;
  setup.params.avoidDistance = 0.0;
  setup.params.crowdLimit = 1;
  setup.walkers = 9;
  const SpreadRun solo = runOn(1, setup);
  EXPECT_GT(solo.results.front().total.restarts, 5) << "the limit must act";
  for (int k : {2, 4}) expectSameRun(runOn(k, setup), solo, std::to_string(k) + " processes");
}

// BHPT: replicas exchange Markov states, several pairs across the processes' boundaries.
TEST(WalkerPeers, ReplicaExchangesAcrossProcessesMatchOneProcess) {
  RunSetup setup = lj13(40, 3);
  setup.tempering.enabled = true;
  setup.tempering.minTemperature = 0.5;
  setup.tempering.maxTemperature = 2.0;
  setup.tempering.interval = 2;
  setup.walkers = 8;
  const SpreadRun solo = runOn(1, setup);
  long accepted = 0;
  for (long a : solo.results.front().exchange.accepted) accepted += a;
  EXPECT_GT(accepted, 5) << "the replicas should exchange";
  for (int k : {2, 3, 5}) expectSameRun(runOn(k, setup), solo, std::to_string(k) + " processes");
}

TEST(WalkerPeers, TargetWalkerAndRoundAreTheOneProcessRuns) {
  RunSetup setup = lj13(500, 11);
  setup.params.targetEnergy = -44.326801;  // LJ13 global minimum (Cambridge Cluster Database)
  setup.walkers = 6;
  const SpreadRun solo = runOn(1, setup);
  ASSERT_GE(solo.results.front().targetWalker, 0);
  expectSameRun(runOn(3, setup), solo, "3 processes");
}

// A state gathered by 3 processes resumes on 2, and one from 1 process on 3: the uninterrupted run.
TEST(WalkerPeers, StateSavedOnSomeProcessesResumesOnOthers) {
  RunSetup setup = lj13(40, 6);
  setup.tempering.enabled = true;
  setup.tempering.minTemperature = 0.6;
  setup.tempering.maxTemperature = 1.5;
  setup.tempering.interval = 3;
  const SpreadRun full = runOn(1, setup);
  for (const auto& [saved, resumed] : {std::pair{3, 2}, std::pair{1, 3}}) {
    const SpreadRun first = runOn(saved, setup, 17);
    ASSERT_FALSE(first.recorders.front().states.empty());
    const WalkerEnsembleState state = first.recorders.front().states.back();
    ASSERT_EQ(state.walkers.size(), 7u);
    EXPECT_EQ(state.walkers.front().quench, 17);
    const SpreadRun second = runOn(resumed, setup, -1, &state);
    const std::string what = std::to_string(saved) + " then " + std::to_string(resumed);
    expectSameMinima(second.results.front().total.lowest, full.results.front().total.lowest, what);
    EXPECT_EQ(second.results.front().total.functionCalls,
              full.results.front().total.functionCalls)
        << what;
    EXPECT_EQ(second.results.front().exchange.accepted, full.results.front().exchange.accepted)
        << what;
    expectSameStates(second.recorders.front().states.back(),
                     full.recorders.front().states.back(), what);
  }
}

TEST(WalkerPeers, FewerWalkersThanProcessesIsRefused) {
  RunSetup setup = lj13(5, 1);
  setup.walkers = 2;
  std::mutex m;
  int refused = 0;
  onThreadRanks(3, [&](Communicator& ranks) {
    LennardJones lj(13);
    RankWalkerPeers peers(ranks);
    try {
      WalkerEnsemble(lj, setup.params, setup.walkers, {},
                     [](const LbfgsParams&) -> std::unique_ptr<BatchedMinimiser> { return {}; },
                     {}, &peers);
    } catch (const std::invalid_argument& e) {
      std::lock_guard<std::mutex> lock(m);
      if (std::string(e.what()).find("over 3 processes needs at least as many walkers") !=
          std::string::npos)
        ++refused;
    }
  });
  EXPECT_EQ(refused, 3);
}

}  // namespace
}  // namespace landscape
