// gmin's walkers of molecules on the round-based batched engine (src/GminWalkers):
// the default walker count's arithmetic, the backend choice, and runs of AMBER-GB walkers with
// gmin's side-chain rotations and chirality/cis-trans checks (and of SOP walkers) through the
// rounds program -- on the CPU twin (here) and on the GPU against that twin bit for bit (skipped
// without a device). The gmin end-to-end runs (true minima, refill, kill -9 and --resume) are in
// GminCliTest.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "backends/BatchedPotentialFactory.h"
#include "gpu/DeviceMemoryPlan.h"
#include "gpu/GpuDevice.h"
#include "landscape/search/WalkerEnsemble.h"
#include "src/gmin/GminOptions.h"
#include "src/gmin/GminSystem.h"
#include "src/gmin/GminWalkers.h"
#include "tests/BatchedStructures.h"
#include "tests/TempFile.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

// A walker's quench as it reports it, every number compared bit for bit (a failed quench's NaN
// energy equals itself; mixed-precision AMBER-GB quenches of overlapping trial structures end so),
// the reject reason included (chirality, cis/trans, cold fusion, ...).
using batchtest::sameBits;

struct Quench {
  long quench;
  double energy, markovEnergy, rms;
  int iterations;
  bool accepted, failed, rejected;
  std::string reason;
  long calls;
  bool operator==(const Quench& o) const {
    return quench == o.quench && sameBits(energy, o.energy) &&
           sameBits(markovEnergy, o.markovEnergy) && sameBits(rms, o.rms) &&
           iterations == o.iterations && accepted == o.accepted && failed == o.failed &&
           rejected == o.rejected && reason == o.reason && calls == o.calls;
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
  run->config = parseGminCommandLine(
      {"--sop-pdb", *pdb, "--backend", backend, "--steps", std::to_string(steps), "--seed", "3"});
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
  run->config =
      parseGminCommandLine({"--prmtop", *prmtop, "--inpcrd", *rst7, "--backend", backend,
                            "--precision", "double", "--steps", std::to_string(steps),
                            "--step-size", "0.9", "--group-rotation", "0.5", "--seed", "7"});
  run->system = loadGminSystem(run->config);
  addMolecularMoves(run->config, run->system);
  return run;
}

// gmin's rigid TIP4P octamer from a random start (kJ/mol, Angstrom).
std::unique_ptr<AshRun> waterRun(const std::string& backend, long steps,
                                 const std::string& ions = "") {
  auto run = std::make_unique<AshRun>();
  std::vector<std::string> args = {"--water",   "tip4p", "--molecules", "8",
                                   "--backend", backend, "--steps",     std::to_string(steps),
                                   "--seed",    "5"};
  if (!ions.empty()) args.insert(args.end(), {"--ions", ions});
  run->config = parseGminCommandLine(args);
  run->system = loadGminSystem(run->config);
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
  // Small structures (rigid water: 6 per molecule) fill the device with many more walkers.
  EXPECT_EQ(walkersPerMultiprocessor(120), kWalkersPerMultiprocessorSmall);
  EXPECT_EQ(walkersPerMultiprocessor(912), kWalkersPerMultiprocessor);  // trp-cage
  EXPECT_EQ(deviceWalkers(132, 25'000, std::size_t{79} << 30, walkersPerMultiprocessor(120)),
            32 * 132);
}

// The plan's arithmetic from given device properties, no device needed: the walker counts,
// threads and shares the chain of choices gave before it was decided in one place.
TEST(GminWalkers, PlanSizesTheWalkersFromTheFacts) {
  GminConfig config;
  WalkerFacts facts;
  facts.cores = 4;
  facts.clusterAtoms = 75;  // a Lennard-Jones cluster past kLargeClusterAtoms
  facts.multiprocessors = 132;
  facts.bytesPerWalker = 2'100'000;
  facts.freeBytes = std::size_t{79} << 30;
  const WalkerRanks one, three{3, 3};

  // Defaults per rank, times the ranks.
  GminWalkerPlan lj = planWalkers(config, WalkerEngine::LennardJonesTeams, 0, one, facts);
  EXPECT_EQ(lj.walkers, 4096);
  EXPECT_EQ(lj.perRank, 4096);
  EXPECT_EQ(lj.threads, 1);
  lj = planWalkers(config, WalkerEngine::LennardJonesTeams, 0, three, facts);
  EXPECT_EQ(lj.walkers, 3 * 4096);
  EXPECT_EQ(lj.perRank, 4096);
  WalkerFacts smallCluster = facts;
  smallCluster.clusterAtoms = 38;
  EXPECT_EQ(planWalkers(config, WalkerEngine::LennardJonesTeams, 0, one, smallCluster).walkers,
            256);

  GminWalkerPlan rounds = planWalkers(config, WalkerEngine::DeviceRounds, 0, one, facts);
  EXPECT_EQ(rounds.walkers, 2 * 132);
  EXPECT_EQ(rounds.deviceDefaultWalkers, 2 * 132);
  EXPECT_EQ(rounds.threads, 1);
  EXPECT_EQ(rounds.devicePotential, nullptr);
  // Capped by half the free memory less the headroom: 100 MB / 2 / 2.1 MB = 23.
  WalkerFacts small = facts;
  small.freeBytes = 100'000'000 + kDeviceHeadroomBytes;
  rounds = planWalkers(config, WalkerEngine::DeviceRounds, 0, three, small);
  EXPECT_EQ(rounds.deviceDefaultWalkers, 23);
  EXPECT_EQ(rounds.walkers, 3 * 23);
  EXPECT_EQ(rounds.perRank, 23);
  small.freeBytes = kDeviceHeadroomBytes / 2;  // less than the headroom: one walker
  EXPECT_EQ(planWalkers(config, WalkerEngine::DeviceRounds, 0, one, small).walkers, 1);

  GminWalkerPlan cpu = planWalkers(config, WalkerEngine::CpuThreads, 0, one, facts);
  EXPECT_EQ(cpu.walkers, 4);
  EXPECT_EQ(cpu.threads, 4);
  EXPECT_EQ(cpu.deviceDefaultWalkers, 0);
  cpu = planWalkers(config, WalkerEngine::CpuThreads, 0, three, facts);
  EXPECT_EQ(cpu.walkers, 12);
  EXPECT_EQ(cpu.perRank, 4);
  EXPECT_EQ(planWalkers(config, WalkerEngine::RunPotential, 0, three, facts).walkers, 3);
  EXPECT_EQ(planWalkers(config, WalkerEngine::RunPotential, 0, three, facts).threads, 1);

  // --walkers, then the checkpoint's count, then the Langevin move's one chain come first.
  EXPECT_EQ(planWalkers(config, WalkerEngine::CpuThreads, 6, one, facts).walkers, 6);
  config.langevin.steps = 10;
  EXPECT_EQ(planWalkers(config, WalkerEngine::DeviceRounds, 0, one, facts).walkers, 1);
  EXPECT_EQ(planWalkers(config, WalkerEngine::DeviceRounds, 6, one, facts).walkers, 6);
  config.langevin.steps = 0;
  config.walkers = 10;
  cpu = planWalkers(config, WalkerEngine::CpuThreads, 6, three, facts);
  EXPECT_EQ(cpu.walkers, 10);
  EXPECT_EQ(cpu.perRank, 4);  // ceil(10 / 3)
  EXPECT_EQ(cpu.threads, 4);
  cpu = planWalkers(config, WalkerEngine::CpuThreads, 0, WalkerRanks{5, 5}, facts);
  EXPECT_EQ(cpu.perRank, 2);
  EXPECT_EQ(cpu.threads, 2);  // min(walkers of the rank, cores)
  // The device default is reported whatever the count.
  EXPECT_EQ(planWalkers(config, WalkerEngine::DeviceRounds, 0, one, facts).deviceDefaultWalkers,
            2 * 132);

  // The agreed count (rank 0's under mpirun) is the run's; the shares follow it.
  config.walkers = 0;
  cpu = planWalkers(config, WalkerEngine::CpuThreads, 0, three, facts,
                    [](int walkers) { return walkers + 3; });
  EXPECT_EQ(cpu.walkers, 15);
  EXPECT_EQ(cpu.perRank, 5);
  EXPECT_EQ(cpu.threads, 4);
  EXPECT_TRUE(cpu.walkerRun(config));
  EXPECT_FALSE(planWalkers(config, WalkerEngine::RunPotential, 0, one, facts).walkerRun(config));
}

// The engine from the options and the system alone: nothing is built to decide it.
TEST(GminWalkers, EngineFollowsTheBackendAndTheKind) {
  GminConfig config;
  GminSystem system;
  system.spec.kind = PotentialSpec::Kind::LennardJones;
  system.spec.atoms = 13;
  system.atomistic = makePotential(system.spec, Backend::Cpu);
  EXPECT_EQ(walkerEngine(config, system), WalkerEngine::CpuThreads);
  config.backend = Backend::Cuda;
  EXPECT_EQ(walkerEngine(config, system), WalkerEngine::LennardJonesTeams);
  system.spec.kind = PotentialSpec::Kind::AmberGb;
  EXPECT_EQ(walkerEngine(config, system), WalkerEngine::DeviceRounds);
  system.spec.kind = PotentialSpec::Kind::Sop;
  EXPECT_EQ(walkerEngine(config, system), WalkerEngine::DeviceRounds);
}

// --backend cpu: no device engine, CPU threads over copies of the potential as before.
TEST(GminWalkers, CpuBackendKeepsThreadsOverPotentialCopies) {
  auto run = ashRun("cpu", 2);
  if (!run) GTEST_SKIP() << "gb/ash not found";
  run->config.walkers = 1;
  const GminWalkerPlan one = planGminWalkers(run->config, run->system, 0);
  EXPECT_EQ(one.engine, WalkerEngine::CpuThreads);
  EXPECT_EQ(one.devicePotential, nullptr);
  EXPECT_EQ(one.threads, 1);
  EXPECT_EQ(walkerHostPotential(one, run->system), nullptr);
  run->config.walkers = 4;
  const GminWalkerPlan four = planGminWalkers(run->config, run->system, 0);
  EXPECT_GE(four.threads, 1);
  EXPECT_LE(four.threads, 4);
  EXPECT_NE(walkerQuenchDescription(four, run->config).find("CPU threads"), std::string::npos);
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
                           Backend::Cpu, all));
  const Outcome b = runWalkers(
      *run, *host, 8,
      roundsMinimiserMaker(makeBatchedPotentialForSpec(run->system.spec, Backend::Cpu, twoThreads),
                           Backend::Cpu, three));
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
  run->config.walkers = 8;
  const GminWalkerPlan plan = planGminWalkers(run->config, run->system, 0);
  EXPECT_EQ(plan.engine, WalkerEngine::DeviceRounds);
  const std::shared_ptr<BatchedPotential> device = plan.devicePotential;
  ASSERT_NE(device, nullptr) << "AMBER-GB has a device batched potential";
  EXPECT_GT(device->bytesPerStructure(), 0u);
  const auto host = walkerHostPotential(plan, run->system);
  ASSERT_NE(host, nullptr);
  BatchedRoundsOptions all, three;
  three.residentStructures = 3;
  const Outcome gpu = runWalkers(*run, *host, 8, roundsMinimiserMaker(device, Backend::Cuda, all));
  const Outcome twin = runWalkers(*run, *host, 8, roundsMinimiserMaker(device, Backend::Cpu, all));
  const Outcome refill =
      runWalkers(*run, *host, 8, roundsMinimiserMaker(device, Backend::Cuda, three));
  expectSameRuns(gpu, twin);
  expectSameRuns(gpu, refill);
  EXPECT_GT(gpu.trace.hookRejects, 0)
      << "the chirality/cis-trans checks should reject some quenches";
  // gmin's own maker picks the same engine.
  const Outcome gmin =
      runWalkers(*run, *host, 8, walkerMinimiserMaker(plan, run->config, run->system));
  expectSameRuns(gpu, gmin);
}

// SOP, whose device batched potential the factory builds since the batched SOP landed: gmin's
// walkers take the rounds engine with no change of their own, and the GPU run is the CPU twin's
// over the same potential bit for bit, refill included.
TEST(GminWalkers, SopWalkersOnTheGpuAreTheRoundsTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  auto run = titinRun("cuda", 8);
  if (!run) GTEST_SKIP() << "sop/1TIT.pdb not found";
  run->config.walkers = 8;
  const GminWalkerPlan plan = planGminWalkers(run->config, run->system, 0);
  const std::shared_ptr<BatchedPotential> device = plan.devicePotential;
  ASSERT_NE(device, nullptr) << "SOP has a device batched potential";
  EXPECT_EQ(plan.perRank, 8);
  EXPECT_GE(plan.deviceDefaultWalkers, 1);
  EXPECT_NE(walkerQuenchDescription(plan, run->config).find("round-based L-BFGS"),
            std::string::npos);
  const auto host = walkerHostPotential(plan, run->system);
  ASSERT_NE(host, nullptr);
  BatchedRoundsOptions all, three;
  three.residentStructures = 3;
  const Outcome gmin =
      runWalkers(*run, *host, 8, walkerMinimiserMaker(plan, run->config, run->system));
  const Outcome twin = runWalkers(*run, *host, 8, roundsMinimiserMaker(device, Backend::Cpu, all));
  const Outcome refill =
      runWalkers(*run, *host, 8, roundsMinimiserMaker(device, Backend::Cuda, three));
  expectSameRuns(gmin, twin);
  expectSameRuns(gmin, refill);
  EXPECT_FALSE(gmin.result.total.lowest.empty());
}

// Local rigid bodies (--rigid) over Lennard-Jones on cuda: the rounds engine over the rigid layer
// over the device Lennard-Jones batch (the team kernel has no metric), its CPU twin's runs bit for
// bit, and every saved minimum keeps the body's shape (the right triangle of legs 1.2 sigma).
TEST(GminWalkers, RigidLennardJonesWalkersOnTheGpuAreTheRoundsTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  const TempFile coords("5\nsquare\nLA 0 0 0\nLA 1.2 0 0\nLA 0 1.2 0\nLA 1.2 1.2 0\nLA 0.6 0.6 0.9\n",
                        ".xyz");
  const TempFile bodies("GROUP 3\n1 2 3\n", ".rigid");
  auto run = std::make_unique<AshRun>();
  run->config = parseGminCommandLine({"--coords", coords.path(), "--rigid", bodies.path(),
                                      "--backend", "cuda", "--steps", "10", "--step-size", "0.2",
                                      "--rigid-rotation", "30", "--rigid-translation", "0.2",
                                      "--seed", "4"});
  run->system = loadGminSystem(run->config);
  useRigidBodies(run->config, run->system);
  run->config.walkers = 8;
  const GminWalkerPlan plan = planGminWalkers(run->config, run->system, 0);
  EXPECT_EQ(plan.engine, WalkerEngine::DeviceRounds);
  ASSERT_NE(plan.devicePotential, nullptr);
  const auto host = walkerHostPotential(plan, run->system);
  ASSERT_NE(host, nullptr);
  BatchedRoundsOptions all;
  const Outcome gmin =
      runWalkers(*run, *host, 8, walkerMinimiserMaker(plan, run->config, run->system));
  const Outcome twin =
      runWalkers(*run, *host, 8, roundsMinimiserMaker(plan.devicePotential, Backend::Cpu, all));
  expectSameRuns(gmin, twin);
  ASSERT_FALSE(gmin.result.total.lowest.empty());
  for (const StoredMinimum& m : gmin.result.total.lowest) {
    const std::vector<double> x = run->system.rigid->toAtoms(m.coordinates);
    EXPECT_NEAR(std::hypot(x[0] - x[3], x[1] - x[4], x[2] - x[5]), 1.2, 1e-9);
    EXPECT_NEAR(std::hypot(x[3] - x[6], x[4] - x[7], x[5] - x[8]), 1.2 * std::sqrt(2.0), 1e-9);
  }
}

// Rigid water: the rounds engine over the rigid layer over the device site potential minimises in
// the angle-axis metric; the GPU run is its CPU twin's over the same potential bit for bit,
// refill included, and its minima are stationary points of the CPU reference. With ions
// (--ions), which the rigid layer keeps as free atoms.
void expectWaterWalkersAreTheRoundsTwin(const std::string& ions) {
  auto run = waterRun("cuda", 10, ions);
  run->config.walkers = 8;
  const GminWalkerPlan plan = planGminWalkers(run->config, run->system, 0);
  EXPECT_EQ(plan.engine, WalkerEngine::DeviceRounds);
  const std::shared_ptr<BatchedPotential> device = plan.devicePotential;
  ASSERT_NE(device, nullptr);
  EXPECT_TRUE(device->hasGradientMetric());
  const auto host = walkerHostPotential(plan, run->system);
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host->dimension(), device->dimension());
  BatchedRoundsOptions all, three;
  three.residentStructures = 3;
  const Outcome gmin =
      runWalkers(*run, *host, 8, walkerMinimiserMaker(plan, run->config, run->system));
  const Outcome twin = runWalkers(*run, *host, 8, roundsMinimiserMaker(device, Backend::Cpu, all));
  const Outcome refill =
      runWalkers(*run, *host, 8, roundsMinimiserMaker(device, Backend::Cuda, three));
  expectSameRuns(gmin, twin);
  expectSameRuns(gmin, refill);
  ASSERT_FALSE(gmin.result.total.lowest.empty());
  for (const StoredMinimum& m : gmin.result.total.lowest) {
    std::vector<double> g(m.coordinates.size());
    EXPECT_NEAR(host->energyGradient(m.coordinates.data(), g.data()), m.energy,
                1e-9 * std::fabs(m.energy));
    EXPECT_LT(host->rmsGradient(m.coordinates.data(), g.data()), run->config.basinHopping.sloppyRms);
  }
}

TEST(GminWalkers, WaterWalkersOnTheGpuAreTheRoundsTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  expectWaterWalkersAreTheRoundsTwin("");
}

TEST(GminWalkers, WaterWalkersWithIonsOnTheGpuAreTheRoundsTwinBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  expectWaterWalkersAreTheRoundsTwin("Na+,Cl-");
}

// The walkers' quenches with their tails packed into fewer rows (gmin's default, --walker-pack 4
// and 2) are the run of the unpacked engine bit for bit: 256 TIP4P octamer walkers, whose slowest
// quenches take several times the mean number of calls.
TEST(GminWalkers, WaterWalkersWithPackedTailsAreTheUnpackedRunBitForBit) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  auto run = waterRun("cuda", 4);
  run->config.walkers = 256;
  const GminWalkerPlan plan = planGminWalkers(run->config, run->system, 0);
  ASSERT_EQ(plan.engine, WalkerEngine::DeviceRounds);
  ASSERT_TRUE(plan.devicePotential->rowsMayMove());
  EXPECT_EQ(run->config.walkerPack, 4);
  const auto host = walkerHostPotential(plan, run->system);
  BatchedRoundsOptions unpacked, byTwo;
  unpacked.packFactor = 0;
  byTwo.packFactor = 2;
  const Outcome packed =
      runWalkers(*run, *host, 256, walkerMinimiserMaker(plan, run->config, run->system));
  expectSameRuns(packed,
                 runWalkers(*run, *host, 256,
                            roundsMinimiserMaker(plan.devicePotential, Backend::Cuda, unpacked)));
  expectSameRuns(packed,
                 runWalkers(*run, *host, 256,
                            roundsMinimiserMaker(plan.devicePotential, Backend::Cuda, byTwo)));
}

}  // namespace
}  // namespace landscape
