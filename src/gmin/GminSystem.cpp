#include "src/gmin/GminSystem.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "backends/LangevinFactory.h"
#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/BoxGeometry.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/search/PairModelHooks.h"
#include "landscape/search/RigidBodyMoves.h"
#include "landscape/search/RigidBodySearch.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/RigidBodySet.h"
#include "potentials/WaterCluster.h"

namespace landscape {

namespace {

GminSystem loadSop(const GminConfig& config) {
  GminSystem system;
  system.sop = std::make_shared<const SopTopology>(readSopTopology(config.sopPdbFile, config.sop));
  system.start = system.sop->nativeCoordinates();
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sop;
  spec.sopTopology = system.sop;
  system.atomistic = makePotential(spec, config.backend);
  system.spec = spec;
  return system;
}

GminSystem loadAmber(const GminConfig& config) {
  GminSystem system;
  system.amber = std::make_shared<const AmberTopology>(readAmberTopology(config.prmtopFile));
  system.start = readAmberCoordinates(config.inpcrdFile, *system.amber).positions;
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::AmberGb;
  spec.amberTopology = system.amber;
  spec.amber = config.amber;
  spec.precision = config.precision;
  system.atomistic = makePotential(spec, config.backend);
  system.spec = spec;
  return system;
}

// --coords (its labels into `labels`), or a random start (left empty, drawn by the search from
// the seed) of --lj atoms. Returns the atom count.
std::size_t loadAtomsStart(const GminConfig& config, GminSystem& system,
                           std::vector<std::string>* labels = nullptr) {
  if (config.coordsFile.empty()) return config.ljAtoms;
  system.start = readCoordinates(config.coordsFile, labels);
  const std::size_t atoms = system.start.size() / 3;
  if (config.ljAtomsGiven && config.ljAtoms != atoms) {
    throw std::runtime_error("--lj " + std::to_string(config.ljAtoms) + " disagrees with " +
                             config.coordsFile + ", which has " + std::to_string(atoms) + " atoms");
  }
  return atoms;
}

GminSystem loadLennardJones(const GminConfig& config) {
  GminSystem system;
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::LennardJones;
  spec.atoms = loadAtomsStart(config, system);
  system.atomistic = makePotential(spec, config.backend);
  system.spec = spec;
  return system;
}

// A Gupta metal cluster (docs/gupta.md): a cluster of one kind of atom, searched as Lennard-Jones
// is (the same moves, container and alignment), on its own potential.
GminSystem loadGupta(const GminConfig& config) {
  GminSystem system;
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Gupta;
  spec.atoms = loadAtomsStart(config, system);
  spec.gupta = guptaParamsOf(config.gupta);
  system.atomistic = makePotential(spec, config.backend);
  system.spec = spec;
  return system;
}

GminSystem loadPairSystem(const GminConfig& config) {
  GminSystem system;
  std::vector<std::string> labels;
  const std::size_t atoms = loadAtomsStart(config, system, &labels);
  system.pair = std::make_shared<const PairModel>(makePairModel(config.pair, atoms));
  checkSpeciesLabels(*system.pair, labels, config.coordsFile, config.pair.systemOrigin());
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Pair;
  spec.atoms = atoms;
  spec.pairModel = system.pair;
  system.atomistic = makePotential(spec, config.backend);
  system.spec = spec;
  system.hooks = pairModelHooks(*system.pair);
  return system;
}

// Rigid molecules (--water, --ellipsoids): the atomistic potential of `spec` on --backend under
// the rigid layer of `bodies` (on the device with the GPU L-BFGS), with the rigid-body moves and
// random starts and reseeds in a ball of `startRadius` (the container's radius when there is one).
void useRigidMolecules(const GminConfig& config, const PotentialSpec& spec,
                       const RigidBodySystem& bodies, double startRadius, GminSystem& system) {
  system.atomistic = makePotential(spec, config.backend);
  system.spec = spec;
  const Backend rigidBackend =
      config.lbfgsBackend == LbfgsBackend::Gpu ? Backend::Cuda : Backend::Cpu;
  system.rigidPotential = makeRigidBodyPotential(*system.atomistic, bodies, rigidBackend);
  system.rigid = rigidBodySystemOf(*system.rigidPotential);
  const BasinHoppingParams& p = config.basinHopping;
  installRigidBodyHooks(*system.rigid, config.rigidMoves,
                        p.container && p.containerRadius > 0.0 ? p.containerRadius : startRadius,
                        system.hooks);
}

// SSD water (--water ssd): the marker potential on --backend under the rigid layer, each molecule
// one body, from random starts in waterStartRadius' ball. --coords holds N centres, then N
// angle-axis vectors (p = 0: the dipole along z and the hydrogens' plane y-z).
GminSystem loadSsdWater(const GminConfig& config) {
  GminSystem system;
  std::size_t molecules = config.waterMolecules;
  if (!config.coordsFile.empty()) {
    std::vector<double> q = readCoordinates(config.coordsFile);
    if (q.size() % 6 != 0)
      throw std::runtime_error(config.coordsFile +
                               ": SSD water needs N centres then N angle-axis "
                               "vectors (an even number of lines); found " +
                               std::to_string(q.size() / 3) + " lines");
    if (config.waterMolecules != 0 && config.waterMolecules != q.size() / 6)
      throw std::runtime_error("--molecules " + std::to_string(config.waterMolecules) +
                               " disagrees with " + config.coordsFile + ", which holds " +
                               std::to_string(q.size() / 6) + " molecules");
    molecules = q.size() / 6;
    system.start = std::move(q);
  }
  if (molecules < 2) throw std::runtime_error("a water cluster needs at least 2 molecules");
  system.ssdWater = std::make_shared<const SoftStickyDipoleCluster>(
      softStickyDipoleCluster(SoftStickyDipoleParams(), molecules));
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::SoftStickyDipole;
  spec.atoms = kSoftStickyDipoleMarkers * molecules;
  spec.softStickyDipole = system.ssdWater->params;
  useRigidMolecules(config, spec, system.ssdWater->rigidSystem(), waterStartRadius(molecules),
                    system);
  return system;
}

// Rigid water (--water tip4p; GMIN's NTIP 4): the site potential on --backend under the rigid
// layer, each molecule one body, the ions (--ions) free atoms. --coords holds GMIN's layout (N
// oxygens, then N angle-axis vectors with GMIN's orientation convention,
// potentials/WaterCluster.h), then one position per ion.
GminSystem loadWater(const GminConfig& config) {
  if (config.waterModel == "ssd") return loadSsdWater(config);
  GminSystem system;
  const std::vector<WaterIon> ions = tip4pIonsFromList(config.waterIons);
  std::vector<double> gmin;
  std::size_t molecules = config.waterMolecules;
  if (!config.coordsFile.empty()) {
    gmin = readCoordinates(config.coordsFile);
    const std::size_t lines = gmin.size() / 3;
    if (lines < ions.size() || (lines - ions.size()) % 2 != 0)
      throw std::runtime_error(config.coordsFile +
                               ": rigid water needs GMIN's layout, N oxygen positions then N "
                               "angle-axis vectors" +
                               (ions.empty()
                                    ? std::string(" (an even number of lines)")
                                    : ", then " + std::to_string(ions.size()) + " ion positions") +
                               "; found " + std::to_string(lines) + " lines");
    if (config.waterMolecules != 0 && config.waterMolecules != (lines - ions.size()) / 2)
      throw std::runtime_error("--molecules " + std::to_string(config.waterMolecules) +
                               " disagrees with " + config.coordsFile + ", which holds " +
                               std::to_string((lines - ions.size()) / 2) + " molecules");
    molecules = (lines - ions.size()) / 2;
  }
  if (molecules < 2)
    throw std::runtime_error("a water cluster needs at least 2 molecules");
  system.water = std::make_shared<const WaterCluster>(tip4pCluster(molecules, ions));
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sites;
  spec.atoms = system.water->model.siteCount();
  spec.siteModel = std::make_shared<const SiteModel>(system.water->model);
  useRigidMolecules(config, spec, system.water->rigidSystem(),
                    waterStartRadius(molecules + ions.size()), system);
  if (!gmin.empty()) system.start = system.water->gminToRigid(gmin);
  return system;
}

// Gay-Berne ellipsoids (--ellipsoids N): the marker potential on --backend under the rigid layer,
// each ellipsoid one body. --coords holds N centres, then N angle-axis vectors (p = 0: the axis
// along z); without it the search starts from gayBerneCluster's lattice (parallel axes at the
// wells' distances): random starts in a ball that spares overlaps are so dilute that the first
// quenches leave fragments which the rigid-body moves rarely join (LJ-like tails; no container).
GminSystem loadEllipsoids(const GminConfig& config) {
  GminSystem system;
  const std::size_t n = config.ellipsoids;
  if (!config.coordsFile.empty()) {
    std::vector<double> q = readCoordinates(config.coordsFile);
    if (q.size() != 6 * n)
      throw std::runtime_error(config.coordsFile + ": " + std::to_string(n) + " ellipsoids need " +
                               std::to_string(2 * n) +
                               " lines (N centres, then N angle-axis vectors); found " +
                               std::to_string(q.size() / 3));
    system.start = std::move(q);
  }
  system.ellipsoids = std::make_shared<const GayBerneCluster>(gayBerneCluster(config.gayBerne, n));
  const RigidClusterSearch search = gayBerneClusterSearch(config.gayBerne, n);
  if (system.start.empty()) system.start = search.start;
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::GayBerne;
  spec.atoms = kGayBerneMarkers * n;
  spec.gayBerne = config.gayBerne;
  useRigidMolecules(config, spec, system.ellipsoids->rigidSystem(), search.startRadius, system);
  return system;
}

}  // namespace

GminSystem loadGminSystem(const GminConfig& config) {
  if (!config.waterModel.empty()) return loadWater(config);
  if (config.ellipsoids > 0) return loadEllipsoids(config);
  if (!config.sopPdbFile.empty()) return loadSop(config);
  if (!config.prmtopFile.empty()) return loadAmber(config);
  if (config.gupta.active()) return loadGupta(config);
  if (config.pair.active()) return loadPairSystem(config);
  return loadLennardJones(config);
}

void addMolecularMoves(const GminConfig& config, GminSystem& system) {
  if (!system.amber) return;
  system.groups = findSideChainGroups(*system.amber);
  if (config.groupRotationProbability > 0.0 && !system.groups.empty()) {
    system.hooks.extraMove = [groups = system.groups, probability = config.groupRotationProbability,
                              angle = config.groupRotationMaxAngle](std::vector<double>& x,
                                                                    Random& random) {
      rotateGroups(groups, x, probability, angle, random);
    };
  }
  if (config.stereoChecks) {
    system.stereo = std::make_unique<StereoChecks>(*system.amber, system.start);
    const StereoChecks* stereo = system.stereo.get();
    system.hooks.rejectReason = [stereo](const std::vector<double>& x) {
      return stereo->violation(x);
    };
  }
}

void useRigidBodies(const GminConfig& config, GminSystem& system) {
  if (config.rigidFile.empty()) return;
  // With the GPU L-BFGS the rigid transform runs on the device (gpu/RigidBodyCuda), whatever
  // backend the atomistic potential has.
  const RigidBodySet set = readRigidBodies(config.rigidFile, system.start.size() / 3);
  const Backend rigidBackend =
      config.lbfgsBackend == LbfgsBackend::Gpu ? Backend::Cuda : Backend::Cpu;
  system.rigidPotential =
      makeRigidBodyPotential(*system.atomistic, RigidBodySystem(set, system.start), rigidBackend);
  const RigidBodySystem* rigid = rigidBodySystemOf(*system.rigidPotential);
  system.rigid = rigid;
  system.start = rigid->fromAtoms(system.start);
  installRigidBodyHooks(*rigid, config.rigidMoves, 0.0, system.hooks);
}

void addLangevinMove(const GminConfig& config, long firstQuench, GminSystem& system) {
  if (config.langevin.steps <= 0) return;
  LangevinParams params = config.langevin;
  params.seed = config.basinHopping.seed;
  system.langevin =
      std::make_unique<LangevinMove>(params, [](Potential& potential, const LangevinParams& p) {
        return makeLangevinIntegrator(potential, p);
      });
  LangevinMove* langevin = system.langevin.get();
  Potential* potential = &system.searched();
  system.hooks.extraMove = [langevin, potential, earlier = system.hooks.extraMove,
                            stream = static_cast<std::uint64_t>(firstQuench)](
                               std::vector<double>& x, Random& random) mutable {
    if (earlier) earlier(x, random);
    langevin->perturb(*potential, x, ++stream);
  };
  system.hooks.concurrent = false;  // one stream counter, and the shared potential
}

}  // namespace landscape
