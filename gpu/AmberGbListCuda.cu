#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/AmberGbListCuda.h"
#include "gpu/AmberGbListKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GpuDevice.h"

namespace landscape {

namespace {

/// Neighbour entries keep the slot in the upper 28 bits (gpu/PairKernels.cuh).
constexpr std::size_t kMaxListAtoms = (std::size_t{1} << 27) - 1;

/// Lanes per atom: the most, up to 32, that keep N L at most 2^21 threads. A GB list is long
/// (about 1,000 to 2,000 entries at rgbmax 12 A in a protein), so several lanes per atom cut each
/// thread's serial chain of dependent loads while N L still fills an H200 (132 SMs x 2,048
/// threads = 2.7 x 10^5) several times over.
int automaticLanes(std::size_t atoms) {
  int lanes = 32;
  while (lanes > 1 && static_cast<double>(atoms) * lanes > static_cast<double>(1 << 21)) lanes /= 2;
  return lanes;
}

}  // namespace

struct AmberGbListCuda::DeviceState {
  AmberGbTables tables;
  Precision precision = Precision::Double;
  double skin = 0.0;
  int lanes = 1;
  int n = 0;
  double radius = 0.0;  // the list's radius, A
  double reach = 0.0;  // the radius widened by a relative 1e-9: what the build tests and cells span
  int blocks = 0;      // of the slot kernels

  // Per-atom constants and terms (atom order), uploaded once.
  DeviceBuffer<double> charge, gbRadius, rho, screened;
  DeviceBuffer<double2> lj;
  DeviceBuffer<float2> ljFloat;
  DeviceBuffer<int> ljType, exclusionOffsets, exclusions;
  DeviceBuffer<AmberBondTerm> bonds;
  DeviceBuffer<AmberAngleTerm> angles;
  DeviceBuffer<AmberDihedralTerm> dihedrals;
  DeviceBuffer<AmberPair14Term> pairs14;
  DeviceBuffer<int> atomSlotOffsets, atomSlots;
  GbBondedBlocks bondedBlocks;

  // The one-species model view of the list builder.
  DeviceBuffer<PairCoefficients> pairs;
  DeviceBuffer<int> species;
  DeviceBuffer<double> table;

  // The list (gpu/PairKernels.cuh's PairListView arrays).
  DeviceBuffer<double> listRadius2;
  int maxCells = 0, sortBits = 0, capacity = 0;
  DeviceBuffer<unsigned long long> bounds;
  DeviceBuffer<PairCellGrid> grid;
  DeviceBuffer<unsigned int> keys, keysSorted, list;
  DeviceBuffer<int> indices, order, cellStart, cellEnd, slotSpecies, counts, maxCount;
  DeviceBuffer<int> listMoved;  // PairListView's flag (its evaluation's; unused here)
  DeviceBuffer<PairPosition> reference, positions;
  DeviceBuffer<unsigned char> sortScratch;
  bool built = false;
  long rebuilds = 0;
  int longest = 0;

  // Slot-order constants and scratch.
  DeviceBuffer<double> slotRho, slotScreened, slotCharge, slotRadius;
  DeviceBuffer<int> slotType;
  DeviceBuffer<double> born, inverseBorn, dBornDSum, selfDEdB, dEdSum, pairGradient;
  DeviceBuffer<double> bornBlockEnergy, pairBlockEnergy, slotGradient, bondedBlockEnergy, energy;
  DeviceBuffer<int> moved;  // the displacement flag, 0 between evaluations
  PinnedBuffer<int> hostMoved;
  PinnedBuffer<double> hostEnergy;  // 9: the components and their total

  DeviceBuffer<double> x, g;  // staging of the host entry points

  PairModelView modelView() const {
    PairModelView v;
    v.d_pairs = pairs.data();
    v.d_species = species.data();
    v.d_table = table.data();
    v.box = PairDeviceBox{};        // open: the cells span the bounding box of each build
    v.law = PairLaw::LennardJones;  // read by no kernel of the build
    v.speciesCount = 1;
    v.atoms = n;
    return v;
  }

  PairListView listView() {
    PairListView l;
    l.skin = skin;
    l.lanesPerAtom = 1;
    l.maxCells = maxCells;
    l.capacity = capacity;
    l.d_listRadius2 = listRadius2.data();
    l.cellWidth = reach;
    l.sortBits = sortBits;
    l.d_bounds = bounds.data();
    l.d_grid = grid.data();
    l.d_keys = keys.data();
    l.d_keysSorted = keysSorted.data();
    l.d_indices = indices.data();
    l.d_order = order.data();
    l.d_cellStart = cellStart.data();
    l.d_cellEnd = cellEnd.data();
    l.d_reference = reference.data();
    l.d_positions = positions.data();
    l.d_slotSpecies = slotSpecies.data();
    l.d_list = list.data();
    l.d_counts = counts.data();
    l.d_maxCount = maxCount.data();
    l.d_moved = listMoved.data();
    l.d_sortScratch = sortScratch.data();
    l.sortScratchBytes = sortScratch.size();
    return l;
  }

  GbListArgs args(const double* d_x, double* d_g) {
    const AmberGbTables& t = tables;
    GbListArgs a;
    a.atoms = n;
    a.lanes = lanes;
    a.model = t.model;
    a.descreenCutoff = t.model.rgbmax + t.gbScreenedMax;
    a.skin = skin;
    a.d_order = order.data();
    a.d_list = list.data();
    a.d_listMutable = list.data();
    a.d_counts = counts.data();
    a.d_reference = reference.data();
    a.d_positions = positions.data();
    a.d_moved = moved.data();
    a.params.d_charge = charge.data();
    a.params.d_ljType = ljType.data();
    a.params.d_radius = gbRadius.data();
    a.params.d_rho = rho.data();
    a.params.d_screened = screened.data();
    a.params.d_lj = lj.data();
    a.params.d_ljFloat = ljFloat.data();
    a.params.ljTypeCount = t.ljTypeCount;
    a.d_exclusionOffsets = exclusionOffsets.data();
    a.d_exclusions = exclusions.data();
    a.d_slotRho = slotRho.data();
    a.d_slotScreened = slotScreened.data();
    a.d_slotCharge = slotCharge.data();
    a.d_slotRadius = slotRadius.data();
    a.d_slotType = slotType.data();
    a.d_born = born.data();
    a.d_inverseBorn = inverseBorn.data();
    a.d_dBornDSum = dBornDSum.data();
    a.d_selfDEdB = selfDEdB.data();
    a.d_dEdSum = dEdSum.data();
    a.d_pairGradient = pairGradient.data();
    a.d_bornBlockEnergy = bornBlockEnergy.data();
    a.d_pairBlockEnergy = pairBlockEnergy.data();
    a.bonded.d_x = d_x;
    a.bonded.d_bonds = bonds.data();
    a.bonded.d_angles = angles.data();
    a.bonded.d_dihedrals = dihedrals.data();
    a.bonded.d_pairs14 = pairs14.data();
    a.bonded.bonds = static_cast<int>(t.bonds.size());
    a.bonded.angles = static_cast<int>(t.angles.size());
    a.bonded.dihedrals = static_cast<int>(t.dihedrals.size());
    a.bonded.pairs14 = static_cast<int>(t.pairs14.size());
    a.bonded.d_slotGradient = slotGradient.data();
    a.bonded.d_blockEnergy = bondedBlockEnergy.data();
    a.bondedBlocks = bondedBlocks;
    a.d_atomSlotOffsets = atomSlotOffsets.data();
    a.d_atomSlots = atomSlots.data();
    a.d_x = d_x;
    a.d_g = d_g;
    a.d_energy = energy.data();
    return a;
  }

  int readLongest() {
    int value = 0;
    maxCount.copyToHost(&value, 1);  // synchronous
    return value;
  }

  void build(const double* d_x) {
    launchPairListBuild(modelView(), listView(), d_x, nullptr);
    longest = readLongest();
    if (longest > capacity) {
      list = DeviceBuffer<unsigned int>();  // free first: old and new need not fit together
      capacity = longest + longest / 8 + 8;
      list = DeviceBuffer<unsigned int>(static_cast<std::size_t>(capacity) * n);
      launchPairListNeighbours(modelView(), listView(), nullptr);
      if (readLongest() > capacity)
        throw std::logic_error("AMBER-GB list on cuda: the list outgrew its regrowth");
    }
    launchGbListPrepare(args(d_x, nullptr), nullptr);
    built = true;
    ++rebuilds;
  }

  /// The energy components of one evaluation (host entry points and device callers alike).
  AmberEnergyBreakdown evaluate(const double* d_x, double* d_g) {
    if (!built) build(d_x);
    launchGbListPositions(args(d_x, d_g), nullptr);
    LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(hostMoved.data(), moved.data(), sizeof(int),
                                         cudaMemcpyDeviceToHost, nullptr));
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    if (*hostMoved.data() != 0) {
      // An atom moved more than half the skin since the build: rebuild from these coordinates.
      moved.zero();
      build(d_x);
      launchGbListPositions(args(d_x, d_g), nullptr);
    }
    moved.zero();  // stream order: after the positions kernel, before the next one
    const GbListArgs a = args(d_x, d_g);
    if (precision == Precision::Mixed)
      launchGbListEvaluate<float>(a, nullptr);
    else
      launchGbListEvaluate<double>(a, nullptr);
    LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(hostEnergy.data(), energy.data(), 9 * sizeof(double),
                                         cudaMemcpyDeviceToHost, nullptr));
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // waits, reports kernel faults
    const double* e = hostEnergy.data();
    AmberEnergyBreakdown b;
    b.bond = e[0];
    b.angle = e[1];
    b.dihedral = e[2];
    b.vdw = e[3];
    b.eel = e[4];
    b.vdw14 = e[5];
    b.eel14 = e[6];
    b.egb = e[7];
    return b;
  }
};

AmberGbListCuda::AmberGbListCuda(const AmberTopology& topology, const AmberGbParams& params,
                                 Precision precision, double skin, int lanesPerAtom)
    : m_topology(topology),
      m_params(params),
      m_precision(precision),
      m_skin(skin),
      m_atoms(static_cast<std::size_t>(topology.atomCount)),
      m_device(std::make_unique<DeviceState>()) {
  requirePrecision(precision, amberGbPrecisions(), "AMBER-GB on CUDA");
  DeviceState& d = *m_device;
  d.tables = buildAmberGbTables(topology, params);
  const AmberGbTables& t = d.tables;
  if (!std::isfinite(params.cut))
    throw std::invalid_argument(
        "AMBER-GB list on cuda: the Verlet list needs a finite cut "
        "(AmberGbParams::cut); without one every pair is evaluated by "
        "AmberGbCuda");
  if (!(skin > 0.0) || !std::isfinite(skin))
    throw std::invalid_argument(
        "AMBER-GB list on cuda: the skin must be > 0 and finite "
        "Angstrom, got " +
        std::to_string(skin));
  if (lanesPerAtom < 0 || lanesPerAtom > 32 || (lanesPerAtom & (lanesPerAtom - 1)) != 0)
    throw std::invalid_argument(
        "AMBER-GB list on cuda: lanes per atom must be 0 (chosen), 1, 2, "
        "4, 8, 16 or 32, got " +
        std::to_string(lanesPerAtom));
  if (m_atoms < 2 || m_atoms > kMaxListAtoms)
    throw std::invalid_argument("AMBER-GB list on cuda: between 2 and " +
                                std::to_string(kMaxListAtoms) + " atoms, got " +
                                std::to_string(m_atoms) + " (" + topology.path + ")");
  if (!gpuAvailable())
    throw std::runtime_error("AMBER-GB list on cuda: no CUDA device (" + gpuDescription() + ")");
  d.precision = precision;
  d.skin = skin;
  d.lanes = lanesPerAtom == 0 ? automaticLanes(m_atoms) : lanesPerAtom;
  d.n = static_cast<int>(m_atoms);
  const std::size_t n = m_atoms;
  // The widening by a relative 1e-9 keeps rounding of r^2 and of the half-skin test from ever
  // leaving out a pair come within its reach.
  d.radius = std::max(t.model.rgbmax + t.gbScreenedMax, params.cut) + skin;
  d.reach = d.radius * (1.0 + 1e-9);
  d.blocks = gbListBlockCount(d.n, d.lanes);

  d.charge = DeviceBuffer<double>(t.charges);
  d.gbRadius = DeviceBuffer<double>(t.gbRadius);
  d.rho = DeviceBuffer<double>(t.gbRho);
  d.screened = DeviceBuffer<double>(t.gbScreened);
  std::vector<double2> lj(t.ljA.size());
  std::vector<float2> ljFloat(t.ljA.size());
  for (std::size_t k = 0; k < lj.size(); ++k) {
    lj[k] = make_double2(t.ljA[k], t.ljB[k]);
    ljFloat[k] = make_float2(static_cast<float>(t.ljA[k]), static_cast<float>(t.ljB[k]));
  }
  d.lj = DeviceBuffer<double2>(lj);
  d.ljFloat = DeviceBuffer<float2>(ljFloat);
  d.ljType = DeviceBuffer<int>(t.ljTypes);
  d.exclusionOffsets = DeviceBuffer<int>(t.exclusionOffsets);
  std::vector<int> exclusions = t.exclusions;
  if (exclusions.empty()) exclusions.push_back(0);  // a valid pointer (no row reads it)
  d.exclusions = DeviceBuffer<int>(exclusions);
  auto upload = [](auto& buffer, const auto& host) {
    using T = typename std::decay_t<decltype(host)>::value_type;
    std::vector<T> copy = host;
    if (copy.empty()) copy.push_back(T{});  // a valid pointer (count 0: never read)
    buffer = DeviceBuffer<T>(copy);
  };
  upload(d.bonds, t.bonds);
  upload(d.angles, t.angles);
  upload(d.dihedrals, t.dihedrals);
  upload(d.pairs14, t.pairs14);
  std::vector<int> slotOffsets, slots;
  gbBondedAtomSlots(t, n, slotOffsets, slots);
  d.atomSlotOffsets = DeviceBuffer<int>(slotOffsets);
  upload(d.atomSlots, slots);
  d.bondedBlocks =
      gbBondedBlocks(static_cast<int>(t.bonds.size()), static_cast<int>(t.angles.size()),
                     static_cast<int>(t.dihedrals.size()), static_cast<int>(t.pairs14.size()));

  d.pairs = DeviceBuffer<PairCoefficients>(std::vector<PairCoefficients>(1, PairCoefficients{}));
  d.species = DeviceBuffer<int>(std::vector<int>(n, 0));
  d.table = DeviceBuffer<double>(std::vector<double>(1, 0.0));
  d.listRadius2 = DeviceBuffer<double>(std::vector<double>(1, d.reach * d.reach));
  d.maxCells = std::max(d.n, 64);
  d.sortBits = 1;
  while ((std::size_t{1} << d.sortBits) < static_cast<std::size_t>(d.maxCells)) ++d.sortBits;
  d.bounds = DeviceBuffer<unsigned long long>(6);
  d.grid = DeviceBuffer<PairCellGrid>(1);
  d.keys = DeviceBuffer<unsigned int>(n);
  d.keysSorted = DeviceBuffer<unsigned int>(n);
  std::vector<int> iota(n);
  for (std::size_t i = 0; i < n; ++i) iota[i] = static_cast<int>(i);
  d.indices = DeviceBuffer<int>(iota);
  d.order = DeviceBuffer<int>(n);
  d.cellStart = DeviceBuffer<int>(static_cast<std::size_t>(d.maxCells));
  d.cellEnd = DeviceBuffer<int>(static_cast<std::size_t>(d.maxCells));
  d.reference = DeviceBuffer<PairPosition>(n);
  d.positions = DeviceBuffer<PairPosition>(n);
  d.slotSpecies = DeviceBuffer<int>(n);
  d.counts = DeviceBuffer<int>(n);
  d.maxCount = DeviceBuffer<int>(1);
  d.listMoved = DeviceBuffer<int>(1);
  d.listMoved.zero();
  d.sortScratch =
      DeviceBuffer<unsigned char>(std::max<std::size_t>(1, pairSortScratchBytes(d.n, d.sortBits)));
  // A first guess of the list's length (a build that finds a longer one grows it): the mean
  // count at a protein's density, about 0.1 atoms per A^3, in the list's sphere.
  const double guess =
      1.2 * 0.1 * 4.0 / 3.0 * 3.14159265358979323846 * d.radius * d.radius * d.radius;
  d.capacity = static_cast<int>(std::min<double>(d.n - 1, std::max(16.0, std::ceil(guess))));
  d.list = DeviceBuffer<unsigned int>(static_cast<std::size_t>(d.capacity) * n);

  d.slotRho = DeviceBuffer<double>(n);
  d.slotScreened = DeviceBuffer<double>(n);
  d.slotCharge = DeviceBuffer<double>(n);
  d.slotRadius = DeviceBuffer<double>(n);
  d.slotType = DeviceBuffer<int>(n);
  d.born = DeviceBuffer<double>(n);
  d.inverseBorn = DeviceBuffer<double>(n);
  d.dBornDSum = DeviceBuffer<double>(n);
  d.selfDEdB = DeviceBuffer<double>(n);
  d.dEdSum = DeviceBuffer<double>(n);
  d.pairGradient = DeviceBuffer<double>(3 * n);
  d.bornBlockEnergy = DeviceBuffer<double>(static_cast<std::size_t>(d.blocks));
  d.pairBlockEnergy = DeviceBuffer<double>(3 * static_cast<std::size_t>(d.blocks));
  d.slotGradient = DeviceBuffer<double>(std::max<std::size_t>(1, 3 * slots.size()));
  d.bondedBlockEnergy = DeviceBuffer<double>(
      std::max<std::size_t>(1, 2 * static_cast<std::size_t>(d.bondedBlocks.total())));
  d.energy = DeviceBuffer<double>(9);
  d.moved = DeviceBuffer<int>(1);
  d.moved.zero();
  d.hostMoved = PinnedBuffer<int>(1);
  d.hostEnergy = PinnedBuffer<double>(9);
  d.x = DeviceBuffer<double>(3 * n);
  d.g = DeviceBuffer<double>(3 * n);
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

AmberGbListCuda::~AmberGbListCuda() = default;

std::string AmberGbListCuda::name() const {
  std::ostringstream s;
  s << "AMBER GB igb=" << m_params.igb << " " << m_atoms << " atoms, cut " << m_params.cut
    << " A (cuda, " << precisionName(m_precision) << ", Verlet list, skin " << m_skin << " A, "
    << m_device->lanes << " lanes per atom)";
  return s.str();
}

int AmberGbListCuda::lanesPerAtom() const { return m_device->lanes; }
double AmberGbListCuda::listRadius() const { return m_device->radius; }
long AmberGbListCuda::rebuilds() const { return m_device->rebuilds; }
std::size_t AmberGbListCuda::neighbourCapacity() const {
  return static_cast<std::size_t>(m_device->capacity);
}
int AmberGbListCuda::longestList() const { return m_device->longest; }

double AmberGbListCuda::evaluate(const double* d_x, double* d_g) {
  m_last = m_device->evaluate(d_x, d_g);
  return m_last.total();
}

double AmberGbListCuda::energyGradientDevice(const double* d_x, double* d_g) {
  if (d_x == nullptr || d_g == nullptr)
    throw std::invalid_argument(name() +
                                ": energyGradientDevice needs device pointers d_x and d_g");
  return evaluate(d_x, d_g);
}

double AmberGbListCuda::energyGradient(const double* x, double* g) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, 3 * m_atoms);
  const double e = evaluate(d.x.data(), d.g.data());
  d.g.copyToHost(g, 3 * m_atoms);
  return e;
}

double AmberGbListCuda::energy(const double* x) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, 3 * m_atoms);
  return evaluate(d.x.data(), d.g.data());
}

AmberEnergyBreakdown AmberGbListCuda::breakdown(const double* x) {
  energy(x);
  return m_last;
}

std::vector<EnergyComponent> AmberGbListCuda::energyComponents(const double* x) {
  const AmberEnergyBreakdown e = breakdown(x);
  return {{"BOND", e.bond}, {"ANGLE", e.angle},   {"DIHED", e.dihedral}, {"VDWAALS", e.vdw},
          {"EELEC", e.eel}, {"1-4_VDW", e.vdw14}, {"1-4_EEL", e.eel14},  {"EGB", e.egb}};
}

bool AmberGbListCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  if (!m_reference) m_reference = std::make_unique<AmberGb>(m_topology, m_params);
  return m_reference->perAtomEnergies(x, atomEnergies);
}

std::vector<double> AmberGbListCuda::bornRadii(const double* x) {
  energy(x);
  const std::vector<double> slotBorn = m_device->born.toHost();
  const std::vector<int> order = m_device->order.toHost();
  std::vector<double> radii(m_atoms);
  for (std::size_t s = 0; s < m_atoms; ++s) radii[static_cast<std::size_t>(order[s])] = slotBorn[s];
  return radii;
}

void AmberGbListCuda::rebuildNeighbourList(const double* d_x) {
  if (d_x == nullptr)
    throw std::invalid_argument(name() + ": rebuildNeighbourList needs device coordinates");
  m_device->build(d_x);
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

}  // namespace landscape
