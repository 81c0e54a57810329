// gmin: GMIN-style basin-hopping global optimisation (seed 001 section 2.1).
// With no arguments: LJ38 from a random start with the settings of GMIN's LJ38 example, results in
// ./gmin-out/. Run `gmin --help` for every option (reduced Lennard-Jones units).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "landscape/formats/CheckpointFile.h"
#include "landscape/search/BasinHopping.h"
#include "potentials/AmberGb.h"
#include "src/GminProgressPrinter.h"
#include "src/GminResultWriter.h"
#include "src/GminSystem.h"
#include "src/LongRun.h"
#include "src/OutputLock.h"
#include "src/RunConfig.h"

namespace {

using namespace landscape;

int printHelpOrVersion(const GminRunConfig& config) {
  if (config.action == GminRunConfig::Action::Help)
    std::cout << config.helpText;
  else
    std::cout << "gmin (landscape) " << LANDSCAPE_VERSION << "\n";
  return 0;
}

// --energy-only: the components of the start as sander names them, then exit.
int printSinglePoint(GminSystem& system) {
  Potential& potential = *system.atomistic;
  if (system.sop) {
    for (const EnergyComponent& c : potential.energyComponents(system.start.data()))
      std::printf("%-10s %18.8f kcal/mol\n", c.name.c_str(), c.value);
    std::printf("%-10s %18.8f kcal/mol (%zu native contacts)\n", "TOTAL",
                potential.energy(system.start.data()), system.sop->contacts.size());
  } else {
    std::cout << amberSinglePointReport(potential, system.start);
  }
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
OutputFolder openOutputFolder(const GminRunConfig& config) {
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

void printHeader(const GminRunConfig& config, const GminSystem& system, const BasinHoppingParams& p,
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
  } else {
    std::printf(
        "gmin: %s, %s start, %ld steps, kT %.4g, step %.4g, ASTEP %.4g, container "
        "radius %.4f, seed %llu (reduced LJ units)\n",
        name.c_str(), system.start.empty() ? "random" : config.coordsFile.c_str(), p.steps,
        p.temperature, p.stepSize, p.angularThreshold, containerRadius, seed);
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

int run(int argc, char** argv) {
  setUpLongRun("gmin");
  const GminRunConfig config = parseGminCommandLine(argc, argv);
  if (config.action != GminRunConfig::Action::Run) return printHelpOrVersion(config);
  for (const std::string& w : config.warnings) std::cerr << "gmin: warning: " << w << "\n";

  GminSystem system = loadGminSystem(config);
  if (config.energyOnly) return printSinglePoint(system);
  addMolecularMoves(config, system);
  useRigidBodies(config, system);
  const OutputFolder out = openOutputFolder(config);
  const OutputLock lock(out.dir, "gmin");
  for (const char* file : {"lowest", "minima.h5", "checkpoint"})
    requireWritable(out.dir + "/" + file, file);
  addLangevinMove(config, out.resuming ? out.checkpoint.state.quench : 0, system);

  // A resumed run ends at the larger of the original and the new --steps.
  BasinHoppingParams params = config.basinHopping;
  if (out.resuming) params.steps = std::max(params.steps, out.checkpoint.steps);
  BasinHopping search(system.searched(), params, lbfgsWorkspaceFactory(config.lbfgsBackend),
                      system.hooks);
  // What a resumed run must share with the original (from gmin's option table).
  const Potential& searched = system.searched();
  const CheckpointFingerprint fingerprint = gminCheckpointFingerprint(
      config, {system.atomistic->atomCount(), searched.name(), searched.dimension(),
               search.containerRadius()});
  if (out.resuming)
    checkGminCheckpoint(out.checkpointPath(), out.checkpoint.fingerprint, fingerprint, config);
  if (!config.quiet) printHeader(config, system, params, search.containerRadius());
  if (out.resuming && !config.quiet)
    std::printf("gmin: resuming from %s after quench %ld of %ld\n", out.checkpointPath().c_str(),
                out.checkpoint.state.quench, params.steps);

  const GminResultWriter writer(out.dir, *system.atomistic, system.amber.get(), system.sop.get(),
                                system.rigid);
  GminProgressPrinter printer(config.quiet, writer, out.checkpointPath(), fingerprint,
                              params.steps);
  const BasinHoppingResult result = out.resuming ? search.resume(out.checkpoint.state, &printer)
                                                 : search.run(system.start, &printer);
  if (result.lowest.empty() && result.stoppedEarly) {
    std::fprintf(stderr,
                 "gmin: stopped by a signal before the first quench ended; nothing written "
                 "(--resume %s starts the run afresh)\n",
                 out.dir.c_str());
    return stopExitStatus();
  }
  if (result.lowest.empty()) {
    throw std::runtime_error(
        "no minimum found: no quench both succeeded and passed the checks (" +
        std::to_string(result.failedQuenches) +
        " failed with a non-finite energy or gradient, at the iteration limit or by cold fusion; "
        "see the progress lines); nothing was written to " + out.dir + "/lowest");
  }
  writer.write(result.lowest);

  if (result.stoppedEarly)
    std::fprintf(stderr,
                 "gmin: stopped by a signal after quench %ld; results written (minima not yet "
                 "re-quenched tightly are as saved; --resume %s continues)\n",
                 result.quenches, out.dir.c_str());
  if (!config.quiet) printResults(result, params, out.dir);
  std::printf("lowest energy: %.10f\n", result.lowest.front().energy);
  return result.stoppedEarly ? stopExitStatus() : 0;  // 128 + signal, as shells report it
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "gmin: error: " << e.what() << "\n";
    return 1;
  }
}
