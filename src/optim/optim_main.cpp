// optim: OPTIM-style connect runs (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, section
// 2.2): a chain of minima and transition states between two minima, found by DNEB, hybrid
// eigenvector-following and Dijkstra's choice of the next pair, stored in a transition-network
// database that later runs extend. With no arguments: the two lowest minima of LJ7 (built in code)
// with the settings of OPTIM's LJ38 example, results in ./optim-out/. With --prmtop: a molecule on
// AMBER-GB (kcal/mol, Angstrom), rst7 or XYZ endpoints, aligned without inversion and permuted only
// within the perm.allow groups. Run `optim --help` for every option.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/StopRequest.h"
#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/ConnectCheckpointFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/network/Database.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Connect.h"
#include "src/common/LongRun.h"
#include "src/optim/OptimBatching.h"
#include "src/optim/OptimDatabase.h"
#include "src/optim/OptimEndpoints.h"
#include "src/optim/OptimOptions.h"
#include "src/optim/OptimProgress.h"
#include "src/optim/OptimConfig.h"
#include "src/optim/OptimSystem.h"
#include "src/common/OutputLock.h"

namespace {

using namespace landscape;

constexpr int kExitNotConnected = 2;

int printHelpOrVersion(const OptimConfig& config) {
  if (config.action == OptimConfig::Action::Help)
    std::cout << config.helpText;
  else
    std::cout << "optim (landscape) " << LANDSCAPE_VERSION << "\n";
  return 0;
}

void printHeader(const OptimConfig& config, const OptimSystem& system,
                 const OptimSettings& settings) {
  const auto seed = static_cast<unsigned long long>(settings.seed);
  const std::string name = system.searched().name();
  if (system.ellipsoids) {
    std::printf("optim: %s (energy %s, length %s), seed %llu\n", name.c_str(), system.units.energy,
                system.units.length, seed);
    std::printf(
        " alignment> the centres and axis tips: translation, rotation and inversion; "
        "permutations of the %zu ellipsoids and their head-to-tail turns (each spin about its "
        "axis is a zero mode, projected out)\n",
        system.ellipsoids->ellipsoidCount());
    return;
  }
  if (system.ssdWater) {
    std::printf("optim: %s (energy kcal/mol, length Angstrom), seed %llu\n", name.c_str(), seed);
    std::printf(
        " alignment> translation, rotation and inversion; permutations of the %zu "
        "molecules and of each molecule's side markers (its turn by pi about the "
        "dipole)\n",
        system.ssdWater->moleculeCount());
    return;
  }
  if (system.water) {
    std::printf("optim: %s (energy kJ/mol, length Angstrom), seed %llu\n", name.c_str(), seed);
    std::printf(
        " alignment> translation, rotation and inversion; permutations of the %zu "
        "molecules and of each molecule's hydrogens%s\n",
        system.water->moleculeCount(),
        system.water->ionCount() > 0 ? ", and of ions of one kind" : "");
    return;
  }
  if (!system.amber) {
    std::printf("optim: %s (reduced units: energy epsilon, length sigma), seed %llu\n",
                name.c_str(), seed);
    return;
  }
  const AlignmentParams& a = settings.network.alignment;
  std::printf("optim: %s (%d atoms; energy kcal/mol, length Angstrom), seed %llu\n", name.c_str(),
              system.amber->atomCount, seed);
  std::printf(" alignment> translation and rotation, no inversion; %s\n",
              a.permutations && !a.permutationGroups.empty()
                  ? ("permutations within " + std::to_string(a.permutationGroups.size()) +
                     " groups of " + config.permAllowFile)
                        .c_str()
                  : "no permutations");
}

// The network as a connect run starts it: what the database holds (on --resume: the network
// saved after the last completed cycle), then the two endpoints.
struct NetworkStart {
  std::string databasePath;
  DatabaseMetadata metadata;
  KnownEntries known;
  std::size_t loadedStates = 0;  ///< transition states in the database before the run began
  int start = 0, finish = 0;     ///< network indices of the endpoints
};

std::string databasePathOf(const OptimConfig& config) {
  return config.databaseFile.empty() ? config.outputDir + "/network.h5" : config.databaseFile;
}

// The database given by --database, or the network.h5 already in the output folder; another
// system's is refused with the way out.
KnownEntries loadFolderOrGivenDatabase(const OptimConfig& config, const std::string& path,
                                       const OptimSystem& system, std::size_t atoms,
                                       TransitionNetwork& network, DatabaseMetadata& metadata) {
  if (!config.databaseFile.empty())
    return loadDatabase(path, system, atoms, network, metadata, config.quiet);
  try {
    return loadDatabase(path, system, atoms, network, metadata, config.quiet);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()) + "; optim extends the network.h5 of its " +
                             "output folder and never replaces it: choose another --output");
  }
}

NetworkStart startNetwork(const OptimConfig& config, const OptimSystem& system,
                          const OptimEndpoints& endpoints, TransitionNetwork& network,
                          const ConnectCheckpoint* resumed) {
  NetworkStart n;
  n.databasePath = databasePathOf(config);
  std::error_code error;
  // Without --database, a network.h5 already in the output folder is this folder's network: it
  // is extended (another system's is refused by loadDatabase), never replaced.
  const bool load = resumed ? resumed->progress.cycles > 0
                            : std::filesystem::exists(n.databasePath, error);
  if (load && !resumed && config.databaseFile.empty() && !config.quiet)
    std::printf(" database> %s exists: extending it (the run's new stationary points are added)\n",
                n.databasePath.c_str());
  if (load) {
    n.known = resumed ? loadDatabase(n.databasePath, system, endpoints.atoms, network, n.metadata,
                                     config.quiet, resumed->minima, resumed->transitionStates)
                      : loadFolderOrGivenDatabase(config, n.databasePath, system,
                                                  endpoints.atoms, network, n.metadata);
  } else {
    n.metadata.potential = system.searched().name();
    n.metadata.energyUnit = system.units.energy;
    n.metadata.lengthUnit = system.units.length;
    n.metadata.hessianMasses = system.hessianMasses();
    n.metadata.atoms = endpoints.atoms;
    n.metadata.program = "optim";
  }
  n.loadedStates = resumed ? resumed->loadedTransitionStates : network.transitionStates().size();
  if (resumed && (network.minima().size() != resumed->minima ||
                  network.transitionStates().size() != resumed->transitionStates))
    throw std::runtime_error(n.databasePath + " holds " + std::to_string(network.minima().size()) +
                             " minima and " + std::to_string(network.transitionStates().size()) +
                             " transition states, its connect checkpoint " +
                             std::to_string(resumed->minima) + " and " +
                             std::to_string(resumed->transitionStates) +
                             ": the database is older than the checkpoint");
  const Endpoint& s = endpoints.start;
  const Endpoint& f = endpoints.finish;
  try {
    n.start = network.addMinimum(s.x, s.energy).index;
    n.finish = network.addMinimum(f.x, f.energy).index;
  } catch (const std::invalid_argument& e) {
    if (!load) throw;
    // Only a stored minimum can make the comparison impossible (the endpoints were checked).
    throw std::runtime_error("database '" + n.databasePath + "': the endpoints cannot be " +
                             "compared with its minima (a damaged file?): " + e.what());
  }
  if (n.start == n.finish) {
    throw std::runtime_error(s.source + " and " + f.source +
                             " are the same minimum (energies within EDIFFTOL and distance "
                             "within GEOMDIFFTOL)");
  }
  // A database without endpoint sets gets this run's: A the start, B the finish (PATHSAMPLE's
  // STARTFROMPATH start A B), so that pathsample can grow it and compute its rates.
  if (n.known.setA.empty() && n.known.setB.empty()) {
    n.known.setA = {n.start};
    n.known.setB = {n.finish};
  }
  return n;
}

void printConnectSettings(const ConnectParams& c, const TransitionNetwork& network,
                          const NetworkStart& n) {
  std::printf(" KeyConnect> Maximum cycles = %d, maximum images = %d, attempts per pair = %d\n",
              c.maxCycles, c.dneb.maxImages, c.maxTriesPerPair);
  std::printf(
      " KeyConnect> Image density = %.2f, iteration density = %.2f, first DNEB run: "
      "%d images and %d iterations\n",
      c.dneb.imageDensity, c.dneb.iterationDensity, c.firstImages, c.firstIterations);
  std::printf(
      " KeyNEB> spring constant %.4g, RMS tolerance %.4g; KeyDecide> cost function "
      "D^%.4g\n",
      c.dneb.springConstant, c.dneb.rmsTolerance, c.distancePower);
  std::printf(" connect> start is minimum %d, finish is minimum %d, distance %.4f\n", n.start + 1,
              n.finish + 1, network.distance(n.start, n.finish));
}

void printPath(const ConnectResult& result, const TransitionNetwork& network, double elapsed) {
  if (result.connected()) {
    std::printf(" Connected path found\n");
    std::printf("  ts        E+         Ets - E+          Ets       Ets - E-          E-\n");
    for (const PathStep& step : result.path) {
      const double eFrom = network.minima()[step.from].energy;
      const double eTs = network.transitionStates()[step.transitionState].energy;
      const double eTo = network.minima()[step.to].energy;
      std::printf("%4d %16.7f %12.5g %16.7f %12.5g %16.7f\n", step.transitionState + 1, eFrom,
                  eTs - eFrom, eTs, eTs - eTo, eTo);
    }
  } else {
    std::printf(" No connected path: %s\n", connectStatusName(result.status).c_str());
  }
  std::printf(" Number of TS in the path       = %6zu\n", result.path.size());
  std::printf(" Number of cycles               = %6d\n", result.cycles);
  std::printf(
      " Elapsed time=  %.2f s; %d DNEB runs, %d transition-state searches, %ld "
      "energy+gradient calls\n",
      elapsed, result.dnebRuns, result.transitionStateSearches, result.gradientCalls);
}

// The database (every stationary point, new ones characterised; atomically, so a kill leaves the
// previous cycle's file) and, at the end, path.info (the transition states found in this run,
// OPTIM's DUMPALLPATHS). The characterised entries become known, so each is characterised once.
StoredTransitionNetwork saveNetwork(const OptimSystem& system, const TransitionNetwork& network,
                                    NetworkStart& n, const OptimSettings& settings) {
  StoredTransitionNetwork stored =
      completeNetwork(system, network, n.known, settings.characterisation);
  TransitionNetworkDatabase::write(n.databasePath, n.metadata, stored);
  // Entries written are known from now on; the sets and the growth record stay as they were.
  n.known.minima = stored.minima;
  n.known.states = stored.transitionStates;
  return stored;
}

void writeResults(const OptimConfig& config, const OptimSystem& system,
                  const TransitionNetwork& network, NetworkStart& n,
                  const OptimSettings& settings) {
  const StoredTransitionNetwork stored = saveNetwork(system, network, n, settings);
  std::vector<int> foundNow;
  for (std::size_t t = n.loadedStates; t < stored.transitionStates.size(); ++t) {
    foundNow.push_back(static_cast<int>(t));
  }
  const std::string pathInfo = config.outputDir + "/path.info";
  writeFileAtomically(
      pathInfo,
      formatPathInfo(pathInfoTriples(stored, foundNow, settings.characterisation.pointGroup,
                                     pathsampleFrequencyConversion(n.metadata))),
      "path.info");
  if (config.quiet) return;
  std::printf(
      "optim: %zu minima and %zu transition states in %s; %zu new transition states "
      "in %s\n",
      stored.minima.size(), stored.transitionStates.size(), n.databasePath.c_str(), foundNow.size(),
      pathInfo.c_str());
}

// The three lines every run prints, quiet or not.
void printSummary(const ConnectResult& result, const TransitionNetwork& network,
                  double startEnergy) {
  double highest = -std::numeric_limits<double>::infinity();
  for (const PathStep& step : result.path) {
    highest = std::max(highest, network.transitionStates()[step.transitionState].energy);
  }
  std::printf("connected: %s\n", result.connected()
                                     ? "yes"
                                     : ("no (" + connectStatusName(result.status) + ")").c_str());
  std::printf("transition states on the path: %zu\n", result.path.size());
  if (result.connected() && !result.path.empty()) {
    std::printf(
        "highest barrier: %.7f (energy of the highest transition state; %.7f above the "
        "start)\n",
        highest, highest - startEnergy);
  } else {
    std::printf("highest barrier: none\n");
  }
}

// --resume DIR: the checkpoint saved after the last completed cycle, checked against this run's
// options; none when DIR has no checkpoint (stopped or killed in cycle 1), which starts afresh.
std::optional<ConnectCheckpoint> readResumeCheckpoint(const OptimConfig& config,
                                                      const CheckpointFingerprint& fingerprint) {
  if (config.resumeDir.empty()) return std::nullopt;
  const std::string path = config.resumeDir + "/connect.checkpoint";
  if (std::filesystem::is_directory(config.resumeDir) && !std::filesystem::exists(path)) {
    std::fprintf(stderr,
                 "optim: note: %s has no connect checkpoint (the run stopped in its first cycle): "
                 "starting the run afresh there\n",
                 config.resumeDir.c_str());
    return std::nullopt;
  }
  if (!std::filesystem::exists(path))
    throw std::runtime_error(path + ": no connect checkpoint here (is it the --output folder of an "
                             "optim run?)");
  ConnectCheckpoint checkpoint = readConnectCheckpointFile(path);
  checkFingerprint(path, checkpoint.fingerprint, fingerprint);
  return checkpoint;
}

int stoppedBeforeTheFirstCycle(const OptimConfig& config) {
  std::fprintf(stderr, "optim: stopped by a signal before the first connect cycle; nothing "
               "written (--resume %s starts the run afresh)\n", config.outputDir.c_str());
  return stopExitStatus();
}

int run(int argc, char** argv) {
  setUpLongRun("optim");
  OptimConfig config = parseOptimCommandLine(argc, argv);
  if (config.action != OptimConfig::Action::Run) return printHelpOrVersion(config);
  for (const std::string& w : config.warnings) std::cerr << "optim: warning: " << w << "\n";
  if (!config.resumeDir.empty()) config.outputDir = config.resumeDir;
  const CheckpointFingerprint fingerprint = optimOptionTable().fingerprint(config);
  const std::optional<ConnectCheckpoint> resumed = readResumeCheckpoint(config, fingerprint);
  const OutputLock lock(config.outputDir, "optim");
  const std::string checkpointPath = config.outputDir + "/connect.checkpoint";
  requireWritable(databasePathOf(config), "the transition-network database");
  const DatabaseLock databaseLock(databasePathOf(config), "optim");
  requireWritable(config.outputDir + "/path.info", "path.info");
  requireWritable(checkpointPath, "the connect checkpoint");
  OptimSettings settings = config.settings;  // the system adds atom types, groups, rigid bodies

  std::shared_ptr<const AmberTopology> amber = readOptimTopology(config);
  OptimEndpoints endpoints = loadOptimEndpoints(config, amber.get());
  OptimSystem system = makeOptimSystem(config, std::move(amber), endpoints.atoms, settings);
  checkEndpointSpecies(config, system, endpoints);
  useRigidBodies(config, system, endpoints.start.x, endpoints.finish.x, settings);
  useGpuLbfgs(config, system, settings);
  const OptimBatching batching = makeOptimBatching(config, system, settings);

  if (!config.quiet) {
    printHeader(config, system, settings);
    std::printf(" batch> %s\n", batching.describe().c_str());
  }
  prepareEndpoints(system, endpoints, settings, batching.endpoints.get(), config.quiet);
  if (stopRequested()) return stoppedBeforeTheFirstCycle(config);
  warnAboutStereochemistry(config, system, endpoints);

  TransitionNetwork network(settings.network);
  NetworkStart n = startNetwork(config, system, endpoints, network, resumed ? &*resumed : nullptr);
  const ConnectParams& c = settings.connect;
  if (!config.quiet) printConnectSettings(c, network, n);
  if (resumed && !config.quiet)
    std::printf(" connect> resuming from %s after cycle %d\n", checkpointPath.c_str(),
                resumed->progress.cycles);
  OptimProgress progress(network, config.quiet);
  ConnectObserver observer = progress.observer();
  observer.onCycleEnd = [&](const ConnectProgress& p) {
    saveNetwork(system, network, n, settings);
    writeConnectCheckpointFile(checkpointPath,
                               {fingerprint, n.loadedStates, network.minima().size(),
                                network.transitionStates().size(), p});
  };
  const Connect connect(c);
  const ConnectResult result =
      resumed ? connect.resume(batching.connectPotential(system.searched()), network, n.start,
                               n.finish, resumed->progress, observer, batching.connect())
              : connect.connect(batching.connectPotential(system.searched()), network, n.start,
                                n.finish, observer, batching.connect());
  if (result.status == ConnectStatus::Stopped && !resumed && result.cycles <= 1) {
    std::fprintf(stderr,  // no cycle ended, so no network or checkpoint was saved
                 "optim: stopped by a signal in connect cycle 1, before anything was saved "
                 "(--resume %s starts the run afresh)\n",
                 config.outputDir.c_str());
    return stopExitStatus();
  }
  if (result.status == ConnectStatus::Stopped) {
    std::fprintf(stderr,
                 "optim: stopped by a signal in connect cycle %d; %s and %s hold the network "
                 "after cycle %d (--resume %s continues)\n",
                 result.cycles, n.databasePath.c_str(), checkpointPath.c_str(), result.cycles - 1,
                 config.outputDir.c_str());
    return stopExitStatus();
  }

  if (!config.quiet) printPath(result, network, progress.elapsed());
  writeResults(config, system, network, n, settings);
  printSummary(result, network, endpoints.start.energy);
  return result.connected() ? 0 : kExitNotConnected;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "optim: error: " << e.what() << "\n";
    return 1;
  }
}
