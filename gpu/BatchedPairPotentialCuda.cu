#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/BatchedHostStaging.h"
#include "gpu/BatchedPairKernels.cuh"
#include "gpu/BatchedPairPotentialCuda.h"
#include "gpu/BlockShape.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/DeviceMemoryPlan.h"
#include "gpu/DeviceWideSync.h"
#include "gpu/GpuDevice.h"

namespace landscape {

namespace {

void requireArrays(const void* x, const void* g, const void* energy, const char* where) {
  if (!x || !g || !energy)
    throw std::invalid_argument(std::string("batched pair potential on cuda, ") + where +
                                ": coordinates, gradients and energies must not be null");
}

// The longest cutoff over the species pairs.
double longestCutoff(const PairModel& model) {
  double longest = 0.0;
  for (const PairParameters& p : model.pairs) longest = std::max(longest, p.cutoff);
  return longest;
}

// The fraction of the box's volume in the list's sphere (the longest cutoff plus the skin); 1 for
// an open axis (a cluster: any atom may be anyone's partner).
double listSphereFraction(const PairModel& model, double skin) {
  if (!model.box.periodic()) return 1.0;
  double volume = 1.0;
  for (double edge : model.box.length) {
    if (!(edge > 0.0)) return 1.0;
    volume *= edge;
  }
  const double r = longestCutoff(model) + skin;
  return std::min(1.0, 4.0 / 3.0 * 3.14159265358979323846 * r * r * r / volume);
}

}  // namespace

struct BatchedPairPotentialCuda::DeviceState {
  DeviceState(PairModel m, int requestedThreads, BatchedPairList listMode, double listSkin)
      : model(std::move(m)), skin(listSkin) {
    model.check();
    if (!(skin > 0.0) || !std::isfinite(skin))
      throw std::invalid_argument("batched pair potential on cuda: the skin must be positive, "
                                  "got " + std::to_string(skin));
    if (listMode == BatchedPairList::Always && model.cutoff == PairCutoff::None)
      throw std::invalid_argument("batched pair potential on cuda: a Verlet list needs a cutoff "
                                  "(" + model.describe() + " has none)");
    // Tabulated laws keep every pair: on the H200 their sums over a list differed in the last
    // bits from those over every pair (within the CPU tolerance, but a row's bits would then
    // depend on its history), and the cause is not found yet.
    if (listMode == BatchedPairList::Always && model.law == PairLaw::Tabulated)
      throw std::invalid_argument("batched pair potential on cuda: Verlet lists are not offered "
                                  "for tabulated laws (" + model.describe() + ")");
    if (model.atoms() > static_cast<std::size_t>(INT_MAX / 3))
      throw std::invalid_argument("batched pair potential on cuda: too many atoms (" +
                                  std::to_string(model.atoms()) + ")");
    requireThreadsPerStructure("batched pair potential on cuda", requestedThreads);
    if (!gpuAvailable())
      throw std::runtime_error("batched pair potential on cuda: no CUDA device (" +
                               gpuDescription() + ")");
    atoms = static_cast<int>(model.atoms());
    threads = requestedThreads != 0 ? requestedThreads : atoms <= 128 ? 128 : 256;
    lanes = batchedPairLanesPerAtom(atoms, threads);
    sharedBytes = batchedPairSharedBytes(atoms, model.speciesCount(), threads);
    prepareBatchedPairKernels(sharedBytes, atoms);
    pairs = DeviceBuffer<PairCoefficients>(model.coefficients());
    species = DeviceBuffer<int>(model.species);
    std::vector<double> table = model.tableCoefficients();
    if (table.empty()) table.push_back(0.0);  // a valid pointer for every law
    tables = DeviceBuffer<double>(table);
    const double fraction = listSphereFraction(model, skin);
    useList = model.cutoff != PairCutoff::None && model.law != PairLaw::Tabulated &&
              atoms <= 65536 &&
              (listMode == BatchedPairList::Always ||
               (listMode == BatchedPairList::Automatic && fraction <= 0.5));
    if (!useList) return;
    // The list radius is the cutoff plus the skin, widened by a relative 1e-9: the rounding of
    // r^2 and of the displacement test (a few ulp) can then never leave out a pair that has come
    // within its cutoff (a listed extra pair only adds an exact zero).
    std::vector<double> radius2(model.pairs.size());
    for (std::size_t k = 0; k < radius2.size(); ++k) {
      const double r = (model.pairs[k].cutoff + skin) * (1.0 + 1e-9);
      radius2[k] = r * r;
    }
    listRadius2 = DeviceBuffer<double>(radius2);
    // Room for 1.5 times the expected partners of one (atom, lane) plus 8, at most all of them.
    const int partners = (atoms + lanes - 1) / lanes;
    capacity = std::min(partners, static_cast<int>(std::ceil(1.5 * fraction * partners)) + 8);
    rebuilds = DeviceBuffer<unsigned long long>(1);
    LANDSCAPE_CUDA_CHECK(cudaMemset(rebuilds.data(), 0, sizeof(unsigned long long)));
    synchronizeDevice();  // zero before any stream's first launch
  }

  std::size_t slots() const { return static_cast<std::size_t>(atoms) * lanes; }
  std::size_t bytesPerStructure() const {
    if (!useList) return 0;
    return 3 * static_cast<std::size_t>(atoms) * sizeof(double) + slots() * sizeof(int) +
           static_cast<std::size_t>(capacity) * slots() * sizeof(unsigned short);
  }
  std::size_t heldBytes() const { return reservedRows * bytesPerStructure(); }

  void reserve(std::size_t batch) {
    if (!useList || batch <= reservedRows) return;
    requireScratchFits("batched pair potential on cuda", batch, bytesPerStructure(), heldBytes(),
                       static_cast<std::size_t>(INT_MAX));
    // Free first: old and new need not fit together.
    reference = {};
    counts = {};
    list = {};
    reservedRows = 0;
    reference = DeviceBuffer<double>(batch * 3 * static_cast<std::size_t>(atoms));
    counts = DeviceBuffer<int>(batch * slots());
    list = DeviceBuffer<unsigned short>(std::max<std::size_t>(1, batch * capacity * slots()));
    // NaN positions (all bits set): every row builds at its first evaluation.
    LANDSCAPE_CUDA_CHECK(cudaMemset(reference.data(), 0xff, reference.size() * sizeof(double)));
    // Set before any stream's next launch (a non-blocking stream does not wait for the memset).
    synchronizeDevice();
    reservedRows = batch;
  }

  BatchedPairArgs args(std::size_t batch) {
    BatchedPairArgs a;
    a.d_pairs = pairs.data();
    a.d_species = species.data();
    a.d_table = tables.data();
    a.box = pairDeviceBox(model.box);
    a.law = model.law;
    a.atoms = atoms;
    a.speciesCount = model.speciesCount();
    a.threads = threads;
    a.lanesPerAtom = lanes;
    a.batch = batch;
    if (useList) {
      a.d_listRadius2 = listRadius2.data();
      a.halfSkin2 = 0.25 * skin * skin;
      a.d_reference = reference.data();
      a.d_list = list.data();
      a.d_counts = counts.data();
      a.d_rebuilds = rebuilds.data();
      a.listCapacity = capacity;
    }
    return a;
  }

  PairModel model;
  double skin = 0.3;
  int atoms = 0, threads = 256, lanes = 1;
  std::size_t sharedBytes = 0;
  DeviceBuffer<PairCoefficients> pairs;
  DeviceBuffer<int> species;
  DeviceBuffer<double> tables;
  // The Verlet lists (useList): per species pair, and per row for reservedRows rows.
  bool useList = false;
  int capacity = 0;
  std::size_t reservedRows = 0;
  DeviceBuffer<double> listRadius2;
  DeviceBuffer<double> reference;
  DeviceBuffer<int> counts;
  DeviceBuffer<unsigned short> list;
  DeviceBuffer<unsigned long long> rebuilds;
  // The host entry point's arrays: the kernel reads each coordinate once (into shared memory)
  // and writes each result once, so small calls run on them in place.
  BatchedHostStaging staging{/*kernelReadsOnce=*/true};
};

BatchedPairPotentialCuda::BatchedPairPotentialCuda(PairModel model, int threadsPerStructure,
                                                   BatchedPairList list, double skin)
    : m_state(std::make_unique<DeviceState>(std::move(model), threadsPerStructure, list, skin)) {}

BatchedPairPotentialCuda::~BatchedPairPotentialCuda() = default;

std::size_t BatchedPairPotentialCuda::dimension() const { return 3 * m_state->model.atoms(); }
const PairModel& BatchedPairPotentialCuda::model() const { return m_state->model; }
int BatchedPairPotentialCuda::threadsPerStructure() const { return m_state->threads; }
int BatchedPairPotentialCuda::lanesPerAtom() const { return m_state->lanes; }
bool BatchedPairPotentialCuda::usesNeighbourList() const { return m_state->useList; }
double BatchedPairPotentialCuda::skin() const { return m_state->skin; }
int BatchedPairPotentialCuda::listCapacity() const { return m_state->capacity; }
std::size_t BatchedPairPotentialCuda::bytesPerStructure() const {
  return m_state->bytesPerStructure();
}
void BatchedPairPotentialCuda::reserve(std::size_t batch) { m_state->reserve(batch); }

long BatchedPairPotentialCuda::listRebuilds() const {
  if (!m_state->useList) return 0;
  // Every stream's launches counted (a non-blocking stream's too).
  synchronizeDevice();
  unsigned long long count = 0;
  LANDSCAPE_CUDA_CHECK(cudaMemcpy(&count, m_state->rebuilds.data(), sizeof count,
                                  cudaMemcpyDeviceToHost));
  return static_cast<long>(count);
}

std::string BatchedPairPotentialCuda::name() const {
  return "batched " + m_state->model.describe() + " (cuda, " + std::to_string(m_state->threads) +
         " threads per structure" + (m_state->useList ? ", Verlet lists" : "") + ")";
}

void BatchedPairPotentialCuda::energyGradientDevice(std::size_t batch, const double* d_x,
                                                    double* d_g, double* d_energy,
                                                    const std::uint8_t* d_active,
                                                    DeviceStream stream) {
  if (batch == 0) return;
  requireArrays(d_x, d_g, d_energy, "device entry point");
  m_state->reserve(batch);
  BatchedPairArgs a = m_state->args(batch);
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_energy = d_energy;
  a.d_active = d_active;
  launchBatchedPair(a, static_cast<cudaStream_t>(stream));
}

BatchedPotential::HostArrays BatchedPairPotentialCuda::hostArrays(std::size_t batch) {
  return m_state->staging.arrays(batch, dimension());
}

void BatchedPairPotentialCuda::preferOnDevice() { m_state->staging.preferOnDevice(); }

void BatchedPairPotentialCuda::energyGradient(std::size_t batch, const double* x, double* g,
                                              double* energy, const std::uint8_t* active) {
  if (batch == 0) return;
  requireArrays(x, g, energy, "host entry point");
  m_state->staging.run(*this, batch, x, g, energy, active);
}

}  // namespace landscape
