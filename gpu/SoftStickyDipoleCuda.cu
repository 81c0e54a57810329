// SoftStickyDipoleCuda (gpu/SoftStickyDipoleCuda.h): a batch of one of
// BatchedSoftStickyDipoleCuda, with the CPU reference for per-marker energies.
#include "gpu/BatchOfOne.cuh"
#include "gpu/BatchedSoftStickyDipoleCuda.h"
#include "gpu/SoftStickyDipoleCuda.h"

namespace landscape {

// One structure is a batch of one (gpu/BatchOfOne.cuh).
struct SoftStickyDipoleCuda::DeviceState : BatchOfOne<BatchedSoftStickyDipoleCuda> {
  using BatchOfOne::BatchOfOne;
};

SoftStickyDipoleCuda::SoftStickyDipoleCuda(const SoftStickyDipoleParams& params,
                                           std::size_t molecules)
    : m_device(std::make_unique<DeviceState>(params, molecules)) {}

SoftStickyDipoleCuda::~SoftStickyDipoleCuda() = default;

std::size_t SoftStickyDipoleCuda::dimension() const { return m_device->batched.dimension(); }

std::string SoftStickyDipoleCuda::name() const {
  std::string n =
      SoftStickyDipole(m_device->batched.params(), m_device->batched.moleculeCount()).name();
  return n.substr(0, n.rfind("(cpu)")) + "(cuda)";
}

double SoftStickyDipoleCuda::energyGradientDevice(const double* d_x, double* d_g) {
  return m_device->energyGradientDevice(d_x, d_g);
}

double SoftStickyDipoleCuda::energyGradient(const double* x, double* g) {
  return m_device->energyGradient(x, g);
}

double SoftStickyDipoleCuda::energy(const double* x) { return m_device->energyOnly(x); }

bool SoftStickyDipoleCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  if (!m_reference)
    m_reference = std::make_unique<SoftStickyDipole>(m_device->batched.params(),
                                                     m_device->batched.moleculeCount());
  return m_reference->perAtomEnergies(x, atomEnergies);
}

}  // namespace landscape
