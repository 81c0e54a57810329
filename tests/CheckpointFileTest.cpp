// The basin-hopping checkpoint file (docs/database.md): exact round trip of every field, and
// errors that name the file, the line and the problem.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

#include "CheckpointTexts.h"
#include "landscape/core/Random.h"
#include "landscape/formats/CheckpointFile.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

class CheckpointFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_path = (fs::temp_directory_path() /
              ("landscape-checkpoint-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                 .string();
  }
  void TearDown() override { fs::remove(m_path); }
  std::string m_path;
};

Checkpoint example() {
  Checkpoint c;
  BasinHoppingParams p;
  p.targetEnergy = -44.326801;
  c.fingerprint = basinHoppingFingerprint(p);
  c.fingerprint.push_back({"coords", "a file with blanks.xyz"});
  c.steps = 500;
  BasinHoppingState& s = c.state;
  s.quench = 123;
  s.markov = {0.1, -0.0, 1e-310, 3.0 / 7.0, -2.5, 1e300};
  s.markovEnergy = -44.123456789012345;
  s.stepSize = 0.4 * 1.05 * 1.05;
  s.acceptedInWindow = 17;
  s.functionCalls = 98765;
  s.restarts = 3;
  s.targetReached = true;
  s.targetQuench = 99;
  s.targetFunctionCalls = 50000;
  Random random(42);
  for (int i = 0; i < 777; ++i) random.uniform();
  s.random = random.state();
  s.newRestart.best = -44.3;
  s.newRestart.previousBest = std::numeric_limits<double>::infinity();
  s.newRestart.bestCoords = {1, 2, 3, 4, 5, 6};
  s.newRestart.previousBestCoords = {};
  s.newRestart.bestStep = 120;
  s.newRestart.tabooEnergies = {-40.0, -41.5};
  s.newRestart.tabooCoords = {{6, 5, 4, 3, 2, 1}, {0.5, 0.25, 0.125, 1, 1, 1}};
  s.newRestart.tabooNext = 2;
  s.lowest = {{-44.3, {1, 1, 1, 2, 2, 2}, 5, 700}, {-43.0, {3, 3, 3, 4, 4, 4}, 0, 12}};
  return c;
}

TEST_F(CheckpointFileTest, RoundTripKeepsEveryBit) {
  const Checkpoint c = example();
  writeCheckpointFile(m_path, c);
  const Checkpoint r = readCheckpointFile(m_path);
  EXPECT_EQ(r.fingerprint, c.fingerprint);
  EXPECT_EQ(r.steps, c.steps);
  const BasinHoppingState &a = c.state, &b = r.state;
  EXPECT_EQ(b.quench, a.quench);
  ASSERT_EQ(b.markov.size(), a.markov.size());
  for (std::size_t i = 0; i < a.markov.size(); ++i) EXPECT_TRUE(sameBits(a.markov[i], b.markov[i]));
  EXPECT_TRUE(sameBits(a.markovEnergy, b.markovEnergy));
  EXPECT_TRUE(sameBits(a.stepSize, b.stepSize));
  EXPECT_EQ(b.acceptedInWindow, a.acceptedInWindow);
  EXPECT_EQ(b.functionCalls, a.functionCalls);
  EXPECT_EQ(b.restarts, a.restarts);
  EXPECT_EQ(b.targetReached, a.targetReached);
  EXPECT_EQ(b.targetQuench, a.targetQuench);
  EXPECT_EQ(b.targetFunctionCalls, a.targetFunctionCalls);
  EXPECT_EQ(b.random, a.random);
  EXPECT_TRUE(sameBits(a.newRestart.previousBest, b.newRestart.previousBest));
  EXPECT_EQ(b.newRestart.bestCoords, a.newRestart.bestCoords);
  EXPECT_TRUE(b.newRestart.previousBestCoords.empty());
  EXPECT_EQ(b.newRestart.bestStep, a.newRestart.bestStep);
  EXPECT_EQ(b.newRestart.tabooEnergies, a.newRestart.tabooEnergies);
  EXPECT_EQ(b.newRestart.tabooCoords, a.newRestart.tabooCoords);
  EXPECT_EQ(b.newRestart.tabooNext, a.newRestart.tabooNext);
  ASSERT_EQ(b.lowest.size(), 2u);
  EXPECT_EQ(b.lowest[1].coordinates, a.lowest[1].coordinates);
  EXPECT_EQ(b.lowest[0].firstFoundStep, 5);
  EXPECT_EQ(b.lowest[0].functionCalls, 700);
  // The generator continues where it was.
  Random x(1), y(42);
  for (int i = 0; i < 777; ++i) y.uniform();
  x.restore(b.random);
  EXPECT_EQ(x.uniform(), y.uniform());
  // Writing what was read gives the same text.
  EXPECT_EQ(formatCheckpoint(r), formatCheckpoint(c));
}

// Hundreds of walkers are formatted in blocks on several threads: the text must be that of the
// chains one after another in walker order, each as the single-chain file writes its lines.
TEST_F(CheckpointFileTest, ManyWalkersAreWrittenInOrderAsSingleChains) {
  const Checkpoint base = example();
  const auto chainLines = [&](const BasinHoppingState& s) {
    Checkpoint single = base;
    single.state = s;
    single.state.lowest.clear();
    const std::string text = formatCheckpoint(single);
    const std::size_t from = text.find("\nquench ") + 1, to = text.find("\nlowest 0\n") + 1;
    return text.substr(from, to - from);
  };
  Checkpoint c = base;
  std::string expected;
  for (int w = 1; w < 300; ++w) {  // five blocks of 64 walkers and a partial one
    BasinHoppingState s = base.state;
    s.lowest.clear();
    s.quench = 1000 + w;
    s.markov = {0.1 * w, -1.0 / w, 1e-310 * w, 3.0 / (7.0 + w), -2.5, 1e300 / w};
    s.newRestart.bestCoords = {1.0 * w, 2, 3, 4, 5, 6.0 / w};
    c.otherWalkers.push_back(s);
    expected += chainLines(s);
  }
  const std::string text = formatCheckpoint(c);
  const std::size_t from = text.find("walkers 300\n") + 12;
  ASSERT_NE(from, std::string::npos + 12);
  EXPECT_EQ(text.substr(from, expected.size()), expected);
  EXPECT_EQ(text.compare(from + expected.size(), 10, "exchanges "), 0);
  writeCheckpointFile(m_path, c);
  const Checkpoint r = readCheckpointFile(m_path);
  ASSERT_EQ(r.otherWalkers.size(), 299u);
  for (int w = 1; w < 300; ++w) {
    EXPECT_EQ(r.otherWalkers[w - 1].quench, 1000 + w);
    EXPECT_TRUE(sameBits(r.otherWalkers[w - 1].markov[1], -1.0 / w));
  }
}

TEST_F(CheckpointFileTest, ErrorsNameTheFileLineAndProblem) {
  auto message = [&](const std::string& text) -> std::string {
    std::ofstream(m_path) << text;
    try {
      readCheckpointFile(m_path);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "no error";
  };
  const std::string good = formatCheckpoint(example());
  EXPECT_NE(message(resealed("landscape-basin-hopping-checkpoint 7\n")).find("version 7"),
            std::string::npos);
  const std::string cut = withoutChecksumLine(good);
  EXPECT_NE(message(resealed(cut.substr(0, cut.size() - 4))).find("the file ends before 'end'"),
            std::string::npos);
  // Cut anywhere, the seal is gone: refused before a line is read.
  EXPECT_NE(message(good.substr(0, good.size() / 2)).find("no 'checksum' line"), std::string::npos);
  std::string badNumber = good;
  badNumber.replace(badNumber.find("\nstep-size 0x") + 11, 1, "z");
  EXPECT_NE(message(resealed(badNumber)).find("in 'step-size' is not a number"),
            std::string::npos)
      << message(resealed(badNumber));
  std::string badRandom = good;
  badRandom.replace(badRandom.find("random ") + 7, 0, "1 2 ");
  EXPECT_NE(message(resealed(badRandom)).find("random: not an mt19937_64 state"),
            std::string::npos)
      << message(resealed(badRandom));
  const std::string missing = m_path + ".missing";
  try {
    readCheckpointFile(missing);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(missing + ": no basin-hopping checkpoint", 0), 0u);
  }
}

TEST(CheckpointFingerprint, FirstDifferenceIsReported) {
  const CheckpointFingerprint saved = {{"atoms", "13"}, {"seed", "4"}};
  EXPECT_NO_THROW(checkFingerprint("f", saved, saved));
  try {
    checkFingerprint("out/checkpoint", saved, {{"atoms", "13"}, {"seed", "5"}});
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "out/checkpoint: the checkpoint was made with seed = '4', this run has "
                           "seed = '5'; resume with the original options");
  }
  EXPECT_THROW(checkFingerprint("f", saved, {{"atoms", "13"}}), std::runtime_error);
  EXPECT_THROW(checkFingerprint("f", saved, {{"atoms", "13"}, {"seed", "4"}, {"x", "1"}}),
               std::runtime_error);
}

}  // namespace
}  // namespace landscape
