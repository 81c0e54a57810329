// gmin's walkers of molecules on the round-based batched engine (issue 18 item 4, src/gmin/GminWalkers):
// the default walker count's arithmetic, the backend choice, and runs of AMBER-GB walkers with
// gmin's side-chain rotations and chirality/cis-trans checks (and of SOP walkers) through the
// rounds program -- on the CPU twin (here) and on the GPU against that twin bit for bit (skipped
// without a device). The gmin end-to-end runs (true minima, refill, kill -9 and --resume) are in
// GminCliTest.cpp.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/search/WalkerEnsemble.h"
#include "src/gmin/GminSystem.h"
#include "src/gmin/GminWalkers.h"
#include "src/gmin/GminOptions.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

// A walker's quench as it reports it, every number compared exactly, the reject reason included
// (chirality, cis/trans, cold fusion, ...).
struct Quench {
  long quench;
  double energy, markovEnergy, rms;
  int iterations;
  bool accepted, failed, rejected;
  std::string reason;
  long calls;
  bool operator==(const Quench& o) const {
    return quench == o.quench && energy == o.energy && markovEnergy == o.markovEnergy &&
           rms == o.rms && iterations == o.iterations && accepted == o.accepted &&
           failed == o.failed && rejected == o.rejected && reason == o.reason && calls == o.calls;
  }
};

class Recorder : public WalkerObserver {
 public:
  void onQuench(int w, const QuenchReport& q) override {
    quenches[w].push_back({q.quench, q.energy, q.markovEnergy, q.rmsGradient, q.lbfgsIterations,
                           q.accepted, q.failed, q.evaporated, q.rejectReason, q.functionCalls});
    if (!q.rejectReason.empty() && !q.failed) ++hookRejects;
  }
  std::map<int, std::vector<Quench>> quenches;
  int hookRejects = 0;
};

struct AshRun {
  GminConfig config;
  GminSystem system;
};

// gmin's SOP setup of titin I27 (89 beads, no molecule moves).
std::unique_ptr<AshRun> titinRun(const std::string& backend, long steps) {
  const auto pdb = testDataPath("sop/1TIT.pdb");
  if (!pdb) return nullptr;
  auto run = std::make_unique<AshRun>();
  run->config = parseGminCommandLine({"--sop-pdb", *pdb, "--backend", backend, "--steps",
                                      std::to_string(steps), "--seed", "3"});
  run->system = loadGminSystem(run->config);
  addMolecularMoves(run->config, run->system);
  return run;
}

// gmin's AMBER-GB setup of Ace-Ash-Nme (25 atoms): group rotations and stereo checks on, a large
// step so that the checks reject some quenches.
std::unique_ptr<AshRun> ashRun(const std::string& backend, long steps) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) return nullptr;
  auto run = std::make_unique<AshRun>();
  run->config = parseGminCommandLine(
      {"--prmtop", *prmtop, "--inpcrd", *rst7, "--backend", backend, "--precision", "double",
       "--steps", std::to_string(steps), "--step-size", "0.9", "--group-rotation", "0.5",
       "--seed", "7"});
  run->system = loadGminSystem(run->config);
  addMolecularMoves(run->config, run->system);
  return run;
}

struct Outcome {
  Recorder trace;
  WalkerEnsembleResult result;
};

Outcome runWalkers(AshRun& run, Potential& host, int walkers, BatchedMinimiserMaker maker) {
  Outcome o;
  WalkerEnsemble ensemble(host, run.config.basinHopping, walkers, run.config.tempering,
                          std::move(maker), run.system.hooks);
  o.result = ensemble.run(run.system.start, &o.trace);
  return o;
}

void expectSameRuns(const Outcome& a, const Outcome& b) {
  ASSERT_EQ(a.trace.quenches.size(), b.trace.quenches.size());
  for (const auto& [w, quenches] : a.trace.quenches)
    EXPECT_TRUE(quenches == b.trace.quenches.at(w)) << "walker " << w;
  const auto& la = a.result.total.lowest;
  const auto& lb = b.result.total.lowest;
  ASSERT_EQ(la.size(), lb.size());
  for (std::size_t i = 0; i < la.size(); ++i) {
    EXPECT_EQ(la[i].energy, lb[i].energy) << "minimum " << i;
    EXPECT_EQ(la[i].coordinates, lb[i].coordinates) << "minimum " << i;
  }
}

TEST(GminWalkers, DeviceWalkersFillTheMultiprocessorsWithinHalfTheMemory) {
  // Two per multiprocessor when memory is plenty (an H100: 132 SMs).
  EXPECT_EQ(deviceWalkers(132, 2'100'000, std::size_t{79} << 30), 2 * 132);
  // Capped by half the memory: 100 MB / 2 / 2.1 MB = 23.
  EXPECT_EQ(deviceWalkers(132, 2'100'000, 100'000'000), 23);
  // At least one, even when one does not fit (the engine then refuses it with its message).
  EXPECT_EQ(deviceWalkers(132, 2'100'000, 1000), 1);
  EXPECT_EQ(deviceWalkers(0, 0, 0), kWalkersPerMultiprocessor);
}

// --backend cpu: no device engine, CPU threads over copies of the potential as before.
TEST(GminWalkers, CpuBackendKeepsThreadsOverPotentialCopies) {
  auto run = ashRun("cpu", 2);
  if (!run) GTEST_SKIP() << "gb/ash not found";
  EXPECT_EQ(walkerDevicePotential(run->config, run->system), nullptr);
  EXPECT_EQ(walkerHostPotential(run->config, run->system), nullptr);
  EXPECT_EQ(walkerThreads(run->config, run->system, 1), 1);
  EXPECT_NE(walkerQuenchDescription(run->config, run->system, 4).find("CPU threads"),
            std::string::npos);
}

// The rounds program on the CPU twin, with gmin's molecule moves and checks per walker: the run
// does not depend on how many walkers the engine holds at once (3 resident of 8 refill from the
// queue) nor on the CPU threads of the potential, and the stereo checks reject quenches.
TEST(GminWalkers, GbWalkersOnTheRoundsTwinDoNotDependOnResidentSlots) {
  auto run = ashRun("cpu", 6);
  if (!run) GTEST_SKIP() << "gb/ash not found";
  const auto host = makePotential(run->system.spec, Backend::Cpu);
  BatchedRoundsOptions all, three;
  three.residentStructures = 3;
  BatchedPotentialOptions oneThread, twoThreads;
  twoThreads.threads = 2;
  const Outcome a = runWalkers(
      *run, *host, 8,
      roundsMinimiserMaker(makeBatchedPotentialForSpec(run->system.spec, Backend::Cpu, oneThread),
                           BatchedBackend::CpuRoundsTwin, all));
  const Outcome b = runWalkers(
      *run, *host, 8,
      roundsMinimiserMaker(makeBatchedPotentialForSpec(run->system.spec, Backend::Cpu, twoThreads),
                           BatchedBackend::CpuRoundsTwin, three));
  expectSameRuns(a, b);
  EXPECT_EQ(a.trace.quenches.size(), 8u);
  EXPECT_EQ(a.trace.quenches.at(7).size(), 7u);  // quench 0 and 6 steps
  EXPECT_GT(a.trace.hookRejects, 0) << "the chirality/cis-trans checks should reject some quenches";
  EXPECT_FALSE(a.result.total.lowest.empty());
}

// The GPU: the rounds engine over the device AMBER-GB equals its CPU twin over the same
// potential's host entry point (the device's energy bits), walker for walker and quench for
// quench, with group rotations and stereo checks on; and 3 resident slots change nothing.
TEST(GminWalkers, GbWalkersOnTheGpuAreTheRoundsTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  auto run = ashRun("cuda", 12);
  if (!run) GTEST_SKIP() << "gb/ash not found";
  const std::shared_ptr<BatchedPotential> device =
      walkerDevicePotential(run->config, run->system, 8);
  ASSERT_NE(device, nullptr) << "AMBER-GB has a device batched potential";
  const auto host = walkerHostPotential(run->config, run->system);
  ASSERT_NE(host, nullptr);
  BatchedRoundsOptions all, three;
  three.residentStructures = 3;
  const Outcome gpu = runWalkers(*run, *host, 8,
                                 roundsMinimiserMaker(device, BatchedBackend::CudaRounds, all));
  const Outcome twin = runWalkers(
      *run, *host, 8, roundsMinimiserMaker(device, BatchedBackend::CpuRoundsTwin, all));
  const Outcome refill = runWalkers(
      *run, *host, 8, roundsMinimiserMaker(device, BatchedBackend::CudaRounds, three));
  expectSameRuns(gpu, twin);
  expectSameRuns(gpu, refill);
  EXPECT_GT(gpu.trace.hookRejects, 0) << "the chirality/cis-trans checks should reject some quenches";
  // gmin's own maker picks the same engine.
  const Outcome gmin =
      runWalkers(*run, *host, 8, walkerMinimiserMaker(run->config, run->system, 8));
  expectSameRuns(gpu, gmin);
}

// SOP, whose device batched potential the factory builds since the batched SOP landed: gmin's
// walkers take the rounds engine with no change of their own, and the GPU run is the CPU twin's
// over the same potential bit for bit, refill included.
TEST(GminWalkers, SopWalkersOnTheGpuAreTheRoundsTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  auto run = titinRun("cuda", 8);
  if (!run) GTEST_SKIP() << "sop/1TIT.pdb not found";
  const std::shared_ptr<BatchedPotential> device =
      walkerDevicePotential(run->config, run->system, 8);
  ASSERT_NE(device, nullptr) << "SOP has a device batched potential";
  EXPECT_NE(walkerQuenchDescription(run->config, run->system, 8).find("round-based L-BFGS"),
            std::string::npos);
  const auto host = walkerHostPotential(run->config, run->system);
  ASSERT_NE(host, nullptr);
  BatchedRoundsOptions all, three;
  three.residentStructures = 3;
  const Outcome gmin =
      runWalkers(*run, *host, 8, walkerMinimiserMaker(run->config, run->system, 8));
  const Outcome twin = runWalkers(
      *run, *host, 8, roundsMinimiserMaker(device, BatchedBackend::CpuRoundsTwin, all));
  const Outcome refill = runWalkers(
      *run, *host, 8, roundsMinimiserMaker(device, BatchedBackend::CudaRounds, three));
  expectSameRuns(gmin, twin);
  expectSameRuns(gmin, refill);
  EXPECT_FALSE(gmin.result.total.lowest.empty());
}

}  // namespace
}  // namespace landscape
