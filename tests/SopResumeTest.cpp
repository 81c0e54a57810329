// sop --resume's pieces (docs/sop.md): random streams continue from a saved state with the same
// words as streams never interrupted (every generator, both backends); SOP dynamics restored from a
// saved state reaches the uninterrupted run's coordinates bit for bit (pulling, indentation,
// plain; CPU, and CUDA when a device is there); the sop checkpoint round-trips every bit and
// refuses damaged files with the file and line.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "CheckpointTexts.h"
#include "backends/SopDynamicsFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/dynamics/RandomStreams.h"
#include "landscape/dynamics/SopDynamics.h"
#include "landscape/formats/SopCheckpointFile.h"
#include "potentials/SopTopology.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

std::vector<std::uint32_t> draw(RandomStreams& s, int steps) {
  std::vector<std::uint32_t> all, words(kWordsPerStreamStep * s.streams());
  for (int k = 0; k < steps; ++k) {
    s.nextStep(words.data());
    all.insert(all.end(), words.begin(), words.end());
  }
  return all;
}

TEST(SopResume, RandomStreamsContinueFromASavedStateForEveryGenerator) {
  for (RngKind kind : allRngKinds()) {
    RandomStreams original(kind, 2024, 7);
    draw(original, 5);
    const RandomStreamsState saved = original.state();
    EXPECT_EQ(saved.words.size(), randomStreamsStateWords(kind, 7, original.layout()))
        << rngKindName(kind);
    RandomStreams restored(kind, 2024, 7);  // at step 0: a different state until restored
    restored.restore(saved);
    EXPECT_EQ(restored.step(), 5u);
    EXPECT_EQ(draw(restored, 9), draw(original, 9)) << rngKindName(kind);
  }
}

TEST(SopResume, RandomStreamsRefuseAStateOfOtherStreams) {
  RandomStreams ran2(RngKind::Ran2, 1, 3);
  RandomStreamsState s = ran2.state();
  s.words.pop_back();
  EXPECT_THROW(ran2.restore(s), std::invalid_argument);
  s = ran2.state();
  s.words[2] = 0x80000000u;  // iy beyond the modulus: it would index past the table
  EXPECT_THROW(ran2.restore(s), std::invalid_argument);
  RandomStreams philox(RngKind::Philox, 1, 3);
  s = philox.state();
  s.ringBase = 1;
  EXPECT_THROW(philox.restore(s), std::invalid_argument);
}

SopTopology titin() { return readSopTopology(*testDataPath("sop/1TIT.pdb"), SopParams{}); }

enum class Protocol { None, Pulling, Indentation };

SopDynamicsParams paramsFor(Protocol protocol, RngKind generator) {
  SopDynamicsParams p;
  p.replicas = 2;
  p.langevin.generator = generator;
  p.langevin.seed = 11;
  p.pulling.enabled = protocol == Protocol::Pulling;
  p.pulling.speed = 0.05;  // fast, so the anchor moves by several A in the test
  p.indentation.enabled = protocol == Protocol::Indentation;
  p.indentation.speed = 0.05;
  p.indentation.startGap = 0.5;
  return p;
}

std::vector<double> allPositions(SopDynamics& md) {
  std::vector<double> x;
  for (int r = 0; r < md.replicas(); ++r) {
    const std::vector<double> xr = md.positions(r);
    x.insert(x.end(), xr.begin(), xr.end());
    x.push_back(md.tipPosition(r));
  }
  return x;
}

// `total` steps without a break, and `split` steps, a saved state, a new dynamics restored from it
// and the rest: the same bits.
void expectResumeIsExact(Backend backend, const SopDynamicsParams& params, long split,
                         long total) {
  const SopTopology t = titin();
  const std::vector<double> start = t.nativeCoordinates();
  auto whole = makeSopDynamics(t, start, params, backend);
  whole->run(total);
  auto first = makeSopDynamics(t, start, params, backend);
  first->run(split);
  const SopDynamicsState saved = first->saveState();
  EXPECT_EQ(saved.step, split);
  auto second = makeSopDynamics(t, start, params, backend);
  second->restoreState(saved);
  EXPECT_EQ(second->stepsDone(), split);
  second->run(total - split);
  const std::vector<double> a = allPositions(*whole), b = allPositions(*second);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k)
    ASSERT_EQ(a[k], b[k]) << "value " << k << " (the last of each replica is its tip)";
  EXPECT_EQ(second->rebuilds(), whole->rebuilds());
  // The pulled and indented runs moved: the comparison is not of the start structure.
  EXPECT_NE(a, allPositions(*makeSopDynamics(t, start, params, backend)));
}

TEST(SopResume, CpuDynamicsRestoredFromASavedStateIsTheUninterruptedRun) {
  if (!testDataPath("sop/1TIT.pdb")) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  expectResumeIsExact(Backend::Cpu, paramsFor(Protocol::Pulling, RngKind::Philox), 130, 300);
  expectResumeIsExact(Backend::Cpu, paramsFor(Protocol::Indentation, RngKind::Ran2), 77, 200);
  expectResumeIsExact(Backend::Cpu, paramsFor(Protocol::None, RngKind::LaggedFibonacci), 50, 120);
}

TEST(SopResume, CpuDynamicsRefusesAStateOfAnotherShape) {
  if (!testDataPath("sop/1TIT.pdb")) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  const SopTopology t = titin();
  SopDynamicsCpu md(t, t.nativeCoordinates(), paramsFor(Protocol::None, RngKind::Philox));
  SopDynamicsState s = md.saveState();
  s.tips.pop_back();
  EXPECT_THROW(md.restoreState(s), std::invalid_argument);
  s = md.saveState();
  s.step = 3;  // the random streams are still at step 0
  EXPECT_THROW(md.restoreState(s), std::invalid_argument);
}

// The CUDA dynamics is deterministic (fixed summation order, no floating-point atomics:
// gpu/SopKernels.cuh), and restoreState rebuilds the Verlet list from the saved reference, so a
// resumed run repeats the uninterrupted one bit for bit: displacement-triggered and fixed-interval
// rebuilds, double and single precision, plain launches and CUDA Graphs.
TEST(SopResume, CudaDynamicsRestoredFromASavedStateIsTheUninterruptedRun) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  if (!testDataPath("sop/1TIT.pdb")) GTEST_SKIP() << "test data sop/1TIT.pdb not found";
  SopDynamicsParams p = paramsFor(Protocol::Pulling, RngKind::Philox);
  p.skin = 0.5;  // frequent rebuilds, so the split falls between two of them
  expectResumeIsExact(Backend::Cuda, p, 333, 1000);
  p.rebuildInterval = 40;
  expectResumeIsExact(Backend::Cuda, p, 130, 400);
  SopDynamicsParams q = paramsFor(Protocol::Indentation, RngKind::HybridTaus);
  q.precision = Precision::Single;
  q.skin = 0.5;
  expectResumeIsExact(Backend::Cuda, q, 251, 700);
  SopDynamicsParams g = paramsFor(Protocol::None, RngKind::Ran2);
  g.cudaGraphSteps = 8;
  expectResumeIsExact(Backend::Cuda, g, 100, 300);
  SopDynamicsParams k = paramsFor(Protocol::Indentation, RngKind::Philox);
  k.rebuildInterval = 40;
  k.cudaPersistentSteps = 9;
  expectResumeIsExact(Backend::Cuda, k, 130, 400);
}

SopCheckpoint sampleCheckpoint() {
  SopCheckpoint c;
  c.fingerprint = {{"kt", "0.59999999999999998"}, {"pull", "on"}};
  c.inputDigest = fnv1aDigest("ATOM");
  c.beads = 2;
  c.replicas = 2;
  c.protocol = "pulling";
  c.protocolValues = {1.0 / 3.0, -2.5, 1e-300, 0.6, 0.8, 0.0};
  c.state.step = 12;
  c.state.positions = {0.1, 0.2, 0.3, -1e5, 5.0, 6.0, 7.0 / 3.0, 8, 9, 10, 11, 12};
  c.state.tips = {0.0, -0.125};
  c.state.random.step = 12;
  c.state.random.words = {0, 4294967295u, 7};
  c.state.listPositions = c.state.positions;
  c.state.listPositions[4] = 4.75;
  c.state.rebuildDue = {1, 0};
  c.state.rebuilds = 3;
  c.outputs = {{"force_curve_0.dat", 400, 4}, {"trajectory_0.dcd", 1000, 2}};
  return c;
}

TEST(SopResume, CheckpointRoundTripsEveryBit) {
  const SopCheckpoint c = sampleCheckpoint();
  const std::string text = formatSopCheckpoint(c);
  const SopCheckpoint back = parseSopCheckpoint("sop.checkpoint", text);
  EXPECT_EQ(back.fingerprint, c.fingerprint);
  EXPECT_EQ(back.inputDigest, c.inputDigest);
  EXPECT_EQ(back.protocolValues, c.protocolValues);
  EXPECT_EQ(back.state.positions, c.state.positions);
  EXPECT_EQ(back.state.listPositions, c.state.listPositions);
  EXPECT_EQ(back.state.rebuildDue, c.state.rebuildDue);
  EXPECT_EQ(back.state.tips, c.state.tips);
  EXPECT_EQ(back.state.random.words, c.state.random.words);
  EXPECT_EQ(back.state.rebuilds, 3);
  ASSERT_EQ(back.outputs.size(), 2u);
  EXPECT_EQ(back.outputs[1].name, "trajectory_0.dcd");
  EXPECT_EQ(back.outputs[1].bytes, 1000u);
  EXPECT_EQ(formatSopCheckpoint(back), text);
  EXPECT_EQ(fnv1aDigest(""), "cbf29ce484222325");  // the FNV-1a 64 offset basis
  EXPECT_EQ(fnv1aDigest("a"), "af63dc4c8601ec8c");  // the published test vector
}

std::string errorOf(const std::string& text) {
  try {
    parseSopCheckpoint("dir/sop.checkpoint", text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(SopResume, DamagedCheckpointsAreRefusedWithTheLine) {
  const std::string text = formatSopCheckpoint(sampleCheckpoint());
  const std::string cut = text.substr(0, text.find("list-reference"));
  EXPECT_EQ(errorOf(cut), "dir/sop.checkpoint: the sop checkpoint has no 'checksum' line at its "
                          "end (truncated, or damaged after it was written)");
  EXPECT_EQ(errorOf(resealed(cut)), "dir/sop.checkpoint:13: the file ends before 'list-reference' "
                                    "(truncated?)");
  EXPECT_NE(errorOf(text.substr(0, text.size() / 2)).rfind("dir/sop.checkpoint", 0),
            std::string::npos);
  EXPECT_NE(errorOf(resealed(replaced(text, "force_curve_0.dat", "../../etc/passwd")))
                .find("not a file name"),
            std::string::npos);
  EXPECT_NE(errorOf(resealed(replaced(text, "landscape-sop-checkpoint 2",
                                     "landscape-sop-checkpoint 3")))
                .find("this build reads versions 1 and 2"),
            std::string::npos);
  EXPECT_NE(errorOf(resealed(replaced(text, "tips 0x0p+0", "tips nan"))).find(":11: 'nan'"),
            std::string::npos)
      << errorOf(resealed(replaced(text, "tips 0x0p+0", "tips nan")));
  EXPECT_NE(errorOf(resealed(replaced(text, "random-step 12", "random-step 13")))
                .find("random streams"),
            std::string::npos);
  // One changed digit, sealed as written: refused naming the file and the checksum line.
  EXPECT_NE(errorOf(replaced(text, "random-step 12", "random-step 13")).find("checksum mismatch"),
            std::string::npos);
  // The file of an earlier build (version 1, no checksum line) is read as before.
  EXPECT_EQ(
      formatSopCheckpoint(parseSopCheckpoint("old", asVersion1(text, "landscape-sop-checkpoint"))),
      text);
  EXPECT_NE(errorOf(resealed(replaced(text, "positions 1 ", "positions 0 ")))
                .find("expected replica 1"),
            std::string::npos);
  EXPECT_EQ(errorOf(resealed(
                replaced(text, "positions 1 0x1.2aaaaaaaaaaabp+1", "positions 1 0x1p+1000"))),
            "dir/sop.checkpoint:13: coordinate 1 is beyond 1000000 A");
}

}  // namespace
}  // namespace landscape
