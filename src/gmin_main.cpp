// gmin: GMIN-style basin-hopping global optimisation (seed 001 section 2.1).
// With no arguments: LJ38 from a random start with the settings of GMIN's LJ38 example, results in
// ./gmin-out/. Run `gmin --help` for every option (reduced Lennard-Jones units).
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "backends/LangevinFactory.h"
#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "landscape/formats/CheckpointFile.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/formats/LowestFile.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/network/Database.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/LangevinMove.h"
#include "landscape/search/ProteinMoves.h"
#include "landscape/search/RigidBodyMoves.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "potentials/RigidBodySet.h"
#include "potentials/SopTopology.h"
#include "src/RunConfig.h"

namespace {

using namespace landscape;

// Set by SIGINT/SIGTERM: the run stops after the current quench and still writes its results.
volatile std::sig_atomic_t g_stopRequested = 0;
extern "C" void requestStop(int) { g_stopRequested = 1; }

// Writes `lowest` (GMIN's format) and `minima.h5` into the output folder; both are replaced
// atomically, so an interrupted run keeps its last checkpoint.
class ResultWriter {
 public:
  /// topology: the AMBER molecule, whose minima are also written as PDB and rst7 files; sop: the
  /// SOP protein, whose minima are written as C-alpha PDB files; rigid: set when the search runs
  /// in rigid coordinates (minima are written as atoms).
  ResultWriter(const std::string& dir, const Potential& potential, const AmberTopology* topology,
               const SopTopology* sop = nullptr, const RigidBodySystem* rigid = nullptr)
      : m_dir(dir), m_topology(topology), m_sop(sop), m_rigid(rigid) {
    m_metadata.potential = potential.name();
    const bool molecular = topology != nullptr || sop != nullptr;
    m_metadata.energyUnit = molecular ? "kcal/mol" : "reduced (epsilon)";
    m_metadata.lengthUnit = molecular ? "Angstrom" : "reduced (sigma)";
    m_metadata.atoms = rigid ? rigid->atomCount() : potential.atomCount();
    m_metadata.program = "gmin";
  }
  void write(const std::vector<StoredMinimum>& searched) const {
    std::vector<StoredMinimum> minima = searched;
    if (m_rigid)
      for (StoredMinimum& m : minima) m.coordinates = m_rigid->toAtoms(m.coordinates);
    writeLowestFile(m_dir + "/lowest", minima);
    MinimaDatabase::write(m_dir + "/minima.h5", m_metadata, minima);
    if (m_sop) {
      for (std::size_t i = 0; i < minima.size(); ++i) {
        char stem[32];
        std::snprintf(stem, sizeof stem, "/minimum_%03zu.pdb", i + 1);
        char remark[128];
        std::snprintf(remark, sizeof remark, "REMARK gmin SOP minimum %zu E = %.6f kcal/mol\n", i + 1,
                      minima[i].energy);
        std::string text = remark;
        appendSopPdbModel(text, *m_sop, minima[i].coordinates.data(), 1);
        text += "END\n";
        std::ofstream(m_dir + stem) << text;
      }
    }
    if (!m_topology) return;
    for (std::size_t i = 0; i < minima.size(); ++i) {
      char stem[32];
      std::snprintf(stem, sizeof stem, "/minimum_%03zu", i + 1);
      char title[128];
      std::snprintf(title, sizeof title, "gmin minimum %zu E = %.6f kcal/mol, first found at quench %ld",
                    i + 1, minima[i].energy, minima[i].firstFoundStep);
      writePdb(m_dir + stem + ".pdb", *m_topology, minima[i].coordinates, title);
      writeAmberRestart(m_dir + stem + ".rst7", minima[i].coordinates, title);
    }
  }

 private:
  std::string m_dir;
  const AmberTopology* m_topology;
  const SopTopology* m_sop;
  const RigidBodySystem* m_rigid;
  DatabaseMetadata m_metadata;
};

// The checkpoint `--resume` reads, in the output folder (docs/database.md).
std::string checkpointPath(const std::string& dir) { return dir + "/checkpoint"; }

// Progress in GMIN's layout: one line per quench, one per step-size adjustment. Checkpoints
// write the minima and the state that --resume continues from.
class ProgressPrinter : public BasinHoppingObserver {
 public:
  ProgressPrinter(bool quiet, const ResultWriter& writer, std::string checkpointFile,
                  CheckpointFingerprint fingerprint, long steps)
      : m_quiet(quiet),
        m_writer(writer),
        m_checkpointFile(std::move(checkpointFile)),
        m_fingerprint(std::move(fingerprint)),
        m_steps(steps) {}

  void onQuench(const QuenchReport& q) override {
    if (m_quiet) return;
    std::printf("Qu %8ld E= %17.10f steps= %5d RMS= %9.2E Markov E= %17.10f t= %10.2f%s\n",
                q.quench, q.energy, q.lbfgsIterations, q.rmsGradient, q.markovEnergy, elapsed(),
                q.status == LbfgsStatus::Converged
                    ? ""
                    : ("  (" + lbfgsStatusName(q.status) + ")").c_str());
    if (q.evaporated) std::printf("   step rejected: %s\n", q.rejectReason.c_str());
  }
  void onStepAdjust(const StepAdjustReport& s) override {
    if (m_quiet) return;
    std::printf("Acceptance ratio for previous quenches= %6.4f  step size now %8.4f\n",
                s.acceptanceRatio, s.stepSize);
  }
  void onRestart(const RestartReport& r) override {
    if (m_quiet) return;
    const char* why = r.reason == RestartReport::Reason::Taboo
                          ? "new best within the AVOID distance of a taboo structure"
                          : "no improvement for NEWRESTART quenches";
    if (r.reseeded)
      std::printf("newres> %s: reseeded at quench %ld, chain best %.10f, new Markov E %.10f, "
                  "taboo list %zu\n", why, r.quench, r.chainBestEnergy, r.markovEnergy, r.tabooSize);
    else
      std::printf("newres> %s: step %ld rejected, taboo list %zu\n", why, r.quench, r.tabooSize);
  }
  void onCheckpoint(const std::vector<StoredMinimum>& minima) override { m_writer.write(minima); }
  void onState(const BasinHoppingState& state) override {
    writeCheckpointFile(m_checkpointFile, {m_fingerprint, m_steps, state});
  }
  bool stopRequested() override { return g_stopRequested != 0; }

 private:
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  }
  bool m_quiet;
  const ResultWriter& m_writer;
  std::string m_checkpointFile;
  CheckpointFingerprint m_fingerprint;
  long m_steps;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

int run(int argc, char** argv) {
  const GminRunConfig config = parseGminCommandLine(argc, argv);
  if (config.action == GminRunConfig::Action::Help) {
    std::cout << config.helpText;
    return 0;
  }
  if (config.action == GminRunConfig::Action::Version) {
    std::cout << "gmin (landscape) " << LANDSCAPE_VERSION << "\n";
    return 0;
  }
  for (const std::string& w : config.warnings) std::cerr << "gmin: warning: " << w << "\n";

  std::vector<double> start;
  std::unique_ptr<Potential> potential;
  std::unique_ptr<AmberTopology> topology;
  BasinHoppingHooks hooks;
  std::unique_ptr<StereoChecks> stereo;
  std::vector<RotatableGroup> groups;
  std::unique_ptr<SopTopology> sopTopology;
  if (!config.sopPdbFile.empty()) {
    sopTopology = std::make_unique<SopTopology>(readSopTopology(config.sopPdbFile, config.sop));
    start = sopTopology->nativeCoordinates();
    PotentialSpec spec;
    spec.kind = PotentialSpec::Kind::Sop;
    spec.sopPdb = config.sopPdbFile;
    spec.sop = config.sop;
    potential = makePotential(spec, config.backend);
    if (config.energyOnly) {
      for (const EnergyComponent& c : potential->energyComponents(start.data()))
        std::printf("%-10s %18.8f kcal/mol\n", c.name.c_str(), c.value);
      std::printf("%-10s %18.8f kcal/mol (%zu native contacts)\n", "TOTAL",
                  potential->energy(start.data()), sopTopology->contacts.size());
      return 0;
    }
  } else if (!config.prmtopFile.empty()) {
    topology = std::make_unique<AmberTopology>(readAmberTopology(config.prmtopFile));
    start = readAmberCoordinates(config.inpcrdFile, *topology).positions;
    PotentialSpec spec;
    spec.kind = PotentialSpec::Kind::AmberGb;
    spec.prmtop = config.prmtopFile;
    spec.amber = config.amber;
    spec.precision = config.precision;
    potential = makePotential(spec, config.backend);
    if (config.energyOnly) {
      std::cout << amberSinglePointReport(*potential, start);
      return 0;
    }
    groups = findSideChainGroups(*topology);
    if (config.groupRotationProbability > 0.0 && !groups.empty()) {
      hooks.extraMove = [&](std::vector<double>& x, Random& random) {
        rotateGroups(groups, x, config.groupRotationProbability, config.groupRotationMaxAngle, random);
      };
    }
    if (config.stereoChecks) {
      stereo = std::make_unique<StereoChecks>(*topology, start);
      hooks.rejectReason = [&](const std::vector<double>& x) { return stereo->violation(x); };
    }
  } else {
    std::size_t atoms = config.ljAtoms;
    if (!config.coordsFile.empty()) {
      start = readCoordinates(config.coordsFile);
      atoms = start.size() / 3;
      if (config.ljAtomsGiven && config.ljAtoms != atoms) {
        throw std::runtime_error("--lj " + std::to_string(config.ljAtoms) + " disagrees with " +
                                 config.coordsFile + ", which has " + std::to_string(atoms) +
                                 " atoms");
      }
    }
    PotentialSpec spec;
    spec.kind = PotentialSpec::Kind::LennardJones;
    spec.atoms = atoms;
    potential = makePotential(spec, config.backend);
  }

  // Local rigid bodies (issue 9): the search runs in rigid coordinates over the atomistic
  // potential; atomistic moves and checks see the mapped atoms. With the GPU L-BFGS the rigid
  // transform runs on the device (gpu/RigidBodyCuda), whatever backend the atomistic potential has.
  std::unique_ptr<Potential> atomistic;
  const RigidBodySystem* rigid = nullptr;
  if (!config.rigidFile.empty()) {
    const RigidBodySet set = readRigidBodies(config.rigidFile, start.size() / 3);
    const Backend rigidBackend =
        config.lbfgsBackend == LbfgsBackend::Gpu ? Backend::Cuda : Backend::Cpu;
    atomistic = std::move(potential);
    potential = makeRigidBodyPotential(*atomistic, RigidBodySystem(set, start), rigidBackend);
    rigid = rigidBodySystemOf(*potential);
    start = rigid->fromAtoms(start);
    const auto atomisticMove = hooks.extraMove;
    hooks.extraMove = [&, atomisticMove](std::vector<double>& q, Random& random) {
      if (config.rigidMoves.active()) moveRigidBodies(*rigid, config.rigidMoves, q, random);
      if (atomisticMove) {
        std::vector<double> x = rigid->toAtoms(q);
        atomisticMove(x, random);
        q = rigid->fromAtoms(x);
      }
      rigid->canonicalise(q);
    };
    // CENTRE and the container act on the atoms: translate centres and free atoms together.
    hooks.centre = [&](std::vector<double>& q) {
      const std::vector<double> x = rigid->toAtoms(q);
      const double atoms = static_cast<double>(x.size() / 3);
      double c[3] = {0.0, 0.0, 0.0};
      for (std::size_t i = 0; i < x.size(); ++i) c[i % 3] += x[i] / atoms;
      rigid->translate(q, -c[0], -c[1], -c[2]);
    };
    hooks.maxRadius = [&](const std::vector<double>& q) { return maxRadius(rigid->toAtoms(q)); };
    if (hooks.rejectReason) {
      const auto atomisticCheck = hooks.rejectReason;
      hooks.rejectReason = [&, atomisticCheck](const std::vector<double>& q) {
        return atomisticCheck(rigid->toAtoms(q));
      };
    }
  }

  // --resume DIR: the checkpoint is read before the hooks are built, since the Langevin noise
  // stream continues from the checkpoint's quench number.
  const bool resuming = !config.resumeDir.empty();
  const std::string outputDir = resuming ? config.resumeDir : config.outputDir;
  Checkpoint checkpoint;
  if (resuming) checkpoint = readCheckpointFile(checkpointPath(outputDir));
  std::filesystem::create_directories(outputDir);
  // The Langevin move (issue 6): a short run at kT_md after the Cartesian step, its noise seeded
  // from the run's seed and the quench number, so reruns are identical.
  std::unique_ptr<LangevinMove> langevin;
  if (config.langevin.steps > 0) {
    LangevinParams lp = config.langevin;
    lp.seed = config.basinHopping.seed;
    langevin = std::make_unique<LangevinMove>(
        lp, [](Potential& potential, const LangevinParams& params) {
          return makeLangevinIntegrator(potential, params);
        });
    auto earlier = hooks.extraMove;
    const auto firstStream = static_cast<std::uint64_t>(resuming ? checkpoint.state.quench : 0);
    hooks.extraMove = [&, earlier, stream = firstStream](std::vector<double>& x,
                                                         Random& random) mutable {
      if (earlier) earlier(x, random);
      langevin->perturb(*potential, x, ++stream);
    };
  }
  const ResultWriter writer(outputDir, atomistic ? *atomistic : *potential, topology.get(),
                            sopTopology.get(), rigid);
  // A resumed run ends at the larger of the original and the new --steps.
  BasinHoppingParams params = config.basinHopping;
  if (resuming) params.steps = std::max(params.steps, checkpoint.steps);
  BasinHopping search(*potential, params, lbfgsWorkspaceFactory(config.lbfgsBackend), hooks);
  const BasinHoppingParams& p = params;

  // What a resumed run must share with the original (from gmin's option table).
  const CheckpointFingerprint fingerprint = gminCheckpointFingerprint(
      config, {atomistic ? atomistic->atomCount() : potential->atomCount(), potential->name(),
               potential->dimension(), search.containerRadius()});
  if (resuming)
    checkGminCheckpoint(checkpointPath(outputDir), checkpoint.fingerprint, fingerprint, config);
  if (!config.quiet) {
    if (sopTopology) {
      std::printf("gmin: %s from %s, %ld steps, kT %.4g kcal/mol, step %.4g A, seed %llu\n",
                  potential->name().c_str(), config.sopPdbFile.c_str(), p.steps, p.temperature,
                  p.stepSize, static_cast<unsigned long long>(p.seed));
    } else if (topology) {
      std::printf("gmin: %s from %s, %ld steps, kT %.4g kcal/mol, step %.4g A, %zu side-chain "
                  "groups rotated with probability %.3g, %zu stereocentres and %zu peptide bonds "
                  "checked, seed %llu\n",
                  potential->name().c_str(), config.inpcrdFile.c_str(), p.steps, p.temperature,
                  p.stepSize, groups.size(), config.groupRotationProbability,
                  stereo ? stereo->stereocentreCount() : 0, stereo ? stereo->peptideBondCount() : 0,
                  static_cast<unsigned long long>(p.seed));
    } else {
      std::printf("gmin: %s, %s start, %ld steps, kT %.4g, step %.4g, ASTEP %.4g, container "
                  "radius %.4f, seed %llu (reduced LJ units)\n",
                  potential->name().c_str(), start.empty() ? "random" : config.coordsFile.c_str(),
                  p.steps, p.temperature, p.stepSize, p.angularThreshold, search.containerRadius(),
                  static_cast<unsigned long long>(p.seed));
    }
  }
  if (resuming && !config.quiet)
    std::printf("gmin: resuming from %s after quench %ld of %ld\n",
                checkpointPath(outputDir).c_str(), checkpoint.state.quench, p.steps);
  ProgressPrinter printer(config.quiet, writer, checkpointPath(outputDir), fingerprint, p.steps);
  std::signal(SIGINT, requestStop);
  std::signal(SIGTERM, requestStop);
  const BasinHoppingResult result =
      resuming ? search.resume(checkpoint.state, &printer) : search.run(start, &printer);
  writer.write(result.lowest);

  if (result.stoppedEarly)
    std::fprintf(stderr, "gmin: stopped by a signal after quench %ld; results written\n",
                 result.quenches);
  if (!config.quiet) {
    std::printf("gmin: %ld quenches, %ld energy+gradient calls, %ld reseeds; results in %s/\n",
                result.quenches, result.functionCalls, result.restarts, outputDir.c_str());
    if (p.targetEnergy) {
      if (result.targetReached)
        std::printf("target %.6f reached at quench %ld after %ld function calls\n",
                    *p.targetEnergy, result.targetQuench, result.targetFunctionCalls);
      else
        std::printf("target %.6f not reached\n", *p.targetEnergy);
    }
    for (std::size_t i = 0; i < result.lowest.size(); ++i)
      std::printf("minimum %zu: %.10f first found at quench %ld\n", i + 1,
                  result.lowest[i].energy, result.lowest[i].firstFoundStep);
  }
  std::printf("lowest energy: %.10f\n", result.lowest.front().energy);
  return result.stoppedEarly ? 130 : 0;  // 128 + SIGINT, as shells report an interrupted command
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
