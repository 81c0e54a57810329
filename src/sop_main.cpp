// sop: overdamped Langevin dynamics of the SOP coarse-grained protein model (seed 000 eq 1 and
// Appendix B) for one or many replicas, on the CPU or a CUDA device, with constant-velocity
// pulling (force-extension) or indentation by a spherical tip (force-indentation, seed 000
// section V). Writes per replica force_curve_<r>.dat (time, force, extension or Z, tip position,
// Q) and, when asked, trajectory_<r>.pdb (multi-model) or trajectory_<r>.dcd with topology.pdb,
// for VMD. `sop --help` lists the options.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "backends/SopDynamicsFactory.h"
#include "landscape/core/StopRequest.h"
#include "landscape/dynamics/SopDynamics.h"
#include "potentials/SopTopology.h"
#include "src/LongRun.h"
#include "src/OutputLock.h"
#include "src/SopOutputFiles.h"
#include "src/SopRunConfig.h"

namespace {

using namespace landscape;

void printHeader(const SopRunConfig& config, const SopTopology& topology) {
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
// the current rate.
void printProgress(const SopRunConfig& config, const SopTopology& topology, SopDynamics& md,
                   long done, double seconds) {
  const SopSample s = sampleSop(topology, md.protocol(), md.positions(0).data(), md.tipPosition(0),
                                md.time(), config.qTolerance);
  std::fprintf(stderr,
               "sop: step %ld of %ld (%.1f%%), t = %.1f ps, replica 0 force %.3f kcal/mol/A "
               "Q %.3f, %.0f s elapsed, about %.0f s left\n",
               done, config.steps, 100.0 * done / config.steps, s.time, s.force, s.q, seconds,
               seconds * (config.steps - done) / done);
}

// Runs the steps in chunks that end at every output or frame interval; samples after each and
// reports progress every 10 s. Returns the seconds taken.
double runInChunks(const SopRunConfig& config, const SopTopology& topology, SopDynamics& md,
                   SopOutputFiles& files) {
  const long chunk = config.frameInterval > 0
                         ? std::min(config.outputInterval, config.frameInterval)
                         : config.outputInterval;
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  files.sample(md, 0);
  long done = 0;
  double lastReport = 0.0;
  while (done < config.steps) {
    const long next = std::min(config.steps, (done / chunk + 1) * chunk);
    md.run(next - done);
    if (stopRequested()) break;  // no sample off the output grid: a resume would repeat it
    done = next;
    files.sample(md, done);
    files.flush();
    const double now = elapsed();
    if (!config.quiet && now - lastReport >= 10.0 && done < config.steps) {
      lastReport = now;
      printProgress(config, topology, md, done, now);
    }
  }
  return elapsed();
}

void printSummary(const SopRunConfig& config, const SopTopology& topology, SopDynamics& md,
                  double seconds) {
  const SopSample last = sampleSop(topology, md.protocol(), md.positions(0).data(),
                                   md.tipPosition(0), md.time(), config.qTolerance);
  std::printf(
      "sop: %ld steps x %d replicas in %.3f s (%.3f us per step incl. output), %ld list "
      "rebuilds; replica 0 ends at force %.4f kcal/mol/A (%.1f pN), %s %.2f A, Q %.4f; "
      "results in %s/\n",
      config.steps, config.dynamics.replicas, seconds,
      config.steps > 0 ? 1e6 * seconds / config.steps : 0.0, md.rebuilds(), last.force,
      last.force * kPicoNewtonPerKcalMolA, md.protocol().indentation ? "Z" : "extension",
      last.extension, last.q, config.outputDir.c_str());
}

int run(int argc, char** argv) {
  setUpLongRun("sop");
  const SopRunConfig config = parseSopCommandLine(argc, argv);
  if (config.action != SopRunConfig::Action::Run) {
    std::cout << config.helpText;
    return 0;
  }
  const SopTopology topology = readSopTopology(config.pdbFile, config.sop);
  const std::vector<double> start = topology.nativeCoordinates();
  auto md = makeSopDynamics(topology, start, config.dynamics, config.backend);
  const OutputLock lock(config.outputDir, "sop");
  SopOutputFiles files(config, topology, start, *md);
  if (!config.quiet) printHeader(config, topology);
  const double seconds = runInChunks(config, topology, *md, files);
  if (stopRequested()) {
    files.flush();
    std::fprintf(stderr, "sop: stopped by a signal at step %ld of %ld; output written up to the "
                 "last output interval\n", md->stepsDone(), config.steps);
    return stopExitStatus();
  }
  printSummary(config, topology, *md, seconds);
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
