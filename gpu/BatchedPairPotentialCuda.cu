#include <climits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/BatchedHostStaging.h"
#include "gpu/BatchedPairKernels.cuh"
#include "gpu/BatchedPairPotentialCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GpuDevice.h"

namespace landscape {

namespace {

void requireArrays(const void* x, const void* g, const void* energy, const char* where) {
  if (!x || !g || !energy)
    throw std::invalid_argument(std::string("batched pair potential on cuda, ") + where +
                                ": coordinates, gradients and energies must not be null");
}

}  // namespace

struct BatchedPairPotentialCuda::DeviceState {
  DeviceState(PairModel m, int requestedThreads) : model(std::move(m)) {
    model.check();
    if (model.atoms() > static_cast<std::size_t>(INT_MAX / 3))
      throw std::invalid_argument("batched pair potential on cuda: too many atoms (" +
                                  std::to_string(model.atoms()) + ")");
    if (requestedThreads != 0 &&
        (requestedThreads < 32 || requestedThreads > 1024 || requestedThreads % 32 != 0))
      throw std::invalid_argument(
          "batched pair potential on cuda: threads per structure must be a multiple of 32 from "
          "32 to 1024 (or 0: chosen), got " +
          std::to_string(requestedThreads));
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
  }

  BatchedPairArgs args(std::size_t batch) const {
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
    return a;
  }

  PairModel model;
  int atoms = 0, threads = 256, lanes = 1;
  std::size_t sharedBytes = 0;
  DeviceBuffer<PairCoefficients> pairs;
  DeviceBuffer<int> species;
  DeviceBuffer<double> tables;
  BatchedHostStaging staging;  // the host entry point's arrays
};

BatchedPairPotentialCuda::BatchedPairPotentialCuda(PairModel model, int threadsPerStructure)
    : m_state(std::make_unique<DeviceState>(std::move(model), threadsPerStructure)) {}

BatchedPairPotentialCuda::~BatchedPairPotentialCuda() = default;

std::size_t BatchedPairPotentialCuda::dimension() const { return 3 * m_state->model.atoms(); }
const PairModel& BatchedPairPotentialCuda::model() const { return m_state->model; }
int BatchedPairPotentialCuda::threadsPerStructure() const { return m_state->threads; }
int BatchedPairPotentialCuda::lanesPerAtom() const { return m_state->lanes; }

std::string BatchedPairPotentialCuda::name() const {
  return "batched " + m_state->model.describe() + " (cuda, " + std::to_string(m_state->threads) +
         " threads per structure)";
}

void BatchedPairPotentialCuda::energyGradientDevice(std::size_t batch, const double* d_x,
                                                    double* d_g, double* d_energy,
                                                    const std::uint8_t* d_active,
                                                    DeviceStream stream) {
  if (batch == 0) return;
  requireArrays(d_x, d_g, d_energy, "device entry point");
  BatchedPairArgs a = m_state->args(batch);
  a.d_x = d_x;
  a.d_g = d_g;
  a.d_energy = d_energy;
  a.d_active = d_active;
  launchBatchedPair(a, static_cast<cudaStream_t>(stream));
}

void BatchedPairPotentialCuda::energyGradient(std::size_t batch, const double* x, double* g,
                                              double* energy, const std::uint8_t* active) {
  if (batch == 0) return;
  requireArrays(x, g, energy, "host entry point");
  m_state->staging.run(batch, dimension(), x, g, energy, active,
                       [&](const double* d_x, double* d_g, double* d_e, const std::uint8_t* d_a) {
                         energyGradientDevice(batch, d_x, d_g, d_e, d_a, nullptr);
                       });
}

}  // namespace landscape
