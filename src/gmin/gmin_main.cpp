// gmin: GMIN-style basin-hopping global optimisation (Mantell, Pitt and Wales, J. Chem. Theory
// Comput. 2016, section 2.1). With no arguments: LJ38 from a random start with the settings of
// GMIN's LJ38 example, results in ./gmin-out/. Run `gmin --help` for every option (reduced
// Lennard-Jones units).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "landscape/formats/CheckpointFile.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/WalkerEnsemble.h"
#include "potentials/AmberGb.h"
#include "src/common/Communicator.h"
#include "src/gmin/GminRanks.h"
#include "src/gmin/GminProgressPrinter.h"
#include "src/gmin/GminResultWriter.h"
#include "src/gmin/GminStopRule.h"
#include "src/gmin/GminSystem.h"
#include "src/gmin/GminWalkerPrinter.h"
#include "src/gmin/GminWalkers.h"
#include "src/common/LongRun.h"
#include "src/common/OutputLock.h"
#include "src/common/PairSystem.h"
#include "src/common/RankedMain.h"
#include "src/gmin/GminOptions.h"

namespace {

using namespace landscape;

int printHelpOrVersion(const GminConfig& config) {
  if (config.action == GminConfig::Action::Help)
    std::cout << config.helpText;
  else
    std::cout << "gmin (landscape) " << LANDSCAPE_VERSION << "\n";
  return 0;
}

// Atoms of the start closer than `within` (length unit), as "atoms I and J" (1-based): the usual
// reason for an infinite energy or a NaN gradient.
std::string formatWithin(double within) {
  char text[32];
  std::snprintf(text, sizeof text, "%g A", within);
  return text;
}

std::string coincidentAtoms(const std::vector<double>& x, double within) {
  const std::size_t n = x.size() / 3;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
                   dz = x[3 * i + 2] - x[3 * j + 2];
      if (dx * dx + dy * dy + dz * dz < within * within)
        return "; atoms " + std::to_string(i + 1) + " and " + std::to_string(j + 1) +
               " lie within " + formatWithin(within) + " of each other";
    }
  return "";
}

// A non-finite component, total or gradient ends --energy-only with an error naming them, after
// the report (which shows the rest), never a report with exit status 0 (docs/reliability.md).
void requireFiniteSinglePoint(Potential& potential, const std::vector<double>& x,
                              const std::string& source) {
  std::string bad;
  double total = 0.0;
  for (const EnergyComponent& c : potential.energyComponents(x.data())) {
    total += c.value;
    if (!std::isfinite(c.value)) bad += (bad.empty() ? "" : ", ") + c.name + " = " +
                                        std::to_string(c.value);
  }
  if (!std::isfinite(total) && bad.empty()) bad = "TOTAL = " + std::to_string(total);
  std::vector<double> g(x.size());
  potential.energyGradient(x.data(), g.data());
  std::size_t first = g.size();
  for (std::size_t k = 0; k < g.size() && first == g.size(); ++k)
    if (!std::isfinite(g[k])) first = k;
  if (first < g.size())
    bad += (bad.empty() ? "" : ", ") + std::string("the gradient of atom ") +
           std::to_string(first / 3 + 1) + " (" + std::to_string(g[first]) + ")";
  if (!bad.empty())
    throw std::runtime_error(source + ": the energy or its gradient is not finite at these coordinates: " + bad +
                             coincidentAtoms(x, 1e-3) +
                             " (check the coordinates and the topology's parameters)");
}

// --energy-only: the components of the start as sander names them, then exit.
int printSinglePoint(const GminConfig& config, GminSystem& system) {
  Potential& potential = *system.atomistic;
  if (system.sop) {
    for (const EnergyComponent& c : potential.energyComponents(system.start.data()))
      std::printf("%-10s %18.8f kcal/mol\n", c.name.c_str(), c.value);
    std::printf("%-10s %18.8f kcal/mol (%zu native contacts)\n", "TOTAL",
                potential.energy(system.start.data()), system.sop->contacts.size());
  } else {
    std::cout << amberSinglePointReport(potential, system.start);
  }
  std::cout.flush();
  requireFiniteSinglePoint(potential, system.start,
                           system.sop ? config.sopPdbFile
                                      : config.inpcrdFile + " with " + config.prmtopFile);
  return 0;
}

// Where the run writes, and on --resume DIR the checkpoint it continues from.
struct OutputFolder {
  bool resuming = false;
  std::string dir;
  Checkpoint checkpoint;
  std::string checkpointPath() const { return dir + "/checkpoint"; }  // docs/database.md
};

// The checkpoint is read before the moves are built, since the Langevin noise stream continues
// from the checkpoint's quench number. A run stopped or killed before its first checkpoint
// leaves a folder without one: --resume then starts the run afresh there (the same options give
// the same run), with a note.
OutputFolder openOutputFolder(const GminConfig& config) {
  OutputFolder out;
  out.dir = config.resumeDir.empty() ? config.outputDir : config.resumeDir;
  if (!config.resumeDir.empty()) {
    out.resuming = !std::filesystem::is_directory(out.dir) ||
                   std::filesystem::exists(out.checkpointPath());
    if (out.resuming)
      out.checkpoint = readCheckpointFile(out.checkpointPath());
    else
      std::fprintf(stderr,
                   "gmin: note: %s has no checkpoint (the run stopped before its first one): "
                   "starting the run afresh there\n",
                   out.dir.c_str());
  }
  std::filesystem::create_directories(out.dir);
  return out;
}

void printHeader(const GminConfig& config, const GminSystem& system, const BasinHoppingParams& p,
                 double containerRadius) {
  const std::string name = system.searched().name();
  const auto seed = static_cast<unsigned long long>(p.seed);
  if (system.sop) {
    std::printf("gmin: %s from %s, %ld steps, kT %.4g kcal/mol, step %.4g A, seed %llu\n",
                name.c_str(), config.sopPdbFile.c_str(), p.steps, p.temperature, p.stepSize, seed);
  } else if (system.amber) {
    const StereoChecks* stereo = system.stereo.get();
    std::printf(
        "gmin: %s from %s, %ld steps, kT %.4g kcal/mol, step %.4g A, %zu side-chain "
        "groups rotated with probability %.3g, %zu stereocentres and %zu peptide bonds "
        "checked, seed %llu\n",
        name.c_str(), config.inpcrdFile.c_str(), p.steps, p.temperature, p.stepSize,
        system.groups.size(), config.groupRotationProbability,
        stereo ? stereo->stereocentreCount() : 0, stereo ? stereo->peptideBondCount() : 0, seed);
  } else if (system.water || system.ssdWater) {
    const RigidBodyMoveParams& moves = config.rigidMoves;
    const char* energy = system.water ? "kJ/mol" : "kcal/mol";
    std::printf(
        "gmin: %s, %s start, %ld steps, kT %.4g %s, step %.4g, rigid-body moves up to "
        "%.4g A and %.4g rad (probability %.3g), container radius %.4f A, seed %llu (%s, "
        "Angstrom)\n",
        name.c_str(), system.start.empty() ? "random" : config.coordsFile.c_str(), p.steps,
        p.temperature, energy, p.stepSize, moves.translation, moves.rotation, moves.probability,
        containerRadius, seed, energy);
  } else if (system.ellipsoids) {
    const RigidBodyMoveParams& moves = config.rigidMoves;
    std::printf(
        "gmin: %s, %s start, %ld steps, kT %.4g eps0, rigid-body moves up to %.4g sigma0 and "
        "%.4g rad (probability %.3g), seed %llu (reduced units: sigma0, eps0)\n",
        name.c_str(), config.coordsFile.empty() ? "lattice" : config.coordsFile.c_str(), p.steps,
        p.temperature, moves.translation, moves.rotation, moves.probability, seed);
  } else if (system.pair && system.pair->box.periodic()) {
    const PeriodicBox& box = system.pair->box;
    std::printf(
        "gmin: %s, %s start, %ld steps, kT %.4g, step %.4g, periodic box %.6g x %.6g x %.6g "
        "(minimum images; no container, centring or angular moves), seed %llu (reduced units)\n",
        name.c_str(), system.start.empty() ? "random" : config.coordsFile.c_str(), p.steps,
        p.temperature, p.stepSize, box.length[0], box.length[1], box.length[2], seed);
  } else {
    std::printf(
        "gmin: %s, %s start, %ld steps, kT %.4g, step %.4g, ASTEP %.4g, container "
        "radius %.4f, seed %llu (reduced %s)\n",
        name.c_str(), system.start.empty() ? "random" : config.coordsFile.c_str(), p.steps,
        p.temperature, p.stepSize, p.angularThreshold, containerRadius, seed,
        system.pair                                     ? "pair units"
        : system.spec.kind == PotentialSpec::Kind::Gupta ? "Gupta units: eV and r0"
                                                         : "LJ units");
  }
}

void printResults(const BasinHoppingResult& result, const BasinHoppingParams& p,
                  const std::string& outputDir) {
  std::printf(
      "gmin: %ld quenches, %ld energy+gradient calls, %ld reseeds, %ld failed quenches "
      "rejected; results in %s/\n",
      result.quenches, result.functionCalls, result.restarts, result.failedQuenches,
      outputDir.c_str());
  if (p.targetEnergy) {
    if (result.targetReached)
      std::printf("target %.6f reached at quench %ld after %ld function calls\n", *p.targetEnergy,
                  result.targetQuench, result.targetFunctionCalls);
    else
      std::printf("target %.6f not reached\n", *p.targetEnergy);
  }
  for (std::size_t i = 0; i < result.lowest.size(); ++i)
    std::printf("minimum %zu: %.10f first found at quench %ld\n", i + 1, result.lowest[i].energy,
                result.lowest[i].firstFoundStep);
}

// The lines every run ends with: why it stopped early, the results, who reached the target
// (`goal`, printed unless --quiet), the lowest energy.
int finishRun(const GminConfig& config, const GminResultWriter& writer,
              const BasinHoppingResult& result, const GminStopRule& stopRule,
              const std::string& dir, const std::string& goal) {
  const bool signalled = result.stoppedEarly && !stopRule.timeUp();
  if (result.lowest.empty() && signalled) {
    std::fprintf(stderr,
                 "gmin: stopped by a signal before the first quench ended; nothing written "
                 "(--resume %s starts the run afresh)\n",
                 dir.c_str());
    return stopExitStatus();
  }
  if (result.lowest.empty()) {
    throw std::runtime_error(
        "no minimum found: no quench both succeeded and passed the checks (" +
        std::to_string(result.failedQuenches) +
        " failed with a non-finite energy or gradient, at the iteration limit or by cold fusion; "
        "see the progress lines); nothing was written to " + dir + "/lowest");
  }
  writer.write(result.lowest);
  if (signalled)
    std::fprintf(stderr,
                 "gmin: stopped by a signal after quench %ld; results written (minima not yet "
                 "re-quenched tightly are as saved; --resume %s continues)\n",
                 result.quenches, dir.c_str());
  else if (result.stoppedEarly && !config.quiet)
    std::printf("gmin: --max-time %.6g s reached; results written (--resume %s continues)\n",
                stopRule.maxSeconds(), dir.c_str());
  if (!config.quiet) printResults(result, config.basinHopping, dir);
  if (!config.quiet && !goal.empty()) std::printf("%s\n", goal.c_str());
  std::printf("lowest energy: %.10f\n", result.lowest.front().energy);
  return signalled ? stopExitStatus() : 0;  // 128 + signal, as shells report it
}

// The parts of a run shared by the single chain and the walkers.
struct RunSetup {
  const GminConfig& config;
  GminSystem& system;
  const OutputFolder& out;
  BasinHoppingParams params;
  Communicator& ranks;  ///< the processes of the run (one without mpirun)
};

CheckpointFingerprint fingerprintOf(const RunSetup& run, double containerRadius) {
  const Potential& searched = run.system.searched();
  const CheckpointFingerprint fingerprint = gminCheckpointFingerprint(
      run.config, {run.system.atomistic->atomCount(), searched.name(), searched.dimension(),
                   containerRadius,
                   run.system.pair ? pairModelFingerprint(*run.system.pair) : std::string()});
  if (run.out.resuming)
    checkGminCheckpoint(run.out.checkpointPath(), run.out.checkpoint.fingerprint, fingerprint,
                        run.config);
  return fingerprint;
}

void printStart(const RunSetup& run, double containerRadius) {
  if (run.config.quiet) return;
  printHeader(run.config, run.system, run.params, containerRadius);
  if (run.out.resuming)
    std::printf("gmin: resuming from %s after quench %ld of %ld\n",
                run.out.checkpointPath().c_str(), run.out.checkpoint.state.quench,
                run.params.steps);
}

int runSingleChain(const RunSetup& run) {
  const GminConfig& config = run.config;
  BasinHopping search(run.system.searched(), run.params,
                      lbfgsWorkspaceFactory(config.lbfgsBackend), run.system.hooks);
  const CheckpointFingerprint fingerprint = fingerprintOf(run, search.containerRadius());
  printStart(run, search.containerRadius());
  const GminResultWriter writer(run.out.dir, *run.system.atomistic, run.system.amber.get(),
                                run.system.sop.get(), run.system.rigid, run.system.pair.get(),
                                run.system.water.get(), run.system.ellipsoids.get(),
                                run.system.ssdWater.get());
  GminStopRule stopRule(config.maxTime);
  GminProgressPrinter printer(config.quiet, writer, run.out.checkpointPath(), fingerprint,
                              run.params.steps, stopRule);
  const BasinHoppingResult result = run.out.resuming
                                        ? search.resume(run.out.checkpoint.state, &printer)
                                        : search.run(run.system.start, &printer);
  char goal[160] = "";
  if (result.targetReached)
    std::snprintf(goal, sizeof goal, "gmin: target reached by walker 0 at quench %ld after %.3f s",
                  result.targetQuench, stopRule.elapsed());
  return finishRun(config, writer, result, stopRule, run.out.dir, goal);
}

void printWalkerSummary(const WalkerEnsembleResult& r) {
  const std::size_t w = r.failedPerWalker.size();
  long maxFailed = 0;
  for (long f : r.failedPerWalker) maxFailed = std::max(maxFailed, f);
  std::printf("gmin: %zu walkers, failed quenches per walker at most %ld\n", w, maxFailed);
  for (std::size_t i = 0; i < r.exchange.attempts.size(); ++i)
    std::printf("bhpt: pair %zu-%zu kT %.4g-%.4g exchanges accepted %ld of %ld (%.3f)\n", i, i + 1,
                r.temperatures[i], r.temperatures[i + 1], r.exchange.accepted[i],
                r.exchange.attempts[i],
                r.exchange.attempts[i] > 0
                    ? static_cast<double>(r.exchange.accepted[i]) / r.exchange.attempts[i]
                    : 0.0);
}

std::string walkerGoal(const WalkerEnsembleResult& r, const GminStopRule& stopRule) {
  if (r.targetWalker < 0) return "";
  char line[240];
  std::snprintf(line, sizeof line,
                "gmin: target reached by walker %d at its quench %ld (%ld quenches and %ld "
                "energy+gradient calls of all walkers) after %.3f s",
                r.targetWalker, r.total.targetQuench, r.targetRoundQuenches,
                r.total.targetFunctionCalls, stopRule.elapsed());
  return line;
}

void printWalkerStart(const RunSetup& run, const GminWalkerPlan& plan) {
  const GminConfig& config = run.config;
  if (config.quiet) return;
  if (run.ranks.size() == 1)
    std::printf("gmin: %d walkers%s, %d CPU threads%s\n", plan.walkers,
                config.tempering.enabled ? " as BHPT replicas" : "", plan.threads,
                config.backend == Backend::Cuda ? " (quenches on the GPU where possible)" : "");
  else
    std::printf("gmin: %d walkers%s over %s, up to %d per rank, %d CPU threads per rank%s\n",
                plan.walkers, config.tempering.enabled ? " as BHPT replicas" : "",
                run.ranks.description().c_str(), plan.perRank, plan.threads,
                config.backend == Backend::Cuda ? " (quenches on each rank's GPU where possible)"
                                                : "");
  std::printf("gmin: walker %s\n", walkerQuenchDescription(plan, config).c_str());
  if (plan.automatic && plan.engine == WalkerEngine::LennardJonesTeams)
    std::printf("gmin: %d walkers per GPU is the default for clusters %s %zu atoms, chosen for the "
                "time to the global minimum (LJ38 at 256, LJ75 and LJ98 at 4096 measured "
                "fastest; docs/benchmarks.md); --walkers changes it\n",
                plan.perRank, plan.facts.clusterAtoms < kLargeClusterAtoms ? "under" : "of at least",
                kLargeClusterAtoms);
  if (plan.engine == WalkerEngine::LennardJonesTeams && !config.symmetriseGiven &&
      config.basinHopping.symmetrisation.on())
    std::printf("gmin: SYMMETRISECSM (Ci) every %d quenches is the default for Lennard-Jones "
                "walkers on the GPU under %zu atoms, chosen for the time to the global minimum "
                "(LJ38 3.4x sooner; it slows LJ98; docs/benchmarks.md); --symmetrise off changes "
                "it\n",
                config.basinHopping.symmetrisation.interval, kLargeClusterAtoms);
}

int runWalkers(const RunSetup& run, const GminWalkerPlan& plan) {
  const GminConfig& config = run.config;
  GminSystem& system = run.system;
  const bool root = run.ranks.rank() == 0;
  const std::unique_ptr<Potential> host = walkerHostPotential(plan, system);
  // This rank's own walkers, their chains and quenches on its CPU threads or GPU
  // (src/gmin/GminRanks.h).
  RankWalkerPeers peers(run.ranks);
  WalkerEnsemble search(host ? *host : system.searched(), run.params, plan.walkers,
                        config.tempering, walkerMinimiserMaker(plan, config, system),
                        system.hooks, &peers);
  search.setHostThreads(plan.facts.cores);  // this rank's share of its node's cores
  search.setTightMinimiserMaker(walkerTightMinimiserMaker(plan, config));
  Checkpoint checkpoint;
  checkpoint.fingerprint = fingerprintOf(run, search.containerRadius());
  checkpoint.steps = run.params.steps;
  printStart(run, search.containerRadius());
  printWalkerStart(run, plan);
  const GminResultWriter writer(run.out.dir, *system.atomistic, system.amber.get(),
                                system.sop.get(), system.rigid, system.pair.get(),
                                system.water.get(), system.ellipsoids.get(), system.ssdWater.get());
  // --max-time is rank 0's clock; a signal to any rank stops them all.
  GminStopRule stopRule(root ? config.maxTime : 0.0);
  GminWalkerPrinter printer(config.quiet, config.verbose, writer, run.out.checkpointPath(),
                            checkpoint, stopRule);
  StopOnlyObserver silent(stopRule);
  RankWalkerObserver observer(root ? static_cast<WalkerObserver&>(printer) : silent, run.ranks);
  const WalkerEnsembleResult result =
      run.out.resuming ? search.resume(run.out.checkpoint.walkerState(), &observer)
                       : search.run(system.start, &observer);
  if (!root) return 0;  // rank 0 writes the results and reports
  printer.printLastRound();
  if (!config.quiet) printWalkerSummary(result);
  return finishRun(config, writer, result.total, stopRule, run.out.dir,
                   walkerGoal(result, stopRule));
}

// Under mpirun: one chain cannot be split over several ranks.
void checkRankRun(Communicator& ranks, bool walkerRun) {
  if (ranks.size() == 1 || walkerRun) return;
  throw std::runtime_error("mpirun with " + std::to_string(ranks.size()) +
                           " ranks: a single chain (--walkers 1 without --bhpt) cannot be "
                           "spread over ranks; ask for --walkers W (W >= " +
                           std::to_string(ranks.size()) + ") or run without mpirun");
}

int run(int argc, char** argv, Communicator& ranks) {
  setUpLongRun("gmin");
  // Several ranks stop together, at a round's end they agree on (src/gmin/GminRanks.h).
  if (ranks.size() > 1) deferStopRequests();
  GminConfig config = parseGminCommandLine(argc, argv);
  if (config.action != GminConfig::Action::Run) return printHelpOrVersion(config);
  ranks.setTimeout(config.rankTimeout);
  if (ranks.rank() == 0)
    for (const std::string& w : config.warnings) std::cerr << "gmin: warning: " << w << "\n";
  useRankGpu("gmin", config.backend == Backend::Cuda, config.quiet, ranks);

  GminSystem system = loadGminSystem(config);
  if (config.energyOnly) return printSinglePoint(config, system);
  addMolecularMoves(config, system);
  useRigidBodies(config, system);
  const OutputFolder out = openOutputFolder(config);
  const int saved = out.resuming ? out.checkpoint.walkers() : 0;
  const GminWalkerPlan plan =
      planGminWalkers(config, system, saved, {ranks.size(), ranks.localSize()},
                      [&ranks](int walkers) { return agreedWalkers(walkers, ranks); });
  useDefaultSymmetrisation(config, plan, out.resuming ? &out.checkpoint.fingerprint : nullptr);
  const int walkers = plan.walkers;
  if (out.resuming && walkers != saved)
    throw std::runtime_error(out.checkpointPath() + ": the checkpoint holds " +
                             std::to_string(saved) + " walkers, this run asks for " +
                             std::to_string(walkers) + "; resume with the original --walkers");
  checkWalkerRun(config, walkers);
  std::optional<OutputLock> lock;  // rank 0 alone writes the folder
  std::optional<DatabaseLock> databaseLock;  // and its minima.h5, which optim may extend
  if (ranks.rank() == 0) {
    lock.emplace(out.dir, "gmin");
    databaseLock.emplace(out.dir + "/minima.h5", "gmin");
    for (const char* file : {"lowest", "minima.h5", "checkpoint"})
      requireWritable(out.dir + "/" + file, file);
  }
  addLangevinMove(config, out.resuming ? out.checkpoint.state.quench : 0, system);

  // A resumed run ends at the larger of the original and the new --steps.
  RunSetup setup{config, system, out, config.basinHopping, ranks};
  if (out.resuming) setup.params.steps = std::max(setup.params.steps, out.checkpoint.steps);
  const bool walkerRun = plan.walkerRun(config);
  if (out.resuming && out.checkpoint.isWalkerRun() != walkerRun)
    throw std::runtime_error(out.checkpointPath() + ": the checkpoint is of a " +
                             (walkerRun ? "single-chain" : "walker") +
                             " run; resume with the original --walkers and --bhpt");
  checkRankRun(ranks, walkerRun);
  return walkerRun ? runWalkers(setup, plan) : runSingleChain(setup);
}

}  // namespace

int main(int argc, char** argv) { return landscape::runRankedProgram("gmin", argc, argv, run); }
