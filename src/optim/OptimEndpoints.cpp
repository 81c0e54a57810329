#include "src/optim/OptimEndpoints.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/geometry/PointGroup.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/search/ProteinMoves.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/GayBerne.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/WaterCluster.h"
#include "src/common/PairSystem.h"

namespace landscape {

namespace {

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

// ---- reading ---------------------------------------------------------------------------------

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

OptimEndpoints moleculeEndpoints(const OptimConfig& config, const AmberTopology& amber) {
  OptimEndpoints e;
  if (!config.inpcrdFile.empty()) {
    e.reference = readAmberCoordinates(config.inpcrdFile, amber).positions;
  }
  if (!config.startFile.empty()) {
    e.start = {config.startFile,
               readMoleculeCoordinates(config.startFile, amber, config.prmtopFile)};
  } else if (!config.odataPoints.empty()) {
    e.start = {config.odataFile + " POINTS", config.odataPoints};
  } else {
    e.start = {config.inpcrdFile, e.reference};
  }
  e.finish = {config.finishFile,
              readMoleculeCoordinates(config.finishFile, amber, config.prmtopFile)};
  if (e.reference.empty()) e.reference = e.start.x;
  return e;
}

// An endpoint of bodies of 4 markers (SSD water, ellipsoids): XYZ of the markers when the name
// ends in .xyz (gmin's `lowest`), else rigid coordinates (N centres, then N angle-axis vectors;
// gmin --coords' layout) turned into markers by `toMarkers`. `xyzNeeds` and `rigidNeeds` begin the
// errors; an XYZ file needs at least `leastXyzValues` numbers.
template <typename ToMarkers>
Endpoint markerBodyEndpoint(const std::string& path, const std::string& xyzNeeds,
                            std::size_t leastXyzValues, const std::string& rigidNeeds,
                            ToMarkers toMarkers) {
  Endpoint e;
  e.source = path;
  std::vector<double> x = readCoordinates(path, &e.labels);
  e.labels.clear();
  if (endsWith(path, ".xyz") || endsWith(path, ".XYZ")) {
    if (x.size() % 12 != 0 || x.size() < leastXyzValues)
      throw std::runtime_error(path + ": " + xyzNeeds + "found " + std::to_string(x.size() / 3) +
                               " atoms");
    e.x = std::move(x);
    return e;
  }
  if (x.size() % 6 != 0 || x.size() < 12)
    throw std::runtime_error(path + ": " + rigidNeeds +
                             " N centres then N angle-axis vectors (an even number of lines, N "
                             ">= 2); found " +
                             std::to_string(x.size() / 3) + " lines");
  e.x = toMarkers(x);
  return e;
}

// An SSD water endpoint as markers (4 per molecule, Angstrom, D D X X).
Endpoint ssdWaterEndpoint(const std::string& path) {
  return markerBodyEndpoint(path, "SSD water needs 4 markers per molecule (D D X X), ", 12,
                            "SSD water needs", [](const std::vector<double>& q) {
                              return softStickyDipoleCluster(SoftStickyDipoleParams(), q.size() / 6)
                                  .rigidSystem()
                                  .toAtoms(q);
                            });
}

// A water endpoint as site Cartesians (O H H M per molecule, then the ions; Angstrom): XYZ of the
// sites when the name ends in .xyz, else GMIN's layout (N oxygens, then N angle-axis vectors, then
// the ions' positions).
Endpoint waterEndpoint(const std::string& path, const std::vector<WaterIon>& ions) {
  Endpoint e;
  e.source = path;
  std::vector<double> x = readCoordinates(path, &e.labels);
  const std::size_t k = ions.size(), lines = x.size() / 3;
  const std::string withIons =
      k == 0 ? std::string() : ", then one line per ion (" + std::to_string(k) + ")";
  if (endsWith(path, ".xyz") || endsWith(path, ".XYZ")) {
    if (lines < k || (lines - k) % 4 != 0)
      throw std::runtime_error(path + ": rigid TIP4P water needs 4 sites per molecule (O H H M)" +
                               withIons + ", found " + std::to_string(lines) + " atoms");
    for (std::size_t i = 0; i < k && e.labels.size() == lines; ++i)
      if (e.labels[lines - k + i] != ions[i].element)
        throw std::runtime_error(path + ": atom " + std::to_string(lines - k + i + 1) + " is '" +
                                 e.labels[lines - k + i] + "' where --ions puts " + ions[i].name +
                                 " (" + ions[i].element + ")");
    e.x = std::move(x);
  } else {
    if (lines < k || (lines - k) % 2 != 0 || lines == k)
      throw std::runtime_error(path +
                               ": rigid water needs GMIN's layout, N oxygen positions then "
                               "N angle-axis vectors" +
                               (k == 0 ? std::string(" (an even number of lines)") : withIons) +
                               "; found " + std::to_string(lines) + " lines");
    e.x = tip4pCluster((lines - k) / 2, ions).gminToSites(x);
  }
  e.labels.clear();
  return e;
}

// An ellipsoid endpoint as markers (4 per ellipsoid, sigma0, E E X X).
Endpoint ellipsoidEndpoint(const std::string& path, const GayBerneParams& params) {
  return markerBodyEndpoint(path,
                            "ellipsoids need 4 markers each (E E X X), at least 2 ellipsoids; ", 24,
                            "ellipsoids need", [&params](const std::vector<double>& q) {
                              return gayBerneCluster(params, q.size() / 6).rigidSystem().toAtoms(q);
                            });
}

OptimEndpoints ellipsoidEndpoints(const OptimConfig& config) {
  OptimEndpoints e;
  e.minimise = true;
  e.start = ellipsoidEndpoint(config.startFile, config.gayBerne);
  e.finish = ellipsoidEndpoint(config.finishFile, config.gayBerne);
  return e;
}

OptimEndpoints waterEndpoints(const OptimConfig& config) {
  OptimEndpoints e;
  e.minimise = true;
  const bool ssd = config.waterModel == "ssd";
  const std::vector<WaterIon> ions = tip4pIonsFromList(config.waterIons);
  e.start = ssd ? ssdWaterEndpoint(config.startFile) : waterEndpoint(config.startFile, ions);
  e.finish = ssd ? ssdWaterEndpoint(config.finishFile) : waterEndpoint(config.finishFile, ions);
  if (e.start.x.size() < 24)
    throw std::runtime_error(config.startFile + ": a water cluster needs at least 2 molecules");
  return e;
}

OptimEndpoints clusterEndpoints(const OptimConfig& config) {
  OptimEndpoints e;
  if (config.builtInExample()) {
    e.start = {"built-in LJ7 pentagonal bipyramid", lj7PentagonalBipyramid()};
    e.finish = {"built-in LJ7 capped octahedron", lj7CappedOctahedron()};
    e.minimise = true;  // ideal geometries: always minimised
    return e;
  }
  if (!config.startFile.empty()) {
    e.start.source = config.startFile;
    e.start.x = readCoordinates(config.startFile, &e.start.labels);
  } else {
    e.start = {config.odataFile + " POINTS", config.odataPoints};
  }
  e.finish.source = config.finishFile;
  e.finish.x = readCoordinates(config.finishFile, &e.finish.labels);
  return e;
}

void checkAtomCounts(const OptimConfig& config, const OptimEndpoints& e) {
  const std::size_t atoms = e.start.x.size() / 3;
  if (e.finish.x.size() != e.start.x.size()) {
    throw std::runtime_error(e.finish.source + " has " + std::to_string(e.finish.x.size() / 3) +
                             " atoms, but " + e.start.source + " has " + std::to_string(atoms));
  }
  if (config.ljAtoms != 0 && config.ljAtoms != atoms) {
    throw std::runtime_error("--lj " + std::to_string(config.ljAtoms) + " disagrees with " +
                             e.start.source + ", which has " + std::to_string(atoms) + " atoms");
  }
  if (e.start.x.size() != 3 * atoms || atoms == 0) {
    throw std::runtime_error(e.start.source + ": expected 3 coordinates per atom");
  }
}

// ---- preparing -------------------------------------------------------------------------------

// The potential's own RMS gradient: sqrt(|g|^2 / n), or the angle-axis metric for rigid bodies.
double rmsGradient(Potential& potential, const std::vector<double>& x, double* energy) {
  std::vector<double> g(x.size());
  *energy = potential.energyGradient(x.data(), g.data());
  return potential.rmsGradient(x.data(), g.data());
}

// Returns the L-BFGS iterations; throws when the minimisation did not converge.
int requireConverged(const Endpoint& e, LbfgsStatus status, int iterations, double rms) {
  if (status != LbfgsStatus::Converged) {
    throw std::runtime_error(e.source + ": the minimisation of this endpoint did not converge (" +
                             lbfgsStatusName(status) + " after " + std::to_string(iterations) +
                             " iterations, RMS gradient " + std::to_string(rms) +
                             "; see --bfgs-steps, --bfgs-rms)");
  }
  return iterations;
}

int minimiseEndpoint(const OptimSystem& system, Endpoint& e, const OptimSettings& settings) {
  const LbfgsResult r =
      Lbfgs(settings.endpointMinimiser).minimize(system.searched(), e.x, system.workspace);
  return requireConverged(e, r.status, r.iterations, r.rmsGradient);
}

// Both endpoints minimised as one batch; their iterations, start first. Throws for the first that
// did not converge, as minimiseEndpoint one after the other would.
std::array<int, 2> minimiseEndpointsTogether(OptimEndpoints& e, BatchedMinimiser& together) {
  const std::size_t n = e.start.x.size();
  std::vector<double> x(e.start.x);
  x.insert(x.end(), e.finish.x.begin(), e.finish.x.end());
  std::array<LbfgsResult, 2> r;
  together.minimise(2, x.data(), r.data());
  e.start.x.assign(x.begin(), x.begin() + n);
  e.finish.x.assign(x.begin() + n, x.end());
  return {requireConverged(e.start, r[0].status, r[0].iterations, r[0].rmsGradient),
          requireConverged(e.finish, r[1].status, r[1].iterations, r[1].rmsGradient)};
}

void requireMinimum(const Endpoint& e, const OptimSettings& settings) {
  if (e.rmsGradient <= settings.endpointMinimiser.rmsTolerance) return;
  char text[200];
  std::snprintf(text, sizeof text,
                ": not a minimum: RMS gradient %.3E > %.3E (BFGSMIN); minimise it first with "
                "--reoptimise-endpoints yes (REOPTIMISEENDPOINTS)",
                e.rmsGradient, settings.endpointMinimiser.rmsTolerance);
  throw std::runtime_error(e.source + text);
}

}  // namespace

OptimEndpoints loadOptimEndpoints(const OptimConfig& config, const AmberTopology* amber) {
  OptimEndpoints e = amber               ? moleculeEndpoints(config, *amber)
                     : config.isWater()  ? waterEndpoints(config)
                     : config.ellipsoids ? ellipsoidEndpoints(config)
                                         : clusterEndpoints(config);
  // Rigid molecules' endpoints come as written sites or GMIN's coordinates, fitted to rigid
  // bodies: always minimised in rigid coordinates.
  if (!e.minimise) e.minimise = config.settings.reoptimiseEndpoints || config.isRigidMolecules();
  checkAtomCounts(config, e);
  e.atoms = e.start.x.size() / 3;
  return e;
}

namespace {

// The energy and RMS gradient after the (optional) minimisation, checked and printed.
void finishEndpoint(const OptimSystem& system, Endpoint& e, const OptimSettings& settings,
                    bool minimise, bool quiet, double before, double rmsBefore, int steps) {
  e.rmsGradient = rmsGradient(system.searched(), e.x, &e.energy);
  if (!minimise) requireMinimum(e, settings);
  if (quiet) return;
  if (minimise) {
    std::printf(" OPTIM> %-40s E= %16.7f RMS= %10.3E -> E= %16.7f RMS= %10.3E after %d steps\n",
                e.source.c_str(), before, rmsBefore, e.energy, e.rmsGradient, steps);
  } else {
    std::printf(" OPTIM> %-40s E= %16.7f RMS= %10.3E\n", e.source.c_str(), e.energy, e.rmsGradient);
  }
  if (settings.characterisation.translationsOnly) {
    std::printf(" symmetry> periodic box: no point group (order 1)\n");
    return;
  }
  const PointGroup group = findPointGroup(system.atoms(e.x), settings.characterisation.pointGroup);
  std::printf(" symmetry> point group %s, order %d\n", group.symbol.c_str(), group.order);
}

}  // namespace

void prepareEndpoint(const OptimSystem& system, Endpoint& e, const OptimSettings& settings,
                     bool minimise, bool quiet) {
  double before = 0.0;
  const double rmsBefore = rmsGradient(system.searched(), e.x, &before);
  const int steps = minimise ? minimiseEndpoint(system, e, settings) : 0;
  finishEndpoint(system, e, settings, minimise, quiet, before, rmsBefore, steps);
}

void prepareEndpoints(const OptimSystem& system, OptimEndpoints& e, const OptimSettings& settings,
                      BatchedMinimiser* together, bool quiet) {
  if (!e.minimise || !together) {
    prepareEndpoint(system, e.start, settings, e.minimise, quiet);
    prepareEndpoint(system, e.finish, settings, e.minimise, quiet);
    return;
  }
  std::array<double, 2> before{}, rmsBefore{};
  rmsBefore[0] = rmsGradient(system.searched(), e.start.x, &before[0]);
  rmsBefore[1] = rmsGradient(system.searched(), e.finish.x, &before[1]);
  const std::array<int, 2> steps = minimiseEndpointsTogether(e, *together);
  finishEndpoint(system, e.start, settings, true, quiet, before[0], rmsBefore[0], steps[0]);
  finishEndpoint(system, e.finish, settings, true, quiet, before[1], rmsBefore[1], steps[1]);
}

void checkEndpointSpecies(const OptimConfig& config, const OptimSystem& system,
                          const OptimEndpoints& endpoints) {
  if (!system.pair) return;
  for (const Endpoint* e : {&endpoints.start, &endpoints.finish})
    checkSpeciesLabels(*system.pair, e->labels, e->source, config.pair.systemOrigin());
}

void warnAboutStereochemistry(const OptimConfig& config, const OptimSystem& system,
                              const OptimEndpoints& endpoints) {
  if (!system.amber) return;
  const StereoChecks stereo(*system.amber, endpoints.reference);
  for (const Endpoint* e : {&endpoints.start, &endpoints.finish}) {
    const std::string violation = stereo.violation(system.atoms(e->x));
    if (!violation.empty()) {
      std::cerr << "optim: warning: " << e->source << " differs from the reference "
                << (config.inpcrdFile.empty() ? endpoints.start.source : config.inpcrdFile) << ": "
                << violation << "\n";
    }
  }
}

}  // namespace landscape
