#include <algorithm>
#include <climits>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GpuDevice.h"
#include "gpu/PairKernels.cuh"
#include "gpu/PairPotentialCuda.h"

namespace landscape {

namespace {

/// Neighbour entries keep the slot in the upper 28 bits (gpu/PairKernels.cuh).
constexpr std::size_t kMaxListAtoms = (std::size_t{1} << 27) - 1;

constexpr double kPi = 3.14159265358979323846;

/// Lanes per atom of the list's evaluation (gpu/PairKernels.cuh says why more than one helps):
/// the most, up to 8, that keep N L at most 2^17 threads. Measured on an H200 (Kob-Andersen at
/// density 1.2, skin 0.3; docs/benchmarks.md): 8 is best at 4,000 and 16,000 atoms (latency
/// bound: 26 and 30 us against 76 and 74 us with 1), 2 at 64,000 (57 us; 4: 62, 8: 67, 1: 77),
/// and from 256,000 atoms 1, 2 and 4 lie within 7% of each other while 8 is 10-23% slower.
int automaticLanes(std::size_t atoms) {
  int lanes = 8;
  while (lanes > 1 && static_cast<double>(atoms) * lanes > (1 << 17)) lanes /= 2;
  return lanes;
}

}  // namespace

struct PairPotentialCuda::DeviceState {
  DeviceState(PairModel m, double skinLength, int lanesPerAtom)
      : model(std::move(m)), skin(skinLength), lanes(lanesPerAtom) {
    model.check();
    if (!(skin > 0.0) || !std::isfinite(skin))
      throw std::invalid_argument("pair potential on cuda: the skin must be > 0 and finite, got " +
                                  std::to_string(skin));
    if (lanes < 0 || lanes > 32 || (lanes & (lanes - 1)) != 0)
      throw std::invalid_argument(
          "pair potential on cuda: lanes per atom must be 0 (chosen), 1, 2, 4, 8, 16 or 32, got " +
          std::to_string(lanes));
    if (lanes == 0) lanes = automaticLanes(model.atoms());
    if (static_cast<double>(model.atoms()) * lanes > INT_MAX)
      throw std::invalid_argument("pair potential on cuda: " + std::to_string(model.atoms()) +
                                  " atoms with " + std::to_string(lanes) +
                                  " lanes each exceed the kernels' thread index");
    useList = model.cutoff != PairCutoff::None;
    const std::size_t limit = useList ? kMaxListAtoms : static_cast<std::size_t>(INT_MAX / 3);
    if (model.atoms() > limit)
      throw std::invalid_argument("pair potential on cuda: at most " + std::to_string(limit) +
                                  " atoms, got " + std::to_string(model.atoms()));
    if (!gpuAvailable())
      throw std::runtime_error("pair potential on cuda: no CUDA device (" + gpuDescription() +
                               ")");
    n = static_cast<int>(model.atoms());
    const std::vector<PairCoefficients> coefficients = model.coefficients();
    pairs = DeviceBuffer<PairCoefficients>(coefficients);
    species = DeviceBuffer<int>(model.species);
    std::vector<double> table = model.tableCoefficients();
    if (table.empty()) table.push_back(0.0);  // a valid pointer for every law
    tables = DeviceBuffer<double>(table);
    x = DeviceBuffer<double>(3 * model.atoms());
    g = DeviceBuffer<double>(3 * model.atoms());
    atomEnergy = DeviceBuffer<double>(model.atoms());
    blockEnergy = DeviceBuffer<double>(
        static_cast<std::size_t>(std::max(pairBlockCount(n), pairListBlockCount(n, lanes))));
    blocksDone = DeviceBuffer<unsigned int>(1);
    blocksDone.zero();  // the kernels leave it at zero after every launch
    out = PinnedBuffer<PairEvaluationOut>(1, cudaHostAllocMapped);
    d_out = out.devicePointer();
    if (useList) prepareList(coefficients);
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  void prepareList(const std::vector<PairCoefficients>& coefficients) {
    std::vector<double> radius2;
    double longest = 0.0;
    for (const PairCoefficients& c : coefficients) {
      const double r = std::sqrt(c.cutoff2) + skin;
      radius2.push_back(r * r);
      longest = std::max(longest, r);
    }
    listRadius2 = DeviceBuffer<double>(radius2);
    cellWidth = longest;
    maxCells = std::max(n, 64);
    sortBits = 1;
    while ((std::size_t{1} << sortBits) < static_cast<std::size_t>(maxCells)) ++sortBits;
    const std::size_t atoms = model.atoms();
    bounds = DeviceBuffer<unsigned long long>(6);
    grid = DeviceBuffer<PairCellGrid>(1);
    keys = DeviceBuffer<unsigned int>(atoms);
    keysSorted = DeviceBuffer<unsigned int>(atoms);
    std::vector<int> iota(atoms);
    for (std::size_t i = 0; i < atoms; ++i) iota[i] = static_cast<int>(i);
    indices = DeviceBuffer<int>(iota);
    order = DeviceBuffer<int>(atoms);
    cellStart = DeviceBuffer<int>(static_cast<std::size_t>(maxCells));
    cellEnd = DeviceBuffer<int>(static_cast<std::size_t>(maxCells));
    reference = DeviceBuffer<PairPosition>(atoms);
    positions = DeviceBuffer<PairPosition>(atoms);
    slotSpecies = DeviceBuffer<int>(atoms);
    counts = DeviceBuffer<int>(atoms);
    maxCount = DeviceBuffer<int>(1);
    moved = DeviceBuffer<int>(1);
    moved.zero();  // the evaluation leaves it at zero
    sortScratch = DeviceBuffer<unsigned char>(std::max<std::size_t>(1, pairSortScratchBytes(n, sortBits)));
    // A first guess of the list's length: the mean count in a periodic box (the density times the
    // longest list sphere) with room for fluctuations; clusters start at 64. A build that finds
    // a longer list grows it.
    double guess = 64.0;
    const PeriodicBox& b = model.box;
    if (b.length[0] > 0.0 && b.length[1] > 0.0 && b.length[2] > 0.0)
      guess = 1.3 * n / (b.length[0] * b.length[1] * b.length[2]) * 4.0 / 3.0 * kPi * longest *
                  longest * longest +
              16.0;
    capacity = static_cast<int>(std::min<double>(n - 1, std::max(1.0, std::ceil(guess))));
    list = DeviceBuffer<unsigned int>(static_cast<std::size_t>(capacity) * atoms);
  }

  PairModelView modelView() const {
    PairModelView v;
    v.d_pairs = pairs.data();
    v.d_species = species.data();
    v.d_table = tables.data();
    v.box = pairDeviceBox(model.box);
    v.law = model.law;
    v.speciesCount = model.speciesCount();
    v.atoms = n;
    return v;
  }

  PairListView listView() {
    PairListView l;
    l.skin = skin;
    l.lanesPerAtom = lanes;
    l.maxCells = maxCells;
    l.capacity = capacity;
    l.d_listRadius2 = listRadius2.data();
    l.cellWidth = cellWidth;
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
    l.d_moved = moved.data();
    l.d_sortScratch = sortScratch.data();
    l.sortScratchBytes = sortScratch.size();
    return l;
  }

  PairEnergyScratch scratch() {
    return {blockEnergy.data(), blocksDone.data(), d_out};
  }

  int longestList() const {
    int longest = 0;
    maxCount.copyToHost(&longest, 1);  // synchronous
    return longest;
  }

  void build(const double* d_x) {
    launchPairListBuild(modelView(), listView(), d_x, nullptr);
    const int longest = longestList();
    if (longest > capacity) {
      list = DeviceBuffer<unsigned int>();  // free first: old and new need not fit together
      capacity = longest + longest / 8 + 8;
      list = DeviceBuffer<unsigned int>(static_cast<std::size_t>(capacity) * model.atoms());
      launchPairListNeighbours(modelView(), listView(), nullptr);
      if (longestList() > capacity)
        throw std::logic_error("pair potential on cuda: the list outgrew its regrowth");
    }
    built = true;
    ++rebuilds;
  }

  const PairEvaluationOut& finished() {
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // waits, reports kernel faults
    return *out.data();
  }

  double evaluate(const double* d_x, double* d_g) {
    if (!useList) {
      launchPairAllPairs(modelView(), d_x, d_g, atomEnergy.data(), scratch(), nullptr);
      return finished().energy;
    }
    if (!built) build(d_x);
    launchPairListEvaluate(modelView(), listView(), d_x, d_g, atomEnergy.data(), scratch(),
                           nullptr);
    if (!finished().moved) return out.data()->energy;
    // An atom moved more than half the skin since the build: this evaluation may miss pairs.
    build(d_x);
    launchPairListEvaluate(modelView(), listView(), d_x, d_g, atomEnergy.data(), scratch(),
                           nullptr);
    return finished().energy;
  }

  PairModel model;
  double skin;
  int lanes;
  bool useList = false;
  int n = 0;
  DeviceBuffer<PairCoefficients> pairs;
  DeviceBuffer<int> species;
  DeviceBuffer<double> tables;
  DeviceBuffer<double> x, g;  // staging of the host entry points
  DeviceBuffer<double> atomEnergy;  // all pairs: atom order; list: slot order
  DeviceBuffer<double> blockEnergy;
  DeviceBuffer<unsigned int> blocksDone;
  PinnedBuffer<PairEvaluationOut> out;
  PairEvaluationOut* d_out = nullptr;
  // The list (models with a cutoff).
  DeviceBuffer<double> listRadius2;
  double cellWidth = 0.0;
  int maxCells = 0, sortBits = 0, capacity = 0;
  DeviceBuffer<unsigned long long> bounds;
  DeviceBuffer<PairCellGrid> grid;
  DeviceBuffer<unsigned int> keys, keysSorted;
  DeviceBuffer<int> indices, order, cellStart, cellEnd, slotSpecies, counts, maxCount, moved;
  DeviceBuffer<PairPosition> reference, positions;
  DeviceBuffer<unsigned int> list;
  DeviceBuffer<unsigned char> sortScratch;
  bool built = false;
  long rebuilds = 0;
};

PairPotentialCuda::PairPotentialCuda(PairModel model, double skin, int lanesPerAtom)
    : m_state(std::make_unique<DeviceState>(std::move(model), skin, lanesPerAtom)) {}

PairPotentialCuda::~PairPotentialCuda() = default;

std::size_t PairPotentialCuda::dimension() const { return 3 * m_state->model.atoms(); }
const PairModel& PairPotentialCuda::model() const { return m_state->model; }
double PairPotentialCuda::skin() const { return m_state->skin; }
int PairPotentialCuda::lanesPerAtom() const { return m_state->lanes; }
bool PairPotentialCuda::usesNeighbourList() const { return m_state->useList; }
long PairPotentialCuda::rebuilds() const { return m_state->rebuilds; }
std::size_t PairPotentialCuda::neighbourCapacity() const {
  return static_cast<std::size_t>(m_state->capacity);
}

std::string PairPotentialCuda::name() const {
  std::ostringstream s;
  s << m_state->model.describe() << " (cuda, ";
  if (m_state->useList)
    s << "Verlet list, skin " << m_state->skin << ", " << m_state->lanes << " lanes per atom)";
  else
    s << "all pairs)";
  return s.str();
}

double PairPotentialCuda::energy(const double* x) {
  DeviceState& st = *m_state;
  st.x.copyFromHost(x, dimension());
  return st.evaluate(st.x.data(), st.g.data());
}

double PairPotentialCuda::energyGradient(const double* x, double* g) {
  DeviceState& st = *m_state;
  st.x.copyFromHost(x, dimension());
  const double e = st.evaluate(st.x.data(), st.g.data());
  st.g.copyToHost(g, dimension());
  return e;
}

bool PairPotentialCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  DeviceState& st = *m_state;
  st.x.copyFromHost(x, dimension());
  st.evaluate(st.x.data(), st.g.data());
  const std::size_t atoms = st.model.atoms();
  if (!st.useList) {
    st.atomEnergy.copyToHost(atomEnergies, atoms);
    return true;
  }
  const std::vector<double> slotEnergy = st.atomEnergy.toHost();
  const std::vector<int> order = st.order.toHost();
  for (std::size_t s = 0; s < atoms; ++s) atomEnergies[order[s]] = slotEnergy[s];
  return true;
}

double PairPotentialCuda::energyGradientDevice(const double* d_x, double* d_g) {
  if (d_x == nullptr || d_g == nullptr)
    throw std::invalid_argument(name() +
                                ": energyGradientDevice needs device pointers d_x and d_g");
  return m_state->evaluate(d_x, d_g);
}

void PairPotentialCuda::rebuildNeighbourList(const double* d_x) {
  if (d_x == nullptr)
    throw std::invalid_argument(name() + ": rebuildNeighbourList needs device coordinates");
  if (!m_state->useList) return;
  m_state->build(d_x);
}

}  // namespace landscape
