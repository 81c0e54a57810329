// sop: overdamped Langevin dynamics of the SOP coarse-grained protein model (Zhmurov, Rybnikov,
// Kholodov and Barsegov, J. Phys. Chem. B 2011, eq 1 and Appendix B) for one or many replicas, on
// the CPU or a CUDA device, with constant-velocity pulling (force-extension) or indentation by a
// spherical tip (force-indentation, Zhmurov et al. 2011, section V). Writes per replica
// force_curve_<r>.dat (time, force, extension or Z, tip position, Q) and, when asked,
// trajectory_<r>.pdb (multi-model) or trajectory_<r>.dcd with topology.pdb, for VMD; sop.checkpoint
// every output interval and on SIGINT/SIGTERM, from which --resume DIR continues the run bit for
// bit. `sop --help` lists the options.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/SopDynamicsFactory.h"
#include "landscape/core/StopRequest.h"
#include "landscape/dynamics/SopDynamics.h"
#include "potentials/SopTopology.h"
#include "src/common/LongRun.h"
#include "src/common/OutputLock.h"
#include "src/sop/SopCheckpointing.h"
#include "src/sop/SopOutputFiles.h"
#include "src/sop/SopOptions.h"

namespace {

using namespace landscape;

void printHeader(const SopConfig& config, const SopTopology& topology) {
  const SopDynamicsParams& p = config.dynamics;
  std::printf(
      "sop: %zu beads, %zu chains, %zu native contacts from %s; %d replica(s) on %s (%s), "
      "dt %.4g ps, xi %.6g kcal ps/(mol A^2), kT %.4g kcal/mol, %ld steps%s\n",
      topology.beadCount(), topology.chainCount(), topology.contacts.size(), config.pdbFile.c_str(),
      p.replicas, backendName(config.backend).c_str(),
      precisionName(config.backend == Backend::Cpu ? Precision::Double : p.precision).c_str(),
      p.langevin.timeStep, p.langevin.friction, p.langevin.kT, config.steps,
      p.pulling.enabled ? ", pulling" : (p.indentation.enabled ? ", indentation" : ""));
}

// A progress line on stderr: step, simulated time, replica 0's force and Q, and the time left at
// the current rate (of the steps this process ran, from `first`).
void printProgress(const SopConfig& config, const SopTopology& topology, SopDynamics& md,
                   long first, long done, double seconds) {
  const SopSample s = sampleSop(topology, md.protocol(), md.positions(0).data(), md.tipPosition(0),
                                md.time(), config.qTolerance);
  std::fprintf(stderr,
               "sop: step %ld of %ld (%.1f%%), t = %.1f ps, replica 0 force %.3f kcal/mol/A "
               "Q %.3f, %.0f s elapsed, about %.0f s left\n",
               done, config.steps, 100.0 * done / config.steps, s.time, s.force, s.q, seconds,
               seconds * (config.steps - done) / (done - first));
}

// The next step at which a curve line or a frame is due.
long nextSample(const SopConfig& config, long done) {
  long next = (done / config.outputInterval + 1) * config.outputInterval;
  if (config.frameInterval > 0)
    next = std::min(next, (done / config.frameInterval + 1) * config.frameInterval);
  return std::min(config.steps, next);
}

// Runs the steps from where md stands in chunks that end at every output or frame interval;
// samples after each, saves the checkpoint at every output interval and reports progress every
// 10 s. A stop request ends it early (the caller saves the checkpoint). Returns the seconds taken.
double runInChunks(const SopConfig& config, const SopTopology& topology, SopDynamics& md,
                   SopOutputFiles& files, const SopCheckpointing& checkpoints) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const long first = md.stepsDone();
  long done = first;
  double lastReport = 0.0;
  while (done < config.steps && !stopRequested()) {
    const long next = nextSample(config, done);
    md.run(next - done);
    done = md.stepsDone();
    if (done != next) break;  // stopped between two steps: no sample off the grid
    files.sample(md, done);
    files.flush();
    if (done % config.outputInterval == 0) checkpoints.save(md, files);
    const double now = elapsed();
    if (!config.quiet && now - lastReport >= 10.0 && done < config.steps) {
      lastReport = now;
      printProgress(config, topology, md, first, done, now);
    }
  }
  if (done == config.steps) {
    files.sampleLastStep(md);  // after the last checkpoint: a longer resumed run drops it
    files.flush();
  }
  return elapsed();
}

void printSummary(const SopConfig& config, const SopTopology& topology, SopDynamics& md, long first,
                  double seconds) {
  const SopSample last = sampleSop(topology, md.protocol(), md.positions(0).data(),
                                   md.tipPosition(0), md.time(), config.qTolerance);
  const long ran = config.steps - first;
  std::printf(
      "sop: %ld steps x %d replicas in %.3f s (%.3f us per step incl. output), %ld list "
      "rebuilds; replica 0 ends at force %.4f kcal/mol/A (%.1f pN), %s %.2f A, Q %.4f; "
      "results in %s/\n",
      ran, config.dynamics.replicas, seconds, ran > 0 ? 1e6 * seconds / ran : 0.0, md.rebuilds(),
      last.force, last.force * kPicoNewtonPerKcalMolA, md.protocol().indentation ? "Z" : "extension",
      last.extension, last.q, config.outputDir.c_str());
}

// The output files: continued from the checkpoint's marks, or new with the sample of step 0 and
// a first checkpoint.
std::unique_ptr<SopOutputFiles> openFiles(const SopConfig& config, const SopTopology& topology,
                                          const std::vector<double>& start, SopDynamics& md,
                                          const SopCheckpointing& checkpoints,
                                          const std::optional<SopCheckpoint>& resumed) {
  if (resumed) {
    checkpoints.restore(*resumed, md);
    return std::make_unique<SopOutputFiles>(config, topology, resumed->outputs);
  }
  auto files = std::make_unique<SopOutputFiles>(config, topology, start, md);
  files->sample(md, 0);
  checkpoints.save(md, *files);
  return files;
}

int run(int argc, char** argv) {
  setUpLongRun("sop");
  SopConfig config = parseSopCommandLine(argc, argv);
  if (config.action != SopConfig::Action::Run) {
    std::cout << config.helpText;
    return 0;
  }
  if (!config.resumeDir.empty()) config.outputDir = config.resumeDir;
  const SopTopology topology = readSopTopology(config.pdbFile, config.sop);
  const std::vector<double> start = topology.nativeCoordinates();
  const SopCheckpointing checkpoints(config);
  const std::optional<SopCheckpoint> resumed = checkpoints.load();
  auto md = makeSopDynamics(topology, start, config.dynamics, config.backend);
  const OutputLock lock(config.outputDir, "sop");
  requireWritable(checkpoints.path(), "the sop checkpoint");
  const auto files = openFiles(config, topology, start, *md, checkpoints, resumed);
  if (!config.quiet) printHeader(config, topology);
  if (resumed && !config.quiet)
    std::printf("sop: resuming %s at step %ld\n", config.outputDir.c_str(), md->stepsDone());
  const long first = md->stepsDone();
  const double seconds = runInChunks(config, topology, *md, *files, checkpoints);
  if (stopRequested() && md->stepsDone() < config.steps) {
    checkpoints.save(*md, *files);
    std::fprintf(stderr, "sop: stopped by a signal at step %ld of %ld; output written up to the "
                 "last output interval, checkpoint saved (--resume %s continues)\n",
                 md->stepsDone(), config.steps, config.outputDir.c_str());
    return stopExitStatus();
  }
  printSummary(config, topology, *md, first, seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "sop: error: " << e.what() << "\n";
    return 1;
  }
}
