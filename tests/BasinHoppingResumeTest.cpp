// `gmin --resume` at the library level: a run stopped after k quenches and continued from its
// BasinHoppingState (through the checkpoint file) gives the same quenches, restarts, step-size
// adjustments and final minima, bit for bit, as the run that was never stopped. The settings
// exercise every piece of the state: ASTEP moves, step adaptation stopped mid-window, NEWRESTART
// reseeds drawing random structures, and a cyclic AVOID taboo list that wraps around.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/formats/CheckpointFile.h"
#include "landscape/search/BasinHopping.h"
#include "potentials/LennardJones.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

BasinHoppingParams resumeParams(long steps) {
  BasinHoppingParams p;
  p.steps = steps;
  p.temperature = 1.0;
  p.stepSize = 0.4;
  p.angularThreshold = 0.51;
  p.stepAdjustInterval = 7;
  p.saveCount = 4;
  p.energyDifference = 0.003;
  p.sloppyRms = 5e-3;
  p.sloppyMaxIterations = 600;
  p.tightRms = 1e-3;
  p.tightMaxIterations = 500;
  p.newRestartSteps = 6;
  p.avoidDistance = 1.0;
  p.avoidMaxSaved = 3;
  p.avoidReseeds = true;
  p.seed = 5;
  return p;
}

// Records everything a run reports; stops once quench `stopAfter` is done.
class Recorder : public BasinHoppingObserver {
 public:
  explicit Recorder(long stopAfter = -1) : m_stopAfter(stopAfter) {}
  void onQuench(const QuenchReport& q) override {
    quenches.push_back(q);
    m_last = q.quench;
  }
  void onStepAdjust(const StepAdjustReport& s) override { adjusts.push_back(s); }
  void onRestart(const RestartReport& r) override { restarts.push_back(r); }
  void onState(const BasinHoppingState& s) override { states.push_back(s); }
  bool stopRequested() override { return m_stopAfter >= 0 && m_last >= m_stopAfter; }

  std::vector<QuenchReport> quenches;
  std::vector<StepAdjustReport> adjusts;
  std::vector<RestartReport> restarts;
  std::vector<BasinHoppingState> states;

 private:
  long m_stopAfter;
  long m_last = -1;
};

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Appends the reports of `part` to `all` (a run pieced together from its interrupted parts).
void append(Recorder& all, const Recorder& part) {
  all.quenches.insert(all.quenches.end(), part.quenches.begin(), part.quenches.end());
  all.adjusts.insert(all.adjusts.end(), part.adjusts.begin(), part.adjusts.end());
  all.restarts.insert(all.restarts.end(), part.restarts.begin(), part.restarts.end());
}

void expectSameRun(const Recorder& a, const BasinHoppingResult& ra, const Recorder& b,
                   const BasinHoppingResult& rb) {
  ASSERT_EQ(a.quenches.size(), b.quenches.size());
  for (std::size_t i = 0; i < a.quenches.size(); ++i) {
    const QuenchReport &x = a.quenches[i], &y = b.quenches[i];
    ASSERT_EQ(x.quench, y.quench);
    ASSERT_TRUE(sameBits(x.energy, y.energy)) << "quench " << x.quench;
    ASSERT_TRUE(sameBits(x.markovEnergy, y.markovEnergy)) << "quench " << x.quench;
    ASSERT_EQ(x.accepted, y.accepted) << "quench " << x.quench;
    ASSERT_EQ(x.taboo, y.taboo) << "quench " << x.quench;
    ASSERT_EQ(x.lbfgsIterations, y.lbfgsIterations) << "quench " << x.quench;
    ASSERT_EQ(x.functionCalls, y.functionCalls) << "quench " << x.quench;
  }
  ASSERT_EQ(a.adjusts.size(), b.adjusts.size());
  for (std::size_t i = 0; i < a.adjusts.size(); ++i) {
    EXPECT_EQ(a.adjusts[i].quench, b.adjusts[i].quench);
    EXPECT_TRUE(sameBits(a.adjusts[i].stepSize, b.adjusts[i].stepSize));
  }
  ASSERT_EQ(a.restarts.size(), b.restarts.size());
  for (std::size_t i = 0; i < a.restarts.size(); ++i) {
    EXPECT_EQ(a.restarts[i].quench, b.restarts[i].quench);
    EXPECT_EQ(a.restarts[i].reason, b.restarts[i].reason);
    EXPECT_EQ(a.restarts[i].tabooSize, b.restarts[i].tabooSize);
    EXPECT_TRUE(sameBits(a.restarts[i].markovEnergy, b.restarts[i].markovEnergy));
  }
  EXPECT_EQ(ra.quenches, rb.quenches);
  EXPECT_EQ(ra.functionCalls, rb.functionCalls);
  EXPECT_EQ(ra.restarts, rb.restarts);
  EXPECT_TRUE(sameBits(ra.finalStepSize, rb.finalStepSize));
  ASSERT_EQ(ra.lowest.size(), rb.lowest.size());
  for (std::size_t i = 0; i < ra.lowest.size(); ++i) {
    EXPECT_TRUE(sameBits(ra.lowest[i].energy, rb.lowest[i].energy)) << "minimum " << i;
    EXPECT_EQ(ra.lowest[i].firstFoundStep, rb.lowest[i].firstFoundStep);
    EXPECT_EQ(ra.lowest[i].functionCalls, rb.lowest[i].functionCalls);
    ASSERT_EQ(ra.lowest[i].coordinates.size(), rb.lowest[i].coordinates.size());
    for (std::size_t j = 0; j < ra.lowest[i].coordinates.size(); ++j)
      ASSERT_TRUE(sameBits(ra.lowest[i].coordinates[j], rb.lowest[i].coordinates[j]));
  }
}

void expectSameVector(const std::vector<double>& a, const std::vector<double>& b,
                      const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(sameBits(a[i], b[i])) << what << " " << i;
}

// Every field, bit for bit.
void expectSameState(const BasinHoppingState& a, const BasinHoppingState& b) {
  SCOPED_TRACE("state after quench " + std::to_string(a.quench));
  EXPECT_EQ(a.quench, b.quench);
  expectSameVector(a.markov, b.markov, "markov");
  EXPECT_TRUE(sameBits(a.markovEnergy, b.markovEnergy));
  EXPECT_TRUE(sameBits(a.stepSize, b.stepSize));
  EXPECT_EQ(a.acceptedInWindow, b.acceptedInWindow);
  EXPECT_EQ(a.functionCalls, b.functionCalls);
  EXPECT_EQ(a.restarts, b.restarts);
  EXPECT_EQ(a.targetReached, b.targetReached);
  EXPECT_EQ(a.targetQuench, b.targetQuench);
  EXPECT_EQ(a.targetFunctionCalls, b.targetFunctionCalls);
  EXPECT_EQ(a.random, b.random);
  const NewRestart::State &x = a.newRestart, &y = b.newRestart;
  EXPECT_TRUE(sameBits(x.best, y.best));
  EXPECT_TRUE(sameBits(x.previousBest, y.previousBest));
  expectSameVector(x.bestCoords, y.bestCoords, "chain best");
  expectSameVector(x.previousBestCoords, y.previousBestCoords, "previous chain best");
  EXPECT_EQ(x.bestStep, y.bestStep);
  expectSameVector(x.tabooEnergies, y.tabooEnergies, "taboo energies");
  ASSERT_EQ(x.tabooCoords.size(), y.tabooCoords.size());
  for (std::size_t i = 0; i < x.tabooCoords.size(); ++i)
    expectSameVector(x.tabooCoords[i], y.tabooCoords[i], "taboo structure");
  EXPECT_EQ(x.tabooNext, y.tabooNext);
  ASSERT_EQ(a.lowest.size(), b.lowest.size());
  for (std::size_t i = 0; i < a.lowest.size(); ++i) {
    EXPECT_TRUE(sameBits(a.lowest[i].energy, b.lowest[i].energy));
    EXPECT_EQ(a.lowest[i].firstFoundStep, b.lowest[i].firstFoundStep);
    EXPECT_EQ(a.lowest[i].functionCalls, b.lowest[i].functionCalls);
    expectSameVector(a.lowest[i].coordinates, b.lowest[i].coordinates, "saved minimum");
  }
}

class BasinHoppingResume : public ::testing::Test {
 protected:
  void SetUp() override {
    m_file = fs::temp_directory_path() /
             ("landscape-resume-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove(m_file); }

  // The state as `gmin --resume` sees it: written to the checkpoint file and read back.
  BasinHoppingState throughFile(const BasinHoppingState& state, const BasinHoppingParams& p) {
    writeCheckpointFile(m_file.string(), {basinHoppingFingerprint(p), p.steps, state});
    return readCheckpointFile(m_file.string()).state;
  }
  fs::path m_file;
};

constexpr long kSteps = 150;

TEST_F(BasinHoppingResume, StoppedAndResumedRunEqualsTheUninterruptedRunBitForBit) {
  LennardJones lj(13);
  BasinHoppingParams p = resumeParams(kSteps);
  p.dumpInterval = 1;  // the state after every quench is compared too
  Recorder reference;
  const BasinHoppingResult full = BasinHopping(lj, p).run({}, &reference);
  // The settings must reach the state being tested: reseeds and a taboo list that wraps.
  ASSERT_GE(full.restarts, 4);
  std::size_t largestTaboo = 0;
  for (const RestartReport& r : reference.restarts) largestTaboo = std::max(largestTaboo, r.tabooSize);
  ASSERT_EQ(largestTaboo, 3u);

  for (long k : {0L, 1L, 37L, 64L, 100L, 149L}) {
    SCOPED_TRACE("stopped after quench " + std::to_string(k));
    Recorder first(k);
    const BasinHoppingResult stopped = BasinHopping(lj, p).run({}, &first);
    ASSERT_TRUE(stopped.stoppedEarly);
    ASSERT_EQ(stopped.quenches, k);
    ASSERT_FALSE(first.states.empty());
    ASSERT_EQ(first.states.back().quench, k);
    Recorder second;
    const BasinHoppingResult resumed =
        BasinHopping(lj, p).resume(throughFile(first.states.back(), p), &second);
    Recorder pieced;
    append(pieced, first);
    append(pieced, second);
    expectSameRun(reference, full, pieced, resumed);
    // reference.states[q - 1] is the state after quench q.
    if (k > 0) expectSameState(reference.states[k - 1], first.states.back());
    for (const BasinHoppingState& s : second.states)
      expectSameState(reference.states[s.quench - 1], s);
  }
}

TEST_F(BasinHoppingResume, ShortRunContinuedToMoreStepsEqualsTheLongRun) {
  LennardJones lj(13);
  Recorder reference;
  const BasinHoppingResult full = BasinHopping(lj, resumeParams(kSteps)).run({}, &reference);
  // `gmin --steps 40` then `gmin --resume DIR --steps 150`, interrupted twice on the way.
  Recorder first;
  BasinHopping(lj, resumeParams(40)).run({}, &first);
  ASSERT_EQ(first.states.back().quench, 40);
  Recorder second(95);
  BasinHopping(lj, resumeParams(kSteps))
      .resume(throughFile(first.states.back(), resumeParams(40)), &second);
  ASSERT_EQ(second.states.back().quench, 95);
  Recorder third;
  const BasinHoppingResult resumed =
      BasinHopping(lj, resumeParams(kSteps)).resume(throughFile(second.states.back(), resumeParams(kSteps)), &third);
  Recorder pieced;
  append(pieced, first);
  append(pieced, second);
  append(pieced, third);
  expectSameRun(reference, full, pieced, resumed);
}

// A crash after a DUMPINT checkpoint: the state reported there continues the run exactly.
TEST_F(BasinHoppingResume, PeriodicCheckpointContinuesTheRunAfterACrash) {
  LennardJones lj(13);
  BasinHoppingParams p = resumeParams(kSteps);
  p.dumpInterval = 25;
  Recorder reference;
  const BasinHoppingResult full = BasinHopping(lj, p).run({}, &reference);
  ASSERT_EQ(reference.states.size(), kSteps / 25 + 1);  // every 25 quenches and at the end
  const BasinHoppingState& at75 = reference.states[2];
  ASSERT_EQ(at75.quench, 75);
  Recorder tail;
  const BasinHoppingResult resumed = BasinHopping(lj, p).resume(throughFile(at75, p), &tail);
  Recorder pieced;
  pieced.quenches.assign(reference.quenches.begin(), reference.quenches.begin() + 76);
  for (const auto& a : reference.adjusts)
    if (a.quench <= 75) pieced.adjusts.push_back(a);
  for (const auto& r : reference.restarts)
    if (r.quench <= 75) pieced.restarts.push_back(r);
  append(pieced, tail);
  expectSameRun(reference, full, pieced, resumed);
}

// Symmetrisation episodes (SYMMETRISECSM with downhill steps that draw random numbers; SYMMETRISE
// with several candidates) carry over a stop, even one inside an episode, and through the file.
TEST_F(BasinHoppingResume, RunsWithSymmetrisationResumeBitForBit) {
  LennardJones lj(13);
  for (const auto scheme :
       {SymmetrisationParams::Scheme::Csm, SymmetrisationParams::Scheme::CoreCompletion}) {
    BasinHoppingParams p = resumeParams(90);
    p.dumpInterval = 1;
    p.symmetrisation.scheme = scheme;
    p.symmetrisation.interval = 4;
    p.symmetrisation.csmQuenches = 3;
    p.symmetrisation.core.orbitTolerance = 0.03;
    p.symmetrisation.core.overlapDistance = 0.7;
    p.symmetrisation.core.maxCandidates = 3;
    SCOPED_TRACE(scheme == SymmetrisationParams::Scheme::Csm ? "SYMMETRISECSM" : "SYMMETRISE");
    Recorder reference;
    const BasinHoppingResult full = BasinHopping(lj, p).run({}, &reference);
    std::vector<long> insideEpisode;  // stops after a candidate that is not an episode's last
    for (std::size_t i = 1; i + 1 < reference.quenches.size(); ++i)
      if (reference.quenches[i].symmetrisation && reference.quenches[i + 1].symmetrisation)
        insideEpisode.push_back(reference.quenches[i].quench);
    ASSERT_GE(insideEpisode.size(), 2u) << "no episode of several quenches to stop inside";
    for (long k : {insideEpisode.front(), insideEpisode.back(), 50L}) {
      SCOPED_TRACE("stopped after quench " + std::to_string(k));
      Recorder first(k);
      BasinHopping(lj, p).run({}, &first);
      ASSERT_EQ(first.states.back().quench, k);
      Recorder second;
      const BasinHoppingResult resumed =
          BasinHopping(lj, p).resume(throughFile(first.states.back(), p), &second);
      Recorder pieced;
      append(pieced, first);
      append(pieced, second);
      expectSameRun(reference, full, pieced, resumed);
      const Symmetrisation::State &a = reference.states[k - 1].symmetrisation,
                                  &b = first.states.back().symmetrisation;
      EXPECT_EQ(a.candidates.size(), b.candidates.size());
      EXPECT_EQ(a.downhillStepsLeft, b.downhillStepsLeft);
      EXPECT_EQ(reference.states[k - 1].stepsInWindow, first.states.back().stepsInWindow);
    }
  }
}

// The comparison above notices a missing piece of state: resuming with the random engine
// restarted from the seed gives a different run.
TEST_F(BasinHoppingResume, ALostRandomStateChangesTheRun) {
  LennardJones lj(13);
  const BasinHoppingParams p = resumeParams(60);
  Recorder reference;
  BasinHopping(lj, p).run({}, &reference);
  Recorder first(30);
  BasinHopping(lj, p).run({}, &first);
  BasinHoppingState state = first.states.back();
  state.random = Random(p.seed).state();
  Recorder second;
  BasinHopping(lj, p).resume(state, &second);
  bool differs = false;
  for (std::size_t i = 0; i < second.quenches.size(); ++i)
    differs |= !sameBits(second.quenches[i].energy, reference.quenches[31 + i].energy);
  EXPECT_TRUE(differs);
}

TEST_F(BasinHoppingResume, StateForAnotherSystemIsRejected) {
  LennardJones lj13(13), lj14(14);
  const BasinHoppingParams p = resumeParams(10);
  Recorder rec;
  BasinHopping(lj13, p).run({}, &rec);
  try {
    BasinHopping(lj14, p).resume(rec.states.back());
    FAIL() << "a 13-atom state resumed on 14 atoms";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("42 coordinates"), std::string::npos) << e.what();
  }
}

// A copy taken k draws ago and skipped forward by k is the generator again: the same state and
// the same numbers next (BasinHoppingRun::undoProposal goes back to a mark this way).
TEST(Random, ACopySkippedForwardIsTheGeneratorAgain) {
  Random random(42);
  for (int i = 0; i < 100; ++i) random.uniform();
  const Random mark = random;
  for (int i = 0; i < 5000; ++i) random.symmetric();  // through several of the engine's blocks
  EXPECT_EQ(random.draws(), mark.draws() + 5000);
  Random back = mark;
  back.skip(5000);
  EXPECT_EQ(back.draws(), random.draws());
  EXPECT_EQ(back.state(), random.state());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(back.uniform(), random.uniform());
}

TEST(Random, StateRoundTripContinuesTheStream) {
  Random a(17);
  for (int i = 0; i < 1000; ++i) a.uniform();
  Random b(1);
  b.restore(a.state());
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.uniform(), b.uniform());
  EXPECT_THROW(b.restore("12 34"), std::invalid_argument);
  EXPECT_THROW(b.restore(a.state() + " extra"), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
