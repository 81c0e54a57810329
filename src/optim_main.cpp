// optim: OPTIM-style connect runs (seed 001 section 2.2): a chain of minima and transition states
// between two minima, found by DNEB, hybrid eigenvector-following and Dijkstra's choice of the
// next pair, stored in a transition-network database that later runs extend.
// With no arguments: the two lowest minima of LJ7 (built in code) with the settings of OPTIM's
// LJ38 example, results in ./optim-out/. With --prmtop: a molecule on AMBER-GB (kcal/mol,
// Angstrom), rst7 or XYZ endpoints, aligned without inversion and permuted only within the
// perm.allow groups. Run `optim --help` for every option.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/formats/PermAllowFile.h"
#include "landscape/geometry/PointGroup.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/network/Database.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Characterisation.h"
#include "landscape/paths/Connect.h"
#include "landscape/search/ProteinMoves.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodySystem.h"
#include "src/OptimRunConfig.h"

namespace {

using namespace landscape;

constexpr int kExitNotConnected = 2;

// The units of the system, as the database stores them (gmin writes the same strings).
struct Units {
  const char* energy;
  const char* length;
};
constexpr Units kLennardJonesUnits = {"reduced (epsilon)", "reduced (sigma)"};
constexpr Units kAmberUnits = {"kcal/mol", "Angstrom"};

// ---- the built-in example: the two lowest LJ7 minima ------------------------------------------

// Pentagonal bipyramid (D5h, -16.505384) and capped octahedron (C3v, -15.935043) from ideal
// geometries with nearest-neighbour distance 1.12 sigma; minimised before use.
std::vector<double> lj7PentagonalBipyramid() {
  const double d = 1.12, pi = 3.14159265358979323846;
  const double ring = d / (2.0 * std::sin(pi / 5.0));
  const double apex = std::sqrt(d * d - ring * ring);
  std::vector<double> x;
  for (int k = 0; k < 5; ++k) {
    x.insert(x.end(),
             {ring * std::cos(2.0 * pi * k / 5.0), ring * std::sin(2.0 * pi * k / 5.0), 0.0});
  }
  x.insert(x.end(), {0.0, 0.0, apex, 0.0, 0.0, -apex});
  return x;
}

std::vector<double> lj7CappedOctahedron() {
  const double a = 1.12 / std::sqrt(2.0);
  return {a, 0, 0, -a, 0, 0, 0, a, 0, 0, -a, 0, 0, 0, a, 0, 0, -a, a, a, a};
}

// ---- endpoints -------------------------------------------------------------------------------

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A molecule's coordinates (Angstrom): XYZ when the name ends in .xyz, else AMBER inpcrd/rst7;
// either way the atom count must be the topology's.
std::vector<double> readMoleculeCoordinates(const std::string& path, const AmberTopology& topology,
                                            const std::string& prmtop) {
  if (!endsWith(path, ".xyz") && !endsWith(path, ".XYZ")) {
    return readAmberCoordinates(path, topology).positions;
  }
  std::vector<double> x = readCoordinates(path);
  if (x.size() != 3 * static_cast<std::size_t>(topology.atomCount)) {
    throw std::runtime_error(path + " has " + std::to_string(x.size() / 3) + " atoms, but " +
                             prmtop + " has " + std::to_string(topology.atomCount));
  }
  return x;
}

struct Endpoint {
  std::string source;  // for messages
  std::vector<double> x;
  double energy = 0.0;
  double rmsGradient = 0.0;
};

// The potential's own RMS gradient: sqrt(|g|^2 / n), or the angle-axis metric for rigid bodies.
double rmsGradient(Potential& potential, const std::vector<double>& x, double* energy) {
  std::vector<double> g(x.size());
  *energy = potential.energyGradient(x.data(), g.data());
  return potential.rmsGradient(x.data(), g.data());
}

// Cartesian atoms of coordinates x of the search (rigid coordinates when rigid is set).
std::vector<double> atomsOf(const RigidBodySystem* rigid, const std::vector<double>& x) {
  return rigid ? rigid->toAtoms(x) : x;
}

// Minimises the endpoint (REOPTIMISEENDPOINTS) or checks that it is a minimum already.
void prepare(Potential& potential, const RigidBodySystem* rigid, Endpoint& e,
             const OptimSettings& settings, const LbfgsWorkspaceFactory& workspace, bool minimise,
             bool quiet) {
  double before = 0.0;
  const double rmsBefore = rmsGradient(potential, e.x, &before);
  int steps = 0;
  if (minimise) {
    const LbfgsResult r = Lbfgs(settings.endpointMinimiser).minimize(potential, e.x, workspace);
    if (!r.converged()) {
      throw std::runtime_error(e.source + ": the minimisation of this endpoint did not converge (" +
                               lbfgsStatusName(r.status) + " after " +
                               std::to_string(r.iterations) + " iterations, RMS gradient " +
                               std::to_string(r.rmsGradient) + "; see --bfgs-steps, --bfgs-rms)");
    }
    steps = r.iterations;
  }
  e.rmsGradient = rmsGradient(potential, e.x, &e.energy);
  if (!minimise && e.rmsGradient > settings.endpointMinimiser.rmsTolerance) {
    char text[200];
    std::snprintf(text, sizeof text,
                  ": not a minimum: RMS gradient %.3E > %.3E (BFGSMIN); minimise it first with "
                  "--reoptimise-endpoints yes (REOPTIMISEENDPOINTS)",
                  e.rmsGradient, settings.endpointMinimiser.rmsTolerance);
    throw std::runtime_error(e.source + text);
  }
  if (quiet) return;
  const PointGroup group =
      findPointGroup(atomsOf(rigid, e.x), settings.characterisation.pointGroup);
  if (minimise) {
    std::printf(" OPTIM> %-40s E= %16.7f RMS= %10.3E -> E= %16.7f RMS= %10.3E after %d steps\n",
                e.source.c_str(), before, rmsBefore, e.energy, e.rmsGradient, steps);
  } else {
    std::printf(" OPTIM> %-40s E= %16.7f RMS= %10.3E\n", e.source.c_str(), e.energy, e.rmsGradient);
  }
  std::printf(" symmetry> point group %s, order %d\n", group.symbol.c_str(), group.order);
}

// ---- progress in the spirit of OPTIM's connect output ----------------------------------------

class Progress {
 public:
  Progress(const TransitionNetwork& network, bool quiet) : m_network(network), m_quiet(quiet) {}

  ConnectObserver observer() {
    ConnectObserver o;
    o.onCycle = [this](const ConnectCycle& c) { cycle(c); };
    o.onAttempt = [this](const ConnectAttempt& a) { attempt(a); };
    return o;
  }

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  }

 private:
  void cycle(const ConnectCycle& c) {
    m_minimaBefore = m_network.minima().size();
    m_statesBefore = m_network.transitionStates().size();
    if (m_quiet) return;
    std::printf(
        " >>>>>>>>>>>>>>>>>>>>> CONNECT CYCLE %d >>>>>>>>>>>>>>>>>>>>> %zu minima and %zu "
        "ts are known >>>>>>>>>>>>>>>>>>>>\n",
        c.cycle, c.minima, c.transitionStates);
    std::printf(" decide> Shortest path in Dijkstra has %6zu missing connections, weight= %10.4f\n",
                c.missingLinks.size(), c.pathWeight);
    std::printf(" decide> The unconnected minima in the chain and their distances are:\n");
    for (std::size_t k = 0; k < c.missingLinks.size(); ++k) {
      std::printf(" %5d %11.2f %5d", c.missingLinks[k].first + 1, c.distances[k],
                  c.missingLinks[k].second + 1);
    }
    std::printf("\n");
  }

  void attempt(const ConnectAttempt& a) {
    if (m_quiet) return;
    std::printf(
        " tryconnect> %d-iteration DNEB run for minima %d and %d using %d images: "
        "%d iterations, RMS= %.4f, %d candidates, %d converged to a TS  time= %.2f\n",
        a.iterationLimit, a.from + 1, a.to + 1, a.images, a.iterations, a.dnebRms, a.candidates,
        a.convergedSearches, elapsed());
    const auto& states = m_network.transitionStates();
    const auto& minima = m_network.minima();
    for (std::size_t t = m_statesBefore; t < states.size(); ++t) {
      const NetworkTransitionState& ts = states[t];
      const double ePlus = minima[ts.plusMinimum].energy, eMinus = minima[ts.minusMinimum].energy;
      std::printf(
          " ts %4zu:  E+ %16.7f  Ets - E+ %12.5g  Ets %16.7f  Ets - E- %12.5g  E- %16.7f"
          "   minima %d%s and %d%s\n",
          t + 1, ePlus, ts.energy - ePlus, ts.energy, ts.energy - eMinus, eMinus,
          ts.plusMinimum + 1, isNew(ts.plusMinimum) ? " *NEW*" : "", ts.minusMinimum + 1,
          isNew(ts.minusMinimum) ? " *NEW*" : "");
    }
    m_statesBefore = states.size();
    m_minimaBefore = minima.size();
    std::fflush(stdout);
  }

  bool isNew(int minimum) const { return static_cast<std::size_t>(minimum) >= m_minimaBefore; }

  const TransitionNetwork& m_network;
  bool m_quiet;
  std::size_t m_minimaBefore = 0, m_statesBefore = 0;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

// ---- the database ----------------------------------------------------------------------------

// The database's entries as they entered the network: entry i is network index i (the network is
// empty before loading), so these keep what the file said about the first minima and states.
struct Known {
  std::vector<StoredNetworkMinimum> minima;
  std::vector<StoredTransitionState> states;
};

Known loadDatabase(const std::string& path, std::size_t atoms, const Units& units,
                   TransitionNetwork& network, DatabaseMetadata& metadata, bool quiet,
                   const RigidBodySystem* rigid) {
  // The file holds atoms; a rigid search works on their best-fit rigid coordinates.
  const auto searchCoordinates = [rigid](const std::vector<double>& x) {
    return rigid ? rigid->fromAtoms(x) : x;
  };
  Known known;
  const StoredTransitionNetwork stored = TransitionNetworkDatabase::read(path, &metadata);
  if (metadata.energyUnit != units.energy || metadata.lengthUnit != units.length) {
    throw std::runtime_error("database '" + path + "' is in units '" + metadata.energyUnit +
                             "' and '" + metadata.lengthUnit + "', not '" + units.energy +
                             "' and '" + units.length + "' as this run");
  }
  if (metadata.atoms != atoms) {
    throw std::runtime_error("database '" + path + "' holds " + std::to_string(metadata.atoms) +
                             "-atom structures, but the endpoints have " + std::to_string(atoms) +
                             " atoms");
  }
  std::vector<int> index(stored.minima.size());
  for (std::size_t i = 0; i < stored.minima.size(); ++i) {
    const TransitionNetwork::Added added =
        network.addMinimum(searchCoordinates(stored.minima[i].coordinates),
                           stored.minima[i].energy);
    index[i] = added.index;
    if (added.isNew) {
      known.minima.push_back(stored.minima[i]);
    }
  }
  for (const StoredTransitionState& ts : stored.transitionStates) {
    const int plus = index[ts.plusMinimum], minus = index[ts.minusMinimum];
    if (plus == minus) continue;  // its two minima merged under this run's tolerances
    const TransitionNetwork::Added added =
        network.addTransitionState(searchCoordinates(ts.coordinates), ts.energy, ts.eigenvalue,
                                   plus, minus);
    if (added.isNew) {
      known.states.push_back(ts);
      known.states.back().plusMinimum = plus;
      known.states.back().minusMinimum = minus;
    }
  }
  if (!quiet) {
    std::printf(
        " database> '%s': %zu minima and %zu transition states loaded (%zu and %zu "
        "distinct under EDIFFTOL/GEOMDIFFTOL)\n",
        path.c_str(), stored.minima.size(), stored.transitionStates.size(), network.minima().size(),
        network.transitionStates().size());
  }
  return known;
}

// Everything in the network as stored records: loaded entries keep what the file said, new ones
// are characterised now (Hessian up to the size cap, point group, moments of inertia).
// With rigid bodies the records hold atoms, characterised on the atomistic potential.
StoredTransitionNetwork completeNetwork(Potential& potential, const TransitionNetwork& network,
                                        Known& known, const CharacterisationParams& params,
                                        const RigidBodySystem* rigid) {
  StoredTransitionNetwork out;
  for (std::size_t i = 0; i < network.minima().size(); ++i) {
    if (i < known.minima.size()) {
      out.minima.push_back(known.minima[i]);
      continue;
    }
    StoredNetworkMinimum m;
    m.energy = network.minima()[i].energy;
    m.coordinates = atomsOf(rigid, network.minima()[i].coordinates);
    m.properties = characterise(potential, m.coordinates, params);
    out.minima.push_back(std::move(m));
  }
  for (std::size_t i = 0; i < network.transitionStates().size(); ++i) {
    if (i < known.states.size()) {
      out.transitionStates.push_back(known.states[i]);
      continue;
    }
    const NetworkTransitionState& t = network.transitionStates()[i];
    StoredTransitionState ts;
    ts.energy = t.energy;
    ts.coordinates = atomsOf(rigid, t.coordinates);
    ts.plusMinimum = t.plusMinimum;
    ts.minusMinimum = t.minusMinimum;
    ts.eigenvalue = t.eigenvalue;
    ts.properties = characterise(potential, ts.coordinates, params);
    out.transitionStates.push_back(std::move(ts));
  }
  return out;
}

// ---- the run ---------------------------------------------------------------------------------

int run(int argc, char** argv) {
  const OptimRunConfig config = parseOptimCommandLine(argc, argv);
  if (config.action == OptimRunConfig::Action::Help) {
    std::cout << config.helpText;
    return 0;
  }
  if (config.action == OptimRunConfig::Action::Version) {
    std::cout << "optim (landscape) " << LANDSCAPE_VERSION << "\n";
    return 0;
  }
  for (const std::string& w : config.warnings) std::cerr << "optim: warning: " << w << "\n";
  OptimSettings settings = config.settings;  // molecules add atom types and perm.allow groups

  // Endpoints.
  Endpoint start, finish;
  bool minimise = settings.reoptimiseEndpoints;
  std::shared_ptr<const AmberTopology> topology;  // read once, shared with the potentials
  std::vector<double> reference;  // molecules: the stereocentres' handedness is taken from here
  if (config.isMolecule()) {
    topology = std::make_shared<const AmberTopology>(readAmberTopology(config.prmtopFile));
    if (!config.inpcrdFile.empty()) {
      reference = readAmberCoordinates(config.inpcrdFile, *topology).positions;
    }
    if (!config.startFile.empty()) {
      start = {config.startFile,
               readMoleculeCoordinates(config.startFile, *topology, config.prmtopFile)};
    } else if (!config.odataPoints.empty()) {
      start = {config.odataFile + " POINTS", config.odataPoints};
    } else {
      start = {config.inpcrdFile, reference};
    }
    finish = {config.finishFile,
              readMoleculeCoordinates(config.finishFile, *topology, config.prmtopFile)};
    if (reference.empty()) reference = start.x;
  } else if (config.builtInExample()) {
    start = {"built-in LJ7 pentagonal bipyramid", lj7PentagonalBipyramid()};
    finish = {"built-in LJ7 capped octahedron", lj7CappedOctahedron()};
    minimise = true;  // ideal geometries: always minimised
  } else {
    if (!config.startFile.empty()) {
      start = {config.startFile, readCoordinates(config.startFile)};
    } else {
      start = {config.odataFile + " POINTS", config.odataPoints};
    }
    finish = {config.finishFile, readCoordinates(config.finishFile)};
  }
  const std::size_t atoms = start.x.size() / 3;
  if (finish.x.size() != start.x.size()) {
    throw std::runtime_error(finish.source + " has " + std::to_string(finish.x.size() / 3) +
                             " atoms, but " + start.source + " has " + std::to_string(atoms));
  }
  if (config.ljAtoms != 0 && config.ljAtoms != atoms) {
    throw std::runtime_error("--lj " + std::to_string(config.ljAtoms) + " disagrees with " +
                             start.source + ", which has " + std::to_string(atoms) + " atoms");
  }
  if (start.x.size() != 3 * atoms || atoms == 0) {
    throw std::runtime_error(start.source + ": expected 3 coordinates per atom");
  }
  // The one place that picks the potential.
  PotentialSpec spec;
  Units units = kLennardJonesUnits;
  if (config.isMolecule()) {
    spec.kind = PotentialSpec::Kind::AmberGb;
    spec.amberTopology = topology;
    spec.amber = config.amber;
    spec.precision = config.precision;
    units = kAmberUnits;
    // Symmetry operations may only map an atom onto one of the same element.
    settings.characterisation.pointGroup.atomTypes = topology->atomicNumbers;
    if (!config.permAllowFile.empty()) {
      const std::vector<PermutationGroup> groups = readPermAllow(config.permAllowFile, atoms);
      settings.network.alignment.permutationGroups = groups;
      settings.connect.dneb.alignment.permutationGroups = groups;
      if (groups.empty()) {
        settings.network.alignment.permutations = false;
        settings.connect.dneb.alignment.permutations = false;
      }
    }
  } else {
    spec.kind = PotentialSpec::Kind::LennardJones;
  }
  spec.atoms = atoms;
  std::unique_ptr<Potential> atomistic = makePotential(spec, config.backend);
  // The finite-difference Hessian of the characterisation needs double-precision gradients: on
  // the CPU reference, whatever the backend of the search.
  std::unique_ptr<Potential> cpuPotential;
  if (config.backend != Backend::Cpu) cpuPotential = makePotential(spec, Backend::Cpu);
  std::unique_ptr<Potential> rigidPotential;
  const RigidBodySystem* rigid = nullptr;
  if (!config.rigidFile.empty()) {
    // Rigid coordinates (issue 9): the start endpoint fixes the body shapes; the finish endpoint
    // is fitted body by body. DNEB works on rigid coordinates unaligned (its distances are
    // Euclidean in rigid coordinates); the overall motions that the eigenvector search projects
    // out are the rigid potential's own (Potential::overallMotionModes). The Hessian-derived fields
    // are left unknown (the atomistic Hessian does not describe a rigid stationary point).
    rigidPotential = makeRigidBodyPotential(
        *atomistic, RigidBodySystem(readRigidBodies(config.rigidFile, atoms), start.x),
        config.backend);
    rigid = rigidBodySystemOf(*rigidPotential);
    start.x = rigid->fromAtoms(start.x);
    finish.x = rigid->fromAtoms(finish.x);
    // Identity of stationary points and Dijkstra's distances: atoms aligned by rotation and
    // translation only (a permutation would break the bodies' identity).
    if (!config.permAllowFile.empty()) {
      std::cerr << "optim: warning: --perm-allow is ignored with --rigid (a permutation would "
                   "break the bodies' identity)\n";
    }
    settings.network.toCartesian = [rigid](const std::vector<double>& q) {
      return rigid->toAtoms(q);
    };
    settings.network.alignment.permutations = false;
    settings.network.alignment.inversion = false;
    settings.connect.dneb.alignEndpoints = false;
    settings.characterisation.maxHessianAtoms = 0;
  }
  Potential* const potential = rigidPotential ? rigidPotential.get() : atomistic.get();
  // --lbfgs-backend gpu: every L-BFGS but the DNEB band's keeps its vectors on the device.
  LbfgsWorkspaceFactory workspace;
  if (config.lbfgsBackend == LbfgsBackend::Gpu) {
    workspace = lbfgsWorkspaceFactory(config.lbfgsBackend);
    (void)workspace(*potential, 1);  // no device: say so now, not after the endpoints
    settings.connect.transitionStateSearch.tangentWorkspace = workspace;
    settings.connect.transitionStateSearch.rayleighRitz.workspace = workspace;
    settings.connect.descent.workspace = workspace;
  }
  Potential& characterisationPotential = cpuPotential ? *cpuPotential : *atomistic;

  if (!config.quiet) {
    if (config.isMolecule()) {
      const AlignmentParams& a = settings.network.alignment;
      std::printf("optim: %s (%d atoms; energy kcal/mol, length Angstrom), seed %llu\n",
                  potential->name().c_str(), topology->atomCount,
                  static_cast<unsigned long long>(settings.seed));
      std::printf(" alignment> translation and rotation, no inversion; %s\n",
                  a.permutations && !a.permutationGroups.empty()
                      ? ("permutations within " + std::to_string(a.permutationGroups.size()) +
                         " groups of " + config.permAllowFile)
                            .c_str()
                      : "no permutations");
    } else {
      std::printf("optim: %s (reduced units: energy epsilon, length sigma), seed %llu\n",
                  potential->name().c_str(), static_cast<unsigned long long>(settings.seed));
    }
  }
  prepare(*potential, rigid, start, settings, workspace, minimise, config.quiet);
  prepare(*potential, rigid, finish, settings, workspace, minimise, config.quiet);
  if (topology) {
    // A path between mirror images, or across a cis/trans flip of a peptide bond, is not what a
    // connect run on a protein is for; say so rather than refuse (the user may mean it).
    const StereoChecks stereo(*topology, reference);
    for (const Endpoint* e : {&start, &finish}) {
      const std::string violation = stereo.violation(atomsOf(rigid, e->x));
      if (!violation.empty()) {
        std::cerr << "optim: warning: " << e->source << " differs from the reference "
                  << (config.inpcrdFile.empty() ? start.source : config.inpcrdFile) << ": "
                  << violation << "\n";
      }
    }
  }

  // The network: what the database holds, then the endpoints.
  std::filesystem::create_directories(config.outputDir);
  const std::string databasePath =
      config.databaseFile.empty() ? config.outputDir + "/network.h5" : config.databaseFile;
  TransitionNetwork network(settings.network);
  DatabaseMetadata metadata;
  Known known;
  std::error_code error;
  if (!config.databaseFile.empty() && std::filesystem::exists(config.databaseFile, error)) {
    known =
        loadDatabase(config.databaseFile, atoms, units, network, metadata, config.quiet, rigid);
  } else {
    metadata.potential = potential->name();
    metadata.energyUnit = units.energy;
    metadata.lengthUnit = units.length;
    metadata.atoms = atoms;
    metadata.program = "optim";
  }
  const std::size_t loadedStates = network.transitionStates().size();
  const int s = network.addMinimum(start.x, start.energy).index;
  const int f = network.addMinimum(finish.x, finish.energy).index;
  if (s == f) {
    throw std::runtime_error(start.source + " and " + finish.source +
                             " are the same minimum (energies within EDIFFTOL and distance "
                             "within GEOMDIFFTOL)");
  }

  const ConnectParams& c = settings.connect;
  if (!config.quiet) {
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
    std::printf(" connect> start is minimum %d, finish is minimum %d, distance %.4f\n", s + 1,
                f + 1, network.distance(s, f));
  }
  Progress progress(network, config.quiet);
  const ConnectResult result = Connect(c).connect(*potential, network, s, f, progress.observer());

  // Results.
  double highest = -std::numeric_limits<double>::infinity();
  for (const PathStep& step : result.path) {
    highest = std::max(highest, network.transitionStates()[step.transitionState].energy);
  }
  if (!config.quiet) {
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
        progress.elapsed(), result.dnebRuns, result.transitionStateSearches, result.gradientCalls);
  }

  const StoredTransitionNetwork stored =
      completeNetwork(characterisationPotential, network, known, settings.characterisation,
                      rigid);
  TransitionNetworkDatabase::write(databasePath, metadata, stored);
  std::vector<int> foundNow;  // DUMPALLPATHS: every transition state found in this run
  for (std::size_t t = loadedStates; t < stored.transitionStates.size(); ++t) {
    foundNow.push_back(static_cast<int>(t));
  }
  const std::string pathInfo = config.outputDir + "/path.info";
  writeFileAtomically(
      pathInfo,
      formatPathInfo(pathInfoTriples(stored, foundNow, settings.characterisation.pointGroup)),
      "path.info");
  if (!config.quiet) {
    std::printf(
        "optim: %zu minima and %zu transition states in %s; %zu new transition states "
        "in %s\n",
        stored.minima.size(), stored.transitionStates.size(), databasePath.c_str(), foundNow.size(),
        pathInfo.c_str());
  }

  std::printf("connected: %s\n", result.connected()
                                     ? "yes"
                                     : ("no (" + connectStatusName(result.status) + ")").c_str());
  std::printf("transition states on the path: %zu\n", result.path.size());
  if (result.connected() && !result.path.empty()) {
    std::printf(
        "highest barrier: %.7f (energy of the highest transition state; %.7f above the "
        "start)\n",
        highest, highest - start.energy);
  } else {
    std::printf("highest barrier: none\n");
  }
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
