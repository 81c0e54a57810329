// sop: overdamped Langevin dynamics of the SOP coarse-grained protein model (seed 000 eq 1 and
// Appendix B) for one or many replicas, on the CPU or a CUDA device, with constant-velocity
// pulling (force-extension) or indentation by a spherical tip (force-indentation, seed 000
// section V). Writes per replica force_curve_<r>.dat (time, force, extension or Z, tip position,
// Q) and, when asked, trajectory_<r>.pdb (multi-model) or trajectory_<r>.dcd with topology.pdb,
// for VMD. `sop --help` lists the options.
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "backends/SopDynamicsFactory.h"
#include "landscape/dynamics/SopDynamics.h"
#include "landscape/formats/DcdFile.h"
#include "potentials/SopTopology.h"
#include "src/SopRunConfig.h"

namespace {

using namespace landscape;

constexpr double kPicoNewtonPerKcalMolA = 69.4786;  // 1 kcal/mol/A in pN

int run(int argc, char** argv) {
  const SopRunConfig config = parseSopCommandLine(argc, argv);
  if (config.action != SopRunConfig::Action::Run) {
    std::cout << config.helpText;
    return 0;
  }
  const SopTopology topology = readSopTopology(config.pdbFile, config.sop);
  const std::vector<double> start = topology.nativeCoordinates();
  auto md = makeSopDynamics(topology, start, config.dynamics, config.backend);
  const SopDynamicsParams& p = config.dynamics;
  const int replicas = p.replicas;
  std::filesystem::create_directories(config.outputDir);

  std::vector<std::ofstream> curves(replicas), frames(replicas);
  std::vector<std::unique_ptr<DcdWriter>> dcd(replicas);
  const bool useDcd = config.frameInterval > 0 && config.trajectoryFormat == "dcd";
  if (useDcd) {
    std::string text;
    appendSopPdbModel(text, topology, start.data(), 1);
    std::ofstream(config.outputDir + "/topology.pdb") << text << "END\n";
  }
  const char* extensionName = md->protocol().indentation ? "Z_A" : "extension_A";
  for (int r = 0; r < replicas; ++r) {
    curves[r].open(config.outputDir + "/force_curve_" + std::to_string(r) + ".dat");
    if (!curves[r])
      throw std::runtime_error(config.outputDir + ": cannot write force_curve_" +
                               std::to_string(r) + ".dat");
    curves[r] << "# sop " << topology.source << ": " << topology.beadCount() << " beads, "
              << topology.contacts.size() << " native contacts, replica " << r << "\n"
              << "# time_ps force_kcal_mol_A force_pN " << extensionName << " tip_A Q\n";
    if (useDcd)
      dcd[r] = std::make_unique<DcdWriter>(
          config.outputDir + "/trajectory_" + std::to_string(r) + ".dcd", topology.beadCount(), 0,
          config.frameInterval, p.langevin.timeStep, "sop " + topology.source);
    else if (config.frameInterval > 0)
      frames[r].open(config.outputDir + "/trajectory_" + std::to_string(r) + ".pdb");
  }
  auto sample = [&](long step) {
    for (int r = 0; r < replicas; ++r) {
      const std::vector<double> x = md->positions(r);
      if (step % config.outputInterval == 0 || step == config.steps) {
        const SopSample s = sampleSop(topology, md->protocol(), x.data(), md->tipPosition(r),
                                      md->time(), config.qTolerance);
        char line[160];
        std::snprintf(line, sizeof line, "%.4f %.6f %.3f %.4f %.4f %.5f\n", s.time, s.force,
                      s.force * kPicoNewtonPerKcalMolA, s.extension, s.tipPosition, s.q);
        curves[r] << line;
      }
      if (useDcd && step % config.frameInterval == 0) dcd[r]->write(x.data());
      if (!useDcd && config.frameInterval > 0 && step % config.frameInterval == 0) {
        std::string text;
        appendSopPdbModel(text, topology, x.data(),
                          static_cast<int>(step / config.frameInterval) + 1);
        frames[r] << text;
      }
    }
  };
  if (!config.quiet)
    std::printf(
        "sop: %zu beads, %zu chains, %zu native contacts from %s; %d replica(s) on %s (%s), "
        "dt %.4g ps, xi %.6g kcal ps/(mol A^2), kT %.4g kcal/mol, %ld steps%s\n",
        topology.beadCount(), topology.chainCount(), topology.contacts.size(),
        config.pdbFile.c_str(), replicas, backendName(config.backend).c_str(),
        precisionName(config.backend == Backend::Cpu ? Precision::Double : p.precision).c_str(),
        p.langevin.timeStep, p.langevin.friction, p.langevin.kT, config.steps,
        p.pulling.enabled ? ", pulling" : (p.indentation.enabled ? ", indentation" : ""));
  const long chunk = config.frameInterval > 0
                         ? std::min(config.outputInterval, config.frameInterval)
                         : config.outputInterval;
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  sample(0);
  long done = 0;
  double lastReport = 0.0;
  while (done < config.steps) {
    long next = std::min(config.steps, (done / chunk + 1) * chunk);
    md->run(next - done);
    done = next;
    sample(done);
    // Every written line reaches the disk before the next chunk, so a crash loses no sample.
    for (int r = 0; r < replicas; ++r) {
      curves[r].flush();
      if (frames[r].is_open()) frames[r].flush();
    }
    // A progress line on stderr every 10 s of a long run: step, simulated time, replica 0's force
    // and Q, and the time left at the current rate.
    const double now = elapsed();
    if (!config.quiet && now - lastReport >= 10.0 && done < config.steps) {
      lastReport = now;
      const SopSample s = sampleSop(topology, md->protocol(), md->positions(0).data(),
                                    md->tipPosition(0), md->time(), config.qTolerance);
      std::fprintf(stderr,
                   "sop: step %ld of %ld (%.1f%%), t = %.1f ps, replica 0 force %.3f kcal/mol/A "
                   "Q %.3f, %.0f s elapsed, about %.0f s left\n",
                   done, config.steps, 100.0 * done / config.steps, s.time, s.force, s.q, now,
                   now * (config.steps - done) / done);
    }
  }
  const double seconds = elapsed();
  const SopSample last = sampleSop(topology, md->protocol(), md->positions(0).data(),
                                   md->tipPosition(0), md->time(), config.qTolerance);
  std::printf(
      "sop: %ld steps x %d replicas in %.3f s (%.3f us per step incl. output), %ld list "
      "rebuilds; replica 0 ends at force %.4f kcal/mol/A (%.1f pN), %s %.2f A, Q %.4f; "
      "results in %s/\n",
      config.steps, replicas, seconds, config.steps > 0 ? 1e6 * seconds / config.steps : 0.0,
      md->rebuilds(), last.force, last.force * kPicoNewtonPerKcalMolA,
      md->protocol().indentation ? "Z" : "extension", last.extension, last.q,
      config.outputDir.c_str());
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
