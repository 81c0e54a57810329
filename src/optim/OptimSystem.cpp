#include "src/optim/OptimSystem.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include "backends/HessianBackendFactory.h"
#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "landscape/core/Require.h"
#include "landscape/formats/PermAllowFile.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/PairModelAlignment.h"
#include "landscape/paths/RigidBodyNormalModes.h"
#include "potentials/RigidBodySet.h"
#include "src/common/PairSystem.h"

namespace landscape {

namespace {

// Symmetry operations may only map an atom onto one of the same element; the Hessian is
// mass-weighted with the topology's masses (amu), as OPTIM does for AMBER; permutations only
// within the perm.allow groups.
void applyMoleculeSettings(const OptimConfig& config, const AmberTopology& amber, std::size_t atoms,
                           OptimSettings& settings) {
  settings.characterisation.pointGroup.atomTypes = amber.atomicNumbers;
  settings.characterisation.masses = amber.masses;
  if (config.permAllowFile.empty()) return;
  const std::vector<PermutationGroup> groups = readPermAllow(config.permAllowFile, atoms);
  settings.network.alignment.permutationGroups = groups;
  settings.connect.dneb.alignment.permutationGroups = groups;
  if (groups.empty()) {
    settings.network.alignment.permutations = false;
    settings.connect.dneb.alignment.permutations = false;
  }
}

// The species and the box of a pair system in every setting that compares or characterises its
// structures: an A atom is never permuted onto a B atom nor mapped onto one by a symmetry
// operation; in a box distances are minimum-image ones over translations modulo the box (the
// DNEB's finish aligned so onto the start makes its interpolation use minimum-image
// displacements), and only the three translations are zero modes.
void applyPairSettings(const PairModel& model, OptimSettings& settings) {
  settings.network.alignment = pairAlignment(model, settings.network.alignment);
  settings.connect.dneb.alignment = pairAlignment(model, settings.connect.dneb.alignment);
  if (model.speciesCount() > 1) settings.characterisation.pointGroup.atomTypes = model.species;
  if (!model.box.periodic()) return;
  settings.characterisation.translationsOnly = true;
  settings.connect.transitionStateSearch.rayleighRitz.translationsOnly = true;
}

}  // namespace

std::shared_ptr<const AmberTopology> readOptimTopology(const OptimConfig& config) {
  if (!config.isMolecule()) return nullptr;
  return std::make_shared<const AmberTopology>(readAmberTopology(config.prmtopFile));
}

OptimSystem makeOptimSystem(const OptimConfig& config, std::shared_ptr<const AmberTopology> amber,
                            std::size_t atoms, OptimSettings& settings) {
  OptimSystem system;
  PotentialSpec spec;
  if (amber) {
    spec.kind = PotentialSpec::Kind::AmberGb;
    spec.amberTopology = amber;
    spec.amber = config.amber;
    spec.precision = config.precision;
    system.units = kAmberUnits;
    applyMoleculeSettings(config, *amber, atoms, settings);
  } else if (config.pair.active()) {
    system.pair = std::make_shared<const PairModel>(makePairModel(config.pair, atoms));
    spec.kind = PotentialSpec::Kind::Pair;
    spec.pairModel = system.pair;
    applyPairSettings(*system.pair, settings);
  } else if (config.waterModel == "ssd") {
    system.ssdWater = std::make_shared<const SoftStickyDipoleCluster>(
        softStickyDipoleCluster(SoftStickyDipoleParams(), atoms / kSoftStickyDipoleMarkers));
    spec.kind = PotentialSpec::Kind::SoftStickyDipole;
    spec.softStickyDipole = system.ssdWater->params;
    system.units = kSsdWaterUnits;
  } else if (config.ellipsoids) {
    if (atoms % kGayBerneMarkers != 0 || atoms < 2 * kGayBerneMarkers)
      throw std::runtime_error("ellipsoids: " + std::to_string(atoms) +
                               " atoms are not 4 markers for each of at least 2 ellipsoids");
    system.ellipsoids = std::make_shared<const GayBerneCluster>(
        gayBerneCluster(config.gayBerne, atoms / kGayBerneMarkers));
    spec.kind = PotentialSpec::Kind::GayBerne;
    spec.gayBerne = config.gayBerne;
    system.units = kGayBerneUnits;
  } else if (config.isWater()) {
    const std::vector<WaterIon> ions = tip4pIonsFromList(config.waterIons);
    if (atoms < ions.size() + 8 || (atoms - ions.size()) % 4 != 0)
      throw std::runtime_error("water: " + std::to_string(atoms) +
                               " atoms are not 4 sites for "
                               "each of at least 2 molecules" +
                               (ions.empty() ? std::string(" (ions among them need --ions)")
                                             : " and " + std::to_string(ions.size()) + " ions"));
    system.water =
        std::make_shared<const WaterCluster>(tip4pCluster((atoms - ions.size()) / 4, ions));
    spec.kind = PotentialSpec::Kind::Sites;
    spec.siteModel = std::make_shared<const SiteModel>(system.water->model);
    system.units = kWaterUnits;
  } else if (config.gupta.active()) {
    spec.kind = PotentialSpec::Kind::Gupta;  // a cluster of one kind of atom, as Lennard-Jones
    spec.gupta = guptaParamsOf(config.gupta);
  } else {
    spec.kind = PotentialSpec::Kind::LennardJones;
  }
  spec.atoms = atoms;
  system.amber = std::move(amber);
  system.spec = spec;
  system.atomistic = makePotential(spec, config.backend);
  if (config.backend != Backend::Cpu) system.cpuPotential = makePotential(spec, Backend::Cpu);
  // The stationary points' Hessians on the device too, where its gradients carry every digit.
  if (config.backend == Backend::Cuda && (!amber || config.precision == Precision::Double) &&
      system.atomistic->isDeviceResident()) {
    settings.characterisation.backend = gpuHessianBackend(*system.atomistic);
    // Several new stationary points (a cycle's, a growth cycle's) share batched calls.
    useBatchedGpuHessians(settings.characterisation.backend, spec);
    // Their factorisations side by side on host threads (beyond 8 the Hessians bound them).
    settings.characterisation.threads =
        static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  }
  return system;
}

// DNEB works on rigid coordinates unaligned (its distances are Euclidean in rigid coordinates);
// the overall motions that the eigenvector search projects out are the rigid potential's own
// (Potential::overallMotionModes). With --rigid the Hessian-derived fields are left unknown (the
// atomistic Hessian does not describe a rigid stationary point); water's come from the
// molecules' normal modes (landscape/paths/RigidBodyNormalModes.h).
namespace {

// Which sites of a water cluster may trade places: the molecules (their first sites, with the
// others following) and, within each, sites `first` and first + 1: TIP4P's two hydrogens (OPTIM's
// perm.allow for rigid water), SSD's two side markers (its turn by pi about the dipole, which
// leaves the sticky term, sin(theta) sin(2 theta) cos(2 phi), unchanged). The groups nest
// (landscape/geometry/Alignment.h). Ions (`ions`, after the molecules' sites) trade places
// with ions of their kind.
std::vector<PermutationGroup> waterPermutationGroups(std::size_t sitesPerMolecule,
                                                     std::size_t moleculeCount, int first,
                                                     const std::vector<WaterIon>& ions = {}) {
  const auto sites = static_cast<int>(sitesPerMolecule);
  const auto molecules = static_cast<int>(moleculeCount);
  PermutationGroup oxygens;
  oxygens.swapSets.resize(static_cast<std::size_t>(sites - 1));  // follower k of each oxygen
  for (int m = 0; m < molecules; ++m) {
    oxygens.atoms.push_back(m * sites);
    for (int k = 1; k < sites; ++k)
      oxygens.swapSets[static_cast<std::size_t>(k - 1)].push_back(m * sites + k);
  }
  std::vector<PermutationGroup> groups{std::move(oxygens)};
  for (int m = 0; m < molecules; ++m)
    groups.push_back({{m * sites + first, m * sites + first + 1}, {}});
  for (const WaterIon& kind : tip4pIonTypes()) {
    PermutationGroup alike;
    for (std::size_t i = 0; i < ions.size(); ++i)
      if (ions[i].name == kind.name) alike.atoms.push_back(molecules * sites + static_cast<int>(i));
    if (alike.atoms.size() >= 2) groups.push_back(std::move(alike));
  }
  return groups;
}

// The rigid coordinates' metric and overall motions on the host (OptimSystem::geometry): the
// rigid potential over a CPU copy of the atomistic one.
void keepHostGeometry(OptimSystem& system) {
  system.geometry = makeOwningRigidBodyPotential(makePotential(system.spec, Backend::Cpu),
                                                 *system.rigid, Backend::Cpu);
}

}  // namespace

void useRigidWater(const OptimConfig& config, OptimSystem& system, OptimSettings& settings) {
  const RigidBodySystem bodies =
      system.water ? system.water->rigidSystem() : system.ssdWater->rigidSystem();
  AlignmentParams& alignment = settings.network.alignment;
  alignment.permutations = true;
  alignment.permutationGroups =
      system.water
          ? waterPermutationGroups(system.water->sitesPerMolecule(), system.water->moleculeCount(),
                                   1, system.water->ions)
          : waterPermutationGroups(kSoftStickyDipoleMarkers, system.ssdWater->moleculeCount(), 2);
  // The mirror image of a cluster of achiral molecules: one minimum. (SSD's markers inverted are
  // the molecule turned by pi about its y axis, and U is unchanged.)
  alignment.inversion = true;
  system.rigidPotential = makeRigidBodyPotential(*system.atomistic, bodies, config.backend);
  const RigidBodySystem* rigid = rigidBodySystemOf(*system.rigidPotential);
  system.rigid = rigid;
  settings.network.toCartesian = [rigid](const std::vector<double>& q) {
    return rigid->toAtoms(q);
  };
  settings.connect.dneb.alignEndpoints = false;
  // The molecules' normal modes: the Hessian of the host rigid potential (double precision, any
  // backend; its geometry answers the views meanwhile, its evaluations take turns), weighted by
  // the molecules' masses; the point group over sites of like kind (TIP4P: O, H, M and each kind
  // of ion; SSD: the dipole's head and tail markers, the side markers).
  keepHostGeometry(system);
  settings.characterisation.rigidBodies = std::make_shared<RigidBodyVibrations>(
      system.geometry, bodies, system.water ? system.water->masses() : system.ssdWater->masses());
  settings.characterisation.backend = HessianBackend{};
  const std::vector<int> kinds =
      system.water ? std::vector<int>{8, 1, 1, 0} : std::vector<int>{1, 2, 3, 3};
  std::vector<int>& types = settings.characterisation.pointGroup.atomTypes;
  types.clear();
  const std::size_t siteCount =
      system.water ? 4 * system.water->moleculeCount() : bodies.atomCount();
  for (std::size_t k = 0; k < siteCount; ++k) types.push_back(kinds[k % kinds.size()]);
  if (!system.water) return;
  for (const WaterIon& ion : system.water->ions)  // the kind's place in the table, after O H M
    for (std::size_t t = 0; t < tip4pIonTypes().size(); ++t)
      if (tip4pIonTypes()[t].name == ion.name) types.push_back(100 + static_cast<int>(t));
}

void useRigidEllipsoids(const OptimConfig& config, OptimSystem& system, OptimSettings& settings) {
  const GayBerneCluster& ellipsoids = *system.ellipsoids;
  const RigidBodySystem bodies = ellipsoids.rigidSystem();
  // Distances over the centres and axis tips alone (3 points per ellipsoid): the ellipsoids
  // permute, their tips following, and each may turn head to tail (its tips swap). The mirror
  // image is the same cluster.
  AlignmentParams& alignment = settings.network.alignment;
  alignment.permutations = true;
  alignment.permutationGroups = waterPermutationGroups(3, ellipsoids.ellipsoidCount(), 1);
  alignment.inversion = true;
  system.rigidPotential = makeRigidBodyPotential(*system.atomistic, bodies, config.backend);
  const RigidBodySystem* rigid = rigidBodySystemOf(*system.rigidPotential);
  system.rigid = rigid;
  const std::shared_ptr<const GayBerneCluster> shape = system.ellipsoids;
  settings.network.toCartesian = [rigid, shape](const std::vector<double>& q) {
    return shape->centresAndTips(rigid->toAtoms(q));
  };
  settings.connect.dneb.alignEndpoints = false;
  keepHostGeometry(system);
  auto vibrations =
      std::make_shared<RigidBodyVibrations>(system.geometry, bodies, ellipsoids.masses());
  vibrations->symmetryAtoms = ellipsoids.axisTipIndices();
  settings.characterisation.rigidBodies = std::move(vibrations);
  settings.characterisation.backend = HessianBackend{};
  settings.characterisation.pointGroup.atomTypes.clear();
}

namespace {

// The finish's ellipsoids moved onto the start's by the alignment of their centres and axis tips
// (3 points each, GayBerneCluster::centresAndTips), as rigid coordinates: ellipsoid i of the
// result is the finish's ellipsoid whose centre the alignment put on the start's centre i,
// turned head to tail where that brings its axis nearer the start's, each spin the shortest turn
// from z (gayBerneRigidCoordinates). The finish's structure is unchanged: only moved, relabelled
// and spun.
std::vector<double> ellipsoidsAlignedOnto(const std::vector<double>& start,
                                          const std::vector<double>& finish,
                                          const AlignmentResult& fit) {
  const std::size_t n = start.size() / 9;
  const double sign = fit.inverted ? -1.0 : 1.0;
  auto moved = [&](const double* x) {
    return Eigen::Vector3d(sign * (fit.rotation * Eigen::Vector3d(x)) + fit.translation);
  };
  std::vector<Eigen::Vector3d> centres(n), axes(n);
  for (std::size_t j = 0; j < n; ++j) {
    centres[j] = moved(&finish[9 * j]);
    axes[j] = (moved(&finish[9 * j + 3]) - moved(&finish[9 * j + 6])).normalized();
  }
  std::vector<bool> used(n, false);
  std::vector<double> c, u;
  for (std::size_t i = 0; i < n; ++i) {
    // The centres form a permutation group of their own: a centre goes onto a centre.
    const std::size_t j = static_cast<std::size_t>(fit.permutation[3 * i]) / 3;
    require(!used[j], "ellipsoids: the alignment put two ellipsoids on one");
    used[j] = true;
    const Eigen::Vector3d axisA =
        Eigen::Vector3d(&start[9 * i + 3]) - Eigen::Vector3d(&start[9 * i + 6]);
    const Eigen::Vector3d axis = axes[j].dot(axisA) < 0.0 ? Eigen::Vector3d(-axes[j]) : axes[j];
    c.insert(c.end(), {centres[j][0], centres[j][1], centres[j][2]});
    u.insert(u.end(), {axis[0], axis[1], axis[2]});
  }
  return gayBerneRigidCoordinates(c, u);
}

// The start's ellipsoids as rigid coordinates, each spin the shortest turn from z.
std::vector<double> ellipsoidsAt(const std::vector<double>& points) {
  std::vector<double> c, u;
  for (std::size_t i = 0; i < points.size() / 9; ++i) {
    const Eigen::Vector3d axis =
        (Eigen::Vector3d(&points[9 * i + 3]) - Eigen::Vector3d(&points[9 * i + 6])).normalized();
    c.insert(c.end(), points.begin() + 9 * i, points.begin() + 9 * i + 3);
    u.insert(u.end(), {axis[0], axis[1], axis[2]});
  }
  return gayBerneRigidCoordinates(c, u);
}

}  // namespace

void useRigidBodies(const OptimConfig& config, OptimSystem& system, std::vector<double>& start,
                    std::vector<double>& finish, OptimSettings& settings) {
  if (system.ellipsoids) {
    // The finish aligned onto the start by the axis tips, then both in rigid coordinates with
    // every spin the shortest turn from z (a spin moves nothing the energy sees).
    useRigidEllipsoids(config, system, settings);
    const GayBerneCluster& e = *system.ellipsoids;
    const std::vector<double> startPoints = e.centresAndTips(start);
    const std::vector<double> finishPoints = e.centresAndTips(finish);
    const AlignmentResult fit =
        alignStructures(startPoints, finishPoints, settings.network.alignment);
    start = ellipsoidsAt(startPoints);
    finish = ellipsoidsAlignedOnto(startPoints, finishPoints, fit);
    return;
  }
  if (system.water || system.ssdWater) {
    // The finish aligned onto the start over the molecules' symmetries, then both in rigid
    // coordinates.
    useRigidWater(config, system, settings);
    finish = alignStructures(start, finish, settings.network.alignment).alignedB;
    start = system.rigid->fromAtoms(start);
    finish = system.rigid->fromAtoms(finish);
    return;
  }
  if (config.rigidFile.empty()) return;
  const std::size_t atoms = start.size() / 3;
  system.rigidPotential = makeRigidBodyPotential(
      *system.atomistic, RigidBodySystem(readRigidBodies(config.rigidFile, atoms), start),
      config.backend);
  const RigidBodySystem* rigid = rigidBodySystemOf(*system.rigidPotential);
  system.rigid = rigid;
  keepHostGeometry(system);
  start = rigid->fromAtoms(start);
  finish = rigid->fromAtoms(finish);
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

void useGpuLbfgs(const OptimConfig& config, OptimSystem& system, OptimSettings& settings) {
  if (config.lbfgsBackend != LbfgsBackend::Gpu) return;
  system.workspace = lbfgsWorkspaceFactory(config.lbfgsBackend);
  (void)system.workspace(system.searched(), 1);  // no device: say so now, not after the endpoints
  settings.connect.transitionStateSearch.tangentWorkspace = system.workspace;
  settings.connect.transitionStateSearch.rayleighRitz.workspace = system.workspace;
  settings.connect.descent.workspace = system.workspace;
}

}  // namespace landscape
