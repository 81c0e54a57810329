#include "gpu/AmberGbCuda.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/AmberGbKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"

namespace landscape {

namespace {

/// Column tiles per pair-kernel block: long chunks for big systems (fewer, larger slot arrays),
/// chunk 1 for small ones so that the grid still fills the device.
int choosePairChunk(std::size_t atoms) {
  const int tiles = static_cast<int>((atoms + kGbTile - 1) / kGbTile);
  return std::max(1, std::min(8, tiles / 96));
}

/// SMs of the device the layouts are tuned for (H100 SXM, H200). A constant, not a device query:
/// the layouts fix the summation order, which must depend on the system alone.
constexpr int kTunedSms = 132;

/// Rotation-step parts of the pair grids: split each tile pair over up to 8 blocks (4 steps each)
/// while the grid has fewer than 4 blocks per SM (3 of 256 threads are resident at a time), so
/// that a small protein still spreads over the device, a warp's serial chain of pairs is short
/// and the last wave is not a lone tail.
int choosePairParts(int taskCount) {
  int parts = 1;
  while (parts < 8 && taskCount * parts < 4 * kTunedSms) parts *= 2;
  return parts;
}

/// The Born-radius gather: column parts of 4 atoms for small systems (short serial chains), whole
/// column tiles for large ones; as many blocks per tile as fill the device without leaving warps
/// with no unit at all.
GbGatherLayout chooseGatherLayout(int tiles) {
  GbGatherLayout g;
  g.columnParts = tiles < 32 ? 8 : tiles < 128 ? 4 : tiles < 512 ? 2 : 1;
  const int units = tiles * g.columnParts;
  const int enoughWorkers = (units + kGbGatherWarps - 1) / kGbGatherWarps;
  const int fill = (2 * kTunedSms + tiles - 1) / tiles;  // 2 resident blocks of 512 per SM
  g.blocksPerTile = std::max(1, std::min(enoughWorkers, fill));
  return g;
}

struct ExclusionTiles {
  std::vector<int> offsets;  // tiles + 1
  std::vector<int> columns;
  std::vector<std::uint32_t> masks;  // 32 per column entry
};

ExclusionTiles buildExclusionTiles(const AmberGbTables& t, int tiles) {
  std::map<std::pair<int, int>, std::array<std::uint32_t, kGbTile>> byTilePair;
  const int n = static_cast<int>(t.charges.size());
  for (int i = 0; i < n; ++i)
    for (int k = t.exclusionOffsets[i]; k < t.exclusionOffsets[i + 1]; ++k) {
      const int j = t.exclusions[static_cast<std::size_t>(k)];  // j > i
      auto& masks = byTilePair[{i / kGbTile, j / kGbTile}];  // value-initialised to zeros
      masks[static_cast<std::size_t>(i % kGbTile)] |= 1u << (j % kGbTile);
    }
  ExclusionTiles e;
  e.offsets.assign(static_cast<std::size_t>(tiles) + 1, 0);
  for (const auto& [key, masks] : byTilePair) {  // ordered by (row, column)
    ++e.offsets[static_cast<std::size_t>(key.first) + 1];
    e.columns.push_back(key.second);
    e.masks.insert(e.masks.end(), masks.begin(), masks.end());
  }
  for (int r = 0; r < tiles; ++r)
    e.offsets[static_cast<std::size_t>(r) + 1] += e.offsets[static_cast<std::size_t>(r)];
  return e;
}

/// For each atom, its bonded gradient slots in ascending order (the slot numbering of
/// GbBondedArgs): a CSR the chain-rule kernel gathers in a fixed order.
void buildAtomSlots(const AmberGbTables& t, std::size_t atoms, std::vector<int>& offsets,
                    std::vector<int>& slots) {
  std::vector<std::vector<int>> perAtom(atoms);
  int slot = 0;
  for (const AmberBondTerm& b : t.bonds)
    for (int atom : {b.i, b.j}) perAtom[static_cast<std::size_t>(atom)].push_back(slot++);
  for (const AmberAngleTerm& a : t.angles)
    for (int atom : {a.i, a.j, a.k}) perAtom[static_cast<std::size_t>(atom)].push_back(slot++);
  for (const AmberDihedralTerm& d : t.dihedrals)
    for (int atom : {d.i, d.j, d.k, d.l}) perAtom[static_cast<std::size_t>(atom)].push_back(slot++);
  for (const AmberPair14Term& p : t.pairs14)
    for (int atom : {p.i, p.j}) perAtom[static_cast<std::size_t>(atom)].push_back(slot++);
  offsets.assign(1, 0);
  slots.clear();
  for (const std::vector<int>& list : perAtom) {
    slots.insert(slots.end(), list.begin(), list.end());
    offsets.push_back(static_cast<int>(slots.size()));
  }
}

}  // namespace

struct AmberGbCuda::DeviceState {
  AmberGbTables tables;
  GbPairLayout layout;
  GbGatherLayout gather;
  GbBondedBlocks bondedBlocks;
  std::size_t slotCount = 0;

  // Constant for the run.
  DeviceBuffer<double> charge, radius, rho, screened, ljA, ljB;
  DeviceBuffer<int> ljType;
  DeviceBuffer<int> excludedOffsets, excludedTile;
  DeviceBuffer<std::uint32_t> excludedMask;
  DeviceBuffer<AmberBondTerm> bonds;
  DeviceBuffer<AmberAngleTerm> angles;
  DeviceBuffer<AmberDihedralTerm> dihedrals;
  DeviceBuffer<AmberPair14Term> pairs14;
  DeviceBuffer<int> atomSlotOffsets, atomSlots;
  DeviceBuffer<int2> tasks;

  // Scratch of one evaluation.
  DeviceBuffer<double> x, g;  // for host callers
  DeviceBuffer<GbTileBox> tileBox;
  DeviceBuffer<double> bornPartial;
  DeviceBuffer<unsigned> tileTickets, energyTicket;  // zero between kernels
  DeviceBuffer<double> born, dBornDSum, tileSelfEnergy, selfDEdB;
  DeviceBuffer<double> rowSlots, columnSlots, pairBlockEnergy, pairGradient, dEdSum;
  DeviceBuffer<double> chainRowSlots, chainColumnSlots;
  DeviceBuffer<double> slotGradient, bondedBlockEnergy, energy;
};

AmberGbCuda::AmberGbCuda(const AmberTopology& topology, const AmberGbParams& params,
                         Precision precision)
    : m_topology(topology),
      m_params(params),
      m_precision(precision),
      m_atoms(static_cast<std::size_t>(topology.atomCount)),
      m_device(std::make_unique<DeviceState>()) {
  requirePrecision(precision, amberGbPrecisions(), "AMBER-GB on CUDA");
  DeviceState& d = *m_device;
  d.tables = buildAmberGbTables(topology, params);
  const AmberGbTables& t = d.tables;
  if (m_atoms == 0)
    throw std::invalid_argument("AmberGbCuda: prmtop " + topology.path + " has no atoms");
  const int chunk = choosePairChunk(m_atoms);
  d.layout = gbPairLayout(m_atoms, chunk, choosePairParts(gbPairLayout(m_atoms, chunk, 1).taskCount));
  d.gather = chooseGatherLayout(d.layout.tiles);
  const std::size_t tiles = static_cast<std::size_t>(d.layout.tiles);

  d.charge = DeviceBuffer<double>(t.charges);
  d.radius = DeviceBuffer<double>(t.gbRadius);
  d.rho = DeviceBuffer<double>(t.gbRho);
  d.screened = DeviceBuffer<double>(t.gbScreened);
  d.ljA = DeviceBuffer<double>(t.ljA);
  d.ljB = DeviceBuffer<double>(t.ljB);
  d.ljType = DeviceBuffer<int>(t.ljTypes);

  const ExclusionTiles exclusions = buildExclusionTiles(t, d.layout.tiles);
  d.excludedOffsets = DeviceBuffer<int>(exclusions.offsets);
  d.excludedTile = DeviceBuffer<int>(exclusions.columns);
  d.excludedMask = DeviceBuffer<std::uint32_t>(exclusions.masks);

  d.bonds = DeviceBuffer<AmberBondTerm>(t.bonds);
  d.angles = DeviceBuffer<AmberAngleTerm>(t.angles);
  d.dihedrals = DeviceBuffer<AmberDihedralTerm>(t.dihedrals);
  d.pairs14 = DeviceBuffer<AmberPair14Term>(t.pairs14);
  std::vector<int> slotOffsets, slots;
  buildAtomSlots(t, m_atoms, slotOffsets, slots);
  d.slotCount = slots.size();
  d.atomSlotOffsets = DeviceBuffer<int>(slotOffsets);
  d.atomSlots = DeviceBuffer<int>(slots);
  d.bondedBlocks = gbBondedBlocks(static_cast<int>(t.bonds.size()), static_cast<int>(t.angles.size()),
                                  static_cast<int>(t.dihedrals.size()),
                                  static_cast<int>(t.pairs14.size()));

  std::vector<int2> tasks;
  for (int b = 0; b < d.layout.rowBlocks; ++b)
    for (int c = 0; c < d.layout.chunks; ++c)
      if (std::min(d.layout.tiles - 1, c * d.layout.chunk + d.layout.chunk - 1) >=
          b * kGbPairWarps)
        tasks.push_back(make_int2(b, c));
  if (static_cast<int>(tasks.size()) != d.layout.taskCount)
    throw std::logic_error("AmberGbCuda: pair task list disagrees with gbPairLayout");
  d.tasks = DeviceBuffer<int2>(tasks);

  d.x = DeviceBuffer<double>(3 * m_atoms);
  d.g = DeviceBuffer<double>(3 * m_atoms);
  d.tileBox = DeviceBuffer<GbTileBox>(tiles);
  d.bornPartial = DeviceBuffer<double>(tiles * static_cast<std::size_t>(d.gather.blocksPerTile) *
                                       kGbTile);
  d.tileTickets = DeviceBuffer<unsigned>(std::vector<unsigned>(tiles, 0u));
  d.energyTicket = DeviceBuffer<unsigned>(std::vector<unsigned>(1, 0u));
  d.born = DeviceBuffer<double>(m_atoms);
  d.dBornDSum = DeviceBuffer<double>(m_atoms);
  d.tileSelfEnergy = DeviceBuffer<double>(tiles);
  d.selfDEdB = DeviceBuffer<double>(m_atoms);
  const std::size_t slotBlock = static_cast<std::size_t>(kGbSlotValues) * kGbTile *
                                static_cast<std::size_t>(d.layout.parts);
  d.rowSlots = DeviceBuffer<double>(tiles * static_cast<std::size_t>(d.layout.chunks) * slotBlock);
  d.columnSlots =
      DeviceBuffer<double>(tiles * static_cast<std::size_t>(d.layout.rowBlocks) * slotBlock);
  d.chainRowSlots = DeviceBuffer<double>(d.rowSlots.size());
  d.chainColumnSlots = DeviceBuffer<double>(d.columnSlots.size());
  d.pairBlockEnergy = DeviceBuffer<double>(
      3 * static_cast<std::size_t>(d.layout.taskCount) * static_cast<std::size_t>(d.layout.parts));
  d.pairGradient = DeviceBuffer<double>(3 * m_atoms);
  d.dEdSum = DeviceBuffer<double>(m_atoms);
  d.slotGradient = DeviceBuffer<double>(std::max<std::size_t>(1, 3 * d.slotCount));
  d.bondedBlockEnergy =
      DeviceBuffer<double>(std::max<std::size_t>(1, 2 * static_cast<std::size_t>(d.bondedBlocks.total())));
  d.energy = DeviceBuffer<double>(8);
}

AmberGbCuda::~AmberGbCuda() = default;

std::string AmberGbCuda::name() const {
  return "AMBER GB igb=" + std::to_string(m_params.igb) + " " + std::to_string(m_atoms) +
         " atoms (cuda, " + precisionName(m_precision) + ")";
}

int AmberGbCuda::pairChunk() const { return m_device->layout.chunk; }

double AmberGbCuda::evaluate(const double* d_x, double* d_g) {
  DeviceState& d = *m_device;
  const AmberGbTables& t = d.tables;
  GbEvalArgs a;
  a.atoms = m_atoms;
  a.model = t.model;
  a.descreenCutoff = t.model.rgbmax + t.gbScreenedMax;
  a.params.d_charge = d.charge.data();
  a.params.d_ljType = d.ljType.data();
  a.params.d_radius = d.radius.data();
  a.params.d_rho = d.rho.data();
  a.params.d_screened = d.screened.data();
  a.params.d_ljA = d.ljA.data();
  a.params.d_ljB = d.ljB.data();
  a.params.ljTypeCount = t.ljTypeCount;
  a.exclusions.d_excludedTileOffsets = d.excludedOffsets.data();
  a.exclusions.d_excludedTile = d.excludedTile.data();
  a.exclusions.d_excludedMask = d.excludedMask.data();
  a.layout = d.layout;
  a.gather = d.gather;
  a.d_tasks = d.tasks.data();
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_tileBox = d.tileBox.data();
  a.d_bornPartial = d.bornPartial.data();
  a.d_tileTickets = d.tileTickets.data();
  a.d_energyTicket = d.energyTicket.data();
  a.d_born = d.born.data();
  a.d_dBornDSum = d.dBornDSum.data();
  a.d_tileSelfEnergy = d.tileSelfEnergy.data();
  a.d_selfDEdB = d.selfDEdB.data();
  a.d_rowSlots = d.rowSlots.data();
  a.d_columnSlots = d.columnSlots.data();
  a.d_pairBlockEnergy = d.pairBlockEnergy.data();
  a.d_pairGradient = d.pairGradient.data();
  a.d_dEdSum = d.dEdSum.data();
  a.d_chainRowSlots = d.chainRowSlots.data();
  a.d_chainColumnSlots = d.chainColumnSlots.data();
  a.d_atomSlotOffsets = d.atomSlotOffsets.data();
  a.d_atomSlots = d.atomSlots.data();
  a.d_slotGradient = d.slotGradient.data();
  a.bondedBlocks = d.bondedBlocks;
  a.d_bondedBlockEnergy = d.bondedBlockEnergy.data();
  a.d_energy = d.energy.data();

  GbBondedArgs& bonded = a.bonded;
  bonded.d_x = d_x;
  bonded.d_bonds = d.bonds.data();
  bonded.d_angles = d.angles.data();
  bonded.d_dihedrals = d.dihedrals.data();
  bonded.d_pairs14 = d.pairs14.data();
  bonded.bonds = static_cast<int>(t.bonds.size());
  bonded.angles = static_cast<int>(t.angles.size());
  bonded.dihedrals = static_cast<int>(t.dihedrals.size());
  bonded.pairs14 = static_cast<int>(t.pairs14.size());
  bonded.d_slotGradient = d.slotGradient.data();
  bonded.d_blockEnergy = d.bondedBlockEnergy.data();

  const cudaStream_t stream = 0;
  launchGbTileBoxes(a, stream);
  if (m_precision == Precision::Double) {
    launchGbBornRadii<double>(a, stream);
    launchGbPairs<double>(a, stream);
    launchGbChainRule<double>(a, stream);
  } else {
    launchGbBornRadii<float>(a, stream);
    launchGbPairs<float>(a, stream);
    launchGbChainRule<float>(a, stream);
  }
  double e[8];
  d.energy.copyToHost(e, 8);  // synchronises, and reports any kernel fault here
  m_last = AmberEnergyBreakdown{e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]};
  return m_last.total();
}

double AmberGbCuda::energyGradientDevice(const double* d_x, double* d_g) {
  return evaluate(d_x, d_g);
}

double AmberGbCuda::energyGradient(const double* x, double* g) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, 3 * m_atoms);
  const double e = evaluate(d.x.data(), d.g.data());
  d.g.copyToHost(g, 3 * m_atoms);
  return e;
}

double AmberGbCuda::energy(const double* x) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, 3 * m_atoms);
  return evaluate(d.x.data(), d.g.data());
}

AmberEnergyBreakdown AmberGbCuda::breakdown(const double* x) {
  energy(x);
  return m_last;
}

std::vector<EnergyComponent> AmberGbCuda::energyComponents(const double* x) {
  const AmberEnergyBreakdown e = breakdown(x);
  return {{"BOND", e.bond}, {"ANGLE", e.angle},   {"DIHED", e.dihedral}, {"VDWAALS", e.vdw},
          {"EELEC", e.eel}, {"1-4_VDW", e.vdw14}, {"1-4_EEL", e.eel14},  {"EGB", e.egb}};
}

bool AmberGbCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  if (!m_reference) m_reference = std::make_unique<AmberGb>(m_topology, m_params);
  return m_reference->perAtomEnergies(x, atomEnergies);
}

std::vector<double> AmberGbCuda::bornRadii(const double* x) {
  energy(x);
  return m_device->born.toHost();
}

}  // namespace landscape
