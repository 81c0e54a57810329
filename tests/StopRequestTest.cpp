// The shared stop request (landscape/core/StopRequest.h) inside the algorithms: L-BFGS ends within
// one iteration, basin-hopping undoes the step whose quench was stopped (so that a resume repeats
// it exactly) and cuts the tight re-quench short, hybrid EF and connect runs report "stopped",
// and SOP dynamics ends between two steps. Each stop is triggered deterministically, after a
// given number of energy+gradient calls, never by a timer.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "CheckpointTexts.h"
#include "landscape/core/StopRequest.h"
#include "landscape/dynamics/SopDynamics.h"
#include "landscape/formats/CheckpointFile.h"
#include "landscape/formats/ConnectCheckpointFile.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Connect.h"
#include "landscape/search/BasinHopping.h"
#include "potentials/LennardJones.h"
#include "potentials/SopTopology.h"
#include "src/common/OutputLock.h"
#include "tests/Lj7Structures.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

// Lennard-Jones that requests a stop at its `stopAt`-th energy+gradient call (never when < 0),
// as SIGINT would in the middle of whatever runs then.
class StopAfterCalls : public LennardJones {
 public:
  StopAfterCalls(std::size_t atoms, long stopAt) : LennardJones(atoms), m_stopAt(stopAt) {}
  double energyGradient(const double* x, double* g) override {
    if (++calls == m_stopAt) requestStop();
    return LennardJones::energyGradient(x, g);
  }
  long calls = 0;

 private:
  long m_stopAt;
};

class StopRequest : public ::testing::Test {
 protected:
  void SetUp() override { clearStopRequest(); }
  void TearDown() override { clearStopRequest(); }
};

TEST_F(StopRequest, LbfgsEndsBeforeTheNextIterationAndIsNotConverged) {
  std::vector<double> x = lj7PentagonalBipyramid();
  LennardJones lj7(7);
  LbfgsParams p;
  p.rmsTolerance = 1e-12;
  for (double& v : x) v *= 1.1;  // stretched: many iterations to go
  int seen = 0;
  const LbfgsResult r = Lbfgs(p).minimize(lj7, x, [&](const LbfgsIteration& it) {
    seen = it.iteration;
    if (it.iteration == 5) requestStop();
  });
  EXPECT_EQ(r.status, LbfgsStatus::Stopped);
  EXPECT_FALSE(r.converged());
  EXPECT_EQ(r.iterations, 5);
  EXPECT_EQ(seen, 5);
  EXPECT_EQ(lbfgsStatusName(r.status), "stopped on request");
  // The same minimisation without the request converges: the stop was what ended it.
  clearStopRequest();
  std::vector<double> y = lj7PentagonalBipyramid();
  for (double& v : y) v *= 1.1;
  EXPECT_TRUE(Lbfgs(p).minimize(lj7, y).converged());
}

BasinHoppingParams smallRun(long steps) {
  BasinHoppingParams p;
  p.steps = steps;
  p.temperature = 0.8;
  p.stepSize = 0.4;
  p.saveCount = 3;
  p.dumpInterval = 1;
  p.seed = 11;
  return p;
}

// Records the calls of the potential at every quench report and every state.
class CallRecorder : public BasinHoppingObserver {
 public:
  explicit CallRecorder(const StopAfterCalls& lj) : m_lj(lj) {}
  void onQuench(const QuenchReport& q) override {
    callsAfterQuench.push_back(m_lj.calls);
    quenches.push_back(q);
  }
  void onState(const BasinHoppingState& s) override { states.push_back(s); }
  void onTightQuench(const TightQuenchReport& t) override { tight.push_back(t); }
  std::vector<long> callsAfterQuench;
  std::vector<QuenchReport> quenches;
  std::vector<BasinHoppingState> states;
  std::vector<TightQuenchReport> tight;

 private:
  const StopAfterCalls& m_lj;
};

std::string text(const BasinHoppingState& s, const BasinHoppingParams& p) {
  return formatCheckpoint({basinHoppingFingerprint(p), p.steps, s});  // every bit, as hex floats
}

TEST_F(StopRequest, BasinHoppingStoppedInsideAQuenchSavesThePreviousStepAndResumesExactly) {
  const BasinHoppingParams p = smallRun(40);
  StopAfterCalls reference(13, -1);
  CallRecorder full(reference);
  const BasinHoppingResult uninterrupted = BasinHopping(reference, p).run({}, &full);
  ASSERT_EQ(full.quenches.size(), 41u);
  // A call in the middle of quench 21: the stop lands inside its L-BFGS loop.
  const long stopAt = (full.callsAfterQuench[20] + full.callsAfterQuench[21]) / 2;
  ASSERT_GT(full.callsAfterQuench[21] - full.callsAfterQuench[20], 4);
  StopAfterCalls stopping(13, stopAt);
  CallRecorder part(stopping);
  const BasinHoppingResult stopped = BasinHopping(stopping, p).run({}, &part);
  EXPECT_TRUE(stopped.stoppedEarly);
  EXPECT_EQ(stopped.quenches, 20);
  ASSERT_EQ(part.quenches.size(), 21u) << "quench 21 was stopped, so it is not reported";
  EXPECT_TRUE(part.tight.empty()) << "the tight re-quench is skipped after a stop";
  // The last state saved is the uninterrupted run's state after quench 20, bit for bit (random
  // engine and function-call count included), although quench 21 had begun.
  ASSERT_FALSE(part.states.empty());
  ASSERT_EQ(full.states[19].quench, 20);  // states[k - 1]: after quench k (quench 0 has none)
  EXPECT_EQ(text(part.states.back(), p), text(full.states[19], p));
  // Resumed from it, the run ends as the uninterrupted one.
  clearStopRequest();
  StopAfterCalls again(13, -1);
  CallRecorder rest(again);
  const BasinHoppingResult resumed = BasinHopping(again, p).resume(part.states.back(), &rest);
  ASSERT_EQ(resumed.lowest.size(), uninterrupted.lowest.size());
  for (std::size_t i = 0; i < resumed.lowest.size(); ++i)
    EXPECT_EQ(resumed.lowest[i].energy, uninterrupted.lowest[i].energy) << i;
  EXPECT_EQ(resumed.functionCalls, uninterrupted.functionCalls);
  EXPECT_EQ(text(rest.states.back(), p), text(full.states.back(), p));
}

TEST_F(StopRequest, BasinHoppingStoppedInQuenchZeroHasNoStateAndNoMinima) {
  StopAfterCalls lj(13, 3);
  CallRecorder recorder(lj);
  const BasinHoppingResult r = BasinHopping(lj, smallRun(10)).run({}, &recorder);
  EXPECT_TRUE(r.stoppedEarly);
  EXPECT_TRUE(r.lowest.empty());
  EXPECT_TRUE(recorder.quenches.empty());
  EXPECT_TRUE(recorder.states.empty()) << "a partly quenched start is no state to resume from";
}

TEST_F(StopRequest, TightRequenchStopsAndKeepsTheMinimaAsSaved) {
  const BasinHoppingParams p = smallRun(15);
  StopAfterCalls reference(13, -1);
  CallRecorder full(reference);
  BasinHopping(reference, p).run({}, &full);
  ASSERT_EQ(full.tight.size(), 3u) << "three saved minima re-quenched and reported";
  for (const TightQuenchReport& t : full.tight) EXPECT_EQ(t.count, 3u);
  // Stop inside the first tight quench: 2 calls after the last sloppy quench.
  StopAfterCalls stopping(13, full.callsAfterQuench.back() + 2);
  CallRecorder part(stopping);
  const BasinHoppingResult r = BasinHopping(stopping, p).run({}, &part);
  EXPECT_TRUE(r.stoppedEarly);
  ASSERT_EQ(part.tight.size(), 1u);
  EXPECT_EQ(part.tight[0].status, LbfgsStatus::Stopped);
  const std::vector<StoredMinimum>& saved = part.states.back().lowest;
  ASSERT_EQ(r.lowest.size(), saved.size());
  for (std::size_t i = 0; i < saved.size(); ++i) EXPECT_EQ(r.lowest[i].energy, saved[i].energy);
  EXPECT_EQ(r.failedQuenches, 0) << "a stopped quench is not a failed one";
}

TEST_F(StopRequest, ConnectStopsInsideACycleAndReportsOnlyCompletedCycles) {
  ConnectParams p;
  p.firstImages = 0;
  p.firstIterations = 0;
  // Reference: how many calls the run makes.
  StopAfterCalls reference(7, -1);
  {
    TransitionNetwork net;
    net.addMinimum(lj7PentagonalBipyramid(), -16.505384);
    net.addMinimum(lj7CappedOctahedron(), -15.935043);
    std::vector<ConnectProgress> ends;
    ConnectObserver o;
    o.onCycleEnd = [&](const ConnectProgress& c) { ends.push_back(c); };
    const ConnectResult r = Connect(p).connect(reference, net, 0, 1, o);
    ASSERT_TRUE(r.connected());
    ASSERT_EQ(ends.size(), static_cast<std::size_t>(r.cycles));
    EXPECT_EQ(ends.back().dnebRuns, r.dnebRuns);
    EXPECT_EQ(ends.back().gradientCalls, r.gradientCalls);
  }
  StopAfterCalls stopping(7, reference.calls / 2);
  TransitionNetwork net;
  net.addMinimum(lj7PentagonalBipyramid(), -16.505384);
  net.addMinimum(lj7CappedOctahedron(), -15.935043);
  const ConnectResult r = Connect(p).connect(stopping, net, 0, 1);
  EXPECT_EQ(r.status, ConnectStatus::Stopped);
  EXPECT_EQ(connectStatusName(r.status), "stopped on request");
  EXPECT_LT(stopping.calls, reference.calls) << "the run ended early";
  // Whatever it added is a true transition state, never a stopped search.
  for (const NetworkTransitionState& ts : net.transitionStates()) EXPECT_LT(ts.eigenvalue, 0.0);
}

TEST_F(StopRequest, SopDynamicsOnTheCpuEndsBetweenTwoSteps) {
  const auto pdb = testDataPath("sop/1TIT.pdb");
  if (!pdb) GTEST_SKIP() << "sop test structure not found";
  const SopTopology topology = readSopTopology(*pdb, SopParams{});
  SopDynamicsParams params;
  SopDynamicsCpu md(topology, topology.nativeCoordinates(), params);
  md.run(10);
  requestStop();
  md.run(100);
  EXPECT_EQ(md.stepsDone(), 10);
  clearStopRequest();
  md.run(5);
  EXPECT_EQ(md.stepsDone(), 15);
}

TEST(ConnectCheckpointFile, RoundTripsAndRefusesDamagedFiles) {
  ConnectCheckpoint c;
  c.fingerprint = {{"seed", "3"}, {"start", "a file with blanks.xyz"}};
  c.loadedTransitionStates = 2;
  c.minima = 5;
  c.transitionStates = 4;
  c.progress = {3, 4, 9, 123456, 3, {0, 1, 0, 1, 0, 2, 0, 2, 0}};
  const std::string text = formatConnectCheckpoint(c);
  const ConnectCheckpoint back = parseConnectCheckpoint("cp", text);
  EXPECT_EQ(back.fingerprint, c.fingerprint);
  EXPECT_EQ(back.loadedTransitionStates, 2u);
  EXPECT_EQ(back.minima, 5u);
  EXPECT_EQ(back.transitionStates, 4u);
  EXPECT_EQ(back.progress.cycles, 3);
  EXPECT_EQ(back.progress.dnebRuns, 4);
  EXPECT_EQ(back.progress.transitionStateSearches, 9);
  EXPECT_EQ(back.progress.gradientCalls, 123456);
  EXPECT_EQ(back.progress.triesSize, 3u);
  EXPECT_EQ(back.progress.tries, c.progress.tries);
  EXPECT_EQ(formatConnectCheckpoint(back), text);
  // Truncated, a pair outside the matrix, a count larger than the minima, garbage.
  const auto fails = [](const std::string& t, const std::string& expected) {
    try {
      parseConnectCheckpoint("cp", t);
      ADD_FAILURE() << "accepted:\n" << t;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  fails(text.substr(0, text.size() / 2), "cp:");
  std::string outside = text;
  outside.replace(outside.find("pair 0 1 1"), 10, "pair 0 7 1");
  fails(resealed(outside), "not an integer in [0, 2]");
  fails(outside, "checksum mismatch");
  std::string tooMany = text;
  tooMany.replace(tooMany.find("tries-size 3"), 12, "tries-size 9");
  fails(resealed(tooMany), "not an integer in [0, 5]");
  fails(tooMany, "checksum mismatch");
  fails("\x1b[2Jhello\n", "cp:1: expected 'landscape-connect-checkpoint'");
}

TEST(OutputLock, ASecondLockOnTheSameFolderIsRefusedNamingTheHolder) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("landscape-lock-" + std::to_string(::getpid())))
                              .string();
  {
    const OutputLock first(dir, "gmin");
    try {
      const OutputLock second(dir, "optim");
      ADD_FAILURE() << "two locks on one folder";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(dir + " is in use by gmin (process " +
                                            std::to_string(::getpid()) + " on host "),
                std::string::npos)
          << e.what();
    }
  }
  // Released with its holder: the next run takes it.
  EXPECT_NO_THROW(OutputLock(dir, "sop"));
  EXPECT_NO_THROW(requireWritable(dir + "/network.h5", "the database"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/network.h5.tmp")) << "the probe is removed";
  try {
    requireWritable(dir + "/no/such/folder/net.h5", "the database");
    ADD_FAILURE() << "an unwritable path was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write the database " + dir +
                                          "/no/such/folder/net.h5"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace landscape
